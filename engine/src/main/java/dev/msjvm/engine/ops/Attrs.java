package dev.msjvm.engine.ops;

import dev.msjvm.engine.MsException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The attributes of one operator call ({@code transpose_a}, {@code axis}, {@code keep_dims}...),
 * immutable and normalized: integers are {@link Long}, floats {@link Double}, sequences
 * unmodifiable lists. Other objects (a random stream, a captured tensor) are kept as they are.
 *
 * <p>Example: {@code Attrs.of("keep_dims", true).bool("keep_dims")} is {@code true}.
 */
public final class Attrs {
  public static final Attrs EMPTY = new Attrs(Map.of());

  private final Map<String, Object> values;

  private Attrs(Map<String, Object> values) {
    this.values = values;
  }

  /** Attributes from alternating names and values. */
  public static Attrs of(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("names and values must alternate");
    }
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      m.put((String) namesAndValues[i], normalize(namesAndValues[i + 1]));
    }
    return new Attrs(Collections.unmodifiableMap(m));
  }

  /** Attributes from a flat list of alternating names and values (as Python passes them). */
  public static Attrs ofList(List<?> namesAndValues) {
    return of(namesAndValues.toArray());
  }

  /** These attributes with {@code name} set to {@code value}. */
  public Attrs with(String name, Object value) {
    Map<String, Object> m = new LinkedHashMap<>(values);
    m.put(name, normalize(value));
    return new Attrs(Collections.unmodifiableMap(m));
  }

  /** These attributes without {@code names} (the same object when it has none of them). */
  public Attrs without(java.util.Collection<String> names) {
    if (names.stream().noneMatch(values::containsKey)) {
      return this;
    }
    Map<String, Object> m = new LinkedHashMap<>(values);
    m.keySet().removeAll(names);
    return new Attrs(Collections.unmodifiableMap(m));
  }

  /** These attributes with every attribute of {@code extra} set (extra's values win). */
  public Attrs withAll(Attrs extra) {
    if (extra.values.isEmpty()) {
      return this;
    }
    Map<String, Object> m = new LinkedHashMap<>(values);
    m.putAll(extra.values);
    return new Attrs(Collections.unmodifiableMap(m));
  }

  private static Object normalize(Object v) {
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float f) {
      return f.doubleValue();
    }
    if (v instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object o : list) {
        out.add(normalize(o));
      }
      return Collections.unmodifiableList(out);
    }
    return v;
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  public Object get(String name) {
    if (!values.containsKey(name)) {
      throw MsException.valueError("The operator attribute '" + name + "' is missing.");
    }
    return values.get(name);
  }

  public boolean bool(String name) {
    return (Boolean) get(name);
  }

  public boolean bool(String name, boolean otherwise) {
    return has(name) ? bool(name) : otherwise;
  }

  public int integer(String name) {
    return Math.toIntExact((Long) get(name));
  }

  public int integer(String name, int otherwise) {
    return has(name) ? integer(name) : otherwise;
  }

  public double real(String name) {
    return ((Number) get(name)).doubleValue();
  }

  public String string(String name) {
    return (String) get(name);
  }

  /** A sequence attribute of integers (an int is a one-element list). */
  public List<Integer> ints(String name) {
    Object v = get(name);
    if (v instanceof Long l) {
      return List.of(Math.toIntExact(l));
    }
    List<Integer> out = new ArrayList<>();
    for (Object o : (List<?>) v) {
      out.add(Math.toIntExact((Long) o));
    }
    return out;
  }

  /** {@link #ints} as an array, for kernels that take {@code int[]}. */
  public int[] intArray(String name) {
    return ints(name).stream().mapToInt(Integer::intValue).toArray();
  }

  public Map<String, Object> asMap() {
    return values;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Attrs a && a.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  /**
   * Whether every value is plain data (null, numbers, booleans, strings, enums, lists of those):
   * the same attributes mean the same call in any rank or process. False when one is an object with
   * state of its own (a random stream).
   */
  public boolean plain() {
    for (Object v : values.values()) {
      if (!plain(v)) {
        return false;
      }
    }
    return true;
  }

  private static boolean plain(Object v) {
    if (v instanceof List<?> list) {
      for (Object o : list) {
        if (!plain(o)) {
          return false;
        }
      }
      return true;
    }
    return v == null
        || v instanceof Number
        || v instanceof Boolean
        || v instanceof String
        || v instanceof Enum<?>;
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
