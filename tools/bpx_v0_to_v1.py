#!/usr/bin/env python3
"""Converts a BPX 0.x parameter file to BPX 1.x, which voltaic reads.

The conversion is the bpx package's own (``bpx.convert_v0_to_v1``, bpx 1.1.1):
the initial and ambient temperatures and the initial electrolyte
concentration move from ``Parameterisation`` to the new ``State`` section,
``Initial state-of-charge`` becomes 1 (the cell full, as BPX 0.x files were
read), and the header says the new version. One addition: the converter drops
the lumped ``Thermal conductivity [W.m-1.K-1]`` of ``Cell`` (BPX 1.x has no
such field); this script keeps it under ``User-defined``, where BPX's own
error message for the old field sends it and where voltaic looks for it.
The result is validated with ``bpx.parse_bpx_obj`` before it is written.

Usage (needs ``pip install bpx``)::

    python3 tools/bpx_v0_to_v1.py tests/data/bpx/nmc_pouch_cell_BPX.json \\
        tests/data/bpx/nmc_pouch_cell_BPX_v1.json
"""

import argparse
import json
import sys
import warnings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="BPX 0.x JSON file")
    parser.add_argument("target", help="BPX 1.x JSON file to write")
    args = parser.parse_args()
    try:
        import bpx
    except ImportError:
        print("bpx_v0_to_v1: needs the bpx package (pip install bpx)", file=sys.stderr)
        return 1

    with open(args.source, encoding="utf-8") as f:
        old = json.load(f)
    if not bpx.is_legacy_bpx(old):
        print(f"bpx_v0_to_v1: {args.source} is already BPX {old['Header']['BPX']}", file=sys.stderr)
        return 1
    conductivity = old.get("Parameterisation", {}).get("Cell", {}).get("Thermal conductivity [W.m-1.K-1]")
    new = bpx.convert_v0_to_v1(old)
    if conductivity is not None:
        new["Parameterisation"].setdefault("User-defined", {})["Thermal conductivity [W.m-1.K-1]"] = conductivity
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bpx warns about its own STO/voltage tolerance checks
        bpx.parse_bpx_obj(json.loads(json.dumps(new)))
    with open(args.target, "w", encoding="utf-8") as f:
        json.dump(new, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"bpx_v0_to_v1: wrote {args.target} (BPX {new['Header']['BPX']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
