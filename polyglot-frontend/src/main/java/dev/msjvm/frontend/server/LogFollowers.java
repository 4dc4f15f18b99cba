package dev.msjvm.frontend.server;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code GET /v1/jobs/{id}/logs/{rank}?follow=true}: streams a log as it grows until the job ends.
 * Each follower runs on a virtual thread of its own (the endpoint is {@code @RunOnVirtualThread}),
 * so hundreds of them waiting for output hold no request thread; past {@code
 * msjvm.server.max-log-followers} at once a new one is refused with 429.
 */
@ApplicationScoped
public class LogFollowers {

  @ConfigProperty(name = "msjvm.server.max-log-followers", defaultValue = "1000")
  int maxFollowers;

  /** How often a follower looks for new output. */
  static final long POLL_MILLIS = 200;

  private final AtomicInteger active = new AtomicInteger();

  /** The stream of {@code log} from its start until {@code done} says the job ended. */
  StreamingOutput follow(Path log, BooleanSupplier done) {
    if (active.incrementAndGet() > maxFollowers) {
      active.decrementAndGet();
      throw new JobService.Busy(
          maxFollowers + " logs are being followed already; retry later",
          JobService.RETRY_AFTER_SECONDS);
    }
    return out -> {
      try {
        long at = 0;
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
        while (true) {
          boolean ended = done.getAsBoolean();
          if (Files.isRegularFile(log, LinkOption.NOFOLLOW_LINKS)) {
            try (SeekableByteChannel ch = Files.newByteChannel(log)) {
              ch.position(at);
              int n;
              while ((n = ch.read(buf.clear())) > 0) {
                out.write(buf.array(), 0, n);
                at += n;
              }
            }
            out.flush();
          }
          if (ended) {
            return;
          }
          Thread.sleep(POLL_MILLIS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (IOException e) {
        // The client went away.
      } finally {
        active.decrementAndGet();
      }
    };
  }
}
