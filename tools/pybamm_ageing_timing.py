#!/usr/bin/env python3
"""Times PyBaMM on the ageing benchmark of benchmarks/configs/okane2022_ageing.toml,
for the side-by-side figure of docs/performance.md ("Ageing on one core").

The cell: PyBaMM's DFN with {"SEI": "solvent-diffusion limited", "lithium
plating": "partially reversible"} (PyBaMM then puts the film's drop in), the
OKane2022 set, its default solver (IDAKLU) and mesh, the config's cycle
("Discharge at 1C until 2.5 V", "Rest for 10 minutes", "Charge at 0.5C until
4.2 V", "Hold at 4.2 V until C/20", "Rest for 10 minutes") for --cycles
cycles (default 100), rows kept as the config keeps them (save_at_cycles).
Prints one JSON line: cycles run, wall time of the solve, seconds per cycle,
the last cycle's discharge capacity and lithium lost to SEI and plating.

    taskset -c 1 python3 tools/pybamm_ageing_timing.py --cycles 100

With --progress it also prints a JSON line at the end of every cycle (its
number, the seconds since the solve began, the process's peak memory), from
a PyBaMM callback: a run stopped by a time limit (`timeout 600`: issue 30's
"as many cycles as it finishes in 10 minutes") or by the machine's memory
still leaves its figures.
"""

import argparse
import json
import os
import resource
import time

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from pybamm_common import host_cpu_name, import_pybamm, package_version  # noqa: E402

CYCLE = (
    "Discharge at 1C until 2.5 V",
    "Rest for 10 minutes",
    "Charge at 0.5C until 4.2 V",
    "Hold at 4.2 V until C/20",
    "Rest for 10 minutes",
)


def max_rss_mb():
    """This process's peak resident memory [MB] (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--save-every", type=int, default=100)
    parser.add_argument("--progress", action="store_true", help="a JSON line at the end of every cycle")
    args = parser.parse_args()
    pybamm, _ = import_pybamm("pybamm_ageing_timing.py")
    options = {"SEI": "solvent-diffusion limited", "lithium plating": "partially reversible"}
    model = pybamm.lithium_ion.DFN(options)
    sim = pybamm.Simulation(
        model,
        parameter_values=pybamm.ParameterValues("OKane2022"),
        experiment=pybamm.Experiment([CYCLE] * args.cycles),
    )
    start = time.perf_counter()

    class Progress(pybamm.callbacks.Callback):
        def __init__(self):
            self.cycles = 0

        def on_cycle_end(self, logs):
            self.cycles += 1
            line = {"cycle": self.cycles, "wall_s": time.perf_counter() - start, "max_rss_mb": max_rss_mb()}
            print(json.dumps(line), flush=True)

    sol = sim.solve(save_at_cycles=args.save_every, callbacks=[Progress()] if args.progress else None)
    wall = time.perf_counter() - start
    last = sol.summary_variables
    print(
        json.dumps(
            {
                "tool": "PyBaMM",
                "version": package_version("pybamm"),
                "cpu": host_cpu_name(),
                "options": options,
                "cycles": len(last["Cycle number"]),
                "wall_s": wall,
                "s_per_cycle": wall / len(last["Cycle number"]),
                "max_rss_mb": max_rss_mb(),
                "last_discharge_capacity_ah": float(last["Capacity [A.h]"][-1]),
                "last_sei_lithium_mol": float(last["Loss of lithium to negative SEI [mol]"][-1]),
                "last_plating_lithium_mol": float(last["Loss of lithium to negative lithium plating [mol]"][-1]),
            }
        )
    )


if __name__ == "__main__":
    main()
