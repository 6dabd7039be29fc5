#!/usr/bin/env python3
"""PyBaMM reference data for voltaic's pouch-cell (2+1D) mode.

PyBaMM's DFN with two-dimensional current collectors, the "potential pair"
model::

    pybamm.lithium_ion.DFN(
        options={"current collector": "potential pair", "dimensionality": 2}
    )

with the Marquis2019 parameter set as it is (its own electrode width and
height, tab positions and widths, foil thicknesses and conductivities, its
own initial state), isothermal (PyBaMM's default thermal option), solved by
IDAKLU at its default tolerances: a 1C constant-current discharge (1C = the
set's "Nominal cell capacity [A.h]" over 1 h, 0.680616 A) from the initial
state until the set's "Lower voltage cut-off [V]" (3.105 V). The same
discharge is run with the plain DFN (PyBaMM's default current collector, no
foil resistance) on the same through-cell (x) and particle (r) mesh, so the
difference the foils make can be quoted; and, unless ``--sensitivity-grids
none``, the pouch discharge again on other square collector meshes, to show
how the voltage depends on the y-z mesh.

Mesh: ``--points`` finite-volume cells per domain (x_n, x_s, x_p; default
20), ``--particle-points`` per particle (r_n, r_p; default 20), and
``--cc-points`` NY NZ nodes of PyBaMM's current-collector mesh (default 21
21: uniform, edges included; PyBaMM splits each rectangle into two P1
triangles, scikit-fem's ``MeshTri.init_tensor``). With the defaults the
collector nodes are the regular 21 x 21 grid on which the fields are
written, so the written fields are PyBaMM's own nodal values.

Writes into ``--out-dir`` (default tests/data/pybamm/pouch):

* ``marquis2019_pouch_1C_isothermal.csv``: "Time [s]", "Voltage [V]",
  "Current [A]", "Discharge capacity [A.h]", rows every 10 s from t = 0
  (IDAKLU ``t_interp``) and a last row at the solver's root-found crossing
  of the cut-off; comment lines (``#``) first, numbers as ``repr``;
* ``marquis2019_1D_1C_isothermal_same_mesh.csv``: the same for the plain
  DFN;
* ``marquis2019_pouch_1C_isothermal_fields.json``: at the times nearest
  ``--field-fractions`` (default 0.25 0.5 0.9) of the discharge's duration,
  rounded to a 10 s row, the current-collector current density, both
  collector potentials and the local voltage, on a regular ``--field-grid``
  x ``--field-grid`` grid of (y, z) (PyBaMM's ``ProcessedVariable`` called
  with y=..., z=...) and at the mesh nodes; the mesh (nodes, triangles, the
  tab nodes and facets PyBaMM picked), the geometry, the terminal voltage at
  those times, and checks of PyBaMM's definitions (voltage = tab average,
  zero potential on the negative tab, the current density integrating to
  the applied current);
* ``marquis2019_pouch_1C_isothermal_grid_sensitivity.csv``: the voltage of
  each collector mesh on the common 10 s rows;
* ``summary.json``: final times, capacities, meshes, IDAKLU statistics,
  wall-clock times (the only numbers a rerun does not reproduce), the
  2+1D-vs-1D and mesh-to-mesh voltage differences;
* ``README.md``: how the data was made and what PyBaMM's model is.

Run from the repository root (needs ``pip install pybamm scikit-fem``; the
defaults take about five minutes on two cores)::

    python3 tools/pybamm_pouch_reference.py

Options: ``--out-dir``, ``--points``, ``--particle-points``,
``--cc-points``, ``--field-grid``, ``--field-fractions``,
``--sensitivity-grids`` (square NY = NZ meshes, default 6 8 11 16 31, or
``none``), ``--rtol`` / ``--atol`` (default: IDAKLU's).
"""

import argparse
import importlib.util
import json
import os
import shlex
import sys
import time
from pathlib import Path

from pybamm_common import host_cpu_name, import_pybamm, package_version
from pybamm_reference import solver_statistics, write_csv

SCRIPT = "pybamm_pouch_reference.py"
PARAMETER_SET = "Marquis2019"
C_RATE = 1.0
OUTPUT_PERIOD_S = 10
POUCH_OPTIONS = {"current collector": "potential pair", "dimensionality": 2}
PLAIN_OPTIONS = {}
DEFAULT_CC_POINTS = (21, 21)
DEFAULT_FIELD_GRID = 21
DEFAULT_FIELD_FRACTIONS = (0.25, 0.5, 0.9)
DEFAULT_SENSITIVITY_GRIDS = (6, 8, 11, 16, 31)
COLUMNS = (
    "Time [s]",
    "Voltage [V]",
    "Current [A]",
    "Discharge capacity [A.h]",
)
CURRENT_DENSITY = "Current collector current density [A.m-2]"
NEGATIVE_CC = "Negative current collector potential [V]"
POSITIVE_CC = "Positive current collector potential [V]"
LOCAL_VOLTAGE = "Local voltage [V]"
TAB_CHECK = "voltage_minus_positive_tab_average_of_positive_cc_potential_V"
FIELDS = (CURRENT_DENSITY, NEGATIVE_CC, POSITIVE_CC, LOCAL_VOLTAGE)
GEOMETRY_PARAMETERS = (
    "Electrode width [m]",
    "Electrode height [m]",
    "Negative tab width [m]",
    "Negative tab centre y-coordinate [m]",
    "Negative tab centre z-coordinate [m]",
    "Positive tab width [m]",
    "Positive tab centre y-coordinate [m]",
    "Positive tab centre z-coordinate [m]",
    "Negative current collector thickness [m]",
    "Positive current collector thickness [m]",
    "Negative current collector conductivity [S.m-1]",
    "Positive current collector conductivity [S.m-1]",
    "Negative electrode thickness [m]",
    "Separator thickness [m]",
    "Positive electrode thickness [m]",
    "Number of electrodes connected in parallel to make a cell",
    "Contact resistance [Ohm]",
    "Nominal cell capacity [A.h]",
    "Lower voltage cut-off [V]",
)
POUCH_FILE = "marquis2019_pouch_1C_isothermal.csv"
PLAIN_FILE = "marquis2019_1D_1C_isothermal_same_mesh.csv"
FIELDS_FILE = "marquis2019_pouch_1C_isothermal_fields.json"
# The plain DFN case of tools/pybamm_reference.py (its default mesh).
PARENT_1D_FILE = "marquis2019_discharge_isothermal_1C.csv"
SENSITIVITY_FILE = "marquis2019_pouch_1C_isothermal_grid_sensitivity.csv"


