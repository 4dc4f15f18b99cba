package dev.msjvm.frontend;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
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
 * do not lead out. Files the job creates and the bytes it writes count against its {@link
 * DiskQuota} (shared by all its ranks); past it a write fails as a full disk does ({@code
 * OSError}).
 */
public final class SandboxFileSystem implements FileSystem {
  private final FileSystem delegate;
  private final Path writable;
  private final List<Path> readable;
  private final DiskQuota quota;

  /** {@code writable}: the job's directory; {@code readOnly}: other roots it may read. */
  public SandboxFileSystem(Path writable, List<Path> readOnly) {
    this(writable, readOnly, DiskQuota.unlimited());
  }

  /** As above, with the files and bytes the job may hold under {@code writable}. */
  public SandboxFileSystem(Path writable, List<Path> readOnly, DiskQuota quota) {
    this.delegate = FileSystem.newDefaultFileSystem();
    this.writable = real(writable.toAbsolutePath().normalize());
    this.readable = readOnly.stream().map(p -> real(p.toAbsolutePath().normalize())).toList();
    this.quota = quota;
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
   * {@link #check} for the polyglot file system: a refusal is an {@link AccessDeniedException},
   * which GraalPy raises as {@code PermissionError} on every path (a {@code SecurityException} from
   * some of them, {@code os.chdir} among them, ended the rank instead).
   */
  private Path fsCheck(Path path, boolean write) throws AccessDeniedException {
    try {
      return check(path, write);
    } catch (SecurityException e) {
      throw new AccessDeniedException(path.toString(), null, e.getMessage());
    }
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
    delegate.checkAccess(fsCheck(path, modes.contains(AccessMode.WRITE)), modes, linkOptions);
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    Path p = fsCheck(dir, true);
    quota.addFile();
    try {
      delegate.createDirectory(p, attrs);
    } catch (IOException | RuntimeException e) {
      quota.removeFile(0);
      throw e;
    }
  }

  @Override
  public void delete(Path path) throws IOException {
    Path p = fsCheck(path, true);
    long size = sizeOrZero(p);
    delegate.delete(p);
    quota.removeFile(size);
  }

  private long sizeOrZero(Path p) {
    try {
      Object size = delegate.readAttributes(p, "size", LinkOption.NOFOLLOW_LINKS).get("size");
      return size instanceof Long l ? l : 0;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private boolean exists(Path p) {
    try {
      delegate.checkAccess(p, Set.of());
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  @Override
  public SeekableByteChannel newByteChannel(
      Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    boolean write = writes(options);
    Path p = fsCheck(path, write);
    if (!write || quota.isUnlimited()) {
      return delegate.newByteChannel(p, options, attrs);
    }
    boolean created = !exists(p);
    if (created) {
      quota.addFile();
    }
    long before = created ? 0 : sizeOrZero(p);
    SeekableByteChannel ch;
    try {
      ch = delegate.newByteChannel(p, options, attrs);
    } catch (IOException | RuntimeException e) {
      if (created) {
        quota.removeFile(0);
      }
      throw e;
    }
    if (options.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
      quota.release(before);
      before = 0;
    }
    return quota.track(ch, before);
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(
      Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
    return delegate.newDirectoryStream(fsCheck(dir, false), filter);
  }

  @Override
  public Path toAbsolutePath(Path path) {
    return delegate.toAbsolutePath(path);
  }

  @Override
  public Path toRealPath(Path path, LinkOption... linkOptions) throws IOException {
    return delegate.toRealPath(fsCheck(path, false), linkOptions);
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
      throws IOException {
    return delegate.readAttributes(fsCheck(path, false), attributes, options);
  }

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options)
      throws IOException {
    delegate.setAttribute(fsCheck(path, true), attribute, value, options);
  }

  @Override
  public void copy(Path source, Path target, java.nio.file.CopyOption... options)
      throws IOException {
    Path from = fsCheck(source, false);
    Path to = fsCheck(target, true);
    long size = sizeOrZero(from);
    long replaced = exists(to) ? sizeOrZero(to) : -1;
    quota.reserve(size - Math.max(0, replaced), replaced < 0 ? 1 : 0);
    delegate.copy(from, to, options);
  }

  @Override
  public void move(Path source, Path target, java.nio.file.CopyOption... options)
      throws IOException {
    delegate.move(fsCheck(source, true), fsCheck(target, true), options);
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
