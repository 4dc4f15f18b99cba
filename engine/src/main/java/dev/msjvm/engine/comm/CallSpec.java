package dev.msjvm.engine.comm;

import dev.msjvm.engine.MsException;

/**
 * What one rank asked for in one collective call; all members of a group must ask for the same.
 *
 * <p>{@code count} is the per-rank element count the collective is defined by (AllReduce and
 * Broadcast: the buffer, AllGather: the send, ReduceScatter: the received chunk, AllToAll: one
 * chunk); {@code op} is null and {@code root} is -1 where they do not apply. Example: {@code new
 * CallSpec("AllReduce", ReduceOp.SUM, 4, -1)} prints as {@code AllReduce(op=SUM, count=4)}.
 */
record CallSpec(String collective, ReduceOp op, int count, int root) {

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(collective).append('(');
    if (op != null) {
      sb.append("op=").append(op).append(", ");
    }
    if (root >= 0) {
      sb.append("root=").append(root).append(", ");
    }
    return sb.append("count=").append(count).append(')').toString();
  }

  /** VALUE_ERROR unless {@code buf[offset, offset + count)} lies inside {@code buf}. */
  void checkRange(String group, String what, float[] buf, int offset, long count) {
    if (buf == null) {
      throw MsException.valueError(this + " on group '" + group + "': " + what + " is null");
    }
    if (offset < 0 || count < 0 || offset + count > buf.length) {
      throw MsException.valueError(
          String.format(
              "%s on group '%s': %s range [%d, %d) does not fit its %d elements",
              this, group, what, offset, offset + count, buf.length));
    }
  }

  /** VALUE_ERROR unless a whole-array call's buffer has exactly the length the others imply. */
  static void wholeArrays(String collective, long actual, long expected, String group) {
    if (actual != expected) {
      throw MsException.valueError(
          String.format(
              "%s on group '%s': buffer has %d elements, expected %d (whole-array form: sizes"
                  + " must match the group size exactly)",
              collective, group, actual, expected));
    }
  }

  /**
   * True when {@code [aOff, aOff+aLen)} of {@code a} and {@code [bOff, bOff+bLen)} of b overlap.
   */
  static boolean overlaps(float[] a, int aOff, long aLen, float[] b, int bOff, long bLen) {
    return a == b && aLen > 0 && bLen > 0 && aOff < bOff + bLen && bOff < aOff + aLen;
  }
}
