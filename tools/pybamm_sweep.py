#!/usr/bin/env python3
"""PyBaMM on a parameter sweep of independent cells: its rate, and reference
curves for chosen cells.

The sweep is that of voltaic's batch mode (issue 11): many independent 1D
Chen2020 cells, each a 1C discharge to 2.5 V with the lumped thermal model,
five parameters varied within +-20 % of Chen2020's values (``PARAMETERS``):
"Negative electrode thickness [m]", "Positive electrode thickness [m]",
"Negative particle radius [m]", "Positive particle radius [m]" and
"Separator porosity" (Chen2020's electrodes have porosity + active
material fraction = 1, so their porosity cannot grow alone). The set-up is
that of tools/pybamm_reference.py and tools/pybamm_benchmark.py:
``pybamm.lithium_ion.DFN(options={"thermal": "lumped"})``,
``pybamm.ParameterValues("Chen2020")`` from the parameter
set's own initial state, PyBaMM's default mesh (20 cells per domain and per
particle), ``pybamm.IDAKLUSolver()`` at its default tolerances (rtol 1e-4,
atol 1e-6, one thread). Every cell is discharged at the same current, 1C of
Chen2020's nominal capacity (5 A, whatever the cell's own capacity), as
pybamm_benchmark.py's "current" protocol: "Current function [A]" = 5 A,
``solve(t_eval=[0, 1.3 h], t_interp=every 10 s)``, ended by Chen2020's
"Minimum voltage [V]" event (2.5 V).

Modes:

* ``--rate N``: times PyBaMM on N cells drawn uniformly within +-20 % of
  Chen2020's values (``--seed``, ``--spread``), one thread (IDAKLU's
  default; OMP/OpenBLAS/MKL threads are also set to 1 unless already set),
  in the ways a PyBaMM user would run such a sweep (``--methods``):

  - ``rebuild``: the DFN model is made once; per cell a copy of the
    parameter values with the cell's values set, a new ``pybamm.Simulation``
    and ``solve`` (which processes the parameters and discretises: a build
    per cell). Exact for every parameter.
  - ``inputs``: the parameters PyBaMM 26.10 takes as input parameters with
    the same result as a rebuild (the two particle radii and the separator
    porosity; the radii need ``pybamm.SymbolicUniform1DSubMesh`` on the particle
    domains) are set to ``"[input]"``; the model is built once and each cell
    is ``sim.solve(..., inputs={...})``. The thicknesses stay at Chen2020's
    values: this is the rate of a sweep of the other three only.
  - ``inputs-all``: all five as inputs; the thicknesses need
    ``SymbolicUniform1DSubMesh`` on the three x domains as well. PyBaMM runs
    it and the curves follow the thicknesses, but its discretisation on a
    symbolic x mesh is not the standard one: the voltage differs from a
    rebuild with the same values by about 0.5-0.8 mV (a step in the
    electrolyte potential at the electrode/separator interfaces), even at
    Chen2020's own thicknesses.

  Each inputs method is timed twice on the same built model: one
  ``solve`` per cell (per-cell times, median), and one ``solve`` with the
  list of the N input dicts (IDAKLU solves them in turn on one thread; the
  fastest way PyBaMM offers, no per-cell time). Its set-up is the build plus
  a first solve at Chen2020's values (the solver's own set-up: CasADi
  functions, Jacobian), untimed per cell. For ``rebuild`` the set-up is
  the model and the parameter values; each cell's time includes its build.
  One untimed warm-up discharge (Chen2020's values) comes first.

  Each inputs method is checked against a rebuild with the same values on
  the first ``--check`` cells (largest voltage difference over the 10 s
  rows both reach, and the difference of the cut-off times), and against
  the solution at Chen2020's values (that the inputs changed the curve).
  A method is "exact" when the voltage matches the rebuild to
  ``--match-tol`` (1e-5 V). ``cells_per_s`` is that of the fastest exact
  method that varies all the parameters; the others are in ``variants``.

  Printed: a table, then one JSON line (also appended to ``--json FILE``)
  with ``cells_per_s``, ``median_cell_s``, ``setup_s`` per method, the
  checks, the host CPU and the load average (the rate depends on what else
  the machine runs).

* ``--cells CSV --out DIR``: reference curves. The CSV's first line names
  the columns: PyBaMM parameter names, and optionally ``cell`` (an index
  carried into the file names; default the row number); lines starting with
  ``#`` are comments. Each row is a cell, run with its values set directly
  in the parameter values (no input parameters: PyBaMM's standard mesh) and
  written as ``DIR/cell_<cell>.csv``: comment lines (``#``: versions,
  command, the cell's parameter values, model, mesh, solver), the column
  names ``Time [s],Voltage [V],Current [A],Volume-averaged cell temperature
  [K]``, then rows every 10 s from t = 0 (IDAKLU's ``t_interp``) and a last
  row at the solver's root-found crossing of 2.5 V, numbers written with
  ``repr``, as tools/pybamm_reference.py writes tests/data/pybamm.
  ``DIR/summary.json`` gets the final time, voltage, discharge capacity,
  temperature rise, termination and IDAKLU step count of each cell, and
  ``DIR/README.md`` says how the files were made.

* ``--draw N --draw-out CSV``: writes N cells drawn as ``--rate`` draws them
  (``--seed``, ``--spread``; values rounded to 6 significant digits, the
  exact values then used) as a cells CSV for ``--cells``.

The five sweep cells of tests/data/pybamm/sweep, from the repository root::

    python3 tools/pybamm_sweep.py --draw 5 --seed 11 \\
        --draw-out tests/data/pybamm/sweep/cells.csv
    python3 tools/pybamm_sweep.py --cells tests/data/pybamm/sweep/cells.csv \\
        --out tests/data/pybamm/sweep

The rate of a 50-cell sweep::

    python3 tools/pybamm_sweep.py --rate 50 --json sweep.jsonl
"""

