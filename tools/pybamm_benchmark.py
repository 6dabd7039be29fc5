#!/usr/bin/env python3
"""Times PyBaMM's DFN on the discharge that ``voltaic-bench step`` runs.

The set-up is that of tools/pybamm_reference.py: ``pybamm.lithium_ion.DFN``
with ``{"thermal": ...}`` (default isothermal), ``pybamm.ParameterValues(
"Chen2020")`` from the parameter set's own initial state (fully charged as
Chen2020 defines it; no initial_soc), PyBaMM's default mesh (20 cells per
domain and per particle; ``--points``), ``pybamm.IDAKLUSolver()`` at its
default tolerances (rtol 1e-4, atol 1e-6, one thread). The discharge is

* ``--protocol experiment`` (default): ``pybamm.Experiment(["Discharge at 1C
  until 2.5 V"])``, the same words ``voltaic-bench step`` runs;
* ``--protocol current``: pybamm_reference.py's form: "Current function [A]"
  = 1C, ``solve(t_eval=[0, 2 h / C-rate], t_interp=every 10 s)``, ended by
  Chen2020's "Minimum voltage [V]" event (2.5 V).

Both reach the same capacity; the experiment builds a model per step, so its
set-up differs.

Other experiments (``--protocol experiment`` only): ``--steps`` replaces the
discharge by the given steps (one cycle) and ``--initial-soc`` starts from
PyBaMM's ``initial_soc`` (set during the timed set-up, by
``build_for_experiment(initial_soc=...)``). The 3C CC-CV charge of
pybamm_reference.py's ``cccv_3C_soc0.1_lumped``::

    python3 tools/pybamm_benchmark.py --thermal lumped --initial-soc 0.1 \
        --steps "Charge at 3C until 4.2 V" "Hold at 4.2 V until C/20"

Timed, per repetition, with ``time.perf_counter``:

* set-up: model, parameter values, experiment, solver and
  ``pybamm.Simulation`` construction, then ``build()`` (or
  ``build_for_experiment()``): parameter processing and discretisation;
* solve: ``Simulation.solve()``, which includes the solver's own set-up
  (CasADi functions, Jacobian; reported by PyBaMM as ``set_up_time``) and the
  integration (``integration_time``);
* total: set-up + solve.

One untimed warm-up run comes first (imports, CasADi's first use); the medians
of ``--repeat`` runs (default 5) are reported, with minimum and maximum. The
last line on stdout is one JSON object, keyed as ``voltaic-bench step --json``
where the meaning is the same (``setup_s``, ``total_s``, ``accepted_steps``,
``discharge_capacity_Ah``, ...); ``--json FILE`` also appends it to FILE.

    python3 tools/pybamm_benchmark.py --repeat 5
"""

import argparse
import os
import shlex
import statistics
import sys
import time

from pybamm_common import (
    host_cpu_name,
    import_pybamm,
    package_version,
    print_report,
)

PARAMETER_SET = "Chen2020"
CUTOFF_V = 2.5
OUTPUT_PERIOD_S = (
    10.0  # t_interp spacing of the "current" protocol (pybamm_reference.py's)
)
SCRIPT = "pybamm_benchmark.py"


def seconds(timer_time):
    """A PyBaMM TimerTime (or a number) in seconds."""
    return float(getattr(timer_time, "value", timer_time))


def mesh_points(points):
    return {
        "x_n": points,
        "x_s": points,
        "x_p": points,
        "r_n": points,
        "r_p": points,
    }


