package dev.msjvm.engine.ir;

import java.util.Objects;

/**
 * A tensor's type without its values, MindSpore's abstract tensor: what shape and dtype inference
 * computes and what a compile on shapes traces with. Example: {@code new AbstractTensor(Shape.of(2,
 * 3), DType.FLOAT32)} prints {@code Tensor[Float32][2, 3]}.
 */
public record AbstractTensor(Shape shape, DType dtype) {
  public AbstractTensor {
    Objects.requireNonNull(shape);
    Objects.requireNonNull(dtype);
  }

  public static AbstractTensor of(DType dtype, int... dims) {
    return new AbstractTensor(Shape.of(dims), dtype);
  }

  /** The same dtype on another shape. */
  public AbstractTensor withShape(Shape s) {
    return new AbstractTensor(s, dtype);
  }

  /** The same shape with another dtype. */
  public AbstractTensor withDtype(DType d) {
    return new AbstractTensor(shape, d);
  }

  public int rank() {
    return shape.rank();
  }

  /** As MindSpore prints an abstract tensor ({@code Tensor[Float32][2, 3]}). */
  @Override
  public String toString() {
    return "Tensor[" + dtype.mindsporeName() + "]" + shape;
  }
}