import argparse
import csv
import json
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from pybamm_common import (  # noqa: E402
    host_cpu_name,
    import_pybamm,
    package_version,
    print_report,
)

SCRIPT = "pybamm_sweep.py"
PARAMETER_SET = "Chen2020"
PARAMETERS = (
    "Negative electrode thickness [m]",
    "Positive electrode thickness [m]",
    "Negative particle radius [m]",
    "Positive particle radius [m]",
    "Separator porosity",
)
THERMAL = "lumped"
C_RATE = 1.0
CUTOFF_V = 2.5
T_END_S = 1.3 * 3600.0  # the voltage cut-off always comes first
OUTPUT_PERIOD_S = 10.0  # t_interp spacing (pybamm_reference.py's)
SPREAD = 0.2
SIGNIFICANT_DIGITS = 6
COLUMNS = (
    "Time [s]",
    "Voltage [V]",
    "Current [A]",
    "Volume-averaged cell temperature [K]",
)
CELL_COLUMN = "cell"
X_DOMAINS = ("negative electrode", "separator", "positive electrode")
# Parameters that set a length of the geometry: as input parameters they
# need PyBaMM's SymbolicUniform1DSubMesh on these domains.
GEOMETRIC = {
    "Negative electrode thickness [m]": X_DOMAINS,
    "Separator thickness [m]": X_DOMAINS,
    "Positive electrode thickness [m]": X_DOMAINS,
    "Negative particle radius [m]": ("negative particle",),
    "Positive particle radius [m]": ("positive particle",),
}
# Inputs whose solution matches a rebuild (checked by --rate every run).
EXACT_INPUTS = (
    "Negative particle radius [m]",
    "Positive particle radius [m]",
    "Separator porosity",
)
METHODS = ("rebuild", "inputs", "inputs-all")
MATCH_TOL_V = 1e-5
MESH_POINTS = 20


def seconds(timer_time):
    """A PyBaMM TimerTime (or a number) in seconds."""
    return float(getattr(timer_time, "value", timer_time))


def versions(pybamm, np):
    return {
        "pybamm_version": pybamm.__version__,
        "pybammsolvers_version": package_version("pybammsolvers"),
        "casadi_version": package_version("casadi"),
        "numpy_version": np.__version__,
        "python_version": sys.version.split()[0],
    }


def command_line():
    return "python3 " + shlex.join(sys.argv)


# Cells -----------------------------------------------------------------------


