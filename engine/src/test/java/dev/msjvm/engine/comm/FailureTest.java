package dev.msjvm.engine.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Timeouts, abort, interruption and mismatched calls: no rank may hang, every error says why. */
class FailureTest {

  private static final String WORLD = InJvmWorld.HCCL_WORLD_GROUP;

  /** Long enough that a test passing quickly proves the waiters were woken, not timed out. */
  private static final Duration LONG = Duration.ofSeconds(60);

  @Test
  void timeoutNamesTheCollectiveTheGroupAndTheMissingRank() {
    InJvmWorld w = new InJvmWorld(3, Duration.ofMillis(200));
    var outcomes =
        RankThreads.runEach(
            w,
            comm -> {
              if (comm.rank() != 2) { // rank 2 never arrives
                comm.allReduce(new float[4], ReduceOp.SUM, WORLD);
              }
              return null;
            });
    for (int r = 0; r < 2; r++) {
      Throwable e = outcomes.get(r).error();
      MsException ms = assertInstanceOf(e);
      assertEquals(MsException.Kind.TIMEOUT_ERROR, ms.kind());
      String m = ms.getMessage();
      assertTrue(m.contains("AllReduce(op=SUM, count=4)"), m);
      assertTrue(m.contains("'hccl_world_group'"), m);
      // Usually "[2]"; on a loaded machine a slow-starting rank may be listed too.
      Matcher missing = Pattern.compile("group ranks \\[([0-9, ]*)\\] \\(world ranks").matcher(m);
      assertTrue(missing.find() && missing.group(1).contains("2"), m);
      assertTrue(m.contains("did not arrive"), m);
    }
    assertNull(outcomes.get(2).error());
    // The group is now unusable: the late rank fails at once instead of waiting again.
    MsException late =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5),
            () -> assertThrows(MsException.class, () -> w.communicator(2).barrier(WORLD)));
    assertTrue(late.getMessage().contains("earlier call on this group failed"), late.getMessage());
  }

  @Test
  void abortWakesEveryWaiterAndLaterCallsFailFast() throws Exception {
    InJvmWorld w = new InJvmWorld(4, LONG);
    w.communicator(0).createGroup("pair", List.of(0, 1));
    w.communicator(1).createGroup("pair", List.of(0, 1));
    List<Consumer<Communicator>> bodies =
        List.of(
            c -> c.allReduce(new float[8], ReduceOp.SUM, WORLD),
            c -> c.barrier("pair"), // rank 0 never calls "pair": a second kind of waiter
            c -> c.recv(new float[1], 3, 0, WORLD)); // nobody sends
    AtomicReferenceArray<Throwable> errors = new AtomicReferenceArray<>(3);
    List<Thread> threads = startAndAwaitBlocked(w, bodies, errors);
    RuntimeException boom = new RuntimeException("boom");
    w.abort(3, boom);
    for (Thread t : threads) {
      t.join(10_000);
      assertTrue(!t.isAlive(), t.getName() + " was not woken by abort");
    }
    for (int r = 0; r < 3; r++) {
      MsException e = assertInstanceOf(errors.get(r));
      assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
      assertTrue(
          e.getMessage().contains("rank 3 failed: java.lang.RuntimeException: boom"), "" + e);
      assertSame(boom, e.getCause());
    }
    MsException later =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5),
            () ->
                assertThrows(
                    MsException.class,
                    () -> w.communicator(3).allGather(new float[1], new float[4], WORLD)));
    assertTrue(later.getMessage().contains("rank 3 failed"), later.getMessage());
    assertTrue(w.isAborted());
  }

  @Test
  void interruptStopsTheWaitAndKeepsTheFlag() throws Exception {
    InJvmWorld w = new InJvmWorld(2, LONG);
    AtomicReferenceArray<Throwable> errors = new AtomicReferenceArray<>(1);
    boolean[] flag = new boolean[1];
    List<Thread> threads =
        startAndAwaitBlocked(
            w,
            List.of(
                c -> {
                  try {
                    c.barrier(WORLD);
                  } finally {
                    flag[0] = Thread.currentThread().isInterrupted();
                  }
                }),
            errors);
    threads.get(0).interrupt();
    threads.get(0).join(10_000);
    MsException e = assertInstanceOf(errors.get(0));
    assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
    assertTrue(e.getMessage().contains("world ranks [1]"), e.getMessage());
    assertTrue(flag[0], "interrupt flag must survive for the thread's owner");
  }

  @Test
  void mismatchedSizesFailOnEveryRankAndTheGroupStaysUsable() {
    InJvmWorld w = new InJvmWorld(3, LONG);
    var outcomes =
        RankThreads.runEach(
            w,
            comm -> {
              float[] bad = new float[comm.rank() == 1 ? 5 : 4];
              MsException e =
                  assertThrows(MsException.class, () -> comm.allReduce(bad, ReduceOp.SUM, WORLD));
              float[] ok = {comm.rank()};
              comm.allReduce(ok, ReduceOp.SUM, WORLD);
              return List.<Object>of(e, ok[0]);
            });
    for (var o : outcomes) {
      assertNull(o.error());
      MsException e = (MsException) o.value().get(0);
      assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
      assertTrue(
          e.getMessage().contains("group rank 1 (world rank 1) called AllReduce(op=SUM, count=5)"),
          e.getMessage());
      assertEquals(3f, o.value().get(1));
    }
  }

  @Test
  void mismatchedCollectivesOpsAndRootsAreErrors() {
    InJvmWorld w = new InJvmWorld(2, LONG);
    var outcomes =
        RankThreads.runEach(
            w,
            comm -> {
              List<String> messages = new ArrayList<>();
              boolean first = comm.rank() == 0;
              List<Runnable> pairs =
                  List.of(
                      first
                          ? () -> comm.allReduce(new float[2], ReduceOp.SUM, WORLD)
                          : () -> comm.allGather(new float[1], new float[2], WORLD),
                      () ->
                          comm.allReduce(new float[2], first ? ReduceOp.MAX : ReduceOp.MIN, WORLD),
                      () -> comm.broadcast(new float[2], comm.rank(), WORLD),
                      first
                          ? () -> comm.barrier(WORLD)
                          : () -> comm.allToAll(new float[2], new float[2], WORLD));
              for (Runnable call : pairs) {
                messages.add(assertThrows(MsException.class, call::run).getMessage());
              }
              return messages;
            });
    List<String> m = outcomes.get(1).value();
    assertTrue(m.get(0).contains("called AllGather(count=1)"), m.get(0));
    assertTrue(m.get(1).contains("AllReduce(op=MIN, count=2)"), m.get(1));
    assertTrue(m.get(2).contains("Broadcast(root=1, count=2)"), m.get(2));
    assertTrue(m.get(3).contains("called Barrier(count=0)"), m.get(3));
    assertEquals(m, outcomes.get(0).value()); // every rank reports the same mismatch
  }

  @Test
  void badArgumentsAreValueErrorsBeforeAnyWait() {
    Communicator c = new InJvmWorld(2, LONG).communicator(0);
    List<Runnable> calls =
        List.of(
            () -> c.allReduce(new float[4], 2, 3, ReduceOp.SUM, WORLD),
            () -> c.allReduce(new float[4], ReduceOp.SUM, "missing"),
            () -> c.allReduce(new float[4], null, WORLD),
            () -> c.allGather(new float[2], new float[3], WORLD),
            () -> c.reduceScatter(new float[3], new float[2], ReduceOp.SUM, WORLD),
            () -> c.allToAll(new float[3], new float[3], WORLD),
            () -> c.broadcast(new float[1], 2, WORLD),
            () -> c.recv(new float[1], -1, 0, WORLD));
    for (Runnable call : calls) {
      MsException e =
          assertTimeoutPreemptively(
              Duration.ofSeconds(5), () -> assertThrows(MsException.class, call::run));
      assertEquals(MsException.Kind.VALUE_ERROR, e.kind(), e.getMessage());
    }
  }

  @Test
  void twoJobsInOneJvmDoNotShareState() {
    InJvmWorld a = new InJvmWorld(2, LONG);
    InJvmWorld b = new InJvmWorld(2, LONG);
    a.communicator(0).createGroup("g", List.of(0, 1));
    b.communicator(0).createGroup("g", List.of(0)); // same name, other ranks: other job, fine
    b.abort(0, new RuntimeException("b died"));
    var sums =
        RankThreads.runAll(
            a,
            comm -> {
              float[] x = {1};
              comm.allReduce(x, ReduceOp.SUM, WORLD);
              return x;
            });
    sums.forEach(x -> assertArrayEquals(new float[] {2}, x));
  }

  /** Starts body i on world rank i and returns once each thread is parked inside its call. */
  private static List<Thread> startAndAwaitBlocked(
      InJvmWorld w, List<Consumer<Communicator>> bodies, AtomicReferenceArray<Throwable> errors)
      throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < bodies.size(); r++) {
      int rank = r;
      Thread t =
          new Thread(
              () -> {
                try {
                  bodies.get(rank).accept(w.communicator(rank));
                } catch (Throwable e) {
                  errors.set(rank, e);
                }
              },
              "rank-" + r);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (t.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertEquals(Thread.State.TIMED_WAITING, t.getState(), t.getName() + " never blocked");
    }
    return threads;
  }

  private static MsException assertInstanceOf(Throwable t) {
    return org.junit.jupiter.api.Assertions.assertInstanceOf(MsException.class, t);
  }
}
