#!/usr/bin/env bash
# Prepares what tests/gpu.sh needs on a GPU machine that has no network, no Maven and maybe no
# Java: .gpu/jre.tgz (a jlink'd Java 25 runtime, 23 MB) and .gpu/lib/*.jar (the engine, the CUDA
# module, JavaCPP and its CUDA 13 bindings: no CUDA libraries, the machine has those). .gpu/ is
# git-ignored; hand it to the machine with the working tree (the device tool: carry [".gpu"]).
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME="${JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1)}"
export JAVA_HOME MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"
mvn -B -q install -DskipTests -pl engine,cuda -am
rm -rf .gpu && mkdir -p .gpu/lib
mvn -B -q -pl cuda dependency:copy-dependencies -DincludeScope=runtime \
  -DexcludeGroupIds=com.fasterxml.jackson.core,com.google.protobuf -DoutputDirectory="$PWD/.gpu/lib"
cp cuda/target/cuda-*.jar .gpu/lib/
"$JAVA_HOME/bin/jlink" --add-modules java.base,jdk.unsupported,java.logging,java.management \
  --strip-debug --no-man-pages --no-header-files --compress=zip-9 --output .gpu/jre
tar czf .gpu/jre.tgz -C .gpu jre && rm -rf .gpu/jre
du -sh .gpu/jre.tgz .gpu/lib
