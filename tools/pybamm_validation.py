#!/usr/bin/env python3
"""Compares the voltaic CLI with PyBaMM on cases unlike the ones the unit tests use.

voltaic's tests compare it with PyBaMM reference data made by
tools/pybamm_reference.py and tools/pybamm_bpx_reference.py: Chen2020 and
Marquis2019 at 298.15 K, mostly from the full cell, at 0.1C to 5C. The 32
cases here were chosen to be unlike those:

* Chen2020 constant-current discharges at other rates and temperatures (0.3C
  to 4C, 273.15 to 318.15 K), isothermal and lumped; a lumped cell that starts
  at 298.15 K with a 273.15 K ambient; an isothermal cell whose config sets
  only the ambient temperature (283.15 K);
* Marquis2019 at 0.5C and 3C, 288.15 K;
* starts from a partial state of charge (0.3, 0.7): CC-CV charges and a
  discharge;
* experiments: two cycles of discharge / rest / CC-CV charge / rest, and
  GITT-like pulse trains (10 pulses with rests; one of them also with "or
  until 2.5 V" on the pulses);
* a BPX cell (given by --bpx; made for the BPX repository's About:Energy LFP
  18650 example, converted to BPX 1.x by tools/bpx_v0_to_v1.py) at 1C and 2C,
  and variants of it, written by this script under WORK/bpx, with the
  entropic coefficients zeroed or all but one kind of activation energy
  zeroed (to tell which temperature dependence a lumped difference comes
  from);
* one case run with the electrolyte face rule "harmonic" (voltaic's other
  rule; PyBaMM's, the default, is "arithmetic").

Each case is run by both codes:

* voltaic: ``voltaic run config.toml`` (``--voltaic``, default
  build/cpu-only/apps/voltaic) in WORK/cases/<case>/, on the CPU backend,
  20 cells per domain and 20 radial shells; experiments as the
  ``[experiment]`` steps, discharges as one "Discharge at ... until ..."
  step. Partial-SOC starts get the uniform particle concentrations that
  PyBaMM's ``set_initial_state`` gives, as ``[cell.overrides]`` (repr).
* PyBaMM: ``pybamm.lithium_ion.DFN(options={"thermal": ...})``, 20 points
  per domain and per particle, ``IDAKLUSolver()`` at its default
  tolerances, as tools/pybamm_reference.py. Discharges run on the current
  function with ``t_interp`` every 1 s (0.5 s from 2C) plus voltaic's output
  times; experiments as ``pybamm.Experiment(..., period="1 second")``. BPX
  files are read with ``ParameterValues.create_from_bpx_obj`` after removing
  "Initial state-of-charge", as tools/pybamm_bpx_reference.py does (both
  codes then start from BPX's stoichiometry window).

The comparison matches experiment steps by index and counts time from each
step's start. Differences are voltaic minus PyBaMM (interpolated), at
voltaic's output rows up to the end of the shorter step: voltage, or current
in "Hold" steps. The table's columns:

* V RMS / V max: over all steps but holds, in mV;
* (1 s grid RMS/max): the same with both sides interpolated to a 1 s grid;
* max excl. last 1 s: the max leaving out each step's last second, where a
  voltage falling at ~1 V/s and cut-off times a few hundredths of a second
  apart make large differences;
* t_end v / p: end of the run; cap rel %: discharge capacity (experiments:
  the sum over steps of |capacity change|), voltaic / PyBaMM - 1;
* dT v / p: peak temperature rise (lumped); hold I RMS/max: the current in
  the CV holds, in mA; voltaic s / PyBaMM s: wall times.

Flags (last column; "ok" when there are none): "exit code N" (voltaic
failed; 124: it ran past 300 s), "NaN in timeseries", "warnings" (a voltaic
output line with "warn"), "steps voltaic A pybamm B expected C" (the codes
ran different numbers of steps), "V RMS ... > 5" (mV), "V max ... > 20" (mV),
"capacity ... > 1%", and "no timeseries.csv" / "PyBaMM failed: ...".

Written under --work (default: voltaic-pybamm-validation in the system
temp folder): cases/<case>/ with case.json (the case), config.toml,
out/timeseries.csv, voltaic.{stdout,stderr,json} (exit code, wall time,
command), pybamm.csv (the PyBaMM curves, with a Step column; repr numbers),
pybamm.json (timings, terminations, initial concentrations), result.json
(the comparison, per step); bpx/ (the BPX variants); results.md and
results.json (every case that has a result). ``--report OUT.md`` also writes
the table to OUT.md and the results, with the versions and the command, to
OUT.json.

A case's voltaic and PyBaMM runs are kept and reused while its case.json
is unchanged; ``--redo-voltaic`` / ``--redo-pybamm`` rerun them (e.g. after
rebuilding voltaic). ``--cases`` picks cases by name or shell pattern.
Without ``--bpx`` the BPX cases are skipped. About 40 s on 2 cores.

Needs Python 3.11, NumPy and PyBaMM (and the bpx package for the BPX
cases). From the repository root::

    python3 tools/pybamm_validation.py --voltaic build/cpu-only/apps/voltaic \\
        --bpx lfp_18650_cell_BPX_v1.json --report docs/data/validation/results.md
"""

