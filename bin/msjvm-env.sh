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
MSJVM_NUMPY_DIR="graalpy-25.0.3-numpy-2.2.6-r2"
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
  # The Truffle JIT: JVMCI plus the Graal compiler jars on the upgrade module path (JDK 21+).
  if [ "${MSJVM_JIT:-1}" != "0" ] && [ -d "$MSJVM_FRONTEND/jit" ]; then
    MSJVM_JAVA+=(-XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI
      "--upgrade-module-path=$MSJVM_FRONTEND/jit")
  fi
  MSJVM_JAVA+=(${MSJVM_JAVA_OPTS:-} -cp "$cp")
}
