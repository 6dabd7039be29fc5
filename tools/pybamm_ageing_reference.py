#!/usr/bin/env python3
"""Produces PyBaMM reference data for SEI growth over many cycles.

Every case is PyBaMM's DFN model (``pybamm.lithium_ion.DFN(options)``) with
the Chen2020 parameter set (which holds SEI parameters), solved by PyBaMM's
default solver (IDAKLU) at its default tolerances on PyBaMM's default mesh of
20 finite-volume cells per domain and per particle (the mesh of
tools/pybamm_reference.py), from the parameter set's own initial state
(no initial_soc), 298.15 K ambient and initial temperature. Each case runs
``CYCLES`` (10) cycles of the experiment

    "Discharge at 1C until 2.5 V", "Rest for 10 minutes",
    "Charge at 0.5C until 4.2 V", "Hold at 4.2 V until C/20",
    "Rest for 10 minutes"

with rows every 10 s within each step (the experiment's ``period``), plus the
solver's root-found end of each step.

Cases (``--cases`` takes names or shell patterns):

* ``sei_reaction_limited``: {"SEI": "reaction limited"} (PyBaMM then sets
  "SEI film resistance" to "distributed"), nominal parameters;
* ``sei_reaction_limited_fast``: the same with "SEI reaction exchange current
  density [A.m-2]" x 100, so that the fade shows in 10 cycles;
* ``sei_reaction_limited_fast_nofilm``: as ``_fast`` with
  "SEI film resistance": "none";
* ``sei_reaction_limited_fast_lumped``: as ``_fast`` with "thermal": "lumped"
  and "SEI growth activation energy [J.mol-1]" = 37000 where Chen2020's is 0;
* ``sei_solvent_diffusion_limited``, ``sei_interstitial_diffusion_limited``,
  ``sei_ec_reaction_limited``: the other SEI growth options, nominal
  parameters.

Written into ``--out-dir`` (default tests/data/pybamm/ageing):

* ``<case>_summary.csv``: one row per cycle: PyBaMM's summary variables
  (``Solution.summary_variables``, the cycle's last state and the eSOH
  capacity), and from the cycle's own solution the first step's discharge
  capacity, the X-averaged negative SEI thickness and the loss of capacity to
  negative SEI at the cycle's end;
* ``<case>_cycle1.csv``, ``<case>_cycle10.csv``: time from the cycle's start,
  voltage, current and step index of the first and last cycles at PyBaMM's
  output rows (no interpolation by this script);
* ``<case>_info.json``: options (as asked and as PyBaMM resolved them),
  parameter changes, step terminations of every cycle, checks, the wall time
  of the solve (the one number that differs from run to run) and, for a case
  PyBaMM could not run, the error;
* ``sei_parameters.json``: every Chen2020 parameter whose name holds "SEI" or
  that an SEI case needs beyond the SEI-free DFN, and every case's resolved
  options;
* ``README.md``: what each file is, the command, the headline numbers.

Run from the repository root with a Python that has PyBaMM 26.10.1.1::

    python3 tools/pybamm_ageing_reference.py

A ``--cases`` run rewrites the files of those cases only; the README is
rebuilt from every ``<case>_info.json`` in the folder. Each case takes
seconds to a few minutes on one core; the solver runs single-threaded.
"""

import argparse
import fnmatch
import json
import os
import shlex
import sys
import time
from pathlib import Path

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from pybamm_common import (  # noqa: E402
    host_cpu_name,
    import_pybamm,
    package_version,
)

SCRIPT = "pybamm_ageing_reference.py"
PARAMETER_SET = "Chen2020"
CYCLES = 10
PERIOD_S = 10
POINTS = 20
PROTOCOL = (
    "Discharge at 1C until 2.5 V",
    "Rest for 10 minutes",
    "Charge at 0.5C until 4.2 V",
    "Hold at 4.2 V until C/20",
    "Rest for 10 minutes",
)
J0_SEI = "SEI reaction exchange current density [A.m-2]"
FAST_FACTOR = 100.0
E_SEI = "SEI growth activation energy [J.mol-1]"
E_SEI_FALLBACK = 37000.0
# PyBaMM 26.10.1.1 names (there is no "... total SEI thickness ..." variable).
THICKNESS = "X-averaged negative SEI thickness [m]"
SEI_CAPACITY = "Loss of capacity to negative SEI [A.h]"
SEI_CURRENT = (
    "X-averaged negative electrode SEI interfacial current density [A.m-2]"
)
TEMPERATURE = "X-averaged cell temperature [K]"
# Summary variables written per cycle, as PyBaMM names them (the
# "Change in ..." ones are differences of these; "Loss of lithium inventory,
# including electrolyte [%]" has a comma in its name and is left out of the
# CSV: it is in <case>_info.json).
SUMMARY_COLUMNS = (
    "Time [s]",
    "Capacity [A.h]",
    "Loss of lithium inventory [%]",
    "Loss of lithium to negative SEI [mol]",
    "Loss of capacity to negative SEI [A.h]",
    "Total lithium lost [mol]",
    "Total lithium lost from particles [mol]",
    "Total lithium lost from electrolyte [mol]",
    "Total lithium lost to side reactions [mol]",
    "Total lithium [mol]",
    "Total lithium in particles [mol]",
    "Total lithium in electrolyte [mol]",
    "Total lithium in negative electrode [mol]",
    "Total lithium in positive electrode [mol]",
    "Negative electrode capacity [A.h]",
    "Positive electrode capacity [A.h]",
    "Cyclable lithium capacity [A.h]",
    "Throughput capacity [A.h]",
    "x_0",
    "x_100",
    "y_0",
    "y_100",
)
SUMMARY_EXTRA = "Loss of lithium inventory, including electrolyte [%]"
# Per-cycle figures taken from the cycle's own solution.
CYCLE_COLUMNS = (
    "Cycle start time [s]",
    "Discharge step capacity [A.h]",
    "Discharge step duration [s]",
    "Charge capacity [A.h]",
    "End of cycle " + THICKNESS,
    "End of cycle " + SEI_CAPACITY,
)
CURVE_COLUMNS = ("Voltage [V]", "Current [A]")
CURVE_EXTRA = (THICKNESS, SEI_CAPACITY, SEI_CURRENT)
INTEGER_COLUMNS = ("Cycle number", "Step")


