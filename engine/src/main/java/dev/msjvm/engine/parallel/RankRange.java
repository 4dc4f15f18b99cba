package dev.msjvm.engine.parallel;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The ranks {@code 0..n-1} as an immutable list that compares and hashes in constant time (its
 * hash, the one {@link java.util.List#hashCode} defines, is computed once). Device matrices over a
 * whole stage use it, so layouts on 1,024 devices can key the search's caches without walking their
 * rank lists. Example: {@code RankRange.of(4)} equals {@code List.of(0, 1, 2, 3)}.
 */
public final class RankRange extends AbstractList<Integer> implements RandomAccess {
  private final int size;
  private final int hash;

  private RankRange(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("size " + size);
    }
    this.size = size;
    int h = 1;
    for (int i = 0; i < size; i++) {
      h = 31 * h + Integer.hashCode(i);
    }
    this.hash = h;
  }

  public static RankRange of(int size) {
    return new RankRange(size);
  }

  @Override
  public Integer get(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("index " + index + " of " + size);
    }
    return index;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public int indexOf(Object o) {
    return o instanceof Integer i && i >= 0 && i < size ? i : -1;
  }

  @Override
  public boolean contains(Object o) {
    return indexOf(o) >= 0;
  }

  @Override
  public boolean equals(Object o) {
    if (o instanceof RankRange r) {
      return r.size == size;
    }
    return super.equals(o);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
