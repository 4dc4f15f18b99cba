package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A rank fills only its block of a deferred parameter, bit for bit the block of the whole fill; a
 * deferred variable holds nothing until asked.
 */
class DeferredFillTest {

  @Test
  void philoxSkipsToAnyWord() {
    RandomPhilox whole = new RandomPhilox(0x1234_5678_9abcL);
    int[] words = new int[41];
    for (int i = 0; i < words.length; i++) {
      words[i] = whole.nextInt();
    }
    for (int start : new int[] {0, 1, 3, 4, 5, 17, 40}) {
      RandomPhilox g = new RandomPhilox(0x1234_5678_9abcL);
      g.skipTo(start);
      for (int i = start; i < words.length; i++) {
        assertEquals(words[i], g.nextInt(), "word " + i + " after skipping to " + start);
      }
    }
  }

  /** The block (begin, length) of a row-major whole array of {@code shape}. */
  private static float[] blockOf(float[] whole, int[] shape, int[] begin, int[] length) {
    List<Float> out = new ArrayList<>();
    int[] at = new int[shape.length];
    int n = whole.length;
    for (int flat = 0; flat < n; flat++) {
      int rest = flat;
      boolean inside = true;
      for (int d = shape.length - 1; d >= 0; d--) {
        at[d] = rest % shape[d];
        rest /= shape[d];
        inside &= at[d] >= begin[d] && at[d] < begin[d] + length[d];
      }
      if (inside) {
        out.add(whole[flat]);
      }
    }
    float[] a = new float[out.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = out.get(i);
    }
    return a;
  }

  @Test
  void everyBlockOfARandomFillEqualsThatBlockOfTheWholeFill() {
    Random r = new Random(11);
    for (int trial = 0; trial < 60; trial++) {
      int rank = 1 + r.nextInt(3);
      int[] shape = new int[rank];
      int[] begin = new int[rank];
      int[] length = new int[rank];
      int n = 1;
      for (int d = 0; d < rank; d++) {
        shape[d] = 1 + r.nextInt(7);
        begin[d] = r.nextInt(shape[d]);
        length[d] = 1 + r.nextInt(shape[d] - begin[d]);
        n *= shape[d];
      }
      long seed = r.nextLong() >>> 1;
      String where =
          java.util.Arrays.toString(shape)
              + " block "
              + java.util.Arrays.toString(begin)
              + "+"
              + java.util.Arrays.toString(length);
      assertArrayEquals(
          blockOf(Initializers.normal(seed, n, 0.5f, 0.02f), shape, begin, length),
          Initializers.normal(seed, shape, begin, length, 0.5f, 0.02f),
          "normal " + where);
      assertArrayEquals(
          blockOf(Initializers.uniform(seed, n, -0.3f, 0.2f), shape, begin, length),
          Initializers.uniform(seed, shape, begin, length, -0.3f, 0.2f),
          "uniform " + where);
      assertArrayEquals(
          blockOf(Initializers.truncatedNormal(seed, n, -2f, 2f, 0f, 1f), shape, begin, length),
          Initializers.truncatedNormal(seed, shape, begin, length, -2f, 2f, 0f, 1f),
          "truncated normal " + where);
    }
  }

  @Test
  void aDeferredVariableHoldsNothingUntilItIsFilled() {
    AtomicInteger calls = new AtomicInteger();
    List<int[]> asked = new ArrayList<>();
    Variable v =
        Variable.deferred(
            "w",
            new AbstractTensor(Shape.of(4, 6), DType.FLOAT32),
            (begin, length) -> {
              calls.incrementAndGet();
              asked.add(length);
              float[] all = Initializers.normal(7, new int[] {4, 6}, begin, length, 0, 1);
              return Tensor.ofFloats(Shape.of(length), all);
            });
    assertTrue(v.deferred());
    assertEquals(new AbstractTensor(Shape.of(4, 6), DType.FLOAT32), v.type());
    assertTrue(v.toString().contains("deferred"));
    Tensor block = v.fillBlock(new int[] {0, 3}, new int[] {4, 3});
    assertEquals(Shape.of(4, 3), block.shape());
    assertTrue(v.deferred(), "a block is the caller's to keep");
    v.set(block);
    assertFalse(v.deferred());
    assertSame(block, v.current());
    assertEquals(1, calls.get());

    Variable whole =
        Variable.deferred(
            "u",
            new AbstractTensor(Shape.of(3), DType.FLOAT32),
            (begin, length) -> {
              calls.incrementAndGet();
              return Tensor.ofFloats(Shape.of(3), new float[] {1, 2, 3});
            });
    assertEquals(3, whole.current().size(), "reading fills the whole value");
    whole.current();
    assertEquals(2, calls.get(), "once");
    assertThrows(IllegalStateException.class, () -> whole.fillBlock(new int[] {0}, new int[] {1}));
  }

  @Test
  void aFillGivingTheWrongShapeIsAnError() {
    Variable v =
        Variable.deferred(
            "w",
            new AbstractTensor(Shape.of(4), DType.FLOAT32),
            (begin, length) -> Tensor.ofFloats(Shape.of(2), new float[] {1, 2}));
    assertThrows(IllegalStateException.class, () -> v.fillBlock(new int[] {0}, new int[] {3}));
  }
}
