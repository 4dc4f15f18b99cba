#!/usr/bin/env python3
"""Re-run the conformance cases on REAL MindSpore (CPython) and (re)write the golden files.

Usage:
    run_on_mindspore.py VENV [CASE ...] [--no-goldens] [--cases-dir=DIR]

    VENV   path of a CPython virtual environment with `pip install mindspore` done
           (its bin/python and bin/msrun are used). Must live OUTSIDE the repository,
           e.g. /root/.cache/msjvm-goldens/venv.
    CASE   case names (file stem, e.g. seed000_examples) or paths; default: every
           src/test/resources/cases/*.py
    --no-goldens   only write the raw records, never touch *.golden
    --cases-dir=DIR  the folder of the cases (default src/test/resources/cases), e.g. ../pending for the
                   cases the product cannot pass yet; case names, goldens and DEVIATIONS.md are taken
                   from there

For every case it writes
    tools/mindspore-raw/<name>.out   what real MindSpore printed (stdout), then lines "!! ... uncaught: <first
                                     line of the exception>" for any uncaught exception (taken from stderr /
                                     the worker log; NOT stdout), then "== exit status: N =="
    src/test/resources/cases/<name>.golden
                                     the expected stdout, i.e. the same stdout, EXCEPT for the
                                     cases listed in cases/DEVIATIONS.md (table rows starting with
                                     "| `<name>`"): their golden is hand-maintained (our product
                                     deliberately differs) and is left alone; the tool prints a diff.

Case header contract (first comment lines of the script):
    # ranks: N   (default 1)  N>1: launched as
                 msrun --worker_num=N --local_worker_num=N --master_port=<free> --log_dir=<tmp> --join=True
    # exit: K    (default 0)  expected exit status (the tool warns when real MindSpore differs)

Single-rank cases run as `VENV/bin/python <case>` in a fresh temporary working directory with the
distributed-launch environment variables removed (RANK_ID, RANK_SIZE, DEVICE_ID, MS_*, OMPI_*, PMIX_*,
RANK_TABLE_FILE, ...). Golden = stdout only; stderr (MindSpore logs) is ignored.

Multi-rank cases: msrun writes stdout AND stderr of worker K into <log_dir>/worker_K.log. The worker's
stdout is recovered with this filter (applied line by line, in order):
  1. drop MindSpore log lines: lines matching  ^\\[(DEBUG|INFO|WARNING|ERROR|CRITICAL|EXCEPTION)\\]
     (both the C++ glog format "[WARNING] DISTRIBUTED(pid,tid,python):..." and the Python
     mindspore.log format "[WARNING] ME(pid:tid,MainProcess):...")
  2. drop the continuation lines of multi-line C++ error texts: lines that are only dashes
     ("-----..."), "- C++ Call Stack: ...", "- Framework Unexpected Exception Raised:", and
     "mindspore/ccsrc/...cc:<line> <func>" stack lines
  3. drop an uncaught Python traceback: everything from a line "Traceback (most recent call last):" to the
     end of the log. Workers run with PYTHONUNBUFFERED=1, so every stdout line is already in the log
     before the traceback is written (without it, buffered stdout is flushed at interpreter exit, i.e.
     AFTER the traceback), and a multi-line exception message cannot leak into the recovered stdout.
The golden of a multi-rank case is, for K = 0..N-1:  "== rank K ==\\n" + filtered stdout of worker K.
The exit status recorded for a multi-rank case is msrun's exit status.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import difflib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASES = os.path.join(ROOT, "src", "test", "resources", "cases")
RAW = os.path.join(HERE, "mindspore-raw")
TIMEOUT_S = 600

LOG_LINE = re.compile(r"^\[(DEBUG|INFO|WARNING|ERROR|CRITICAL|EXCEPTION)\]")
CPP_NOISE = re.compile(r"^(-{10,}\s*$|- C\+\+ Call Stack:|- Framework Unexpected Exception Raised:|"
                       r"mindspore/ccsrc/\S+:\d+ )")
STRIP_ENV_PREFIXES = ("MS_", "OMPI_", "PMIX_")
STRIP_ENV = {"RANK_ID", "RANK_SIZE", "DEVICE_ID", "RANK_TABLE_FILE", "MINDSPORE_HCCL_CONFIG_PATH",
             "HELP_CLUSTER", "CUDA_VISIBLE_DEVICES"}


def parse_header(path):
    ranks, exit_code = 1, 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s.startswith("#"):
                break
            m = re.match(r"#\s*ranks:\s*(\d+)\s*$", s)
            if m:
                ranks = int(m.group(1))
            m = re.match(r"#\s*exit:\s*(\d+)\s*$", s)
            if m:
                exit_code = int(m.group(1))
    return ranks, exit_code


def deviation_cases(cases_dir):
    names = set()
    path = os.path.join(cases_dir, "DEVIATIONS.md")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^\|\s*`([A-Za-z0-9_]+)`", line)
                if m:
                    names.add(m.group(1))
    return names


def clean_env(venv):
    env = {k: v for k, v in os.environ.items()
           if k not in STRIP_ENV and not k.startswith(STRIP_ENV_PREFIXES)}
    env["PATH"] = os.path.join(venv, "bin") + os.pathsep + env.get("PATH", "")
    env["VIRTUAL_ENV"] = venv
    env.pop("PYTHONPATH", None)
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def filter_worker_log(text):
    out = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Traceback (most recent call last):"):
            return "".join(l + "\n" for l in out), uncaught_summary(lines[i:])
        if LOG_LINE.match(line) or CPP_NOISE.match(line):
            continue
        out.append(line)
    return "".join(l + "\n" for l in out), None


def uncaught_summary(lines):
    """First line of the exception that ended a traceback (for the raw record only)."""
    in_tb = False
    for line in lines:
        if line.startswith("Traceback (most recent call last):"):
            in_tb = True
            continue
        if in_tb and line and not line.startswith((" ", "\t")) and not LOG_LINE.match(line):
            return line
    return None


def stderr_summary(stderr):
    lines = stderr.splitlines()
    found = None
    for i, line in enumerate(lines):
        if line.startswith("Traceback (most recent call last):"):
            found = uncaught_summary(lines[i:])
    return found


def run_single(venv, case, workdir):
    p = subprocess.run([os.path.join(venv, "bin", "python"), case], cwd=workdir, env=clean_env(venv),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT_S)
    exc = stderr_summary(p.stderr.decode("utf-8", "replace"))
    return p.stdout.decode("utf-8", "replace"), ([f"!! uncaught: {exc}"] if exc else []), p.returncode


def run_multi(venv, case, ranks, workdir):
    log_dir = os.path.join(workdir, "msrun_logs")
    cmd = [os.path.join(venv, "bin", "msrun"), f"--worker_num={ranks}", f"--local_worker_num={ranks}",
           f"--master_port={free_port()}", f"--log_dir={log_dir}", "--join=True", case]
    p = subprocess.run(cmd, cwd=workdir, env=clean_env(venv), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=TIMEOUT_S)
    parts, notes = [], []
    for k in range(ranks):
        log = os.path.join(log_dir, f"worker_{k}.log")
        text, exc = "", None
        if os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as f:
                text, exc = filter_worker_log(f.read())
        else:
            notes.append(f"!! rank {k}: no worker log")
        if exc:
            notes.append(f"!! rank {k} uncaught: {exc}")
        parts.append(f"== rank {k} ==\n" + text)
    return "".join(parts), notes, p.returncode


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    write_goldens = "--no-goldens" not in argv
    cases_dir = CASES
    for a in argv:
        if a.startswith("--cases-dir="):
            cases_dir = os.path.abspath(a[len("--cases-dir="):])
    if not args:
        print(__doc__)
        return 2
    venv = os.path.abspath(args[0])
    if not os.path.exists(os.path.join(venv, "bin", "python")):
        print(f"not a venv: {venv}")
        return 2
    if args[1:]:
        cases = [a if a.endswith(".py") else os.path.join(cases_dir, a + ".py") for a in args[1:]]
    else:
        cases = sorted(os.path.join(cases_dir, f) for f in os.listdir(cases_dir)
                       if f.endswith(".py") and not f.startswith("_"))
    derived = deviation_cases(cases_dir)
    os.makedirs(RAW, exist_ok=True)
    version = subprocess.run([os.path.join(venv, "bin", "python"), "-c",
                              "import mindspore; print(mindspore.__version__)"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=clean_env(venv))
    print("mindspore", version.stdout.decode().strip())
    failures = 0
    for case in cases:
        case = os.path.abspath(case)
        name = os.path.splitext(os.path.basename(case))[0]
        ranks, expected_exit = parse_header(case)
        workdir = tempfile.mkdtemp(prefix=f"msgold_{name}_")
        try:
            if ranks > 1:
                out, notes, rc = run_multi(venv, case, ranks, workdir)
            else:
                out, notes, rc = run_single(venv, case, workdir)
        except subprocess.TimeoutExpired:
            out, notes, rc = "", [], "timeout"
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        # raw record: the recovered stdout, then (not part of stdout) the first line of any uncaught
        # exception (from stderr / the worker log) and the exit status
        with open(os.path.join(RAW, name + ".out"), "w", encoding="utf-8") as f:
            f.write(out)
            for n in notes:
                f.write(n + "\n")
            f.write(f"== exit status: {rc} ==\n")
        golden_path = os.path.join(cases_dir, name + ".golden")
        status = "ok"
        if name in derived:
            old = open(golden_path, encoding="utf-8").read() if os.path.exists(golden_path) else ""
            if old != out:
                status = "DEVIATION (hand-maintained golden differs from real MindSpore)"
                diff = difflib.unified_diff(out.splitlines(), old.splitlines(), "real", "golden", lineterm="")
                print("\n".join("    " + d for d in diff))
            else:
                status = "deviation-listed but identical"
        elif write_goldens:
            with open(golden_path, "w", encoding="utf-8") as f:
                f.write(out)
        if rc != expected_exit:
            status += f"; exit {rc} != header {expected_exit}"
            if name not in derived:
                failures += 1
        print(f"{name:45s} ranks={ranks} rc={rc} {status}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
