package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/** Small helpers the rule families use to write letters for shapes. */
final class Letters {
  private Letters() {}

  /** {@code n} consecutive letters starting at {@code first}: {@code run('a', 3)} is "abc". */
  static String run(char first, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append((char) (first + i));
    }
    return sb.toString();
  }

  /** {@code letters} with the character at {@code index} replaced. */
  static String with(String letters, int index, char c) {
    StringBuilder sb = new StringBuilder(letters);
    sb.setCharAt(index, c);
    return sb.toString();
  }

  /** An axis attribute in {@code [-rank, rank)} made non-negative, or a ValueError. */
  static int axis(String op, int axis, int rank) {
    if (axis < -rank || axis >= Math.max(rank, 1)) {
      throw MsException.valueError(
          "For '" + op + "', the axis must be in [" + -rank + ", " + rank + "), but got " + axis);
    }
    return axis < 0 ? axis + rank : axis;
  }

  /**
   * Right-aligned broadcasting of {@code shapes} (elementwise ops): output dim p gets letter p; an
   * input dim of size 1 facing a larger output dim gets {@code _} (it never splits).
   */
  static EinsumSpec broadcast(List<Shape> shapes) {
    int rank = shapes.stream().mapToInt(Shape::rank).max().orElse(0);
    int[] out = new int[rank];
    java.util.Arrays.fill(out, 1);
    for (Shape s : shapes) {
      for (int d = 0; d < s.rank(); d++) {
        int p = d + rank - s.rank();
        out[p] = Math.max(out[p], s.dim(d));
      }
    }
    String outLetters = run('a', rank);
    List<String> in = new ArrayList<>();
    for (Shape s : shapes) {
      StringBuilder sb = new StringBuilder();
      for (int d = 0; d < s.rank(); d++) {
        int p = d + rank - s.rank();
        sb.append(s.dim(d) == 1 && out[p] != 1 ? EinsumSpec.FRESH : outLetters.charAt(p));
      }
      in.add(sb.toString());
    }
    return new EinsumSpec(
            in, in, List.of(outLetters), outLetters, "", java.util.Map.of(), (char) 0, null, false)
        .outputShapes(List.of(Shape.of(out)));
  }
}
