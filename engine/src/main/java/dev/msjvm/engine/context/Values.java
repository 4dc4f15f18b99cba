package dev.msjvm.engine.context;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns values that arrive from a script into immutable plain Java data.
 *
 * <p>Integral numbers become {@code Long}, other numbers {@code Double}, lists become unmodifiable
 * copies and maps unmodifiable insertion-ordered copies (values from a guest language are live
 * views and must not be kept). Example: {@code normalize(List.of(1, 8))} is {@code [1L, 8L]}.
 */
public final class Values {
  private Values() {}

  public static Object normalize(Object v) {
    if (v == null || v instanceof Boolean || v instanceof String || v instanceof Long) {
      return v;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float || v instanceof Double) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object e : list) {
        out.add(normalize(e));
      }
      return Collections.unmodifiableList(out);
    }
    if (v instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      map.forEach((k, e) -> out.put(normalize(k), normalize(e)));
      return Collections.unmodifiableMap(out);
    }
    return v;
  }

  /**
   * {@code value} converted the way the C++ setter's parameter type converts it: a bool stored into
   * an integer setting reads back as 0/1, an int stored into a float setting as a float. Example:
   * {@code like(1L, true)} is {@code 1L}; {@code like(0.1, 2L)} is {@code 2.0}.
   */
  public static Object like(Object defaultValue, Object value) {
    Object v = normalize(value);
    if (defaultValue instanceof Long && v instanceof Boolean b) {
      return b ? 1L : 0L;
    }
    if (defaultValue instanceof Double && v instanceof Long l) {
      return l.doubleValue();
    }
    return v;
  }

  /** A list of integers as {@code List<Long>}; throws if an element is not integral. */
  public static List<Long> longList(List<?> list) {
    List<Long> out = new ArrayList<>(list.size());
    for (Object e : list) {
      if (!(e instanceof Number n) || e instanceof Double || e instanceof Float) {
        throw new IllegalArgumentException("expected an integer, got " + e);
      }
      out.add(n.longValue());
    }
    return List.copyOf(out);
  }
}
