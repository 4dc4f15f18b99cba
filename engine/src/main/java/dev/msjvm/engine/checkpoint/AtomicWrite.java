package dev.msjvm.engine.checkpoint;

import dev.msjvm.engine.MsException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;

/**
 * How a checkpoint file is written, in either format: into a temporary file beside it, synced,
 * renamed over it in one step, then made owner-read-only ({@code os.chmod(ckpt_file_name,
 * stat.S_IRUSR)} in MindSpore's {@code _exec_save}). A failure leaves no partial file and raises
 * MindSpore's text.
 */
final class AtomicWrite {
  /** Writes the file's bytes to {@code out}. */
  interface Body {
    void write(OutputStream out) throws IOException;
  }

  private AtomicWrite() {}

  static void to(Path file, Body body) {
    Path target = file.toAbsolutePath();
    Path tmp = null;
    try {
      tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        OutputStream os = Channels.newOutputStream(ch);
        body.write(os);
        ch.force(true);
      }
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      tmp = null;
      if (Files.getFileStore(target).supportsFileAttributeView("posix")) {
        Files.setPosixFilePermissions(target, EnumSet.of(PosixFilePermission.OWNER_READ));
      }
    } catch (IOException e) {
      // MindSpore's _exec_save logs this text and re-raises the OS error.
      throw new MsException(
          MsException.Kind.RUNTIME_ERROR,
          "Failed to save the checkpoint file "
              + target
              + ". Maybe don't have the permission to write files, or the disk space is"
              + " insufficient and so on. ("
              + e
              + ")",
          e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the original failure is what matters
        }
      }
    }
  }
}
