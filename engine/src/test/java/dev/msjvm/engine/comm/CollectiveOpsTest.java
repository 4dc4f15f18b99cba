package dev.msjvm.engine.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.exec.Autodiff;
import dev.msjvm.engine.exec.Graph;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.exec.Tape;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.tensor.Tensor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code AllReduce} as an operator over 4 in-JVM ranks: eager, in a sub-group, traced, dtypes. */
class CollectiveOpsTest {

  private static final String WORLD = InJvmWorld.HCCL_WORLD_GROUP;

  private static Attrs attrs(String op, String group) {
    return Attrs.of("op", op, "group", group);
  }

  /** {@code [10r + 1, 10r + 2, 10r + 3]} on rank r, in {@code dtype}. */
  private static Tensor input(int rank, DType dtype) {
    return Tensor.of(dtype, Shape.of(3), List.of(10 * rank + 1, 10 * rank + 2, 10 * rank + 3));
  }

  @Test
  void sumOverTheWorldLeavesTheInputAlone() {
    List<List<Object>> results =
        RankThreads.runAll(
            new InJvmWorld(4, Duration.ofSeconds(10)),
            comm -> {
              Runtime rt = new Runtime(NaiveBlas::new);
              Tensor x = input(comm.rank(), DType.FLOAT32);
              Tensor y = rt.apply(CollectiveOps.allReduce(comm), attrs("sum", WORLD), x)[0];
              return List.of(y.toList(), x.toList());
            });
    for (int r = 0; r < 4; r++) {
      assertEquals(List.of(64.0, 68.0, 72.0), results.get(r).get(0));
      assertEquals(input(r, DType.FLOAT32).toList(), results.get(r).get(1));
    }
  }

  @Test
  void maxOverASubGroupKeepsTheIntegerDtype() {
    List<Object> results =
        RankThreads.runAll(
            new InJvmWorld(4, Duration.ofSeconds(10)),
            comm -> {
              List<Integer> members = comm.rank() % 2 == 0 ? List.of(0, 2) : List.of(1, 3);
              String group = "pair" + comm.rank() % 2;
              comm.createGroup(group, members);
              Runtime rt = new Runtime(NaiveBlas::new);
              Tensor y =
                  rt.apply(
                          CollectiveOps.allReduce(comm),
                          attrs("max", group),
                          input(comm.rank(), DType.INT32))[0];
              assertEquals(DType.INT32, y.dtype());
              return y.toList();
            });
    assertEquals(List.of(21L, 22L, 23L), results.get(0));
    assertEquals(List.of(31L, 32L, 33L), results.get(1));
    assertEquals(results.get(0), results.get(2));
    assertEquals(results.get(1), results.get(3));
  }

  @Test
  void reduceScatterAllToAllAndPointToPointMoveTheBlocksMindSporeSpecifies() {
    List<List<Object>> results =
        RankThreads.runAll(
            new InJvmWorld(4, Duration.ofSeconds(10)),
            comm -> {
              Runtime rt = new Runtime(NaiveBlas::new);
              int r = comm.rank();
              // x[i][j] = 100r + 10i + j, 4x2
              Tensor x =
                  Tensor.of(
                      DType.FLOAT32,
                      Shape.of(4, 2),
                      List.of(
                          100 * r,
                          100 * r + 1,
                          100 * r + 10,
                          100 * r + 11,
                          100 * r + 20,
                          100 * r + 21,
                          100 * r + 30,
                          100 * r + 31));
              Tensor scattered =
                  rt.apply(CollectiveOps.reduceScatter(comm), attrs("sum", WORLD), x)[0];
              Attrs swap =
                  Attrs.of("split_count", 4, "split_dim", 0, "concat_dim", 1, "group", WORLD);
              Tensor exchanged = rt.apply(CollectiveOps.allToAll(comm), swap, x)[0];
              Attrs back =
                  Attrs.of("split_count", 4, "split_dim", 1, "concat_dim", 0, "group", WORLD);
              Tensor restored = rt.apply(CollectiveOps.allToAll(comm), back, exchanged)[0];
              Tensor received = null;
              if (r == 0) {
                rt.apply(
                    CollectiveOps.send(comm),
                    Attrs.of("sr_tag", 7, "dest_rank", 3, "group", WORLD),
                    x);
              } else if (r == 3) {
                received =
                    rt.apply(
                            CollectiveOps.receive(comm),
                            Attrs.of(
                                "sr_tag",
                                7,
                                "src_rank",
                                0,
                                "shape",
                                List.of(4, 2),
                                "dtype",
                                "INT32",
                                "group",
                                WORLD))[0];
              }
              return List.of(
                  scattered.toList(),
                  exchanged.shape().dims(),
                  exchanged.toList(),
                  restored.toList().equals(x.toList()),
                  received == null ? List.of() : received.toList());
            });
    // rank r keeps row r of the sum over ranks: 600 + 40r + j
    assertEquals(List.of(List.of(600.0, 604.0)), results.get(0).get(0));
    assertEquals(List.of(List.of(720.0, 724.0)), results.get(3).get(0));
    // rank 1 receives row 1 of every rank, side by side: [[10, 11, 110, 111, 210, ...]]
    assertEquals(List.of(1, 8), results.get(1).get(1));
    assertEquals(
        List.of(List.of(10.0, 11.0, 110.0, 111.0, 210.0, 211.0, 310.0, 311.0)),
        results.get(1).get(2));
    for (List<Object> rank : results) {
      assertEquals(true, rank.get(3));
    }
    assertEquals(
        List.of(List.of(0L, 1L), List.of(10L, 11L), List.of(20L, 21L), List.of(30L, 31L)),
        results.get(3).get(4));
  }

