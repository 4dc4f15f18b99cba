package dev.msjvm.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MnistBatchesTest {
  @TempDir Path dir;

  private MnistBatches batches(int n, int batch, boolean drop, List<List<Transform>> t)
      throws IOException {
    MnistDataTest.write(dir, "train", n, 2051, 0);
    MnistData d = MnistData.read(dir, "train");
    return new MnistBatches(d, SampleOrder.of(n, false, 0, 0, 0, 0), t, batch, drop, 0);
  }

  @Test
  void keepsOrDropsTheRemainder() throws IOException {
    MnistBatches kept = batches(5, 2, false, List.of(List.of(), List.of()));
    int[] sizes = new int[3];
    for (int i = 0; i < 3; i++) {
      sizes[i] = kept.next().get(1).shape().dim(0);
    }
    assertEquals("[2, 2, 1]", java.util.Arrays.toString(sizes));
    assertNull(kept.next());
    MnistBatches dropped = batches(5, 2, true, List.of(List.of(), List.of()));
    dropped.next();
    dropped.next();
    assertNull(dropped.next());
  }

  @Test
  void transformsRunPerColumnBeforeStacking() throws IOException {
    List<Transform> image =
        List.of(
            new Transform.Rescale(0.5, 1),
            new Transform.Hwc2Chw(),
            new Transform.TypeCast(DType.FLOAT32));
    List<Tensor> b = batches(3, 3, false, List.of(image, List.of(new Transform.OneHot(10)))).next();
    assertEquals(Shape.of(3, 1, 2, 3), b.get(0).shape());
    assertEquals(DType.FLOAT32, b.get(0).dtype());
    assertEquals(0.5 * 25 + 1, b.get(0).getDouble(2 * 6 + 5), 1e-6);
    assertEquals(Shape.of(3, 10), b.get(1).shape());
    assertEquals(1L, b.get(1).getLong(10 + 1));
  }

  @Test
  void stackRejectsMixedShapes() {
    Tensor a = Tensor.zeros(DType.INT64, Shape.of(2));
    Tensor c = Tensor.zeros(DType.INT64, Shape.of(3));
    MsException e = assertThrows(MsException.class, () -> Batching.stack(List.of(a, c), 0));
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
    assertEquals(
        true,
        e.getMessage().contains("expected shape for this column is:<2>, got shape:<3>"),
        e.getMessage());
  }
}