def draw_cells(np, base, count, seed, spread, names=PARAMETERS):
    """`count` cells, each parameter uniform within +-spread of its base
    value (numpy's default_rng(seed), cell by cell, in `names` order),
    rounded to SIGNIFICANT_DIGITS."""
    rng = np.random.default_rng(seed)
    cells = []
    for _ in range(count):
        factors = rng.uniform(1.0 - spread, 1.0 + spread, size=len(names))
        cells.append(
            {
                name: float(f"{base[name] * f:.{SIGNIFICANT_DIGITS}g}")
                for name, f in zip(names, factors)
            }
        )
    return cells


def write_cells(path, cells, comments):
    names = list(cells[0])
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="\n") as f:
        for line in comments:
            f.write(f"# {line}\n")
        f.write(",".join([CELL_COLUMN] + names) + "\n")
        for index, cell in enumerate(cells):
            f.write(
                ",".join([str(index)] + [repr(cell[n]) for n in names]) + "\n"
            )


def read_cells(path):
    """[(index, {parameter: value})] from a cells CSV."""
    with open(path, newline="") as f:
        lines = [line for line in f if line.strip() and line[0] != "#"]
    rows = list(csv.reader(lines))
    if not rows:
        sys.exit(f"{SCRIPT}: {path} has no header line")
    header = [name.strip() for name in rows[0]]
    names = [name for name in header if name != CELL_COLUMN]
    if not names or len(set(header)) != len(header):
        sys.exit(f"{SCRIPT}: {path}: need distinct parameter columns")
    cells = []
    for number, row in enumerate(rows[1:]):
        if len(row) != len(header):
            sys.exit(
                f"{SCRIPT}: {path}: row {number + 1} has {len(row)} fields"
            )
        fields = dict(zip(header, (field.strip() for field in row)))
        index = fields.pop(CELL_COLUMN, str(number))
        if not index.replace("-", "_").replace("_", "").isalnum():
            sys.exit(f"{SCRIPT}: {path}: cell index '{index}' is not a name")
        cells.append((index, {n: float(fields[n]) for n in names}))
    if len({index for index, _ in cells}) != len(cells):
        sys.exit(f"{SCRIPT}: {path}: cell indices repeat")
    return cells


# PyBaMM runs -----------------------------------------------------------------


class Sweep:
    """The sweep's model, parameter values, mesh and solver."""

    def __init__(self, pybamm, np):
        self.pybamm = pybamm
        self.np = np
        self.base = pybamm.ParameterValues(PARAMETER_SET)
        self.current = C_RATE * self.base["Nominal cell capacity [A.h]"]
        self.base["Current function [A]"] = self.current
        self.t_interp = np.arange(
            0.0, T_END_S + 0.5 * OUTPUT_PERIOD_S, OUTPUT_PERIOD_S
        )

    def model(self):
        return self.pybamm.lithium_ion.DFN(options={"thermal": THERMAL})

    def var_pts(self, model):
        var_pts = dict(model.default_var_pts)
        var_pts.update(
            {k: MESH_POINTS for k in ("x_n", "x_s", "x_p", "r_n", "r_p")}
        )
        return var_pts

    def simulation(self, model, values=None, inputs=()):
        """A Simulation with `values` set directly and the parameters
        `inputs` as input parameters (symbolic meshes where they need
        them)."""
        pybamm = self.pybamm
        params = self.base.copy()
        if values:
            params.update(values)
        submesh_types = dict(model.default_submesh_types)
        for name in inputs:
            params[name] = "[input]"
            for domain in GEOMETRIC.get(name, ()):
                submesh_types[domain] = pybamm.SymbolicUniform1DSubMesh
        return pybamm.Simulation(
            model,
            parameter_values=params,
            var_pts=self.var_pts(model),
            submesh_types=submesh_types,
            solver=pybamm.IDAKLUSolver(),
        )

    def solve(self, sim, inputs=None):
        return sim.solve(
            t_eval=[0.0, T_END_S], t_interp=self.t_interp, inputs=inputs
        )

    def rebuild(self, model, values):
        return self.solve(self.simulation(model, values))


def ended_at_cutoff(solution):
    return "Minimum voltage" in solution.termination


def voltage(solution):
    return solution["Voltage [V]"].entries


