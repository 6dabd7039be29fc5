#!/usr/bin/env python3
"""Produces the PyBaMM reference data that voltaic's DFN validation tests use.

Every case is PyBaMM's DFN model (``pybamm.lithium_ion.DFN``) with the
Chen2020 parameter set, started from the Chen2020 initial state (uniform
particle concentrations 29866 / 17038 mol/m^3, electrolyte 1000 mol/m^3,
298.15 K: the cell as Chen2020 defines it fully charged), solved by PyBaMM's
default solver (IDAKLU) at its default tolerances, on PyBaMM's default mesh of
20 finite-volume cells per domain (negative electrode, separator, positive
electrode) and per particle unless ``--points`` says otherwise.

Cases (one CSV each, named ``<case>.csv``):

* ``discharge_isothermal_{0.5,1,2}C``: constant-current discharges until
  2.5 V, isothermal (298.15 K);
* ``discharge_lumped_{0.5,1,2}C``: the same with ``{"thermal": "lumped"}``;
* ``cccv_isothermal``: the experiment "Discharge at 1C until 2.5 V",
  "Rest for 1 hour", "Charge at 0.5C until 4.2 V", "Hold at 4.2 V until C/50"
  as one cycle, isothermal, every step recorded, with a ``Step`` column.

Rows are every 10 s (``t_interp`` for the discharges, the experiment's
``period`` for the cycle, counted from the start of each step); the last row
of a discharge, and of each experiment step ended by an event, is the
solver's root-found crossing of the cut-off. Numbers are written with
``repr`` (shortest text that reads back to the same double).

Also written: ``summary.json`` (final time, final voltage, discharge capacity
at cut-off, temperature rise per case) and ``README.md`` (what each file is,
how it was made, the definitions). With ``--refine`` also
``mesh_convergence.json``: the 1C isothermal discharge at 20, 40, 80 and 160
cells per domain and per particle (``--refine-levels``), refined in x only
and in r only, and at tightened solver tolerances, compared on a common 1 s
time grid (RMS and max voltage difference, capacity difference, observed
order); and ``discharge_isothermal_1C_<finest>pts.csv``, the finest run on
the 10 s rows. The whole --refine check takes under a minute on 2 cores.

Run from anywhere (needs ``pip install pybamm``; without PyBaMM the script
stops with a message saying so). The data committed under tests/data/pybamm/
were produced, from the repository root, by::

    python3 tools/pybamm_reference.py --refine

Options: ``--out-dir`` (default tests/data/pybamm beside this script),
``--points`` (cells per domain and per particle, default 20), ``--cases``
(a subset, for quick looks), ``--refine`` / ``--refine-levels``,
``--rtol`` / ``--atol`` (default: PyBaMM's IDAKLU defaults).

The output is deterministic: no timestamps or timings are written, and the
solver runs single-threaded, so a rerun with the same PyBaMM version rewrites
the same bytes. Timings are printed to stdout only.
"""

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from pybamm_common import import_pybamm, package_version

PARAMETER_SET = "Chen2020"
C_RATES = (0.5, 1.0, 2.0)
THERMAL_OPTIONS = ("isothermal", "lumped")
OUTPUT_PERIOD_S = 10
REFINE_GRID_S = 1.0
DEFAULT_REFINE_LEVELS = (20, 40, 80, 160)
# Comparisons also leave out the first seconds, where the coarse radial mesh's
# error of the initial diffusion layer dominates.
TRANSIENT_S = 60.0
TIGHT_RTOL = 1e-8
TIGHT_ATOL = 1e-10
EXPERIMENT_STEPS = (
    "Discharge at 1C until 2.5 V",
    "Rest for 1 hour",
    "Charge at 0.5C until 4.2 V",
    "Hold at 4.2 V until C/50",
)
BASE_COLUMNS = (
    "Time [s]",
    "Voltage [V]",
    "Current [A]",
    "Discharge capacity [A.h]",
)
THERMAL_COLUMNS = (
    "X-averaged cell temperature [K]",
    "Volume-averaged cell temperature [K]",
)
# The variable whose change is reported as the temperature rise.
RISE_COLUMN = "Volume-averaged cell temperature [K]"

SCRIPT = "pybamm_reference.py"


def rate_label(c_rate):
    return f"{c_rate:g}C"


