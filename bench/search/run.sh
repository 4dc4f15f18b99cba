#!/usr/bin/env bash
# Strategy-search time per search_mode on generated transformer blocks (~1k and ~10k operators) at
# 8, 64 and 1024 devices; each case in its own JVM, stopped after LIMIT seconds (default 60).
# Usage: bench/search/run.sh [LIMIT=60]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
mvn -q -B -o test-compile -pl engine >/dev/null 2>&1
cpfile=$(mktemp)
mvn -q -B -o dependency:build-classpath -pl engine -Dmdep.outputFile="$cpfile" >/dev/null 2>&1
"$JAVA_HOME/bin/java" -cp "engine/target/classes:engine/target/test-classes:$(cat "$cpfile")" \
  dev.msjvm.engine.parallel.search.SearchBench "${1:-60}"
rm -f "$cpfile"
