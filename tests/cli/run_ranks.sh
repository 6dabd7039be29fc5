#!/usr/bin/env bash
# voltaic run under mpirun: the cell's plane cut over 2 and over 4 ranks
# gives the same time series bytes and field bits (each rank writes its
# block's fields.rank-R.h5, put together here), and the 4-rank run's last
# checkpoint (pieces and a manifest) continues on 2 ranks with the same time
# series, and on 1.
# Usage: run_ranks.sh VOLTAIC MPIEXEC "EXTRA FLAGS" CONFIG WORK [PYTHON]
set -euo pipefail
voltaic=$1 mpiexec=$2 extra=$3 config=$4 work=$5 python=${6:-python3}
tools="$(cd "$(dirname "$0")/../../tools" && pwd)"
rm -rf "$work"
mkdir -p "$work"
# shellcheck disable=SC2086  # extra holds zero or more flags
"$mpiexec" -n 2 $extra "$voltaic" run "$config" -o "$work/two" >"$work/two.log"
# shellcheck disable=SC2086
"$mpiexec" -n 4 $extra "$voltaic" run "$config" -o "$work/four" >"$work/four.log"
grep -q "cut over 4 MPI ranks" "$work/four.log"
cmp "$work/two/timeseries.csv" "$work/four/timeseries.csv"
for f in fields.xdmf fields.rank-3.h5 checkpoint.h5; do test -f "$work/four/$f"; done
test "$(find "$work/four" -name 'checkpoint.g*.rank-*.h5' | wc -l)" = 4
test ! -e "$work/four/fields.h5"
# shellcheck disable=SC2086
"$mpiexec" -n 2 $extra "$voltaic" run "$config" -o "$work/restarted" --restart "$work/four/checkpoint.h5" \
  >"$work/restarted.log"
grep -q "continuing from" "$work/restarted.log"
cmp "$work/four/timeseries.csv" "$work/restarted/timeseries.csv"
"$voltaic" run "$config" -o "$work/alone" --restart "$work/four/checkpoint.h5" >"$work/alone.log"
grep -q "continuing from" "$work/alone.log"
"$python" - "$tools" "$work" <<'PY'
import sys
try:
    import h5py  # noqa: F401
except ImportError:
    print("h5py missing (tools/setup.sh installs python3-h5py): fields not compared")
    sys.exit(77)
import numpy as np
sys.path.insert(0, sys.argv[1])
from field_pieces import read_fields_dir
work = sys.argv[2]
a, attrs, _ = read_fields_dir(work + "/two")
b, _, _ = read_fields_dir(work + "/four")
alone, _, _ = read_fields_dir(work + "/alone")
assert int(attrs["nx"]) == 17 and int(attrs["ny"]) == 17, attrs
assert sorted(a) == sorted(b), (sorted(a), sorted(b))
for name, x in a.items():
    y = b[name]
    assert x.shape == y.shape, f"{name}: shapes {x.shape} and {y.shape}"
    if x.dtype.kind == "f":
        bits = np.uint64 if x.itemsize == 8 else np.uint32
        assert np.array_equal(x.view(bits), y.view(bits)), f"{name} differs"
    else:
        assert np.array_equal(x, y), f"{name} differs"
# The restart on one process (the serial Simulation, equal to rounding) ends where the cut runs end.
t = "/fields/temperature"
assert np.allclose(alone[t][-1], a[t][-1], rtol=0, atol=1e-6), np.abs(alone[t][-1] - a[t][-1]).max()
print("same bits:", len(a), "datasets of the pieces of 2 and 4 ranks; the restart alone agrees")
PY