def seconds(timer_time):
    """A PyBaMM TimerTime (or a number) in seconds."""
    return float(getattr(timer_time, "value", timer_time))


def options_text(options):
    return json.dumps(options)


class Run:
    """One constant-current discharge: the simulation, its solution, the
    output rows and its timings."""

    def __init__(self, pybamm, np, options, var_pts, rtol, atol):
        self.np = np
        params = pybamm.ParameterValues(PARAMETER_SET)
        self.params = params
        self.current = C_RATE * params["Nominal cell capacity [A.h]"]
        params["Current function [A]"] = self.current
        model = pybamm.lithium_ion.DFN(options=options)
        self.options = options
        self.var_pts = dict(var_pts)
        full_pts = dict(model.default_var_pts)
        full_pts.update(var_pts)
        solver = pybamm.IDAKLUSolver(rtol=rtol, atol=atol)
        self.sim = pybamm.Simulation(
            model, parameter_values=params, var_pts=full_pts, solver=solver
        )
        # Twice the nominal duration: the voltage cut-off always comes first.
        t_end = 2.0 * 3600.0 / C_RATE
        grid = np.arange(0.0, t_end + 0.5 * OUTPUT_PERIOD_S, OUTPUT_PERIOD_S)
        start = time.perf_counter()
        self.sim.build()
        built = time.perf_counter()
        self.solution = self.sim.solve(t_eval=[0.0, t_end], t_interp=grid)
        done = time.perf_counter()
        self.termination = self.solution.termination
        if "Minimum voltage" not in self.termination:
            sys.exit(
                f"{SCRIPT}: the discharge ({options_text(options)}, "
                f"{var_pts}) ended with '{self.termination}', not at the "
                "voltage cut-off"
            )
        self.data = {
            name: np.asarray(self.solution[name].entries, dtype=float).ravel()
            for name in COLUMNS
        }
        if not np.all(np.diff(self.data["Time [s]"]) > 0.0):
            sys.exit(f"{SCRIPT}: output times are not strictly increasing.")
        self.states = int(self.sim.built_model.len_rhs_and_alg)
        self.statistics = solver_statistics(self.solution)
        self.timings = {
            "build_s": built - start,
            "solve_s": done - built,
            "wall_s": done - start,
            "integration_s": seconds(self.solution.integration_time),
        }

    def release(self):
        """Drops the simulation and solution (memory), keeping the rows."""
        self.sim = None
        self.solution = None

    @property
    def t(self):
        return self.data["Time [s]"]

    @property
    def v(self):
        return self.data["Voltage [V]"]

    def summary(self):
        return {
            "model_options": self.options,
            "var_pts": self.var_pts,
            "states": self.states,
            "termination": self.termination,
            "rows": int(len(self.t)),
            "initial_voltage_V": float(self.v[0]),
            "final_time_s": float(self.t[-1]),
            "final_voltage_V": float(self.v[-1]),
            "discharge_capacity_Ah": float(
                self.data["Discharge capacity [A.h]"][-1]
            ),
            "idaklu_statistics": self.statistics,
            "timings_s": self.timings,
        }


# The current-collector mesh -------------------------------------------------


def collector_mesh(np, run):
    """PyBaMM's current-collector mesh: nodes, triangles and the tab nodes
    and facets it picked (the numerical tabs)."""
    mesh = run.sim.mesh["current collector"]
    y = np.asarray(mesh.edges["y"], dtype=float)
    z = np.asarray(mesh.edges["z"], dtype=float)
    points = np.asarray(mesh.fem_mesh.p, dtype=float)
    # Node k is at (y[k // len(z)], z[k % len(z)]); the fields' nodal values
    # rely on it.
    expect = np.array([[yi, zj] for yi in y for zj in z]).T
    if points.shape != expect.shape or not np.array_equal(points, expect):
        sys.exit(f"{SCRIPT}: the collector mesh's node order is not y-major.")
    facets = np.asarray(mesh.fem_mesh.facets)

    def tab(dofs, facet_ids):
        segments = []
        for f in facet_ids:
            a, b = facets[:, f]
            ys = sorted((points[0, a], points[0, b]))
            zs = sorted((points[1, a], points[1, b]))
            segments.append({"nodes": [int(a), int(b)], "y": ys, "z": zs})
        segments.sort(key=lambda s: (s["z"][0], s["y"][0]))
        length = float(
            sum(
                np.hypot(s["y"][1] - s["y"][0], s["z"][1] - s["z"][0])
                for s in segments
            )
        )
        return {
            "nodes": [int(k) for k in sorted(dofs)],
            "node_coordinates": [
                [float(points[0, k]), float(points[1, k])]
                for k in sorted(dofs)
            ],
            "facets": segments,
            "numerical_width_m": length,
        }

    return {
        "y_nodes": y,
        "z_nodes": z,
        "triangles": np.asarray(mesh.fem_mesh.t, dtype=int).T,
        "negative_tab": tab(mesh.negative_tab_dofs, mesh.negative_tab_facets),
        "positive_tab": tab(mesh.positive_tab_dofs, mesh.positive_tab_facets),
    }


def p1_integral(np, cc, values):
    """Integral over the collector plane of the P1 (piecewise-linear)
    interpolant of nodal values[i][j] at (y[i], z[j])."""
    y, z = cc["y_nodes"], cc["z_nodes"]
    flat = np.asarray(values).ravel()  # node k = i * len(z) + j
    py = np.repeat(y, len(z))
    pz = np.tile(z, len(y))
    tri = cc["triangles"]
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    area = 0.5 * np.abs(
        (py[b] - py[a]) * (pz[c] - pz[a]) - (py[c] - py[a]) * (pz[b] - pz[a])
    )
    return float(np.sum(area * (flat[a] + flat[b] + flat[c]) / 3.0))


def tab_average(np, cc, tab, values):
    """Average over a tab's facets of the P1 interpolant of nodal values."""
    flat = np.asarray(values).ravel()
    total = 0.0
    length = 0.0
    for s in tab["facets"]:
        a, b = s["nodes"]
        h = float(np.hypot(s["y"][1] - s["y"][0], s["z"][1] - s["z"][0]))
        total += h * 0.5 * (flat[a] + flat[b])
        length += h
    return total / length