class Reference:
    """Builds and solves the cases with one mesh and one set of tolerances."""

    def __init__(self, pybamm, np, points, rtol, atol):
        self.pybamm = pybamm
        self.np = np
        self.points = points
        probe = pybamm.IDAKLUSolver()
        self.default_tolerances = rtol is None and atol is None
        self.rtol = probe.rtol if rtol is None else rtol
        self.atol = probe.atol if atol is None else atol

    def solver(self, rtol=None, atol=None):
        return self.pybamm.IDAKLUSolver(
            rtol=self.rtol if rtol is None else rtol,
            atol=self.atol if atol is None else atol,
        )

    def simulation(
        self,
        thermal,
        points,
        rtol=None,
        atol=None,
        current=None,
        experiment=None,
    ):
        pybamm = self.pybamm
        model = pybamm.lithium_ion.DFN(options={"thermal": thermal})
        params = pybamm.ParameterValues(PARAMETER_SET)
        if current is not None:
            params["Current function [A]"] = current
        var_pts = dict(model.default_var_pts)
        var_pts.update(mesh_points(points))
        return pybamm.Simulation(
            model,
            parameter_values=params,
            var_pts=var_pts,
            solver=self.solver(rtol, atol),
            experiment=experiment,
        )

    def initial_state(self):
        """The parameter set's own initial state, in words."""
        params = self.pybamm.ParameterValues(PARAMETER_SET)

        def value(name):
            return f"{params[name]:g}"

        return (
            "the parameter set's own, fully charged as Chen2020 defines it "
            "(no initial_soc): uniform particle concentrations "
            f"{value('Initial concentration in negative electrode [mol.m-3]')}"
            " (negative) and "
            f"{value('Initial concentration in positive electrode [mol.m-3]')}"
            " (positive) mol/m^3, electrolyte "
            f"{value('Initial concentration in electrolyte [mol.m-3]')} "
            f"mol/m^3, {value('Initial temperature [K]')} K (ambient "
            f"{value('Ambient temperature [K]')} K)"
        )

    def initial_ocv(self):
        """Open-circuit voltage of the initial state (a zero-current run)."""
        sim = self.simulation("isothermal", self.points, current=0.0)
        solution = sim.solve(t_eval=[0.0, 1.0])
        return float(solution["Battery open-circuit voltage [V]"].entries[0])

    def nominal_capacity(self):
        params = self.pybamm.ParameterValues(PARAMETER_SET)
        return params["Nominal cell capacity [A.h]"]

    def discharge(
        self,
        c_rate,
        thermal,
        points=None,
        grid_s=OUTPUT_PERIOD_S,
        rtol=None,
        atol=None,
    ):
        """Constant-current discharge from the initial state to 2.5 V."""
        np = self.np
        points = self.points if points is None else points
        current = c_rate * self.nominal_capacity()
        sim = self.simulation(thermal, points, rtol, atol, current=current)
        # Twice the nominal duration: the voltage cut-off always comes first.
        t_end = 2.0 * 3600.0 / c_rate
        t_grid = np.arange(0.0, t_end + 0.5 * grid_s, grid_s)
        start = time.perf_counter()
        solution = sim.solve(t_eval=[0.0, t_end], t_interp=t_grid)
        elapsed = time.perf_counter() - start
        if "Minimum voltage" not in solution.termination:
            sys.exit(
                f"{SCRIPT}: the {rate_label(c_rate)} {thermal} discharge "
                f"ended with '{solution.termination}', not at the voltage "
                "cut-off."
            )
        columns = BASE_COLUMNS + (
            THERMAL_COLUMNS if thermal != "isothermal" else ()
        )
        data = {
            name: np.asarray(solution[name].entries, dtype=float).ravel()
            for name in columns
        }
        check_increasing(
            np, data["Time [s]"], f"{rate_label(c_rate)} {thermal}"
        )
        return data, solution.termination, elapsed

    def experiment(self):
        """The CC-CV experiment as one cycle: the rows of every step."""
        np = self.np
        pybamm = self.pybamm
        experiment = pybamm.Experiment(
            [EXPERIMENT_STEPS], period=f"{OUTPUT_PERIOD_S} seconds"
        )
        sim = self.simulation("isothermal", self.points, experiment=experiment)
        start = time.perf_counter()
        solution = sim.solve()
        elapsed = time.perf_counter() - start
        steps = solution.cycles[0].steps if solution.cycles else []
        if len(steps) != len(EXPERIMENT_STEPS):
            sys.exit(
                f"{SCRIPT}: the experiment ran {len(steps)} of "
                f"{len(EXPERIMENT_STEPS)} steps ('{solution.termination}')."
            )
        data = {name: [] for name in BASE_COLUMNS + ("Step",)}
        terminations = []
        for index, step in enumerate(steps):
            for name in BASE_COLUMNS:
                data[name].append(
                    np.asarray(step[name].entries, dtype=float).ravel()
                )
            data["Step"].append(np.full(len(data["Time [s]"][-1]), index))
            check_increasing(
                np, data["Time [s]"][-1], f"experiment step {index}"
            )
            terminations.append(step.termination)
        data = {name: np.concatenate(parts) for name, parts in data.items()}
        return data, terminations, elapsed


def mesh_points(points):
    """PyBaMM var_pts for the cell grid: an int for every domain and particle,
    or a pair (cells per domain, cells per particle)."""
    x, r = points if isinstance(points, tuple) else (points, points)
    return {"x_n": x, "x_s": x, "x_p": x, "r_n": r, "r_p": r}


def check_increasing(np, t, what):
    if not np.all(np.diff(t) > 0.0):
        sys.exit(
            f"{SCRIPT}: output times of the {what} case are not strictly "
            "increasing."
        )


def write_csv(path, header_lines, data):
    names = list(data)
    rows = len(data[names[0]])
    with open(path, "w", newline="\n") as f:
        for line in header_lines:
            f.write(f"# {line}\n".replace("# \n", "#\n"))
        f.write(",".join(names) + "\n")
        for i in range(rows):
            cells = []
            for name in names:
                value = data[name][i]
                cells.append(
                    str(int(value)) if name == "Step" else repr(float(value))
                )
            f.write(",".join(cells) + "\n")


