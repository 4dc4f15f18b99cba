package dev.msjvm.shim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Locates the Python sources of the shim ({@code mindspore}, the script runner) on disk.
 *
 * <p>The sources ship as resources under {@code msjvm/python}. Run from a build tree they are used
 * in place; run from a jar they are copied once into {@code <cache>/shim-<sha256 prefix>}, so
 * changed sources get a fresh directory and concurrent JVMs never see a half-written one (each copy
 * is written to a temporary directory and moved into place).
 */
public final class ShimFiles {
  private static final String ROOT = "msjvm/python";

  private ShimFiles() {}

  /** The directory to put on {@code python.PythonPath}. */
  public static Path pythonRoot(Path cacheDir) {
    URL marker = ShimFiles.class.getClassLoader().getResource(ROOT + "/mindspore/__init__.py");
    if (marker == null) {
      throw new IllegalStateException("shim resources " + ROOT + " missing from the classpath");
    }
    try {
      URI uri = marker.toURI();
      if ("file".equals(uri.getScheme())) {
        return Path.of(uri).getParent().getParent();
      }
      String spec = uri.toString();
      URI jarUri = URI.create(spec.substring(0, spec.indexOf("!/")));
      try (FileSystem fs = FileSystems.newFileSystem(jarUri, Map.of())) {
        return extract(fs.getPath("/" + ROOT), cacheDir);
      }
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path extract(Path source, Path cacheDir) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(source)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    MessageDigest sha = sha256();
    for (Path f : files) {
      sha.update(source.relativize(f).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      sha.update(Files.readAllBytes(f));
    }
    String hash = HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    Path target = cacheDir.resolve("shim-" + hash);
    if (Files.isDirectory(target)) {
      return target;
    }
    Files.createDirectories(cacheDir);
    Path tmp = Files.createTempDirectory(cacheDir, "shim-tmp-");
    for (Path f : files) {
      Path out = tmp.resolve(source.relativize(f).toString());
      Files.createDirectories(out.getParent());
      try (InputStream in = Files.newInputStream(f)) {
        Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
      }
    }
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException raced) {
      if (!Files.isDirectory(target)) {
        throw raced;
      }
      deleteTree(tmp);
    }
    return target;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