import argparse
import csv
import datetime
import fnmatch
import json
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from pybamm_common import host_cpu_name, import_pybamm, package_version

SCRIPT = "pybamm_validation.py"
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_VOLTAIC = ROOT / "build" / "cpu-only" / "apps" / "voltaic"
DEFAULT_WORK = Path(tempfile.gettempdir()) / "voltaic-pybamm-validation"
POINTS = 20  # cells per domain and per particle, both codes
VOLTAIC_TIMEOUT_S = 300
NEG_C0 = "Initial concentration in negative electrode [mol.m-3]"
POS_C0 = "Initial concentration in positive electrode [mol.m-3]"
PYBAMM_COLUMNS = (
    "Time [s]",
    "Voltage [V]",
    "Current [A]",
    "Discharge capacity [A.h]",
    "Volume-averaged cell temperature [K]",
)
V_RMS_LIMIT_MV = 5.0
V_MAX_LIMIT_MV = 20.0
CAPACITY_LIMIT = 0.01

# ---------------------------------------------------------------- the cases


@dataclass
class Case:
    name: str
    kind: str  # "discharge" (PyBaMM: current function) or "experiment"
    pset: str  # "Chen2020", "Marquis2019" or "BPX"
    steps: list[str]
    thermal: str  # "isothermal" or "lumped"
    T_amb: float
    T_init: float | None = None  # None: T_amb
    cycles: int = 1
    c_rate: float | None = None  # discharges
    soc: float | None = None  # None: the parameter set's own initial state
    bpx_variant: str = ""  # BPX: "" (the --bpx file) or a key of BPX_VARIANTS
    face: str | None = None  # electrolyte_face_mean; None: voltaic's default
    only_ambient: bool = False  # config sets ambient_temperature only

    def __post_init__(self):
        if self.T_init is None:
            self.T_init = self.T_amb


def discharge(name, pset, c_rate, thermal, T, cutoff, **kw):
    steps = [f"Discharge at {c_rate:g}C until {cutoff:g} V"]
    return Case(name, "discharge", pset, steps, thermal, T, c_rate=c_rate, **kw)


def experiment(name, pset, steps, cycles, thermal, T, **kw):
    return Case(name, "experiment", pset, steps, thermal, T, cycles=cycles, **kw)


def cccv(rate):
    return [f"Charge at {rate}C until 4.2 V", "Hold at 4.2 V until C/50"]


