"""Pack: Np x Ns 1D cells wired in parallel and in series (or by a
netlist), each with its own parameters, through one experiment
(voltaic::PackSimulation).

The keyword arguments become the TOML text of a pack config ([pack],
[pack.thermal], and [sweep] for the cells' own values; docs/config.md), read
by the parser `voltaic pack` uses, so that both build the same pack and
refuse the same input with the same message.
"""

from __future__ import annotations

import numbers
import os
from typing import Any, Mapping

import numpy as np

from . import _core
from ._config import (
    cell_tables,
    drive_cycle_table,
    experiment_items,
    experiment_table,
    tables_folder,
    toml_table,
    toml_value,
)
from ._parameters import as_parameter_set

ORIGIN = "voltaic.Pack"
# The parser wants an [experiment]; the pack built at construction never
# runs it (run() reads its experiment from a config of its own).
PLACEHOLDER_EXPERIMENT = ("Rest for 1 second",)


def is_scalar(value: Any) -> bool:
    return isinstance(value, numbers.Real) or (
        isinstance(value, np.ndarray) and value.ndim == 0
    )


def per_cell(value: Any) -> list:
    """An array of values, one per cell (k = s Np + p), as a TOML array."""
    return np.atleast_1d(np.asarray(value, dtype=float)).ravel().tolist()


def link_entries(links: Any) -> str:
    """[pack.thermal] links: (a, b, conductance) tuples or dicts with
    those keys, as an array of inline tables."""
    items = []
    for i, link in enumerate(links):
        if isinstance(link, Mapping):
            entries = dict(link)
        else:
            try:
                a, b, g = link
            except (TypeError, ValueError):
                raise TypeError(
                    f"network['links'][{i}]: a tuple (a, b, conductance "
                    f"[W/K]) or a dict of those keys, not {link!r}"
                ) from None
            entries = {"a": a, "b": b, "conductance": g}
        items.append(
            "{"
            + ", ".join(f"{k} = {toml_value(v)}" for k, v in entries.items())
            + "}"
        )
    return "[" + ", ".join(items) + "]"


def thermal_network_table(network: Mapping[str, Any] | None) -> str:
    """[pack.thermal] from the network dict: its keys are the section's
    (a conductance given as an array is the per-cell key), so that an
    unknown one is refused by the parser, naming it."""
    if not network:
        return ""
    keys = dict(network)
    links = keys.pop("links", None)
    g = keys.get("coolant_conductance")
    if g is not None and not is_scalar(g):
        keys["coolant_conductances"] = per_cell(g)
        del keys["coolant_conductance"]
    text = toml_table("pack.thermal", keys)
    if links is not None:
        text += f"links = {link_entries(links)}\n"
    return text


def pack_tables(
    parallel: Any,
    series: Any,
    connection_resistance: Any,
    busbar_resistance: Any,
    network: Mapping[str, Any] | None,
    lower_voltage_cutoff: Any,
    upper_voltage_cutoff: Any,
    netlist: Any = None,
    record_period: Any = 0.0,
) -> str:
    """[pack] and [pack.thermal]."""
    keys: dict = {"parallel": parallel, "series": series}
    if netlist is not None:  # the netlist holds the wiring and its resistors
        given = [
            name
            for name, value, default in (
                ("parallel", parallel, None),
                ("series", series, None),
                ("connection_resistance", connection_resistance, 0.0),
                ("busbar_resistance", busbar_resistance, 0.0),
            )
            if not (value is default or (default is not None and is_scalar(value) and value == default))
        ]
        if given:
            raise ValueError(
                f"voltaic.Pack: {given[0]} is given beside netlist, which holds the pack's "
                "wiring and resistors; allowed: one of them"
            )
        keys = {"netlist": os.fspath(netlist), "record_period": record_period}
        if lower_voltage_cutoff is not None:
            keys["lower_voltage_cutoff"] = lower_voltage_cutoff
        if upper_voltage_cutoff is not None:
            keys["upper_voltage_cutoff"] = upper_voltage_cutoff
        return toml_table("pack", keys) + thermal_network_table(network)
    if parallel is None or series is None:
        raise ValueError(
            "voltaic.Pack: parallel and series are missing; allowed: both "
            "(Np x Ns), or netlist"
        )
    if is_scalar(connection_resistance):
        keys["connection_resistance"] = connection_resistance
    else:
        keys["connection_resistances"] = per_cell(connection_resistance)
    keys["busbar_resistance"] = busbar_resistance
    keys["record_period"] = record_period
    if lower_voltage_cutoff is not None:
        keys["lower_voltage_cutoff"] = lower_voltage_cutoff
    if upper_voltage_cutoff is not None:
        keys["upper_voltage_cutoff"] = upper_voltage_cutoff
    return toml_table("pack", keys) + thermal_network_table(network)


