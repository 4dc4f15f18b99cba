package dev.msjvm.engine.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Send/Receive: matching by (source, destination, tag, group), order and buffering. */
class PointToPointTest {

  private static final String WORLD = InJvmWorld.HCCL_WORLD_GROUP;

  @Test
  void sameKeyArrivesInSendOrderAndTagsMatchIndependently() {
    InJvmWorld w = new InJvmWorld(2, Duration.ofSeconds(10));
    List<float[]> got =
        RankThreads.runAll(
            w,
            comm -> {
              if (comm.rank() == 0) {
                comm.send(new float[] {1, 2}, 1, 7, WORLD);
                comm.send(new float[] {3}, 1, 7, WORLD);
                comm.send(new float[] {9}, 1, 8, WORLD);
                return new float[0];
              }
              float[] tag8 = new float[1];
              comm.recv(tag8, 0, 8, WORLD); // a later tag first: no head-of-line blocking
              float[] a = new float[2];
              float[] b = new float[1];
              comm.recv(a, 0, 7, WORLD);
              comm.recv(b, 0, 7, WORLD);
              return new float[] {tag8[0], a[0], a[1], b[0]};
            });
    assertArrayEquals(new float[] {9, 1, 2, 3}, got.get(1));
  }

  @Test
  void ringWhereEveryoneSendsFirstDoesNotDeadlock() {
    int n = 8;
    List<float[]> got =
        RankThreads.runAll(
            new InJvmWorld(n, Duration.ofSeconds(10)),
            comm -> {
              int r = comm.rank();
              float[] buf = {r, r * 10};
              for (int step = 0; step < n - 1; step++) {
                comm.send(buf, (r + 1) % n, step, WORLD);
                comm.recv(buf, (r + n - 1) % n, step, WORLD);
              }
              return buf;
            });
    for (int r = 0; r < n; r++) {
      int from = (r + 1) % n; // after n-1 hops each rank holds its successor's data
      assertArrayEquals(new float[] {from, from * 10}, got.get(r));
    }
  }

  @Test
  void ranksAreGroupRanksAndGroupsDoNotCrossTalk() {
    InJvmWorld w = new InJvmWorld(4, Duration.ofSeconds(10));
    List<float[]> got =
        RankThreads.runAll(
            w,
            comm -> {
              int r = comm.rank();
              if (r == 1 || r == 3) {
                comm.createGroup("odd", List.of(1, 3));
                if (r == 1) {
                  comm.send(new float[] {42}, 1, 0, "odd"); // group rank 1 = world rank 3
                  comm.send(new float[] {7}, 3, 0, WORLD);
                  return new float[0];
                }
                float[] world = new float[1];
                float[] odd = new float[1];
                comm.recv(world, 1, 0, WORLD);
                comm.recv(odd, 0, 0, "odd");
                return new float[] {world[0], odd[0]};
              }
              return new float[0];
            });
    assertArrayEquals(new float[] {7, 42}, got.get(3));
  }

  @Test
  void sendIsACopyAndSelfSendWorks() {
    Communicator c = new InJvmWorld(1, Duration.ofSeconds(1)).communicator(0);
    float[] buf = {5, 6};
    c.send(buf, 0, 0, WORLD);
    buf[0] = -1; // changing the buffer after send must not change the message
    float[] out = new float[2];
    c.recv(out, 0, 0, WORLD);
    assertArrayEquals(new float[] {5, 6}, out);
  }

  @Test
  void lengthMismatchIsAnError() {
    Communicator c = new InJvmWorld(1, Duration.ofSeconds(1)).communicator(0);
    c.send(new float[3], 0, 0, WORLD);
    MsException e = assertThrows(MsException.class, () -> c.recv(new float[2], 0, 0, WORLD));
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
    assertTrue(e.getMessage().contains("sent 3 elements, expected 2"), e.getMessage());
  }

  @Test
  void receiveTimesOutNamingTheSender() {
    Communicator c = new InJvmWorld(2, Duration.ofMillis(200)).communicator(1);
    MsException e = assertThrows(MsException.class, () -> c.recv(new float[1], 0, 5, WORLD));
    assertEquals(MsException.Kind.TIMEOUT_ERROR, e.kind());
    assertTrue(e.getMessage().contains("world rank 0 did not send tag 5"), e.getMessage());
  }

  @Test
  void peerOutOfRangeIsAValueError() {
    Communicator c = new InJvmWorld(2, Duration.ofSeconds(1)).communicator(0);
    assertEquals(
        MsException.Kind.VALUE_ERROR,
        assertThrows(MsException.class, () -> c.send(new float[1], 2, 0, WORLD)).kind());
  }
}