# The cases ------------------------------------------------------------------


def case_specs():
    """Every case: the model options and how the parameters change."""
    fast = {J0_SEI: ("times", FAST_FACTOR)}
    return {
        "sei_reaction_limited": {"options": {"SEI": "reaction limited"}},
        "sei_reaction_limited_fast": {
            "options": {"SEI": "reaction limited"},
            "changes": fast,
        },
        "sei_reaction_limited_fast_nofilm": {
            "options": {
                "SEI": "reaction limited",
                "SEI film resistance": "none",
            },
            "changes": fast,
        },
        "sei_reaction_limited_fast_lumped": {
            "options": {"SEI": "reaction limited", "thermal": "lumped"},
            "changes": dict(fast, **{E_SEI: ("if zero", E_SEI_FALLBACK)}),
        },
        "sei_solvent_diffusion_limited": {
            "options": {"SEI": "solvent-diffusion limited"}
        },
        "sei_interstitial_diffusion_limited": {
            "options": {"SEI": "interstitial-diffusion limited"}
        },
        "sei_ec_reaction_limited": {"options": {"SEI": "ec reaction limited"}},
    }


def select_cases(patterns):
    """Case names matching the given names or shell patterns, in run order."""
    names = list(case_specs())
    if not patterns:
        return names
    unmatched = [p for p in patterns if not fnmatch.filter(names, p)]
    if unmatched:
        sys.exit(
            f"{SCRIPT}: no case matches {', '.join(unmatched)}; the cases "
            "are: " + ", ".join(names)
        )
    return [n for n in names if any(fnmatch.fnmatch(n, p) for p in patterns)]


def apply_changes(params, changes):
    """Changes the parameter values; returns what was done, per name."""
    done = {}
    for name, (how, value) in (changes or {}).items():
        old = float(params[name])
        if how == "times":
            new = old * value
            words = f"Chen2020's value x {value:g}"
        elif how == "if zero":
            new = value if old == 0.0 else old
            words = (
                f"0 in Chen2020, set to {value:g}"
                if old == 0.0
                else "Chen2020's value kept (not 0)"
            )
        else:
            raise ValueError(how)
        params[name] = new
        done[name] = {"chen2020": old, "used": new, "how": words}
    return done


def model_options(model):
    """The model's resolved options as plain JSON values."""
    return {
        key: list(value) if isinstance(value, tuple) else value
        for key, value in model.options.items()
    }


def build(pybamm, spec, rtol, atol):
    """The simulation of a case, its model and the parameter changes."""
    model = pybamm.lithium_ion.DFN(options=dict(spec["options"]))
    params = pybamm.ParameterValues(PARAMETER_SET)
    changes = apply_changes(params, spec.get("changes"))
    var_pts = dict(model.default_var_pts)
    var_pts.update({k: POINTS for k in ("x_n", "x_s", "x_p", "r_n", "r_p")})
    experiment = pybamm.Experiment(
        [PROTOCOL] * CYCLES, period=f"{PERIOD_S} seconds"
    )
    sim = pybamm.Simulation(
        model,
        parameter_values=params,
        var_pts=var_pts,
        solver=pybamm.IDAKLUSolver(rtol=rtol, atol=atol),
        experiment=experiment,
    )
    return sim, model, changes


# Reading a solution ---------------------------------------------------------


def entries(np, solution, name):
    return np.asarray(solution[name].entries, dtype=float).ravel()


def step_capacity(np, step):
    """Change of PyBaMM's "Discharge capacity [A.h]" (its integral of
    Current [A] / 3600) over one step."""
    q = entries(np, step, "Discharge capacity [A.h]")
    return float(q[-1] - q[0])


def cycle_figures(np, cycle):
    """The per-cycle figures taken from the cycle's own solution."""
    steps = cycle.steps
    return {
        "Cycle start time [s]": float(cycle.t[0]),
        "Discharge step capacity [A.h]": step_capacity(np, steps[0]),
        "Discharge step duration [s]": float(steps[0].t[-1] - steps[0].t[0]),
        "Charge capacity [A.h]": -sum(
            step_capacity(np, s) for s in steps[2:4]
        ),
        "End of cycle " + THICKNESS: float(entries(np, cycle, THICKNESS)[-1]),
        "End of cycle "
        + SEI_CAPACITY: float(entries(np, cycle, SEI_CAPACITY)[-1]),
    }


