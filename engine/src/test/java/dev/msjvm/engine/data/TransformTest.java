package dev.msjvm.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

// Expected values recorded from mindspore.dataset.vision / transforms on MindSpore 2.10.0 (eager
// calls on numpy arrays).
class TransformTest {
  private static Tensor image4x4() {
    return Tensor.ofDoubles(DType.UINT8, Shape.of(4, 4, 1), i -> 17 * i);
  }

  private static Tensor plane(Tensor t, int rows) {
    return t.withShape(Shape.of(rows, t.size() / rows));
  }

  @Test
  void rescaleGivesFloat32() {
    Tensor r = new Transform.Rescale(1 / 255.0, -0.5).apply(image4x4());
    assertEquals(DType.FLOAT32, r.dtype());
    assertEquals((float) (255 / 255.0 - 0.5), r.getDouble(15), 1e-7);
  }

  @Test
  void normalizePerChannel() {
    Tensor x = Tensor.of(DType.UINT8, Shape.of(1, 2, 2), List.of(3, 6, 5, 10));
    Tensor n = new Transform.Normalize(List.of(1.0, 2.0), List.of(2.0, 4.0), true).apply(x);
    assertEquals("[[[1.0, 1.0], [2.0, 2.0]]]", n.toList().toString());
    Tensor chw = Tensor.of(DType.FLOAT32, Shape.of(2, 1, 2), List.of(3.0, 5.0, 6.0, 10.0));
    Tensor m = new Transform.Normalize(List.of(1.0, 2.0), List.of(2.0, 4.0), false).apply(chw);
    assertEquals("[[[1.0, 2.0]], [[1.0, 2.0]]]", m.toList().toString());
  }

  @Test
  void hwc2chwTransposes() {
    Tensor x = Tensor.of(DType.INT32, Shape.of(1, 2, 3), List.of(1, 2, 3, 4, 5, 6));
    Tensor t = new Transform.Hwc2Chw().apply(x);
    assertEquals(Shape.of(3, 1, 2), t.shape());
    assertEquals("[[[1, 4]], [[2, 5]], [[3, 6]]]", t.toList().toString());
  }

  @Test
  void resizeUint8MatchesOpenCv() {
    Tensor up = new Transform.Resize(8, 8).apply(image4x4());
    assertEquals(
        "[[0, 4, 13, 21, 30, 38, 47, 51], [17, 21, 30, 38, 47, 55, 64, 68], [51, 55, 64, 72, 81,"
            + " 89, 98, 102], [85, 89, 98, 106, 115, 123, 132, 136], [119, 123, 132, 140, 149, 157,"
            + " 166, 170], [153, 157, 166, 174, 183, 191, 200, 204], [187, 191, 200, 208, 217, 225,"
            + " 234, 238], [204, 208, 217, 225, 234, 242, 251, 255]]",
        plane(up, 8).toList().toString());
    Tensor down = new Transform.Resize(2, 2).apply(image4x4());
    assertEquals("[[43, 77], [179, 213]]", plane(down, 2).toList().toString());
    Tensor odd = new Transform.Resize(3, 5).apply(image4x4());
    assertEquals(
        "[[11, 23, 37, 50, 62], [102, 114, 128, 141, 153], [193, 204, 218, 232, 244]]",
        plane(odd, 3).toList().toString());
  }

  @Test
  void resizeFloatAndShorterSide() {
    Tensor f = Tensor.ofDoubles(DType.FLOAT32, Shape.of(4, 4, 1), i -> i);
    Tensor up = new Transform.Resize(8, 8).apply(f);
    double[] row2 = {3.0, 3.25, 3.75, 4.25, 4.75, 5.25, 5.75, 6.0};
    for (int i = 0; i < 8; i++) {
      assertEquals(row2[i], up.getDouble(16 + i), 1e-6);
    }
    Tensor wide = Tensor.zeros(DType.UINT8, Shape.of(4, 6, 1));
    assertEquals(Shape.of(2, 3, 1), new Transform.Resize(2, -1).apply(wide).shape());
  }

  @Test
  void typeCastAndOneHot() {
    Tensor label = Tensor.of(DType.INT64, Shape.scalar(), List.of(2));
    Tensor oh = new Transform.OneHot(4).apply(label);
    assertEquals(DType.INT64, oh.dtype());
    assertEquals("[0, 0, 1, 0]", oh.toList().toString());
    assertEquals(DType.FLOAT32, new Transform.TypeCast(DType.FLOAT32).apply(oh).dtype());
    Tensor bad = Tensor.of(DType.INT64, Shape.scalar(), List.of(7));
    assertThrows(MsException.class, () -> new Transform.OneHot(4).apply(bad));
  }

