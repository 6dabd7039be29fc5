#!/usr/bin/env python3
"""Produces the PyBaMM reference data that voltaic's DFN validation tests use.

Every case is PyBaMM's DFN model (``pybamm.lithium_ion.DFN``) with the
Chen2020 parameter set (the ``marquis2019_*`` cases: Marquis2019), solved by
PyBaMM's default solver (IDAKLU) at its default tolerances, on PyBaMM's
default mesh of 20 finite-volume cells per domain (negative electrode,
separator, positive electrode) and per particle unless ``--points`` says
otherwise. Unless a case says otherwise it starts from the parameter set's
own initial state (Chen2020: uniform particle concentrations 29866 / 17038
mol/m^3, electrolyte 1000 mol/m^3, 298.15 K: the cell as Chen2020 defines it
fully charged).

Cases (one CSV each, named ``<case>.csv``):

* ``discharge_{isothermal,lumped}_{0.1,0.5,1,2,3,5}C``: constant-current
  discharges until 2.5 V, isothermal (298.15 K) or with
  ``{"thermal": "lumped"}``; rows every 10 s, every 1 s at 5C (whose
  discharge lasts about a minute);
* ``cccv_isothermal``: the experiment "Discharge at 1C until 2.5 V",
  "Rest for 1 hour", "Charge at 0.5C until 4.2 V", "Hold at 4.2 V until C/50"
  as one cycle, isothermal, every step recorded, with a ``Step`` column;
* ``cccv_{3,1}C_soc0.1_{isothermal,lumped}``: "Charge at 3C (1C) until
  4.2 V", "Hold at 4.2 V until C/20" from ``initial_soc=0.1``;
* ``power_discharge_12W_{isothermal,lumped}``: "Discharge at 12 W until
  2.5 V"; ``power_charge_5W_10min_soc0.5_isothermal``: "Charge at 5 W for 10
  minutes" from ``initial_soc=0.5``;
* ``drive_cycle_current_soc0.8_{isothermal,lumped}``: the synthetic current
  profile ``drive_cycle_current.csv`` (600 s, also written by this script)
  as one ``pybamm.step.current`` step from ``initial_soc=0.8``;
  ``drive_cycle_power_soc0.8_isothermal``: the same shape in watts
  (``drive_cycle_power.csv``, 3.6 W per A) as a ``pybamm.step.power`` step;
  rows every 1 s;
* ``marquis2019_discharge_{isothermal,lumped}_1C``: Marquis2019 at 1C until
  its "Lower voltage cut-off [V]" (3.105 V), from its own initial state.

For the cases started from an ``initial_soc``, the uniform particle
concentrations PyBaMM set are written in full (``repr``) in the CSV header
and in ``summary.json``, so another code can start from the same state by
setting "Initial concentration in negative electrode [mol.m-3]" and "...
positive electrode ...".

Rows are every 10 s unless said above (``t_interp`` for the discharges, the
experiment's ``period`` for the experiments, counted from the start of each
step); the last row of a discharge, and of each experiment step ended by an
event, is the solver's root-found crossing of the cut-off. Numbers are
written with ``repr`` (shortest text that reads back to the same double).

Also written: ``summary.json`` (final time, final voltage, discharge capacity
at cut-off, temperature rise, IDAKLU step counts per case), ``timings.json``
(wall-clock and IDAKLU integration times: the one file that differs from run
to run) and ``README.md`` (what each file is, how it was made, the
definitions). With ``--refine`` also ``mesh_convergence.json``: the 1C
isothermal discharge at 20, 40, 80 and 160 cells per domain and per particle
(``--refine-levels``), refined in x only and in r only, and at tightened
solver tolerances, compared on a common 1 s time grid (RMS and max voltage
difference, capacity difference, observed order); and
``discharge_isothermal_1C_<finest>pts.csv``, the finest run on the 10 s
rows. The whole --refine check takes under a minute on 2 cores.

Run from anywhere (needs ``pip install pybamm``; without PyBaMM the script
stops with a message saying so). Every case, from the repository root::

    python3 tools/pybamm_reference.py --refine

``--cases`` runs a subset (names or shell patterns, e.g. ``'drive_*'``).
When the output folder already holds a ``summary.json`` from the same
PyBaMM, packages, mesh and solver, a subset run updates it in place: the
cases it runs are replaced or added, the others (and their CSVs, and
``mesh_convergence.json`` unless ``--refine``) are kept as they are, and the
README is rewritten for all of them; each case records the command that
made it.

Options: ``--out-dir`` (default tests/data/pybamm beside this script),
``--points`` (cells per domain and per particle, default 20), ``--cases``,
``--refine`` / ``--refine-levels``, ``--rtol`` / ``--atol`` (default:
PyBaMM's IDAKLU defaults).

The output is deterministic apart from ``timings.json``: no timestamps or
timings are written elsewhere, and the solver runs single-threaded, so a
rerun with the same PyBaMM version on the same machine rewrites the same
bytes. (Another CPU may change the last digits: libm and NumPy pick
CPU-specific code paths.)
"""

import argparse
import fnmatch
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from pybamm_common import host_cpu_name, import_pybamm, package_version

PARAMETER_SET = "Chen2020"
MARQUIS = "Marquis2019"
C_RATES = (0.1, 0.5, 1.0, 2.0, 3.0, 5.0)
THERMAL_OPTIONS = ("isothermal", "lumped")
OUTPUT_PERIOD_S = 10
# Row spacing where 10 s is too coarse: the 5C discharge reaches 2.5 V after
# about 62 s (the electrolyte empties in the positive electrode).
DISCHARGE_PERIOD_S = {5.0: 1}
MARQUIS_C_RATE = 1.0
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
CCCV_SOC = 0.1
CCCV_RATES = (3.0, 1.0)
POWER_CHARGE_SOC = 0.5
DRIVE_SOC = 0.8
DRIVE_PERIOD_S = 1
DRIVE_TERMINATION = "< 2.5 V"
DRIVE_CURRENT_FILE = "drive_cycle_current.csv"
DRIVE_POWER_FILE = "drive_cycle_power.csv"
DRIVE_WATTS_PER_AMP = 3.6
# The synthetic drive cycle: four trips and a final stop, 600 s in all, as
# knots joined by straight lines and sampled every 1 s (rounded to 1 mA).
# Per trip: (peak current [A], its hold [s], cruise current [A], cruise [s],
# regenerative-braking current [A] (< 0: charge), stop after the trip [s]).
# Each trip: rest 10 s; ramp to the peak in 5 s; hold; down to the cruise
# current in 4 s; cruise; to 0 A in 2 s; coast (0 A) 10 s; ramp to the braking
# current in 4 s; hold it 8 s; back to 0 A in 4 s; stop.
DRIVE_TRIPS = (
    (12.0, 10, 4.0, 50, -6.0, 20),
    (15.0, 12, 6.0, 56, -8.0, 20),
    (9.0, 8, 3.0, 60, -4.0, 25),
    (15.0, 15, 8.0, 55, -10.0, 81),
)
DRIVE_DURATION_S = 600
BASE_COLUMNS = (
    "Time [s]",
    "Voltage [V]",
    "Current [A]",
    "Discharge capacity [A.h]",
)
POWER_COLUMN = "Power [W]"
THERMAL_COLUMNS = (
    "X-averaged cell temperature [K]",
    "Volume-averaged cell temperature [K]",
)
# The variable whose change is reported as the temperature rise.
RISE_COLUMN = "Volume-averaged cell temperature [K]"
NEGATIVE_C0 = "Initial concentration in negative electrode [mol.m-3]"
POSITIVE_C0 = "Initial concentration in positive electrode [mol.m-3]"
# Generator fields that must match for a --cases run to update existing data.
MERGE_KEYS = (
    "pybamm_version",
    "pybammsolvers_version",
    "casadi_version",
    "numpy_version",
    "python_version",
    "model",
    "parameter_set",
    "mesh",
    "solver",
)

