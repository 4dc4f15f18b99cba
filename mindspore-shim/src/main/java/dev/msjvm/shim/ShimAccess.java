package dev.msjvm.shim;

import dev.msjvm.engine.job.Session;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.graalvm.polyglot.HostAccess;

/**
 * What Python may touch of Java: the public members of this project's own classes (the shim's
 * {@link Host} and the engine objects it hands out), and nothing of the JDK's or of any library's
 * beyond element access to arrays, lists, maps, iterators and buffers.
 *
 * <p>A context built with {@link HostAccess#ALL} lets a script walk {@code getClass()} to a class
 * loader and on to {@code java.lang.Runtime}; under this policy {@code getClass}, {@code wait},
 * {@code notify} and every member of {@code Class}, the reflection API, threads, processes, files
 * and sockets are simply absent (Python sees {@code AttributeError}). The allowed members are
 * listed once per JVM by reading the class names of the {@code dev.msjvm.engine} and {@code
 * dev.msjvm.shim} code (their jar or class directory), so a new engine class is reachable without a
 * registration step; {@code ShimAccessTest} checks that no allowed method hands out a type that
 * would reopen the door (a {@code Class}, a reflective object, a thread, a file or a path).
 *
 * <p>Python objects may stand in for our own interfaces and for functional interfaces (callbacks);
 * they may not implement arbitrary JDK interfaces.
 */
public final class ShimAccess {
  private ShimAccess() {}

  /** The packages whose public members Python may use. */
  static final List<String> PACKAGES = List.of("dev.msjvm.engine", "dev.msjvm.shim");

  /**
   * The shim's own Java-side plumbing, which no Python code holds (the file policy with its paths,
   * where the shim's sources are unpacked, this policy).
   */
  private static final List<String> JAVA_ONLY =
      List.of("dev.msjvm.shim.FilePolicy", "dev.msjvm.shim.ShimFiles", "dev.msjvm.shim.ShimAccess");

  private static final List<Class<?>> CLASSES = scan();
  private static final HostAccess POLICY = build();

  /** The policy for every interpreter that runs the shim (immutable; one per JVM). */
  public static HostAccess policy() {
    return POLICY;
  }

  private static HostAccess build() {
    HostAccess.Builder b =
        HostAccess.newBuilder()
            .allowArrayAccess(true)
            .allowListAccess(true)
            .allowMapAccess(true)
            .allowIterableAccess(true)
            .allowIteratorAccess(true)
            .allowBufferAccess(true)
            .allowBigIntegerNumberAccess(true)
            // A public method of ours reached through an object of a non-public class (an
            // interface's implementation) is allowed as the interface's method is.
            .allowAccessInheritance(true)
            .allowImplementationsAnnotatedBy(FunctionalInterface.class);
    for (Method m : allowedMethods()) {
      b.allowAccess(m);
    }
    for (Field f : allowedFields()) {
      b.allowAccess(f);
    }
    for (Class<?> c : projectClasses()) {
      if (c.isInterface()) {
        b.allowImplementations(c);
      }
    }
    return b.build();
  }

  /**
   * Every method Python may call: the public methods declared by this project's classes, plus the
   * harmless members every object or enum has ({@code toString}, {@code equals}, {@code hashCode},
   * {@code name}, {@code ordinal}, {@code compareTo}).
   */
  static List<Method> allowedMethods() {
    List<Method> methods = new ArrayList<>();
    for (Class<?> c : projectClasses()) {
      for (Method m : c.getDeclaredMethods()) {
        if (Modifier.isPublic(m.getModifiers())) {
          methods.add(m);
        }
      }
    }
    try {
      methods.add(Object.class.getMethod("toString"));
      methods.add(Object.class.getMethod("equals", Object.class));
      methods.add(Object.class.getMethod("hashCode"));
      methods.add(Enum.class.getMethod("name"));
      methods.add(Enum.class.getMethod("ordinal"));
      methods.add(Enum.class.getMethod("compareTo", Enum.class));
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
    return Collections.unmodifiableList(methods);
  }

  /** The public fields declared by this project's classes (constants, mostly). */
  static List<Field> allowedFields() {
    List<Field> fields = new ArrayList<>();
    for (Class<?> c : projectClasses()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isPublic(f.getModifiers())) {
          fields.add(f);
        }
      }
    }
    return fields;
  }

  /** The classes of {@link #PACKAGES}, loaded without initialising them. */
  static List<Class<?>> projectClasses() {
    return CLASSES;
  }

  private static List<Class<?>> scan() {
    List<Class<?>> list = new ArrayList<>();
    for (Class<?> anchor : List.of(Session.class, Host.class)) {
      for (String name : classNames(anchor)) {
        boolean javaOnly =
            JAVA_ONLY.stream().anyMatch(c -> name.equals(c) || name.startsWith(c + "$"));
        if (!javaOnly && PACKAGES.stream().anyMatch(p -> name.startsWith(p + "."))) {
          try {
            list.add(Class.forName(name, false, anchor.getClassLoader()));
          } catch (ClassNotFoundException | LinkageError e) {
            // A class that cannot be loaded cannot reach Python either.
          }
        }
      }
    }
    return List.copyOf(list);
  }

  /** The binary names of the classes in the jar or directory {@code anchor} was loaded from. */
  private static List<String> classNames(Class<?> anchor) {
    Path root;
    try {
      root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("cannot locate the code of " + anchor, e);
    }
    List<String> names = new ArrayList<>();
    try {
      if (Files.isDirectory(root)) {
        try (Stream<Path> files = Files.walk(root)) {
          files
              .filter(f -> f.toString().endsWith(".class"))
              .forEach(f -> names.add(binaryName(root.relativize(f).toString())));
        }
      } else {
        try (JarFile jar = new JarFile(root.toFile())) {
          jar.stream()
              .filter(e -> e.getName().endsWith(".class"))
              .forEach(e -> names.add(binaryName(e.getName())));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    names.removeIf(n -> n.endsWith("module-info") || n.endsWith("package-info"));
    return names;
  }

  private static String binaryName(String file) {
    return file.substring(0, file.length() - ".class".length())
        .replace('/', '.')
        .replace('\\', '.');
  }
}