def summary_table(np, solution, thermal):
    """One row per completed cycle: PyBaMM's summary variables, then the
    cycle's own figures."""
    summary = solution.summary_variables
    cycles = solution.cycles
    table = {"Cycle number": [int(n) for n in summary["Cycle number"]]}
    for name in SUMMARY_COLUMNS:
        table[name] = [float(v) for v in summary[name]]
    figures = [cycle_figures(np, c) for c in cycles]
    for name in CYCLE_COLUMNS:
        table[name] = [f[name] for f in figures]
    if thermal != "isothermal":
        table["End of cycle " + TEMPERATURE] = [
            float(entries(np, c, TEMPERATURE)[-1]) for c in cycles
        ]
        table["Maximum in cycle " + TEMPERATURE] = [
            float(entries(np, c, TEMPERATURE).max()) for c in cycles
        ]
    return table


def cycle_curve(np, cycle, thermal):
    """Rows of one cycle, time counted from the cycle's start."""
    t0 = float(cycle.t[0])
    names = CURVE_COLUMNS + CURVE_EXTRA
    if thermal != "isothermal":
        names += (TEMPERATURE,)
    parts = {"Time [s]": [], "Step": []}
    parts.update({name: [] for name in names})
    for index, step in enumerate(cycle.steps):
        t = np.asarray(step.t, dtype=float) - t0
        if not np.all(np.diff(t) > 0.0):
            sys.exit(f"{SCRIPT}: step {index} times are not increasing.")
        parts["Time [s]"].append(t)
        parts["Step"].append(np.full(len(t), index))
        for name in names:
            parts[name].append(entries(np, step, name))
    return {name: np.concatenate(p) for name, p in parts.items()}


def initial_summary(pybamm, solution, sim, model):
    """Summary variables at t = 0 (eSOH capacity of the initial state)."""
    esoh = pybamm.lithium_ion.ElectrodeSOHSolver(
        sim.parameter_values, param=model.param, options=model.options
    )
    first = pybamm.SummaryVariables(solution.first_state, esoh_solver=esoh)
    names = SUMMARY_COLUMNS + (SUMMARY_EXTRA,)
    return {name: float(first[name]) for name in names}


# Checks ---------------------------------------------------------------------


def checks(np, table):
    """Capacity falling, SEI growing, lithium lost > 0, cycle by cycle."""
    capacity = np.array(table["Capacity [A.h]"])
    thickness = np.array(table["End of cycle " + THICKNESS])
    lost = np.array(table["Loss of lithium to negative SEI [mol]"])
    own = np.array(table["End of cycle " + SEI_CAPACITY])
    pybamm_own = np.array(table[SEI_CAPACITY])
    return {
        "capacity_decreasing_every_cycle": bool(np.all(np.diff(capacity) < 0)),
        "sei_thickness_increasing_every_cycle": bool(
            np.all(np.diff(thickness) > 0)
        ),
        "lithium_lost_to_sei_positive": bool(np.all(lost > 0)),
        "lithium_lost_to_sei_increasing_every_cycle": bool(
            np.all(np.diff(lost) > 0)
        ),
        "max_abs_diff_end_of_cycle_vs_summary_sei_capacity_Ah": float(
            np.max(np.abs(own - pybamm_own))
        ),
        "max_abs_diff_total_lost_vs_sei_mol": float(
            np.max(np.abs(np.array(table["Total lithium lost [mol]"]) - lost))
        ),
    }


# Writing --------------------------------------------------------------------


def write_csv(path, header_lines, data):
    names = list(data)
    if any("," in name for name in names):
        sys.exit(f"{SCRIPT}: a column name holds a comma: {names}")
    rows = len(data[names[0]])
    with open(path, "w", newline="\n") as f:
        for line in header_lines:
            f.write(f"# {line}\n")
        f.write(",".join(names) + "\n")
        for i in range(rows):
            cells = [
                (
                    str(int(data[n][i]))
                    if n in INTEGER_COLUMNS
                    else repr(float(data[n][i]))
                )
                for n in names
            ]
            f.write(",".join(cells) + "\n")


def write_json(path, obj):
    with open(path, "w", newline="\n") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")


def provenance(pybamm, np, argv, rtol, atol):
    return {
        "pybamm_version": pybamm.__version__,
        "pybammsolvers_version": package_version("pybammsolvers"),
        "casadi_version": package_version("casadi"),
        "numpy_version": np.__version__,
        "python_version": sys.version.split()[0],
        "command": "python3 " + shlex.join(argv),
        "model": "pybamm.lithium_ion.DFN",
        "parameter_set": PARAMETER_SET,
        "mesh": {k: POINTS for k in ("x_n", "x_s", "x_p", "r_n", "r_p")},
        "solver": {"name": "IDAKLUSolver", "rtol": rtol, "atol": atol},
        "experiment": list(PROTOCOL),
        "cycles": CYCLES,
        "period_s": PERIOD_S,
    }