def provenance(pybamm, np, reference, argv):
    """What made the data: versions, command, mesh and solver."""
    return {
        "pybamm_version": pybamm.__version__,
        "pybammsolvers_version": package_version("pybammsolvers"),
        "casadi_version": package_version("casadi"),
        "numpy_version": np.__version__,
        "python_version": sys.version.split()[0],
        "command": "python3 " + shlex.join(argv),
        "model": "pybamm.lithium_ion.DFN",
        "parameter_set": PARAMETER_SET,
        "initial_state": reference.initial_state(),
        "initial_open_circuit_voltage_V": reference.initial_ocv(),
        "mesh": mesh_points(reference.points),
        "solver": {
            "name": "IDAKLUSolver",
            "rtol": reference.rtol,
            "atol": reference.atol,
            "default_tolerances": reference.default_tolerances,
        },
    }


def common_header(info, case, description, thermal):
    mesh = ", ".join(f"{key}={value}" for key, value in info["mesh"].items())
    default = (
        " (PyBaMM's default)" if set(info["mesh"].values()) == {20} else ""
    )
    solver = info["solver"]
    return [
        "PyBaMM reference data for voltaic, written by "
        "tools/pybamm_reference.py; do not edit, rerun the command.",
        f"pybamm.__version__: {info['pybamm_version']} (pybammsolvers "
        f"{info['pybammsolvers_version']}, casadi {info['casadi_version']}, "
        f"numpy {info['numpy_version']}, Python {info['python_version']})",
        f"command: {info['command']}",
        f"case: {case}: {description}",
        f'model: pybamm.lithium_ion.DFN(options={{"thermal": "{thermal}"}}); '
        f'parameters: pybamm.ParameterValues("{PARAMETER_SET}")',
        f"initial state: {info['initial_state']}",
        f"mesh: {mesh}: uniform finite-volume cells per domain and per "
        f"particle{default}",
        f"solver: pybamm.IDAKLUSolver(rtol={solver['rtol']!r}, "
        f"atol={solver['atol']!r}), PyBaMM's default solver"
        + (
            " at its default tolerances"
            if solver["default_tolerances"]
            else ""
        ),
        "signs: Current [A] > 0 is discharge; Discharge capacity [A.h] is the "
        "integral from t = 0 of Current [A] / 3600",
    ]


def discharge_case_name(thermal, c_rate):
    return f"discharge_{thermal}_{rate_label(c_rate)}"


def all_case_names():
    names = [
        discharge_case_name(thermal, c_rate)
        for thermal in THERMAL_OPTIONS
        for c_rate in C_RATES
    ]
    return names + ["cccv_isothermal"]


def run_discharge(reference, info, out_dir, thermal, c_rate):
    np = reference.np
    case = discharge_case_name(thermal, c_rate)
    capacity = reference.nominal_capacity()
    current = c_rate * capacity
    data, termination, elapsed = reference.discharge(c_rate, thermal)
    t = data["Time [s]"]
    v = data["Voltage [V]"]
    description = (
        f"constant-current discharge at {rate_label(c_rate)} "
        f"({current:g} A; 1C = {capacity:g} A.h / 1 h) from the "
        f"initial state until 2.5 V, {thermal}"
    )
    header = common_header(info, case, description, thermal)
    header += [
        f"rows: every {OUTPUT_PERIOD_S} s from t = 0 (IDAKLU t_interp, the "
        "solver's Hermite interpolant), then a last row at the solver's "
        "root-found crossing of the 2.5 V cut-off "
        f"(t = {t[-1]:.6f} s, V = {v[-1]:.15g} V)",
        f"termination: {termination}",
        f"row count: {len(t)}",
    ]
    if thermal == "lumped":
        gap = np.max(np.abs(data[THERMAL_COLUMNS[0]] - data[RISE_COLUMN]))
        header.append(
            "temperatures: lumped model, one temperature for the cell; "
            f"largest |X-averaged - volume-averaged| = {gap:g} K"
        )
    write_csv(out_dir / f"{case}.csv", header, data)
    summary = {
        "description": description,
        "thermal": thermal,
        "c_rate": c_rate,
        "current_A": current,
        "rows": int(len(t)),
        "termination": termination,
        "initial_voltage_V": float(v[0]),
        "final_time_s": float(t[-1]),
        "final_voltage_V": float(v[-1]),
        "discharge_capacity_Ah": float(data["Discharge capacity [A.h]"][-1]),
    }
    if thermal == "lumped":
        temp = data[RISE_COLUMN]
        summary.update(
            {
                "temperature_variable": RISE_COLUMN,
                "initial_temperature_K": float(temp[0]),
                "final_temperature_K": float(temp[-1]),
                "temperature_rise_K": float(temp[-1] - temp[0]),
                "max_temperature_rise_K": float(temp.max() - temp[0]),
            }
        )
    print(
        f"{case}: {len(t)} rows, t_end {t[-1]:.3f} s, V_end {v[-1]:.6f} V, "
        f"Q {summary['discharge_capacity_Ah']:.6f} A.h, solve {elapsed:.2f} s"
    )
    return case, summary