def all_cases():
    iso, lumped = "isothermal", "lumped"
    return [
        # Chen2020 CC discharges at other rates and temperatures
        discharge("chen_0.3C_iso_273K", "Chen2020", 0.3, iso, 273.15, 2.5),
        discharge("chen_0.3C_lumped_318K", "Chen2020", 0.3, lumped, 318.15, 2.5),
        discharge("chen_1.5C_iso_283K", "Chen2020", 1.5, iso, 283.15, 2.5),
        discharge("chen_1.5C_lumped_273K", "Chen2020", 1.5, lumped, 273.15, 2.5),
        discharge("chen_2.5C_iso_318K", "Chen2020", 2.5, iso, 318.15, 2.5),
        discharge("chen_2.5C_lumped_283K", "Chen2020", 2.5, lumped, 283.15, 2.5),
        discharge("chen_4C_iso_273K", "Chen2020", 4.0, iso, 273.15, 2.5),
        discharge("chen_4C_lumped_318K", "Chen2020", 4.0, lumped, 318.15, 2.5),
        # a warm cell cooled towards a cold ambient
        discharge("chen_1.5C_lumped_amb273K_init298K", "Chen2020", 1.5, lumped, 273.15, 2.5, T_init=298.15),
        # isothermal with only the ambient temperature in the config: the
        # cell must run at the ambient, not at the set's 298.15 K
        discharge("chen_1C_iso_onlyambient283K", "Chen2020", 1.0, iso, 283.15, 2.5, T_init=298.15,
                  only_ambient=True),
        # Marquis2019 at 288.15 K, down to its own cut-off
        discharge("marquis_0.5C_iso_288K", "Marquis2019", 0.5, iso, 288.15, 3.105),
        discharge("marquis_0.5C_lumped_288K", "Marquis2019", 0.5, lumped, 288.15, 3.105),
        discharge("marquis_3C_iso_288K", "Marquis2019", 3.0, iso, 288.15, 3.105),
        discharge("marquis_3C_lumped_288K", "Marquis2019", 3.0, lumped, 288.15, 3.105),
        # partial-SOC starts
        experiment("chen_soc0.3_cccv1C_iso_298K", "Chen2020", cccv(1), 1, iso, 298.15, soc=0.3),
        experiment("chen_soc0.7_cccv2C_lumped_298K", "Chen2020", cccv(2), 1, lumped, 298.15, soc=0.7),
        experiment("chen_soc0.3_cccv2C_lumped_273K", "Chen2020", cccv(2), 1, lumped, 273.15, soc=0.3),
        discharge("chen_soc0.7_1.5C_iso_283K", "Chen2020", 1.5, iso, 283.15, 2.5, soc=0.7),
        # multi-step experiments
        experiment("chen_2cycles_lumped_298K", "Chen2020",
                   ["Discharge at 1.5C until 2.5 V", "Rest for 20 minutes", "Charge at 0.75C until 4.2 V",
                    "Hold at 4.2 V until C/50", "Rest for 20 minutes"], 2, lumped, 298.15),
        experiment("chen_gitt10_iso_298K", "Chen2020",
                   ["Discharge at 1C for 5 minutes", "Rest for 10 minutes"], 10, iso, 298.15),
        experiment("chen_gitt10_2C_lumped_283K", "Chen2020",
                   ["Discharge at 2C for 3 minutes", "Rest for 10 minutes"], 10, lumped, 283.15),
        # the BPX cell; then rate alone and temperature alone
        discharge("bpx_lfp_1C_iso_298K", "BPX", 1.0, iso, 298.15, 2.0),
        discharge("bpx_lfp_2C_lumped_298K", "BPX", 2.0, lumped, 298.15, 2.0),
        discharge("bpx_lfp_2C_iso_298K", "BPX", 2.0, iso, 298.15, 2.0),
        discharge("bpx_lfp_1C_iso_318K", "BPX", 1.0, iso, 318.15, 2.0),
        # the lumped 2C case with one temperature dependence at a time
        *(discharge(f"bpx_lfp_{variant}_2C_lumped_298K", "BPX", 2.0, lumped, 298.15, 2.0, bpx_variant=variant)
          for variant in ("noentropic", "noarrhenius", "only_Ds", "only_electrolyte", "only_k0")),
        # the GITT case with a voltage limit on the pulses, so that PyBaMM
        # does not end the experiment at the cut-off
        experiment("chen_gitt10_2C_lumped_283K_until", "Chen2020",
                   ["Discharge at 2C for 3 minutes or until 2.5 V", "Rest for 10 minutes"], 10, lumped, 283.15),
        # voltaic's other face rule, to show the size of its difference
        discharge("chen_2.5C_iso_318K_harmonic", "Chen2020", 2.5, iso, 318.15, 2.5, face="harmonic"),
    ]


# ---------------------------------------------------------------- BPX variants

ELECTRODES = ("Negative electrode", "Positive electrode")
ACTIVATION_ENERGIES = {
    "electrolyte": [("Electrolyte", "Conductivity activation energy [J.mol-1]"),
                    ("Electrolyte", "Diffusivity activation energy [J.mol-1]")],
    "Ds": [(e, "Diffusivity activation energy [J.mol-1]") for e in ELECTRODES],
    "k0": [(e, "Reaction rate constant activation energy [J.mol-1]") for e in ELECTRODES],
}
# (section of "Parameterisation", parameter) set to 0 in each variant
BPX_VARIANTS = {
    "noentropic": [(e, "Entropic change coefficient [V.K-1]") for e in ELECTRODES],
    "noarrhenius": [p for group in ACTIVATION_ENERGIES.values() for p in group],
    **{f"only_{kept}": [p for name, group in ACTIVATION_ENERGIES.items() if name != kept for p in group]
       for kept in ACTIVATION_ENERGIES},
}


