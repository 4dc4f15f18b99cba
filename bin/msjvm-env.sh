# Shared by bin/mspython and bin/msrun: finds a JDK >= 21, builds the project when needed and
# assembles the JVM command line. Sourced, not run.

MSJVM_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

msjvm_die() { echo "msjvm: $*" >&2; exit 1; }

# The feature version of a JDK home ("25", "21", "17"), or nothing.
msjvm_jdk_version() {
  local release="$1/release"
  [ -x "$1/bin/java" ] || return 0
  if [ -f "$release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release"
  fi
}

# Picks the newest JDK >= 21: $MSJVM_JAVA_HOME, then $JAVA_HOME, then /usr/lib/jvm/*.
msjvm_find_jdk() {
  local best="" best_v=0 cand v
  if [ -n "${MSJVM_JAVA_HOME:-}" ]; then
    v=$(msjvm_jdk_version "$MSJVM_JAVA_HOME")
    [ -n "$v" ] && [ "$v" -ge 21 ] || msjvm_die "MSJVM_JAVA_HOME=$MSJVM_JAVA_HOME is not a JDK 21 or newer"
    echo "$MSJVM_JAVA_HOME"; return
  fi
  for cand in ${JAVA_HOME:-} /usr/lib/jvm/temurin-* /usr/lib/jvm/*; do
    [ -d "$cand" ] || continue
    v=$(msjvm_jdk_version "$cand")
    [ -n "$v" ] || continue
    if [ "$v" -gt "$best_v" ]; then best="$cand"; best_v="$v"; fi
  done
  if [ "$best_v" -lt 21 ]; then
    msjvm_die "no JDK 21 or newer found (looked at \$JAVA_HOME and /usr/lib/jvm/*; newest found: ${best:-none} ${best_v}). Install one, e.g. Temurin 25, or set MSJVM_JAVA_HOME."
  fi
  echo "$best"
}

MSJVM_JDK="$(msjvm_find_jdk)" || exit 1
export JAVA_HOME="$MSJVM_JDK"
MSJVM_FRONTEND="$MSJVM_REPO/polyglot-frontend/target"

# Builds when there is no build yet or a source changed since the last one.
msjvm_build_if_needed() {
  local stamp="$MSJVM_FRONTEND/msjvm-build.stamp"
  if [ -f "$stamp" ] && [ -f "$MSJVM_FRONTEND/classpath.txt" ] && [ -z "$(find "$MSJVM_REPO" -path "$MSJVM_REPO/.git" -prune -o \
      \( -name '*.java' -o -name '*.py' -o -name 'pom.xml' \) -path '*/src/main/*' -newer "$stamp" -print -quit 2>/dev/null)" ] \
      && [ -z "$(find "$MSJVM_REPO" -maxdepth 2 -name pom.xml -newer "$stamp" -print -quit)" ]; then
    return 0
  fi
  command -v mvn >/dev/null || msjvm_die "Maven (mvn) is needed to build msjvm on first use"
  echo "msjvm: building (first use or sources changed)..." >&2
  local opts="${MAVEN_OPTS:-}"
  [ "$(msjvm_jdk_version "$JAVA_HOME")" -ge 24 ] && opts="$opts --sun-misc-unsafe-memory-access=allow"
  (cd "$MSJVM_REPO" && MAVEN_OPTS="$opts" mvn -q -B -Dstyle.color=never package -DskipTests) >&2 \
    || msjvm_die "build failed; run 'mvn package' in $MSJVM_REPO to see why"
  touch "$stamp"
}

# msjvm's per-machine cache: $MSJVM_CACHE, else $XDG_CACHE_HOME/msjvm, else ~/.cache/msjvm.
msjvm_cache_dir() { echo "${MSJVM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/msjvm}"; }

# numpy built for GraalPy (tools/numpy/build_numpy.py); polyglot-frontend's NumpyHome names the
# same directory.
MSJVM_NUMPY_DIR="graalpy-25.0.3-numpy-2.2.6-r3"
msjvm_numpy_complete() {
  [ -f "$1/pyvenv.cfg" ] && [ -f "$1/lib/python3.12/site-packages/numpy/__init__.py" ]
}

# Builds numpy for GraalPy the first time a script runs on this machine (bin/setup-numpy), unless
# MSJVM_NUMPY=off or $MSJVM_NUMPY_VENV names a venv of one's own.
msjvm_numpy_if_needed() {
  [ "${MSJVM_NUMPY:-on}" = "off" ] && return 0
  [ -n "${MSJVM_NUMPY_VENV:-}" ] && return 0
  msjvm_numpy_complete "$(msjvm_cache_dir)/numpy/$MSJVM_NUMPY_DIR/venv" && return 0
  "$MSJVM_REPO/bin/setup-numpy" >&2 \
    || msjvm_die "numpy for GraalPy could not be built (above); fix that, or set MSJVM_NUMPY=off to run without numpy"
}

# The heap of a launcher's JVM: $MSJVM_HEAP (a -Xmx size: 12g, 9000m) when set; otherwise sized
# from the machine and the ranks the JVM runs: 1 GiB plus 1 GiB per rank, at least a quarter of the
# memory (the JVM's own default) and at most three quarters (the RAM, or the cgroup limit if lower).
msjvm_heap_flag() {
  local ranks="${1:-1}" total_mb limit want lo hi
  if [ -n "${MSJVM_HEAP:-}" ]; then
    [[ "$MSJVM_HEAP" =~ ^[0-9]+[kKmMgG]?$ ]] || msjvm_die "MSJVM_HEAP=$MSJVM_HEAP is not a heap size such as 12g or 9000m"
    echo "-Xmx$MSJVM_HEAP"; return
  fi
  total_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo 2>/dev/null)
  [ -n "$total_mb" ] || return 0
  limit=$(cat /sys/fs/cgroup/memory.max 2>/dev/null || echo max)
  if [[ "$limit" =~ ^[0-9]+$ ]] && [ $((limit / 1048576)) -lt "$total_mb" ]; then total_mb=$((limit / 1048576)); fi
  want=$((1024 + 1024 * ranks)); lo=$((total_mb / 4)); hi=$((total_mb * 3 / 4))
  [ "$want" -lt "$lo" ] && want=$lo
  [ "$want" -gt "$hi" ] && want=$hi
  echo "-Xmx${want}m"
}

# The ranks an msrun command line runs in this JVM: --local_worker_num (msrun's default: 8).
msjvm_msrun_ranks() {
  local n=8 expect="" a
  for a in "$@"; do
    if [ -n "$expect" ]; then
      [ "$expect" = "--local_worker_num" ] && n="$a"
      expect=""; continue
    fi
    case "$a" in
      --local_worker_num=*) n="${a#*=}" ;;
      --*=*|-h|--help) ;;
      --*) expect="$a" ;;  # every msrun flag takes a value
      *) break ;;          # the script: what follows is its own
    esac
  done
  if [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ]; then echo "$n"; else echo 8; fi
}

# MSJVM_JAVA: the JVM command line for a launcher whose JVM runs $1 ranks (default 1).
msjvm_java_cmd() {
  local cp
  cp="$MSJVM_FRONTEND/polyglot-frontend-0.1.0-SNAPSHOT.jar:$(cat "$MSJVM_FRONTEND/classpath.txt")"
  MSJVM_JAVA=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED
    --sun-misc-unsafe-memory-access=allow -Dpolyglot.engine.WarnInterpreterOnly=false
    -XX:+UseParallelGC -Xss8m
    # A bounded young generation: training steps allocate a few MB of short-lived tensors each;
    # unbounded, ParallelGC grew the heap to 1.15 GB RSS on the MLP benchmark; with -Xmn512m it
    # stays at 560-740 MB (JIT off/on) for about the same step time (docs/PERFORMANCE.md).
    -Xmn512m)
  local heap
  heap="$(msjvm_heap_flag "${1:-1}")" || exit 1
  [ -n "$heap" ] && MSJVM_JAVA+=("$heap")
  # The Truffle JIT: JVMCI plus the Graal compiler jars on the upgrade module path (JDK 21+).
  if [ "${MSJVM_JIT:-1}" != "0" ] && [ -d "$MSJVM_FRONTEND/jit" ]; then
    MSJVM_JAVA+=(-XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI
      "--upgrade-module-path=$MSJVM_FRONTEND/jit")
  fi
  MSJVM_JAVA+=(${MSJVM_JAVA_OPTS:-} -cp "$cp")
  msjvm_aot_cache
}

# JDK 25's ahead-of-time cache (JEP 483/514): the classes a launcher's JVM loads (the JDK's,
# Truffle's, GraalPy's, the engine's) are read, verified and linked once and mapped from a file by
# every later start, which halves a short script's time (docs/PERFORMANCE.md). One cache per build:
# the key covers the JDK, the JVM options and every jar on the class path with its size and time,
# so a rebuild makes a new one (the JVM would refuse a stale one anyway). The first launcher to
# miss it trains it on tools/aot/training.py (2 ranks, output discarded; a minute, once); a
# launcher that finds another one training runs without. MSJVM_AOT=off runs without the cache.
# Appends to MSJVM_JAVA, whose other options it reads.
msjvm_aot_cache() {
  [ "${MSJVM_AOT:-on}" = "off" ] && return 0
  [ "$(msjvm_jdk_version "$JAVA_HOME")" -ge 25 ] || return 0
  local opts
  opts="$(printf '%s\n' "${MSJVM_JAVA[@]}")"
  # The JIT's --upgrade-module-path rules the cache out (the JVM refuses to dump one with it).
  grep -q '^--upgrade-module-path' <<<"$opts" && return 0
  # Its archived heap objects need an old generation beside the 512 MB young one, and its
  # compressed pointers a heap under 32 GB; outside those a JVM given the cache fails or complains.
  local xmx mb
  xmx="$(sed -n 's/^-Xmx//p' <<<"$opts" | tail -1)"
  if [ -n "$xmx" ]; then
    [[ "$xmx" =~ ^([0-9]+)([kKmMgG]?)$ ]] || return 0
    mb="${BASH_REMATCH[1]}"
    case "${BASH_REMATCH[2]}" in
      [gG]) mb=$(( mb * 1024 )) ;;
      [mM]) ;;
      [kK]) mb=$(( mb / 1024 )) ;;
      *) mb=$(( mb / 1048576 )) ;;
    esac
    [ "$mb" -ge 768 ] && [ "$mb" -lt 32768 ] || return 0
  fi
  local dir key file cp entry
  dir="$(msjvm_cache_dir)/aot"
  cp="$(sed -n '/^-cp$/{n;p;}' <<<"$opts")"
  key=$( {
    echo "classes linked, no method profiles"  # what the caches hold (a change makes new ones)
    cat "$JAVA_HOME/release"
    grep -v '^-Xmx' <<<"$opts"
    IFS=: read -ra entry <<<"$cp"
    stat -c '%n %s %Y' "${entry[@]}" 2>/dev/null || true
  } | sha256sum | cut -c1-16)
  file="$dir/msjvm-$key.aot"
  if [ ! -f "$file" ]; then
    mkdir -p "$dir" || return 0
    # A lock left by a training that was killed is stale after 10 minutes.
    find "$file.lock" -maxdepth 0 -mmin +10 -exec rmdir {} \; 2>/dev/null || true
    mkdir "$file.lock" 2>/dev/null || return 0
    echo "msjvm: preparing the start-up cache for this build (once, about a minute)..." >&2
    local work; work="$(mktemp -d)"
    # Written beside its final name, so that the rename a reader may race with is atomic. Without
    # the training run's method profiles (JEP 515): replayed, they made the interpreter's calls
    # into Java 2-4 times slower for the whole run (bench/call_overhead.py), for 10% of the start.
    if (cd "$work" && "${MSJVM_JAVA[@]}" -XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining \
        -XX:AOTCacheOutput="$file.$$.tmp" \
        dev.msjvm.frontend.MsRun --worker_num=2 --local_worker_num=2 --log_dir="$work/logs" \
        "$MSJVM_REPO/tools/aot/training.py") >"$work/out" 2>&1 && [ -s "$file.$$.tmp" ]; then
      mv "$file.$$.tmp" "$file"
      # The three newest caches stay (each is about 150 MB; other checkouts have their own).
      ls -t "$dir"/msjvm-*.aot 2>/dev/null | tail -n +4 | while read -r old; do rm -f "$old"; done || true
    else
      echo "msjvm: no start-up cache (training failed, see $work/out); running without" >&2
      rm -f "$file.$$.tmp"; rmdir "$file.lock"; return 0
    fi
    rm -rf "$work"; rmdir "$file.lock"
  fi
  MSJVM_JAVA+=("-XX:AOTCache=$file")
}