def run_experiment(reference, info, out_dir):
    case = "cccv_isothermal"
    data, terminations, elapsed = reference.experiment()
    step = data["Step"]
    t = data["Time [s]"]
    v = data["Voltage [V]"]
    i = data["Current [A]"]
    q = data["Discharge capacity [A.h]"]
    description = (
        "the experiment ["
        + ", ".join(f'"{s}"' for s in EXPERIMENT_STEPS)
        + "] as one cycle from the initial state, isothermal; the "
        "constant-voltage hold ends when |I| falls to C/50 = "
        f"{reference.nominal_capacity() / 50:g} A"
    )
    header = common_header(info, case, description, "isothermal")
    steps = []
    for index, text in enumerate(EXPERIMENT_STEPS):
        rows = step == index
        first = int(reference.np.argmax(rows))
        last = int(len(rows) - 1 - reference.np.argmax(rows[::-1]))
        steps.append(
            {
                "step": index,
                "description": text,
                "termination": terminations[index],
                "rows": int(rows.sum()),
                "start_time_s": float(t[first]),
                "end_time_s": float(t[last]),
                "start_voltage_V": float(v[first]),
                "end_voltage_V": float(v[last]),
                "start_current_A": float(i[first]),
                "end_current_A": float(i[last]),
                "discharge_capacity_change_Ah": float(q[last] - q[first]),
            }
        )
        header.append(
            f'step {index}: "{text}": data rows {first + 1}-{last + 1}, '
            f"t {t[first]:.6f} to {t[last]:.6f} s, "
            f"ended by '{terminations[index]}'"
        )
    header += [
        f"rows: within each step every {OUTPUT_PERIOD_S} s from the step's "
        "start (Experiment period), then a last row at the step's end: the "
        "solver's root-found crossing of the step's termination condition "
        "(steps 0, 2, 3) or the end of its duration (step 1). The first row "
        "of each step repeats the time of the previous step's last row, with "
        "the state made consistent under the new step's control (the current "
        "or voltage jumps there).",
        "Step: 0-based index into the experiment's steps, as listed above",
        f"row count: {len(t)}",
    ]
    write_csv(out_dir / f"{case}.csv", header, data)
    summary = {
        "description": description,
        "thermal": "isothermal",
        "rows": int(len(t)),
        "steps": steps,
        "final_time_s": float(t[-1]),
        "final_voltage_V": float(v[-1]),
        "final_current_A": float(i[-1]),
        "discharge_capacity_at_cutoff_Ah": steps[0][
            "discharge_capacity_change_Ah"
        ],
        "charge_capacity_Ah": -(
            steps[2]["discharge_capacity_change_Ah"]
            + steps[3]["discharge_capacity_change_Ah"]
        ),
        "final_discharge_capacity_Ah": float(q[-1]),
    }
    print(
        f"{case}: {len(t)} rows, t_end {t[-1]:.3f} s, charge "
        f"{summary['charge_capacity_Ah']:.6f} A.h, solve {elapsed:.2f} s"
    )
    return case, summary


def voltage_stats(np, t, dv, prefix=""):
    worst = int(np.argmax(np.abs(dv)))
    return {
        f"voltage_rms_diff{prefix}_V": float(np.sqrt(np.mean(dv**2))),
        f"voltage_max_abs_diff{prefix}_V": float(abs(dv[worst])),
        f"time_of_max_diff{prefix}_s": float(t[worst]),
    }


def compare_curves(np, a, b):
    """Differences a - b of voltage (on the common times) and capacity."""
    # Drop each run's last row (its own cut-off crossing, at a time the other
    # run's grid does not share); the remaining rows are the common grid.
    n = min(len(a["Time [s]"]), len(b["Time [s]"])) - 1
    t = a["Time [s]"][:n]
    if not np.array_equal(t, b["Time [s]"][:n]):
        sys.exit(f"{SCRIPT}: refinement runs do not share output times.")
    dv = a["Voltage [V]"][:n] - b["Voltage [V]"][:n]
    qa = a["Discharge capacity [A.h]"][-1]
    qb = b["Discharge capacity [A.h]"][-1]
    result = {
        "compared_times_s": [float(t[0]), float(t[-1])],
        "compared_points": int(n),
    }
    result.update(voltage_stats(np, t, dv))
    late = t >= TRANSIENT_S
    result.update(
        voltage_stats(np, t[late], dv[late], f"_after_{TRANSIENT_S:g}s")
    )
    rows = np.isclose(np.mod(t, OUTPUT_PERIOD_S), 0.0)
    result.update(
        voltage_stats(np, t[rows], dv[rows], f"_on_{OUTPUT_PERIOD_S}s_rows")
    )
    result.update(
        {
            "capacity_diff_Ah": float(qa - qb),
            "capacity_rel_diff": float((qa - qb) / qb),
            "final_time_diff_s": float(a["Time [s]"][-1] - b["Time [s]"][-1]),
        }
    )
    return result


def mesh_label(points):
    x, r = points if isinstance(points, tuple) else (points, points)
    return {"cells_per_domain": x, "cells_per_particle": r}