def tab_numbers(cc):
    return {
        side: {
            "numerical_width_m": cc[side]["numerical_width_m"],
            "facet_y_range_m": [
                cc[side]["facets"][0]["y"][0],
                cc[side]["facets"][-1]["y"][1],
            ],
            "dirichlet_or_tab_nodes": len(cc[side]["nodes"]),
        }
        for side in ("negative_tab", "positive_tab")
    }


# Fields at chosen times -----------------------------------------------------


def field_times(np, run, fractions):
    """Row times nearest the given fractions of the discharge's duration."""
    t = run.t[:-1]  # the 10 s rows, without the cut-off crossing
    out = []
    for fraction in fractions:
        k = int(np.argmin(np.abs(t - fraction * run.t[-1])))
        out.append((fraction, k, float(t[k])))
    return out


def field_stats(np, cc, name, nodal, area):
    values = np.asarray(nodal)
    i_max = np.unravel_index(np.argmax(values), values.shape)
    i_min = np.unravel_index(np.argmin(values), values.shape)
    y, z = cc["y_nodes"], cc["z_nodes"]
    out = {
        "min": float(values.min()),
        "min_at_yz_m": [float(y[i_min[0]]), float(z[i_min[1]])],
        "max": float(values.max()),
        "max_at_yz_m": [float(y[i_max[0]]), float(z[i_max[1]])],
        "mean": p1_integral(np, cc, values) / area,
    }
    if name == CURRENT_DENSITY:
        out["max_over_min"] = float(values.max() / values.min())
        out["max_minus_min_over_mean"] = float(
            (values.max() - values.min()) / out["mean"]
        )
    return out


def fields_at(np, run, cc, fractions, grid_n):
    params = run.params
    l_y = float(params["Electrode width [m]"])
    l_z = float(params["Electrode height [m]"])
    area = l_y * l_z
    grid_y = np.linspace(0.0, l_y, grid_n)
    grid_z = np.linspace(0.0, l_z, grid_n)
    processed = {name: run.solution[name] for name in FIELDS}
    snapshots = []
    for fraction, k, t in field_times(np, run, fractions):
        nodal = {}
        on_grid = {}
        grid_vs_nodes = {}
        for name, var in processed.items():
            nodes = np.asarray(var.entries[:, :, k], dtype=float)
            nodal[name] = nodes
            grid = np.asarray(var(t=t, y=grid_y, z=grid_z), dtype=float)
            on_grid[name] = grid
            at_nodes = np.asarray(
                var(t=t, y=cc["y_nodes"], z=cc["z_nodes"]), dtype=float
            )
            grid_vs_nodes[name] = float(np.max(np.abs(at_nodes - nodes)))
        voltage = float(run.v[k])
        i_total = p1_integral(np, cc, nodal[CURRENT_DENSITY])
        checks = {
            TAB_CHECK: (
                voltage
                - tab_average(np, cc, cc["positive_tab"], nodal[POSITIVE_CC])
            ),
            "max_abs_negative_cc_potential_on_negative_tab_nodes_V": float(
                np.max(
                    np.abs(
                        nodal[NEGATIVE_CC].ravel()[cc["negative_tab"]["nodes"]]
                    )
                )
            ),
            "negative_tab_average_of_negative_cc_potential_V": tab_average(
                np, cc, cc["negative_tab"], nodal[NEGATIVE_CC]
            ),
            "integral_of_current_density_A": i_total,
            "applied_current_A": float(run.data["Current [A]"][k]),
            "integral_minus_applied_current_A": i_total
            - float(run.data["Current [A]"][k]),
            "max_abs_processed_variable_at_nodes_minus_nodal_values": (
                grid_vs_nodes
            ),
        }
        snapshots.append(
            {
                "fraction_of_discharge_time": fraction,
                "time_s": t,
                "row_index_in_csv": k,
                "voltage_V": voltage,
                "current_A": float(run.data["Current [A]"][k]),
                "discharge_capacity_Ah": float(
                    run.data["Discharge capacity [A.h]"][k]
                ),
                "stats_at_nodes": {
                    name: field_stats(np, cc, name, nodal[name], area)
                    for name in FIELDS
                },
                "checks": checks,
                "on_grid": on_grid,
                "at_nodes": nodal,
            }
        )
    return grid_y, grid_z, snapshots


# Comparisons ----------------------------------------------------------------


def compare(np, a, b):
    """Voltage of run a minus run b on the 10 s rows both reached before
    their cut-off crossings (the rows are the same times)."""
    n = min(len(a.t), len(b.t)) - 1
    if not np.array_equal(a.t[:n], b.t[:n]):
        sys.exit(f"{SCRIPT}: the runs' 10 s rows differ.")
    d = a.v[:n] - b.v[:n]
    k = int(np.argmax(np.abs(d)))
    return {
        "rows": n,
        "last_row_time_s": float(a.t[n - 1]),
        "voltage_rms_diff_V": float(np.sqrt(np.mean(d * d))),
        "voltage_mean_diff_V": float(np.mean(d)),
        "voltage_max_abs_diff_V": float(abs(d[k])),
        "time_of_max_diff_s": float(a.t[k]),
        "initial_voltage_diff_V": float(d[0]),
        "final_time_diff_s": float(a.t[-1] - b.t[-1]),
        "capacity_diff_Ah": float(
            a.data["Discharge capacity [A.h]"][-1]
            - b.data["Discharge capacity [A.h]"][-1]
        ),
    }


# Writing --------------------------------------------------------------------


def json_text(obj, indent=0):
    """JSON with lists of numbers on one line (floats as repr)."""
    pad = " " * indent
    inner = " " * (indent + 2)
    if hasattr(obj, "tolist"):
        obj = obj.tolist()
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [
            f"{inner}{json.dumps(str(k))}: {json_text(v, indent + 2)}"
            for k, v in obj.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, (list, tuple)):
        obj = [x.tolist() if hasattr(x, "tolist") else x for x in obj]
        if all(not isinstance(x, (dict, list, tuple)) for x in obj):
            return "[" + ", ".join(json.dumps(x) for x in obj) + "]"
        items = [f"{inner}{json_text(x, indent + 2)}" for x in obj]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    if isinstance(obj, float):
        return repr(obj)
    return json.dumps(obj)


def write_json(path, obj):
    with open(path, "w", newline="\n") as f:
        f.write(json_text(obj) + "\n")


def mesh_text(var_pts):
    return ", ".join(f"{k}={v}" for k, v in var_pts.items())


