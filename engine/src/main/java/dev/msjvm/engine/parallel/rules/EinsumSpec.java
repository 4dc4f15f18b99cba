package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One operator call's sharding rule as data: a dimension-letter form in the manner of einsum, e.g.
 * MatMul {@code ik,kj->ij matrix=ikj reduce={k:SUM}}.
 *
 * <p>Each dimension of each tensor carries a letter (a factor). Dimensions with the same letter are
 * split the same number of times along the same device axis. {@code _} is a dimension that is never
 * split and shares nothing (a broadcast size-1 dim, a new axis, a dim whose size changes). The
 * parts:
 *
 * <ul>
 *   <li>{@code inputs}: letters of each strategy tensor, in the order of the op's in_strategy;
 *       {@code layouts}: letters of each real input (differs only for ops whose strategy describes
 *       another shape, e.g. OneHot's strategy is over its output).
 *   <li>{@code outputs}: letters of each output; a letter of the inputs that an output lacks is
 *       contracted there: it must be in {@code unsplit} or carry a {@code reduce} op (the output is
 *       then PARTIAL over that letter's device axis: AllReduce with the op).
 *   <li>{@code matrix}: the letters forming the device matrix, in MindSpore's order ({@code
 *       InferDevMatrixShape}); letters not in it are unsplit.
 *   <li>{@code batch}: the letter the default batch-parallel strategy splits, or {@code 0}.
 *   <li>{@code outputShapes}: explicit output shapes, or null to take them from the letters ({@code
 *       _} = 1).
 *   <li>{@code reduceScatter}: whether an out_strategy may ask for a ReduceScatter on output dim 0
 *       (MindSpore allows it for MatMul only).
 * </ul>
 *
 * <p>{@link #toString} prints the rule on one line; tests compare that text.
 */
public record EinsumSpec(
    List<String> inputs,
    List<String> layouts,
    List<String> outputs,
    String matrix,
    String unsplit,
    Map<Character, PartialOp> reduce,
    char batch,
    List<Shape> outputShapes,
    boolean reduceScatter) {

  /** The letter of a dimension that is never split and shares nothing. */
  public static final char FRESH = '_';

  public EinsumSpec {
    inputs = List.copyOf(inputs);
    layouts = List.copyOf(layouts);
    outputs = List.copyOf(outputs);
    reduce = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(reduce));
    outputShapes = outputShapes == null ? null : List.copyOf(outputShapes);
    Set<Character> letters = letters(inputs);
    for (String s : concat(inputs, layouts, outputs, List.of(matrix, unsplit))) {
      for (char c : s.toCharArray()) {
        if (c != FRESH && (c < 'a' || c > 'z')) {
          throw new IllegalArgumentException("bad letter '" + c + "' in " + s);
        }
      }
    }
    for (char c : matrix.toCharArray()) {
      if (!letters.contains(c) || matrix.indexOf(c) != matrix.lastIndexOf(c)) {
        throw new IllegalArgumentException("matrix letter '" + c + "' unknown or repeated");
      }
    }
    for (char c : letters(concat(layouts, outputs, List.of())).toArray(new Character[0])) {
      if (!letters.contains(c)) {
        throw new IllegalArgumentException("letter '" + c + "' does not occur in the inputs");
      }
    }
    if (outputShapes != null && outputShapes.size() != outputs.size()) {
      throw new IllegalArgumentException("one output shape per output");
    }
  }

  /**
   * Parses {@code "ik,kj->ij"}: inputs and outputs separated by commas; the device matrix is the
   * letters in order of first appearance in the inputs; nothing unsplit, nothing reduced.
   */
  public static EinsumSpec parse(String form) {
    String[] sides = form.split("->", -1);
    if (sides.length != 2) {
      throw new IllegalArgumentException("expected 'inputs->outputs', got " + form);
    }
    List<String> in = Arrays.asList(sides[0].split(",", -1));
    List<String> out = Arrays.asList(sides[1].split(",", -1));
    String matrix =
        letters(in).stream().filter(c -> c != FRESH).map(String::valueOf).collect(joining());
    return new EinsumSpec(in, in, out, matrix, "", Map.of(), (char) 0, null, false);
  }

  private static java.util.stream.Collector<CharSequence, ?, String> joining() {
    return Collectors.joining();
  }

  public EinsumSpec matrix(String letters) {
    return new EinsumSpec(
        inputs, layouts, outputs, letters, unsplit, reduce, batch, outputShapes, reduceScatter);
  }

  /** These letters must have split 1 (they stay in the device matrix as size-1 axes). */
  public EinsumSpec unsplit(String letters) {
    String all = unsplit + letters;
    return new EinsumSpec(
        inputs, layouts, outputs, matrix, all, reduce, batch, outputShapes, reduceScatter);
  }

  /** Contracted {@code letters} make outputs partial, combined with {@code op}. */
  public EinsumSpec reduce(String letters, PartialOp op) {
    Map<Character, PartialOp> m = new LinkedHashMap<>(reduce);
    for (char c : letters.toCharArray()) {
      m.put(c, op);
    }
    return new EinsumSpec(
        inputs, layouts, outputs, matrix, unsplit, m, batch, outputShapes, reduceScatter);
  }

  public EinsumSpec batch(char letter) {
    return new EinsumSpec(
        inputs, layouts, outputs, matrix, unsplit, reduce, letter, outputShapes, reduceScatter);
  }

  public EinsumSpec layouts(List<String> letters) {
    return new EinsumSpec(
        inputs, letters, outputs, matrix, unsplit, reduce, batch, outputShapes, reduceScatter);
  }

  public EinsumSpec outputShapes(List<Shape> shapes) {
    return new EinsumSpec(
        inputs, layouts, outputs, matrix, unsplit, reduce, batch, shapes, reduceScatter);
  }

  public EinsumSpec withReduceScatter() {
    return new EinsumSpec(
        inputs, layouts, outputs, matrix, unsplit, reduce, batch, outputShapes, true);
  }

  /**
   * Checks that every letter an output lacks is unsplit or reduced (a rule that forgets a reduce op
   * would silently drop partial sums); called once the spec is complete.
   */
  public EinsumSpec checked() {
    for (int o = 0; o < outputs.size(); o++) {
      for (char c : contracted(o).toCharArray()) {
        if (!reduce.containsKey(c)) {
          throw new IllegalStateException(
              "rule "
                  + this
                  + ": letter '"
                  + c
                  + "' is contracted in output "
                  + o
                  + " but neither unsplit nor reduced");
        }
      }
    }
    return this;
  }

  /** Whether {@code letter} may be split: in the device matrix and not declared unsplit. */
  public boolean splittable(char letter) {
    return letter != FRESH && matrix.indexOf(letter) >= 0 && unsplit.indexOf(letter) < 0;
  }

  /** The letters of the inputs absent from output {@code o} that may be split. */
  public String contracted(int o) {
    StringBuilder sb = new StringBuilder();
    for (char c : matrix.toCharArray()) {
      if (outputs.get(o).indexOf(c) < 0 && splittable(c)) {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** The letter the default strategy splits: {@link #batch}, else dim 0 of the longest input. */
  public char batchLetter() {
    if (batch != 0) {
      return batch;
    }
    String longest = "";
    for (String s : inputs) {
      if (s.length() > longest.length()) {
        longest = s;
      }
    }
    return longest.isEmpty() ? 0 : longest.charAt(0);
  }

  private static Set<Character> letters(List<String> tensors) {
    Set<Character> out = new LinkedHashSet<>();
    for (String s : tensors) {
      for (char c : s.toCharArray()) {
        if (c != FRESH) {
          out.add(c);
        }
      }
    }
    return out;
  }

  @SafeVarargs
  private static List<String> concat(List<String>... parts) {
    List<String> out = new ArrayList<>();
    for (List<String> p : parts) {
      out.addAll(p);
    }
    return out;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.join(",", inputs)).append("->").append(String.join(",", outputs));
    if (!layouts.equals(inputs)) {
      sb.append(" layouts=").append(String.join(",", layouts));
    }
    sb.append(" matrix=").append(matrix);
    if (!reduce.isEmpty()) {
      sb.append(" reduce={")
          .append(
              reduce.entrySet().stream()
                  .map(e -> e.getKey() + ":" + e.getValue())
                  .collect(Collectors.joining(",")))
          .append('}');
    }
    if (!unsplit.isEmpty()) {
      sb.append(" unsplit=").append(unsplit);
    }
    if (batch != 0) {
      sb.append(" batch=").append(batch);
    }
    if (reduceScatter) {
      sb.append(" reduce_scatter");
    }
    return sb.toString();
  }
}