def write_bpx_variants(bpx_file, folder):
    """The --bpx file and its variants, as {variant: path} ("" the file itself)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {"": bpx_file}
    for variant, zeroed in BPX_VARIANTS.items():
        obj = json.loads(bpx_file.read_text())
        for section, name in zeroed:
            params = obj["Parameterisation"][section]
            if name in params:  # a missing one already has no effect
                params[name] = 0.0
        path = folder / f"{bpx_file.stem}_{variant}.json"
        text = json.dumps(obj, indent=2) + "\n"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        files[variant] = path
    return files


# ---------------------------------------------------------------- PyBaMM


def pybamm_parameters(pybamm, case, bpx_files):
    if case.pset == "BPX":
        obj = json.loads(bpx_files[case.bpx_variant].read_text())
        # start from BPX's stoichiometry window, as voltaic does (docs/bpx.md)
        obj["State"]["Initial conditions"].pop("Initial state-of-charge", None)
        params = pybamm.ParameterValues.create_from_bpx_obj(obj)
    else:
        params = pybamm.ParameterValues(case.pset)
    params["Ambient temperature [K]"] = case.T_amb
    params["Initial temperature [K]"] = case.T_init
    if case.soc is not None:
        params.set_initial_state(case.soc)  # what sim.solve(initial_soc=...) does
    return params


def solve_discharge(sim, case, voltaic_times):
    """Solution on a 1 s (0.5 s from 2C) grid plus voltaic's output times."""
    t_end = 2.0 * 3600.0 / case.c_rate  # past the cut-off, which ends the solve
    dt = 1.0 if case.c_rate < 2 else 0.5
    grid = np.append(np.arange(0.0, t_end, dt), t_end)  # t_end itself, where it is not on the grid (0.7C)
    if voltaic_times is not None:
        grid = np.unique(np.concatenate([grid, voltaic_times[voltaic_times <= t_end]]))
    sol = sim.solve(t_eval=[0.0, t_end], t_interp=grid)
    data = {n: np.asarray(sol[n].entries, float).ravel() for n in PYBAMM_COLUMNS}
    data["Step"] = np.zeros_like(data["Time [s]"])
    return sol, data, [sol.termination]


def solve_experiment(sim, case):
    """Solution of every step (period 1 s), with the step's index as Step."""
    sol = sim.solve()
    parts = {n: [] for n in (*PYBAMM_COLUMNS, "Step")}
    terminations = []
    steps = [step for cycle in sol.cycles for step in cycle.steps]
    for k, step in enumerate(steps):
        for n in PYBAMM_COLUMNS:
            parts[n].append(np.asarray(step[n].entries, float).ravel())
        parts["Step"].append(np.full(len(parts["Time [s]"][-1]), k))
        terminations.append(step.termination)
    return sol, {n: np.concatenate(v) for n, v in parts.items()}, terminations


def run_pybamm(pybamm, case, bpx_files, folder, voltaic_times):
    model = pybamm.lithium_ion.DFN(options={"thermal": case.thermal})
    params = pybamm_parameters(pybamm, case, bpx_files)
    var_pts = dict(model.default_var_pts)
    var_pts.update({k: POINTS for k in ("x_n", "x_s", "x_p", "r_n", "r_p")})
    info = dict(c_n0=float(params[NEG_C0]), c_p0=float(params[POS_C0]),
                T_amb=float(params["Ambient temperature [K]"]), T_init=float(params["Initial temperature [K]"]),
                pybamm_version=pybamm.__version__)
    experiment = None
    if case.kind == "experiment":
        experiment = pybamm.Experiment([tuple(case.steps)] * case.cycles, period="1 second")
    else:
        params["Current function [A]"] = case.c_rate * params["Nominal cell capacity [A.h]"]
    sim = pybamm.Simulation(model, parameter_values=params, var_pts=var_pts, solver=pybamm.IDAKLUSolver(),
                            experiment=experiment)
    t0 = time.perf_counter()
    if experiment is None:
        sol, data, terminations = solve_discharge(sim, case, voltaic_times)
    else:
        sol, data, terminations = solve_experiment(sim, case)
    info["solve_wall_s"] = time.perf_counter() - t0
    info["integration_s"] = float(getattr(sol.integration_time, "value", sol.integration_time))
    info["termination"] = sol.termination
    info["terminations"] = terminations
    write_csv(folder / "pybamm.csv", data)
    (folder / "pybamm.json").write_text(json.dumps(info, indent=1))
    return info


