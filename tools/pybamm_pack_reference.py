#!/usr/bin/env python3
"""A reference for voltaic's packs: PyBaMM DFN cells (lumped thermal,
Chen2020 with per-cell thickness and particle radius) wired 2p2s through
connection and busbar resistances, stepped through a drive profile at
small steps with the circuit solved to 1e-9 V at every step (each
iterate re-steps every cell from the step's start), the way liionpack would
if it iterated its coupling and ran DFN cells.

Writes a CSV (tests/data/pack/pybamm_2p2s_drive.csv by default): the
profile, the pack's voltage and every cell's current and voltage at each
whole second. tests/solver/pack_pybamm_test.cpp runs the same pack in
voltaic and compares. Run with PyBaMM installed (pip install pybamm):

    python tools/pybamm_pack_reference.py [--out FILE] [--substep 0.2]
"""

import argparse
import math
import sys
import time

from pybamm_common import import_pybamm, package_version

# The pack: cell k = s * Np + p; its negative electrode thickness and
# positive particle radius (the C++ test reads them from the CSV's header).
PARALLEL, SERIES = 2, 2
THICKNESS = [85.2e-6 * f for f in (0.9, 1.1, 1.05, 0.95)]
RADIUS = [5.22e-6 * f for f in (1.1, 0.9, 0.95, 1.05)]
CONNECTION = [1e-3, 2e-3, 1.5e-3, 1e-3]  # [Ohm]
BUSBAR = 2e-3  # [Ohm]
CAPACITY = 10.0  # [A h] of the pack (2 x 5 A h)
FIRST = 300.0  # [s] at 1C before the profile


def pack_current(t):
    """[A], > 0 discharging: 1C for FIRST seconds, then a smooth drive
    profile around 0.6C with braking to about -0.4C."""
    if t <= FIRST:
        return CAPACITY
    u = t - FIRST
    return CAPACITY * (0.6 + 0.7 * math.sin(2 * math.pi * u / 120.0) + 0.3 * math.sin(2 * math.pi * u / 37.0))


def make_cells(pybamm):
    cells = []
    for k in range(PARALLEL * SERIES):
        p = pybamm.ParameterValues("Chen2020")
        p["Negative electrode thickness [m]"] = THICKNESS[k]
        p["Positive particle radius [m]"] = RADIUS[k]
        p["Current function [A]"] = "[input]"
        model = pybamm.lithium_ion.DFN({"thermal": "lumped"})
        sim = pybamm.Simulation(model, parameter_values=p, solver=pybamm.IDAKLUSolver(rtol=1e-9, atol=1e-9))
        cells.append(sim)
    return cells


def step_all(cells, starts, amps, dt):
    """Each cell's step of dt from its start under amps[k]: the solutions and end voltages."""
    out, volts = [], []
    for sim, start, i in zip(cells, starts, amps):
        s = sim.step(dt, inputs={"Current function [A]": i}, npts=2, starting_solution=start, save=False)
        out.append(s)
        volts.append(float(s["Voltage [V]"].entries[-1]))
    return out, volts


def solve_step(cells, starts, amps, slopes, dt, current):
    """The circuit over one step: currents of each group adding up to
    `current`, the cells' V - r I equal within a group (Newton, secant
    slopes). Returns the solutions, currents, voltages, group voltages."""
    m = PARALLEL
    for g in range(SERIES):  # the last currents, shifted to add up to the pack's
        shift = (current - sum(amps[g * m:(g + 1) * m])) / m
        for p in range(m):
            amps[g * m + p] += shift
    before = None
    for it in range(40):
        sols, volts = step_all(cells, starts, amps, dt)
        if before is not None:
            for k in range(len(amps)):
                di = amps[k] - before[0][k]
                if abs(di) > 1e-9:
                    s = (volts[k] - before[1][k]) / di
                    if -1.0 < s < 0.0:
                        slopes[k] = s
        groups, worst, nxt = [], 0.0, list(amps)
        for g in range(SERIES):
            ks = range(g * m, (g + 1) * m)
            d = {k: slopes[k] - CONNECTION[k] for k in ks}
            f = {k: volts[k] - CONNECTION[k] * amps[k] for k in ks}
            u = (current - sum(amps[k] for k in ks) + sum(f[k] / d[k] for k in ks)) / sum(1.0 / d[k] for k in ks)
            for k in ks:
                worst = max(worst, abs(f[k] - u))
                nxt[k] = amps[k] + (u - f[k]) / d[k]
            groups.append(u)
        if worst < 1e-9:
            return sols, list(amps), volts, groups
        before = (list(amps), volts)
        amps[:] = nxt
    sys.exit(f"the circuit did not settle (mismatch {worst} V)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="tests/data/pack/pybamm_2p2s_drive.csv")
    ap.add_argument("--duration", type=float, default=600.0, help="[s] in all, FIRST at 1C included")
    ap.add_argument("--substep", type=float, default=0.2, help="[s] of the profile's steps (the 1C part: 10 s)")
    args = ap.parse_args()
    pybamm, _ = import_pybamm("pybamm_pack_reference.py")
    cells = make_cells(pybamm)
    n = PARALLEL * SERIES
    amps = [CAPACITY / PARALLEL] * n
    slopes = [-0.02] * n
    starts = [None] * n
    rows = []
    t, started = 0.0, time.time()
    # The consistent start: a step of 1e-6 s stands for t = 0.
    sols, amps, volts, groups = solve_step(cells, starts, amps, slopes, 1e-6, pack_current(0.0))
    starts = sols
    rows.append((0.0, pack_current(0.0), sum(groups) - BUSBAR * pack_current(0.0), list(amps), volts))
    t = 1e-6
    while t < args.duration - 1e-9:
        dt = 10.0 if t < FIRST - 1e-9 else args.substep
        end = min(t + dt, math.floor(t + 1e-9) + 1.0, args.duration)
        if t < FIRST - 1e-9:
            end = min(t + dt, FIRST)
        current = pack_current(end)  # the profile at the step's end, as voltaic's implicit steps read it
        sols, amps, volts, groups = solve_step(cells, starts, amps, slopes, end - t, current)
        starts = sols
        t = end
        if abs(t - round(t)) < 1e-6:
            rows.append((round(t), current, sum(groups) - BUSBAR * current, list(amps), volts))
    with open(args.out, "w") as f:
        f.write(f"# PyBaMM {package_version('pybamm')} DFN cells (Chen2020, lumped), wired {PARALLEL}p{SERIES}s; "
                f"tools/pybamm_pack_reference.py, {time.time() - started:.0f} s\n")
        f.write("# thickness [m]: " + " ".join(f"{x:.17g}" for x in THICKNESS) + "\n")
        f.write("# radius [m]: " + " ".join(f"{x:.17g}" for x in RADIUS) + "\n")
        f.write("# connection [Ohm]: " + " ".join(f"{x:.17g}" for x in CONNECTION) + f"; busbar [Ohm]: {BUSBAR}\n")
        f.write("Time [s],Pack current [A],Pack voltage [V]," + ",".join(f"I{k} [A]" for k in range(n)) + "," +
                ",".join(f"V{k} [V]" for k in range(n)) + "\n")
        for r in rows:
            f.write(",".join(f"{x:.12g}" for x in [r[0], r[1], r[2]] + r[3] + r[4]) + "\n")
    print(f"wrote {len(rows)} rows to {args.out} in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
