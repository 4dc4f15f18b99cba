package dev.msjvm.engine.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NeighborExchangeV2 on a 2 x 2 grid of in-JVM ranks holding the blocks of one {@code [1, 2, 6, 8]}
 * tensor (rank {@code 2 * hb + wb} has rows {@code 3hb..3hb+2}, columns {@code 4wb..4wb+3}): the
 * framed blocks are the global tensor's windows (corners from the diagonal rank, zeros beyond the
 * tensor), and the gradient is the exchange's adjoint.
 */
class NeighborExchangeTest {
  private static final int H = 6;
  private static final int W = 8;

  private static float global(int c, int y, int x) {
    return c * 100 + y * 10 + x;
  }

  /** Rank {@code (hb, wb)}'s exchange: one row from above/below, two columns from left/right. */
  private static Attrs attrs(int hb, int wb) {
    int top = hb > 0 ? (hb - 1) * 2 + wb : -1;
    int bottom = hb < 1 ? (hb + 1) * 2 + wb : -1;
    int left = wb > 0 ? hb * 2 + wb - 1 : -1;
    int right = wb < 1 ? hb * 2 + wb + 1 : -1;
    List<Integer> ids =
        List.of(
            top,
            top >= 0 && right >= 0 ? top + 1 : -1,
            right,
            bottom >= 0 && right >= 0 ? bottom + 1 : -1,
            bottom,
            bottom >= 0 && left >= 0 ? bottom - 1 : -1,
            left,
            top >= 0 && left >= 0 ? top - 1 : -1);
    List<Integer> lens =
        List.of(top >= 0 ? 1 : 0, bottom >= 0 ? 1 : 0, left >= 0 ? 2 : 0, right >= 0 ? 2 : 0);
    return Attrs.of(
        "send_rank_ids",
        ids,
        "send_lens",
        lens,
        "recv_rank_ids",
        ids,
        "recv_lens",
        lens,
        "data_format",
        "NCHW",
        "group",
        InJvmWorld.HCCL_WORLD_GROUP);
  }

  private static Tensor block(int hb, int wb) {
    float[] v = new float[2 * 3 * 4];
    for (int c = 0; c < 2; c++) {
      for (int y = 0; y < 3; y++) {
        for (int x = 0; x < 4; x++) {
          v[(c * 3 + y) * 4 + x] = global(c, hb * 3 + y, wb * 4 + x);
        }
      }
    }
    return Tensor.ofFloats(Shape.of(1, 2, 3, 4), v);
  }

  private static float[] pattern(Shape s, int seed) {
    float[] v = new float[Math.toIntExact(s.size())];
    for (int i = 0; i < v.length; i++) {
      v[i] = ((i * 7 + seed * 13) % 11 - 5) / 4f;
    }
    return v;
  }

  @Test
  void framesEachBlockWithItsNeighboursRowsColumnsAndCorners() {
    List<List<Object>> results =
        RankThreads.runAll(
            new InJvmWorld(4, Duration.ofSeconds(10)),
            comm -> {
              int hb = comm.rank() / 2;
              int wb = comm.rank() % 2;
              Runtime rt = new Runtime(NaiveBlas::new);
              Tensor x = block(hb, wb);
              Tensor y = rt.apply(NeighborExchange.exchange(comm), attrs(hb, wb), x)[0];
              Tensor dy = Tensor.ofFloats(y.shape(), pattern(y.shape(), comm.rank()));
              Tensor dx = rt.apply(NeighborExchange.exchangeGrad(comm), attrs(hb, wb), dy)[0];
              double forward = dot(y.floats(), dy.floats());
              double adjoint = dot(x.floats(), dx.floats());
              List<Object> out = new ArrayList<>();
              out.add(y.shape());
              out.add(y.floats());
              out.add(dx.shape());
              out.add(forward);
              out.add(adjoint);
              return out;
            });
    double forward = 0;
    double adjoint = 0;
    for (int r = 0; r < 4; r++) {
      int hb = r / 2;
      int wb = r % 2;
      int top = hb > 0 ? 1 : 0;
      int bottom = hb < 1 ? 1 : 0;
      int left = wb > 0 ? 2 : 0;
      int right = wb < 1 ? 2 : 0;
      Shape framed = Shape.of(1, 2, 3 + top + bottom, 4 + left + right);
      assertEquals(framed, results.get(r).get(0), "rank " + r);
      float[] expected = new float[Math.toIntExact(framed.size())];
      int i = 0;
      for (int c = 0; c < 2; c++) {
        for (int y = hb * 3 - top; y < hb * 3 + 3 + bottom; y++) {
          for (int x = wb * 4 - left; x < wb * 4 + 4 + right; x++) {
            expected[i++] = global(c, y, x);
          }
        }
      }
      assertArrayEquals(expected, (float[]) results.get(r).get(1), "rank " + r);
      assertEquals(Shape.of(1, 2, 3, 4), results.get(r).get(2));
      forward += (double) results.get(r).get(3);
      adjoint += (double) results.get(r).get(4);
    }
    // <exchange(x), dy> summed over the ranks equals <x, exchangeGrad(dy)>: the gradient sends
    // every
    // received block's gradient back to its sender, which adds it where the block came from.
    assertEquals(forward, adjoint, 1e-6 * Math.abs(forward));
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }
}
