#!/usr/bin/env python3
"""Write the golden file for TensorFormatTest from real numpy and real MindSpore.

Usage (a CPython venv outside the repository with `pip install mindspore`, which brings numpy 2.x):
    ~/.cache/msjvm-goldens/venv/bin/python engine/src/test/tools/gen_tensor_format_goldens.py \
        > engine/src/test/resources/tensor-format/goldens.txt 2>/dev/null
    ~/.cache/msjvm-goldens/venv/bin/python engine/src/test/tools/gen_tensor_format_goldens.py --complex \
        > engine/src/test/resources/tensor-format/complex-goldens.txt 2>/dev/null
The complex cases are a file of their own, recorded later (with numpy 1.26.4): the test reads only
their repr (msjvm's shim prints a complex tensor's str through numpy itself).

Recorded with numpy 2.4.6 and MindSpore 2.10.0 (CPU wheel, CPython 3.11). Each case is five lines:
    case <name>
    dtype <MindSpore dtype name>
    shape <dims separated by spaces; empty for a scalar>
    bytes <the row-major little-endian element bytes in hex, i.e. numpy's tobytes().hex()>
    str <str(tensor), escaped: backslash as \\, newline as \n>
    repr <repr(tensor), escaped the same way>
followed by one empty line. Lines starting with '#' are comments.

str(tensor) is MindSpore's own `str(t.asnumpy())`. For BFloat16 that call fails on numpy 2.x
(MindSpore's bfloat16 numpy type needs the numpy it was built with), so the golden is numpy's str
of the float32 array of the same values, which is what asnumpy gives with a matching numpy.
Seeds are fixed: the same venv writes a byte-identical file. `--stress N` writes N other random
cases instead (random bit patterns, values near the notation thresholds) for ad-hoc runs: put the
output in place of goldens.txt, run TensorFormatTest, restore the file.

Left out on purpose: NaN payloads other than the default quiet NaN and its negative (no printer
shows a payload, only MindSpore's repr shows the sign, as -nan).
"""

import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor

NP_TYPES = {
    "Bool": np.bool_,
    "UInt8": np.uint8,
    "Int8": np.int8,
    "Int16": np.int16,
    "Int32": np.int32,
    "Int64": np.int64,
    "Float16": np.float16,
    "BFloat16": np.float32,  # held as float32 values that bfloat16 represents exactly
    "Float32": np.float32,
    "Float64": np.float64,
}

COMPLEX_TYPES = {"Complex64": np.complex64, "Complex128": np.complex128}

CASES = []


def to_bf16_values(a):
    """Round float32 values to bfloat16 (nearest even), kept as float32."""
    a = np.asarray(a, dtype=np.float32)
    bits = a.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(a), a, out)


def add(name, dtype, values, shape=None):
    arr = np.asarray(values)
    if dtype == "BFloat16":
        arr = to_bf16_values(arr)
    else:
        arr = arr.astype(NP_TYPES.get(dtype) or COMPLEX_TYPES[dtype])
    if shape is not None:
        arr = arr.reshape(shape)
    CASES.append((name, dtype, arr))


def escape(s):
    return s.replace("\\", "\\\\").replace("\n", "\\n")


def element_bytes(dtype, arr):
    if dtype == "BFloat16":
        bits = np.ascontiguousarray(arr, dtype=np.float32).view(np.uint32) >> 16
        # MindSpore's float32 -> bfloat16 conversion makes every NaN the positive quiet NaN.
        bits = np.where(np.isnan(arr), 0x7FC0, bits)
        return bits.astype("<u2").tobytes()
    return np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()


def mindspore_tensor(dtype, arr):
    if dtype == "BFloat16":
        return Tensor(arr, ms.bfloat16)
    return Tensor(arr)


