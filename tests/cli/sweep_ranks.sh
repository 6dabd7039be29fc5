#!/usr/bin/env bash
# voltaic sweep under mpirun: 1 rank without mpirun, then RANKS ranks; the
# summaries must be the same bytes and every cell's curves the same bits.
# Usage: sweep_ranks.sh VOLTAIC MPIEXEC "EXTRA FLAGS" CONFIG WORK RANKS [PYTHON]
set -euo pipefail
voltaic=$1 mpiexec=$2 extra=$3 config=$4 work=$5 ranks=$6 python=${7:-python3}
rm -rf "$work"
mkdir -p "$work"
"$voltaic" sweep "$config" -o "$work/one" -j 1 >"$work/one.log"
# shellcheck disable=SC2086  # extra holds zero or more flags
"$mpiexec" -n "$ranks" $extra "$voltaic" sweep "$config" -o "$work/many" -j 1 >"$work/many.log"
grep -q "on each of $ranks MPI ranks" "$work/many.log"
cmp "$work/one/sweep/summary.csv" "$work/many/sweep/summary.csv"
"$python" - "$work/one/sweep/curves.h5" "$work/many/sweep/curves.h5" <<'PY'
import sys
try:
    import h5py
except ImportError:
    print("h5py missing (tools/setup.sh installs python3-h5py): curves not compared")
    sys.exit(77)
import numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
assert list(a["count"]) == list(b["count"]), "row counts differ"
for q in a["curves"]:
    for cell, n in enumerate(a["count"]):
        x = a["curves"][q][a["start"][cell]:a["start"][cell] + n]
        y = b["curves"][q][b["start"][cell]:b["start"][cell] + n]
        assert np.array_equal(x.view(np.uint64), y.view(np.uint64)), f"{q} of cell {cell} differs"
print("same bits:", len(a["count"]), "cells")
PY
