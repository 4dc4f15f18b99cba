package dev.msjvm.engine.exec;

import java.util.IdentityHashMap;

/**
 * Counts the bytes one step holds, storage by storage. A storage is held while a variable owns it
 * or a value still to be read refers to it: an input (an argument or a constant, held for the whole
 * step) or an intermediate (from the node computing it to its last reader; a result to the end).
 * Each storage counts once however many values share it (a Load and its variable, a Reshape and its
 * input), in the first of three parts that holds it: variables, inputs, intermediates.
 *
 * <p>A replay names each value's storage by the storage the kernel really gave it ({@link
 * dev.msjvm.engine.tensor.Tensor#storageKey}); a dry run by the storage the operator's declared
 * aliases say it would have ({@link dev.msjvm.engine.ops.OpDef#aliasOf}). The two counts differ
 * only where a replay did something its declarations do not say (an optimizer that copies a
 * variable before writing because a value of the step still reads it).
 */
final class StorageMeter {
  /** The parts, in the order a storage is counted under. */
  static final int VARIABLE = 0;

  static final int INPUT = 1;
  static final int VALUE = 2;

  /** Per storage: references from each part, then its bytes. */
  private final IdentityHashMap<Object, long[]> storages = new IdentityHashMap<>();

  private final long[] bytes = new long[3];
  private final long[] atPeak = new long[3];
  private long peak = -1;
  private long valuePeak;

  /** {@code key}'s storage of {@code size} bytes gains a reference from {@code part}. */
  void hold(int part, Object key, long size) {
    if (key == null) {
      return;
    }
    long[] s = storages.computeIfAbsent(key, k -> new long[] {0, 0, 0, size});
    int before = partOf(s);
    s[part]++;
    move(s, before);
  }

  /** {@code key}'s storage loses a reference from {@code part}; unreferenced, it is freed. */
  void drop(int part, Object key) {
    long[] s = key == null ? null : storages.get(key);
    if (s == null) {
      return;
    }
    int before = partOf(s);
    s[part]--;
    move(s, before);
    if (partOf(s) < 0) {
      storages.remove(key);
    }
  }

  /** Notes the bytes held now (after a node's outputs exist, before any is freed). */
  void mark() {
    long total = bytes[VARIABLE] + bytes[INPUT] + bytes[VALUE];
    if (total > peak) {
      peak = total;
      System.arraycopy(bytes, 0, atPeak, 0, 3);
    }
    valuePeak = Math.max(valuePeak, bytes[VALUE]);
  }

  /** What was counted, with the bytes held now as the step's end. */
  Graph.Memory memory() {
    return new Graph.Memory(
        Math.max(peak, 0),
        atPeak[VARIABLE],
        atPeak[INPUT],
        atPeak[VALUE],
        valuePeak,
        bytes[VARIABLE] + bytes[INPUT] + bytes[VALUE]);
  }

  private void move(long[] s, int before) {
    int after = partOf(s);
    if (after == before) {
      return;
    }
    if (before >= 0) {
      bytes[before] -= s[3];
    }
    if (after >= 0) {
      bytes[after] += s[3];
    }
  }

  private static int partOf(long[] s) {
    for (int p = 0; p < 3; p++) {
      if (s[p] > 0) {
        return p;
      }
    }
    return -1;
  }
}