def header_lines(info, case, entry, what):
    solver = info["solver"]
    changes = (
        "; ".join(
            f'"{name}" = {c["used"]!r} ({c["how"]})'
            for name, c in entry["parameter_changes"].items()
        )
        or "none"
    )
    return [
        "PyBaMM SEI ageing reference data for voltaic, written by "
        f"tools/{SCRIPT}; do not edit, rerun the command.",
        f"pybamm.__version__: {info['pybamm_version']} (pybammsolvers "
        f"{info['pybammsolvers_version']}, casadi {info['casadi_version']}, "
        f"numpy {info['numpy_version']}, Python {info['python_version']})",
        f"command: {info['command']}",
        f"case: {case}: {what}",
        "model: pybamm.lithium_ion.DFN(options="
        f"{json.dumps(entry['options'])})"
        f'; parameters: pybamm.ParameterValues("{PARAMETER_SET}")',
        "resolved options (SEI-related and thermal): "
        + json.dumps(key_options(entry["resolved_options"])),
        f"parameter changes: {changes}",
        "initial state: Chen2020's own (no initial_soc), 298.15 K",
        "experiment: " + json.dumps(list(PROTOCOL)) + f" x {CYCLES} cycles, "
        f"period {PERIOD_S} s",
        "mesh: x_n=x_s=x_p=r_n=r_p=20 uniform finite-volume cells "
        "(PyBaMM's default)",
        f"solver: pybamm.IDAKLUSolver(rtol={solver['rtol']!r}, "
        f"atol={solver['atol']!r}), PyBaMM's default solver at its default "
        "tolerances, single-threaded",
        f"cycles completed: {entry['cycles_completed']} of {CYCLES}",
        "signs: Current [A] > 0 is discharge",
    ]


def key_options(options):
    keys = [k for k in options if "SEI" in k] + [
        "thermal",
        "total interfacial current density as a state",
    ]
    return {k: options[k] for k in keys}


def write_case_files(np, out_dir, info, case, entry, solution):
    thermal = entry["resolved_options"]["thermal"]
    table = summary_table(np, solution, thermal)
    head = header_lines(info, case, entry, entry["description"])
    write_csv(
        out_dir / f"{case}_summary.csv",
        head
        + [
            "rows: one per cycle; columns up to y_100: PyBaMM's summary "
            "variables (Solution.summary_variables) at the cycle's last "
            "state; the columns after: from the cycle's own solution "
            "(README.md says how)"
        ],
        table,
    )
    cycles = solution.cycles
    for number in (1, len(cycles)):
        curve = cycle_curve(np, cycles[number - 1], thermal)
        cycle_start = float(cycles[number - 1].t[0])
        write_csv(
            out_dir / f"{case}_cycle{number}.csv",
            head
            + [
                f"cycle {number}: starts at t = {cycle_start!r} s of the "
                "run; Time [s] counts from the cycle's start",
                f"rows: PyBaMM's output rows, every {PERIOD_S} s within each "
                "step from its start, then the step's end; a step's first row "
                "repeats the previous step's last time (the control changes)",
                "Step: 0-based index into the cycle's 5 steps; "
                f"{SEI_CAPACITY} counts from t = 0 of the run",
                f"row count: {len(curve['Time [s]'])}",
            ],
            curve,
        )
    return table


# Running --------------------------------------------------------------------


def describe(spec, changes):
    words = "DFN " + json.dumps(spec["options"])
    if changes:
        words += ", " + "; ".join(
            f'"{name}" {c["how"]}' for name, c in changes.items()
        )
    return (
        words + f"; {CYCLES} cycles of the experiment from Chen2020's "
        "initial state"
    )


def run_case(pybamm, np, out_dir, info, case, spec, rtol, atol):
    sim, model, changes = build(pybamm, spec, rtol, atol)
    entry = {
        "case": case,
        "description": describe(spec, changes),
        "options": spec["options"],
        "resolved_options": model_options(model),
        "parameter_changes": changes,
        "cycles_requested": CYCLES,
        "cycles_completed": 0,
    }
    start = time.perf_counter()
    try:
        solution = sim.solve()
    except Exception as err:  # a case PyBaMM cannot run is recorded
        entry["error"] = f"{type(err).__name__}: {err}"
        entry["solve_wall_s"] = time.perf_counter() - start
        print(f"{case}: FAILED: {entry['error']}")
        return entry
    entry["solve_wall_s"] = time.perf_counter() - start
    entry["integration_s"] = float(
        getattr(solution.integration_time, "value", solution.integration_time)
    )
    cycles = solution.cycles
    complete = [c for c in cycles if len(c.steps) == len(PROTOCOL)]
    entry["cycles_completed"] = len(complete)
    entry["terminations"] = [[s.termination for s in c.steps] for c in cycles]
    entry["final_termination"] = solution.termination
    if len(complete) < 1:
        entry["error"] = f"no complete cycle ('{solution.termination}')"
        return entry
    table = write_case_files(np, out_dir, info, case, entry, solution)
    entry["initial_state_summary"] = initial_summary(
        pybamm, solution, sim, model
    )
    entry["summary_variables_available"] = sorted(
        set(solution.summary_variables.all_variables) | {"Cycle number"}
    )
    entry["loss_of_lithium_inventory_including_electrolyte_pct"] = [
        float(v) for v in solution.summary_variables[SUMMARY_EXTRA]
    ]
    entry["per_cycle"] = {
        name: table[name]
        for name in (
            "Capacity [A.h]",
            "Loss of lithium to negative SEI [mol]",
            "Discharge step capacity [A.h]",
            "End of cycle " + THICKNESS,
        )
    }
    entry["checks"] = checks(np, table)
    stats = getattr(solution, "solver_statistics", None)
    steps = getattr(stats, "number_of_steps", None)
    entry["idaklu_steps"] = None if steps is None else int(steps)
    cap = table["Capacity [A.h]"]
    print(
        f"{case}: {len(complete)} cycles, capacity {cap[0]:.6f} -> "
        f"{cap[-1]:.6f} A.h, SEI Li "
        f"{table['Loss of lithium to negative SEI [mol]'][-1]:.4e} mol, "
        f"solve {entry['solve_wall_s']:.1f} s"
    )
    return entry