def csv_header(info, run, description, model_text, mesh=None, rows=None):
    solver = info["solver"]
    t, v = run.t, run.v
    if mesh is None:
        mesh = mesh_text(run.var_pts)
    if rows is None:
        rows = (
            f"every {OUTPUT_PERIOD_S} s from t = 0 (IDAKLU t_interp), then "
            "a last row at the solver's root-found crossing of the "
            f"{info['cutoff_V']:g} V cut-off (t = {t[-1]:.6f} s, "
            f"V = {v[-1]:.15g} V); termination: {run.termination}"
        )
    return [
        "PyBaMM reference data for voltaic, written by "
        f"tools/{SCRIPT}; do not edit, rerun the command.",
        f"pybamm.__version__: {info['pybamm_version']} (pybammsolvers "
        f"{info['pybammsolvers_version']}, casadi {info['casadi_version']}, "
        f"scikit-fem {info['scikit_fem_version']}, numpy "
        f"{info['numpy_version']}, Python {info['python_version']})",
        f"command: {info['command']}",
        f"case: {description}",
        f"model: {model_text}; parameters: "
        f'pybamm.ParameterValues("{PARAMETER_SET}") with "Current function '
        f'[A]" = {run.current!r}',
        "initial state: " + info["initial_state"],
        f"mesh: {mesh}",
        f"solver: pybamm.IDAKLUSolver(rtol={solver['rtol']!r}, "
        f"atol={solver['atol']!r})"
        + (
            ", PyBaMM's default tolerances"
            if solver["default_tolerances"]
            else ""
        ),
        f"rows: {rows}",
        "signs: Current [A] > 0 is discharge; Discharge capacity [A.h] is "
        "the integral from t = 0 of Current [A] / 3600",
    ]


def provenance(pybamm, np, argv, rtol, atol, default_tolerances):
    params = pybamm.ParameterValues(PARAMETER_SET)

    def value(name):
        return repr(float(params[name]))

    return {
        "pybamm_version": pybamm.__version__,
        "pybammsolvers_version": package_version("pybammsolvers"),
        "casadi_version": package_version("casadi"),
        "scikit_fem_version": package_version("scikit-fem"),
        "numpy_version": np.__version__,
        "python_version": sys.version.split()[0],
        "command": "python3 " + shlex.join(argv),
        "model": "pybamm.lithium_ion.DFN",
        "parameter_set": PARAMETER_SET,
        "c_rate": C_RATE,
        "current_A": C_RATE * float(params["Nominal cell capacity [A.h]"]),
        "cutoff_V": float(params["Lower voltage cut-off [V]"]),
        "initial_state": (
            "the parameter set's own (no initial_soc): uniform particle "
            "concentrations "
            f"{value('Initial concentration in negative electrode [mol.m-3]')}"
            " (negative) and "
            f"{value('Initial concentration in positive electrode [mol.m-3]')}"
            " (positive) mol/m^3, electrolyte "
            f"{value('Initial concentration in electrolyte [mol.m-3]')} "
            f"mol/m^3, {value('Initial temperature [K]')} K, uniform over the "
            "collector plane"
        ),
        "solver": {
            "name": "IDAKLUSolver",
            "rtol": rtol,
            "atol": atol,
            "default_tolerances": default_tolerances,
        },
        "host_cpu": host_cpu_name(),
    }


def sensitivity_rows(np, runs):
    """The voltage of each collector mesh on the common 10 s rows."""
    n = min(len(run.t) for run in runs.values()) - 1
    first = next(iter(runs.values()))
    data = {"Time [s]": first.t[:n]}
    for label, run in runs.items():
        if not np.array_equal(run.t[:n], first.t[:n]):
            sys.exit(f"{SCRIPT}: the sensitivity runs' rows differ.")
        data[f"Voltage [V] {label}"] = run.v[:n]
    return data


def cc_label(ny, nz):
    return f"y={ny} z={nz}"


# README ---------------------------------------------------------------------

