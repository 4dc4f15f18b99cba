package dev.msjvm.engine.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A dry run's communicator: groups as real ones, collectives that move nothing and never wait. */
class SimulatedCommunicatorTest {

  @Test
  void aRankOfAClusterThatIsNotThereHasItsGroups() {
    SimulatedCommunicator c =
        SimulatedCommunicator.of(1024, 1001, "hccl_world_group", "mccl_world_group");
    assertEquals(1001, c.rank());
    assertEquals(1024, c.size());
    assertEquals(1024, c.groupSize("mccl_world_group"));
    c.createGroup("g8", IntStream.range(1000, 1008).boxed().toList());
    assertEquals(8, c.groupSize("g8"));
    assertEquals(1, c.groupRank("g8"));
    assertEquals(1003, c.getWorldRankFromGroupRank("g8", 3));
    assertEquals(4, c.getGroupRankFromWorldRank(1004, "g8"));
    MsException unknown = assertThrows(MsException.class, () -> c.groupSize("nope"));
    assertTrue(unknown.getMessage().contains("has not been created"), unknown.getMessage());
    assertThrows(MsException.class, () -> c.createGroup("bad", List.of(1024)));
  }

  @Test
  void collectivesMoveNothingWaitForNobodyAndAreCounted() {
    SimulatedCommunicator c = SimulatedCommunicator.of(64, 5, "hccl_world_group");
    float[] buf = {1, 2, 3};
    c.allReduce(buf, ReduceOp.SUM, "hccl_world_group");
    float[] recv = new float[3 * 64];
    c.allGather(buf, recv, "hccl_world_group");
    c.barrier("hccl_world_group");
    c.recv(new float[3], 0, 6, "hccl_world_group"); // no sender exists: returns at once
    assertArrayEquals(new float[] {1, 2, 3}, buf);
    assertEquals(4, c.calls());
    assertEquals(4 * (3 + 3), c.bytes());
    assertThrows(MsException.class, () -> c.allReduce(buf, ReduceOp.SUM, "unknown"));
  }

  /**
   * Each collective is timed on the link model: the ring closed forms (an AllReduce of S bytes on n
   * ranks sends 2(n-1)/n S; field-anchors' example: 1 GB on 8 ranks at a bus bandwidth of 150 GB/s
   * takes 11.7 ms) plus alpha per step.
   */
  @Test
  void collectivesAreTimedOnTheLinks() {
    LinkModel fast = new LinkModel(0, 150e9);
    assertEquals(11.667e-3, fast.seconds(LinkModel.Kind.ALL_REDUCE, 1_000_000_000L, 8), 1e-6);
    LinkModel link = LinkModel.parse("alpha_us=10,busbw_gbps=2");
    assertEquals(new LinkModel(10e-6, 2e9), link);
    assertEquals(link.alphaSeconds(), LinkModel.parse(link.spec()).alphaSeconds(), 1e-18);
    assertEquals(link.busBytesPerSecond(), LinkModel.parse(link.spec()).busBytesPerSecond(), 1e-3);
    assertEquals(LinkModel.IN_JVM, LinkModel.parse(null));
    assertThrows(MsException.class, () -> LinkModel.parse("alpha=3"));
    assertEquals(0, link.seconds(LinkModel.Kind.ALL_REDUCE, 1 << 20, 1));
    SimulatedCommunicator c = SimulatedCommunicator.of(64, 5, link, "hccl_world_group");
    c.createGroup("g8", IntStream.range(0, 8).boxed().toList());
    float[] buf = new float[1000];
    c.allReduce(buf, ReduceOp.SUM, "g8");
    double allReduce = 14 * 10e-6 + 2 * 7 / 8.0 * 4000 / 2e9;
    assertEquals(allReduce, c.seconds(), 1e-12);
    c.allGather(buf, new float[8000], "g8"); // the gathered 32,000 bytes, 7/8 of them received
    double allGather = 7 * 10e-6 + 7 / 8.0 * 32000 / 2e9;
    assertEquals(allReduce + allGather, c.seconds(), 1e-12);
    c.send(buf, 0, 1000, 6, 0, "hccl_world_group");
    assertEquals(allReduce + allGather + 10e-6 + 4000 / 2e9, c.seconds(), 1e-12);
  }
}