SCRIPT = "pybamm_reference.py"


def rate_label(c_rate):
    return f"{c_rate:g}C"


def seconds(timer_time):
    """A PyBaMM TimerTime (or a number) in seconds."""
    return float(getattr(timer_time, "value", timer_time))


def solver_statistics(solution):
    """IDAKLU's counters for a solution (summed over experiment steps)."""
    stats = getattr(solution, "solver_statistics", None)
    names = (
        "number_of_steps",
        "number_of_error_test_failures",
        "number_of_nonlinear_solver_iterations",
        "number_of_nonlinear_solver_fails",
        "number_of_linear_solver_setups",
    )
    if stats is None:
        return None
    out = {}
    for name in names:
        value = getattr(stats, name, None)
        if value is not None:
            out[name[len("number_of_") :]] = int(value)
    return out or None


def electrolyte_extremes(np, solution):
    """Smallest electrolyte concentration over the output rows, in the cell
    and in the positive electrode alone."""

    def smallest(name):
        return float(np.min(solution[name].entries))

    return {
        "min_electrolyte_concentration_mol_m3": smallest(
            "Electrolyte concentration [mol.m-3]"
        ),
        "min_positive_electrolyte_concentration_mol_m3": smallest(
            "Positive electrolyte concentration [mol.m-3]"
        ),
    }


def solution_timings(solution, elapsed):
    return {
        "solve_wall_s": elapsed,
        "solver_set_up_s": seconds(solution.set_up_time),
        "integration_s": seconds(solution.integration_time),
    }


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

    def parameters(self, parameter_set=PARAMETER_SET):
        return self.pybamm.ParameterValues(parameter_set)

    def simulation(
        self,
        thermal,
        points,
        rtol=None,
        atol=None,
        current=None,
        experiment=None,
        parameter_set=PARAMETER_SET,
    ):
        pybamm = self.pybamm
        model = pybamm.lithium_ion.DFN(options={"thermal": thermal})
        params = self.parameters(parameter_set)
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
        params = self.parameters()

        def value(name):
            return f"{params[name]:g}"

        return (
            "the parameter set's own, fully charged as Chen2020 defines it "
            "(no initial_soc): uniform particle concentrations "
            f"{value(NEGATIVE_C0)}"
            " (negative) and "
            f"{value(POSITIVE_C0)}"
            " (positive) mol/m^3, electrolyte "
            f"{value('Initial concentration in electrolyte [mol.m-3]')} "
            f"mol/m^3, {value('Initial temperature [K]')} K (ambient "
            f"{value('Ambient temperature [K]')} K)"
        )

    def own_initial_state(self, parameter_set):
        """Another parameter set's own initial state, in words (full
        precision)."""
        params = self.parameters(parameter_set)

        def value(name):
            return repr(float(params[name]))

        return (
            f"the parameter set's own (no initial_soc): uniform particle "
            f"concentrations {value(NEGATIVE_C0)} (negative) and "
            f"{value(POSITIVE_C0)} (positive) mol/m^3, electrolyte "
            f"{value('Initial concentration in electrolyte [mol.m-3]')} "
            f"mol/m^3, {value('Initial temperature [K]')} K (ambient "
            f"{value('Ambient temperature [K]')} K)"
        )

    def initial_ocv(self):
        """Open-circuit voltage of the initial state (a zero-current run)."""
        sim = self.simulation("isothermal", self.points, current=0.0)
        solution = sim.solve(t_eval=[0.0, 1.0])
        return float(solution["Battery open-circuit voltage [V]"].entries[0])

    def nominal_capacity(self, parameter_set=PARAMETER_SET):
        return self.parameters(parameter_set)["Nominal cell capacity [A.h]"]

    def cutoff(self, parameter_set=PARAMETER_SET):
        return self.parameters(parameter_set)["Lower voltage cut-off [V]"]

    def discharge(
        self,
        c_rate,
        thermal,
        points=None,
        grid_s=OUTPUT_PERIOD_S,
        rtol=None,
        atol=None,
        parameter_set=PARAMETER_SET,
    ):
        """Constant-current discharge from the initial state to the lower
        cut-off (the model's "Minimum voltage [V]" event)."""
        np = self.np
        points = self.points if points is None else points
        current = c_rate * self.nominal_capacity(parameter_set)
        sim = self.simulation(
            thermal,
            points,
            rtol,
            atol,
            current=current,
            parameter_set=parameter_set,
        )
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
        return data, solution.termination, elapsed, solution

    def experiment(self, spec, steps):
        """An experiment as one cycle: the rows of every step, the step
        solutions and the parameter values the run used."""
        np = self.np
        pybamm = self.pybamm
        experiment = pybamm.Experiment(
            [tuple(steps)], period=f"{spec['period_s']} seconds"
        )
        sim = self.simulation(
            spec["thermal"],
            self.points,
            experiment=experiment,
            parameter_set=spec["parameter_set"],
        )
        start = time.perf_counter()
        if spec["initial_soc"] is None:
            solution = sim.solve()
        else:
            solution = sim.solve(initial_soc=spec["initial_soc"])
        elapsed = time.perf_counter() - start
        step_solutions = solution.cycles[0].steps if solution.cycles else []
        if len(step_solutions) != len(steps):
            sys.exit(
                f"{SCRIPT}: the experiment {spec['name']} ran "
                f"{len(step_solutions)} of {len(steps)} steps "
                f"('{solution.termination}')."
            )
        data = {name: [] for name in spec["columns"] + ("Step",)}
        terminations = []
        for index, step in enumerate(step_solutions):
            for name in spec["columns"]:
                data[name].append(
                    np.asarray(step[name].entries, dtype=float).ravel()
                )
            data["Step"].append(np.full(len(data["Time [s]"][-1]), index))
            check_increasing(
                np,
                data["Time [s]"][-1],
                f"{spec['name']} experiment step {index}",
            )
            terminations.append(step.termination)
        data = {name: np.concatenate(parts) for name, parts in data.items()}
        return {
            "data": data,
            "terminations": terminations,
            "elapsed": elapsed,
            "solution": solution,
            "steps": step_solutions,
            "parameter_values": sim.parameter_values,
        }


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


