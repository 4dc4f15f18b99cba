package dev.msjvm.frontend.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records survive a restart: a job a previous server left QUEUED or RUNNING (it died) is FAILED
 * with the reason after the next start, on disk too; finished jobs keep their state.
 */
class JobServiceRestartTest {

  private static JobRecord record(String id, JobRecord.State state) {
    return new JobRecord(
        id,
        state,
        1,
        List.of(),
        Instant.parse("2026-11-25T10:00:00Z").plusSeconds(id.hashCode() & 0xff),
        null,
        null,
        List.of(new JobRecord.RankStatus(0, state.done() ? 0 : null)),
        null);
  }

  @Test
  void jobsLeftUnfinishedByADeadServerAreFailedAtStartup(@TempDir Path data) {
    JobStore before = new JobStore(data);
    before.save(record("running", JobRecord.State.RUNNING));
    before.save(record("queued", JobRecord.State.QUEUED));
    before.save(record("done", JobRecord.State.SUCCEEDED));

    JobService service = new JobService();
    service.dataDir = data.toString();
    service.maxConcurrentJobs = 1;
    service.maxWorkers = 8;
    service.isolation = "process";
    service.warmProcesses = 0;
    service.confine = "off";
    service.start(null);
    try {
      assertEquals(JobRecord.State.FAILED, service.get("running").orElseThrow().state());
      assertEquals(
          "the server stopped while the job was running",
          service.get("running").orElseThrow().reason());
      assertEquals(
          "the server stopped while the job was queued",
          service.get("queued").orElseThrow().reason());
      assertEquals(JobRecord.State.SUCCEEDED, service.get("done").orElseThrow().state());
      assertEquals(3, service.list().size());
      // On disk as well: a third server sees the same.
      for (JobRecord r : new JobStore(data).loadAll()) {
        assertEquals(
            r.id().equals("done") ? JobRecord.State.SUCCEEDED : JobRecord.State.FAILED, r.state());
      }
    } finally {
      service.stop(null);
    }
  }
}