def run_refine(reference, info, out_dir, levels):
    """The 1C isothermal discharge on several meshes and tolerances."""
    np = reference.np
    runs = {}
    summaries = []
    base, finest = levels[0], levels[-1]
    meshes = list(levels) + [(finest, base), (base, finest)]
    for points in meshes:
        data, termination, elapsed = reference.discharge(
            1.0, "isothermal", points=points, grid_s=REFINE_GRID_S
        )
        runs[points] = data
        entry = mesh_label(points)
        entry.update(
            {
                "termination": termination,
                "initial_voltage_V": float(data["Voltage [V]"][0]),
                "final_time_s": float(data["Time [s]"][-1]),
                "final_voltage_V": float(data["Voltage [V]"][-1]),
                "discharge_capacity_Ah": float(
                    data["Discharge capacity [A.h]"][-1]
                ),
            }
        )
        summaries.append(entry)
        print(
            f"refine {points}: t_end {data['Time [s]'][-1]:.3f} s, "
            f"Q {entry['discharge_capacity_Ah']:.6f} A.h, "
            f"solve {elapsed:.2f} s"
        )

    def compare(a, b):
        entry = {"coarse": mesh_label(a), "fine": mesh_label(b)}
        entry.update(compare_curves(np, runs[a], runs[b]))
        return entry

    pairs = list(zip(levels, levels[1:])) + [(a, finest) for a in levels[:-2]]
    comparisons = [compare(a, b) for a, b in pairs]
    # Which direction carries the coarsest mesh's error: refine x or r only.
    directions = [compare(base, (finest, base)), compare(base, (base, finest))]
    orders = []
    for a, b, c in zip(levels, levels[1:], levels[2:]):
        if c * a != b * b:
            continue
        d1 = compare_curves(np, runs[a], runs[b])
        d2 = compare_curves(np, runs[b], runs[c])
        order = {"points": [a, b, c]}
        for key in (
            "voltage_rms_diff_V",
            f"voltage_rms_diff_after_{TRANSIENT_S:g}s_V",
            "capacity_diff_Ah",
        ):
            order[key] = float(
                np.log(abs(d1[key]) / abs(d2[key])) / np.log(b / a)
            )
        orders.append(order)

    # Time-integration error of the reference: default vs tight tolerances.
    tight, _, elapsed = reference.discharge(
        1.0,
        "isothermal",
        points=base,
        grid_s=REFINE_GRID_S,
        rtol=TIGHT_RTOL,
        atol=TIGHT_ATOL,
    )
    print(
        f"refine {base} points at rtol {TIGHT_RTOL:g}: solve {elapsed:.2f} s"
    )
    tolerance = {
        "points": base,
        "default": {"rtol": reference.rtol, "atol": reference.atol},
        "tight": {"rtol": TIGHT_RTOL, "atol": TIGHT_ATOL},
        "tight_discharge_capacity_Ah": float(
            tight["Discharge capacity [A.h]"][-1]
        ),
        "tight_final_time_s": float(tight["Time [s]"][-1]),
    }
    tolerance.update(compare_curves(np, runs[base], tight))

    fine_file = write_fine_curve(
        reference, info, out_dir, finest, runs[finest]
    )
    result = {
        "generator": info,
        "case": (
            "1C constant-current discharge (5 A) from the initial state "
            "until 2.5 V, isothermal, DFN, Chen2020, IDAKLU"
        ),
        "mesh": (
            "cells_per_domain: each of x_n, x_s, x_p; cells_per_particle: "
            "each of r_n, r_p; all uniform"
        ),
        "output_grid": (
            f"every {REFINE_GRID_S:g} s from t = 0 (t_interp), plus the "
            "cut-off crossing as the last row"
        ),
        "comparison": (
            "differences coarse - fine of Voltage [V] at the grid times both "
            "runs reached before either one's cut-off crossing: all of them, "
            f"those at t >= {TRANSIENT_S:g} s (after the start-up transient), "
            f"and those on the {OUTPUT_PERIOD_S} s rows of the reference "
            "CSVs; capacity and final time at each run's own cut-off crossing"
        ),
        "levels": summaries,
        "comparisons": comparisons,
        "direction_split": directions,
        "observed_order": orders,
        "solver_tolerance": tolerance,
        "finest_curve_file": fine_file,
    }
    write_json(out_dir / "mesh_convergence.json", result)
    return result


def write_fine_curve(reference, info, out_dir, points, data):
    """The finest refinement run on the 10 s rows, as a converged curve."""
    np = reference.np
    t = data["Time [s]"]
    keep = np.isclose(np.mod(t, OUTPUT_PERIOD_S), 0.0)
    keep[-1] = True
    rows = {name: values[keep] for name, values in data.items()}
    name = f"discharge_isothermal_1C_{points}pts.csv"
    fine_info = dict(info, mesh=mesh_points(points))
    description = (
        "constant-current discharge at 1C (5 A) from the initial "
        f"state until 2.5 V, isothermal, on the finest --refine mesh "
        f"({points} cells per domain and per particle), for comparing "
        "converged curves"
    )
    header = common_header(fine_info, name[:-4], description, "isothermal")
    header += [
        f"rows: every {OUTPUT_PERIOD_S} s from t = 0 (taken from a "
        f"{REFINE_GRID_S:g} s t_interp grid), then a last row at the solver's "
        "root-found crossing of the 2.5 V cut-off "
        f"(t = {t[-1]:.6f} s)",
        f"row count: {int(keep.sum())}",
    ]
    write_csv(out_dir / name, header, rows)
    return name


def write_json(path, obj):
    with open(path, "w", newline="\n") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")