def sei_parameters(pybamm, info):
    """Chen2020's SEI parameters, those the SEI cases need beyond the SEI-free
    DFN, and every case's resolved options."""
    params = pybamm.ParameterValues(PARAMETER_SET)
    names = {k for k in params.keys() if "SEI" in k}
    needed = {}
    options = {}
    base = {}
    for case, spec in case_specs().items():
        model = pybamm.lithium_ion.DFN(options=dict(spec["options"]))
        thermal = model.options["thermal"]
        if thermal not in base:
            plain = pybamm.lithium_ion.DFN(options={"thermal": thermal})
            base[thermal] = set(plain.get_parameter_info())
        extra = sorted(set(model.get_parameter_info()) - base[thermal])
        needed[case] = extra
        names.update(n for n in extra if n in params.keys())
        options[case] = model_options(model)
    missing = {
        case: [n for n in extra if n not in params.keys()]
        for case, extra in needed.items()
    }
    possible = list(model.options.possible_options["SEI"])
    run = {spec["options"]["SEI"] for spec in case_specs().values()}
    return {
        "generator": {k: info[k] for k in ("pybamm_version", "command")},
        "parameter_set": PARAMETER_SET,
        "sei_options_in_pybamm": possible,
        "sei_options_not_run": [o for o in possible if o not in run],
        "values": {n: float(params[n]) for n in sorted(names)},
        "needed_beyond_sei_free_dfn": needed,
        "needed_but_missing_from_chen2020": {
            c: m for c, m in missing.items() if m
        },
        "resolved_options": options,
    }


# README ---------------------------------------------------------------------


def read_entries(out_dir):
    entries_ = {}
    for case in case_specs():
        path = out_dir / f"{case}_info.json"
        if path.exists():
            with open(path) as f:
                entries_[case] = json.load(f)
    return entries_


README_HEAD = """\
# PyBaMM reference data: SEI growth over {cycles} cycles

Written by `tools/{script}`; do not edit these files by hand,
rerun the command instead. PyBaMM's code is not in this repository: the
script only calls PyBaMM's public API.

- PyBaMM: `pybamm.__version__` = **{pybamm_version}** (pybammsolvers
  {pybammsolvers_version}, casadi {casadi_version}, numpy {numpy_version},
  Python {python_version})
- Command (from the repository root; `python3` is a Python with that
  PyBaMM, here the virtual environment /tmp/pybamm-venv):
{commands}

## Set-up common to every case

- Model `pybamm.lithium_ion.DFN(options)`, parameter set `Chen2020`
  (`pybamm.ParameterValues("Chen2020")`, which holds the SEI parameters
  in `sei_parameters.json`); isothermal unless the case says `lumped`.
- Initial state: Chen2020's own (no `initial_soc`): uniform particle
  concentrations 29866 / 17038 mol/m^3, electrolyte 1000 mol/m^3,
  298.15 K (ambient and reference temperature 298.15 K), SEI thickness
  `Initial SEI thickness [m]` = 5 nm everywhere.
- Experiment: `pybamm.Experiment([{protocol}] * {cycles},
  period="{period} seconds")`; 1C = 5 A (nominal 5 A.h), C/20 = 0.25 A.
  Cycle 1 starts from Chen2020's initial state (not a 4.2 V / C/20 charge),
  so its discharge differs from the later ones.
- Mesh: x_n=20, x_s=20, x_p=20, r_n=20, r_p=20 uniform finite-volume cells:
  PyBaMM's default (`model.default_var_pts`), the same as
  `tools/pybamm_reference.py` uses for its Chen2020 DFN cases.
- Solver: `pybamm.IDAKLUSolver(rtol={rtol!r}, atol={atol!r})`: PyBaMM's
  default solver at its default tolerances, single-threaded.
  `save_at_cycles` is not used: every cycle is kept.

## Files

| file | content |
|---|---|
{files}

CSV files start with comment lines (`#`: version, command, case, options,
parameter changes, mesh, solver), then one line of column names (unquoted,
comma-separated), then numbers written with Python's `repr`. Read them with
`pandas.read_csv(path, comment="#")`.
"""

README_CASES = """
## Cases

Solve wall time: `Simulation.solve` (model set-up, discretisation and the
{cycles} cycles) on one core of the machine named in `<case>_info.json`
(`host_cpu`); it differs from run to run, the one figure here that does.

{rows}
"""

