#!/usr/bin/env python3
"""PyBaMM's 1C discharge of the published BPX example, for voltaic's BPX test.

Reads ``tests/data/bpx/nmc_pouch_cell_BPX_v1.json`` (the BPX repository's
NMC111|graphite 12.5 Ah pouch cell, converted to BPX 1.1.1) with
``pybamm.ParameterValues.create_from_bpx_obj`` and solves PyBaMM's DFN
(``pybamm.lithium_ion.DFN()``, isothermal) at its default mesh (20 cells per
domain and per particle) with its default solver (IDAKLU, default
tolerances): a constant-current discharge at 1C (12.5 A) from the initial
state until the lower cut-off, 2.7 V. Output every 10 s (``t_interp``); the
last row is the solver's root-found crossing of the cut-off.

One edit before PyBaMM reads the file: ``State / Initial conditions /
Initial state-of-charge`` (1) is removed. With it PyBaMM (>= 26.5) places
the initial state with its electrode-SOH solver, from the OCV limits; without
it PyBaMM starts, as BPX's stoichiometry window defines SOC 1, with the
negative electrode at its maximum stoichiometry and the positive at its
minimum. voltaic always uses BPX's window (docs/bpx.md), so the edit makes
both start from the same state; the rest of the file is used as it is.

Writes ``tests/data/pybamm/bpx_nmc_pouch_isothermal_1C.csv`` (columns
"Time [s]", "Voltage [V]", "Current [A]", "Discharge capacity [A.h]";
numbers as ``repr``), with the versions and this command in its header.
Needs ``pip install pybamm bpx``. Run from anywhere::

    python3 tools/pybamm_bpx_reference.py
"""

import argparse
import json
import shlex
import sys
from pathlib import Path

from pybamm_common import import_pybamm, package_version

SCRIPT = "pybamm_bpx_reference.py"
C_RATE = 1.0
OUTPUT_PERIOD_S = 10
POINTS = 20
COLUMNS = ("Time [s]", "Voltage [V]", "Current [A]", "Discharge capacity [A.h]")


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bpx", default=str(root / "tests" / "data" / "bpx" / "nmc_pouch_cell_BPX_v1.json"))
    parser.add_argument("--out", default=str(root / "tests" / "data" / "pybamm" / "bpx_nmc_pouch_isothermal_1C.csv"))
    args = parser.parse_args()
    pybamm, np = import_pybamm(SCRIPT)

    with open(args.bpx, encoding="utf-8") as f:
        obj = json.load(f)
    obj["State"]["Initial conditions"].pop("Initial state-of-charge", None)
    params = pybamm.ParameterValues.create_from_bpx_obj(obj)
    capacity = params["Nominal cell capacity [A.h]"]
    cutoff = params["Lower voltage cut-off [V]"]
    current = C_RATE * capacity
    params["Current function [A]"] = current

    model = pybamm.lithium_ion.DFN()
    var_pts = dict(model.default_var_pts)
    for key in ("x_n", "x_s", "x_p", "r_n", "r_p"):
        var_pts[key] = POINTS
    sim = pybamm.Simulation(model, parameter_values=params, var_pts=var_pts, solver=pybamm.IDAKLUSolver())
    t_end = 2.0 * 3600.0 / C_RATE
    t_grid = np.arange(0.0, t_end + 0.5 * OUTPUT_PERIOD_S, OUTPUT_PERIOD_S)
    solution = sim.solve(t_eval=[0.0, t_end], t_interp=t_grid)
    if "Minimum voltage" not in solution.termination:
        sys.exit(f"{SCRIPT}: the discharge ended with '{solution.termination}', not at the voltage cut-off")
    data = {name: np.asarray(solution[name].entries, dtype=float).ravel() for name in COLUMNS}

    versions = (
        f"pybamm.__version__: {pybamm.__version__} (bpx {package_version('bpx')}, pybammsolvers "
        f"{package_version('pybammsolvers')}, casadi {package_version('casadi')}, numpy {np.__version__}, "
        f"Python {sys.version.split()[0]})"
    )
    c_n = params["Initial concentration in negative electrode [mol.m-3]"]
    c_p = params["Initial concentration in positive electrode [mol.m-3]"]
    header = [
        f"PyBaMM reference data for voltaic, written by tools/{SCRIPT}; do not edit, rerun the command.",
        versions,
        "command: python3 " + " ".join(shlex.quote(a) for a in [f"tools/{SCRIPT}"] + sys.argv[1:]),
        f"case: constant-current discharge at 1C ({current:g} A) from the initial state until {cutoff:g} V, isothermal",
        "parameters: pybamm.ParameterValues.create_from_bpx_obj(tests/data/bpx/nmc_pouch_cell_BPX_v1.json without "
        "'Initial state-of-charge'); initial concentrations "
        f"{c_n!r} (negative) and {c_p!r} (positive) mol/m^3",
        f"model: pybamm.lithium_ion.DFN(); mesh {POINTS} cells per domain and per particle; IDAKLU default "
        f"tolerances; rows every {OUTPUT_PERIOD_S} s, the last at the cut-off",
    ]
    out = Path(args.out)
    with out.open("w", encoding="utf-8") as f:
        for line in header:
            f.write("# " + line + "\n")
        f.write(",".join(COLUMNS) + "\n")
        for i in range(len(data["Time [s]"])):
            f.write(",".join(repr(float(data[name][i])) for name in COLUMNS) + "\n")
    print(f"{SCRIPT}: wrote {out} ({len(data['Time [s]'])} rows, final voltage {data['Voltage [V]'][-1]:.6f} V, "
          f"capacity {data['Discharge capacity [A.h]'][-1]:.6f} A.h)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
