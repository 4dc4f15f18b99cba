#!/usr/bin/env bash
# Pipeline bubble on equal-cost stages, measured from each rank's timeline, against (p-1)/(m+p-1),
# for 1F1B and GPipe over 2..16 micro-batches (engine only: in-JVM ranks, Java GEMM, one thread each).
# Usage: bench/pipeline/run.sh [STAGES=2] [WIDTH=256] [ROWS=64]
exec "$(dirname "$0")/../engine-main.sh" dev.msjvm.engine.exec.PipelineBench "${1:-2}" "${2:-256}" "${3:-64}"