def final_time(solution):
    return float(solution["Time [s]"].entries[-1])


def curve_difference(np, a, b):
    """Largest |V_a - V_b| over the 10 s rows both reach (the last, cut-off
    row of each left out), and the difference of their cut-off times."""
    n = min(len(voltage(a)), len(voltage(b))) - 1
    dv = float(np.max(np.abs(voltage(a)[:n] - voltage(b)[:n])))
    return {"max_abs_dV_V": dv, "dt_end_s": final_time(a) - final_time(b)}


# --rate ----------------------------------------------------------------------


def time_rebuild(sweep, cells):
    t0 = time.perf_counter()
    model = sweep.model()
    setup = time.perf_counter() - t0
    times, solutions = [], []
    for cell in cells:
        t0 = time.perf_counter()
        solution = sweep.rebuild(model, cell)
        times.append(time.perf_counter() - t0)
        solutions.append(solution)
    return {
        "setup_s": setup,
        "cell_s": times,
        "solutions": solutions,
        # Of each cell's time: IDAKLU's own set-up and the integration (the
        # rest is parameter processing, discretisation and output).
        "median_solver_set_up_s": statistics.median(
            seconds(s.set_up_time) for s in solutions
        ),
        "median_integration_s": statistics.median(
            seconds(s.integration_time) for s in solutions
        ),
    }


def time_inputs(sweep, cells, names):
    """Build once with `names` as inputs; a first solve at Chen2020's values
    (set-up); then one solve per cell, then one solve for the list."""
    base_inputs = {name: sweep.base[name] for name in names}
    cell_inputs = [{name: cell[name] for name in names} for cell in cells]
    t0 = time.perf_counter()
    sim = sweep.simulation(sweep.model(), inputs=names)
    sim.build()
    t1 = time.perf_counter()
    at_base = sweep.solve(sim, base_inputs)
    t2 = time.perf_counter()
    times, solutions = [], []
    for inputs in cell_inputs:
        t0_cell = time.perf_counter()
        solutions.append(sweep.solve(sim, inputs))
        times.append(time.perf_counter() - t0_cell)
    t3 = time.perf_counter()
    listed = sweep.solve(sim, cell_inputs)
    list_s = time.perf_counter() - t3
    same = all(
        final_time(a) == final_time(b) for a, b in zip(listed, solutions)
    )
    return {
        "setup_s": t2 - t0,
        "build_s": t1 - t0,
        "first_solve_s": t2 - t1,
        "first_solve_solver_set_up_s": seconds(at_base.set_up_time),
        "cell_s": times,
        "list_s": list_s,
        "list_same_as_loop": same,
        "solutions": solutions,
        "at_base": at_base,
    }


def rate_summary(setup_s, cell_s):
    total = setup_s + sum(cell_s)
    return {
        "cells_per_s": len(cell_s) / sum(cell_s),
        "median_cell_s": statistics.median(cell_s),
        "min_cell_s": min(cell_s),
        "max_cell_s": max(cell_s),
        "setup_s": setup_s,
        "total_s": total,
        "cells_per_s_including_setup": len(cell_s) / total,
    }


def check_inputs(np, sweep, run, cells, names, reference, count):
    """The inputs method against rebuilds with the same values, and against
    its own solution at Chen2020's values."""
    model = sweep.model()
    checks = []
    for i in range(min(count, len(cells))):
        values = {name: cells[i][name] for name in names}
        ref = reference[i] if reference else sweep.rebuild(model, values)
        checks.append(
            {
                "cell": i,
                "vs_rebuild": curve_difference(np, run["solutions"][i], ref),
                "vs_chen2020_values": curve_difference(
                    np, run["solutions"][i], run["at_base"]
                ),
            }
        )
    at_base_rebuild = sweep.rebuild(model, None)
    return {
        "cells": checks,
        "max_abs_dV_vs_rebuild_V": max(
            c["vs_rebuild"]["max_abs_dV_V"] for c in checks
        ),
        "max_abs_dt_end_vs_rebuild_s": max(
            abs(c["vs_rebuild"]["dt_end_s"]) for c in checks
        ),
        "min_of_max_abs_dV_vs_chen2020_values_V": min(
            c["vs_chen2020_values"]["max_abs_dV_V"] for c in checks
        ),
        "at_chen2020_values_vs_rebuild": curve_difference(
            np, run["at_base"], at_base_rebuild
        ),
    }