def write_csv(path, data):
    names = list(data)
    with open(path, "w") as f:
        f.write(",".join(names) + "\n")
        for i in range(len(data["Time [s]"])):
            f.write(",".join(repr(float(data[n][i])) for n in names) + "\n")


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    data = np.array([[float(x) for x in r] for r in rows[1:]], dtype=float)
    return {n: data[:, i] for i, n in enumerate(rows[0])}


# ---------------------------------------------------------------- voltaic


def voltaic_config(case, bpx_file, c0):
    """The case's config.toml; c0: PyBaMM's initial concentrations (SOC starts)."""
    lines = [f"# {case.name}: written by tools/{SCRIPT}", "[cell]"]
    if case.pset == "BPX":
        lines.append(f'bpx = "{bpx_file}"')
    else:
        lines.append(f'parameter_set = "{case.pset}"')
    if case.soc is not None:
        lines += ["", f"[cell.overrides]  # PyBaMM's set_initial_state({case.soc:g}), repr",
                  f'"{NEG_C0}" = {c0[0]!r}', f'"{POS_C0}" = {c0[1]!r}']
    lines += ["", "[grid]", f"negative_cells = {POINTS}", f"separator_cells = {POINTS}",
              f"positive_cells = {POINTS}", f"radial_shells = {POINTS}",
              "", "[thermal]", f'model = "{case.thermal}"', f"ambient_temperature = {case.T_amb!r}"]
    if not case.only_ambient:
        lines.append(f"initial_temperature = {case.T_init!r}")
    lines += ["", "[solver]", 'backend = "cpu"']
    if case.face is not None:
        lines.append(f'electrolyte_face_mean = "{case.face}"')
    lines += ["", "[experiment]", "steps = [" + ", ".join(json.dumps(s) for s in case.steps) + "]"]
    if case.cycles > 1:
        lines.append(f"cycles = {case.cycles}")
    lines += ["", "[output]", 'directory = "out"', ""]
    return "\n".join(lines)


def run_voltaic(voltaic, folder):
    (folder / "out" / "timeseries.csv").unlink(missing_ok=True)  # no stale curve if the run fails
    command = ["timeout", str(VOLTAIC_TIMEOUT_S), str(voltaic), "run", "config.toml"]
    t0 = time.perf_counter()
    p = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    info = dict(rc=p.returncode, wall_s=time.perf_counter() - t0,
                command=f"cd {folder} && {shlex.join(command)}")
    (folder / "voltaic.stdout").write_text(p.stdout)
    (folder / "voltaic.stderr").write_text(p.stderr)
    (folder / "voltaic.json").write_text(json.dumps(info, indent=1))
    return info


# ---------------------------------------------------------------- comparison


def rms(e, empty=float("nan")):
    return float(np.sqrt(np.mean(e**2))) if e.size else empty


def max_abs(e, empty=float("nan")):
    return float(np.max(np.abs(e))) if e.size else empty


def compare_step(V, P, in_v, in_p, text):
    """One step's differences: (summary, at voltaic's rows, on a 1 s grid)."""
    rv = V["Time [s]"][in_v] - V["Time [s]"][in_v][0]
    rp = P["Time [s]"][in_p] - P["Time [s]"][in_p][0]
    var = "Current [A]" if text.startswith("Hold") else "Voltage [V]"
    yv, yp = V[var][in_v], P[var][in_p]
    keep = rv <= rp[-1] + 1e-9  # only where PyBaMM's step has data
    e = yv[keep] - np.interp(rv[keep], rp, yp)
    e_early = e[rv[keep] < min(rv[-1], rp[-1]) - 1.0]  # the last second left out
    t_grid = np.arange(0.0, min(rv[-1], rp[-1]), 1.0)
    e_grid = np.interp(t_grid, rv, yv) - np.interp(t_grid, rp, yp)
    q_v, q_p = V["Discharge capacity [A.h]"][in_v], P["Discharge capacity [A.h]"][in_p]
    summary = dict(text=text, var=var, duration_v=float(rv[-1]), duration_p=float(rp[-1]),
                   dcap_v=float(q_v[-1] - q_v[0]), dcap_p=float(q_p[-1] - q_p[0]),
                   rms=rms(e), max=max_abs(e), rms_u=rms(e_grid), max_u=max_abs(e_grid),
                   max_early=max_abs(e_early, 0.0), rms_early=rms(e_early, 0.0),
                   v_end_v=float(V["Voltage [V]"][in_v][-1]), v_end_p=float(P["Voltage [V]"][in_p][-1]))
    return summary, e, e_grid


