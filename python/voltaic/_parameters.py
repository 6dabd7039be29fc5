"""What `parameter_set=` accepts: a set's name, a BPX path, a dict of
PyBaMM-named values (with an optional "parameter_set" key)."""

from __future__ import annotations

from typing import Any


def as_parameter_set(value: Any) -> Any:
    """The value as the config writer takes it."""
    return value
