package dev.msjvm.engine.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Named groups: creation rules, rank translation, sub-groups and overlapping groups at once. */
class GroupsTest {

  private static InJvmWorld world(int n) {
    return new InJvmWorld(n, Duration.ofSeconds(10));
  }

  @ParameterizedTest(name = "world rank {0} -> group rank {1}")
  @CsvSource({"7, 0", "3, 1", "1, 2", "6, 3"})
  void ranksKeepTheirOrderAndTranslateBothWays(int worldRank, int groupRank) {
    Communicator c = world(8).communicator(3);
    c.createGroup("g", List.of(7, 3, 1, 6));
    assertEquals(List.of(7, 3, 1, 6), c.groupRanks("g"));
    assertEquals(groupRank, c.getGroupRankFromWorldRank(worldRank, "g"));
    assertEquals(worldRank, c.getWorldRankFromGroupRank("g", groupRank));
    assertEquals(1, c.groupRank("g"));
    assertEquals(4, c.groupSize("g"));
  }

  @Test
  void translationErrorsAreValueErrors() {
    Communicator c = world(8).communicator(1);
    c.createGroup("g", List.of(1, 3));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c.getGroupRankFromWorldRank(2, "g")));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c.getWorldRankFromGroupRank("g", 2)));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c.groupSize("nope")));
  }

  @Test
  void worldGroupAndAliasesAreTheSameGroup() {
    InJvmWorld w = world(4);
    w.addWorldGroupAlias("nccl_world_group");
    w.addWorldGroupAlias("mccl_world_group");
    // Ranks mix names for the same calls; they must still meet (one sequence of calls).
    List<float[]> got =
        RankThreads.runAll(
            w,
            comm -> {
              float[] buf = {comm.rank()};
              String name = comm.rank() % 2 == 0 ? "hccl_world_group" : "nccl_world_group";
              comm.allReduce(buf, ReduceOp.SUM, name);
              comm.allReduce(buf, ReduceOp.MAX, "mccl_world_group");
              return buf;
            });
    got.forEach(b -> assertArrayEquals(new float[] {6}, b));
    Communicator c = w.communicator(0);
    assertEquals(List.of(0, 1, 2, 3), c.groupRanks("mccl_world_group"));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c.destroyGroup("hccl_world_group")));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c.destroyGroup("nccl_world_group")));
  }

  @Test
  void createGroupRules() {
    InJvmWorld w = world(4);
    Communicator c0 = w.communicator(0);
    Communicator c1 = w.communicator(1);
    c0.createGroup("g", List.of(0, 1));
    // Same set in another order is another group: the order gives the group ranks.
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c1.createGroup("g", List.of(1, 0))));
    c1.createGroup("g", List.of(0, 1));
    c0.createGroup("g", List.of(0, 1)); // again on the same rank: fine
    MsException conflict =
        assertThrows(MsException.class, () -> c1.createGroup("g", List.of(1, 2)));
    assertEquals(MsException.Kind.VALUE_ERROR, conflict.kind());
    assertTrue(conflict.getMessage().contains("[0, 1]"), conflict.getMessage());
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c0.createGroup("h", List.of())));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c0.createGroup("h", List.of(0, 0))));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c0.createGroup("h", List.of(0, 4))));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c0.createGroup("", List.of(0))));
    assertEquals(
        MsException.Kind.VALUE_ERROR, kind(() -> c0.createGroup("hccl_world_group", List.of(0))));
    c0.createGroup("hccl_world_group", List.of(0, 1, 2, 3)); // the world group as it is: fine
    c0.createGroup("solo", List.of(0)); // one rank is allowed (MindSpore's text says otherwise)
    assertEquals(1, c0.groupSize("solo"));
  }

  @Test
  void groupsAreVisiblePerRankAndLiveUntilEveryHolderDestroysThem() {
    InJvmWorld w = world(4);
    Communicator c0 = w.communicator(0);
    Communicator c1 = w.communicator(1);
    c0.createGroup("g", List.of(0, 1));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c1.groupSize("g"))); // not created on 1
    c1.createGroup("g", List.of(0, 1));
    c0.destroyGroup("g");
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c0.groupSize("g")));
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c0.destroyGroup("g")));
    // Rank 1 still holds it, so the name keeps its ranks.
    assertEquals(MsException.Kind.VALUE_ERROR, kind(() -> c0.createGroup("g", List.of(0, 2))));
    c1.destroyGroup("g");
    c0.createGroup("g", List.of(0, 2)); // last holder gone: the name is free again
    assertEquals(List.of(0, 2), c0.groupRanks("g"));
  }

  @Test
  void nonMemberCannotCallACollective() {
    Communicator c2 = world(4).communicator(2);
    c2.createGroup("g", List.of(0, 1));
    MsException e =
        assertThrows(MsException.class, () -> c2.allReduce(new float[1], ReduceOp.SUM, "g"));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertTrue(e.getMessage().contains("not a member"), e.getMessage());
  }

  @Test
  void subGroupsReduceOnlyTheirMembers() {
    int n = 8;
    List<float[]> got =
        RankThreads.runAll(
            world(n),
            comm -> {
              int r = comm.rank();
              // Data-parallel pairs {0,4},{1,5},... and model-parallel quads {0..3},{4..7}.
              String dp = "dp" + (r % 4);
              String mp = "mp" + (r / 4);
              comm.createGroup(dp, List.of(r % 4, r % 4 + 4));
              comm.createGroup(mp, List.of(r / 4 * 4, r / 4 * 4 + 1, r / 4 * 4 + 2, r / 4 * 4 + 3));
              float[] a = {r};
              comm.allReduce(a, ReduceOp.SUM, dp);
              float[] g = new float[4];
              comm.allGather(new float[] {r}, g, mp);
              return new float[] {a[0], g[0], g[1], g[2], g[3]};
            });
    for (int r = 0; r < n; r++) {
      int base = r / 4 * 4;
      assertArrayEquals(
          new float[] {2 * (r % 4) + 4, base, base + 1, base + 2, base + 3}, got.get(r));
    }
  }

  @Test
  void overlappingGroupsRunConcurrentlyFromSeparateThreads() throws Exception {
    int n = 8;
    int calls = 100;
    InJvmWorld w = world(n);
    // Two threads per rank, each driving one of two overlapping group families at the same time:
    // halves {0..3},{4..7} and parities {0,2,4,6},{1,3,5,7}.
    ConcurrentHashMap<String, float[]> results = new ConcurrentHashMap<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch done = new CountDownLatch(2 * n);
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      Communicator c = w.communicator(r);
      String half = "half" + (r / 4);
      String parity = "parity" + (r % 2);
      c.createGroup(half, List.of(r / 4 * 4, r / 4 * 4 + 1, r / 4 * 4 + 2, r / 4 * 4 + 3));
      c.createGroup(parity, List.of(r % 2, r % 2 + 2, r % 2 + 4, r % 2 + 6));
      for (String group : List.of(half, parity)) {
        Thread t =
            new Thread(
                () -> {
                  try {
                    float[] acc = new float[3];
                    for (int k = 0; k < calls; k++) {
                      float[] buf = {c.rank(), k, 1};
                      c.allReduce(buf, ReduceOp.SUM, group);
                      for (int i = 0; i < 3; i++) {
                        acc[i] += buf[i];
                      }
                    }
                    results.put(c.rank() + "/" + group, acc);
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  } finally {
                    done.countDown();
                  }
                });
        threads.add(t);
      }
    }
    threads.forEach(Thread::start);
    assertTrue(done.await(20, java.util.concurrent.TimeUnit.SECONDS), "deadlock");
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    for (int r = 0; r < n; r++) {
      float halfSum = (r / 4 * 4) * 4 + 6;
      float paritySum = (r % 2) * 4 + 12;
      float kSum = 4 * (calls * (calls - 1) / 2f);
      assertArrayEquals(
          new float[] {calls * halfSum, kSum, 4 * calls}, results.get(r + "/half" + (r / 4)));
      assertArrayEquals(
          new float[] {calls * paritySum, kSum, 4 * calls}, results.get(r + "/parity" + (r % 2)));
    }
  }

  static MsException.Kind kind(Runnable r) {
    return assertThrows(MsException.class, r::run).kind();
  }
}
