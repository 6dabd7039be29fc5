#!/usr/bin/env python3
"""PyBaMM's 2+1D pouch with its x-lumped thermal model, beside voltaic's 3D
heat through the stack: writes PyBaMM's curve and compares voltaic's.

    python3 tools/pybamm_pouch_thermal.py pybamm OUT.json
        Marquis2019, DFN with potential-pair collectors, "x-lumped" heat,
        its own pouch cooling, 1C for 3600 s, PyBaMM's 20 points per domain
        and particle, 7 x 7 collector nodes (IDAKLU; about 2.5 minutes).
    python3 tools/pybamm_pouch_thermal.py compare OUT.json TIMESERIES.csv
        voltaic's run of docs/data/pouch-thermal/voltaic.toml against it:
        temperature rise, max and RMS temperature and voltage differences.

Only PyBaMM's public API is called; its code is not in this repository.
"""
import json
import sys
import time


def pybamm_curve(out_path):
    import pybamm

    model = pybamm.lithium_ion.DFN(
        {
            "current collector": "potential pair",
            "dimensionality": 2,
            "thermal": "x-lumped",
            "cell geometry": "pouch",
        }
    )
    points = {k: 20 for k in ("x_n", "x_s", "x_p", "r_n", "r_p")}
    points.update({"y": 7, "z": 7})
    start = time.time()
    sim = pybamm.Simulation(
        model,
        parameter_values=pybamm.ParameterValues("Marquis2019"),
        var_pts=points,
        solver=pybamm.IDAKLUSolver(),
    )
    sol = sim.solve([0, 3600])
    data = {
        "pybamm_version": pybamm.__version__,
        "command": "python3 tools/pybamm_pouch_thermal.py pybamm " + out_path,
        "wall_s": time.time() - start,
        "time_s": [float(v) for v in sol["Time [s]"].entries],
        "temperature_K": [
            float(v) for v in sol["Volume-averaged cell temperature [K]"].entries
        ],
        "voltage_V": [float(v) for v in sol["Voltage [V]"].entries],
    }
    with open(out_path, "w") as f:
        json.dump(data, f, indent=1)


def compare(reference_path, timeseries_path):
    import csv

    import numpy as np

    ref = json.load(open(reference_path))
    t_ref = np.array(ref["time_s"])
    T_ref = np.array(ref["temperature_K"])
    V_ref = np.array(ref["voltage_V"])
    rows = list(csv.DictReader(open(timeseries_path)))
    t = np.array([float(r["Time [s]"]) for r in rows])
    T = np.interp(t_ref, t, [float(r["Cell temperature [K]"]) for r in rows])
    V = np.interp(t_ref, t, [float(r["Voltage [V]"]) for r in rows])
    rise_ref, rise = T_ref[-1] - T_ref[0], T[-1] - T[0]
    print(f"temperature rise: PyBaMM {rise_ref:.4f} K, voltaic {rise:.4f} K "
          f"({100 * (rise / rise_ref - 1):+.2f} %)")
    print(f"temperature: max |dT| {np.max(np.abs(T - T_ref)):.4f} K, "
          f"RMS {np.sqrt(np.mean((T - T_ref) ** 2)):.4f} K")
    print(f"voltage: RMS {1e3 * np.sqrt(np.mean((V - V_ref) ** 2)):.3f} mV, "
          f"max {1e3 * np.max(np.abs(V - V_ref)):.3f} mV")


def main(argv):
    if len(argv) == 3 and argv[1] == "pybamm":
        pybamm_curve(argv[2])
    elif len(argv) == 4 and argv[1] == "compare":
        compare(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