README_MODEL = """\
## What PyBaMM solves (read from PyBaMM {version}'s source)

Coordinates: the collector plane is 0 <= y <= L_y ("Electrode width [m]",
{l_y!r} m) by 0 <= z <= L_z ("Electrode height [m]", {l_z!r} m); x runs
through the cell (negative collector at x = 0, positive at x = L). Both
Marquis2019 tabs are on the **top edge z = L_z** (their centre
z-coordinate is L_z): the negative tab covers y in [{neg_lo:g}, {neg_hi:g}]
m (centre {neg_c!r}, width {neg_w!r}), the positive tab y in [{pos_lo:g},
{pos_hi:g}] m (centre {pos_c!r}, width {pos_w!r}). PyBaMM's rule for a tab
whose centre z is L_z (or 0) is "on the top (bottom) edge, spanning the width
along y"; a centre y of 0 or L_y would put it on the left or right edge,
spanning along z.

Every node of the collector mesh carries its own through-cell DFN (x and r
meshes as above); the nodes talk only through the two foils:

- Foil equations (P1 finite elements on the y-z mesh, consistent mass
  matrix for the source): sigma_n L_cn lap(phi_cn) = i_bcc and
  sigma_p L_cp lap(phi_cp) = -i_bcc, where sigma and L_c are the collector
  conductivity and thickness, phi_cn, phi_cp the negative and positive
  collector potentials ("Negative/Positive current collector potential
  [V]") and i_bcc "Current collector current density [A.m-2]". In words:
  the in-plane current of the negative foil, -sigma_n L_cn grad(phi_cn) per
  unit width, loses i_bcc per unit area into the cell stack, and the
  positive foil gains i_bcc.
- i_bcc is an algebraic unknown of its own (one per node); the positive-foil
  equation is the one that determines it.
- Coupling to the through-cell model at each node: the negative electrode's
  solid potential at x = 0 is set equal to phi_cn (Dirichlet), and the
  positive electrode's solid current at x = L is set to i_bcc:
  -sigma_eff,p d(phi_s,p)/dx = i_bcc (Neumann). phi_cp is not a separate
  unknown: it is defined as the positive electrode's solid potential at
  x = L (PyBaMM's finite-volume boundary value: linear extrapolation from
  the last two cell centres, not using the Neumann condition). So yes: phi_s equals the collector potential at both collector
  boundaries, imposed at x = 0 and by definition at x = L.
- Sign: i_bcc > 0 on discharge. It is the current per unit collector area
  that leaves the positive electrode into the positive foil (equally, that
  enters the negative electrode from the negative foil). Its integral over
  the plane is the applied current per electrode pair, I / n_parallel
  ("Number of electrodes connected in parallel to make a cell" = {npar:g},
  so I), to the solver's tolerance (checked in the fields file).
- Tab boundary conditions: phi_cn = 0 on the negative tab (Dirichlet: the
  reference potential), imposed at every node of the numerical negative
  tab's facets (see below), so along those whole facets; zero normal
  derivative of phi_cn on the rest of the boundary, the positive tab
  included. On the positive tab a uniform
  outward normal derivative d(phi_cp)/dn = -I / (sigma_p L_cp w_p,num),
  i.e. an outward in-plane current of I / w_p,num per unit tab length, where
  w_p,num is the *numerical* tab width: the summed length of the mesh's
  boundary facets whose midpoints lie on the tab segment (PyBaMM divides by
  it so that the current through the numerical tab is exactly I). Zero
  normal derivative of phi_cp elsewhere, the negative tab included.
- Terminal voltage: "Voltage [V]" = "Terminal voltage [V]" = the average
  of phi_cp over the positive tab (the line integral of its P1 interpolant
  along the positive tab facets divided by w_p,num), minus I R_contact
  (R_contact = "Contact resistance [Ohm]" = 0 here). phi_cn is zero on the
  negative tab, so this is the positive-tab potential relative to the
  negative tab. "Local voltage [V]" is phi_cp - phi_cn at each node.
- Isothermal: temperature 298.15 K everywhere; the foils only add Ohmic
  drop.

Numerical tabs: PyBaMM (through scikit-fem) takes as a tab the boundary
facets (mesh edges on z = L_z) whose *midpoints* lie within [centre -
width / 2, centre + width / 2]; the Neumann flux is spread over those
facets and the Dirichlet condition holds at all their end nodes. The
numerical tab is thus a whole number of facets and its width and position
depend on the y mesh (the collector-mesh table below lists them). With the
mesh used here:

{tab_table}
"""


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "---|" * len(header))
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def readme_text(info, summary, fields_meta):
    geometry = summary["geometry"]
    pouch = summary["pouch"]
    plain = summary["plain_1d"]
    comp = summary["pouch_minus_1d"]
    cc = summary["pouch"]["numerical_tabs"]
    l_y = geometry["Electrode width [m]"]
    l_z = geometry["Electrode height [m]"]

    def span(side):
        c = geometry[f"{side} tab centre y-coordinate [m]"]
        w = geometry[f"{side} tab width [m]"]
        return c - w / 2, c + w / 2, c, w

    neg_lo, neg_hi, neg_c, neg_w = span("Negative")
    pos_lo, pos_hi, pos_c, pos_w = span("Positive")
    tab_rows = []
    for side, key in (
        ("negative", "negative_tab"),
        ("positive", "positive_tab"),
    ):
        t = cc[key]
        tab_rows.append(
            [
                side,
                f"{geometry[side.capitalize() + ' tab width [m]']:g}",
                f"{t['numerical_width_m']:.6g}",
                f"[{t['facet_y_range_m'][0]:.6g}, "
                f"{t['facet_y_range_m'][1]:.6g}]",
                t["dirichlet_or_tab_nodes"],
            ]
        )
    tab_table = "\n".join(
        markdown_table(
            [
                "tab",
                "width [m]",
                "numerical width [m]",
                "facets' y range [m] (z = L_z)",
                "nodes on the tab",
            ],
            tab_rows,
        )
    )
    lines = [
        "# PyBaMM 2+1D pouch-cell reference (potential-pair collectors)",
        "",
        f"Written by `tools/{SCRIPT}`; do not edit these files by hand, "
        "rerun the command instead. PyBaMM's code is not in this repository: "
        "the script only calls PyBaMM's public API.",
        "",
        f"- PyBaMM: `pybamm.__version__` = **{info['pybamm_version']}** "
        f"(pybammsolvers {info['pybammsolvers_version']}, casadi "
        f"{info['casadi_version']}, scikit-fem "
        f"{info['scikit_fem_version']}, numpy {info['numpy_version']}, "
        f"Python {info['python_version']})",
        f"- Command (from the repository root): `{info['command']}`",
        "- Model: `pybamm.lithium_ion.DFN(options="
        f"{options_text(POUCH_OPTIONS)})`; every other option at PyBaMM's "
        'default (so `"thermal": "isothermal"`). The 1D comparison: '
        "`pybamm.lithium_ion.DFN()` (PyBaMM's default current collector: "
        "uniform potential, no foil resistance, V = phi_s at x = L).",
        f'- Parameters: `pybamm.ParameterValues("{PARAMETER_SET}")` as it '
        'is, with "Current function [A]" = '
        f"{info['current_A']!r} A ({C_RATE:g}C of its "
        f"{geometry['Nominal cell capacity [A.h]']!r} A.h), until its "
        f"\"Lower voltage cut-off [V]\" {info['cutoff_V']!r} V.",
        f"- Initial state: {info['initial_state']}.",
        f"- Mesh (2+1D): `{mesh_text(pouch['var_pts'])}`: x and r uniform "
        "finite-volume cells per domain and per particle; y and z are the "
        "*nodes* (edges included) of the uniform collector mesh, each "
        "rectangle split into two P1 triangles. 1D: "
        f"`{mesh_text(plain['var_pts'])}`.",
        f"- Solver: `pybamm.IDAKLUSolver(rtol={info['solver']['rtol']!r}, "
        f"atol={info['solver']['atol']!r})`, PyBaMM's default tolerances; "
        f"rows every {OUTPUT_PERIOD_S} s (`t_interp`) plus the root-found "
        "cut-off crossing.",
        "",
        "## Files",
        "",
    ]
    lines += markdown_table(
        ["file", "content"],
        [
            [
                f"`{POUCH_FILE}`",
                "2+1D discharge: `Time [s],Voltage [V],Current [A],"
                "Discharge capacity [A.h]`, comment lines `#` first, numbers "
                "as `repr` (read with `pandas.read_csv(path, comment='#')`)",
            ],
            [
                f"`{PLAIN_FILE}`",
                "the same discharge with the plain DFN, same x and r mesh",
            ],
            [
                f"`{FIELDS_FILE}`",
                "fields on the collector plane at "
                + ", ".join(f"{t:g} s" for t in fields_meta["times"])
                + "; mesh, numerical tabs, geometry, checks (below)",
            ],
        ]
        + (
            [
                [
                    f"`{SENSITIVITY_FILE}`",
                    "voltage of the 2+1D discharge for each collector mesh "
                    "(`Voltage [V] y=NY z=NZ`) on the 10 s rows all of them "
                    "reach",
                ]
            ]
            if "collector_mesh_sensitivity" in summary
            else []
        )
        + [
            [
                "`summary.json`",
                "per run: mesh, states, final time and voltage, capacity, "
                "IDAKLU statistics, wall-clock times (`timings_s`: the only "
                "numbers a rerun does not reproduce); geometry; the "
                "comparisons",
            ],
            ["`README.md`", "this file"],
        ],
    )
    lines += [
        "",
        README_MODEL.format(
            version=info["pybamm_version"],
            l_y=l_y,
            l_z=l_z,
            neg_lo=neg_lo,
            neg_hi=neg_hi,
            neg_c=neg_c,
            neg_w=neg_w,
            pos_lo=pos_lo,
            pos_hi=pos_hi,
            pos_c=pos_c,
            pos_w=pos_w,
            npar=geometry[
                "Number of electrodes connected in parallel to make a cell"
            ],
            tab_table=tab_table,
        ).rstrip("\n"),
        "",
        "## Geometry and foil parameters (Marquis2019)",
        "",
    ]
    lines += markdown_table(
        ["parameter", "value"],
        [[name, repr(value)] for name, value in geometry.items()],
    )
    lines += [
        "",
        "## Results",
        "",
    ]
    rows = []
    for label, run in (("2+1D", pouch), ("1D", plain)):
        rows.append(
            [
                label,
                mesh_text(run["var_pts"]),
                run["states"],
                f"{run['final_time_s']:.6f}",
                f"{run['discharge_capacity_Ah']:.9f}",
                f"{run['initial_voltage_V']:.9f}",
                run["idaklu_statistics"]["steps"],
                f"{run['timings_s']['wall_s']:.1f}",
            ]
        )
    lines += markdown_table(
        [
            "run",
            "mesh",
            "states",
            "final time [s]",
            "capacity [A.h]",
            "V(0) [V]",
            "IDAKLU steps",
            "wall [s]",
        ],
        rows,
    )
    lines += [
        "",
        f"2+1D minus 1D voltage on the {comp['rows']} common 10 s rows "
        f"(t <= {comp['last_row_time_s']:g} s): RMS "
        f"{1e3 * comp['voltage_rms_diff_V']:.4f} mV, mean "
        f"{1e3 * comp['voltage_mean_diff_V']:.4f} mV, largest "
        f"{1e3 * comp['voltage_max_abs_diff_V']:.4f} mV (t = "
        f"{comp['time_of_max_diff_s']:g} s), at t = 0 "
        f"{1e3 * comp['initial_voltage_diff_V']:.4f} mV (an effective foil "
        f"resistance of {1e3 * summary['effective_foil_resistance_ohm']:.4f}"
        " mOhm at t = 0); final time "
        f"{comp['final_time_diff_s']:.3f} s, capacity "
        f"{comp['capacity_diff_Ah']:.3e} A.h.",
    ]
    same = summary.get("plain_1d_vs_parent_reference")
    if same is not None:
        lines += [
            "",
            f"The 1D run is the `../{same['file']}` case (same mesh and "
            "solver): its voltage on the shared rows differs by at most "
            f"{same['max_abs_voltage_diff_V']!r} V.",
        ]
    lines += [
        "",
        "`wall [s]`: build + solve wall-clock seconds of `Simulation` on "
        f"{info['host_cpu']} ({os.cpu_count()} cores, IDAKLU "
        "single-threaded); they "
        "differ from run to run.",
    ]
    sens = summary.get("collector_mesh_sensitivity")
    if sens:
        lines += [
            "",
            "Collector-mesh sensitivity (same x and r mesh; differences "
            f"against {sens['reference']} on the common 10 s rows):",
            "",
        ]
        rows = []
        for label, entry in sens["runs"].items():
            d = entry.get("minus_reference")
            widths = [
                entry["numerical_tabs"][side]["numerical_width_m"]
                for side in ("negative_tab", "positive_tab")
            ]
            rows.append(
                [
                    label,
                    f"{widths[0]:.5g} / {widths[1]:.5g}",
                    f"{entry['final_time_s']:.3f}",
                    f"{entry['discharge_capacity_Ah']:.7f}",
                    (
                        "-"
                        if d is None
                        else f"{1e3 * d['voltage_rms_diff_V']:.4f}"
                    ),
                    (
                        "-"
                        if d is None
                        else f"{1e3 * d['voltage_max_abs_diff_V']:.4f}"
                    ),
                    f"{entry['timings_s']['wall_s']:.1f}",
                ]
            )
        lines += markdown_table(
            [
                "collector mesh",
                "numerical tab widths neg / pos [m]",
                "final time [s]",
                "capacity [A.h]",
                "V RMS diff [mV]",
                "V max diff [mV]",
                "wall [s]",
            ],
            rows,
        )
    lines += [
        "",
        f"## The fields file (`{FIELDS_FILE}`)",
        "",
        "- `grid.y`, `grid.z`: the regular grid (edges included); "
        "`snapshots[k].on_grid[name][i][j]` is the value at "
        "(y[i], z[j]), from PyBaMM's `ProcessedVariable(t=..., y=..., z=...)`"
        " (which interpolates the nodal values bilinearly on the tensor "
        "grid, not along the P1 triangles).",
        "- `mesh`: `y_nodes`, `z_nodes` (node k = i * len(z_nodes) + j is at "
        "(y_nodes[i], z_nodes[j])), `triangles` (node triplets), and for "
        "each tab the nodes on it and its facets (`nodes`, `y`, `z` ranges) "
        "with the numerical width; `snapshots[k].at_nodes[name][i][j]` are "
        "PyBaMM's nodal values at (y_nodes[i], z_nodes[j]).",
        "- `snapshots[k]`: `time_s` (a row of the CSV, `row_index_in_csv`), "
        "`voltage_V`, `current_A`, `discharge_capacity_Ah`, "
        "`stats_at_nodes` (min / max with where, mean = P1 integral over the "
        "plane / (L_y L_z); for the current density max/min), `checks`.",
        "- Fields: " + ", ".join(f"`{n}`" for n in FIELDS) + ".",
        "",
    ]
    rows = []
    for snap in fields_meta["snapshots"]:
        st = snap["stats_at_nodes"][CURRENT_DENSITY]
        ck = snap["checks"]
        pcc = snap["stats_at_nodes"][POSITIVE_CC]
        ncc = snap["stats_at_nodes"][NEGATIVE_CC]
        rows.append(
            [
                f"{snap['time_s']:g} ({snap['fraction_of_discharge_time']:g})",
                f"{snap['voltage_V']:.6f}",
                f"{st['min']:.5f} / {st['max']:.5f}",
                f"{st['max_over_min']:.6f}",
                f"{st['mean']:.6f}",
                f"{1e3 * (pcc['max'] - pcc['min']):.4f}",
                f"{1e3 * (ncc['max'] - ncc['min']):.4f}",
                f"{ck[TAB_CHECK]:.1e}",
                f"{ck['integral_minus_applied_current_A']:.1e}",
            ]
        )
    lines += markdown_table(
        [
            "t [s] (fraction)",
            "V [V]",
            "i_bcc min / max [A/m^2]",
            "max/min",
            "mean [A/m^2]",
            "phi_cp spread [mV]",
            "phi_cn spread [mV]",
            "V - tab avg [V]",
            "int i_bcc - I [A]",
        ],
        rows,
    )
    lines += [
        "",
        f"Mean applied current density I / (L_y L_z) = "
        f"{summary['mean_current_density_A_m2']!r} A/m^2.",
        "",
        "Where the current density is largest and smallest (mesh nodes, "
        "(y, z) in m): "
        + "; ".join(
            f"{s['time_s']:g} s: max at "
            f"({s['stats_at_nodes'][CURRENT_DENSITY]['max_at_yz_m'][0]:.6g}, "
            f"{s['stats_at_nodes'][CURRENT_DENSITY]['max_at_yz_m'][1]:.6g})"
            ", min at "
            f"({s['stats_at_nodes'][CURRENT_DENSITY]['min_at_yz_m'][0]:.6g}, "
            f"{s['stats_at_nodes'][CURRENT_DENSITY]['min_at_yz_m'][1]:.6g})"
            for s in fields_meta["snapshots"]
        )
        + ".",
        "",
    ]
    return "\n".join(lines)