  /**
   * NeighborExchange on a ring of 3: rank r keeps a [2] tensor (sent to itself) and sends a [1, 3]
   * one to r + 1; it receives r - 1's and its own. The gradient of {@code sum(out0 * w0) + sum(out1
   * * w1)} with respect to the inputs comes back from where they went: input 1's gradient is the
   * weight of the rank that received it.
   */
  @Test
  void neighborExchangeSendsEachInputToItsRankAndItsGradientBack() {
    List<List<Object>> results =
        RankThreads.runAll(
            new InJvmWorld(3, Duration.ofSeconds(10)),
            comm -> {
              Runtime rt = new Runtime(NaiveBlas::new);
              int r = comm.rank();
              int next = (r + 1) % 3;
              int prev = (r + 2) % 3;
              Attrs a =
                  Attrs.of(
                      "send_rank_ids", List.of(r, next),
                      "recv_rank_ids", List.of(prev, r),
                      "recv_shapes", List.of(List.of(1, 3), List.of(2)),
                      "recv_type", "FLOAT32",
                      "group", WORLD);
              Tensor own = Tensor.of(DType.FLOAT32, Shape.of(2), List.of(r, -r)).alias();
              Tensor out =
                  Tensor.of(DType.FLOAT32, Shape.of(1, 3), List.of(10 * r, 10 * r + 1, 10 * r + 2))
                      .alias();
              Tape tape = rt.push();
              tape.addLeaves(List.of(own, out));
              Tensor[] got = rt.apply(CollectiveOps.neighborExchange(comm), a, own, out);
              Tensor w0 =
                  Tensor.of(DType.FLOAT32, Shape.of(1, 3), List.of(r + 1, r + 1, 2 * r + 1));
              Tensor w1 = Tensor.of(DType.FLOAT32, Shape.of(2), List.of(3, 5));
              Tensor loss =
                  rt.apply(
                          "Add",
                          Attrs.EMPTY,
                          rt.apply(
                                  "ReduceSum",
                                  Attrs.of("axis", List.of()),
                                  rt.apply("Mul", Attrs.EMPTY, got[0], w0)[0])[0],
                          rt.apply(
                                  "ReduceSum",
                                  Attrs.of("axis", List.of()),
                                  rt.apply("Mul", Attrs.EMPTY, got[1], w1)[0])[0])[0];
              rt.pop(tape);
              List<Tensor> grads =
                  Autodiff.gradients(rt, tape, List.of(loss), null, List.of(own, out));
              return List.of(
                  got[0].toList(), got[1].toList(), grads.get(0).toList(), grads.get(1).toList());
            });
    for (int r = 0; r < 3; r++) {
      int prev = (r + 2) % 3;
      int next = (r + 1) % 3;
      List<Object> rank = results.get(r);
      assertEquals(
          List.of(List.of(10.0 * prev, 10.0 * prev + 1, 10.0 * prev + 2)),
          rank.get(0),
          "rank " + r);
      assertEquals(List.of((double) r, (double) -r), rank.get(1), "rank " + r);
      assertEquals(List.of(3.0, 5.0), rank.get(2), "rank " + r);
      // what rank `next` multiplied the block by
      assertEquals(
          List.of(List.of(next + 1.0, next + 1.0, 2.0 * next + 1)), rank.get(3), "rank " + r);
    }
  }