def cells_tables(cells: Mapping[str, Any] | None) -> str:
    """[sweep] of method "list": cell k takes entry k of every array."""
    if not cells:
        return ""
    text = toml_table("sweep", {"method": "list"})
    for name, values in cells.items():
        text += toml_table(
            f"sweep.parameters.{toml_value(str(name))}",
            {"values": per_cell(values)},
        )
    return text


class Pack:
    """Ns groups in series, each of Np cells in parallel (cell k = s Np + p
    is the p-th cell of group s, group 0 at the negative terminal), every
    cell a 1D DFN cell of `parameter_set` with its own values from `cells`
    ({PyBaMM name: Np Ns values}; None: identical cells). Each cell reaches
    its group through its `connection_resistance` [Ohm] (one for all, or
    Np Ns values); the groups are joined by `busbar_resistance` [Ohm].
    thermal: "isothermal" or "lumped"; network (lumped cells): the pack's
    thermal network, by [pack.thermal]'s keys: "neighbour_conductance"
    [W/K], "links" [(a, b, G [W/K])], "coolant" ("none", "plate" or
    "flow"), "coolant_conductance" [W/K] (one for all, or Np Ns values),
    "coolant_temperature" [K], "coolant_capacity_rate" [W/K].
    lower_voltage_cutoff, upper_voltage_cutoff [V]: the pack's limits (by
    default Ns times the cells' own). grid, solver, backend: as
    voltaic.Simulation's (the grid 1D). The arguments become the TOML of
    a pack config (`config_text`), read here by the parser `voltaic pack`
    uses: a bad value raises ConfigError (a ValueError) naming the key, a
    bad cell's value a ValueError naming the cell.

    netlist: instead of parallel and series, a netlist file (liionpack's
    and LTspice's desc node1 node2 value: V cells in order, R resistors,
    Ri joined, I the terminals; docs/config.md, "Netlists"), relative to
    the working directory; the run then has each node's "Node voltage [V]"
    ([rows, nodes], "nodes" their names). record_period [s]: the simulated
    time between the rows a run keeps (0: every accepted step; each
    experiment step's first and last rows are always kept)."""

    def __init__(
        self,
        parallel: int | None = None,
        series: int | None = None,
        parameter_set: Any = "Chen2020",
        cells: Mapping[str, Any] | None = None,
        connection_resistance: Any = 0.0,
        busbar_resistance: float = 0.0,
        thermal: str = "lumped",
        network: Mapping[str, Any] | None = None,
        lower_voltage_cutoff: float | None = None,
        upper_voltage_cutoff: float | None = None,
        grid: Mapping[str, int] | None = None,
        solver: Mapping[str, Any] | None = None,
        backend: str = "auto",
        netlist: str | os.PathLike | None = None,
        record_period: float = 0.0,
    ):
        text = cell_tables(as_parameter_set(parameter_set))
        if grid:
            text += toml_table("grid", dict(grid))
        text += toml_table("thermal", {"model": thermal})
        text += toml_table(
            "solver", {"backend": backend, **dict(solver or {})}
        )
        text += pack_tables(
            parallel,
            series,
            connection_resistance,
            busbar_resistance,
            network,
            lower_voltage_cutoff,
            upper_voltage_cutoff,
            netlist,
            record_period,
        )
        text += cells_tables(cells)
        self.config_text = text
        config = _core.parse_pack_config(
            text + experiment_table(PLACEHOLDER_EXPERIMENT), ORIGIN
        )
        self._pack = _core.PackSimulation(config)

    @property
    def cells(self) -> int:
        return self._pack.config.cells

    @property
    def parallel(self) -> int:
        return self._pack.config.parallel

    @property
    def series(self) -> int:
        return self._pack.config.series

    @property
    def nominal_capacity(self) -> float:
        """[A.h] the smallest over the groups of the sum of the group's
        cells' capacities: what the experiment's C-rates refer to."""
        return self._pack.nominal_capacity

    @property
    def lower_voltage_cutoff(self) -> float:
        return self._pack.lower_voltage_cutoff

    @property
    def upper_voltage_cutoff(self) -> float:
        return self._pack.upper_voltage_cutoff

    def run(
        self, experiment: Any, drive_cycles: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Runs the experiment (PyBaMM's wording; currents, powers,
        voltages and C-rates are the pack's; "until any cell reaches
        <x> V" ends a step on its first cell there) from the start.
        drive_cycles: as voltaic.Simulation's. A run that stops early does
        not raise ("completed" False, "termination" says why); Ctrl-C
        raises KeyboardInterrupt at the next time step. Returns read-only
        NumPy arrays, one row per step start and accepted time step: the
        pack's "Time [s]", "Voltage [V]", "Current [A]" (> 0 discharging),
        every cell's "Cell current [A]", "Cell voltage [V]", "Cell
        temperature [K]" and "Cell heat [W]" as [rows, cells], "Coolant
        outlet temperature [K]" with a flowing coolant; the circuit's
        "Node voltage [V]" [rows, nodes] (an Np x Ns pack's: across each
        group; a netlist's: each node against the negative terminal) and
        "nodes", their names; and "completed",
        "termination", "steps", "steps rejected", "circuit iterations",
        "parallel", "series", "executor" (where it ran)."""
        tables = tables_folder(drive_cycles)
        try:
            text = self.config_text + experiment_table(
                experiment_items(experiment)
            )
            if drive_cycles:
                text += drive_cycle_table(
                    drive_cycles, tables.name if tables else "."
                )
            config = _core.parse_pack_config(text, ORIGIN)  # reads the tables
        finally:
            if tables:
                tables.cleanup()
        r = self._pack.run(config)
        out: dict[str, Any] = {
            "Time [s]": r.time,
            "Voltage [V]": r.voltage,
            "Current [A]": r.current,
            "Cell current [A]": r.cell_current,
            "Cell voltage [V]": r.cell_voltage,
            "Cell temperature [K]": r.cell_temperature,
            "Cell heat [W]": r.cell_heat,
        }
        if len(r.coolant_outlet):
            out["Coolant outlet temperature [K]"] = r.coolant_outlet
        out["Node voltage [V]"] = r.node_voltage
        out["nodes"] = list(r.node_names)
        out.update(
            {
                "completed": r.completed,
                "termination": r.termination,
                "steps": r.steps_taken,
                "steps rejected": r.steps_rejected,
                "circuit iterations": r.circuit_iterations,
                "parallel": self.parallel,
                "series": self.series,
                "executor": r.executor,
            }
        )
        return out

    def __repr__(self) -> str:
        layout = (
            f"a netlist of {self.cells} cells"
            if self._pack.config.netlist
            else f"{self.parallel}p{self.series}s"
        )
        return f"<voltaic.Pack {layout}, {self.nominal_capacity:.4g} A.h>"