def common_header(
    info,
    case,
    description,
    thermal,
    parameter_set=PARAMETER_SET,
    initial_state=None,
):
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
        f'parameters: pybamm.ParameterValues("{parameter_set}")',
        "initial state: "
        + (info["initial_state"] if initial_state is None else initial_state),
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


# The cases ------------------------------------------------------------------


def discharge_case_name(thermal, c_rate, parameter_set=PARAMETER_SET):
    name = f"discharge_{thermal}_{rate_label(c_rate)}"
    if parameter_set != PARAMETER_SET:
        name = f"{parameter_set.lower()}_{name}"
    return name


def step_text(step):
    """An experiment step as written in the CSV header and the summary."""
    if isinstance(step, str):
        return step
    kind, profile, termination = step
    return (
        f"pybamm.step.{kind}(<{profile} as a 2-column array>, "
        f"termination='{termination}')"
    )


def case_specs():
    """Every case, in the order they are run and listed."""
    specs = {}

    def discharge(thermal, c_rate, parameter_set=PARAMETER_SET):
        name = discharge_case_name(thermal, c_rate, parameter_set)
        specs[name] = {
            "name": name,
            "kind": "discharge",
            "parameter_set": parameter_set,
            "thermal": thermal,
            "c_rate": c_rate,
            "period_s": DISCHARGE_PERIOD_S.get(c_rate, OUTPUT_PERIOD_S),
        }

    def experiment(name, thermal, steps, initial_soc=None, **extra):
        columns = BASE_COLUMNS
        if extra.get("power"):
            columns += (POWER_COLUMN,)
        if thermal != "isothermal":
            columns += THERMAL_COLUMNS
        spec = {
            "name": name,
            "kind": "experiment",
            "parameter_set": PARAMETER_SET,
            "thermal": thermal,
            "steps": tuple(steps),
            "initial_soc": initial_soc,
            "period_s": OUTPUT_PERIOD_S,
            "columns": columns,
            "family": None,
            "profile": None,
        }
        spec.update(extra)
        specs[name] = spec

    for thermal in THERMAL_OPTIONS:
        for c_rate in C_RATES:
            discharge(thermal, c_rate)
    experiment(
        "cccv_isothermal", "isothermal", EXPERIMENT_STEPS, family="cccv50"
    )
    for c_rate in CCCV_RATES:
        for thermal in THERMAL_OPTIONS:
            experiment(
                f"cccv_{rate_label(c_rate)}_soc{CCCV_SOC:g}_{thermal}",
                thermal,
                (
                    f"Charge at {rate_label(c_rate)} until 4.2 V",
                    "Hold at 4.2 V until C/20",
                ),
                initial_soc=CCCV_SOC,
                family="cccv",
            )
    for thermal in THERMAL_OPTIONS:
        experiment(
            f"power_discharge_12W_{thermal}",
            thermal,
            ("Discharge at 12 W until 2.5 V",),
            family="power",
            power=True,
        )
    experiment(
        f"power_charge_5W_10min_soc{POWER_CHARGE_SOC:g}_isothermal",
        "isothermal",
        ("Charge at 5 W for 10 minutes",),
        initial_soc=POWER_CHARGE_SOC,
        family="power",
        power=True,
    )
    for thermal in THERMAL_OPTIONS:
        experiment(
            f"drive_cycle_current_soc{DRIVE_SOC:g}_{thermal}",
            thermal,
            (("current", DRIVE_CURRENT_FILE, DRIVE_TERMINATION),),
            initial_soc=DRIVE_SOC,
            period_s=DRIVE_PERIOD_S,
            family="drive",
            profile=DRIVE_CURRENT_FILE,
        )
    experiment(
        f"drive_cycle_power_soc{DRIVE_SOC:g}_isothermal",
        "isothermal",
        (("power", DRIVE_POWER_FILE, DRIVE_TERMINATION),),
        initial_soc=DRIVE_SOC,
        period_s=DRIVE_PERIOD_S,
        family="drive",
        profile=DRIVE_POWER_FILE,
        power=True,
    )
    for thermal in THERMAL_OPTIONS:
        discharge(thermal, MARQUIS_C_RATE, MARQUIS)
    return specs


def all_case_names():
    return list(case_specs())


def select_cases(patterns):
    """Case names matching the given names or shell patterns, in run order."""
    names = all_case_names()
    unmatched = [p for p in patterns if not fnmatch.filter(names, p)]
    if unmatched:
        sys.exit(
            f"{SCRIPT}: no case matches {', '.join(unmatched)}; the cases "
            "are: " + ", ".join(names)
        )
    return [n for n in names if any(fnmatch.fnmatch(n, p) for p in patterns)]


# Drive cycles ---------------------------------------------------------------


def drive_cycle_current(np):
    """The synthetic current profile: [time [s], current [A]] every 1 s."""
    knots = [(0.0, 0.0)]

    def segment(duration, value):
        knots.append((knots[-1][0] + duration, value))

    for peak, hold, cruise, cruise_s, regen, stop in DRIVE_TRIPS:
        segment(10, 0.0)
        segment(5, peak)
        segment(hold, peak)
        segment(4, cruise)
        segment(cruise_s, cruise)
        segment(2, 0.0)
        segment(10, 0.0)
        segment(4, regen)
        segment(8, regen)
        segment(4, 0.0)
        segment(stop, 0.0)
    if knots[-1][0] != DRIVE_DURATION_S:
        sys.exit(f"{SCRIPT}: the drive cycle's knots end at {knots[-1][0]} s.")
    knot_t, knot_i = np.array(knots).T
    t = np.arange(0.0, DRIVE_DURATION_S + 1.0, 1.0)
    return np.column_stack([t, np.round(np.interp(t, knot_t, knot_i), 3)])


def write_profile(np, path, names, array):
    """A 2-column profile as CSV (one header line, then repr numbers), read
    back to check that the file holds exactly the array."""
    with open(path, "w", newline="\n") as f:
        f.write(",".join(names) + "\n")
        for t, value in array:
            f.write(f"{float(t)!r},{float(value)!r}\n")
    back = np.loadtxt(path, delimiter=",", skiprows=1)
    if not np.array_equal(back, array):
        sys.exit(f"{SCRIPT}: {path} does not read back to its values.")
    return back


