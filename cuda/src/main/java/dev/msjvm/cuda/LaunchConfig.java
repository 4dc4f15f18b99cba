package dev.msjvm.cuda;

/**
 * A kernel launch's shape: {@code grid} blocks of {@code block} threads with {@code sharedBytes} of
 * dynamic shared memory (1-D grids and blocks only).
 */
public record LaunchConfig(int grid, int block, int sharedBytes) {

  /** Threads per block of the elementwise kernels. */
  static final int ELEMENTWISE_BLOCK = 256;

  /** Most threads per block of the row kernels (a power of two, for the tree reduction). */
  static final int MAX_ROW_BLOCK = 256;

  /**
   * For a grid-stride loop over {@code n} elements: enough 256-thread blocks to cover {@code n},
   * but no more than 32 per multiprocessor (beyond that, blocks only queue; the loop covers the
   * rest).
   */
  public static LaunchConfig elementwise(long n, int multiprocessors) {
    if (n <= 0) {
      throw new IllegalArgumentException("no elements");
    }
    long blocks = (n + ELEMENTWISE_BLOCK - 1) / ELEMENTWISE_BLOCK;
    int cap = Math.max(1, multiprocessors) * 32;
    return new LaunchConfig((int) Math.min(blocks, cap), ELEMENTWISE_BLOCK, 0);
  }

  /**
   * One block per row of a {@code rows x cols} matrix, with a power-of-two thread count between 32
   * (a warp) and 256 that does not exceed the row much, and a float of shared memory per thread for
   * the block's reductions.
   */
  public static LaunchConfig rows(int rows, int cols) {
    if (rows <= 0 || cols <= 0) {
      throw new IllegalArgumentException("empty matrix " + rows + "x" + cols);
    }
    int block = 32;
    while (block < cols && block < MAX_ROW_BLOCK) {
      block <<= 1;
    }
    return new LaunchConfig(rows, block, block * Float.BYTES);
  }

  /** One thread per column of a {@code rows x cols} matrix (coalesced along each row). */
  public static LaunchConfig columns(int cols) {
    if (cols <= 0) {
      throw new IllegalArgumentException("no columns");
    }
    return new LaunchConfig(
        (cols + ELEMENTWISE_BLOCK - 1) / ELEMENTWISE_BLOCK, ELEMENTWISE_BLOCK, 0);
  }
}
