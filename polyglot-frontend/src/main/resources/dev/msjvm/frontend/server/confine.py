"""Confines a process-isolated server job's JVM, then becomes it (msjvm's `Confinement`).

Run by CPython (the interpreter numpy's build needs anyway, so every machine that has numpy has it):

    python3 confine.py --probe
    python3 confine.py [--read PATH]... [--write DIR]... -- COMMAND...

A server job may run native code (numpy's C extensions; with them ctypes, and with numpy's array
interface any address of the process), so the polyglot sandbox alone no longer bounds what its JVM
can do. Before it executes COMMAND (the child JVM, which then keeps the same process and every
thread it starts inherits all of this), this script:

- sets no_new_privs and drops every capability (bounding, ambient, inheritable, permitted,
  effective), so a job running as root holds no root powers (modules, mounts, raw sockets,
  ownership);
- puts the process in a Landlock domain (Linux >= 6.12, Landlock ABI >= 6): files and
  directories may be read (and executed) only beneath the --read paths (those that exist), and written, created,
  removed, renamed or truncated only beneath the --write directories; no symbolic link, device,
  socket or pipe file may be made anywhere; no TCP port may be bound or connected; no signal may
  reach a process outside the domain (the server) and no abstract unix socket outside it may be
  connected; processes outside the domain cannot be traced or read through /proc;
- installs a seccomp filter that refuses socket(AF_UNIX, ...) with EACCES (a path socket, say a
  container daemon's, is reachable by name whatever Landlock allows).

`--probe` prints the Landlock ABI and exits 0 when the kernel can do all of it, else 3 with the
reason. Any failure to confine exits 3 before COMMAND runs, naming what failed: a job never runs
half confined.
"""

import ctypes
import os
import platform
import struct
import sys

_ARCH = {
    # machine: (landlock_create_ruleset, capset, socket, seccomp AUDIT_ARCH)
    "x86_64": (444, 126, 41, 0xC000003E),
    "aarch64": (444, 91, 198, 0xC00000B7),
}

# Landlock's access rights (include/uapi/linux/landlock.h).
FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_REMOVE_DIR = 1 << 4
FS_REMOVE_FILE = 1 << 5
FS_MAKE_CHAR = 1 << 6
FS_MAKE_DIR = 1 << 7
FS_MAKE_REG = 1 << 8
FS_MAKE_SOCK = 1 << 9
FS_MAKE_FIFO = 1 << 10
FS_MAKE_BLOCK = 1 << 11
FS_MAKE_SYM = 1 << 12
FS_REFER = 1 << 13
FS_TRUNCATE = 1 << 14
FS_IOCTL_DEV = 1 << 15
FS_ALL = (1 << 16) - 1
NET_BIND_TCP = 1 << 0
NET_CONNECT_TCP = 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1
RULE_PATH_BENEATH = 1

FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
READ_RIGHTS = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
WRITE_RIGHTS = (READ_RIGHTS | FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_DIR
                | FS_MAKE_REG | FS_REFER | FS_TRUNCATE)

PR_SET_NO_NEW_PRIVS = 38
PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
MIN_ABI = 6


class Refused(Exception):
    pass


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.prctl.restype = ctypes.c_int


def _check(result, what):
    if result < 0:
        err = ctypes.get_errno()
        raise Refused(f"{what}: {os.strerror(err)} (errno {err})")
    return result


def _numbers():
    numbers = _ARCH.get(platform.machine())
    if numbers is None:
        raise Refused(f"unsupported machine {platform.machine()!r}")
    return numbers