def write_drive_cycles(np, out_dir):
    """Writes both drive-cycle profiles; returns them by file name."""
    current = drive_cycle_current(np)
    power = np.column_stack(
        [current[:, 0], DRIVE_WATTS_PER_AMP * current[:, 1]]
    )
    return {
        DRIVE_CURRENT_FILE: write_profile(
            np,
            out_dir / DRIVE_CURRENT_FILE,
            ("Time [s]", "Current [A]"),
            current,
        ),
        DRIVE_POWER_FILE: write_profile(
            np, out_dir / DRIVE_POWER_FILE, ("Time [s]", "Power [W]"), power
        ),
    }


def profile_summary(np, array):
    t, y = array[:, 0], array[:, 1]
    return {
        "points": int(len(t)),
        "duration_s": float(t[-1]),
        "min": float(y.min()),
        "max": float(y.max()),
        "mean": float(np.trapezoid(y, t) / (t[-1] - t[0])),
        # Exact integral of the piecewise-linear profile over its duration.
        "integral_per_3600": float(np.trapezoid(y, t) / 3600.0),
    }


# Running the cases ----------------------------------------------------------


def temperature_summary(np, temp):
    return {
        "temperature_variable": RISE_COLUMN,
        "initial_temperature_K": float(temp[0]),
        "final_temperature_K": float(temp[-1]),
        "temperature_rise_K": float(temp[-1] - temp[0]),
        "max_temperature_rise_K": float(temp.max() - temp[0]),
    }