def rate_mode(pybamm, np, args):
    sweep = Sweep(pybamm, np)
    cells = draw_cells(np, sweep.base, args.rate, args.seed, args.spread)
    load_start = os.getloadavg()
    sweep.rebuild(sweep.model(), None)  # warm-up: imports, CasADi first use

    variants = []
    rebuild_solutions = None
    if "rebuild" in args.methods:
        run = time_rebuild(sweep, cells)
        rebuild_solutions = run["solutions"]
        variants.append(
            {
                "name": "rebuild per cell: Simulation + solve, values set "
                "directly",
                "method": "rebuild",
                "varied": list(PARAMETERS),
                "exact": True,
                "setup_what": "DFN model, once",
                **rate_summary(run["setup_s"], run["cell_s"]),
                "median_cell_solver_set_up_s": run["median_solver_set_up_s"],
                "median_cell_integration_s": run["median_integration_s"],
                "ended_at_cutoff": sum(
                    ended_at_cutoff(s) for s in run["solutions"]
                ),
                "final_time_s": {
                    "min": min(final_time(s) for s in run["solutions"]),
                    "max": max(final_time(s) for s in run["solutions"]),
                },
            }
        )
    for method, names in (
        ("inputs", EXACT_INPUTS),
        ("inputs-all", PARAMETERS),
    ):
        if method not in args.methods:
            continue
        run = time_inputs(sweep, cells, names)
        reference = rebuild_solutions if names == PARAMETERS else None
        check = check_inputs(
            np, sweep, run, cells, names, reference, args.check
        )
        exact = check["max_abs_dV_vs_rebuild_V"] <= args.match_tol
        symbolic = sorted(
            {d for n in names for d in GEOMETRIC.get(n, ())},
            key=lambda d: (d not in X_DOMAINS, d),
        )
        common = {
            "varied": list(names),
            "fixed_at_chen2020": [p for p in PARAMETERS if p not in names],
            "symbolic_submesh_domains": symbolic,
            "exact": exact,
            "check": check,
            "setup_what": "Simulation + build with inputs, then a first "
            "solve at Chen2020's values (solver set-up)",
            "build_s": run["build_s"],
            "first_solve_s": run["first_solve_s"],
            "first_solve_solver_set_up_s": run["first_solve_solver_set_up_s"],
            "ended_at_cutoff": sum(
                ended_at_cutoff(s) for s in run["solutions"]
            ),
        }
        variants.append(
            {
                "name": f"{method}: one sim.solve(inputs=...) per cell",
                "method": method,
                **rate_summary(run["setup_s"], run["cell_s"]),
                **common,
            }
        )
        list_cells = [run["list_s"] / len(cells)] * len(cells)
        variants.append(
            {
                "name": f"{method}: one sim.solve(inputs=[N dicts])",
                "method": method + " (list)",
                **rate_summary(run["setup_s"], list_cells),
                "median_cell_s": run["list_s"] / len(cells),
                "min_cell_s": None,
                "max_cell_s": None,
                "list_solve_s": run["list_s"],
                "list_same_as_loop": run["list_same_as_loop"],
                **common,
            }
        )

    complete = [
        v for v in variants if v["exact"] and v["varied"] == list(PARAMETERS)
    ]
    best = max(complete, key=lambda v: v["cells_per_s"], default=None)
    fastest = max(variants, key=lambda v: v["cells_per_s"])
    report = {
        "benchmark": "sweep",
        "device": "cpu",
        "backend": "pybamm",
        "precision": "double",
        "threads": 1,
        "cells": args.rate,
        "seed": args.seed,
        "spread": args.spread,
        "parameters": list(PARAMETERS),
        "protocol": f"{sweep.current:g} A ({C_RATE:g}C of the nominal "
        f"capacity) until {CUTOFF_V:g} V, t_eval [0, {T_END_S:g}] s, "
        f"t_interp every {OUTPUT_PERIOD_S:g} s",
        "thermal": THERMAL,
        "command_line": command_line(),
        "cells_per_s": best["cells_per_s"] if best else None,
        "median_cell_s": best["median_cell_s"] if best else None,
        "setup_s": best["setup_s"] if best else None,
        "headline_method": best["method"] if best else None,
        "fastest_method": fastest["method"],
        "fastest_cells_per_s": fastest["cells_per_s"],
        "variants": variants,
        "notes": [],
        "host_cpu": host_cpu_name(),
        "host_hardware_threads": os.cpu_count(),
        "load_average_start": load_start,
        "load_average_end": os.getloadavg(),
        "parameter_set": PARAMETER_SET,
        "model": f'pybamm.lithium_ion.DFN(options={{"thermal": "{THERMAL}"}})',
        "mesh_points": MESH_POINTS,
        "solver": {"name": "IDAKLUSolver", "rtol": 1e-4, "atol": 1e-6},
        "match_tol_V": args.match_tol,
        **versions(pybamm, np),
    }
    for v in variants:
        if v["ended_at_cutoff"] != args.rate:
            report["notes"].append(
                f"{v['method']}: {args.rate - v['ended_at_cutoff']} cells "
                "did not end at the voltage cut-off"
            )
        if "check" in v and not v["exact"]:
            report["notes"].append(
                f"{v['method']}: differs from a rebuild by up to "
                f"{1e3 * v['check']['max_abs_dV_vs_rebuild_V']:.3f} mV "
                f"(at Chen2020's own values: "
                f"{1e3 * v['check']['at_chen2020_values_vs_rebuild']['max_abs_dV_V']:.3f}"
                " mV): not the standard discretisation"
            )

    print(
        f"PyBaMM {pybamm.__version__} DFN, {PARAMETER_SET}, {args.rate} cells "
        f"(+-{100 * args.spread:g} %, seed {args.seed}), {report['protocol']}"
        f", {THERMAL}, one thread"
    )
    print(
        f"  host: {report['host_cpu']} ({report['host_hardware_threads']} "
        f"hardware threads), load average {load_start[0]:.2f} at start, "
        f"{report['load_average_end'][0]:.2f} at end\n"
    )
    print(
        f"{'method':<40}{'cells/s':>9}{'median ms':>11}{'set-up s':>10}"
        f"{'max dV vs rebuild':>19}"
    )
    for v in variants:
        check = v.get("check")
        dv = (
            f"{1e3 * check['max_abs_dV_vs_rebuild_V']:.3g} mV"
            if check
            else "-"
        )
        print(
            f"{v['name'][:39]:<40}{v['cells_per_s']:9.2f}"
            f"{1e3 * v['median_cell_s']:11.1f}{v['setup_s']:10.2f}{dv:>19}"
        )
    print_report(report, args.json)