README_DEFINITIONS = """
## Columns of `<case>_summary.csv`

One row per cycle (`Cycle number` 1 to {cycles}). The columns from `Time [s]`
to `y_100` are PyBaMM's summary variables (`solution.summary_variables[name]`,
one value per cycle), exactly as PyBaMM names them; each is the variable's
value at the **last state of the cycle** (after the second rest):

- `Time [s]`: time of the run (from its t = 0) at the end of the cycle.
- `Capacity [A.h]`: PyBaMM's electrode state-of-health (eSOH) capacity,
  `Q = Q_n (x_100 - x_0)`: the charge between the stoichiometries at which
  the open-circuit voltage is 4.2 V and 2.5 V ("Open-circuit voltage at
  100% / 0% SOC [V]") for the electrode capacities `Q_n`, `Q_p` and the
  cyclable lithium in the particles (`Cyclable lithium capacity [A.h]` =
  `Total lithium in particles [mol]` x F / 3600) of that state. It is a
  zero-current capacity, not the 1C discharge capacity
  (`Discharge step capacity [A.h]`). `x_0`, `x_100`, `y_0`, `y_100` are the
  stoichiometries of that calculation.
- `Loss of lithium inventory [%]`: `(1 - n_Li,particles / n_Li,particles(t=0))
  x 100`, lithium in the particles only (PyBaMM's "LLI"); the variant
  including the electrolyte (`Loss of lithium inventory, including
  electrolyte [%]`, whose name holds a comma) is in `<case>_info.json`.
- `Loss of lithium to negative SEI [mol]`: `(c_SEI,avg - c_SEI,0) V_n z_SEI`:
  SEI moles formed since t = 0 (volume-averaged SEI concentration
  [mol/m^3] above its initial value, times the negative electrode's volume
  L_n L_y L_z) times "Ratio of lithium moles to SEI moles" (2).
  `Loss of capacity to negative SEI [A.h]` is the same times F / 3600.
- `Total lithium lost [mol]`: lithium at t = 0 (particles + electrolyte)
  minus now; `... from particles`, `... from electrolyte` split it;
  `Total lithium lost to side reactions [mol]`: the sum of the SEI, SEI on
  cracks and plating losses (here only the negative SEI). In these runs
  `Total lithium lost [mol]` equals `Loss of lithium to negative SEI [mol]`
  to the solver tolerance (largest difference in `<case>_info.json`,
  `checks`).
- `Total lithium ...`: moles now in the particles, electrolyte, each
  electrode; `Negative electrode capacity [A.h]`, `Positive electrode
  capacity [A.h]`: the electrodes' full stoichiometric capacities (they do
  not change: no loss of active material in these cases).
- `Throughput capacity [A.h]`: integral of |I| / 3600 from t = 0.

Then, from the cycle's own solution (`solution.cycles[k]`):

- `Cycle start time [s]`: the cycle's first time in the run.
- `Discharge step capacity [A.h]`: the change of PyBaMM's
  `Discharge capacity [A.h]` (its integral of `Current [A]` / 3600, a state
  of the model, not a sum over rows) over step 0, "Discharge at 1C until
  2.5 V"; `Discharge step duration [s]` its length.
- `Charge capacity [A.h]`: the charge put in by steps 2 and 3 (CC + CV),
  the same way.
- `End of cycle {thickness}`: PyBaMM's `{thickness}` (the SEI thickness
  `L = c_SEI V_bar / a` averaged over the negative electrode) at the
  cycle's last row.
- `End of cycle {sei_capacity}`: `{sei_capacity}` at the cycle's last row;
  it equals the summary column of that name (difference in `checks`).
- Lumped case: `End of cycle {temperature}` and `Maximum in cycle
  {temperature}` over the cycle's rows.

## Columns of `<case>_cycle1.csv` and `<case>_cycle{cycles}.csv`

`Time [s]` from the start of the cycle: PyBaMM's time of the run minus the
cycle's first time (given in the header), in double precision, so the
10 s rows read 9.999999999985448 and the like; `Voltage [V]`, `Current [A]`
(> 0 discharge), `Step` (0-based index into the cycle's 5 steps), and
`{thickness}`, `{sei_capacity}` (from t = 0 of the run),
`{sei_current}` (the SEI reaction's current density per particle surface,
< 0); lumped: `{temperature}`. Rows are PyBaMM's output
rows: every {period} s from each step's start (the experiment's period) and
the step's end (root-found termination or end of its duration); the first
row of a step has the time of the previous step's last row, with the state
made consistent under the new control, so current and voltage jump there.
"""

README_QUIRKS = """
## How PyBaMM {version} models the SEI (from its source, for comparing)

- State: the SEI concentration `c_SEI` [mol/m^3 of electrode] per
  finite-volume cell of the negative electrode ("full electrode" reaction
  location in the DFN), `dc_SEI/dt = -a j_SEI / (F z_SEI)` with `a` the
  surface area per volume and `z_SEI` = "Ratio of lithium moles to SEI
  moles"; thickness `L_SEI = c_SEI V_bar_SEI / a`, initial `L_SEI,0` =
  "Initial SEI thickness [m]". Only the negative electrode grows SEI (the
  resolved "SEI" option is `["<option>", "none"]`, negative and positive).
- Reaction limited: `j_SEI = -j0_SEI exp(-0.5 F eta_SEI / (R T))` with
  `eta_SEI = (phi_s - phi_e) - U_SEI - j L_SEI R_SEI`, where `j` is the
  **intercalation** current density of the main reaction ("Negative
  electrode interfacial current density [A.m-2]", not the total including
  j_SEI) and `R_SEI` = "SEI resistivity [Ohm.m]". That film term is in
  eta_SEI **whatever "SEI film resistance" says**: `"none"` removes the
  film drop only from the intercalation reaction's overpotential.
- "SEI film resistance" = `"distributed"` (the default once an SEI option is
  set) puts `-j_tot L_SEI R_SEI` into the intercalation overpotential, with
  `j_tot` = intercalation + SEI current density as an algebraic state
  ("total interfacial current density as a state" = "true").
- Solvent-diffusion limited: `j_SEI = -D_sol c_sol F / L_SEI`;
  interstitial-diffusion limited: `j_SEI = -(D_li c_li,0 F / L_SEI)
  exp(-F (phi_s - phi_e) / (R T))`; EC reaction limited: `j_SEI = -F c_EC,0
  k / (1 + L_SEI k / D_EC)` with `k = k_SEI exp(-0.5 F eta_SEI / (R T))`
  (eta_SEI as above).
- Every option is multiplied by `exp(E_SEI / R (1 / T_ref - 1 / T))`,
  `T_ref` = "Reference temperature [K]" (298.15 K); Chen2020's
  "SEI growth activation energy [J.mol-1]" is 0.
- Summary variables are taken at each cycle's last state; "Capacity [A.h]"
  comes from the eSOH calculation (above), not from the cycling.
"""


