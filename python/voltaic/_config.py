"""The TOML text of a run config from Python keyword arguments.

A solve from Python reads this text with the same parser as `voltaic run`
(docs/config.md), so that both make the same run bit for bit and refuse the
same input with the same message.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import tempfile
from typing import Any, Iterable, Mapping, Sequence

DEFAULT_PARAMETER_SET = "Chen2020"
THERMAL_MODELS = ("isothermal", "lumped", "conduction")
# PyBaMM's model options that voltaic has, and their [degradation] keys.
MODEL_OPTIONS = {
    "SEI": "sei",
    "SEI film resistance": "sei_film_resistance",
    "lithium plating": "lithium_plating",
    "loss of active material": "loss_of_active_material",
    "particle mechanics": "particle_mechanics",
    "stress-induced diffusion": "stress_induced_diffusion",
    "SEI porosity change": "sei_porosity_change",
    "lithium plating porosity change": "lithium_plating_porosity_change",
}
# PyBaMM's values of those options that voltaic has not got, refused here by
# the option's PyBaMM name (the config reader would name its own key).
MISSING_VALUES = {
    "particle mechanics": ("swelling and cracking",),
}


def degradation_table(options: Mapping[str, str] | None) -> str:
    """[degradation] from PyBaMM-style model options ({"SEI": "reaction
    limited"}); an option voltaic does not have raises ValueError naming it."""
    if not options:
        return ""
    keys = {}
    for name, value in options.items():
        values = value if isinstance(value, (list, tuple)) else (value,)
        missing = [v for v in values if v in MISSING_VALUES.get(name, ())]
        if missing:
            raise ValueError(
                f"model option {name!r} is {missing[0]!r}, which voltaic "
                "does not have"
            )
        if name not in MODEL_OPTIONS:
            raise ValueError(
                f"model option {name!r} is not one voltaic has; allowed: "
                + ", ".join(repr(k) for k in MODEL_OPTIONS)
            )
        keys[MODEL_OPTIONS[name]] = value
    return toml_table("degradation", keys)
BACKENDS = ("auto", "cpu", "cuda")


def toml_value(value: Any) -> str:
    """One TOML value: a string, a number (repr: round-trips exactly), an array."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        items = value.tolist() if hasattr(value, "tolist") else value
        return "[" + ", ".join(toml_value(v) for v in items) + "]"
    raise TypeError(
        f"cannot write {value!r} ({type(value).__name__}) in a config"
    )


def toml_table(name: str, entries: Mapping[str, Any]) -> str:
    lines = [f"[{name}]"]
    lines += [f"{toml_value(k)} = {toml_value(v)}" for k, v in entries.items()]
    return "\n".join(lines) + "\n"


def is_bpx_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike)) and str(value).endswith(
        ".json"
    )


def cell_tables(parameter_set: Any) -> str:
    """[cell] and [cell.overrides] from a set's name, a BPX path or a dict."""
    overrides: dict = {}
    source = parameter_set
    if isinstance(parameter_set, Mapping):
        overrides = dict(parameter_set)
        source = overrides.pop("parameter_set", DEFAULT_PARAMETER_SET)
    elif parameter_set is None:
        source = DEFAULT_PARAMETER_SET
    elif not isinstance(parameter_set, (str, os.PathLike)):
        raise TypeError(
            "parameter_set: a set's name ('Chen2020'), a BPX file's path, "
            f"or a dict of PyBaMM-named values, not {type(parameter_set)}"
        )
    if is_bpx_path(source):
        cell = {"bpx": os.path.abspath(os.fspath(source))}
    else:
        cell = {"parameter_set": str(source)}
    text = toml_table("cell", cell)
    if overrides:
        text += toml_table("cell.overrides", overrides)
    return text


def experiment_items(experiment: Any) -> list:
    """Steps and tuples of steps, from a string, a list or a
    pybamm.Experiment (its cycles, each step by its description)."""
    if isinstance(experiment, str):
        return [experiment]
    if type(experiment).__name__ == "Experiment" and hasattr(
        experiment, "cycles"
    ):
        return [
            tuple(getattr(s, "description", None) or str(s) for s in cycle)
            for cycle in experiment.cycles
        ]
    return list(experiment)


def experiment_termination(experiment: Any, termination: Any) -> Any:
    """PyBaMM's termination: the one given, else a pybamm.Experiment's own."""
    if termination is not None:
        return termination
    return getattr(experiment, "termination_string", None)


def experiment_table(
    experiment: Any, termination: Any = None, save_at_cycles: Any = None
) -> str:
    """[experiment] from PyBaMM's list of steps (strings, or tuples of them:
    a list of one repeated tuple is that many cycles), its termination
    ("80% capacity", or a list of conditions) and save_at_cycles (N, or a
    list of cycle numbers)."""
    items = experiment_items(experiment)
    steps: Sequence
    cycles = 1
    if items and all(isinstance(s, tuple) for s in items):
        if all(s == items[0] for s in items):
            steps, cycles = list(items[0]), len(items)
        else:
            steps = [step for cycle in items for step in cycle]
    else:
        steps = [
            step
            for s in items
            for step in (s if isinstance(s, tuple) else (s,))
        ]
    keys: dict = {"steps": list(steps), "cycles": cycles}
    if termination is not None:
        keys["termination"] = (
            termination if isinstance(termination, str) else list(termination)
        )
    if save_at_cycles is not None:
        keys["save_at_cycles"] = (
            int(save_at_cycles)
            if isinstance(save_at_cycles, numbers.Integral)
            else [int(c) for c in save_at_cycles]
        )
    return toml_table("experiment", keys)


def tables_folder(drive_cycles: Mapping[str, Any] | None):
    """A temporary folder for the tables given as arrays (None without any)."""
    if not drive_cycles or all(
        isinstance(t, (str, os.PathLike)) for t in drive_cycles.values()
    ):
        return None
    return tempfile.TemporaryDirectory(prefix="voltaic-drive-cycles-")


def drive_cycle_table(drive_cycles: Mapping[str, Any], folder: str) -> str:
    """[experiment.drive_cycles]: each name's table as the config reads it,
    from a CSV file: a path as given (made absolute), or a pair of arrays
    (times [s] from the step's start, values [A] or [W]) written to
    NAME.csv in `folder` (every digit kept: repr round-trips)."""
    files: dict = {}
    for name, table in drive_cycles.items():
        if isinstance(table, (str, os.PathLike)):
            files[name] = os.path.abspath(os.fspath(table))
            continue
        try:
            times, values = table
        except (TypeError, ValueError):
            raise TypeError(
                f"drive_cycles[{name!r}]: a CSV file's path or a pair "
                "(times [s], values [A] or [W]), not "
                f"{type(table).__name__}"
            ) from None
        times = [float(t) for t in times]
        values = [float(v) for v in values]
        if len(times) != len(values):
            raise ValueError(
                f"drive_cycles[{name!r}]: {len(times)} times and "
                f"{len(values)} values; allowed: one value per time"
            )
        path = os.path.join(folder, f"table{len(files)}.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write("Time [s],Value\n")
            f.writelines(f"{t!r},{v!r}\n" for t, v in zip(times, values))
        files[name] = path
    return toml_table("experiment.drive_cycles", files)


def run_config_text(
    parameter_set: Any,
    experiment: Iterable,
    grid: Mapping[str, int] | None,
    thermal: str,
    backend: str,
    solver: Mapping[str, Any] | None,
    output: Mapping[str, Any] | None = None,
    drive_cycles: Mapping[str, Any] | None = None,
    folder: str | None = None,
    options: Mapping[str, str] | None = None,
    termination: Any = None,
    save_at_cycles: Any = None,
) -> str:
    """The whole config, as `voltaic run` would read it from a file;
    drive cycles given as arrays are written to `folder`."""
    text = cell_tables(parameter_set)
    if grid:
        text += toml_table("grid", dict(grid))
    text += toml_table("thermal", {"model": thermal})
    text += degradation_table(options)
    text += toml_table("solver", {"backend": backend, **dict(solver or {})})
    text += experiment_table(experiment, termination, save_at_cycles)
    if drive_cycles:
        text += drive_cycle_table(drive_cycles, folder or ".")
    if output:
        text += toml_table("output", dict(output))
    return text