def compare_steps(case, V, P, res):
    """Per-step comparison, pooled into the voltage (and hold current) metrics."""
    sv, sp = V["Step"].astype(int), P["Step"].astype(int)
    res["steps_voltaic"], res["steps_pybamm"] = int(sv.max()) + 1, int(sp.max()) + 1
    res["steps_expected"] = len(case.steps) * case.cycles
    per_step, v_err, v_grid, i_err = [], [], [], []
    for k in range(min(res["steps_voltaic"], res["steps_pybamm"])):
        summary, e, e_grid = compare_step(V, P, sv == k, sp == k, case.steps[k % len(case.steps)])
        per_step.append(dict(step=k, **summary))
        if summary["var"] == "Current [A]":
            i_err.append(e)
        else:
            v_err.append(e)
            v_grid.append(e_grid)
    res["per_step"] = per_step
    pool = lambda parts: np.concatenate(parts) if parts else np.zeros(0)
    res["v_max_early_mV"] = 1e3 * max([s["max_early"] for s in per_step if s["var"] == "Voltage [V]"]
                                      or [float("nan")])
    res["v_rms_mV"] = 1e3 * rms(pool(v_err))
    res["v_max_mV"] = 1e3 * max_abs(pool(v_err), 0.0)
    res["v_rms_uniform_mV"] = 1e3 * rms(pool(v_grid))
    res["v_max_uniform_mV"] = 1e3 * max_abs(pool(v_grid), 0.0)
    if pool(i_err).size:
        res["hold_i_rms_mA"] = 1e3 * rms(pool(i_err))
        res["hold_i_max_mA"] = 1e3 * max_abs(pool(i_err))


def compare_totals(case, V, P, res):
    """End time, capacity, temperature."""
    res["t_end_v"], res["t_end_p"] = float(V["Time [s]"][-1]), float(P["Time [s]"][-1])
    res["t_end_rel"] = res["t_end_v"] / res["t_end_p"] - 1.0
    if case.kind == "discharge":
        q_v, q_p = V["Discharge capacity [A.h]"][-1], P["Discharge capacity [A.h]"][-1]
    else:  # charge throughput
        q_v = sum(abs(s["dcap_v"]) for s in res["per_step"])
        q_p = sum(abs(s["dcap_p"]) for s in res["per_step"])
    res["cap_v"], res["cap_p"] = float(q_v), float(q_p)
    res["cap_rel"] = float(q_v / q_p - 1.0) if q_p else float("nan")
    T_v = V["Cell temperature [K]"]
    if case.thermal == "lumped":
        T_p = P["Volume-averaged cell temperature [K]"]
        res["dT_end_v"], res["dT_end_p"] = float(T_v[-1] - T_v[0]), float(T_p[-1] - T_p[0])
        res["dT_max_v"], res["dT_max_p"] = float(T_v.max() - T_v[0]), float(T_p.max() - T_p[0])
        res["T0_v"], res["T0_p"] = float(T_v[0]), float(T_p[0])
    else:
        res["T_v"] = float(T_v[0])


def flags(res):
    out = []
    if res["rc"] != 0:
        out.append(f"exit code {res['rc']}")
    if "error" in res:
        return out + [res["error"]]
    if res["nan"]:
        out.append("NaN in timeseries")
    if res["warnings"]:
        out.append("warnings")
    n = res["steps_expected"]
    if res["steps_voltaic"] != res["steps_pybamm"] or res["steps_voltaic"] != n:
        out.append(f"steps voltaic {res['steps_voltaic']} pybamm {res['steps_pybamm']} expected {n}")
    if res["v_rms_mV"] > V_RMS_LIMIT_MV:
        out.append(f"V RMS {res['v_rms_mV']:.2f} mV > {V_RMS_LIMIT_MV:g}")
    if res["v_max_mV"] > V_MAX_LIMIT_MV:
        out.append(f"V max {res['v_max_mV']:.2f} mV > {V_MAX_LIMIT_MV:g}")
    if abs(res["cap_rel"]) > CAPACITY_LIMIT:
        out.append(f"capacity {100 * res['cap_rel']:+.2f}% > {100 * CAPACITY_LIMIT:g}%")
    return out