def landlock_abi():
    create = _numbers()[0]
    abi = _libc.syscall(ctypes.c_long(create), None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 0:
        err = ctypes.get_errno()
        raise Refused(f"the kernel has no Landlock ({os.strerror(err)}); "
                      "Linux >= 6.12 with landlock in its lsm= list is needed")
    if abi < MIN_ABI:
        raise Refused(f"the kernel's Landlock ABI is {abi}; >= {MIN_ABI} is needed "
                      "(TCP and signal scoping)")
    return abi


def _drop_capabilities():
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    _check(_libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clear ambient caps")
    last = int(open("/proc/sys/kernel/cap_last_cap").read())
    for cap in range(last + 1):
        _check(_libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), f"drop capability {cap}")
    header = struct.pack("=Ii", 0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = bytes(24)  # two {effective, permitted, inheritable}: all empty
    _check(_libc.capset(ctypes.c_char_p(header), ctypes.c_char_p(data)), "capset")


def _add_rule(ruleset, path, rights):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError as e:
        raise Refused(f"cannot open {path}: {e.strerror}")
    try:
        if not os.path.isdir(path):
            rights &= FILE_RIGHTS
        attr = struct.pack("=Qi", rights, fd)  # landlock_path_beneath_attr is packed
        _check(_libc.syscall(ctypes.c_long(_numbers()[0] + 1), ruleset,
                             ctypes.c_int(RULE_PATH_BENEATH), ctypes.c_char_p(attr),
                             ctypes.c_uint32(0)), f"landlock_add_rule({path})")
    finally:
        os.close(fd)


def _landlock(reads, writes):
    abi = landlock_abi()
    handled = FS_ALL
    attr = struct.pack("=QQQ", handled, NET_BIND_TCP | NET_CONNECT_TCP,
                       SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL)
    create = _numbers()[0]
    ruleset = _check(_libc.syscall(ctypes.c_long(create), ctypes.c_char_p(attr),
                                   ctypes.c_size_t(len(attr)), ctypes.c_uint32(0)),
                     "landlock_create_ruleset")
    try:
        for p in reads:
            if os.path.exists(p):  # a path that does not exist grants nothing
                _add_rule(ruleset, p, READ_RIGHTS)
        for p in writes:
            _add_rule(ruleset, p, WRITE_RIGHTS)
        for dev in ("/dev/null", "/dev/zero", "/dev/full"):
            if os.path.exists(dev):
                _add_rule(ruleset, dev, FS_READ_FILE | FS_WRITE_FILE)
        for dev in ("/dev/random", "/dev/urandom"):
            if os.path.exists(dev):
                _add_rule(ruleset, dev, FS_READ_FILE)
        _check(_libc.syscall(ctypes.c_long(create + 2), ruleset, ctypes.c_uint32(0)),
               "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return abi


def _no_unix_sockets():
    _, _, socket_nr, audit_arch = _numbers()
    ld, jeq, ret = 0x20, 0x15, 0x06
    allow, refuse, kill = 0x7FFF0000, 0x00050000 | 13, 0x80000000  # EACCES

    def insn(code, jt, jf, k):
        return struct.pack("=HBBI", code, jt, jf, k)

    program = b"".join([
        insn(ld, 0, 0, 4),                 # arch
        insn(jeq, 1, 0, audit_arch),
        insn(ret, 0, 0, kill),
        insn(ld, 0, 0, 0),                 # syscall number
        insn(0x35, 0, 1, 0x40000000),      # jge: x32 numbers are refused
        insn(ret, 0, 0, kill),
        insn(jeq, 0, 3, socket_nr),
        insn(ld, 0, 0, 16),                # args[0] (low half): the address family
        insn(jeq, 0, 1, 1),                # AF_UNIX
        insn(ret, 0, 0, refuse),
        insn(ret, 0, 0, allow),
    ])
    buf = ctypes.create_string_buffer(program, len(program))
    fprog = struct.pack("=HxxxxxxQ", len(program) // 8, ctypes.addressof(buf))
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.c_char_p(fprog), 0, 0),
           "prctl(PR_SET_SECCOMP)")


def main(argv):
    if argv == ["--probe"]:
        try:
            print(f"landlock {landlock_abi()}")
            return 0
        except Refused as e:
            print(f"msjvm confine: {e}", file=sys.stderr)
            return 3
    reads, writes = [], []
    i = 0
    while i < len(argv) and argv[i] != "--":
        if argv[i] in ("--read", "--write") and i + 1 < len(argv):
            (reads if argv[i] == "--read" else writes).append(argv[i + 1])
            i += 2
        else:
            print(f"msjvm confine: unknown argument {argv[i]!r}", file=sys.stderr)
            return 2
    command = argv[i + 1:]
    if not command:
        print("msjvm confine: no command after --", file=sys.stderr)
        return 2
    try:
        _drop_capabilities()
        _landlock(reads, writes)
        _no_unix_sockets()
    except Refused as e:
        print(f"msjvm confine: the job's JVM cannot be confined: {e}", file=sys.stderr)
        return 3
    try:
        os.execv(command[0], command)
    except OSError as e:
        print(f"msjvm confine: cannot run {command[0]}: {e.strerror}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