def handmade():
    f = ["Float16", "BFloat16", "Float32", "Float64"]
    ints = ["UInt8", "Int8", "Int16", "Int32", "Int64"]
    for dt in f:
        add("scalar_2.5", dt, 2.5, ())
        add("scalar_0.1", dt, 0.1, ())
        add("scalar_neg_zero", dt, -0.0, ())
        add("scalar_zero", dt, 0.0, ())
        add("scalar_nan", dt, np.nan, ())
        add("scalar_neg_nan", dt, -np.nan, ())
        add("scalar_inf", dt, np.inf, ())
        add("scalar_neg_inf", dt, -np.inf, ())
        add("scalar_1e-4", dt, 1e-4, ())
        add("scalar_1e-5", dt, 1e-5, ())
        add("scalar_999", dt, 999.0, ())
        add("scalar_1000", dt, 1000.0, ())
        add("scalar_1024", dt, 1024.0, ())
        add("scalar_-1234.5", dt, -1234.5, ())
        add("vec_basic", dt, [1.0, 2.0, 3.0])
        add("vec_halves", dt, [1.5, 2.0, -3.25])
        add("vec_nonfinite", dt, [np.nan, -np.inf, np.inf, -0.0, 1.5])
        add("vec_only_nonfinite", dt, [np.nan, np.inf])
        add("vec_only_nan_neginf", dt, [np.nan, -np.inf])
        add("vec_exp_small", dt, [1e-3, 1e6 if dt != "Float16" else 1e3, -3.0, 0.0])
        add("vec_tiny", dt, [1e-5, 1.0])
        add("vec_ratio_1000", dt, [1.0, 1000.0])
        add("vec_ratio_1001", dt, [1.0, 1001.0])
        add("vec_1e-4_edge", dt, [1e-4, 0.5])
        add("vec_thirds", dt, [1 / 3, 2 / 3, -1 / 7])
        add("mat_2x2", dt, [[1.5, 2.0], [3.0, 4.0]])
        add("mat_exp", dt, [[1e-3, 1e3], [-3.0, 0.0]])
        add("empty_0", dt, np.zeros((0,)))
        add("empty_2x0", dt, np.zeros((2, 0)))
        add("rank3", dt, np.arange(8).reshape(2, 2, 2) * 0.5 - 1)
        add("rank4", dt, np.arange(24).reshape(2, 3, 2, 2) / 4.0)
        add("vec_12", dt, np.arange(12))
        add("vec_13", dt, np.arange(13) * 1.25)
        add("vec_30_wrap", dt, np.arange(30) * 0.1)
        add("mat_7x2", dt, np.arange(14).reshape(7, 2))
        add("mat_2x7", dt, np.arange(14).reshape(2, 7) - 6.5)
        if dt in ("Float16", "Float32"):
            add("big_1001", dt, np.arange(1001) / 8.0)
        else:
            add("big_40x30", dt, (np.arange(1200).reshape(40, 30) - 600) / 16.0)
    add("float32_1e6", "Float32", [1e6, 1.0])
    add("float32_999999", "Float32", [999999.0, 1.0])
    add("float64_1e8", "Float64", [1e8, 1.0])
    add("float64_99999999", "Float64", [99999999.0, 1.0])
    add("float64_big_exp", "Float64", [1e-300, -1e300, 1.0])
    add("float64_min_subnormal", "Float64", [5e-324, 1.0])
    add("float64_max", "Float64", [np.finfo(np.float64).max, -1.0])
    add("float32_max_min", "Float32", [np.finfo(np.float32).max, np.finfo(np.float32).tiny])
    add("float32_subnormal", "Float32", [1e-45, 3e-42, 1.0])
    add("float16_max_min", "Float16", [65504.0, 6.1035e-05, 6e-08])
    add("float32_0.001", "Float32", [0.001, 1e6])
    add("float64_precision_cut", "Float64", [0.123456789012, 1.0])
    add("float64_round_half", "Float64", [0.125, 0.000123456785])
    add("float32_long", "Float32", [3.14159265, 2.71828183, 1.41421356, 100.0])
    add("float64_wrap", "Float64", np.linspace(-1, 1, 20))
    add("float32_wrap_exp", "Float32", np.geomspace(1e-6, 1e6, 16))
    add("float64_large_exp_wrap", "Float64", np.geomspace(1e-200, 1e200, 9))
    add("float32_rows_wrap", "Float32", np.linspace(-5, 5, 60).reshape(3, 20))
    add("float64_nan_pad", "Float64", [np.nan, 123.456, -7.0])
    add("float64_inf_exp", "Float64", [-np.inf, 1e-9, 2.0])
    for dt in ints:
        add("scalar_7", dt, 7, ())
        add("scalar_max", dt, np.iinfo(NP_TYPES[dt]).max, ())
        add("scalar_min", dt, np.iinfo(NP_TYPES[dt]).min, ())
        add("vec", dt, [1, 2, 3])
        add("vec_mixed", dt, [1, -20, 100] if dt != "UInt8" else [1, 20, 100])
        add("mat", dt, [[1, -20], [3, 4]] if dt != "UInt8" else [[1, 20], [3, 4]])
        add("minmax", dt, [np.iinfo(NP_TYPES[dt]).min, 0, np.iinfo(NP_TYPES[dt]).max])
        add("empty_0", dt, np.zeros((0,)))
        add("empty_2x0x3", dt, np.zeros((2, 0, 3)))
        add("vec_24", dt, np.arange(24))
        add("vec_25", dt, np.arange(25))
        add("vec_100", dt, np.arange(100) % 97)
        add("rank3_8x7x2", dt, np.arange(112).reshape(8, 7, 2) % 120)
        add("rank4", dt, np.arange(48).reshape(2, 2, 3, 4) % 100)
        if dt in ("UInt8", "Int32"):
            add("big_1001", dt, np.arange(1001) % 101)
            add("big_1000", dt, np.arange(1000) % 101)
        else:
            add("big_11x11x11", dt, np.arange(1331).reshape(11, 11, 11) % 97)
    add("int64_huge", "Int64", [np.iinfo(np.int64).min, 12, np.iinfo(np.int64).max])
    add("int64_wide_wrap", "Int64", np.arange(40) * 10**12)
    add("int32_cols_wrap", "Int32", (np.arange(90) * 1000003).reshape(3, 30))
    add("scalar_true", "Bool", True, ())
    add("scalar_false", "Bool", False, ())
    add("vec", "Bool", [True, False])
    add("vec_all_true", "Bool", [True, True])
    add("mat", "Bool", [[True, False]])
    add("vec_12", "Bool", np.arange(12) % 2 == 0)
    add("vec_13", "Bool", np.arange(13) % 3 == 0)
    add("vec_30_wrap", "Bool", np.arange(30) % 4 == 0)
    add("rank3_7x7x7", "Bool", np.arange(343).reshape(7, 7, 7) % 5 == 0)
    add("big_1001", "Bool", np.arange(1001) % 3 == 0)
    add("empty_0", "Bool", np.zeros((0,)))
    add("rank4_small", "Bool", (np.arange(16) % 3 == 1).reshape(2, 2, 2, 2))


