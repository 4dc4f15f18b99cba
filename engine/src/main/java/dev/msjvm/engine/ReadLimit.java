package dev.msjvm.engine;

import java.util.List;

/**
 * How many bytes a reader of a user's file (a {@code .ckpt} checkpoint, an MNIST idx file, a
 * strategy file) may take into memory as one block, and the check that every size such a file
 * declares passes before anything of that size is allocated.
 *
 * <p>A file declares sizes: a protobuf length, an idx header's counts, a tensor's dims. A reader
 * checks each against the bytes the file really has left and against {@link #maxBytes} first, and
 * only then allocates, so a 28-byte file that declares 300 million floats costs 28 bytes. Products
 * of dims are computed exactly ({@link #byteSize}); one that overflows is refused, never wrapped.
 *
 * <p>The limit is one tensor's content for a checkpoint, and the whole file for an idx or strategy
 * file. It defaults to none beyond the file's own size and the largest Java array ({@link
 * #MAX_ARRAY}); the Java system property {@value #PROPERTY} sets it in bytes (e.g. {@code
 * MSJVM_JAVA_OPTS=-Dmsjvm.maxReadBytes=268435456} for 256 MiB), and the readers take one as an
 * argument too.
 *
 * <p>Example: {@code ReadLimit.none().refusal(1_200_000_000, 4)} is {@code "1200000000 bytes, but
 * only 4 are left"}; {@code refusal(4, 4)} is null.
 */
public record ReadLimit(long maxBytes) {
  /** The Java system property that sets {@link #maxBytes} for readers made without one. */
  public static final String PROPERTY = "msjvm.maxReadBytes";

  /** The most elements one Java array can hold (HotSpot's limit), so the most bytes of a byte[]. */
  public static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  public ReadLimit {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes " + maxBytes);
    }
  }

  /** No limit beyond a file's own size and {@link #MAX_ARRAY}. */
  public static ReadLimit none() {
    return new ReadLimit(Long.MAX_VALUE);
  }

  /** The limit {@value #PROPERTY} sets, or {@link #none()} when it is not set. */
  public static ReadLimit fromSystemProperty() {
    String value = System.getProperty(PROPERTY);
    if (value == null || value.isBlank()) {
      return none();
    }
    try {
      long n = Long.parseLong(value.strip());
      if (n > 0) {
        return new ReadLimit(n);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw MsException.valueError(
        "The system property "
            + PROPERTY
            + " must be a positive number of bytes, but got '"
            + value
            + "'.");
  }

  /**
   * Why a block of {@code declared} bytes cannot be read when {@code available} bytes are left, as
   * the end of a sentence ("... declares " + it), or null when it can be read.
   */
  public String refusal(long declared, long available) {
    if (declared < 0) {
      return "a size that does not fit in 63 bits";
    }
    if (declared > available) {
      return declared + " bytes, but only " + available + " are left";
    }
    if (declared > maxBytes) {
      return declared + " bytes, over the limit of " + maxBytes + " bytes set by " + PROPERTY;
    }
    if (declared > MAX_ARRAY) {
      return declared + " bytes, more than one array can hold (" + MAX_ARRAY + ")";
    }
    return null;
  }

  /**
   * The bytes of a tensor of {@code dims} with {@code itemSize}-byte elements, or -1 when a dim is
   * negative or the product overflows a {@code long} (a zero dim makes it 0 whatever the others).
   */
  public static long byteSize(List<? extends Number> dims, long itemSize) {
    if (dims.stream().anyMatch(d -> d.longValue() < 0)) {
      return -1;
    }
    if (dims.stream().anyMatch(d -> d.longValue() == 0)) {
      return 0;
    }
    long n = itemSize;
    for (Number d : dims) {
      try {
        n = Math.multiplyExact(n, d.longValue());
      } catch (ArithmeticException e) {
        return -1;
      }
    }
    return n;
  }
}
