package dev.msjvm.engine.parallel.search;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random networks for the search tests: a dataset input, then layers of MatMul with a weight,
 * BiasAdd, ReLU/Tanh, Softmax, ReduceSum and Add joining two earlier branches (so graphs are not
 * only chains), every tensor 2-D with sizes from {4, 8, 16, 32}.
 */
final class RandomGraphs {
  private RandomGraphs() {}

  private static final int[] SIZES = {4, 8, 16, 32};

  /** A graph of at most {@code maxOps} operators on {@code devices} devices. */
  static OpGraph of(Random rnd, int maxOps, int devices) {
    List<OpGraph.Node> nodes = new ArrayList<>();
    List<int[]> tensors = new ArrayList<>(); // {node, rows, cols}
    int batch = SIZES[1 + rnd.nextInt(3)];
    int width = SIZES[rnd.nextInt(SIZES.length)];
    int[] map = {rnd.nextBoolean() ? 0 : -1, -1};
    nodes.add(OpGraph.Node.data("x", TensorLayout.of(DeviceMatrix.of(devices), map, batch, width)));
    tensors.add(new int[] {0, batch, width});
    int ops = 1 + rnd.nextInt(maxOps);
    for (int k = 0; k < ops; k++) {
      int[] t = tensors.get(tensors.size() - 1 - rnd.nextInt(Math.min(3, tensors.size())));
      Shape ts = Shape.of(t[1], t[2]);
      OpGraph.Src src = new OpGraph.Src(t[0], 0);
      int kind = rnd.nextInt(6);
      if (kind == 0 || k == 0) {
        int out = SIZES[rnd.nextInt(SIZES.length)];
        Shape ws = Shape.of(t[2], out);
        int w = -1;
        for (int p = 0; p < nodes.size() && rnd.nextBoolean(); p++) {
          if (nodes.get(p).kind() == OpGraph.Kind.PARAM
              && nodes.get(p).outShapes().get(0).equals(ws)) {
            w = p; // a weight shared by two MatMuls
          }
        }
        if (w < 0) {
          nodes.add(OpGraph.Node.param("w" + k, ws, null));
          w = nodes.size() - 1;
        }
        nodes.add(
            OpGraph.Node.op(
                "MatMul",
                Attrs.of("transpose_a", false, "transpose_b", false),
                List.of(ts, ws),
                List.of(Shape.of(t[1], out)),
                List.of(src, new OpGraph.Src(w, 0)),
                null));
        tensors.add(new int[] {nodes.size() - 1, t[1], out});
      } else if (kind == 1) {
        Shape bs = Shape.of(t[2]);
        nodes.add(OpGraph.Node.param("b" + k, bs, null));
        int b = nodes.size() - 1;
        nodes.add(
            OpGraph.Node.op(
                "BiasAdd",
                Attrs.EMPTY,
                List.of(ts, bs),
                List.of(ts),
                List.of(src, new OpGraph.Src(b, 0)),
                null));
        tensors.add(new int[] {nodes.size() - 1, t[1], t[2]});
      } else if (kind == 2) {
        nodes.add(
            OpGraph.Node.op(
                rnd.nextBoolean() ? "ReLU" : "Tanh",
                Attrs.EMPTY,
                List.of(ts),
                List.of(ts),
                List.of(src),
                null));
        tensors.add(new int[] {nodes.size() - 1, t[1], t[2]});
      } else if (kind == 3) {
        nodes.add(
            OpGraph.Node.op(
                "Softmax", Attrs.of("axis", -1), List.of(ts), List.of(ts), List.of(src), null));
        tensors.add(new int[] {nodes.size() - 1, t[1], t[2]});
      } else if (kind == 4) {
        int[] other = null;
        for (int[] o : tensors) {
          if (o != t && o[1] == t[1] && o[2] == t[2]) {
            other = o;
          }
        }
        if (other == null) {
          k--;
          continue;
        }
        nodes.add(
            OpGraph.Node.op(
                "Add",
                Attrs.EMPTY,
                List.of(ts, ts),
                List.of(ts),
                List.of(src, new OpGraph.Src(other[0], 0)),
                null));
        tensors.add(new int[] {nodes.size() - 1, t[1], t[2]});
      } else {
        nodes.add(
            OpGraph.Node.op(
                "ReduceSum",
                Attrs.of("axis", List.of(1), "keep_dims", true),
                List.of(ts),
                List.of(Shape.of(t[1], 1)),
                List.of(src),
                null));
        tensors.add(new int[] {nodes.size() - 1, t[1], 1});
      }
    }
    return new OpGraph(nodes, devices);
  }
}
