package dev.msjvm.frontend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * How many files and bytes one job may hold in its directory, and how many it holds now. Shared by
 * the job's ranks (every {@link SandboxFileSystem} of the job counts against the same one); a write
 * or a new file past it fails with an {@link IOException} saying "Disk quota exceeded", which a
 * script sees as {@code OSError} and may catch, as on a full disk.
 *
 * <p>Bytes are counted as files grow and shrink through the sandbox; the shim's Java-side writes
 * (checkpoints, strategy files) are checked against the quota before they start and counted when
 * the server next measures the directory ({@link #measure}).
 */
public final class DiskQuota {
  private final long maxBytes;
  private final long maxFiles;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong files = new AtomicLong();

  public DiskQuota(long maxBytes, long maxFiles) {
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
  }

  /** No limits (the launchers'). */
  public static DiskQuota unlimited() {
    return new DiskQuota(Long.MAX_VALUE, Long.MAX_VALUE);
  }

  public boolean isUnlimited() {
    return maxBytes == Long.MAX_VALUE && maxFiles == Long.MAX_VALUE;
  }

  public long maxBytes() {
    return maxBytes;
  }

  public long maxFiles() {
    return maxFiles;
  }

  public long bytes() {
    return bytes.get();
  }

  public long files() {
    return files.get();
  }

  /** Whether the job holds more than its quota (a Java-side write can overshoot once). */
  public boolean exceeded() {
    return bytes.get() > maxBytes || files.get() > maxFiles;
  }

  /**
   * Sets the counts from what {@code dir} holds now (files and directories, bytes of regular
   * files), skipping {@code except} (the logs, which have their own limit). Only before the job's
   * sandbox counts anything: a walk made while it runs misses the files it has reserved but not yet
   * made, so setting the counts then would let a file past the quota (see {@link #onDisk}).
   */
  public void measure(Path dir, Path except) {
    long[] counts = onDisk(dir, except);
    if (counts != null) {
      files.set(counts[0]);
      bytes.set(counts[1]);
    }
  }

  /**
   * What {@code dir} holds now, {@code {files and directories, bytes}} ({@code except} skipped),
   * leaving the counts alone; null when the directory is gone. The periodic check of a running job
   * uses it, so writes that bypass the sandbox (native code) are caught without racing the
   * sandbox's own counting.
   */
  public long[] onDisk(Path dir, Path except) {
    long[] counts = new long[2];
    try (Stream<Path> all = Files.walk(dir)) {
      all.filter(p -> !p.equals(dir) && (except == null || !p.startsWith(except)))
          .forEach(
              p -> {
                try {
                  BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                  counts[0]++;
                  if (a.isRegularFile()) {
                    counts[1] += a.size();
                  }
                } catch (IOException e) {
                  // Removed meanwhile.
                }
              });
    } catch (IOException | UncheckedIOException e) {
      return null; // the directory went away: nothing to count
    }
    return counts;
  }

  /** Counts one more file, or throws if the job may not create it. */
  void addFile() throws IOException {
    reserve(0, 1);
  }

  /** A file (of {@code size} bytes) is gone. */
  void removeFile(long size) {
    files.decrementAndGet();
    bytes.addAndGet(-size);
  }

  /** {@code n} bytes were freed (a truncation). */
  void release(long n) {
    bytes.addAndGet(-n);
  }

  /** Counts {@code moreBytes} and {@code moreFiles}, or throws if they do not fit. */
  void reserve(long moreBytes, long moreFiles) throws IOException {
    if (isUnlimited()) {
      return;
    }
    if (moreFiles > 0 && files.addAndGet(moreFiles) > maxFiles) {
      files.addAndGet(-moreFiles);
      throw new IOException(
          "Disk quota exceeded: a job may hold at most " + maxFiles + " files and directories");
    }
    if (moreBytes > 0 && bytes.addAndGet(moreBytes) > maxBytes) {
      bytes.addAndGet(-moreBytes);
      files.addAndGet(-moreFiles);
      throw new IOException("Disk quota exceeded: a job may hold at most " + maxBytes + " bytes");
    }
  }

  /**
   * {@code ch} (a file now {@code size} bytes long) with its growth counted: a write that would
   * take the job past its quota fails before any byte is written.
   */
  SeekableByteChannel track(SeekableByteChannel ch, long size) {
    return new SeekableByteChannel() {
      private long length = size;

      @Override
      public int write(ByteBuffer src) throws IOException {
        long end = ch.position() + src.remaining();
        long growth = end - length;
        if (growth > 0) {
          reserve(growth, 0);
          length = end;
        }
        return ch.write(src);
      }

      @Override
      public SeekableByteChannel truncate(long to) throws IOException {
        if (to < length) {
          release(length - to);
          length = to;
        }
        ch.truncate(to);
        return this;
      }

      @Override
      public int read(ByteBuffer dst) throws IOException {
        return ch.read(dst);
      }

      @Override
      public long position() throws IOException {
        return ch.position();
      }

      @Override
      public SeekableByteChannel position(long newPosition) throws IOException {
        ch.position(newPosition);
        return this;
      }

      @Override
      public long size() throws IOException {
        return ch.size();
      }

      @Override
      public boolean isOpen() {
        return ch.isOpen();
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    };
  }
}