def compare(case, folder):
    vinfo = json.loads((folder / "voltaic.json").read_text())
    pinfo = json.loads((folder / "pybamm.json").read_text())
    log = ((folder / "voltaic.stdout").read_text() + (folder / "voltaic.stderr").read_text()).splitlines()
    res = dict(name=case.name, rc=vinfo["rc"], voltaic_wall_s=vinfo["wall_s"],
               warnings=[line.strip() for line in log if "warn" in line.lower()],
               voltaic_tail=[line for line in log if line.strip()][-12:],
               pybamm_solve_s=pinfo.get("solve_wall_s"), pybamm_integration_s=pinfo.get("integration_s"),
               pybamm_termination=pinfo.get("terminations"))
    timeseries = folder / "out" / "timeseries.csv"
    if "error" in pinfo:
        res["error"] = pinfo["error"]
    elif not timeseries.exists():
        res["error"] = "no timeseries.csv"
    else:
        V, P = read_csv(timeseries), read_csv(folder / "pybamm.csv")
        res["nan"] = bool(any(np.isnan(v).any() for v in V.values()))
        res["voltaic_rows"] = int(len(V["Time [s]"]))
        compare_steps(case, V, P, res)
        compare_totals(case, V, P, res)
        res["pybamm_c0"] = [pinfo["c_n0"], pinfo["c_p0"]]
    res["fails"] = flags(res)
    return res


# ---------------------------------------------------------------- report


def fmt(x, f="{:.2f}"):
    return "-" if x is None or (isinstance(x, float) and np.isnan(x)) else f.format(x)


def table(results):
    head = ("| case | rc | V RMS mV | V max mV | (1 s grid RMS/max) | max excl. last 1 s | t_end v / p s | "
            "cap rel % | dT v / p K | hold I RMS/max mA | voltaic s | PyBaMM s | flags |")
    lines = [head, "|" + "---|" * 13]
    for r in results:
        dT = f"{r['dT_max_v']:.2f} / {r['dT_max_p']:.2f}" if "dT_max_v" in r else "-"
        hold = f"{r['hold_i_rms_mA']:.2f} / {r['hold_i_max_mA']:.2f}" if "hold_i_rms_mA" in r else "-"
        cap = 100 * r["cap_rel"] if "cap_rel" in r else None
        lines.append(
            f"| {r['name']} | {r['rc']} | {fmt(r.get('v_rms_mV'))} | {fmt(r.get('v_max_mV'))} | "
            f"{fmt(r.get('v_rms_uniform_mV'))}/{fmt(r.get('v_max_uniform_mV'))} | "
            f"{fmt(r.get('v_max_early_mV'))} | "
            f"{fmt(r.get('t_end_v'), '{:.1f}')} / {fmt(r.get('t_end_p'), '{:.1f}')} | {fmt(cap, '{:+.3f}')} | "
            f"{dT} | {hold} | {fmt(r['voltaic_wall_s'], '{:.3f}')} | {fmt(r.get('pybamm_solve_s'))} | "
            f"{'; '.join(r['fails']) or 'ok'} |")
    return "\n".join(lines) + "\n"


def provenance(voltaic, argv):
    version = subprocess.run([str(voltaic), "--version"], capture_output=True, text=True).stdout.strip()
    return dict(script=f"tools/{SCRIPT}", command="python3 " + shlex.join(argv),
                date=datetime.date.today().isoformat(), voltaic_version=version,
                pybamm_version=package_version("pybamm"), pybammsolvers_version=package_version("pybammsolvers"),
                casadi_version=package_version("casadi"), numpy_version=np.__version__,
                bpx_version=package_version("bpx"), python_version=sys.version.split()[0], cpu=host_cpu_name())


def write_report(path, results, info):
    text = (f"voltaic ({info['voltaic_version']}) vs PyBaMM {info['pybamm_version']}, "
            f"tools/{SCRIPT}, {info['date']}\n\n" + table(results))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.with_suffix(".json").write_text(json.dumps(dict(generator=info, cases=results), indent=1) + "\n")


# ---------------------------------------------------------------- main


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--voltaic", type=Path, default=DEFAULT_VOLTAIC,
                        help="the voltaic CLI (default: build/cpu-only/apps/voltaic in this repository)")
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK,
                        help=f"folder for the cases' runs (default: {DEFAULT_WORK})")
    parser.add_argument("--bpx", type=Path,
                        help="BPX 1.x JSON file for the bpx_* cases (without it they are skipped)")
    parser.add_argument("--cases", nargs="+", default=["*"], metavar="PATTERN",
                        help="run only these cases, by name or shell pattern (default: all)")
    parser.add_argument("--redo-voltaic", action="store_true", help="rerun voltaic even where a run is kept")
    parser.add_argument("--redo-pybamm", action="store_true", help="rerun PyBaMM even where a run is kept")
    parser.add_argument("--report", type=Path, metavar="OUT.md",
                        help="also write the table to OUT.md and the results to OUT.json")
    return parser.parse_args(argv[1:])


