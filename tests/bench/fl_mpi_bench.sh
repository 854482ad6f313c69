#!/usr/bin/env bash
# `corbin fl` under mpirun: rounds per second for each K given, and the bytes each rank moved per
# round (rounds.jsonl's mpi_bytes_sent / mpi_bytes_received, averaged over the rounds), on
# Debian's Fashion-MNIST. A benchmark, not a test: it prints a table and checks nothing but that
# every K gave the single process's final model.
#   bash tests/bench/fl_mpi_bench.sh [BUILD_DIR] [K ...]      (default: build, K = 1 2)
# Settings through the environment: CLIENTS (10), ROUNDS (3), PER_CLIENT (600), MECHANISM (augcorbin).
set -euo pipefail
build=${1:-build}; shift || true
ranks=("$@"); ((${#ranks[@]})) || ranks=(1 2)
corbin="$build/analysis/corbin"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
options=(--clients "${CLIENTS:-10}" --rounds "${ROUNDS:-3}" --per-client "${PER_CLIENT:-600}" --threads 1
         --mechanism "${MECHANISM:-augcorbin}" --exp-eps 3 --no-figures --eval-limit 1000)
mpirun_options=(-q --oversubscribe); [ "$(id -u)" -ne 0 ] || mpirun_options+=(--allow-run-as-root)
"$corbin" fl "${options[@]}" --out "$work/single" > /dev/null
printf '%-6s %-14s %-12s %s\n' K rounds/s model "bytes per round sent/received by rank 0, 1, ..."
for k in "${ranks[@]}"; do
  start=$(date +%s.%N)
  mpirun "${mpirun_options[@]}" -np "$k" "$corbin" fl "${options[@]}" --out "$work/k$k" > /dev/null
  end=$(date +%s.%N)
  same=$(cmp -s "$work/single/checkpoint/global.f32" "$work/k$k/checkpoint/global.f32" && echo identical || echo DIFFERS)
  /usr/bin/python3 - "$work/k$k/rounds.jsonl" "$k" "$start" "$end" "$same" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
k, start, end, same = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
rounds_per_s = len(rows) / sum(r["seconds"] for r in rows)
sent = [sum(r["mpi_bytes_sent"][i] for r in rows) / len(rows) for i in range(int(k))]
received = [sum(r["mpi_bytes_received"][i] for r in rows) / len(rows) for i in range(int(k))]
cells = ", ".join(f"{s / 1e6:.2f}/{r / 1e6:.2f} MB" for s, r in zip(sent, received))
print(f"{k:<6} {rounds_per_s:<14.3f} {same:<12} {cells}   (wall {end - start:.1f} s with start-up)")
PY
done
