package dev.msjvm.engine.parallel;

/**
 * The order in which MindSpore's redistribution planner visits tensor dimensions.
 *
 * <p>{@code RedistributionOperatorInfer} keeps "tensor dim -> device axis" in a {@code
 * mindspore::HashMap}, which release builds compile as {@code robin_hood::unordered_map} 3.11.5
 * ({@code ENABLE_FAST_HASH_TABLE}, {@code cmake/options.cmake}). The map is filled with keys {@code
 * 0..n-1} in that order and then only read, updated in place or erased while iterating; robin-hood
 * erasure shifts later slots back, so the visiting order stays the slot order after the inserts.
 * That order decides which collective comes first and which dimension a forced concat picks, so the
 * planner replays the hash table's inserts here: murmur3 finaliser ({@code hash_int}), the extra
 * multiply-shift of {@code keyToIdx}, robin-hood displacement by the info byte, 80% load factor,
 * doubling, and info-bit stealing ({@code try_increase_info}). Example: {@code of(5)} is {@code [0,
 * 1, 4, 3, 2]}, as real MindSpore emits five AllConcats for dims 0, 1, 4, 3, 2.
 */
final class RobinHoodOrder {

  private static final int INITIAL_INFO_NUM_BITS = 5;
  private static final int INITIAL_INFO_INC = 1 << INITIAL_INFO_NUM_BITS;
  private static final long INFO_MASK = INITIAL_INFO_INC - 1;
  private static final int INITIAL_NUM_ELEMENTS = 8;
  private static final int MAX_LOAD_FACTOR_100 = 80;

  private long hashMultiplier = 0xc4ceb9fe1a85ec53L;
  private int mask;
  private int numElements;
  private int maxNumElementsAllowed;
  private int infoInc = INITIAL_INFO_INC;
  private int infoHashShift;
  private int[] info = new int[1];
  private int[] keys = new int[1];

  private RobinHoodOrder() {}

  /** The keys {@code 0..n-1} in iteration order after inserting them in ascending order. */
  static int[] of(int n) {
    RobinHoodOrder table = new RobinHoodOrder();
    for (int k = 0; k < n; k++) {
      table.insert(k);
    }
    int[] order = new int[n];
    int j = 0;
    for (int slot = 0; slot < table.keys.length - 1; slot++) { // the last is the sentinel
      if (table.info[slot] != 0) {
        order[j++] = table.keys[slot];
      }
    }
    return order;
  }

  private static long hashInt(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    return x;
  }

  /** Returns {idx, info}. */
  private int[] keyToIdx(int key) {
    long h = hashInt(key) * hashMultiplier;
    h ^= h >>> 33;
    int inf = infoInc + (int) ((h & INFO_MASK) >>> infoHashShift);
    int idx = (int) ((h >>> INITIAL_INFO_NUM_BITS) & mask);
    return new int[] {idx, inf};
  }

  private static int maxAllowed(int slots) {
    return slots * MAX_LOAD_FACTOR_100 / 100;
  }

  private static int withBuffer(int slots) {
    return slots + Math.min(maxAllowed(slots), 0xFF);
  }

  private void initData(int slots) {
    numElements = 0;
    mask = slots - 1;
    maxNumElementsAllowed = maxAllowed(slots);
    int n = withBuffer(slots);
    info = new int[n + 1];
    keys = new int[n + 1];
    info[n] = 1; // sentinel
    infoInc = INITIAL_INFO_INC;
    infoHashShift = 0;
  }

  private void insert(int key) {
    for (int attempt = 0; attempt < 256; attempt++) {
      int[] ii = keyToIdx(key);
      int idx = ii[0];
      int inf = ii[1];
      while (inf < info[idx]) {
        idx++;
        inf += infoInc;
      }
      while (inf == info[idx]) {
        if (keys[idx] == key) {
          return;
        }
        idx++;
        inf += infoInc;
      }
      if (numElements >= maxNumElementsAllowed) {
        increaseSize();
        continue;
      }
      place(key, idx, inf);
      return;
    }
    throw new IllegalStateException("robin-hood table overflow");
  }

  /** Puts {@code key} at {@code insertionIdx}, shifting the run that starts there up by one. */
  private void place(int key, int insertionIdx, int insertionInfo) {
    if (insertionInfo + infoInc > 0xFF) {
      maxNumElementsAllowed = 0;
    }
    int idx = insertionIdx;
    while (info[idx] != 0) {
      idx++;
    }
    for (int i = idx; i != insertionIdx; i--) {
      keys[i] = keys[i - 1];
      info[i] = (info[i - 1] + infoInc) & 0xFF;
      if (info[i] + infoInc > 0xFF) {
        maxNumElementsAllowed = 0;
      }
    }
    keys[insertionIdx] = key;
    info[insertionIdx] = insertionInfo & 0xFF;
    numElements++;
  }

  private void increaseSize() {
    if (mask == 0) {
      initData(INITIAL_NUM_ELEMENTS);
      return;
    }
    if (numElements < maxAllowed(mask + 1) && tryIncreaseInfo()) {
      return;
    }
    if (numElements * 2 < maxAllowed(mask + 1)) {
      hashMultiplier += 0xc4ceb9fe1a85ec54L;
      rehash(mask + 1);
    } else {
      rehash((mask + 1) * 2);
    }
  }

  private boolean tryIncreaseInfo() {
    if (infoInc <= 2) {
      return false;
    }
    infoInc >>= 1;
    infoHashShift++;
    int n = withBuffer(mask + 1);
    for (int i = 0; i < n; i++) {
      info[i] = (info[i] >> 1) & 0x7F;
    }
    info[n] = 1;
    maxNumElementsAllowed = maxAllowed(mask + 1);
    return true;
  }

  private void rehash(int slots) {
    int[] oldInfo = info;
    int[] oldKeys = keys;
    int oldN = withBuffer(mask + 1);
    initData(slots);
    for (int i = 0; i < oldN; i++) {
      if (oldInfo[i] != 0) {
        insertMove(oldKeys[i]);
      }
    }
  }

  /** {@code insert_move}: the key is known to be absent; equal infos are skipped too. */
  private void insertMove(int key) {
    if (maxNumElementsAllowed == 0 && !tryIncreaseInfo()) {
      throw new IllegalStateException("robin-hood table overflow");
    }
    int[] ii = keyToIdx(key);
    int idx = ii[0];
    int inf = ii[1];
    while (inf <= info[idx]) {
      idx++;
      inf += infoInc;
    }
    place(key, idx, inf);
  }
}
