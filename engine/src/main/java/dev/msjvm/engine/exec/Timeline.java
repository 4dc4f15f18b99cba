package dev.msjvm.engine.exec;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The executed schedule of one rank's pipeline step, timed node by node: which block (forward F or
 * backward B of a micro-batch, a Send, a Recv, the rest of the step) ran when. After each replay it
 * keeps that step's times and, if asked to ({@link #writeTo}), rewrites a Chrome trace file ({@code
 * chrome://tracing} or Perfetto: one row per rank, consecutive nodes of one block merged).
 *
 * <p>Bubble: the share of the pipeline section (from the step's first node to the end of its last
 * backward node) this rank spent blocked in Recv. On equal-cost stages 1F1B and GPipe both idle
 * {@code (p−1)/(m+p−1)} of it.
 */
public final class Timeline implements Graph.NodeListener {
  private final int rank;
  private final int stage;
  private final int stages;
  private final int micro;
  private final int chunks;
  private final String scheduler;
  private final String[] labels;
  private final int[] blocks;
  private final long[] start;
  private final long[] end;
  private volatile Step last;
  private volatile Path file;
  private int steps;

  /** One finished step: node times (ns) and what they add up to. */
  public record Step(
      long[] start, long[] end, long sectionNanos, long waitNanos, int peakInFlight) {
    /** Share of the pipeline section spent waiting in Recv. */
    public double bubble() {
      return sectionNanos == 0 ? 0 : (double) waitNanos / sectionNanos;
    }
  }

  Timeline(
      int rank,
      int stage,
      int stages,
      int micro,
      int chunks,
      String scheduler,
      String[] labels,
      int[] blocks) {
    this.chunks = chunks;
    this.rank = rank;
    this.stage = stage;
    this.stages = stages;
    this.micro = micro;
    this.scheduler = scheduler;
    this.labels = labels;
    this.blocks = blocks;
    this.start = new long[labels.length];
    this.end = new long[labels.length];
  }

  @Override
  public void started(int node, long now) {
    start[node] = now;
  }

  @Override
  public void finished(int node, long now) {
    end[node] = now;
    if (node == labels.length - 1) {
      complete();
    }
  }

  /** The last finished step, or null before the first. */
  public Step lastStep() {
    return last;
  }

  /** How many steps ran. */
  public synchronized int steps() {
    return steps;
  }

  /**
   * The theoretical bubble of the schedule on equal-cost stages: (p−1)/(m+p−1), or with {@code v}
   * chunks per stage (interleaved) (p−1)/(v·m+p−1).
   */
  public double idealBubble() {
    return (double) (stages - 1) / ((long) chunks * micro + stages - 1);
  }

  public int stage() {
    return stage;
  }

  /** From now on, every step rewrites {@code path} with its Chrome trace (null: stop). */
  public void writeTo(Path path) {
    file = path;
    Step s = last;
    if (path != null && s != null) {
      write(path, s);
    }
  }

  private void complete() {
    int n = labels.length;
    int lastBackward = -1;
    for (int k = 0; k < n; k++) {
      if (blocks[k] >= 0 && blocks[k] % 2 == 1) {
        lastBackward = k;
      }
    }
    int sectionEnd = lastBackward < 0 ? n - 1 : lastBackward;
    long section = end[sectionEnd] - start[0];
    long wait = 0;
    for (int k = 0; k <= sectionEnd; k++) {
      if (labels[k].equals("recv")) {
        wait += end[k] - start[k];
      }
    }
    Step s = new Step(start.clone(), end.clone(), section, wait, inFlight());
    last = s;
    synchronized (this) {
      steps++;
    }
    Path p = file;
    if (p != null) {
      write(p, s);
    }
  }

  /**
   * The most micro-batches between the start of their first F block and the end of their last B
   * block.
   */
  private int inFlight() {
    int[] firstForward = new int[micro];
    int[] lastBackward = new int[micro];
    java.util.Arrays.fill(firstForward, -1);
    java.util.Arrays.fill(lastBackward, -1);
    for (int k = 0; k < blocks.length; k++) {
      int b = blocks[k];
      if (b < 0) {
        continue;
      }
      int m = b / 2 / chunks;
      if (b % 2 == 0 && firstForward[m] < 0) {
        firstForward[m] = k;
      } else if (b % 2 == 1) {
        lastBackward[m] = k;
      }
    }
    int live = 0;
    int peak = 0;
    for (int k = 0; k < blocks.length; k++) {
      for (int m = 0; m < micro; m++) {
        if (firstForward[m] == k) {
          peak = Math.max(peak, ++live);
        }
        if (lastBackward[m] == k) {
          live--;
        }
      }
    }
    return peak;
  }

  /** The Chrome trace of {@code s}. */
  public String chromeTrace(Step s) {
    ObjectMapper json = new ObjectMapper();
    ObjectNode root = json.createObjectNode();
    ArrayNode events = root.putArray("traceEvents");
    ObjectNode meta = events.addObject();
    meta.put("name", "thread_name").put("ph", "M").put("pid", 0).put("tid", rank);
    meta.putObject("args").put("name", "rank " + rank + " (stage " + stage + ")");
    long t0 = s.start()[0];
    int k = 0;
    while (k < labels.length) {
      int j = k;
      while (j + 1 < labels.length && labels[j + 1].equals(labels[k])) {
        j++;
      }
      ObjectNode e = events.addObject();
      e.put("name", labels[k])
          .put(
              "cat", labels[k].startsWith("F") || labels[k].startsWith("B") ? "compute" : labels[k])
          .put("ph", "X")
          .put("ts", (s.start()[k] - t0) / 1000.0)
          .put("dur", (s.end()[j] - s.start()[k]) / 1000.0)
          .put("pid", 0)
          .put("tid", rank);
      e.putObject("args").put("nodes", j - k + 1);
      k = j + 1;
    }
    ObjectNode other = root.putObject("otherData");
    other
        .put("rank", rank)
        .put("stage", stage)
        .put("stages", stages)
        .put("micro_batches", micro)
        .put("chunks", chunks)
        .put("scheduler", scheduler)
        .put("bubble", s.bubble())
        .put("ideal_bubble", idealBubble())
        .put("peak_in_flight", s.peakInFlight());
    root.put("displayTimeUnit", "ms");
    return root.toString();
  }

  private void write(Path path, Step s) {
    try {
      Files.createDirectories(path.toAbsolutePath().getParent());
      Files.writeString(path, chromeTrace(s));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
