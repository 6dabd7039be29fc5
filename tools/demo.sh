#!/usr/bin/env bash
# Sets up a fresh machine, builds voltaic, and runs the demo: a 1D Chen2020
# (LG M50) cell discharged at 1C to 2.5 V with the lumped thermal model. It
# leaves demo-output/ with timeseries.csv, fields.h5 + fields.xdmf (open the
# .xdmf in ParaView), a checkpoint, and the plots timeseries.png and
# temperature_map.png.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh
cmake --preset release
cmake --build --preset release
./build/release/apps/voltaic info
./build/release/apps/voltaic run tests/data/configs/chen2020_1c.toml --output demo-output
# The plots need matplotlib and h5py (setup.sh installs Debian's, for /usr/bin/python3).
python=python3
"$python" -c "import matplotlib, h5py" 2>/dev/null || python=/usr/bin/python3
"$python" tools/plot.py demo-output
