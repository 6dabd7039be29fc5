"""sweep: many 1D cells, each with its own parameters, through one
experiment on the CPU's threads or the GPU's cell program
(voltaic::BatchSimulation)."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from . import _core
from ._config import run_config_text, tables_folder
from ._parameters import as_parameter_set

ORIGIN = "voltaic.sweep"


def sweep(
    parameters: Mapping[str, Any],
    parameter_set: Any = "Chen2020",
    experiment: Any = ("Discharge at 1C until 2.5 V",),
    grid: Mapping[str, int] | None = None,
    thermal: str = "isothermal",
    solver: Mapping[str, Any] | None = None,
    threads: int = 0,
    backend: str = "auto",
    drive_cycles: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    termination: Any = None,
) -> dict[str, Any]:
    """Runs one cell per entry of the arrays in `parameters` (PyBaMM names,
    arrays of one length). A cell whose values are not physical fails in its
    status and termination; it never raises. Returns NumPy arrays: "status",
    "termination", "Discharge capacity [A.h]", "Discharge energy [W.h]",
    "Final voltage [V]", "Maximum temperature [K]", "Simulated time [s]",
    "Steps", one entry per cell, the swept arrays, and "curves": per cell a
    dict of "Time [s]", "Voltage [V]", "Current [A]" and
    "Volume-averaged cell temperature [K]", and "executor": where it ran.
    backend: "cpu" (`threads` threads), "cuda" (the GPU's cell program, two
    warps a cell; without a device it raises BackendUnavailable), or "auto"
    (the GPU where one is visible, else the CPU). drive_cycles: as
    voltaic.Simulation's. Batched ageing: `options` (PyBaMM's model
    options, as voltaic.Simulation's: {"SEI": "reaction limited"}), an
    experiment of many cycles and `termination` ("80% capacity": each cell
    stops on its own); "cycles" then holds per cell a dict of arrays, one
    value per cycle it ended, by PyBaMM's summary-variable names (on either
    backend)."""
    names = list(parameters)
    if not names:
        raise ValueError("sweep: parameters: at least one swept parameter")
    columns = [np.atleast_1d(np.asarray(parameters[n], float)) for n in names]
    lengths = {len(c) for c in columns}
    if len(lengths) != 1:
        raise ValueError(
            "sweep: parameters: every array must have one value per cell; "
            f"lengths {[len(c) for c in columns]}"
        )
    values = np.column_stack(columns).ravel()  # cell-major
    tables = tables_folder(drive_cycles)
    try:
        text = run_config_text(
            as_parameter_set(parameter_set),
            experiment,
            grid,
            thermal,
            backend,
            solver,
            drive_cycles=drive_cycles,
            folder=tables.name if tables else None,
            options=options,
            termination=termination,
        )
        config = _core.parse_config(text, ORIGIN)  # reads the tables
    finally:
        if tables:
            tables.cleanup()
    result = _core.sweep(config, names, values.tolist(), threads)
    out = summarise(names, columns, result.cells)
    out["executor"] = result.executor
    return out


def summarise(names, columns, results) -> dict[str, Any]:
    def column(attr, dtype=float):
        return np.array([getattr(r, attr) for r in results], dtype=dtype)

    out: dict[str, Any] = {n: c for n, c in zip(names, columns)}
    out["status"] = column("status", object).astype(str)
    out["termination"] = column("termination", object).astype(str)
    out["Discharge capacity [A.h]"] = column("discharge_capacity_ah")
    out["Discharge energy [W.h]"] = column("discharge_energy_wh")
    out["Final voltage [V]"] = column("final_voltage")
    out["Maximum temperature [K]"] = column("max_temperature")
    out["Simulated time [s]"] = column("simulated_time")
    out["Steps"] = column("steps_taken", int)
    out["curves"] = [
        {
            "Time [s]": np.array(r.time),
            "Voltage [V]": np.array(r.voltage),
            "Current [A]": np.array(r.current),
            "Volume-averaged cell temperature [K]": np.array(r.temperature),
        }
        for r in results
    ]
    # Per cell, one value per cycle it ended (multi-cycle ageing), by PyBaMM's
    # summary-variable names.
    out["cycles"] = [
        {name: np.array(v) for name, v in r.cycles.items()} for r in results
    ]
    return out
