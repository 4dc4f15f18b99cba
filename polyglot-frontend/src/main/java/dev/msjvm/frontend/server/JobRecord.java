package dev.msjvm.frontend.server;

import java.time.Instant;
import java.util.List;

/**
 * What the server knows about one job, as stored in {@code <data-dir>/jobs/<id>/job.json} and
 * returned by {@code GET /v1/jobs/{id}}. Immutable: a state change writes a new record.
 */
public record JobRecord(
    String id,
    State state,
    int workers,
    List<String> args,
    Instant created,
    Instant started,
    Instant finished,
    List<RankStatus> ranks,
    String reason) {

  /** The lifecycle: QUEUED, then RUNNING, then one of the three final states. */
  public enum State {
    QUEUED,
    RUNNING,
    SUCCEEDED,
    FAILED,
    CANCELLED;

    public boolean done() {
      return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }
  }

  /** One rank's exit status (null while it runs). */
  public record RankStatus(int rank, Integer exitCode) {}

  public JobRecord {
    args = List.copyOf(args);
    ranks = ranks == null ? List.of() : List.copyOf(ranks);
  }

  JobRecord running(Instant now) {
    return new JobRecord(id, State.RUNNING, workers, args, created, now, null, ranks, null);
  }

  JobRecord finished(State to, Instant now, List<RankStatus> rankStatus, String why) {
    return new JobRecord(id, to, workers, args, created, started, now, rankStatus, why);
  }
}
