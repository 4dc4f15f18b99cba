package dev.msjvm.shim;

import java.nio.file.Path;

/**
 * Where the Java side of the shim may read and write files for one interpreter (checkpoints,
 * datasets, strategy files, timelines): paths are resolved against the interpreter's working
 * directory, not the JVM's, and a sandboxed job's policy refuses those outside its directory with a
 * {@link SecurityException} (Python sees PermissionError).
 */
public interface FilePolicy {

  /** The file to read for {@code path} as Python gave it. */
  Path read(String path);

  /** The file to write for {@code path} as Python gave it. */
  Path write(String path);

  /** Everything allowed, relative paths against {@code workingDirectory} (the launchers'). */
  static FilePolicy unrestricted(Path workingDirectory) {
    return checked(workingDirectory, (path, write) -> path);
  }

  /** A check of an absolute path: returns it or throws {@link SecurityException}. */
  interface Check {
    Path apply(Path path, boolean write);
  }

  /** Relative paths against {@code workingDirectory}, every path through {@code check}. */
  static FilePolicy checked(Path workingDirectory, Check check) {
    Path cwd = workingDirectory.toAbsolutePath();
    return new FilePolicy() {
      @Override
      public Path read(String path) {
        return check.apply(cwd.resolve(path), false);
      }

      @Override
      public Path write(String path) {
        return check.apply(cwd.resolve(path), true);
      }
    };
  }
}
