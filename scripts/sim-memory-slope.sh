#!/bin/bash
# The simulator's memory per PE: the peak resident memory of `treesplit sim nqueens 10` at
# P = 16,384, 65,536 and 262,144 PEs (the slope between them is what `sim/memory.rs`
# BYTES_PER_PE bounds). Usage: scripts/sim-memory-slope.sh [path/to/treesplit]
set -euo pipefail
bin=${1:-target/release/treesplit}
for p in 16384 65536 262144; do
  kb=$({ /usr/bin/time -f "%M" "$bin" sim nqueens 10 --pes "$p" --quiet >/dev/null; } 2>&1 | tail -1)
  echo "P = $p: $kb KB peak resident"
done
