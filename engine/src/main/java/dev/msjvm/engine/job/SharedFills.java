package dev.msjvm.engine.job;

import dev.msjvm.engine.tensor.Tensor;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Random initializer fills the local ranks of a job make alike, made once. A parameter that a
 * strategy leaves whole (or a slice several ranks hold, such as the replicas of a data-parallel
 * group) is filled from the same seed on each of them, with the same values; the first rank to ask
 * computes it and the others take the same tensor while the first still holds it (a weak reference:
 * once every rank has moved on, its storage goes; a later rank fills its own, with the same
 * values). Tensors are immutable and a variable given one copies it before its first update ({@code
 * Variable.set}), so sharing changes no result. The key names the fill completely (initializer,
 * seed, shape, block, parameters, dtype); a fill without a fixed seed is never shared.
 *
 * <p>Example: eight data-parallel ranks compiling a 784x512 Normal weight draw it once.
 */
public final class SharedFills {
  private final int ranks;
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();

  /** A fill in progress or made, behind its own lock so that other keys do not wait on it. */
  private static final class Slot {
    private WeakReference<Tensor> made;
  }

  /** Fills shared by {@code ranks} local ranks (one: nothing to share, nothing kept). */
  public SharedFills(int ranks) {
    this.ranks = ranks;
  }

  /**
   * The tensor {@code make} gives for {@code key}: made here if no other rank holds it, else the
   * one it made (waiting while another rank makes it).
   */
  public Tensor fill(String key, Supplier<Tensor> make) {
    if (ranks <= 1) {
      return make.get();
    }
    Slot slot = slots.computeIfAbsent(key, k -> new Slot());
    synchronized (slot) {
      Tensor t = slot.made == null ? null : slot.made.get();
      if (t == null) {
        t = make.get();
        slot.made = new WeakReference<>(t);
      }
      return t;
    }
  }
}
