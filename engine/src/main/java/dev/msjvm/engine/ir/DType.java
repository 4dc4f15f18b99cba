package dev.msjvm.engine.ir;

/**
 * MindSpore's tensor element types, with their printed names and promotion rules.
 *
 * <p>{@link #promote} is MindSpore 2.10's implicit type conversion for two tensors (recorded from
 * {@code (Tensor([1], a) + Tensor([1], b)).dtype} for every pair): within one kind the wider type
 * wins, mixed signed and unsigned 8-bit integers give int16, any float beats any integer or bool,
 * and float16 with bfloat16 gives float32; complex beats every real type (complex64 with float64
 * gives complex128). Example: {@code promote(INT32, FLOAT16) == FLOAT16}.
 */
public enum DType {
  BOOL("Bool", 1, Kind.BOOL, 0),
  UINT8("UInt8", 1, Kind.UNSIGNED, 1),
  INT8("Int8", 1, Kind.SIGNED, 1),
  INT16("Int16", 2, Kind.SIGNED, 2),
  INT32("Int32", 4, Kind.SIGNED, 3),
  INT64("Int64", 8, Kind.SIGNED, 4),
  FLOAT16("Float16", 2, Kind.FLOAT, 5),
  BFLOAT16("BFloat16", 2, Kind.FLOAT, 5),
  FLOAT32("Float32", 4, Kind.FLOAT, 6),
  FLOAT64("Float64", 8, Kind.FLOAT, 7),
  COMPLEX64("Complex64", 8, Kind.COMPLEX, 8),
  COMPLEX128("Complex128", 16, Kind.COMPLEX, 9);

  /** The family of a type, which decides promotion before width does. */
  public enum Kind {
    BOOL,
    UNSIGNED,
    SIGNED,
    FLOAT,
    /** Complex numbers: stored, converted and printed; most operators refuse them. */
    COMPLEX
  }

  private final String mindsporeName;
  private final int itemSize;
  private final Kind kind;
  private final int rank;

  DType(String mindsporeName, int itemSize, Kind kind, int rank) {
    this.mindsporeName = mindsporeName;
    this.itemSize = itemSize;
    this.kind = kind;
    this.rank = rank;
  }

  /** The name MindSpore prints, e.g. {@code "Float32"}. */
  public String mindsporeName() {
    return mindsporeName;
  }

  /** Bytes per element. */
  public int itemSize() {
    return itemSize;
  }

  public Kind kind() {
    return kind;
  }

  public boolean isFloat() {
    return kind == Kind.FLOAT;
  }

  /** Complex64 or Complex128. */
  public boolean isComplex() {
    return kind == Kind.COMPLEX;
  }

  /** Integer types, not bool. */
  public boolean isInteger() {
    return kind == Kind.SIGNED || kind == Kind.UNSIGNED;
  }

  /** The type of {@code a op b} for two tensors. */
  public static DType promote(DType a, DType b) {
    if (a == b) {
      return a;
    }
    if ((a == COMPLEX64 && b == FLOAT64) || (a == FLOAT64 && b == COMPLEX64)) {
      return COMPLEX128; // measured: complex64 + float64 is Complex128
    }
    if (a.rank == b.rank) {
      // Same width, different types: int8/uint8 meet in int16, float16/bfloat16 in float32.
      return a.isFloat() ? FLOAT32 : INT16;
    }
    return a.rank > b.rank ? a : b;
  }

  /** The type MindSpore gives a tensor built from a Python scalar or list of this kind. */
  public static DType fromPython(boolean isBool, boolean isInt) {
    return isBool ? BOOL : isInt ? INT64 : FLOAT32;
  }

  /**
   * The type of {@code tensor op scalar}: an int or bool scalar keeps the tensor's type (a bool
   * tensor with an int scalar becomes int64); a float scalar keeps a float tensor's type and turns
   * an integer or bool tensor into float32.
   */
  public static DType promoteWithScalar(DType tensor, boolean scalarIsBool, boolean scalarIsInt) {
    if (scalarIsBool) {
      return tensor;
    }
    if (scalarIsInt) {
      return tensor == BOOL ? INT64 : tensor;
    }
    return tensor.isFloat() ? tensor : FLOAT32;
  }

  @Override
  public String toString() {
    return mindsporeName;
  }
}
