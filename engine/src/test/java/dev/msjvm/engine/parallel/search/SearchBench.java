package dev.msjvm.engine.parallel.search;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.TensorLayout;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Search time of each {@code search_mode} on generated transformer blocks (13 operators and 7
 * parameters each: Q/K/V projections, scores, softmax, context, output projection, residual, MLP
 * with bias and GeLU, residual) of about 1,000 and 10,000 operators on 8, 64 and 1,024 devices.
 *
 * <p>Run by {@code bench/search/run.sh}: each case in its own JVM with a 60 s limit (DP's cost
 * graph grows with candidates squared per edge), printing one table row per case. {@code
 * recursive_programming} is SAPP alone (the refinement under the cost model runs only up to 2,000
 * operators and 64 devices); the other two modes include building the cost graph (every candidate's
 * layouts and cost), which is most of their time.
 */
public final class SearchBench {

  private SearchBench() {}

  static final int TOKENS = 4096;
  static final int HIDDEN = 256;
  static final int FFN = 1024;

  /** About {@code ops} operators of transformer blocks on {@code devices} devices. */
  static OpGraph transformer(int ops, int devices) {
    List<OpGraph.Node> n = new ArrayList<>();
    n.add(
        OpGraph.Node.data(
            "x", TensorLayout.of(DeviceMatrix.of(devices), new int[] {0, -1}, TOKENS, HIDDEN)));
    int x = 0;
    Shape th = Shape.of(TOKENS, HIDDEN);
    Shape tf = Shape.of(TOKENS, FFN);
    for (int block = 0; n.size() < ops * 20 / 13; block++) {
      int q = matmul(n, x, param(n, "wq" + block, HIDDEN, HIDDEN), th, HIDDEN, false);
      int k = matmul(n, x, param(n, "wk" + block, HIDDEN, HIDDEN), th, HIDDEN, false);
      int v = matmul(n, x, param(n, "wv" + block, HIDDEN, HIDDEN), th, HIDDEN, false);
      int s = matmul(n, q, k, th, TOKENS, true);
      Shape tt = Shape.of(TOKENS, TOKENS);
      int p = op(n, "Softmax", Attrs.of("axis", -1), List.of(tt), tt, s);
      int o = matmul(n, p, v, tt, HIDDEN, false);
      int o2 = matmul(n, o, param(n, "wo" + block, HIDDEN, HIDDEN), th, HIDDEN, false);
      int r = op(n, "Add", Attrs.EMPTY, List.of(th, th), th, x, o2);
      int h = matmul(n, r, param(n, "w1" + block, HIDDEN, FFN), th, FFN, false);
      int b = n.size();
      n.add(OpGraph.Node.param("b1" + block, Shape.of(FFN), null));
      int hb = op(n, "BiasAdd", Attrs.EMPTY, List.of(tf, Shape.of(FFN)), tf, h, b);
      int g = op(n, "GeLU", Attrs.EMPTY, List.of(tf), tf, hb);
      int y = matmul(n, g, param(n, "w2" + block, FFN, HIDDEN), tf, HIDDEN, false);
      x = op(n, "Add", Attrs.EMPTY, List.of(th, th), th, r, y);
    }
    return new OpGraph(n, devices);
  }

  private static int param(List<OpGraph.Node> n, String name, int rows, int cols) {
    n.add(OpGraph.Node.param(name, Shape.of(rows, cols), null));
    return n.size() - 1;
  }

  private static int matmul(
      List<OpGraph.Node> n, int a, int b, Shape as, int cols, boolean transposeB) {
    Shape bs = transposeB ? Shape.of(cols, as.dim(1)) : Shape.of(as.dim(1), cols);
    return op(
        n,
        "MatMul",
        Attrs.of("transpose_a", false, "transpose_b", transposeB),
        List.of(as, bs),
        Shape.of(as.dim(0), cols),
        a,
        b);
  }

  private static int op(
      List<OpGraph.Node> n, String name, Attrs attrs, List<Shape> in, Shape out, int... inputs) {
    List<OpGraph.Src> srcs = new ArrayList<>();
    for (int i : inputs) {
      srcs.add(new OpGraph.Src(i, 0));
    }
    n.add(OpGraph.Node.op(name, attrs, in, List.of(out), srcs, null));
    return n.size() - 1;
  }

  static long operators(OpGraph g) {
    return g.nodes().stream().filter(x -> x.kind() == OpGraph.Kind.OP).count();
  }

  /** One case in this JVM: prints "RESULT mode ops devices seconds". */
  static void runCase(String mode, int ops, int devices) {
    OpGraph g = transformer(ops, devices);
    // A compile has loaded the operator and rule tables long before it searches (its trace ran
    // the operators): their class initialisation is not search time.
    dev.msjvm.engine.ops.OpTable.names();
    dev.msjvm.engine.parallel.rules.Rules.names();
    long start = System.nanoTime();
    switch (mode) {
      case StrategySearch.RECURSIVE_PROGRAMMING ->
          RecursiveProgramming.solve(g, CostModel.defaults());
      default -> StrategySearch.solve(new CostGraph(g, CostModel.defaults()), mode);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "RESULT %s %d %d %.3f%n", mode, operators(g), devices, seconds);
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 3) {
      runCase(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]));
      return;
    }
    int limit = args.length > 0 ? Integer.parseInt(args[0]) : 60;
    String java = ProcessHandle.current().info().command().orElse("java");
    String cp = System.getProperty("java.class.path");
    System.out.println("| search_mode | operators | devices | search time (s) |");
    System.out.println("|---|---|---|---|");
    for (String mode :
        List.of(
            StrategySearch.RECURSIVE_PROGRAMMING,
            StrategySearch.SHARDING_PROPAGATION,
            StrategySearch.DYNAMIC_PROGRAMMING)) {
      for (int ops : new int[] {1000, 10000}) {
        for (int devices : new int[] {8, 64, 1024}) {
          Process p =
              new ProcessBuilder(
                      java,
                      "-Xmx8g",
                      "-cp",
                      cp,
                      SearchBench.class.getName(),
                      mode,
                      String.valueOf(ops),
                      String.valueOf(devices))
                  .redirectErrorStream(true)
                  .start();
          String result = null;
          boolean done = p.waitFor(limit, TimeUnit.SECONDS);
          if (done) {
            try (BufferedReader r =
                new BufferedReader(
                    new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
              for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("RESULT ")) {
                  result = line;
                } else if (line.contains("OutOfMemoryError")) {
                  result = "out of memory";
                } else if (line.contains("No available cost")) {
                  result = line.substring(line.indexOf("No available cost")).trim();
                }
              }
            }
          } else {
            p.destroyForcibly().waitFor();
          }
          long opCount = operators(transformer(ops, devices));
          String time =
              !done
                  ? "> " + limit + " (stopped)"
                  : result == null
                      ? "failed (exit " + p.exitValue() + ")"
                      : result.startsWith("RESULT") ? result.split(" ")[4] : result;
          System.out.printf(Locale.ROOT, "| %s | %d | %d | %s |%n", mode, opCount, devices, time);
        }
      }
    }
  }
}