def run_discharge(reference, info, out_dir, spec):
    np = reference.np
    case = spec["name"]
    thermal = spec["thermal"]
    c_rate = spec["c_rate"]
    parameter_set = spec["parameter_set"]
    period = spec["period_s"]
    own_set = parameter_set == PARAMETER_SET
    capacity = reference.nominal_capacity(parameter_set)
    cutoff = reference.cutoff(parameter_set)
    current = c_rate * capacity
    data, termination, elapsed, solution = reference.discharge(
        c_rate, thermal, grid_s=period, parameter_set=parameter_set
    )
    t = data["Time [s]"]
    v = data["Voltage [V]"]
    description = (
        f"constant-current discharge at {rate_label(c_rate)} "
        f"({current:g} A; 1C = {capacity:g} A.h / 1 h) from the "
        f"initial state until {cutoff:g} V"
        + (
            ""
            if own_set
            else f' ({parameter_set}\'s "Lower voltage cut-off [V]")'
        )
        + f", {thermal}"
    )
    initial_state = (
        None if own_set else reference.own_initial_state(parameter_set)
    )
    header = common_header(
        info, case, description, thermal, parameter_set, initial_state
    )
    header += [
        f"rows: every {period} s from t = 0 (IDAKLU t_interp, the "
        "solver's Hermite interpolant), then a last row at the solver's "
        f"root-found crossing of the {cutoff:g} V cut-off "
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
        summary.update(temperature_summary(np, data[RISE_COLUMN]))
    summary["row_period_s"] = period
    if not own_set:
        summary["parameter_set"] = parameter_set
        summary["cutoff_voltage_V"] = float(cutoff)
        summary["initial_state"] = {
            "description": initial_state,
            "negative_particle_concentration_mol_m3": float(
                reference.parameters(parameter_set)[NEGATIVE_C0]
            ),
            "positive_particle_concentration_mol_m3": float(
                reference.parameters(parameter_set)[POSITIVE_C0]
            ),
        }
    summary.update(electrolyte_extremes(np, solution))
    summary["idaklu_statistics"] = solver_statistics(solution)
    print(
        f"{case}: {len(t)} rows, t_end {t[-1]:.3f} s, V_end {v[-1]:.6f} V, "
        f"Q {summary['discharge_capacity_Ah']:.6f} A.h, solve {elapsed:.2f} s"
    )
    return case, summary, solution_timings(solution, elapsed)


def soc_initial_state(spec, params):
    """The initial state PyBaMM set from initial_soc, in words, and its
    numbers."""
    soc = spec["initial_soc"]
    c_n = float(params[NEGATIVE_C0])
    c_p = float(params[POSITIVE_C0])
    words = (
        f"initial_soc={soc:g}: Simulation.solve(initial_soc={soc:g}), "
        "PyBaMM's electrode state-of-health calculation (stoichiometries "
        "linear in SOC between those at which the open-circuit voltage is "
        f"{params['Open-circuit voltage at 0% SOC [V]']:g} V (SOC 0) and "
        f"{params['Open-circuit voltage at 100% SOC [V]']:g} V (SOC 1), with "
        f"the cyclable lithium of {spec['parameter_set']}'s own initial "
        "state), sets uniform particle concentrations "
        f"{c_n!r} (negative) and {c_p!r} (positive) mol/m^3; everything else "
        f"as {spec['parameter_set']}'s own: electrolyte "
        f"{params['Initial concentration in electrolyte [mol.m-3]']:g} "
        f"mol/m^3, {params['Initial temperature [K]']:g} K (ambient "
        f"{params['Ambient temperature [K]']:g} K)"
    )
    numbers = {
        "initial_soc": soc,
        "method": f"pybamm.Simulation.solve(initial_soc={soc:g})",
        "negative_particle_concentration_mol_m3": c_n,
        "positive_particle_concentration_mol_m3": c_p,
    }
    return words, numbers


def rows_sentence(period, terminations):
    """How the rows of an experiment are placed, for the CSV header."""
    events = [i for i, t in enumerate(terminations) if t != "final time"]
    timed = [i for i, t in enumerate(terminations) if t == "final time"]

    def listed(indices):
        word = "step" if len(indices) == 1 else "steps"
        return f"{word} {', '.join(str(i) for i in indices)}"

    ends = []
    if events:
        ends.append(
            "the solver's root-found crossing of the step's termination "
            f"condition ({listed(events)})"
        )
    if timed:
        ends.append(f"the end of its duration ({listed(timed)})")
    text = (
        f"rows: within each step every {period} s from the step's "
        "start (Experiment period), then a last row at the step's end: "
        + " or ".join(ends)
        + "."
    )
    if len(terminations) > 1:
        text += (
            " The first row of each step repeats the time of the previous "
            "step's last row, with the state made consistent under the new "
            "step's control (the current or voltage jumps there)."
        )
    return text


def power_error(np, spec, data, profiles):
    """Largest |Power [W] - target| over the rows of a power experiment."""
    if spec["profile"] is not None:
        profile = profiles[spec["profile"]]
        target = np.interp(data["Time [s]"], profile[:, 0], profile[:, 1])
    else:
        # "Discharge at 12 W ..." / "Charge at 5 W ...": one value, > 0 on
        # discharge.
        text = spec["steps"][0]
        watts = float(text.split(" at ")[1].split(" W")[0])
        target = watts if text.startswith("Discharge") else -watts
    return float(np.max(np.abs(data[POWER_COLUMN] - target)))


def experiment_steps(pybamm, spec, profiles):
    """The steps of an experiment as PyBaMM takes them."""
    steps = []
    for step in spec["steps"]:
        if isinstance(step, str):
            steps.append(step)
            continue
        kind, profile, termination = step
        make = getattr(pybamm.step, kind)
        steps.append(make(profiles[profile], termination=termination))
    return steps


def run_experiment(reference, info, out_dir, spec, profiles):
    np = reference.np
    case = spec["name"]
    thermal = spec["thermal"]
    texts = [step_text(s) for s in spec["steps"]]
    result = reference.experiment(
        spec, experiment_steps(reference.pybamm, spec, profiles)
    )
    data = result["data"]
    terminations = result["terminations"]
    elapsed = result["elapsed"]
    solution = result["solution"]
    step = data["Step"]
    t = data["Time [s]"]
    v = data["Voltage [V]"]
    i = data["Current [A]"]
    q = data["Discharge capacity [A.h]"]
    legacy = spec["family"] == "cccv50"
    capacity = reference.nominal_capacity(spec["parameter_set"])
    start_words = (
        "from the initial state"
        if spec["initial_soc"] is None
        else f"from initial_soc={spec['initial_soc']:g}"
    )
    description = (
        "the experiment ["
        + ", ".join(f'"{s}"' for s in texts)
        + f"] as one cycle {start_words}, {thermal}"
    )
    if legacy:
        description += (
            "; the constant-voltage hold ends when |I| falls to C/50 = "
            f"{capacity / 50:g} A"
        )
    elif spec["family"] == "cccv":
        description += (
            "; the constant-voltage hold ends when |I| falls to C/20 = "
            f"{capacity / 20:g} A"
        )
    elif spec["family"] == "drive":
        description += (
            f"; {spec['profile']} (written by this script) interpolated "
            "linearly in time by PyBaMM, the step's duration the profile's "
            f"last time ({profiles[spec['profile']][-1, 0]:g} s)"
        )
    initial_state = None
    state_numbers = None
    if spec["initial_soc"] is not None:
        initial_state, state_numbers = soc_initial_state(
            spec, result["parameter_values"]
        )
    header = common_header(
        info,
        case,
        description,
        thermal,
        spec["parameter_set"],
        initial_state,
    )
    if state_numbers is not None:
        header += [
            f"{NEGATIVE_C0}: "
            f"{state_numbers['negative_particle_concentration_mol_m3']!r}",
            f"{POSITIVE_C0}: "
            f"{state_numbers['positive_particle_concentration_mol_m3']!r}",
        ]
    if POWER_COLUMN in spec["columns"]:
        header.append(
            "power: Power [W] = Voltage [V] * Current [A], > 0 on discharge; "
            "a power step holds it at its value (the current is an algebraic "
            "unknown), to the solver's tolerance"
        )
    steps = []
    for index, text in enumerate(texts):
        rows = step == index
        first = int(np.argmax(rows))
        last = int(len(rows) - 1 - np.argmax(rows[::-1]))
        entry = {
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
        if POWER_COLUMN in data:
            entry["start_power_W"] = float(data[POWER_COLUMN][first])
            entry["end_power_W"] = float(data[POWER_COLUMN][last])
        if thermal != "isothermal":
            entry["end_temperature_K"] = float(data[RISE_COLUMN][last])
        entry["idaklu_statistics"] = solver_statistics(result["steps"][index])
        steps.append(entry)
        header.append(
            f'step {index}: "{text}": data rows {first + 1}-{last + 1}, '
            f"t {t[first]:.6f} to {t[last]:.6f} s, "
            f"ended by '{terminations[index]}'"
        )
    header += [
        rows_sentence(spec["period_s"], terminations),
        "Step: 0-based index into the experiment's steps, as listed above",
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
        "rows": int(len(t)),
        "steps": steps,
        "final_time_s": float(t[-1]),
        "final_voltage_V": float(v[-1]),
        "final_current_A": float(i[-1]),
    }
    if legacy:
        summary.update(
            {
                "discharge_capacity_at_cutoff_Ah": steps[0][
                    "discharge_capacity_change_Ah"
                ],
                "charge_capacity_Ah": -(
                    steps[2]["discharge_capacity_change_Ah"]
                    + steps[3]["discharge_capacity_change_Ah"]
                ),
            }
        )
    summary["final_discharge_capacity_Ah"] = float(q[-1])
    if not legacy:
        summary["experiment"] = texts
        summary["row_period_s"] = spec["period_s"]
        summary["initial_voltage_V"] = float(v[0])
        summary["min_voltage_V"] = float(v.min())
        summary["max_voltage_V"] = float(v.max())
        if spec["family"] == "cccv":
            summary["charge_capacity_Ah"] = -float(q[-1])
        if POWER_COLUMN in data:
            summary["final_power_W"] = float(data[POWER_COLUMN][-1])
            summary["max_power_error_W"] = power_error(
                np, spec, data, profiles
            )
        if spec["profile"] is not None:
            summary["profile_file"] = spec["profile"]
            summary["profile"] = profile_summary(np, profiles[spec["profile"]])
        if state_numbers is not None:
            summary["initial_state"] = dict(
                state_numbers, description=initial_state
            )
        if thermal != "isothermal":
            summary.update(temperature_summary(np, data[RISE_COLUMN]))
    summary.update(electrolyte_extremes(np, solution))
    summary["idaklu_statistics"] = solver_statistics(solution)
    print(
        f"{case}: {len(t)} rows, t_end {t[-1]:.3f} s, V_end {v[-1]:.6f} V, "
        f"Q_end {q[-1]:.6f} A.h, solve {elapsed:.2f} s"
    )
    return case, summary, solution_timings(solution, elapsed)


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
        data, termination, elapsed, _ = reference.discharge(
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
    tight, _, elapsed, _ = reference.discharge(
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
script only calls PyBaMM's public API. The folder `sweep/` (five random
cells of a parameter sweep, issue 11) is written by `tools/pybamm_sweep.py`
instead; `sweep/README.md` gives its commands. The folder `pouch/`
(Marquis2019 with 2+1D potential-pair current collectors, for the
pouch-cell mode) is written by `tools/pybamm_pouch_reference.py`, which
`tools/pybamm_reference.py --pouch` runs too; `pouch/README.md` says how.

- PyBaMM: `pybamm.__version__` = **{pybamm_version}** (pybammsolvers
  {pybammsolvers_version}, casadi {casadi_version}, numpy {numpy_version},
  Python {python_version})
{commands}

## Files

| file | content |
|---|---|
{files}

Each case CSV starts with comment lines (`#`) that repeat the version, the
command, the case, initial state, mesh, solver and tolerances; then one line
of column names (unquoted, comma-separated, named as PyBaMM names the
variables), then numbers written with Python's `repr` (the shortest text
that reads back to the same double). Read them with, for example,
`pandas.read_csv(path, comment="#")`. The drive-cycle profiles have no
comment lines: one line of column names, then the numbers.

## Set-up common to every case

- Model `pybamm.lithium_ion.DFN`, parameter set `{parameter_set}` (the
  `marquis2019_*` cases: `{marquis}`), option
  `"thermal"` = `"isothermal"` or `"lumped"`; every other option at
  PyBaMM's default.
- Initial state, unless the case starts from an `initial_soc` (below) or
  uses {marquis}: {initial_state}.
- Mesh: {mesh_cells}: uniform finite-volume cells per domain and per
  particle{mesh_default}.
- Solver: `pybamm.IDAKLUSolver(rtol={rtol!r}, atol={atol!r})`{solver_default},
  single-threaded (deterministic: a rerun on the same machine rewrites the
  same bytes, `timings.json` apart; another CPU can change the last digits).
- 1C = nominal capacity {capacity:g} A.h over 1 h = {capacity:g} A;
  C/20 = {c20:g} A; C/50 = {c50:g} A ({marquis}: 1C = {marquis_capacity:g} A).
"""

README_STATES = """
## Initial states from `initial_soc`

`Simulation.solve(initial_soc=s)` runs PyBaMM's electrode state-of-health
calculation: the stoichiometries at SOC 0 and SOC 1 are those at which the
open-circuit voltage is `Open-circuit voltage at 0% SOC [V]` ({ocv0:g} V)
and `Open-circuit voltage at 100% SOC [V]` ({ocv100:g} V) with the cyclable
lithium of {parameter_set}'s own initial state, and the stoichiometry is
linear in SOC between them. It changes only `{negative}` and `{positive}`
(uniform particle concentrations); electrolyte and temperature stay as
{parameter_set}'s own. To start another code from the same state, set those
two parameters to these values (full precision, also in each CSV header and
in `summary.json`):
"""

README_DEFINITIONS = """
## Definitions

- `Time [s]`: from the start of the run; t = 0 is the initial state.
- `Voltage [V]`: terminal voltage. Its first row already includes the ohmic
  drop of the applied current (PyBaMM makes the algebraic states consistent
  before the first step).
- `Current [A]`: applied current, **positive on discharge**, negative on
  charge.
- `Discharge capacity [A.h]`: the integral from t = 0 of
  `Current [A] / 3600`; it falls during a charge.
- `Power [W]` (power-controlled cases): `Voltage [V] * Current [A]`,
  **positive on discharge**. A power step (`"Discharge at 12 W"`,
  `pybamm.step.power`) makes the current an algebraic unknown with
  `V I = P`, held to the solver's tolerance: `max_power_error_W` in
  `summary.json` is the largest |P - target| over the rows.
- `X-averaged cell temperature [K]` and `{rise_column}`
  (lumped cases): the installed PyBaMM calls the volume-averaged cell
  temperature `{rise_column}`. The lumped model has one
  temperature for the whole cell, so the two columns agree. The temperature
  rise in `summary.json` is the volume-averaged temperature at the last row
  minus its value at t = 0; `max_temperature_rise_K` is the largest rise
  over the rows (the same where the cell only heats up).
- `Step` (experiments): 0-based index of the experiment step that the
  row belongs to.
- `idaklu_statistics` (`summary.json`): IDAKLU's counters for the whole run
  (`steps`: accepted internal steps; error-test failures, nonlinear
  iterations and failures, linear-solver set-ups), per experiment step as
  well. Deterministic; the wall-clock times are in `timings.json`.

## Drive cycles

- `{current_file}`: `Time [s],Current [A]`, every 1 s from 0 to
  {duration:g} s, made by a fixed formula (no random numbers; the knots are
  `DRIVE_TRIPS` in the script): {trips} trips, each a 10 s rest, a ramp in
  5 s to a peak discharge current ({peaks} A) held {holds} s, 4 s down to a
  cruise ({cruises} A) held {cruise_s} s, 2 s down to 0 A, a 10 s coast, a
  regenerative-braking charge ({regens} A: negative is charge; 4 s ramps
  around an 8 s hold) and a stop ({stops} s); knots joined by straight
  lines, sampled every second, rounded to 1 mA. Mean {mean:.4f} A; the
  profile's exact integral is {integral:.6f} A.h.
- `{power_file}`: the same shape in watts, `{watts:g} W/A x current`
  (`Time [s],Power [W]`), positive on discharge.
- PyBaMM runs each as one experiment step, `pybamm.step.current(array,
  termination="{termination}")` or `pybamm.step.power(...)`, with the
  2-column array read back from the file. PyBaMM 26.10 turns the array into
  `pybamm.Interpolant(t, values, t - start time)` with its default
  interpolator, **linear**, extrapolating (which only matters past the last
  time): the current (power) is piecewise linear in time through the given
  points. The step's **duration is the array's last time** ({duration:g} s);
  a longer `duration` would repeat the profile (each copy starting one
  sample interval after the previous one's last time). The solver stops at every
  time of the array (they are its `t_eval`), so the kinks fall on step
  boundaries. A termination on a drive-cycle step must carry an operator:
  `"{termination}"` is accepted, plain `"2.5 V"` is refused ("Termination
  must include an operator when using InputParameter"); the `ended by`
  column below says whether a run reached it.
"""

README_ROWS = """
## Rows

- Discharges: one row every {period} s from t = 0 ({fast}), evaluated by
  IDAKLU's Hermite interpolant of its own adaptive steps (`t_interp`), then
  **one last row at the cut-off crossing**: the time at which the solver's
  root finding located `Voltage [V]` = the cut-off (2.5 V; {marquis}:
  {marquis_cutoff:g} V) (termination `event: Minimum voltage [V]`). That
  row's voltage is the cut-off to about 1e-12 V; its time is not a multiple
  of the row spacing.
- Experiments: within each step one row every {period} s from the step's
  start (the experiment's `period`; drive cycles every {drive_period} s), then
  a last row at the step's end: the root-found crossing of its termination
  (2.5 V, 4.2 V, |I| = C/20 or C/50), or the end of its duration (the rest,
  the 10-minute charge, the drive cycles). The first row of a step has the
  same time as the last row of the step before: it is the state made
  consistent under the new step's control, so current and voltage jump
  there. Both rows are kept, told apart by `Step`.
"""


CCCV_README = """\
The charge puts back {charged:.4f} A.h against the {discharged:.4f} A.h taken
out, so the run ends at a discharge capacity of {final:.4f} A.h: 4.2 V and
C/50 is a fuller state than Chen2020's initial one, whose open-circuit
voltage is {ocv:.4f} V (`Battery open-circuit voltage [V]` at t = 0).
"""


# Below this electrolyte concentration [mol/m^3] the README says that the
# electrolyte emptied.
EMPTY_ELECTROLYTE = 1.0

EMPTY_README = """\
The electrolyte empties{where} in these runs (smallest electrolyte
concentration over the rows and cells, mol/m^3, below {limit:g}): {cases}.
They reach the cut-off long before the nominal capacity, and from the
moment the electrolyte empties the curve depends on how the model treats
c_e near 0 (PyBaMM >= 26.3 regularises the powers in j0, and the OCPs carry
a steep barrier near stoichiometry 0 and 1), not only on the transport.
`min_electrolyte_concentration_mol_m3` in `summary.json` gives the value
for each case that records it.
"""


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def case_file_text(name, entry):
    """The Files table's line for one case."""
    text = entry["description"]
    state = entry.get("initial_state")
    if state is not None and "initial_soc" in state:
        text += (
            " (initial concentrations "
            f"{state['negative_particle_concentration_mol_m3']!r} / "
            f"{state['positive_particle_concentration_mol_m3']!r} mol/m^3)"
        )
    return (f"{name}.csv", text)


def commands_text(info, summary):
    """The README's command line(s): the generator's, then any other that
    updated some cases."""
    others = {}
    for case, entry in summary.items():
        command = entry.get("command")
        if command is not None and command != info["command"]:
            others.setdefault(command, []).append(case)
    if not others:
        return f"- Command (from the repository root): `{info['command']}`"
    lines = [
        "- Commands (from the repository root), in this order; each CSV "
        "header and each case's `command` in `summary.json` name the one "
        "that wrote it:",
        f"  - `{info['command']}`",
    ]
    for command, cases in others.items():
        lines.append(
            f"  - `{command}` ({len(cases)} "
            f"case{'' if len(cases) == 1 else 's'})"
        )
    return "\n".join(lines)


def fmt(value, spec, missing="-"):
    return missing if value is None else format(value, spec)


def steps_of(entry):
    stats = entry.get("idaklu_statistics")
    return None if not stats else stats.get("steps")


def readme_text(info, written, summary, refine, extra):
    """tests/data/pybamm/README.md: files, provenance, definitions, numbers."""
    default_mesh = set(info["mesh"].values()) == {20}
    capacity = extra["capacity"]
    head = README_HEAD.format(
        commands=commands_text(info, summary),
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
        c20=capacity / 20,
        c50=capacity / 50,
        marquis=MARQUIS,
        marquis_capacity=extra["marquis_capacity"],
        **{k: v for k, v in info.items() if k != "command"},
    )
    lines = [head.rstrip("\n")]

    states = {}
    for case, s in summary.items():
        state = s.get("initial_state")
        if state is not None and "initial_soc" in state:
            key = (
                state["initial_soc"],
                state["negative_particle_concentration_mol_m3"],
                state["positive_particle_concentration_mol_m3"],
            )
            states.setdefault(key, []).append(case)
    if states:
        lines.append(
            README_STATES.format(
                ocv0=extra["ocv0"],
                ocv100=extra["ocv100"],
                parameter_set=PARAMETER_SET,
                negative=NEGATIVE_C0,
                positive=POSITIVE_C0,
            ).rstrip("\n")
        )
        rows = [
            [
                f"{soc:g}",
                f"`{c_n!r}`",
                f"`{c_p!r}`",
                ", ".join(f"`{c}`" for c in cases),
            ]
            for (soc, c_n, c_p), cases in sorted(states.items())
        ]
        lines += [""] + markdown_table(
            [
                "initial_soc",
                "negative [mol/m^3]",
                "positive [mol/m^3]",
                "cases",
            ],
            rows,
        )
    marquis_cases = [
        s for s in summary.values() if s.get("parameter_set") == MARQUIS
    ]
    if marquis_cases:
        lines += [
            "",
            f"{MARQUIS} cases: "
            + marquis_cases[0]["initial_state"]["description"]
            + f"; cut-off {marquis_cases[0]['cutoff_voltage_V']:g} V "
            f'(its "Lower voltage cut-off [V]"). Unlike Chen2020 it has '
            "entropic terms (dU/dT != 0), so the lumped case's heat source "
            "includes reversible heat.",
        ]

    lines.append(
        README_DEFINITIONS.format(
            rise_column=RISE_COLUMN,
            current_file=DRIVE_CURRENT_FILE,
            power_file=DRIVE_POWER_FILE,
            duration=DRIVE_DURATION_S,
            mean=extra["drive"]["mean"],
            integral=extra["drive"]["integral_per_3600"],
            watts=DRIVE_WATTS_PER_AMP,
            termination=DRIVE_TERMINATION,
            trips=len(DRIVE_TRIPS),
            **{
                key: ", ".join(f"{trip[index]:g}" for trip in DRIVE_TRIPS)
                for index, key in enumerate(
                    (
                        "peaks",
                        "holds",
                        "cruises",
                        "cruise_s",
                        "regens",
                        "stops",
                    )
                )
            },
        ).rstrip("\n")
    )
    fast = ", ".join(
        f"every {p} s at {rate_label(r)}"
        for r, p in sorted(DISCHARGE_PERIOD_S.items())
    )
    lines.append(
        README_ROWS.format(
            period=OUTPUT_PERIOD_S,
            fast=fast,
            marquis=MARQUIS,
            marquis_cutoff=extra["marquis_cutoff"],
            drive_period=DRIVE_PERIOD_S,
        ).rstrip("\n")
    )
    lines += ["", "## Headline numbers (full precision in `summary.json`)", ""]

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
                fmt(s.get("final_temperature_K"), ".3f"),
                fmt(steps_of(s), "d"),
            ]
        )
    lines += markdown_table(
        [
            "case",
            "final time [s]",
            "final voltage [V]",
            "discharge capacity [A.h]",
            "temperature rise [K]",
            "final temperature [K]",
            "IDAKLU steps",
        ],
        rows,
    )

    empty = [
        (case, s)
        for case, s in summary.items()
        if s.get("min_electrolyte_concentration_mol_m3", 1e300)
        < EMPTY_ELECTROLYTE
    ]
    if empty:
        cases = ", ".join(
            f"`{case}` ({s['min_electrolyte_concentration_mol_m3']:.2g})"
            for case, s in empty
        )
        where = (
            " in the positive electrode"
            if all(
                s["min_electrolyte_concentration_mol_m3"]
                == s["min_positive_electrolyte_concentration_mol_m3"]
                for _, s in empty
            )
            else ""
        )
        lines += [
            "",
            EMPTY_README.format(
                cases=cases, where=where, limit=EMPTY_ELECTROLYTE
            ).rstrip("\n"),
        ]

    experiments = [(c, s) for c, s in summary.items() if "steps" in s]
    if experiments:
        rows = [
            [
                case,
                f"{s['final_time_s']:.3f}",
                f"{s['final_voltage_V']:.6f}",
                f"{s['final_current_A']:.6f}",
                f"{s['final_discharge_capacity_Ah']:.6f}",
                fmt(s.get("temperature_rise_K"), ".4f"),
                fmt(s.get("final_temperature_K"), ".3f"),
                fmt(steps_of(s), "d"),
            ]
            for case, s in experiments
        ]
        lines += ["", "Experiments:", ""]
        lines += markdown_table(
            [
                "case",
                "final time [s]",
                "final voltage [V]",
                "final current [A]",
                "final discharge capacity [A.h]",
                "temperature rise [K]",
                "final temperature [K]",
                "IDAKLU steps",
            ],
            rows,
        )
        rows = [
            [
                case,
                str(st["step"]),
                st["description"],
                f"{st['end_time_s']:.3f}",
                f"{st['end_voltage_V']:.6f}",
                f"{st['end_current_A']:.6f}",
                f"{st['discharge_capacity_change_Ah']:.6f}",
                st["termination"],
            ]
            for case, s in experiments
            for st in s["steps"]
        ]
        lines += ["", "Experiment steps:", ""]
        lines += markdown_table(
            [
                "case",
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
    if "cccv_isothermal" in summary:
        cccv = summary["cccv_isothermal"]
        lines += [
            "",
            "`cccv_isothermal`: "
            + CCCV_README.format(
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
        default=None,
        metavar="CASE",
        help="run only these cases, by name or shell pattern (default: all), "
        "updating an existing summary.json of the same set-up: "
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
        "--pouch",
        action="store_true",
        help="also write the 2+1D pouch-cell case (Marquis2019 with "
        "potential-pair collectors) into OUT_DIR/pouch, by "
        "tools/pybamm_pouch_reference.py (needs scikit-fem; about 8 minutes)",
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


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def existing_data(args, info):
    """For a --cases run: the summary, timings and mesh check already in the
    output folder, if they come from the same set-up."""
    old = read_json(args.out_dir / "summary.json")
    if old is None:
        return None, {}, None
    different = [
        key
        for key in MERGE_KEYS
        if old.get("generator", {}).get(key) != info.get(key)
    ]
    if different:
        sys.exit(
            f"{SCRIPT}: {args.out_dir / 'summary.json'} was made with a "
            f"different {', '.join(different)}; rerun every case (no "
            "--cases) or write elsewhere (--out-dir)."
        )
    timings = read_json(args.out_dir / "timings.json") or {}
    refine = None
    if not args.refine:
        refine = read_json(args.out_dir / "mesh_convergence.json")
    return old, timings.get("cases", {}), refine


def write_pouch(out_dir):
    """The pouch case: its own script (2+1D, scikit-fem), its own folder."""
    script = Path(__file__).resolve().parent / "pybamm_pouch_reference.py"
    subprocess.run(
        [sys.executable, str(script), "--out-dir", str(out_dir / "pouch")],
        check=True,
    )


def main(argv):
    args = parse_args(argv[1:])
    if args.pouch:
        write_pouch(args.out_dir)
    pybamm, np = import_pybamm(SCRIPT)
    reference = Reference(pybamm, np, args.points, args.rtol, args.atol)
    info = provenance(pybamm, np, reference, argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    specs = case_specs()
    cases = select_cases(args.cases) if args.cases else list(specs)

    old, old_timings, old_refine = (None, {}, None)
    if args.cases:
        old, old_timings, old_refine = existing_data(args, info)
    generator = info if old is None else old["generator"]

    profiles = None
    if any(specs[c].get("profile") for c in cases):
        profiles = write_drive_cycles(np, args.out_dir)

    new = {}
    timings = {}
    for case in cases:
        spec = specs[case]
        if spec["kind"] == "discharge":
            name, entry, timing = run_discharge(
                reference, info, args.out_dir, spec
            )
        else:
            name, entry, timing = run_experiment(
                reference, info, args.out_dir, spec, profiles
            )
        if info["command"] != generator["command"]:
            entry["command"] = info["command"]
        new[name] = entry
        timings[name] = timing

    # The cases of this run and, for a --cases run, those kept from before;
    # in the order of case_specs() (any unknown kept case last).
    merged = dict(old["cases"]) if old is not None else {}
    merged.update(new)
    order = {name: index for index, name in enumerate(specs)}
    summary = dict(
        sorted(merged.items(), key=lambda kv: order.get(kv[0], len(order)))
    )
    merged_timings = dict(old_timings)
    merged_timings.update(timings)
    merged_timings = {
        name: merged_timings[name]
        for name in summary
        if name in merged_timings
    }

    write_json(
        args.out_dir / "summary.json",
        {"generator": generator, "cases": summary},
    )
    write_json(
        args.out_dir / "timings.json",
        {
            "note": "wall-clock times of the last run of each case; they "
            "differ from run to run and machine to machine. solve_wall_s: "
            "Simulation.solve (with model set-up and discretisation); "
            "solver_set_up_s and integration_s: PyBaMM's own timers "
            "(Solution.set_up_time, Solution.integration_time)",
            "host_cpu": host_cpu_name(),
            "cases": merged_timings,
        },
    )
    written = [case_file_text(name, entry) for name, entry in summary.items()]
    if any(s.get("profile_file") for s in summary.values()):
        written += [
            (
                DRIVE_CURRENT_FILE,
                "the synthetic drive cycle's current: `Time [s],Current [A]`, "
                f"every 1 s from 0 to {DRIVE_DURATION_S} s (see Drive cycles)",
            ),
            (
                DRIVE_POWER_FILE,
                f"the same shape in watts ({DRIVE_WATTS_PER_AMP:g} W per A): "
                "`Time [s],Power [W]`",
            ),
        ]
    written += [
        (
            "summary.json",
            "per case: final time, final voltage, "
            "discharge capacity at cut-off, temperature rise (thermal), "
            "per-step figures (experiment), initial concentrations "
            "(initial_soc cases), IDAKLU step counts",
        ),
        (
            "timings.json",
            "wall-clock and IDAKLU integration times per case (differ from "
            "run to run: the one file a rerun does not reproduce)",
        ),
    ]
    refine = old_refine
    if args.refine:
        refine = run_refine(reference, info, args.out_dir, args.refine_levels)
    if refine is not None:
        levels = " / ".join(
            str(level["cells_per_domain"])
            for level in refine["levels"]
            if level["cells_per_domain"] == level["cells_per_particle"]
        )
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
    chen = reference.parameters()
    marquis = reference.parameters(MARQUIS)
    extra = {
        "capacity": reference.nominal_capacity(),
        "marquis_capacity": marquis["Nominal cell capacity [A.h]"],
        "marquis_cutoff": marquis["Lower voltage cut-off [V]"],
        "ocv0": chen["Open-circuit voltage at 0% SOC [V]"],
        "ocv100": chen["Open-circuit voltage at 100% SOC [V]"],
        "drive": profile_summary(np, drive_cycle_current(np)),
    }
    text = readme_text(generator, written, summary, refine, extra)
    with open(args.out_dir / "README.md", "w", newline="\n") as f:
        f.write(text)
    print(f"wrote {len(written)} files to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
