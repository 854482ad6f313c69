#!/usr/bin/env bash
# One fuzz target for a fixed time (ctest, label `fuzz`): new inputs go to a scratch corpus, the
# kept corpus is read only; a crash fails the test and leaves its input under the scratch folder.
# CORPUS.dict, when there is one, is the target's dictionary (its format's keys, depth bombs).
# Usage: run.sh BINARY CORPUS SCRATCH SECONDS
set -euo pipefail
binary=$1 corpus=$2 scratch=$3 seconds=$4
rm -rf "$scratch" && mkdir -p "$scratch/new"
dict=()
if [[ -f $corpus.dict ]]; then dict=(-dict="$corpus.dict"); fi
exec "$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
  "${dict[@]}" -artifact_prefix="$scratch/" "$scratch/new" "$corpus"