def discharge(pybamm, np, args, protocol):
    """One run (the discharge, or the --steps experiment) from a new model;
    returns the timings and the results."""
    t0 = time.perf_counter()
    model = pybamm.lithium_ion.DFN(options={"thermal": args.thermal})
    params = pybamm.ParameterValues(PARAMETER_SET)
    capacity = params["Nominal cell capacity [A.h]"]
    var_pts = dict(model.default_var_pts)
    var_pts.update(mesh_points(args.points))
    solver = pybamm.IDAKLUSolver()
    if args.protocol == "experiment":
        experiment = pybamm.Experiment([tuple(protocol)])
        sim = pybamm.Simulation(
            model,
            parameter_values=params,
            var_pts=var_pts,
            solver=solver,
            experiment=experiment,
        )
        sim.build_for_experiment(initial_soc=args.initial_soc)
    else:
        params["Current function [A]"] = args.c_rate * capacity
        sim = pybamm.Simulation(
            model, parameter_values=params, var_pts=var_pts, solver=solver
        )
        sim.build(initial_soc=args.initial_soc)
    t1 = time.perf_counter()
    if args.protocol == "experiment":
        # The same initial_soc as the build: PyBaMM sees it is set already.
        solution = sim.solve(initial_soc=args.initial_soc)
    else:
        t_end = (
            2.0 * 3600.0 / args.c_rate
        )  # the voltage cut-off always comes first
        t_grid = np.arange(0.0, t_end + 0.5 * OUTPUT_PERIOD_S, OUTPUT_PERIOD_S)
        solution = sim.solve(
            t_eval=[0.0, t_end], t_interp=t_grid, initial_soc=args.initial_soc
        )
    t2 = time.perf_counter()
    steps_run = (
        len(solution.cycles[0].steps)
        if getattr(solution, "cycles", None)
        else None
    )

    stats = getattr(solution, "solver_statistics", None)
    return {
        "setup_s": t1 - t0,
        "solve_s": t2 - t1,
        "total_s": t2 - t0,
        "solver_set_up_s": seconds(solution.set_up_time),
        "integration_s": seconds(solution.integration_time),
        "discharge_capacity_Ah": float(
            solution["Discharge capacity [A.h]"].entries[-1]
        ),
        "final_time_s": float(solution["Time [s]"].entries[-1]),
        "final_voltage_V": float(solution["Voltage [V]"].entries[-1]),
        "termination": solution.termination,
        "experiment_steps_run": steps_run,
        "stats": stats,
        "solver_options": {
            "rtol": solver.rtol,
            "atol": solver.atol,
            "num_threads": solver.options.get("num_threads"),
        },
    }


