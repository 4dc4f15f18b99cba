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
}
