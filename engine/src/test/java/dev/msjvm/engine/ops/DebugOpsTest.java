package dev.msjvm.engine.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Print writes its items, one per line, in MindSpore's graph-mode text, to the runtime's printer.
 */
class DebugOpsTest {

  @Test
  void printWritesTextsAndTensorsInOrder() {
    StringBuilder out = new StringBuilder();
    Runtime rt = new Runtime(NaiveBlas::new);
    rt.printTo(out::append);
    Tensor b = Tensor.ofFloats(Shape.of(2, 2), new float[] {2, 4, 6, 8});
    Tensor n = Tensor.of(DType.INT32, Shape.of(3), List.of(1, 22, 3));
    Tensor s = Tensor.ofFloats(Shape.of(), new float[] {2.5f});
    Tensor[] r =
        rt.apply(
            OpTable.get("Print"),
            Attrs.of("items", "STTTS", "texts", List.of("b is", "1")),
            new Object[] {b, n, s});
    // The text real MindSpore 2.10's CPU backend printed for the same Print in a GRAPH_MODE cell.
    assertEquals(
        "b is\n"
            + "Tensor(shape=[2, 2], dtype=Float32, value=\n"
            + "[[ 2.00000000e+00  4.00000000e+00]\n"
            + " [ 6.00000000e+00  8.00000000e+00]])\n"
            + "Tensor(shape=[3], dtype=Int32, value=[ 1 22  3])\n"
            + "2.5\n"
            + "1\n",
        out.toString());
    assertEquals(0, r[0].getLong(0));
  }
}