# --cells ---------------------------------------------------------------------


def write_curve(path, header_lines, data):
    with open(path, "w", newline="\n") as f:
        for line in header_lines:
            f.write(f"# {line}\n")
        f.write(",".join(COLUMNS) + "\n")
        for row in zip(*(data[name] for name in COLUMNS)):
            f.write(",".join(repr(float(v)) for v in row) + "\n")


def parameter_text(values):
    return "; ".join(f'"{name}" = {value!r}' for name, value in values.items())


def cells_mode(pybamm, np, args):
    sweep = Sweep(pybamm, np)
    cells = read_cells(args.cells)
    for _, values in cells:
        for name in values:
            if name not in sweep.base.keys():
                sys.exit(f"{SCRIPT}: '{name}' is not a {PARAMETER_SET} value")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    info = versions(pybamm, np)
    command = command_line()
    model = sweep.model()
    summary = {
        "generator": SCRIPT,
        "command": command,
        **info,
        "model": f'pybamm.lithium_ion.DFN(options={{"thermal": "{THERMAL}"}})',
        "parameter_set": PARAMETER_SET,
        "current_A": sweep.current,
        "mesh_points": MESH_POINTS,
        "solver": {"name": "IDAKLUSolver", "rtol": 1e-4, "atol": 1e-6},
        "cells": {},
    }
    for index, values in cells:
        solution = sweep.rebuild(model, values)
        if not ended_at_cutoff(solution):
            sys.exit(
                f"{SCRIPT}: cell {index} ended with "
                f"'{solution.termination}', not at the voltage cut-off"
            )
        data = {
            name: np.asarray(solution[name].entries, dtype=float).ravel()
            for name in COLUMNS
        }
        if not np.all(np.diff(data["Time [s]"]) > 0):
            sys.exit(f"{SCRIPT}: cell {index}: times do not increase")
        t_end = data["Time [s]"][-1]
        temperature = data["Volume-averaged cell temperature [K]"]
        header = [
            f"PyBaMM reference data for voltaic, written by tools/{SCRIPT}; "
            "do not edit, rerun the command.",
            f"pybamm.__version__: {info['pybamm_version']} (pybammsolvers "
            f"{info['pybammsolvers_version']}, casadi "
            f"{info['casadi_version']}, numpy {info['numpy_version']}, "
            f"Python {info['python_version']})",
            f"command: {command}",
            f"cell: {index} of {Path(args.cells).name}: constant-current "
            f"discharge at {sweep.current:g} A (1C of Chen2020's nominal "
            f"capacity) from the initial state until {CUTOFF_V:g} V, "
            f"{THERMAL}",
            f'parameters: pybamm.ParameterValues("{PARAMETER_SET}") with '
            + parameter_text(values),
            f'model: pybamm.lithium_ion.DFN(options={{"thermal": '
            f'"{THERMAL}"}})',
            "initial state: the parameter set's own (no initial_soc), as "
            "tests/data/pybamm/discharge_lumped_1C.csv",
            f"mesh: x_n=x_s=x_p=r_n=r_p={MESH_POINTS}: uniform "
            "finite-volume cells per domain and per particle (PyBaMM's "
            "default)",
            "solver: pybamm.IDAKLUSolver(rtol=0.0001, atol=1e-06), PyBaMM's "
            "default solver at its default tolerances",
            "signs: Current [A] > 0 is discharge",
            f"rows: every {OUTPUT_PERIOD_S:g} s from t = 0 (IDAKLU "
            "t_interp), then a last row at the solver's root-found crossing "
            f"of the {CUTOFF_V:g} V cut-off (t = {t_end:.6f} s)",
            f"termination: {solution.termination}",
            f"row count: {len(data['Time [s]'])}",
        ]
        write_curve(out / f"cell_{index}.csv", header, data)
        stats = getattr(solution, "solver_statistics", None)
        summary["cells"][index] = {
            "parameters": values,
            "final_time_s": float(t_end),
            "final_voltage_V": float(data["Voltage [V]"][-1]),
            "discharge_capacity_Ah": float(
                solution["Discharge capacity [A.h]"].entries[-1]
            ),
            "temperature_rise_K": float(temperature[-1] - temperature[0]),
            "final_temperature_K": float(temperature[-1]),
            "termination": solution.termination,
            "rows": len(data["Time [s]"]),
            "idaklu_steps": getattr(stats, "number_of_steps", None),
        }
        c = summary["cells"][index]
        print(
            f"cell {index}: {c['final_time_s']:.3f} s, "
            f"{c['discharge_capacity_Ah']:.6f} A.h, "
            f"+{c['temperature_rise_K']:.4f} K -> {out}/cell_{index}.csv"
        )
    with open(out / "summary.json", "w", newline="\n") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    write_readme(out, args, summary, cells)


