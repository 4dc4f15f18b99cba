package dev.msjvm.engine.ops;

import dev.msjvm.engine.MsException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every operator the engine knows, by MindSpore primitive name. Immutable, so shared by all
 * interpreters of the JVM. Example: {@code OpTable.get("MatMul").kernel()}.
 */
public final class OpTable {
  private static final Map<String, OpDef> OPS = build();

  private OpTable() {}

  private static Map<String, OpDef> build() {
    Map<String, OpDef> m = new TreeMap<>();
    for (List<OpDef> family :
        List.of(
            ElementwiseOps.defs(),
            ElementaryOps.defs(),
            ArithmeticOps.defs(),
            ArithmeticExtraOps.defs(),
            ReductionOps.defs(),
            NnExtraOps.defs(),
            ScatterOps.defs(),
            ArrayOps.defs(),
            MathOps.defs(),
            LinalgOps.defs(),
            NnOps.defs(),
            Nn3dOps.defs(),
            AttentionOps.defs(),
            IndexOps.defs(),
            OptimizerOps.defs(),
            DebugOps.defs(),
            PythonPrimitiveOps.defs())) {
      for (OpDef d : family) {
        if (m.put(d.name(), d) != null) {
          throw new IllegalStateException("operator " + d.name() + " declared twice");
        }
      }
    }
    // Sorted iteration, hashed lookup (the search asks for operators by name in its inner loops).
    return Collections.unmodifiableMap(new java.util.LinkedHashMap<>(m));
  }

  /** The operator named {@code name}, or a RuntimeError naming it. */
  public static OpDef get(String name) {
    OpDef d = OPS.get(name);
    if (d == null) {
      throw MsException.runtimeError("The operator '" + name + "' is not supported by msjvm yet.");
    }
    return d;
  }

  public static boolean has(String name) {
    return OPS.containsKey(name);
  }

  /** The operator named {@code name}, or null. */
  public static OpDef find(String name) {
    return OPS.get(name);
  }

  /** The cost role of operator {@code name}, or null for an operator the table does not hold. */
  public static CostRole roleOf(String name) {
    OpDef d = OPS.get(name);
    return d == null ? null : d.costRole();
  }

  /** The names of all operators, sorted. */
  public static List<String> names() {
    return List.copyOf(OPS.keySet());
  }
}
