package dev.msjvm.frontend;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.graalvm.polyglot.io.FileSystem;

/**
 * A job's view of the disk: read and write under its own directory, read-only under the listed
 * roots (the shim, the shared datasets), nothing else — a path outside gets a {@link
 * SecurityException}, which Python sees as {@code PermissionError}. Paths are checked after
 * normalisation and with symbolic links resolved where the target exists, so {@code ..} and links
 * do not lead out.
 */
public final class SandboxFileSystem implements FileSystem {
  private final FileSystem delegate;
  private final Path writable;
  private final List<Path> readable;

  /** {@code writable}: the job's directory; {@code readOnly}: other roots it may read. */
  public SandboxFileSystem(Path writable, List<Path> readOnly) {
    this.delegate = FileSystem.newDefaultFileSystem();
    this.writable = real(writable.toAbsolutePath().normalize());
    this.readable = readOnly.stream().map(p -> real(p.toAbsolutePath().normalize())).toList();
  }

  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p;
    }
  }

  /** {@code path} made absolute, normalised and, where it exists, with links resolved. */
  private Path resolved(Path path) {
    Path abs = delegate.toAbsolutePath(path).normalize();
    Path existing = abs;
    Path rest = null;
    while (existing != null) {
      try {
        Path realExisting = existing.toRealPath();
        return rest == null ? realExisting : realExisting.resolve(rest).normalize();
      } catch (IOException e) {
        Path name = existing.getFileName();
        rest = rest == null ? name : name.resolve(rest);
        existing = existing.getParent();
      }
    }
    return abs;
  }

  private Path check(Path path, boolean write) {
    Path p = resolved(path);
    if (p.startsWith(writable)) {
      return path;
    }
    if (!write) {
      for (Path root : readable) {
        if (p.startsWith(root)) {
          return path;
        }
      }
    }
    throw new SecurityException(
        "msjvm sandbox: "
            + (write ? "writing " : "reading ")
            + p
            + " is outside the job directory");
  }

  /**
   * The shim's Java-side file access under the same rules ({@link dev.msjvm.shim.FilePolicy}):
   * relative paths against {@code cwd}.
   */
  public dev.msjvm.shim.FilePolicy policy(Path cwd) {
    return dev.msjvm.shim.FilePolicy.checked(cwd, this::check);
  }

  private static boolean writes(Set<? extends OpenOption> options) {
    return options.contains(StandardOpenOption.WRITE)
        || options.contains(StandardOpenOption.APPEND)
        || options.contains(StandardOpenOption.CREATE)
        || options.contains(StandardOpenOption.CREATE_NEW)
        || options.contains(StandardOpenOption.DELETE_ON_CLOSE)
        || options.contains(StandardOpenOption.TRUNCATE_EXISTING);
  }

  @Override
  public Path parsePath(URI uri) {
    return delegate.parsePath(uri);
  }

  @Override
  public Path parsePath(String path) {
    return delegate.parsePath(path);
  }

  @Override
  public void checkAccess(Path path, Set<? extends AccessMode> modes, LinkOption... linkOptions)
      throws IOException {
    delegate.checkAccess(check(path, modes.contains(AccessMode.WRITE)), modes, linkOptions);
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    delegate.createDirectory(check(dir, true), attrs);
  }

  @Override
  public void delete(Path path) throws IOException {
    delegate.delete(check(path, true));
  }

  @Override
  public SeekableByteChannel newByteChannel(
      Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    return delegate.newByteChannel(check(path, writes(options)), options, attrs);
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(
      Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
    return delegate.newDirectoryStream(check(dir, false), filter);
  }

  @Override
  public Path toAbsolutePath(Path path) {
    return delegate.toAbsolutePath(path);
  }

  @Override
  public Path toRealPath(Path path, LinkOption... linkOptions) throws IOException {
    return delegate.toRealPath(check(path, false), linkOptions);
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
      throws IOException {
    return delegate.readAttributes(check(path, false), attributes, options);
  }

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options)
      throws IOException {
    delegate.setAttribute(check(path, true), attribute, value, options);
  }

  @Override
  public void copy(Path source, Path target, java.nio.file.CopyOption... options)
      throws IOException {
    delegate.copy(check(source, false), check(target, true), options);
  }

  @Override
  public void move(Path source, Path target, java.nio.file.CopyOption... options)
      throws IOException {
    delegate.move(check(source, true), check(target, true), options);
  }

  @Override
  public void setCurrentWorkingDirectory(Path currentWorkingDirectory) {
    delegate.setCurrentWorkingDirectory(currentWorkingDirectory);
  }

  @Override
  public String getSeparator() {
    return delegate.getSeparator();
  }

  @Override
  public String getPathSeparator() {
    return delegate.getPathSeparator();
  }

  @Override
  public Path getTempDirectory() {
    return writable;
  }
}
