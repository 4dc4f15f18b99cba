package dev.msjvm.engine.parallel.search;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * What a strategy search sees of a network: its forward operator calls, its parameters and its
 * dataset inputs, with their data dependencies, on {@code devices} devices. Nodes are in
 * topological order (an input refers to an earlier node).
 *
 * <ul>
 *   <li>{@link Kind#OP}: an operator call with its attributes and global shapes; {@code configured}
 *       is its user strategy (a {@code shard}, a loaded strategy file), or null when the search
 *       decides it. A call whose attributes hold a Layout strategy counts as configured.
 *   <li>{@link Kind#PARAM}: a parameter (one output, its shape); {@code configured} is a {@code
 *       parameter_plan} strategy or null. Several users of one parameter agree on its layout
 *       through it (MindSpore's {@code TmpIdentityInfo}).
 *   <li>{@link Kind#DATA}: a dataset input with the layout the dataset strategy gives it
 *       (MindSpore's {@code _VirtualDataset}); never changed by the search.
 * </ul>
 *
 * <p>An op input that is null is a constant: any layout, no cost.
 */
public record OpGraph(List<Node> nodes, int devices) {

  public enum Kind {
    OP,
    PARAM,
    DATA
  }

  /** Output {@code output} of node {@code node}. */
  public record Src(int node, int output) {}

  /** One node; see the class comment for the fields each kind uses. */
  public record Node(
      Kind kind,
      String name,
      Attrs attrs,
      List<Shape> inShapes,
      List<Shape> outShapes,
      List<Src> inputs,
      List<List<Integer>> configured,
      TensorLayout fixed) {

    public Node {
      inShapes = List.copyOf(inShapes);
      outShapes = List.copyOf(outShapes);
      inputs = java.util.Collections.unmodifiableList(new ArrayList<>(inputs));
      configured = configured == null ? null : configured.stream().map(List::copyOf).toList();
    }

    public static Node op(
        String name,
        Attrs attrs,
        List<Shape> inShapes,
        List<Shape> outShapes,
        List<Src> inputs,
        List<List<Integer>> configured) {
      return new Node(Kind.OP, name, attrs, inShapes, outShapes, inputs, configured, null);
    }

    public static Node param(String name, Shape shape, List<Integer> configured) {
      return new Node(
          Kind.PARAM,
          name,
          Attrs.EMPTY,
          List.of(),
          List.of(shape),
          List.of(),
          configured == null ? null : List.of(configured),
          null);
    }

    public static Node data(String name, TensorLayout layout) {
      return new Node(
          Kind.DATA,
          name,
          Attrs.EMPTY,
          List.of(),
          List.of(layout.shape()),
          List.of(),
          null,
          layout);
    }

    /** Whether the search may not change this node's strategy. */
    public boolean isConfigured() {
      return kind == Kind.DATA
          || configured != null
          || dev.msjvm.engine.parallel.rules.RulesOracle.hasOwnStrategy(attrs);
    }
  }

  public OpGraph {
    nodes = List.copyOf(nodes);
    for (int n = 0; n < nodes.size(); n++) {
      for (Src s : nodes.get(n).inputs()) {
        if (s != null && (s.node() >= n || s.node() < 0)) {
          throw new IllegalArgumentException(
              "node " + n + " reads node " + s.node() + ", which does not come before it");
        }
      }
    }
  }
}