  @Test
  void randomCropPadsInEveryBorderMode() {
    Tensor x = Tensor.ofDoubles(DType.UINT8, Shape.of(3, 4), i -> i);
    List<Integer> pad = List.of(2, 2, 2, 2);
    List<Integer> nine = List.of(9, 9, 9);
    // A padded image of the crop size is the whole window: no draw.
    java.util.function.Function<String, String> whole =
        mode -> new Transform.RandomCrop(7, 8, pad, false, nine, mode).apply(x).toList().toString();
    assertEquals(
        "[[10, 9, 8, 9, 10, 11, 10, 9], [6, 5, 4, 5, 6, 7, 6, 5], [2, 1, 0, 1, 2, 3, 2, 1], [6, 5,"
            + " 4, 5, 6, 7, 6, 5], [10, 9, 8, 9, 10, 11, 10, 9], [6, 5, 4, 5, 6, 7, 6, 5], [2, 1, 0,"
            + " 1, 2, 3, 2, 1]]",
        whole.apply("reflect"));
    assertEquals(
        "[[5, 4, 4, 5, 6, 7, 7, 6], [1, 0, 0, 1, 2, 3, 3, 2], [1, 0, 0, 1, 2, 3, 3, 2], [5, 4, 4,"
            + " 5, 6, 7, 7, 6], [9, 8, 8, 9, 10, 11, 11, 10], [9, 8, 8, 9, 10, 11, 11, 10], [5, 4,"
            + " 4, 5, 6, 7, 7, 6]]",
        whole.apply("symmetric"));
    Tensor edge = new Transform.RandomCrop(7, 8, pad, false, nine, "edge").apply(x);
    assertEquals("[8, 8, 8, 9, 10, 11, 11, 11]", ((List<?>) edge.toList()).get(6).toString());
    Tensor constant = new Transform.RandomCrop(7, 8, pad, false, nine, "constant").apply(x);
    assertEquals("[9, 9, 4, 5, 6, 7, 9, 9]", ((List<?>) constant.toList()).get(3).toString());
    assertThrows(
        MsException.class,
        () -> new Transform.RandomCrop(5, 5, List.of(0, 0, 0, 0), false, nine, "edge").apply(x));
  }

  @Test
  void randomCropWindowsLieInThePaddedImage() {
    Tensor x = Tensor.ofDoubles(DType.UINT8, Shape.of(2, 2), i -> i);
    List<Integer> none = List.of(0, 0, 0, 0);
    Transform crop = new Transform.RandomCrop(3, 4, none, true, List.of(0, 0, 0), "reflect");
    // pad_if_needed pads 1 row and 2 columns on both sides: a 4x6 image of [[0, 1], [2, 3]] tiles.
    java.util.SplittableRandom rng = new java.util.SplittableRandom(7);
    for (int k = 0; k < 20; k++) {
      Tensor w = crop.columns(x, rng).get(0);
      assertEquals(Shape.of(3, 4), w.shape());
      // Reflect-101 of a 2-long axis alternates: neighbours in a row differ by 1, in a column by 2.
      for (int i = 0; i < 12; i++) {
        if (i % 4 < 3) {
          assertEquals(1, Math.abs(w.getDouble(i) - w.getDouble(i + 1)), 1e-9);
        }
        if (i < 8) {
          assertEquals(2, Math.abs(w.getDouble(i) - w.getDouble(i + 4)), 1e-9);
        }
      }
    }
  }

  @Test
  void flipAndSlicePatches() {
    Tensor x = Tensor.ofDoubles(DType.FLOAT32, Shape.of(3, 4), i -> i);
    java.util.SplittableRandom rng = new java.util.SplittableRandom(1);
    assertEquals(
        "[[3.0, 2.0, 1.0, 0.0], [7.0, 6.0, 5.0, 4.0], [11.0, 10.0, 9.0, 8.0]]",
        new Transform.RandomHorizontalFlip(1).columns(x, rng).get(0).toList().toString());
    assertEquals(x, new Transform.RandomHorizontalFlip(0).columns(x, rng).get(0));
    // Recorded from vision.SlicePatches(2, 2) on np.arange(12).reshape(3, 4) (float32).
    List<Tensor> patches = new Transform.SlicePatches(2, 2, true, 0).columns(x, null);
    assertEquals(
        "[[[0.0, 1.0], [4.0, 5.0]], [[2.0, 3.0], [6.0, 7.0]], [[8.0, 9.0], [0.0, 0.0]], [[10.0,"
            + " 11.0], [0.0, 0.0]]]",
        patches.stream().map(Tensor::toList).toList().toString());
    List<Tensor> dropped = new Transform.SlicePatches(2, 2, false, 0).columns(x, null);
    assertEquals(Shape.of(1, 2), dropped.get(3).shape());
  }
}