def file_rows(entries_):
    rows = []
    for case, e in entries_.items():
        if e.get("cycles_completed", 0) < 1:
            rows.append(
                (
                    f"{case}_info.json",
                    "the failed case's options and " "PyBaMM's error",
                )
            )
            continue
        last = e["cycles_completed"]
        rows += [
            (f"{case}_summary.csv", f"{e['description']}: one row per cycle"),
            (f"{case}_cycle1.csv", "cycle 1's rows"),
            (f"{case}_cycle{last}.csv", f"cycle {last}'s rows"),
            (
                f"{case}_info.json",
                "options (asked, resolved), parameter "
                "changes, step terminations per cycle, checks, initial-state "
                "summary, solve wall time (differs run to run)",
            ),
        ]
    rows += [
        (
            "sei_parameters.json",
            "Chen2020's SEI parameters and those each "
            "case needs beyond the SEI-free DFN, with values; every case's "
            "resolved options",
        ),
        ("README.md", "this file"),
    ]
    return rows


def case_rows(entries_):
    rows = [
        "| case | options asked | resolved SEI film resistance / thermal "
        "| parameter changes | cycles | solve wall time [s] |",
        "|" + "---|" * 6,
    ]
    for case, e in entries_.items():
        o = e["resolved_options"]
        changes = (
            "; ".join(
                f"`{n}` {c['used']:g} ({c['how']})"
                for n, c in e["parameter_changes"].items()
            )
            or "-"
        )
        cycles = str(e.get("cycles_completed", 0))
        if "error" in e:
            cycles += f" (error: {e['error'][:200]})"
        rows.append(
            f"| `{case}` | `{json.dumps(e['options'])}` | "
            f"{o['SEI film resistance']} / {o['thermal']} | {changes} | "
            f"{cycles} | {e['solve_wall_s']:.1f} |"
        )
    return rows


def result_rows(entries_):
    rows = []
    for case, e in entries_.items():
        if "per_cycle" not in e:
            continue
        p = e["per_cycle"]
        c0 = e["initial_state_summary"]["Capacity [A.h]"]
        cap = p["Capacity [A.h]"]
        li = p["Loss of lithium to negative SEI [mol]"]
        q = p["Discharge step capacity [A.h]"]
        L = p["End of cycle " + THICKNESS]
        ok = all(v for k, v in e["checks"].items() if isinstance(v, bool))
        q2 = q[min(1, len(q) - 1)]
        rows.append(
            f"| `{case}` | {c0:.6f} | {cap[0]:.6f} | {cap[-1]:.6f} | "
            f"{li[0]:.4e} | {li[-1]:.4e} | {q[0]:.5f} | {q2:.5f} | "
            f"{q[-1]:.5f} | {1e9 * L[0]:.4f} | {1e9 * L[-1]:.4f} | "
            f"{'yes' if ok else 'NO'} |"
        )
    return rows


def parameter_lines(sei):
    """The SEI parameters as a table, then what was missing or not run."""
    lines = [
        "",
        "## SEI parameters (Chen2020 in PyBaMM "
        f"{sei['generator']['pybamm_version']}, `sei_parameters.json`)",
        "",
        'Every Chen2020 parameter whose name holds "SEI", and every '
        "parameter that one of the cases' models uses and the SEI-free DFN "
        "(same thermal option) does not (`needed_beyond_sei_free_dfn` lists "
        "them per case). Values as in Chen2020; the cases' changes are in "
        "the Cases table.",
        "",
        "| parameter | value | used by |",
        "|---|---|---|",
    ]
    for name, value in sei["values"].items():
        users = [
            case
            for case, names in sei["needed_beyond_sei_free_dfn"].items()
            if name in names
        ]
        used = (
            "all cases"
            if len(users) == len(sei["needed_beyond_sei_free_dfn"])
            else ", ".join(f"`{c}`" for c in users) or "none of these cases"
        )
        lines.append(f"| `{name}` | {value!r} | {used} |")
    missing = sei["needed_but_missing_from_chen2020"]
    lines += [
        "",
        "Missing from Chen2020: "
        + (
            "; ".join(f"`{c}`: {', '.join(m)}" for c, m in missing.items())
            if missing
            else "nothing: Chen2020 holds every parameter these cases need "
            "(no value was invented)."
        ),
        "",
        "SEI options PyBaMM offers but no case runs (not asked for): "
        + ", ".join(f'`"{o}"`' for o in sei["sei_options_not_run"])
        + ".",
    ]
    return lines


