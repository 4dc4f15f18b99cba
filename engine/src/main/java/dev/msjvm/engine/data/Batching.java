package dev.msjvm.engine.data;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code Dataset.batch}: stacks the rows of one column into a tensor with a leading batch axis.
 *
 * <p>All rows must share a shape and type, as MindSpore's {@code BatchOp} requires
 * (mindspore/ccsrc/minddata/dataset/engine/datasetops/batch_op.cc). Example: stacking three int64
 * scalars gives an int64 tensor of shape [3].
 */
public final class Batching {
  private Batching() {}

  /** The rows of column {@code column} stacked along a new first axis. */
  public static Tensor stack(List<Tensor> rows, int column) {
    Tensor first = rows.get(0);
    Shape shape = first.shape();
    for (Tensor t : rows) {
      if (!t.shape().equals(shape)) {
        throw PipelineError.of(
            "Inconsistent batch shapes, batch operation expects same shape for each data row, but"
                + " got inconsistent shape in column "
                + column
                + ", expected shape for this column is:"
                + shapeText(shape)
                + ", got shape:"
                + shapeText(t.shape()));
      }
      if (t.dtype() != first.dtype()) {
        throw PipelineError.of(
            "Inconsistent batch type, batch operation expects same type for each data row, but got"
                + " inconsistent type in column "
                + column
                + ", expected type for this column is:"
                + first.dtype().mindsporeName()
                + ", got type:"
                + t.dtype().mindsporeName());
      }
    }
    List<Integer> dims = new ArrayList<>();
    dims.add(rows.size());
    dims.addAll(shape.dims());
    Shape out = new Shape(dims);
    int each = first.size();
    if (first.dtype() == DType.FLOAT32) {
      float[] all = new float[rows.size() * each];
      for (int r = 0; r < rows.size(); r++) {
        System.arraycopy(rows.get(r).floats(), 0, all, r * each, each);
      }
      return Tensor.ofFloats(out, all);
    }
    if (first.dtype() == DType.INT64) {
      List<Long> all = new ArrayList<>(rows.size() * each);
      for (Tensor t : rows) {
        for (int i = 0; i < each; i++) {
          all.add(t.getLong(i));
        }
      }
      return Tensor.of(DType.INT64, out, all);
    }
    return Tensor.ofDoubles(first.dtype(), out, i -> rows.get(i / each).getDouble(i % each));
  }

  private static String shapeText(Shape s) {
    StringBuilder b = new StringBuilder("<");
    for (int i = 0; i < s.rank(); i++) {
      b.append(i > 0 ? "," : "").append(s.dim(i));
    }
    return b.append(">").toString();
  }
}
