package dev.msjvm.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CompileExchangeTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  @Test
  void theFirstClaimLeadsAndTheOthersGetItsResult() throws Exception {
    CompileExchange<String> ex = new CompileExchange<>(4);
    AtomicInteger leaders = new AtomicInteger();
    List<String> got = java.util.Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> ranks = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                CompileExchange.Claim<String> c = ex.claim("net", 0);
                if (c.leads()) {
                  leaders.incrementAndGet();
                  c.publish("plan");
                  got.add("plan");
                } else {
                  got.add(c.await(10 * SECOND, () -> false));
                }
              });
      t.start();
      ranks.add(t);
    }
    start.countDown();
    for (Thread t : ranks) {
      t.join(20_000);
    }
    assertEquals(1, leaders.get());
    assertEquals(List.of("plan", "plan", "plan", "plan"), got);
    assertEquals(0, ex.open(), "the entry goes once every local rank claimed it");
  }

  @Test
  void occurrencesPairInOrderAndKeysAreSeparate() {
    CompileExchange<String> ex = new CompileExchange<>(2);
    CompileExchange.Claim<String> a0 = ex.claim("a", 0);
    CompileExchange.Claim<String> a1 = ex.claim("a", 1);
    CompileExchange.Claim<String> b0 = ex.claim("b", 0);
    assertTrue(a0.leads() && a1.leads() && b0.leads());
    a0.publish("first");
    a1.publish("second");
    assertEquals("second", ex.claim("a", 1).await(SECOND, () -> false));
    assertEquals("first", ex.claim("a", 0).await(SECOND, () -> false));
    assertEquals(1, ex.open(), "b waits for its second rank");
  }

  @Test
  void anAbandonedClaimTellsTheFollowersToWorkAlone() {
    CompileExchange<String> ex = new CompileExchange<>(2);
    CompileExchange.Claim<String> lead = ex.claim("net", 0);
    lead.abandon();
    CompileExchange.Claim<String> follow = ex.claim("net", 0);
    assertFalse(follow.leads());
    assertNull(follow.await(SECOND, () -> false));
  }

  @Test
  void aFollowerStopsWhenTheJobAbortsOrTheTimeoutPasses() {
    CompileExchange<String> ex = new CompileExchange<>(3);
    ex.claim("net", 0); // a leader that never publishes
    MsException aborted =
        assertThrows(MsException.class, () -> ex.claim("net", 0).await(10 * SECOND, () -> true));
    assertTrue(aborted.getMessage().contains("aborted"), aborted.getMessage());
    long t0 = System.nanoTime();
    MsException late =
        assertThrows(
            MsException.class,
            () -> ex.claim("net", 0).await(TimeUnit.MILLISECONDS.toNanos(200), () -> false));
    assertTrue(late.getMessage().startsWith("Timed out"), late.getMessage());
    assertTrue(System.nanoTime() - t0 < 5 * SECOND);
  }
}
