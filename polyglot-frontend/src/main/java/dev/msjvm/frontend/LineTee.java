package dev.msjvm.frontend;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * A rank's output: everything goes to its log file; with {@code --join=True} whole lines are also
 * copied to the console, so lines of different ranks never interleave mid-line.
 *
 * <p>stdout and stderr of a rank share one instance (one log file, as msrun redirects both).
 */
final class LineTee extends OutputStream {
  private final OutputStream log;
  private final PrintStream console;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  LineTee(OutputStream log, PrintStream console) {
    this.log = log;
    this.console = console;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    log.write(b);
    if (console != null) {
      line.write(b);
      if (b == '\n') {
        emitLine();
      }
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    log.write(b, off, len);
    if (console == null) {
      return;
    }
    int start = off;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\n') {
        line.write(b, start, i + 1 - start);
        emitLine();
        start = i + 1;
      }
    }
    line.write(b, start, off + len - start);
  }

  private void emitLine() {
    synchronized (console) {
      console.write(line.toByteArray(), 0, line.size());
      console.flush();
    }
    line.reset();
  }

  @Override
  public synchronized void flush() throws IOException {
    log.flush();
  }

  @Override
  public synchronized void close() throws IOException {
    if (console != null && line.size() > 0) {
      line.write('\n');
      emitLine();
    }
    log.close();
  }
}
