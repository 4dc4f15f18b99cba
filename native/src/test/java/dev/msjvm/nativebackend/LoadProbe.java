package dev.msjvm.nativebackend;

import dev.msjvm.engine.MsException;

/**
 * Child-JVM entry point for {@link OpenBlasLoadTest}: tries {@link OpenBlas#load()} twice (the
 * second attempt meets the failed class initialisation) and reports each outcome on stdout.
 */
final class LoadProbe {

  private LoadProbe() {}

  public static void main(String[] args) {
    for (int attempt = 1; attempt <= 2; attempt++) {
      try (OpenBlas blas = OpenBlas.load()) {
        System.out.println("attempt " + attempt + " loaded " + blas.threads());
      } catch (MsException e) {
        System.out.println("attempt " + attempt + " " + e.kind() + ": " + e.getMessage());
      }
    }
    System.out.println("still alive");
  }
}
