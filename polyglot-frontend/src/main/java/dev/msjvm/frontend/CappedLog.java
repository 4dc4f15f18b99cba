package dev.msjvm.frontend;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An append-only log that keeps at most about {@code limit} bytes of what is written to it: the
 * head as it comes, and the last {@link #TAIL_BYTES} (or half the limit, if less), which are held
 * in memory and appended when the log is closed, after a line saying how many bytes were dropped in
 * between. Nothing is ever rewritten, so a reader following the file sees a consistent prefix.
 *
 * <p>Until the head is full every byte reaches the file at once; past that the newest bytes wait in
 * memory until {@link #close} (a failed job's traceback is in its tail). Example: a 2 GB stream
 * through a 4 MB limit leaves the first 3 MB, one marker line and the last 1 MB.
 */
public final class CappedLog extends OutputStream {
  /** No limit: everything goes through. */
  public static final long UNLIMITED = Long.MAX_VALUE;

  /** The most a log keeps of its end (held in memory while the job runs). */
  public static final int TAIL_BYTES = 1 << 20;

  private final OutputStream out;
  private final long limit;
  private final long head;
  private final int tailBytes;
  private byte[] tail; // allocated when the head is full
  private long written;
  private long tailCount;
  private boolean closed;

  /** A log over {@code out} keeping about {@code limit} bytes ({@link #UNLIMITED}: all). */
  public CappedLog(OutputStream out, long limit) {
    if (limit < 2) {
      throw new IllegalArgumentException("a log limit must be at least 2 bytes, got " + limit);
    }
    this.out = out;
    this.limit = limit;
    this.tailBytes = (int) Math.min(TAIL_BYTES, limit / 2);
    this.head = limit == UNLIMITED ? UNLIMITED : limit - tailBytes;
  }

  /** Wraps {@code out} unless {@code limit} is {@link #UNLIMITED}. */
  public static OutputStream of(OutputStream out, long limit) {
    return limit == UNLIMITED ? out : new CappedLog(out, limit);
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("log closed");
    }
    if (written < head) {
      int now = (int) Math.min(len, head - written);
      out.write(b, off, now);
      written += now;
      off += now;
      len -= now;
    }
    if (len > 0) {
      if (tail == null) {
        tail = new byte[tailBytes];
      }
      keep(b, off, len);
    }
  }

  /** Appends to the in-memory tail (a ring), the oldest bytes falling out. */
  private void keep(byte[] b, int off, int len) {
    int cap = tail.length;
    tailCount += len;
    if (len >= cap) {
      System.arraycopy(b, off + len - cap, tail, 0, cap);
      tailNext = 0;
      return;
    }
    int first = Math.min(len, cap - tailNext);
    System.arraycopy(b, off, tail, tailNext, first);
    System.arraycopy(b, off + first, tail, 0, len - first);
    tailNext = (tailNext + len) % cap;
  }

  /** Where the ring's next byte goes (once it is full, also where its oldest byte is). */
  private int tailNext;

  /** Bytes written to the log that are not (or not yet) in the file. */
  public synchronized long dropped() {
    return Math.max(0, tailCount - tailBytes);
  }

  @Override
  public synchronized void flush() throws IOException {
    out.flush();
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      long dropped = dropped();
      if (dropped > 0) {
        out.write(
            ("\n[msjvm] "
                    + dropped
                    + " bytes of output dropped here: a log keeps at most "
                    + limit
                    + " bytes (the first "
                    + head
                    + " and the last "
                    + tailBytes
                    + ")\n")
                .getBytes(StandardCharsets.UTF_8));
      }
      if (tail == null) {
        return;
      }
      if (tailCount >= tail.length) {
        out.write(tail, tailNext, tail.length - tailNext);
        out.write(tail, 0, tailNext);
      } else {
        out.write(tail, 0, (int) tailCount);
      }
    } finally {
      out.close();
    }
  }
}
