#!/usr/bin/env bash
# voltaic run under mpirun: the cell's plane cut over 2 and over 4 ranks
# gives the same time series bytes and field bits, and the 4-rank run's last
# checkpoint continued on 2 ranks ends with the same time series.
# Usage: run_ranks.sh VOLTAIC MPIEXEC "EXTRA FLAGS" CONFIG WORK [PYTHON]
set -euo pipefail
voltaic=$1 mpiexec=$2 extra=$3 config=$4 work=$5 python=${6:-python3}
rm -rf "$work"
mkdir -p "$work"
# shellcheck disable=SC2086  # extra holds zero or more flags
"$mpiexec" -n 2 $extra "$voltaic" run "$config" -o "$work/two" >"$work/two.log"
# shellcheck disable=SC2086
"$mpiexec" -n 4 $extra "$voltaic" run "$config" -o "$work/four" >"$work/four.log"
grep -q "cut over 4 MPI ranks" "$work/four.log"
cmp "$work/two/timeseries.csv" "$work/four/timeseries.csv"
# shellcheck disable=SC2086
"$mpiexec" -n 2 $extra "$voltaic" run "$config" -o "$work/restarted" --restart "$work/four/checkpoint.h5" \
  >"$work/restarted.log"
grep -q "continuing from" "$work/restarted.log"
cmp "$work/four/timeseries.csv" "$work/restarted/timeseries.csv"
"$python" - "$work/two/fields.h5" "$work/four/fields.h5" <<'PY'
import sys
try:
    import h5py
except ImportError:
    print("h5py missing (tools/setup.sh installs python3-h5py): fields not compared")
    sys.exit(77)
import numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
count = 0
def same(name, obj):
    global count
    if isinstance(obj, h5py.Dataset):
        x, y = obj[()], b[name][()]
        assert x.shape == y.shape, f"{name}: shapes {x.shape} and {y.shape}"
        if x.dtype.kind == "f":
            assert np.array_equal(x.view(np.uint64 if x.itemsize == 8 else np.uint32),
                                  y.view(np.uint64 if y.itemsize == 8 else np.uint32)), f"{name} differs"
        else:
            assert np.array_equal(x, y), f"{name} differs"
        count += 1
a.visititems(same)
print("same bits:", count, "datasets")
PY