README_HEAD = """\
# PyBaMM reference data

Written by `tools/pybamm_reference.py`; do not edit these files by hand,
rerun the command instead. PyBaMM's code is not in this repository: the
script only calls PyBaMM's public API.

- PyBaMM: `pybamm.__version__` = **{pybamm_version}** (pybammsolvers
  {pybammsolvers_version}, casadi {casadi_version}, numpy {numpy_version},
  Python {python_version})
- Command (from the repository root): `{command}`

## Files

| file | content |
|---|---|
{files}

Each CSV starts with comment lines (`#`) that repeat the version, the
command, the case, initial state, mesh, solver and tolerances; then one line
of column names (unquoted, comma-separated, named as PyBaMM names the
variables), then numbers written with Python's `repr` (the shortest text
that reads back to the same double). Read them with, for example,
`pandas.read_csv(path, comment="#")`.

## Set-up common to every case

- Model `pybamm.lithium_ion.DFN`, parameter set `{parameter_set}`, option
  `"thermal"` = `"isothermal"` or `"lumped"`; every other option at
  PyBaMM's default.
- Initial state: {initial_state}.
- Mesh: {mesh_cells}: uniform finite-volume cells per domain and per
  particle{mesh_default}.
- Solver: `pybamm.IDAKLUSolver(rtol={rtol!r}, atol={atol!r})`{solver_default},
  single-threaded (deterministic: a rerun rewrites the same bytes).
- 1C = nominal capacity {capacity:g} A.h over 1 h = {capacity:g} A;
  C/50 = {c50:g} A.

## Definitions

- `Time [s]`: from the start of the run; t = 0 is the initial state.
- `Voltage [V]`: terminal voltage. Its first row already includes the ohmic
  drop of the applied current (PyBaMM makes the algebraic states consistent
  before the first step).
- `Current [A]`: applied current, **positive on discharge**, negative on
  charge.
- `Discharge capacity [A.h]`: the integral from t = 0 of
  `Current [A] / 3600`; it falls during a charge.
- `X-averaged cell temperature [K]` and `{rise_column}`
  (lumped cases): the installed PyBaMM calls the volume-averaged cell
  temperature `{rise_column}`. The lumped model has one
  temperature for the whole cell, so the two columns agree. The temperature
  rise in `summary.json` is the volume-averaged temperature at the last row
  minus its value at t = 0 (`max_temperature_rise_K`: the largest rise over
  the rows; the same here, as the cells only heat up).
- `Step` (experiment only): 0-based index of the experiment step that the
  row belongs to.

## Rows

- Discharges: one row every {period} s from t = 0, evaluated by IDAKLU's
  Hermite interpolant of its own adaptive steps (`t_interp`), then **one
  last row at the cut-off crossing**: the time at which the solver's root
  finding located `Voltage [V]` = 2.5 V (termination
  `event: Minimum voltage [V]`). That row's voltage is 2.5 V to about
  1e-12 V; its time is not a multiple of {period} s.
- Experiment: within each step one row every {period} s from the step's
  start (the experiment's `period`), then a last row at the step's end: the
  root-found crossing of its termination (2.5 V, 4.2 V, |I| = C/50), or
  the end of its duration (the rest). The first row of a step has the same
  time as the last row of the step before: it is the state made consistent
  under the new step's control, so current and voltage jump there. Both
  rows are kept, told apart by `Step`.

## Headline numbers (full precision in `summary.json`)
"""


CCCV_README = """\
The charge puts back {charged:.4f} A.h against the {discharged:.4f} A.h taken
out, so the run ends at a discharge capacity of {final:.4f} A.h: 4.2 V and
C/50 is a fuller state than Chen2020's initial one, whose open-circuit
voltage is {ocv:.4f} V (`Battery open-circuit voltage [V]` at t = 0).
"""


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def readme_text(info, written, summary, refine, capacity):
    """tests/data/pybamm/README.md: files, provenance, definitions, numbers."""
    default_mesh = set(info["mesh"].values()) == {20}
    head = README_HEAD.format(
        files="\n".join(f"| `{name}` | {text} |" for name, text in written),
        mesh_cells=", ".join(f"{k}={v}" for k, v in info["mesh"].items()),
        mesh_default=" (PyBaMM's default)" if default_mesh else "",
        rtol=info["solver"]["rtol"],
        atol=info["solver"]["atol"],
        solver_default=(
            ", PyBaMM's default solver at its default tolerances"
            if info["solver"]["default_tolerances"]
            else ""
        ),
        capacity=capacity,
        c50=capacity / 50,
        rise_column=RISE_COLUMN,
        period=OUTPUT_PERIOD_S,
        **info,
    )
    lines = [head]
    rows = []
    for case, s in summary.items():
        if "steps" in s:
            continue
        rise = s.get("temperature_rise_K")
        rows.append(
            [
                case,
                f"{s['final_time_s']:.3f}",
                f"{s['final_voltage_V']:.6f}",
                f"{s['discharge_capacity_Ah']:.6f}",
                "-" if rise is None else f"{rise:.4f}",
            ]
        )
    lines += markdown_table(
        [
            "case",
            "final time [s]",
            "final voltage [V]",
            "discharge capacity [A.h]",
            "temperature rise [K]",
        ],
        rows,
    )
    if "cccv_isothermal" in summary:
        rows = [
            [
                str(st["step"]),
                st["description"],
                f"{st['end_time_s']:.3f}",
                f"{st['end_voltage_V']:.6f}",
                f"{st['end_current_A']:.6f}",
                f"{st['discharge_capacity_change_Ah']:.6f}",
                st["termination"],
            ]
            for st in summary["cccv_isothermal"]["steps"]
        ]
        lines += ["", "CC-CV experiment (`cccv_isothermal.csv`):", ""]
        lines += markdown_table(
            [
                "step",
                "description",
                "end time [s]",
                "end voltage [V]",
                "end current [A]",
                "capacity change [A.h]",
                "ended by",
            ],
            rows,
        )
        cccv = summary["cccv_isothermal"]
        lines += [
            "",
            CCCV_README.format(
                charged=cccv["charge_capacity_Ah"],
                discharged=cccv["discharge_capacity_at_cutoff_Ah"],
                final=cccv["final_discharge_capacity_Ah"],
                ocv=info["initial_open_circuit_voltage_V"],
            ).rstrip("\n"),
        ]
    if refine is not None:
        lines += refine_readme_lines(refine)
    lines.append("")
    return "\n".join(lines)


