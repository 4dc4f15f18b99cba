#!/usr/bin/env bash
# Strategy-search time per search_mode on generated transformer blocks (~1k and ~10k operators) at
# 8, 64 and 1024 devices; each case in its own JVM, stopped after LIMIT seconds (default 60).
# Usage: bench/search/run.sh [LIMIT=60]
exec "$(dirname "$0")/../engine-main.sh" dev.msjvm.engine.parallel.search.SearchBench "${1:-60}"
