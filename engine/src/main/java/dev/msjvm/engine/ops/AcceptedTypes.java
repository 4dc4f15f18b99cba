package dev.msjvm.engine.ops;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.tensor.Elementwise;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The input types an operator's CPU kernel takes (MindSpore 2.10, measured) and how it refuses the
 * others: with its type check's text when {@code list} (MindSpore's printed list of allowed types,
 * the input named {@code arg}) lacks the type, else with the kernel selector's TypeError (types its
 * check allows but no CPU kernel takes). Example: {@code new AcceptedTypes(FLOATS, "x", FLOAT3)
 * .check("Rint", INT32)} throws "For primitive[Rint], the input argument[x] must be a type of
 * {Tensor[Float16], Tensor[Float32], Tensor[Float64]}, but got Tensor[Int32]."
 */
record AcceptedTypes(Set<DType> cpu, String arg, String list, String refusal) {
  static final Set<DType> FLOATS = EnumSet.of(DType.FLOAT16, DType.FLOAT32, DType.FLOAT64);

  static final Set<DType> INTS =
      EnumSet.of(DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.UINT8);

  static final String FLOAT3 = "Tensor[Float16], Tensor[Float32], Tensor[Float64]";

  AcceptedTypes {
    cpu = Set.copyOf(cpu);
  }

  AcceptedTypes(Set<DType> cpu, String arg, String list) {
    this(cpu, arg, list, null);
  }

  /** Types refused with {@code refusal} followed by the type's name (an operator's own text). */
  static AcceptedTypes refusing(Set<DType> cpu, String refusal) {
    return new AcceptedTypes(cpu, null, null, refusal);
  }

  /** Types whose refusal is always the kernel selector's. */
  static AcceptedTypes kernel(Set<DType> cpu) {
    return new AcceptedTypes(cpu, null, null);
  }

  static Set<DType> union(Set<DType> a, DType... more) {
    Set<DType> s = EnumSet.copyOf(a);
    s.addAll(List.of(more));
    return s;
  }

  /** {@code op}'s check of input {@code arg} against float16/32/64, MindSpore's text. */
  static void check3(String op, String arg, DType got) {
    new AcceptedTypes(FLOATS, arg, FLOAT3).check(op, got);
  }

  void check(String op, DType got) {
    if (cpu.contains(got)) {
      return;
    }
    if (refusal != null) {
      throw MsException.typeError(refusal + got.mindsporeName());
    }
    boolean tensors = list != null && list.startsWith("Tensor[");
    String shown = tensors ? "Tensor[" + got.mindsporeName() + "]" : got.mindsporeName();
    if (list != null && !List.of(list.split(", ")).contains(shown)) {
      throw MsException.typeError(
          "For primitive["
              + op
              + "], the input argument["
              + arg
              + "] must be a type of {"
              + list
              + "}, but got "
              + shown
              + ".");
    }
    throw Elementwise.unsupported(op, got, !cpu.contains(DType.INT32));
  }
}