  @Test
  void aTracedGraphCommunicatesOnEveryReplay() {
    List<List<Object>> results =
        RankThreads.runAll(
            new InJvmWorld(2, Duration.ofSeconds(10)),
            comm -> {
              Runtime rt = new Runtime(NaiveBlas::new);
              OpDef allReduce = CollectiveOps.allReduce(comm);
              Tape tape = rt.push();
              Tensor x = input(comm.rank(), DType.FLOAT32).alias();
              tape.addLeaves(List.of(x));
              Tensor y = rt.apply(allReduce, attrs("sum", WORLD), x)[0];
              rt.pop(tape);
              Graph graph = Graph.compile(tape, List.of(x), List.of(y));
              assertTrue(graph.opNames().contains("AllReduce"));
              Tensor replay = graph.run(rt, List.of(input(comm.rank() + 1, DType.FLOAT32))).get(0);
              return List.of(y.toList(), replay.toList());
            });
    for (List<Object> r : results) {
      assertEquals(List.of(12.0, 14.0, 16.0), r.get(0));
      assertEquals(List.of(32.0, 34.0, 36.0), r.get(1));
    }
  }

  @Test
  void badInputsAreMindSporeErrors() {
    Communicator comm = new InJvmWorld(1, Duration.ofSeconds(10)).communicator(0);
    Runtime rt = new Runtime(NaiveBlas::new);
    OpDef allReduce = CollectiveOps.allReduce(comm);
    Tensor bools = Tensor.of(DType.BOOL, Shape.of(1), List.of(true));
    MsException e =
        assertThrows(MsException.class, () -> rt.apply(allReduce, attrs("sum", WORLD), bools));
    assertEquals("TypeError", e.pythonType());
    Tensor x = input(0, DType.FLOAT32);
    e = assertThrows(MsException.class, () -> rt.apply(allReduce, attrs("avg", WORLD), x));
    assertEquals("ValueError", e.pythonType());
    assertEquals(
        x.toList(), rt.apply(allReduce, attrs("prod", WORLD), x)[0].toList(), "one rank: identity");
  }

  @Test
  void inferenceTypesEveryCollectiveWithoutCommunicating() {
    // Only rank 0 of a 4-rank world takes part: inference reads the group's size, never the others.
    Communicator comm = new InJvmWorld(4, Duration.ofSeconds(10)).communicator(0);
    AbstractTensor x = AbstractTensor.of(DType.FLOAT16, 8, 2);
    assertEquals(
        List.of(x), CollectiveOps.allReduce(comm).infer().outputs(attrs("sum", WORLD), List.of(x)));
    assertEquals(
        List.of(AbstractTensor.of(DType.FLOAT16, 32, 2)),
        CollectiveOps.allGather(comm).infer().outputs(Attrs.of("group", WORLD), List.of(x)));
    assertEquals(
        List.of(AbstractTensor.of(DType.FLOAT16, 2, 2)),
        CollectiveOps.reduceScatter(comm).infer().outputs(attrs("sum", WORLD), List.of(x)));
    Attrs a2a = Attrs.of("split_count", 4, "split_dim", 0, "concat_dim", 1, "group", WORLD);
    assertEquals(
        List.of(AbstractTensor.of(DType.FLOAT16, 2, 8)),
        CollectiveOps.allToAll(comm).infer().outputs(a2a, List.of(x)));
    assertEquals(
        List.of(x),
        CollectiveOps.broadcast(comm)
            .infer()
            .outputs(Attrs.of("root_rank", 0, "group", WORLD), List.of(x)));
    Attrs recv =
        Attrs.of(
            "sr_tag", 0, "src_rank", 1, "shape", List.of(3, 5), "dtype", "INT32", "group", WORLD);
    assertEquals(
        List.of(AbstractTensor.of(DType.INT32, 3, 5)),
        CollectiveOps.receive(comm).infer().outputs(recv, List.of()));
    Attrs exchange =
        Attrs.of(
            "send_rank_ids", List.of(),
            "recv_rank_ids", List.of(1, 3),
            "recv_shapes", List.of(List.of(4), List.of(2, 2)),
            "recv_type", "FLOAT16",
            "group", WORLD);
    assertEquals(
        List.of(AbstractTensor.of(DType.FLOAT16, 4), AbstractTensor.of(DType.FLOAT16, 2, 2)),
        CollectiveOps.neighborExchange(comm).infer().outputs(exchange, List.of()));
    AbstractTensor odd = AbstractTensor.of(DType.FLOAT32, 6, 2);
    MsException e =
        assertThrows(
            MsException.class,
            () ->
                CollectiveOps.reduceScatter(comm)
                    .infer()
                    .outputs(attrs("sum", WORLD), List.of(odd)));
    assertEquals(
        "the first dimension for 'input_shape' must be divided by 'rank_size', but got"
            + " input_shape[0]: 6, rank_size: 4",
        e.getMessage());
    AbstractTensor flags = AbstractTensor.of(DType.BOOL, 2);
    assertThrows(
        MsException.class,
        () -> CollectiveOps.allReduce(comm).infer().outputs(attrs("sum", WORLD), List.of(flags)));
  }
}