# Main -----------------------------------------------------------------------


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Write PyBaMM 2+1D (potential-pair) DFN reference data "
        "for voltaic's pouch-cell mode."
    )
    parser.add_argument(
        "--out-dir",
        type=Path,
        default=Path(__file__).resolve().parent.parent
        / "tests"
        / "data"
        / "pybamm"
        / "pouch",
        help="output folder (default: tests/data/pybamm/pouch)",
    )
    parser.add_argument(
        "--points",
        type=int,
        default=20,
        help="finite-volume cells per domain, x_n = x_s = x_p (default 20)",
    )
    parser.add_argument(
        "--particle-points",
        type=int,
        default=20,
        help="finite-volume cells per particle, r_n = r_p (default 20)",
    )
    parser.add_argument(
        "--cc-points",
        type=int,
        nargs=2,
        default=list(DEFAULT_CC_POINTS),
        metavar=("NY", "NZ"),
        help="nodes of the current-collector mesh along y and z, edges "
        "included (default 21 21)",
    )
    parser.add_argument(
        "--field-grid",
        type=int,
        default=DEFAULT_FIELD_GRID,
        help="points per direction of the regular y-z grid the fields are "
        "written on, edges included (default 21)",
    )
    parser.add_argument(
        "--field-fractions",
        type=float,
        nargs="+",
        default=list(DEFAULT_FIELD_FRACTIONS),
        help="fractions of the discharge's duration at which the fields are "
        "written, each rounded to the nearest 10 s row (default 0.25 0.5 0.9)",
    )
    parser.add_argument(
        "--sensitivity-grids",
        nargs="+",
        default=[str(n) for n in DEFAULT_SENSITIVITY_GRIDS],
        metavar="N",
        help="square collector meshes (NY = NZ = N) to rerun the 2+1D "
        "discharge on, or 'none' (default: "
        + " ".join(str(n) for n in DEFAULT_SENSITIVITY_GRIDS)
        + ")",
    )
    parser.add_argument("--rtol", type=float, default=None)
    parser.add_argument("--atol", type=float, default=None)
    args = parser.parse_args(argv)
    if args.points < 2 or args.particle_points < 2:
        parser.error("--points and --particle-points must be at least 2")
    if min(args.cc_points) < 3 or args.field_grid < 2:
        parser.error("--cc-points needs at least 3 nodes, --field-grid 2")
    if any(not 0.0 < f < 1.0 for f in args.field_fractions):
        parser.error("--field-fractions must lie between 0 and 1")
    if [s.lower() for s in args.sensitivity_grids] == ["none"]:
        args.sensitivity_grids = []
    else:
        try:
            args.sensitivity_grids = [int(s) for s in args.sensitivity_grids]
        except ValueError:
            parser.error("--sensitivity-grids takes integers or 'none'")
        if min(args.sensitivity_grids) < 3:
            parser.error("--sensitivity-grids needs at least 3 nodes")
    return args


