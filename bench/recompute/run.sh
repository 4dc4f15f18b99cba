#!/usr/bin/env bash
# Peak intermediate bytes and step time of a block MLP with and without Cell.recompute()-style
# recomputation of its blocks (engine only, Java GEMM).
# Usage: bench/recompute/run.sh
exec "$(dirname "$0")/../engine-main.sh" dev.msjvm.engine.exec.RecomputeBench