def film_lines(entries_):
    """How the film-resistance option changed the fast case's growth."""
    a = entries_.get("sei_reaction_limited_fast", {}).get("per_cycle")
    b = entries_.get("sei_reaction_limited_fast_nofilm", {}).get("per_cycle")
    if not a or not b:
        return []
    name = "Loss of lithium to negative SEI [mol]"
    la, lb = a[name][-1], b[name][-1]
    return [
        "",
        f'Film resistance: with "distributed" the fast case loses {la:.4e} '
        f'mol of lithium to SEI in {CYCLES} cycles, with "none" {lb:.4e} mol '
        f"({100 * (la / lb - 1):+.1f}% with the film). In PyBaMM the SEI "
        "reaction's eta_SEI carries the film term `-j L_SEI R_SEI` in both "
        '(see below); "none" drops it only from the intercalation '
        'overpotential. With "distributed" both reactions see the film, so '
        "the lower phi_s - phi_e needed to charge through it (j_tot < 0) "
        "and the `-j L_SEI R_SEI` > 0 in eta_SEI about cancel (j_tot ~ j); "
        'with "none" phi_s - phi_e is not lowered, so while charging the '
        "film term raises eta_SEI and the SEI grows more slowly.",
    ]


def failure_lines(entries_):
    failed = {c: e for c, e in entries_.items() if "error" in e}
    if not failed:
        return [
            "",
            f"Every case ran all {CYCLES} cycles; PyBaMM raised no error "
            "(step terminations of every cycle in `<case>_info.json`).",
        ]
    lines = ["", "Cases PyBaMM could not run (error as PyBaMM gave it):", ""]
    lines += [f"- `{c}`: `{e['error']}`" for c, e in failed.items()]
    return lines


def readme_text(info, entries_, commands, summary_names, sei):
    parts = [
        README_HEAD.format(
            script=SCRIPT,
            cycles=CYCLES,
            period=PERIOD_S,
            protocol=", ".join(f'"{s}"' for s in PROTOCOL),
            commands="\n".join(f"  `{c}`" for c in commands),
            rtol=info["solver"]["rtol"],
            atol=info["solver"]["atol"],
            files="\n".join(
                f"| `{n}` | {t} |" for n, t in file_rows(entries_)
            ),
            **{k: v for k, v in info.items() if k.endswith("_version")},
        ).rstrip("\n"),
        README_CASES.format(
            cycles=CYCLES, rows="\n".join(case_rows(entries_))
        ).rstrip("\n"),
        *failure_lines(entries_),
        "",
        "## Headline numbers",
        "",
        "Capacity: `Capacity [A.h]` (eSOH) at t = 0 and after the first and "
        f"last cycle; SEI Li: `Loss of lithium to negative SEI [mol]` after "
        "the first and last cycle; Q_dis: `Discharge step capacity [A.h]` of "
        "cycles 1, 2 and the last; L_SEI: end-of-cycle "
        f"`{THICKNESS}` after the first and last cycle, in nm; checks: "
        "capacity falls and L_SEI and SEI Li grow every cycle, SEI Li > 0.",
        "",
        "| case | capacity t=0 | capacity 1 | capacity last | SEI Li 1 "
        "[mol] | SEI Li last [mol] | Q_dis 1 | Q_dis 2 | Q_dis last | "
        "L_SEI 1 [nm] | L_SEI last [nm] | checks |",
        "|" + "---|" * 12,
        *result_rows(entries_),
        *film_lines(entries_),
        README_DEFINITIONS.format(
            cycles=CYCLES,
            period=PERIOD_S,
            thickness=THICKNESS,
            sei_capacity=SEI_CAPACITY,
            sei_current=SEI_CURRENT,
            temperature=TEMPERATURE,
        ).rstrip("\n"),
        "",
        f"Summary variables PyBaMM {info['pybamm_version']} offers for these "
        "models (any of them can be added to `SUMMARY_COLUMNS`): "
        + ", ".join(f"`{n}`" for n in summary_names)
        + ".",
        README_QUIRKS.format(version=info["pybamm_version"]).rstrip("\n"),
        *parameter_lines(sei),
        "",
    ]
    return "\n".join(parts)


# Main -----------------------------------------------------------------------


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Write PyBaMM DFN (Chen2020) SEI-ageing reference data."
    )
    parser.add_argument(
        "--out-dir",
        type=Path,
        default=Path(__file__).resolve().parent.parent
        / "tests"
        / "data"
        / "pybamm"
        / "ageing",
        help="output folder (default: tests/data/pybamm/ageing)",
    )
    parser.add_argument(
        "--cases",
        nargs="+",
        default=None,
        metavar="CASE",
        help="run only these cases, by name or shell pattern (default: all): "
        + ", ".join(case_specs()),
    )
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv[1:])
    pybamm, np = import_pybamm(SCRIPT)
    probe = pybamm.IDAKLUSolver()
    rtol, atol = probe.rtol, probe.atol
    info = provenance(pybamm, np, argv, rtol, atol)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    specs = case_specs()
    for case in select_cases(args.cases):
        entry = run_case(
            pybamm, np, args.out_dir, info, case, specs[case], rtol, atol
        )
        entry["generator"] = info
        entry["host_cpu"] = host_cpu_name()
        write_json(args.out_dir / f"{case}_info.json", entry)
    sei = sei_parameters(pybamm, info)
    write_json(args.out_dir / "sei_parameters.json", sei)
    entries_ = read_entries(args.out_dir)
    commands = list(
        dict.fromkeys(e["generator"]["command"] for e in entries_.values())
    )
    names = next(
        (
            e["summary_variables_available"]
            for e in entries_.values()
            if "summary_variables_available" in e
        ),
        [],
    )
    text = readme_text(info, entries_, commands, names, sei)
    with open(args.out_dir / "README.md", "w", newline="\n") as f:
        f.write(text)
    print(f"wrote {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