def complex_cases():
    for dt in COMPLEX_TYPES:
        add("scalar", dt, 1.5 - 2j, ())
        add("scalar_zero", dt, 0j, ())
        add("vec", dt, [1 + 2j, -3.5 - 0.25j, 0j])
        add("vec_real", dt, [1.0, 2.0, 3.0])
        add("vec_thirds", dt, [1 / 3 + 2j / 3, -1 / 7])
        add("vec_nonfinite", dt, [complex(np.nan, 1), complex(np.inf, -np.inf), complex(-0.0, 0.0)])
        add("vec_exp", dt, [1e-5 + 1e6j, 12345.678 - 1j])
        add("mat_2x2", dt, [[1 + 1j, 2], [3j, -4 - 4j]])
        add("vec_13", dt, np.arange(13) * (0.5 + 1j))
        add("vec_30_wrap", dt, np.arange(30) * (1 - 0.1j))
        add("rank3", dt, (np.arange(8) - 4).reshape(2, 2, 2) * (1 + 2j))
        add("mat_7x2", dt, np.arange(14).reshape(7, 2) * 1j)
        add("empty_0", dt, np.zeros((0,)))


def random_cases():
    rng = np.random.default_rng(20261122)
    floats = ["Float16", "BFloat16", "Float32", "Float64"]
    for i in range(60):
        dt = floats[i % 4]
        rank = int(rng.integers(0, 5))
        shape = tuple(int(rng.integers(1, 5)) for _ in range(rank))
        n = int(np.prod(shape)) if shape else 1
        lo, hi = sorted(int(x) for x in rng.integers(-12, 12, size=2))
        if dt == "Float16":
            lo, hi = max(lo, -7), min(hi, 4)
        mags = 10.0 ** rng.uniform(lo, hi + 1, size=n)
        vals = mags * rng.choice([-1.0, 1.0], size=n)
        kind = i % 5
        if kind == 1:
            vals = np.round(vals, int(rng.integers(0, 4)))
        elif kind == 2:
            vals[rng.random(n) < 0.2] = 0.0
        elif kind == 3 and n > 1:
            vals[int(rng.integers(0, n))] = rng.choice([np.nan, np.inf, -np.inf])
        add(f"random_{i:02d}_e{lo}_{hi}", dt, vals, shape)
    ints = ["UInt8", "Int8", "Int16", "Int32", "Int64"]
    for i in range(25):
        dt = ints[i % 5]
        info = np.iinfo(NP_TYPES[dt])
        rank = int(rng.integers(0, 5))
        shape = tuple(int(rng.integers(1, 6)) for _ in range(rank))
        n = int(np.prod(shape)) if shape else 1
        bound = min(int(info.max), 10 ** int(rng.integers(1, 12)))
        low = 0 if info.min == 0 else -bound
        vals = rng.integers(low, bound, size=n, dtype=np.int64)
        add(f"random_int_{i:02d}", dt, vals, shape)
    for i in range(8):
        shape = tuple(int(rng.integers(1, 9)) for _ in range(int(rng.integers(1, 4))))
        add(f"random_bool_{i}", "Bool", rng.random(shape) < 0.5)
    # Dense random tensors that wrap lines and, past 1000 elements, summarize in numpy too.
    for i, dt in enumerate(floats):
        add(f"random_rows_{i}", dt, rng.standard_normal((5, 17)) * 10.0 ** (i - 2))
        add(f"random_big_{i}", dt, rng.standard_normal((3, 20, 20) if i % 2 else (2, 6, 85)))