def mesh_text(label):
    x, r = label["cells_per_domain"], label["cells_per_particle"]
    return f"{x}" if x == r else f"x {x} / r {r}"


REFINE_README = """
## Mesh convergence (`mesh_convergence.json`)

The 1C isothermal discharge with every domain and every particle at the
given number of uniform cells ("x 160 / r 20": 160 cells per domain, 20 per
particle), output every {grid:g} s. Voltage differences (coarse - fine) over
the grid times both runs reached before their cut-off crossings: over all of
them, over t >= {transient:g} s only, and over the {period} s rows that the
reference CSVs hold; capacity and final time at each run's own cut-off.
"""

REFINE_README_SENTENCE = """\
In short: at {coarse} cells PyBaMM's voltage is up to {max:.1f} mV from the
{fine}-cell curve, at t = {t_max:.0f} s, in the start-up transient (on the
{period} s rows: {row_max:.1f} mV at t = {t_row:.0f} s); it comes mostly from
the {source} mesh (refining r alone: {r_max:.1f} mV; refining x alone:
{x_max:.1f} mV). From t = {transient:g} s on the difference stays below
{late_max:.1f} mV (RMS over the whole curve {rms:.2f} mV), and the capacity
differs by {rel:.3f}%.{order_text}
"""

REFINE_README_TAIL = """
Solver tolerance, at {points} cells: the default (rtol {rtol:g}, atol
{atol:g}) against rtol {tight_rtol:g}, atol {tight_atol:g}: voltage RMS
{rms:.4f} mV, max {max:.4f} mV, capacity {dq:.2e} A.h.

`{fine_file}` holds the finest run on the {period} s rows, for
comparing converged curves where voltaic's discretisation differs from
PyBaMM's.
"""