def summary(values):
    return {
        "median_s": statistics.median(values),
        "min_s": min(values),
        "max_s": max(values),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="timed runs; the median is reported (default 5)",
    )
    parser.add_argument(
        "--warmup", type=int, default=1, help="untimed runs first (default 1)"
    )
    parser.add_argument(
        "--c-rate",
        type=float,
        default=1.0,
        help="discharge current in C (default 1)",
    )
    parser.add_argument(
        "--thermal", choices=("isothermal", "lumped"), default="isothermal"
    )
    parser.add_argument(
        "--points",
        type=int,
        default=20,
        help="cells per domain and per particle (default 20)",
    )
    parser.add_argument(
        "--protocol",
        choices=("experiment", "current"),
        default="experiment",
        help="pybamm.Experiment (default) or pybamm_reference.py's current function with a voltage event",
    )
    parser.add_argument(
        "--steps",
        nargs="+",
        metavar="STEP",
        help="experiment steps to run as one cycle instead of the discharge "
        '(--protocol experiment), e.g. "Charge at 3C until 4.2 V" '
        '"Hold at 4.2 V until C/20"',
    )
    parser.add_argument(
        "--initial-soc",
        type=float,
        default=None,
        help="start from PyBaMM's initial_soc (default: the parameter set's "
        "own initial state)",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="also append the JSON line to FILE"
    )
    args = parser.parse_args()
    if (
        args.repeat < 1
        or args.warmup < 0
        or not args.c_rate > 0
        or args.points < 2
    ):
        parser.error(
            "--repeat >= 1, --warmup >= 0, --c-rate > 0 and --points >= 2 are required"
        )

    if args.steps and args.protocol != "experiment":
        parser.error("--steps needs --protocol experiment")
    if args.initial_soc is not None and not 0.0 <= args.initial_soc <= 1.0:
        parser.error("--initial-soc must be between 0 and 1")

    pybamm, np = import_pybamm(SCRIPT)
    protocol = args.steps or [
        f"Discharge at {args.c_rate:g}C until {CUTOFF_V:g} V"
    ]
    protocol_text = "; ".join(protocol)

    for _ in range(args.warmup):
        discharge(pybamm, np, args, protocol)
    runs = [discharge(pybamm, np, args, protocol) for _ in range(args.repeat)]

    first = runs[0]
    setup = summary([r["setup_s"] for r in runs])
    solve = summary([r["solve_s"] for r in runs])
    total = summary([r["total_s"] for r in runs])
    solver_set_up = statistics.median(r["solver_set_up_s"] for r in runs)
    integration = statistics.median(r["integration_s"] for r in runs)
    stats = first["stats"]
    steps = getattr(stats, "number_of_steps", None)
    same = all(
        r["discharge_capacity_Ah"] == first["discharge_capacity_Ah"]
        and getattr(r["stats"], "number_of_steps", None) == steps
        for r in runs
    )
    macro_cells = 3 * args.points

    report = {
        "benchmark": "step",
        "device": "cpu",
        "backend": "pybamm",
        "precision": "double",
        "size": macro_cells,
        "size_unit": "macro cells",
        "repeat": args.repeat,
        "warmup": args.warmup,
        "command_line": "python3 " + shlex.join(sys.argv),
        "variants": [
            {
                "name": f"set-up + solve: {PARAMETER_SET}, {protocol_text}",
                "role": "pybamm (total)",
                **total,
            },
            {"name": "Simulation.solve", "role": "pybamm (solve)", **solve},
            {
                "name": "set-up: DFN, ParameterValues, Simulation, build",
                "role": "set-up",
                **setup,
            },
        ],
        "notes": [],
        "host_cpu": host_cpu_name(),
        "host_hardware_threads": os.cpu_count(),
        "parameter_set": PARAMETER_SET,
        "experiment": protocol_text,
        "initial_soc": args.initial_soc,
        "protocol": args.protocol,
        "thermal": args.thermal,
        "grid": {
            **mesh_points(args.points),
            "macro_cells": macro_cells,
            "particles": 2 * args.points,
        },
        "model": "pybamm.lithium_ion.DFN",
        "solver": {"name": "IDAKLUSolver", **first["solver_options"]},
        "total_s": total["median_s"],
        "setup_s": setup["median_s"],
        "solve_s": solve["median_s"],
        "solver_set_up_s": solver_set_up,
        "integration_s": integration,
        "accepted_steps": steps,
        "error_test_failures": getattr(
            stats, "number_of_error_test_failures", None
        ),
        "nonlinear_solver_fails": getattr(
            stats, "number_of_nonlinear_solver_fails", None
        ),
        "nonlinear_solver_iterations": getattr(
            stats, "number_of_nonlinear_solver_iterations", None
        ),
        "linear_solver_setups": getattr(
            stats, "number_of_linear_solver_setups", None
        ),
        "solve_ms_per_accepted_step": (
            1e3 * solve["median_s"] / steps if steps else None
        ),
        "integration_ms_per_accepted_step": (
            1e3 * integration / steps if steps else None
        ),
        "discharge_capacity_Ah": first["discharge_capacity_Ah"],
        "final_time_s": first["final_time_s"],
        "final_voltage_V": first["final_voltage_V"],
        "termination": first["termination"],
        "same_steps_every_repeat": same,
        "pybamm_version": pybamm.__version__,
        "pybammsolvers_version": package_version("pybammsolvers"),
        "casadi_version": package_version("casadi"),
        "numpy_version": np.__version__,
        "python_version": sys.version.split()[0],
    }
    if args.steps:
        if first["experiment_steps_run"] != len(args.steps):
            report["notes"].append(
                f"the experiment ran {first['experiment_steps_run']} of "
                f"{len(args.steps)} steps: {first['termination']}"
            )
    elif (
        "2.5" not in first["termination"]
        and "Minimum voltage" not in first["termination"]
    ):
        report["notes"].append(
            f"the discharge did not end at the cut-off: {first['termination']}"
        )
    if not same:
        report["notes"].append(
            "steps or capacity differ between repeats; the first repeat's are reported"
        )

    print(
        f"PyBaMM {pybamm.__version__} DFN, {PARAMETER_SET}, {protocol_text} ({args.protocol}), {args.thermal}"
        + (
            ""
            if args.initial_soc is None
            else f", initial_soc={args.initial_soc:g}"
        )
    )
    print(
        f"  host:   {report['host_cpu']} ({report['host_hardware_threads']} hardware threads)"
    )
    print(
        f"  timing: median of {args.repeat} repetitions after {args.warmup} warm-up runs\n"
    )
    print(f"{'':<10}{'median ms':>12}{'min ms':>12}{'max ms':>12}")
    for name, s in (("set-up", setup), ("solve", solve), ("total", total)):
        print(
            f"{name:<10}{1e3 * s['median_s']:12.2f}{1e3 * s['min_s']:12.2f}{1e3 * s['max_s']:12.2f}"
        )
    print(
        f"\n  of the solve: solver set-up {1e3 * solver_set_up:.2f} ms, integration {1e3 * integration:.2f} ms"
    )
    print(
        f"  steps: {steps} ({report['error_test_failures']} error-test failures, "
        f"{report['nonlinear_solver_fails']} nonlinear-solver failures)"
    )
    print(
        f"  discharge capacity: {report['discharge_capacity_Ah']!r} A.h at t = {report['final_time_s']:.3f} s "
        f"({report['termination']})"
    )
    print_report(report, args.json)


if __name__ == "__main__":
    main()
