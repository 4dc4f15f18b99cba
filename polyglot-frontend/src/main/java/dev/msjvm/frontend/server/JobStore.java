package dev.msjvm.frontend.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Job records, scripts, logs and artifacts under the data directory: {@code jobs/<id>/job.json}
 * (written atomically: a temporary file moved over the old one), {@code jobs/<id>/work/} (the job's
 * working directory: its script, uploaded files, {@code logs/worker_<rank>.log} and whatever it
 * writes) and {@code jobs/<id>/run/} (the launcher's own output {@code console.log} and the ranks'
 * exit statuses).
 */
final class JobStore {
  private final Path root;
  private final ObjectMapper json =
      new ObjectMapper()
          .registerModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

  JobStore(Path dataDir) {
    this.root = dataDir.toAbsolutePath().resolve("jobs");
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The folder of all job folders. */
  Path root() {
    return root;
  }

  Path dir(String id) {
    return root.resolve(id);
  }

  Path work(String id) {
    return dir(id).resolve("work");
  }

  Path log(String id, int rank) {
    return work(id).resolve("logs").resolve("worker_" + rank + ".log");
  }

  /**
   * Where the launcher of a running job writes: its console and its ranks' exit statuses (a
   * confined child JVM may write here and in {@link #work}, not beside {@code job.json}).
   */
  Path run(String id) {
    return dir(id).resolve("run");
  }

  /** The launcher's output ({@code console.log} beside job.json for jobs of earlier servers). */
  Path console(String id) {
    Path old = dir(id).resolve("console.log");
    return !Files.isDirectory(run(id)) && Files.exists(old) ? old : run(id).resolve("console.log");
  }

  /** The ranks' exit statuses, as the launcher wrote them. */
  Path status(String id) {
    return run(id).resolve("ranks.txt");
  }

  /**
   * Writes {@code r} as its job's {@code job.json}, atomically. Saves are serialized and each
   * writes its own temporary file: two threads saving one job at once (a cancel racing the job's
   * own update) used to share {@code job.json.tmp}, and the second move failed with
   * NoSuchFileException, a 500 that left the job's slot held.
   */
  synchronized void save(JobRecord r) {
    Path target = dir(r.id()).resolve("job.json");
    try {
      Files.createDirectories(dir(r.id()));
      Path tmp = Files.createTempFile(dir(r.id()), "job.json.", ".tmp");
      json.writeValue(tmp.toFile(), r);
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every stored record, oldest first. */
  List<JobRecord> loadAll() {
    List<JobRecord> out = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path d : dirs.toList()) {
        Path f = d.resolve("job.json");
        if (Files.isRegularFile(f)) {
          out.add(json.readValue(f.toFile(), JobRecord.class));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(java.util.Comparator.comparing(JobRecord::created).thenComparing(JobRecord::id));
    return out;
  }
}
