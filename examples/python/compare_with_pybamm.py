"""voltaic against PyBaMM on one discharge: Chen2020 (LG M50) at 1C to
2.5 V with the lumped thermal model, the same cell passed to both as a
pybamm.ParameterValues. Writes compare_with_pybamm.png (voltage and
temperature against time) and prints the capacities and the largest
voltage difference.

    pip install ./python pybamm matplotlib
    python examples/python/compare_with_pybamm.py [--output DIR]
"""

import argparse
import os
import sys

import numpy as np

import voltaic

EXPERIMENT = ["Discharge at 1C until 2.5 V"]


def solve_pybamm(pybamm, parameter_values):
    model = pybamm.lithium_ion.DFN(options={"thermal": "lumped"})
    sim = pybamm.Simulation(
        model,
        parameter_values=parameter_values,
        experiment=pybamm.Experiment(EXPERIMENT),
    )
    sol = sim.solve()
    names = ["Time [s]", "Voltage [V]", "Volume-averaged cell temperature [K]"]
    return {n: sol[n].entries for n in names}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", default=".")
    args = parser.parse_args()
    try:
        import pybamm
    except ImportError:
        sys.exit("compare_with_pybamm.py: needs PyBaMM: pip install pybamm")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parameter_values = pybamm.ParameterValues("Chen2020")
    ours = voltaic.Simulation(
        parameter_values, experiment=EXPERIMENT, thermal="lumped"
    ).solve()
    theirs = solve_pybamm(pybamm, parameter_values)

    t = ours["Time [s]"]
    v_theirs = np.interp(t, theirs["Time [s]"], theirs["Voltage [V]"])
    print(
        f"voltaic: {ours['Discharge capacity [A.h]'][-1]:.4f} A.h in {t[-1]:.1f} s"
    )
    print(f"PyBaMM:  ended at {theirs['Time [s]'][-1]:.1f} s")
    inside = t <= theirs["Time [s]"][-1]
    print(
        "largest voltage difference: "
        f"{1e3 * np.max(np.abs(ours['Voltage [V]'] - v_theirs)[inside]):.2f} mV"
    )

    fig, (ax_v, ax_t) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
    for label, data in (("voltaic", ours), ("PyBaMM", theirs)):
        ax_v.plot(data["Time [s]"], data["Voltage [V]"], label=label)
        ax_t.plot(
            data["Time [s]"],
            data["Volume-averaged cell temperature [K]"],
            label=label,
        )
    ax_v.set_ylabel("Voltage [V]")
    ax_t.set_ylabel("Volume-averaged cell temperature [K]")
    ax_t.set_xlabel("Time [s]")
    ax_v.legend()
    fig.tight_layout()
    path = os.path.join(args.output, "compare_with_pybamm.png")
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
