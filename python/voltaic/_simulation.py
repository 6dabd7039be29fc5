"""Simulation and Solution: one cell through an experiment, PyBaMM's way."""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

import numpy as np

from . import _core
from ._config import (
    experiment_items,
    experiment_termination,
    run_config_text,
    tables_folder,
)
from ._parameters import as_parameter_set

ORIGIN = "voltaic.Simulation"


class Solution:
    """A run's time series by PyBaMM's names (`sol["Voltage [V]"]`) and the
    fields at the asked times, as read-only NumPy arrays viewing the C++
    Solution (no copy)."""

    def __init__(self, result: _core.RunResult, grid_shape: tuple):
        self._result = result
        self._grid_shape = grid_shape  # (nz, ny, nx)
        self._fields: list | None = None

    def __getitem__(self, name: str) -> np.ndarray:
        return self._result.column(name)

    @property
    def variables(self) -> list[str]:
        return list(_core.variable_names())

    @property
    def completed(self) -> bool:
        """False when a step failed or was infeasible (the rows so far kept)."""
        return self._result.completed

    @property
    def termination(self) -> str:
        return self._result.termination

    @property
    def summary_variables(self) -> dict[str, np.ndarray]:
        """One value per finished cycle, by PyBaMM's summary-variable names
        ("Cycle number", "Discharge capacity [A.h]", "Loss of lithium to
        negative SEI [mol]", ...): PyBaMM's `solution.summary_variables`."""
        return {k: np.asarray(v) for k, v in self._result.cycles.items()}

    @property
    def notes(self) -> list[str]:
        """What did not stop the run but should be known: a step that ended
        at the cell's own voltage cut-off before its end."""
        return list(self._result.notes)

    @property
    def steps_taken(self) -> int:
        return self._result.steps_taken

    @property
    def steps_rejected(self) -> int:
        return self._result.steps_rejected

    @property
    def executor(self) -> str:
        return self._result.executor

    @property
    def field_times(self) -> np.ndarray:
        return np.array([t for t, _ in self._result.fields])

    @property
    def fields(self) -> list[dict[str, np.ndarray]]:
        """One dict per field time; per-cell fields shaped (nz, ny, nx),
        the particle surface concentration one value per particle."""
        if self._fields is None:
            cells = int(np.prod(self._grid_shape))
            self._fields = [
                {
                    name: v.reshape(self._grid_shape) if v.size == cells else v
                    for name, v in frame.items()
                }
                for _, frame in self._result.fields
            ]
        return self._fields

    def __len__(self) -> int:
        return self._result.rows

    def to_pandas(self):
        """The time series as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame({name: self[name] for name in self.variables})

    def to_csv(self, path: str | os.PathLike) -> None:
        """The time series as CSV, "%.17g" as timeseries.csv of the CLI."""
        names = self.variables
        data = np.column_stack([self[n] for n in names])
        np.savetxt(
            path,
            data,
            fmt="%.17g",
            delimiter=",",
            header=",".join(names),
            comments="",
        )

    def plot(self, show: bool = False):
        """Voltage and temperature against time (matplotlib); the figure."""
        import matplotlib.pyplot as plt

        fig, (ax_v, ax_t) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
        t = self["Time [s]"]
        ax_v.plot(t, self["Voltage [V]"])
        ax_v.set_ylabel("Voltage [V]")
        ax_t.plot(t, self["Volume-averaged cell temperature [K]"])
        ax_t.set_ylabel("Volume-averaged cell temperature [K]")
        ax_t.set_xlabel("Time [s]")
        fig.tight_layout()
        if show:
            plt.show()
        return fig

    def __repr__(self) -> str:
        state = "completed" if self.completed else "stopped early"
        return (
            f"<voltaic.Solution {len(self)} rows, {state}: {self.termination}>"
        )


class Simulation:
    """A cell, an experiment, a grid and a thermal model, as PyBaMM sets
    them up. The keyword arguments become the TOML of a run config
    (`config_text`), read and checked here by the parser `voltaic run` uses:
    a bad value raises ConfigError (a ValueError) naming the key.
    drive_cycles: tables the experiment's "Run NAME (A)" / "Run NAME (W)"
    steps follow, by NAME: a CSV file's path, or a pair (times [s] from the
    step's start, currents [A] or powers [W]), as PyBaMM's drive cycles.
    options: PyBaMM's model options voltaic has, by PyBaMM's names
    ({"SEI": "reaction limited", "SEI film resistance": "distributed",
    "lithium plating": "partially reversible"}).
    termination: PyBaMM's experiment termination ("80% capacity", "4 A.h
    capacity", "2.5 V", or a list of them), checked after each cycle; a
    pybamm.Experiment's own when not given."""

    def __init__(
        self,
        parameter_set: Any = "Chen2020",
        experiment: Any = ("Discharge at 1C until 2.5 V",),
        grid: Mapping[str, int] | None = None,
        thermal: str = "isothermal",
        backend: str = "auto",
        solver: Mapping[str, Any] | None = None,
        drive_cycles: Mapping[str, Any] | None = None,
        options: Mapping[str, str] | None = None,
        termination: Any = None,
    ):
        # Tables given as arrays live in files while this object does (the
        # config reads CSV files; solve() may read the config again).
        self._tables = tables_folder(drive_cycles)
        self._settings = dict(
            parameter_set=as_parameter_set(parameter_set),
            experiment=experiment_items(experiment),
            grid=dict(grid or {}),
            thermal=thermal,
            backend=backend,
            solver=dict(solver or {}),
            drive_cycles=dict(drive_cycles or {}),
            folder=self._tables.name if self._tables else None,
            options=dict(options or {}),
            termination=experiment_termination(experiment, termination),
        )
        self.config_text = run_config_text(**self._settings)
        self.config = _core.parse_config(self.config_text, ORIGIN)

    def config_text_with_fields(
        self,
        field_times: Sequence[float] | None,
        field_period: float,
        save_at_cycles: Any = None,
    ) -> str:
        output: dict = {}
        if field_times is not None and len(field_times):
            output["field_times"] = [float(t) for t in field_times]
        if field_period:
            output["field_period"] = float(field_period)
        return run_config_text(
            **self._settings, output=output, save_at_cycles=save_at_cycles
        )

    def solve(
        self,
        field_times: Sequence[float] | None = None,
        field_period: float = 0.0,
        save_at_cycles: Any = None,
    ) -> Solution:
        """Runs the experiment from the start. A run that stops early does
        not raise (`completed` False, `termination` says why); Ctrl-C raises
        KeyboardInterrupt at the next time step. save_at_cycles, as
        PyBaMM's: only every Nth cycle (an int) or the listed ones keep
        their rows (the first and last always); every cycle keeps its
        summary_variables."""
        config = self.config
        if field_times is not None or field_period or save_at_cycles is not None:
            text = self.config_text_with_fields(
                field_times, field_period, save_at_cycles
            )
            config = _core.parse_config(text, ORIGIN)
        neg, sep, pos, _, nx, ny = config.grid
        return Solution(_core.solve(config), (neg + sep + pos, ny, nx))
