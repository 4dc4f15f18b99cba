package dev.msjvm.engine.ops;

import dev.msjvm.engine.tensor.Tensor;

/** Shorthands for gradient rules that compose registered operators ({@code g.op(...)}). */
final class GradOps {
  private GradOps() {}

  static Tensor mul(GradRule.Call g, Tensor a, Tensor b) {
    return g.op("Mul", Attrs.EMPTY, a, b);
  }

  static Tensor div(GradRule.Call g, Tensor a, Tensor b) {
    return g.op("Div", Attrs.EMPTY, a, b);
  }

  static Tensor square(GradRule.Call g, Tensor a) {
    return g.op("Square", Attrs.EMPTY, a);
  }

  static Tensor zeros(GradRule.Call g, Tensor like) {
    return g.op("ZerosLike", Attrs.EMPTY, like);
  }

  /** {@code x op s}. */
  static Tensor scalar(GradRule.Call g, String op, Tensor x, double s) {
    return scalar(g, op, x, s, false);
  }

  /** {@code x op s}, or {@code s op x} when {@code left}. */
  static Tensor scalar(GradRule.Call g, String op, Tensor x, double s, boolean left) {
    return g.op("ScalarOp", Attrs.of("op", op, "scalar", s, "left", left), x);
  }

  /** The two inputs' gradients summed back over the dims broadcasting stretched. */
  static Tensor[] broadcastBack(GradRule.Call g, Tensor dx, Tensor dy) {
    return new Tensor[] {
      g.needs(0) ? g.sumTo(dx, g.in(0).shape()) : null,
      g.needs(1) ? g.sumTo(dy, g.in(1).shape()) : null
    };
  }
}