def write_readme(out, args, summary, cells):
    names = list(cells[0][1])
    with open(args.cells) as f:
        made = [line[1:].strip() for line in f if line.startswith("#")]
    lines = [
        "# PyBaMM reference curves for cells of a parameter sweep",
        "",
        f"Written by `tools/{SCRIPT}`; do not edit, rerun the command. "
        "PyBaMM's code is not in this repository.",
        "",
        f"- Command (from the repository root): `{summary['command']}`",
        f"- PyBaMM {summary['pybamm_version']} (pybammsolvers "
        f"{summary['pybammsolvers_version']}, casadi "
        f"{summary['casadi_version']}, numpy {summary['numpy_version']}, "
        f"Python {summary['python_version']})",
        f"- Each cell: {summary['model']}, "
        f'`pybamm.ParameterValues("{PARAMETER_SET}")` with the cell\'s '
        "values set directly (PyBaMM's standard mesh, no input parameters), "
        f"{MESH_POINTS} cells per domain and per particle, IDAKLU at its "
        f"default tolerances; {summary['current_A']:g} A (1C of the nominal "
        f"capacity, the same for every cell) from Chen2020's initial state "
        f"until {CUTOFF_V:g} V.",
        f"- `{Path(args.cells).name}`: the cells"
        + (f" ({' '.join(made)})" if made else "")
        + "; "
        f"`cell_<cell>.csv`: columns `{','.join(COLUMNS)}`, rows every "
        f"{OUTPUT_PERIOD_S:g} s then the cut-off crossing, numbers in "
        "`repr`, comment lines `#` first (as ../README.md describes); "
        "`summary.json`: final time, voltage, capacity, temperature rise, "
        "IDAKLU steps per cell.",
        "",
        "| cell | " + " | ".join(names) + " | final time [s] | capacity "
        "[A.h] | temperature rise [K] |",
        "|---" * (len(names) + 4) + "|",
    ]
    for index, values in cells:
        c = summary["cells"][index]
        lines.append(
            f"| {index} | "
            + " | ".join(f"{values[n]:g}" for n in names)
            + f" | {c['final_time_s']:.3f} | "
            f"{c['discharge_capacity_Ah']:.6f} | "
            f"{c['temperature_rise_K']:.4f} |"
        )
    with open(out / "README.md", "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


# --draw ----------------------------------------------------------------------


def draw_mode(pybamm, np, args):
    base = pybamm.ParameterValues(PARAMETER_SET)
    cells = draw_cells(np, base, args.draw, args.seed, args.spread)
    write_cells(
        args.draw_out,
        cells,
        [
            f"{args.draw} cells of a sweep, written by tools/{SCRIPT}: each "
            f"value uniform within +-{100 * args.spread:g} % of "
            f"{PARAMETER_SET}'s (numpy default_rng({args.seed})), rounded to "
            f"{SIGNIFICANT_DIGITS} significant digits; command: "
            + command_line(),
        ],
    )
    print(f"{len(cells)} cells -> {args.draw_out}")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "--rate", type=int, metavar="N", help="time PyBaMM on N cells"
    )
    mode.add_argument(
        "--cells", metavar="CSV", help="reference curves of these cells"
    )
    mode.add_argument(
        "--draw", type=int, metavar="N", help="write N random cells"
    )
    parser.add_argument("--out", metavar="DIR", help="--cells: output folder")
    parser.add_argument("--draw-out", metavar="CSV", help="--draw: the file")
    parser.add_argument(
        "--seed", type=int, default=11, help="random seed (default 11)"
    )
    parser.add_argument(
        "--spread",
        type=float,
        default=SPREAD,
        help="relative half-width of the uniform draw (default 0.2)",
    )
    parser.add_argument(
        "--methods",
        nargs="+",
        choices=METHODS,
        default=list(METHODS),
        help="--rate: the ways to run the sweep (default all)",
    )
    parser.add_argument(
        "--check",
        type=int,
        default=3,
        help="--rate: inputs runs compared with a rebuild (default 3 cells)",
    )
    parser.add_argument(
        "--match-tol",
        type=float,
        default=MATCH_TOL_V,
        help="--rate: largest voltage difference from a rebuild for an "
        "inputs method to count as exact (default 1e-5 V)",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="--rate: also append the JSON line"
    )
    args = parser.parse_args()
    if not 0.0 < args.spread < 1.0 or args.check < 1:
        parser.error("0 < --spread < 1 and --check >= 1 are required")
    if args.cells and not args.out:
        parser.error("--cells needs --out DIR")
    if args.draw is not None and (not args.draw_out or args.draw < 1):
        parser.error("--draw N needs N >= 1 and --draw-out CSV")
    if args.rate is not None and args.rate < 1:
        parser.error("--rate N needs N >= 1")

    pybamm, np = import_pybamm(SCRIPT)
    if args.rate is not None:
        rate_mode(pybamm, np, args)
    elif args.cells:
        cells_mode(pybamm, np, args)
    else:
        draw_mode(pybamm, np, args)


if __name__ == "__main__":
    main()
