#!/usr/bin/env bash
# Runs a benchmark main class of the engine's test sources (offline build of engine test classes).
# Usage: bench/engine-main.sh CLASS [ARGS...]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
mvn -q -B -o test-compile -pl engine >/dev/null 2>&1
cpfile=$(mktemp)
trap 'rm -f "$cpfile"' EXIT
mvn -q -B -o dependency:build-classpath -pl engine -Dmdep.outputFile="$cpfile" >/dev/null 2>&1
"$JAVA_HOME/bin/java" -cp "engine/target/classes:engine/target/test-classes:$(cat "$cpfile")" "$@"