def main(argv):
    args = parse_args(argv[1:])
    pybamm, np = import_pybamm(SCRIPT)
    if importlib.util.find_spec("skfem") is None:
        sys.exit(
            f"{SCRIPT}: PyBaMM's 2D current collectors need scikit-fem; "
            "install it with 'pip install scikit-fem'."
        )
    probe = pybamm.IDAKLUSolver()
    default_tolerances = args.rtol is None and args.atol is None
    rtol = probe.rtol if args.rtol is None else args.rtol
    atol = probe.atol if args.atol is None else args.atol
    info = provenance(pybamm, np, argv, rtol, atol, default_tolerances)
    args.out_dir.mkdir(parents=True, exist_ok=True)

    x, r = args.points, args.particle_points
    cell_pts = {"x_n": x, "x_s": x, "x_p": x, "r_n": r, "r_p": r}
    ny, nz = args.cc_points

    def pouch_run(ny, nz):
        pts = dict(cell_pts, y=ny, z=nz)
        run = Run(pybamm, np, POUCH_OPTIONS, pts, rtol, atol)
        print(
            f"2+1D {cc_label(ny, nz)}: {run.states} states, t_end "
            f"{run.t[-1]:.3f} s, Q "
            f"{run.data['Discharge capacity [A.h]'][-1]:.6f} A.h, "
            f"{run.timings['wall_s']:.1f} s",
            flush=True,
        )
        return run

    pouch = pouch_run(ny, nz)
    plain = Run(pybamm, np, PLAIN_OPTIONS, cell_pts, rtol, atol)
    print(
        f"1D: t_end {plain.t[-1]:.3f} s, {plain.timings['wall_s']:.1f} s",
        flush=True,
    )
    params = pouch.params
    geometry = {name: float(params[name]) for name in GEOMETRY_PARAMETERS}
    area = geometry["Electrode width [m]"] * geometry["Electrode height [m]"]

    # Time rows.
    pouch_text = (
        f"pybamm.lithium_ion.DFN(options={options_text(POUCH_OPTIONS)})"
    )
    description = (
        f"constant-current discharge at {C_RATE:g}C "
        f"({pouch.current!r} A) from the initial state until "
        f"{info['cutoff_V']!r} V, isothermal, 2+1D potential-pair current "
        "collectors (Marquis2019's own tabs and foils)"
    )
    write_csv(
        args.out_dir / POUCH_FILE,
        csv_header(info, pouch, description, pouch_text),
        pouch.data,
    )
    write_csv(
        args.out_dir / PLAIN_FILE,
        csv_header(
            info,
            plain,
            description.replace(
                "2+1D potential-pair current collectors (Marquis2019's own "
                "tabs and foils)",
                "plain 1D DFN (PyBaMM's default current collector: no foil "
                "resistance), the 2+1D run's x and r mesh",
            ),
            "pybamm.lithium_ion.DFN()",
        ),
        plain.data,
    )

    # Fields.
    cc = collector_mesh(np, pouch)
    grid_y, grid_z, snapshots = fields_at(
        np, pouch, cc, args.field_fractions, args.field_grid
    )
    fields = {
        "description": (
            "PyBaMM 2+1D DFN (potential-pair collectors), Marquis2019, "
            f"{C_RATE:g}C discharge, isothermal: current-collector fields at "
            "chosen times. on_grid[name][i][j] is at (grid.y[i], grid.z[j]); "
            "at_nodes[name][i][j] at (mesh.y_nodes[i], mesh.z_nodes[j]), "
            "mesh node k = i * len(z_nodes) + j. y runs along the electrode "
            "width (0..L_y), z along its height (0..L_z); both tabs are on "
            "the top edge z = L_z. Current collector current density > 0 on "
            "discharge (from the positive electrode into the positive foil)."
        ),
        "generator": info,
        "model": pouch_text,
        "mesh_var_pts": pouch.var_pts,
        "geometry": geometry,
        "fields": list(FIELDS),
        "grid": {"y": grid_y, "z": grid_z},
        "mesh": {
            "y_nodes": cc["y_nodes"],
            "z_nodes": cc["z_nodes"],
            "node_order": "node k = i * len(z_nodes) + j is at "
            "(y_nodes[i], z_nodes[j])",
            "triangles": cc["triangles"],
            "negative_tab": cc["negative_tab"],
            "positive_tab": cc["positive_tab"],
        },
        "snapshots": snapshots,
    }
    write_json(args.out_dir / FIELDS_FILE, fields)

    # Collector-mesh sensitivity.
    reference_label = cc_label(ny, nz)
    runs = {reference_label: pouch}
    tabs = {reference_label: tab_numbers(cc)}
    for n in args.sensitivity_grids:
        if (n, n) != (ny, nz):
            run = pouch_run(n, n)
            tabs[cc_label(n, n)] = tab_numbers(collector_mesh(np, run))
            run.release()
            runs[cc_label(n, n)] = run
    sensitivity = None
    if len(runs) > 1:
        order = sorted(
            runs, key=lambda k: runs[k].var_pts["y"] * runs[k].var_pts["z"]
        )
        runs = {k: runs[k] for k in order}
        data = sensitivity_rows(np, runs)
        header = csv_header(
            info,
            pouch,
            description,
            pouch_text + " on several y-z meshes",
            mesh=f"{mesh_text(cell_pts)}; y, z: the collector mesh named in "
            "each voltage column",
            rows=f"every {OUTPUT_PERIOD_S} s from t = 0 while every run is "
            "before its cut-off crossing (final times in summary.json)",
        )
        write_csv(args.out_dir / SENSITIVITY_FILE, header, data)
        sensitivity = {"reference": reference_label, "runs": {}}
        for label, run in runs.items():
            entry = run.summary()
            entry["numerical_tabs"] = tabs[label]
            if run is not pouch:
                entry["minus_reference"] = compare(np, run, pouch)
            sensitivity["runs"][label] = entry

    pouch_summary = pouch.summary()
    pouch_summary["numerical_tabs"] = tab_numbers(cc)
    comparison = compare(np, pouch, plain)
    summary = {
        "generator": info,
        "geometry": geometry,
        "mean_current_density_A_m2": pouch.current / area,
        "pouch": pouch_summary,
        "plain_1d": plain.summary(),
        "pouch_minus_1d": comparison,
        "effective_foil_resistance_ohm": -comparison["initial_voltage_diff_V"]
        / pouch.current,
        "field_times_s": [s["time_s"] for s in snapshots],
        "field_current_density_max_over_min": [
            s["stats_at_nodes"][CURRENT_DENSITY]["max_over_min"]
            for s in snapshots
        ],
    }
    if sensitivity is not None:
        summary["collector_mesh_sensitivity"] = sensitivity
    parent = args.out_dir.parent / PARENT_1D_FILE
    if parent.exists():
        with open(parent) as f:
            lines = [line for line in f if not line.startswith("#")]
        names = lines[0].strip().split(",")
        rows = np.array(
            [[float(c) for c in line.split(",")] for line in lines[1:]]
        )
        t_col = rows[:, names.index("Time [s]")]
        v_col = rows[:, names.index("Voltage [V]")]
        n = min(len(t_col), len(plain.t))
        if np.array_equal(t_col[:n], plain.t[:n]):
            summary["plain_1d_vs_parent_reference"] = {
                "file": PARENT_1D_FILE,
                "rows_compared": int(n),
                "max_abs_voltage_diff_V": float(
                    np.max(np.abs(v_col[:n] - plain.v[:n]))
                ),
            }
    summary["note"] = (
        "timings_s (wall-clock) and generator.host_cpu differ from run to "
        "run and machine to machine; every other number is deterministic "
        "for the same PyBaMM and CPU."
    )
    write_json(args.out_dir / "summary.json", summary)
    meta = {
        "times": [s["time_s"] for s in snapshots],
        "snapshots": snapshots,
    }
    with open(args.out_dir / "README.md", "w", newline="\n") as f:
        f.write(readme_text(info, summary, meta))
    print(
        f"2+1D - 1D voltage: RMS {1e3 * comparison['voltage_rms_diff_V']:.4f}"
        f" mV, max {1e3 * comparison['voltage_max_abs_diff_V']:.4f} mV; "
        f"wrote {args.out_dir}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
