package dev.msjvm.engine.comm;

import dev.msjvm.engine.MsException;

/**
 * The time a collective takes on a cluster, from two numbers: {@code alpha}, the latency of one
 * step between two ranks, and {@code busBandwidth}, the bus bandwidth in nccl-tests' sense (the
 * algorithm bandwidth scaled by the ring's share of the bytes, so that one figure holds for every
 * collective and group size). For a group of {@code n} ranks and a buffer of {@code S} bytes (the
 * whole buffer: AllReduce's, AllGather's output, ReduceScatter's input, AllToAll's), the ring
 * algorithms' closed forms:
 *
 * <ul>
 *   <li>AllReduce: {@code 2(n-1) alpha + 2(n-1)/n S / busbw};
 *   <li>AllGather, ReduceScatter, AllToAll: {@code (n-1) alpha + (n-1)/n S / busbw};
 *   <li>Broadcast (pipelined tree): {@code ceil(log2 n) alpha + S / busbw};
 *   <li>Send, Recv: {@code alpha + S / busbw}; Barrier: {@code 2 ceil(log2 n) alpha};
 * </ul>
 *
 * and 0 for a group of one. {@link #IN_JVM} is calibrated by {@code CollectiveBench} on this
 * machine's in-JVM communicator (8 ranks): alpha from the smallest AllReduce (its time over 2(n-1)
 * steps), busbw the median AllReduce bus bandwidth from 256 KB up. A cluster's own figures are
 * given as {@code alpha_us=<microseconds>,busbw_gbps=<GB/s>} ({@link #parse}).
 */
public record LinkModel(double alphaSeconds, double busBytesPerSecond) {
  /** The kinds of collective the model prices. */
  public enum Kind {
    ALL_REDUCE,
    ALL_GATHER,
    REDUCE_SCATTER,
    ALL_TO_ALL,
    BROADCAST,
    SEND,
    RECV,
    BARRIER
  }

  /** The in-JVM communicator of this 2-core machine: 7.5 us, 1.79 GB/s (docs/PERFORMANCE.md). */
  public static final LinkModel IN_JVM = new LinkModel(7.5e-6, 1.79e9);

  public LinkModel {
    if (!(alphaSeconds >= 0) || !(busBytesPerSecond > 0)) {
      throw MsException.valueError(
          "A link needs alpha >= 0 and a bus bandwidth > 0, but got alpha "
              + alphaSeconds
              + " s and "
              + busBytesPerSecond
              + " B/s.");
    }
  }

  /**
   * The model {@code spec} describes: {@code alpha_us=<us>,busbw_gbps=<GB/s>} (either may be left
   * out and keeps {@link #IN_JVM}'s); null or blank: {@link #IN_JVM}.
   */
  public static LinkModel parse(String spec) {
    if (spec == null || spec.isBlank()) {
      return IN_JVM;
    }
    double alpha = IN_JVM.alphaSeconds;
    double bw = IN_JVM.busBytesPerSecond;
    for (String part : spec.split(",")) {
      String[] kv = part.trim().split("=", 2);
      try {
        switch (kv.length == 2 ? kv[0].trim() : "") {
          case "alpha_us" -> alpha = Double.parseDouble(kv[1].trim()) / 1e6;
          case "busbw_gbps" -> bw = Double.parseDouble(kv[1].trim()) * 1e9;
          default -> throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        throw MsException.valueError(
            "A link is described as 'alpha_us=<microseconds>,busbw_gbps=<GB/s>', but got '"
                + spec
                + "'.");
      }
    }
    return new LinkModel(alpha, bw);
  }

  /** Seconds one {@code kind} of {@code bytes} (see the class comment) takes on {@code n} ranks. */
  public double seconds(Kind kind, long bytes, int n) {
    if (n <= 1 && kind != Kind.SEND && kind != Kind.RECV) {
      return 0;
    }
    double share = (n - 1) / (double) n;
    int log = 32 - Integer.numberOfLeadingZeros(Math.max(n, 1) - 1);
    return switch (kind) {
      case ALL_REDUCE -> 2 * (n - 1) * alphaSeconds + 2 * share * bytes / busBytesPerSecond;
      case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL ->
          (n - 1) * alphaSeconds + share * bytes / busBytesPerSecond;
      case BROADCAST -> log * alphaSeconds + bytes / busBytesPerSecond;
      case SEND, RECV -> alphaSeconds + bytes / busBytesPerSecond;
      case BARRIER -> 2 * log * alphaSeconds;
    };
  }

  /** The spec {@link #parse} reads back to this model. */
  public String spec() {
    return "alpha_us=" + alphaSeconds * 1e6 + ",busbw_gbps=" + busBytesPerSecond / 1e9;
  }
}
