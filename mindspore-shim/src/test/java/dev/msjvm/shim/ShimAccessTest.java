package dev.msjvm.shim;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.job.Session;
import dev.msjvm.engine.tensor.Tensor;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What {@link ShimAccess} lets Python call: our classes' public methods, no JDK member that leads
 * to reflection, class loaders, threads, processes or files, and no allowed method that hands such
 * an object to Python.
 */
class ShimAccessTest {

  /** Types whose objects would let a script escape: it must never hold one. */
  private static final List<Class<?>> FORBIDDEN =
      List.of(
          Class.class,
          ClassLoader.class,
          java.lang.reflect.AccessibleObject.class,
          java.lang.reflect.Member.class,
          java.lang.invoke.MethodHandle.class,
          java.lang.invoke.MethodHandles.Lookup.class,
          Thread.class,
          ThreadGroup.class,
          Runtime.class,
          Process.class,
          ProcessBuilder.class,
          ProcessHandle.class,
          java.io.File.class,
          java.nio.file.Path.class,
          java.nio.file.FileSystem.class,
          java.nio.channels.Channel.class,
          java.io.InputStream.class,
          java.io.OutputStream.class,
          java.io.Reader.class,
          java.io.Writer.class,
          java.net.Socket.class,
          java.net.ServerSocket.class,
          java.net.URL.class,
          java.util.concurrent.Executor.class,
          FilePolicy.class,
          org.graalvm.polyglot.Context.class,
          org.graalvm.polyglot.Engine.class);

  @Test
  void ourClassesAreFoundFromJarsAndClassDirectories() {
    List<Class<?>> classes = ShimAccess.projectClasses();
    assertTrue(classes.contains(Host.class), "the shim (a class directory under tests)");
    assertTrue(classes.contains(Session.class), "the engine (a jar)");
    assertTrue(classes.contains(Tensor.class));
    for (Class<?> c : classes) {
      assertTrue(
          ShimAccess.PACKAGES.stream().anyMatch(p -> c.getName().startsWith(p + ".")), c.getName());
    }
  }

  @Test
  void noJdkMemberBeyondTheHarmlessOnes() {
    Set<String> harmless =
        Set.of(
            "java.lang.Object.toString",
            "java.lang.Object.equals",
            "java.lang.Object.hashCode",
            "java.lang.Enum.name",
            "java.lang.Enum.ordinal",
            "java.lang.Enum.compareTo");
    for (Method m : ShimAccess.allowedMethods()) {
      String owner = m.getDeclaringClass().getName();
      if (!owner.startsWith("dev.msjvm.")) {
        assertTrue(harmless.contains(owner + "." + m.getName()), "allowed: " + m);
      }
    }
    assertFalse(
        ShimAccess.allowedMethods().stream().anyMatch(m -> m.getName().equals("getClass")),
        "getClass must stay out of reach");
  }

  @Test
  void noAllowedMethodHandsOutAnEscapeHatch() {
    List<String> offenders = new ArrayList<>();
    for (Method m : ShimAccess.allowedMethods()) {
      if (mentionsForbidden(m.getGenericReturnType())) {
        offenders.add(m.toGenericString());
      }
    }
    for (var f : ShimAccess.allowedFields()) {
      if (mentionsForbidden(f.getGenericType())) {
        offenders.add(f.toGenericString());
      }
    }
    assertTrue(offenders.isEmpty(), "methods and fields Python could use to escape: " + offenders);
  }

  private static boolean mentionsForbidden(Type t) {
    if (t instanceof Class<?> c) {
      Class<?> e = c;
      while (e.isArray()) {
        e = e.getComponentType();
      }
      Class<?> element = e;
      return FORBIDDEN.stream().anyMatch(f -> f.isAssignableFrom(element));
    }
    if (t instanceof ParameterizedType p) {
      if (mentionsForbidden(p.getRawType())) {
        return true;
      }
      for (Type a : p.getActualTypeArguments()) {
        if (mentionsForbidden(a)) {
          return true;
        }
      }
      return false;
    }
    if (t instanceof WildcardType w) {
      for (Type b : w.getUpperBounds()) {
        if (b != Object.class && mentionsForbidden(b)) {
          return true;
        }
      }
    }
    return false;
  }
}