def refine_readme_lines(refine):
    late = f"_after_{TRANSIENT_S:g}s"
    on_rows = f"_on_{OUTPUT_PERIOD_S}s_rows"
    lines = [
        REFINE_README.format(
            grid=REFINE_GRID_S, transient=TRANSIENT_S, period=OUTPUT_PERIOD_S
        )
    ]
    rows = []
    for c in refine["comparisons"] + refine["direction_split"]:
        rows.append(
            [
                f"{mesh_text(c['coarse'])} vs {mesh_text(c['fine'])}",
                f"{1e3 * c['voltage_rms_diff_V']:.3f}",
                f"{1e3 * c['voltage_max_abs_diff_V']:.3f} "
                f"({c['time_of_max_diff_s']:.0f})",
                f"{1e3 * c[f'voltage_rms_diff{late}_V']:.3f} / "
                f"{1e3 * c[f'voltage_max_abs_diff{late}_V']:.3f}",
                f"{1e3 * c[f'voltage_max_abs_diff{on_rows}_V']:.3f} "
                f"({c[f'time_of_max_diff{on_rows}_s']:.0f})",
                f"{c['capacity_diff_Ah']:.3e} ({c['capacity_rel_diff']:.1e})",
                f"{c['final_time_diff_s']:.3f}",
            ]
        )
    lines += markdown_table(
        [
            "coarse vs fine",
            "V RMS [mV]",
            "V max [mV] (at t [s])",
            f"t >= {TRANSIENT_S:g} s: RMS / max [mV]",
            f"{OUTPUT_PERIOD_S} s rows: max [mV] (at t [s])",
            "capacity [A.h] (relative)",
            "final time [s]",
        ],
        rows,
    )
    x_only, r_only = refine["direction_split"]
    coarse = [
        c
        for c in refine["comparisons"]
        if c["coarse"] == x_only["coarse"]
        and c["fine"]["cells_per_particle"]
        == r_only["fine"]["cells_per_particle"]
    ]
    if coarse:
        coarse = coarse[0]
        lines += [
            "",
            REFINE_README_SENTENCE.format(
                coarse=mesh_text(coarse["coarse"]),
                fine=mesh_text(coarse["fine"]),
                max=1e3 * coarse["voltage_max_abs_diff_V"],
                t_max=coarse["time_of_max_diff_s"],
                row_max=1e3 * coarse[f"voltage_max_abs_diff{on_rows}_V"],
                t_row=coarse[f"time_of_max_diff{on_rows}_s"],
                period=OUTPUT_PERIOD_S,
                transient=TRANSIENT_S,
                late_max=1e3 * coarse[f"voltage_max_abs_diff{late}_V"],
                rms=1e3 * coarse["voltage_rms_diff_V"],
                r_max=1e3 * r_only["voltage_max_abs_diff_V"],
                x_max=1e3 * x_only["voltage_max_abs_diff_V"],
                rel=100 * abs(coarse["capacity_rel_diff"]),
                source=(
                    "radial"
                    if r_only["voltage_max_abs_diff_V"]
                    > x_only["voltage_max_abs_diff_V"]
                    else "through-thickness (x)"
                ),
                order_text=(
                    " Convergence is slower than second order."
                    if refine["observed_order"]
                    and max(
                        o["voltage_rms_diff_V"]
                        for o in refine["observed_order"]
                    )
                    < 1.8
                    else ""
                ),
            ).rstrip("\n"),
        ]
    for order in refine["observed_order"]:
        lines += [
            "",
            f"Observed order of convergence from {order['points']} cells: "
            f"voltage RMS {order['voltage_rms_diff_V']:.2f} "
            f"({order[f'voltage_rms_diff{late}_V']:.2f} after "
            f"{TRANSIENT_S:g} s), capacity {order['capacity_diff_Ah']:.2f}.",
        ]
    tol = refine["solver_tolerance"]
    lines.append(
        REFINE_README_TAIL.format(
            points=tol["points"],
            rtol=tol["default"]["rtol"],
            atol=tol["default"]["atol"],
            tight_rtol=tol["tight"]["rtol"],
            tight_atol=tol["tight"]["atol"],
            rms=1e3 * tol["voltage_rms_diff_V"],
            max=1e3 * tol["voltage_max_abs_diff_V"],
            dq=tol["capacity_diff_Ah"],
            fine_file=refine["finest_curve_file"],
            period=OUTPUT_PERIOD_S,
        ).rstrip("\n")
    )
    return lines


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Write PyBaMM DFN (Chen2020) reference data for voltaic's "
        "validation tests."
    )
    parser.add_argument(
        "--out-dir",
        type=Path,
        default=Path(__file__).resolve().parent.parent
        / "tests"
        / "data"
        / "pybamm",
        help="folder for the CSV, JSON and README files "
        "(default: tests/data/pybamm in this repository)",
    )
    parser.add_argument(
        "--points",
        type=int,
        default=20,
        help="finite-volume cells per domain (x_n, x_s, x_p) and per particle "
        "(r_n, r_p); default 20, PyBaMM's default mesh",
    )
    parser.add_argument(
        "--cases",
        nargs="+",
        choices=all_case_names(),
        default=None,
        metavar="CASE",
        help="run only these cases (default: all): "
        + ", ".join(all_case_names()),
    )
    parser.add_argument(
        "--refine",
        action="store_true",
        help="also run the mesh-convergence check "
        "(writes mesh_convergence.json)",
    )
    parser.add_argument(
        "--refine-levels",
        type=int,
        nargs="+",
        default=list(DEFAULT_REFINE_LEVELS),
        metavar="N",
        help="cells per domain/particle for --refine, coarse to fine "
        "(default: " + " ".join(str(n) for n in DEFAULT_REFINE_LEVELS) + ")",
    )
    parser.add_argument(
        "--rtol",
        type=float,
        default=None,
        help="IDAKLU relative tolerance (default: PyBaMM's)",
    )
    parser.add_argument(
        "--atol",
        type=float,
        default=None,
        help="IDAKLU absolute tolerance (default: PyBaMM's)",
    )
    args = parser.parse_args(argv)
    if args.points < 2:
        parser.error("--points must be at least 2")
    levels = args.refine_levels
    if len(levels) < 2 or any(b <= a for a, b in zip(levels, levels[1:])):
        parser.error("--refine-levels needs at least two increasing values")
    return args


def main(argv):
    args = parse_args(argv[1:])
    pybamm, np = import_pybamm(SCRIPT)
    reference = Reference(pybamm, np, args.points, args.rtol, args.atol)
    info = provenance(pybamm, np, reference, argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    cases = args.cases or all_case_names()

    summary = {}
    written = []
    for thermal in THERMAL_OPTIONS:
        for c_rate in C_RATES:
            if discharge_case_name(thermal, c_rate) not in cases:
                continue
            case, entry = run_discharge(
                reference, info, args.out_dir, thermal, c_rate
            )
            summary[case] = entry
            written.append((f"{case}.csv", entry["description"]))
    if "cccv_isothermal" in cases:
        case, entry = run_experiment(reference, info, args.out_dir)
        summary[case] = entry
        written.append((f"{case}.csv", entry["description"]))

    write_json(
        args.out_dir / "summary.json", {"generator": info, "cases": summary}
    )
    written.append(
        (
            "summary.json",
            "per case: final time, final voltage, "
            "discharge capacity at cut-off, temperature rise (thermal), "
            "per-step figures (experiment)",
        )
    )
    refine = None
    if args.refine:
        refine = run_refine(reference, info, args.out_dir, args.refine_levels)
        levels = " / ".join(str(n) for n in args.refine_levels)
        written.append(
            (
                "mesh_convergence.json",
                f"the 1C isothermal discharge at {levels} cells per "
                "domain and per particle, refined in x or r alone, and "
                "at tight solver tolerances: voltage RMS / max and "
                "capacity changes",
            )
        )
        written.append(
            (
                refine["finest_curve_file"],
                "the 1C isothermal discharge on the finest mesh, "
                f"{OUTPUT_PERIOD_S} s rows",
            )
        )
    written.append(("README.md", "this file"))
    text = readme_text(
        info, written, summary, refine, reference.nominal_capacity()
    )
    with open(args.out_dir / "README.md", "w", newline="\n") as f:
        f.write(text)
    print(f"wrote {len(written)} files to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
