package dev.msjvm.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Fills the ranks of a job make alike are made once while a rank holds them. */
class SharedFillsTest {

  @Test
  void eightRanksAskingAtOnceFillOnce() throws Exception {
    SharedFills fills = new SharedFills(8);
    AtomicInteger made = new AtomicInteger();
    CyclicBarrier start = new CyclicBarrier(8);
    Tensor[] got = new Tensor[8];
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < 8; r++) {
      int rank = r;
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                got[rank] =
                    fills.fill(
                        "normal 0.0 0.02 7 [64, 64] whole FLOAT32",
                        () -> {
                          made.incrementAndGet();
                          return Tensor.zeros(dev.msjvm.engine.ir.DType.FLOAT32, Shape.of(64, 64));
                        });
              });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(1, made.get());
    for (Tensor t : got) {
      assertSame(got[0], t);
    }
  }

  @Test
  void otherKeysAndSingleRanksAreNotShared() {
    SharedFills fills = new SharedFills(2);
    Tensor a = fills.fill("k1", () -> Tensor.ofFloats(Shape.of(1), new float[] {1}));
    Tensor b = fills.fill("k2", () -> Tensor.ofFloats(Shape.of(1), new float[] {1}));
    assertNotSame(a, b);
    assertSame(a, fills.fill("k1", () -> Tensor.ofFloats(Shape.of(1), new float[] {2})));
    SharedFills alone = new SharedFills(1);
    Tensor c = alone.fill("k1", () -> Tensor.ofFloats(Shape.of(1), new float[] {1}));
    assertNotSame(c, alone.fill("k1", () -> Tensor.ofFloats(Shape.of(1), new float[] {1})));
  }
}
