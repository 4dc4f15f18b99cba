package dev.msjvm.engine.exec;

import java.util.Objects;

/**
 * A parallel compile one rank made for the ranks of its job sharing the JVM: the plan, and how the
 * traced function's results are arranged ({@code outputs}: the front end's template of the returned
 * structure, as text).
 */
public record SharedCompile(ParallelPlan plan, String outputs) {
  public SharedCompile {
    Objects.requireNonNull(plan);
    Objects.requireNonNull(outputs);
  }
}