def stress_cases(n, seed):
    """Random bit patterns and near-threshold values, for ad-hoc runs (not in the golden file)."""
    rng = np.random.default_rng(seed)
    floats = ["Float16", "BFloat16", "Float32", "Float64"]
    bit_types = {"Float16": np.uint16, "Float32": np.uint32, "Float64": np.uint64}
    for i in range(n):
        dt = floats[i % 4]
        shape = tuple(int(rng.integers(1, 5)) for _ in range(int(rng.integers(0, 3))))
        size = int(np.prod(shape)) if shape else 1
        kind = i % 3
        if kind == 0 and dt != "BFloat16":
            ut = bit_types[dt]
            bits = rng.integers(0, np.iinfo(ut).max, size=size, dtype=ut, endpoint=True)
            vals = bits.view(NP_TYPES[dt]).astype(np.float64)
            vals[~np.isfinite(vals)] = 1.0
        elif kind == 1:
            base = rng.choice([1e-4, 1e3, 1e6, 1e8, 1.0, 1e-5, 1e16])
            vals = base * (1 + rng.normal(0, 1e-3, size=size)) * rng.choice([1, -1], size=size)
            if size > 1:
                vals[0] = vals[1] * rng.choice([999.9, 1000.0, 1000.1])
        else:
            vals = np.round(rng.uniform(-1000, 1000, size=size), int(rng.integers(0, 9)))
        add(f"stress_{i}", dt, vals, shape)
        if i % 10 == 0:
            # Larger tensors of every dtype: wrapping, numpy's and MindSpore's summarization.
            big = tuple(int(rng.integers(1, 15)) for _ in range(int(rng.integers(1, 5))))
            kind = list(NP_TYPES)[(i // 10) % len(NP_TYPES)]
            if kind == "Bool":
                vals = rng.random(big) < 0.5
            elif kind in floats:
                vals = rng.standard_normal(big) * 10.0 ** rng.integers(-6, 6, size=big)
            else:
                info = np.iinfo(NP_TYPES[kind])
                vals = rng.integers(info.min, info.max, size=big, dtype=np.int64, endpoint=True)
            add(f"stress_big_{i}", kind, vals)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--stress":
        stress_cases(int(sys.argv[2]), 7)
    elif len(sys.argv) == 2 and sys.argv[1] == "--complex":
        complex_cases()
    else:
        handmade()
        random_cases()
    out = sys.stdout
    out.write("# Generated by engine/src/test/tools/gen_tensor_format_goldens.py; do not edit.\n")
    out.write(f"# numpy {np.__version__}, MindSpore {ms.__version__}\n\n")
    for name, dtype, arr in CASES:
        t = mindspore_tensor(dtype, arr)
        s = str(arr) if dtype == "BFloat16" else str(t)
        r = repr(t)
        out.write(f"case {dtype}_{name}\n")
        out.write(f"dtype {dtype}\n")
        out.write("shape " + " ".join(str(d) for d in arr.shape) + "\n")
        out.write("bytes " + element_bytes(dtype, arr).hex() + "\n")
        out.write("str " + escape(s) + "\n")
        out.write("repr " + escape(r) + "\n\n")


if __name__ == "__main__":
    main()
