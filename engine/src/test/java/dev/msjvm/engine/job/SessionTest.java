package dev.msjvm.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionTest {
  private static Job job(int ranks) {
    return Job.local("t", ranks, Duration.ofSeconds(5));
  }

  @Test
  void communicationNeedsInitWithMindSporesText() {
    Session s = new Session(job(2).localRanks().get(1));
    MsException e = assertThrows(MsException.class, s::comm);
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
    assertEquals(
        "Distributed Communication has not been inited.You can't invoke this interface yet."
            + " Please call `init()` method first.",
        e.getMessage());
  }

  @Test
  void everyBackendsWorldNameIsTheJobsWorld() {
    Job job = job(4);
    for (String world : List.of("hccl_world_group", "nccl_world_group", "mccl_world_group")) {
      Session s = new Session(job.localRanks().get(2));
      s.commInit(world);
      assertEquals(2, s.comm().groupRank(world));
      assertEquals(4, s.comm().groupSize(world));
    }
    Session s = new Session(job.localRanks().get(0));
    assertThrows(MsException.class, () -> s.commInit("gloo_world_group"));
    assertThrows(MsException.class, s::comm);
  }

  @Test
  void localRanksCountMembersOnTheSameNode() {
    Job job = job(8);
    Session s = new Session(job.localRanks().get(5));
    s.commInit("hccl_world_group");
    assertEquals(5, s.localRank("hccl_world_group"));
    assertEquals(8, s.localGroupSize("hccl_world_group"));
    s.comm().createGroup("odd", List.of(7, 5, 3, 1));
    assertEquals(1, s.localRank("odd"));
    assertEquals(4, s.localGroupSize("odd"));
    s.commRelease();
    assertThrows(MsException.class, s::comm);
  }

  @Test
  void sessionsOfOneJobShareTheWorldButNotTheirContexts() {
    Job job = job(2);
    Session a = new Session(job.localRanks().get(0));
    Session b = new Session(job.localRanks().get(1));
    a.autoParallelContext().set("device_num", 2);
    assertEquals(1L, b.autoParallelContext().deviceNum());
    assertNotSame(a.runContext(), b.runContext());
    assertSame(a.job().world(), b.job().world());
  }

  @Test
  void abortingAJobFailsLaterCollectivesAtOnce() {
    Job job = job(2);
    Session a = new Session(job.localRanks().get(0));
    a.commInit("hccl_world_group");
    job.abort(1, new IllegalStateException("rank 1 died"));
    MsException e = assertThrows(MsException.class, () -> a.comm().barrier("hccl_world_group"));
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
  }
}