def enabled_cases(args):
    cases = all_cases()
    if args.bpx is None:
        bpx = [c.name for c in cases if c.pset == "BPX"]
        if bpx:
            print(f"note: no --bpx file given: the {len(bpx)} BPX cases ({bpx[0]} ...) are skipped")
        cases = [c for c in cases if c.pset != "BPX"]
    return cases


def run_case(pybamm, case, args, bpx_files):
    """Runs what is missing or out of date for one case, then compares."""
    folder = args.work / "cases" / case.name
    folder.mkdir(parents=True, exist_ok=True)
    bpx_file = bpx_files.get(case.bpx_variant) if case.pset == "BPX" else None
    definition = json.dumps(dict(asdict(case), bpx_file=str(bpx_file) if bpx_file else None), indent=1)
    changed = not (folder / "case.json").exists() or (folder / "case.json").read_text() != definition
    if args.redo_voltaic or changed or not (folder / "voltaic.json").exists():
        c0 = None
        if case.soc is not None:
            params = pybamm_parameters(pybamm, case, bpx_files)
            c0 = (float(params[NEG_C0]), float(params[POS_C0]))
        (folder / "config.toml").write_text(voltaic_config(case, bpx_file, c0))
        info = run_voltaic(args.voltaic, folder)
        print(f"[{case.name}] voltaic rc={info['rc']} wall={info['wall_s']:.3f}s", flush=True)
    if args.redo_pybamm or changed or not (folder / "pybamm.json").exists():
        timeseries = folder / "out" / "timeseries.csv"
        times = read_csv(timeseries)["Time [s]"] if case.kind == "discharge" and timeseries.exists() else None
        try:
            info = run_pybamm(pybamm, case, bpx_files, folder, times)
            print(f"[{case.name}] pybamm {info['solve_wall_s']:.2f}s {info['termination']}", flush=True)
        except Exception as err:  # report it in the table, go on with the other cases
            (folder / "pybamm.json").write_text(json.dumps(dict(error=f"PyBaMM failed: {err}")))
            print(f"[{case.name}] pybamm failed: {err}", flush=True)
    (folder / "case.json").write_text(definition)
    res = compare(case, folder)
    (folder / "result.json").write_text(json.dumps(res, indent=1))
    print(f"[{case.name}] rms {res.get('v_rms_mV', float('nan')):.3f} mV max "
          f"{res.get('v_max_mV', float('nan')):.3f} mV cap {100 * res.get('cap_rel', float('nan')):+.3f}% "
          f"flags={res['fails']}", flush=True)


def main(argv):
    args = parse_args(argv)
    args.voltaic = args.voltaic.resolve()  # runs are made from the case folders
    args.work = args.work.resolve()
    if not args.voltaic.is_file():
        sys.exit(f"{SCRIPT}: no voltaic CLI at {args.voltaic} (build it, or give --voltaic)")
    pybamm, _ = import_pybamm(SCRIPT)
    bpx_files = {}
    if args.bpx is not None:
        if package_version("bpx") == "not installed":
            sys.exit(f"{SCRIPT}: the BPX cases need the bpx package (pip install bpx), or leave out --bpx")
        bpx_files = write_bpx_variants(args.bpx.resolve(), args.work / "bpx")
    cases = enabled_cases(args)
    for pattern in args.cases:
        if not any(fnmatch.fnmatch(c.name, pattern) for c in cases):
            print(f"note: no case matches {pattern!r}")
    t0 = time.perf_counter()
    for case in cases:
        if any(fnmatch.fnmatch(case.name, p) for p in args.cases):
            run_case(pybamm, case, args, bpx_files)
    # the table holds every enabled case that has a result, run now or before
    results = [json.loads(p.read_text()) for c in cases
               if (p := args.work / "cases" / c.name / "result.json").exists()]
    info = provenance(args.voltaic, argv)
    write_report(args.work / "results.md", results, info)
    if args.report is not None:
        write_report(args.report, results, info)
    print(table(results), end="")
    print(f"{len(results)} cases, {sum(1 for r in results if r['fails'])} flagged; "
          f"this run took {time.perf_counter() - t0:.0f} s; table in {args.report or args.work / 'results.md'}")


if __name__ == "__main__":
    main(sys.argv)
