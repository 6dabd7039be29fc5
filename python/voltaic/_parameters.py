"""What `parameter_set=` accepts: a set's name, a BPX path, a dict of
PyBaMM-named values (with an optional "parameter_set" key), or a
`pybamm.ParameterValues` (its scalars by name; each function must be a fit
voltaic has)."""

from __future__ import annotations

import numbers
from typing import Any

from . import _core

# The material functions of PyBaMM's sets that voltaic's built-in sets
# implement, by the PyBaMM function's name; a scalar is a value PyBaMM
# gives where voltaic has that fit (Chen2020 has no entropic change).
FITS = {
    "Chen2020": {
        "Negative electrode OCP [V]": "graphite_LGM50_ocp_Chen2020",
        "Positive electrode OCP [V]": "nmc_LGM50_ocp_Chen2020",
        "Negative electrode exchange-current density [A.m-2]": (
            "graphite_LGM50_electrolyte_exchange_current_density_Chen2020"
        ),
        "Positive electrode exchange-current density [A.m-2]": (
            "nmc_LGM50_electrolyte_exchange_current_density_Chen2020"
        ),
        "Electrolyte diffusivity [m2.s-1]": "electrolyte_diffusivity_Nyman2008",
        "Electrolyte conductivity [S.m-1]": "electrolyte_conductivity_Nyman2008",
        "Negative electrode OCP entropic change [V.K-1]": 0.0,
        "Positive electrode OCP entropic change [V.K-1]": 0.0,
    },
    "OKane2022": {
        "Negative electrode OCP [V]": "graphite_LGM50_ocp_Chen2020",
        "Positive electrode OCP [V]": "nmc_LGM50_ocp_Chen2020",
        "Negative particle diffusivity [m2.s-1]": (
            "graphite_LGM50_diffusivity_Chen2020"
        ),
        "Positive particle diffusivity [m2.s-1]": "nmc_LGM50_diffusivity_Chen2020",
        "Negative electrode exchange-current density [A.m-2]": (
            "graphite_LGM50_electrolyte_exchange_current_density_Chen2020"
        ),
        "Positive electrode exchange-current density [A.m-2]": (
            "nmc_LGM50_electrolyte_exchange_current_density_Chen2020"
        ),
        "Electrolyte diffusivity [m2.s-1]": (
            "electrolyte_diffusivity_Nyman2008_arrhenius"
        ),
        "Electrolyte conductivity [S.m-1]": (
            "electrolyte_conductivity_Nyman2008_arrhenius"
        ),
        "Negative electrode OCP entropic change [V.K-1]": 0.0,
        "Positive electrode OCP entropic change [V.K-1]": 0.0,
        "Exchange-current density for plating [A.m-2]": (
            "plating_exchange_current_density_OKane2020"
        ),
        "Exchange-current density for stripping [A.m-2]": (
            "stripping_exchange_current_density_OKane2020"
        ),
        "Dead lithium decay rate [s-1]": "SEI_limited_dead_lithium_OKane2022",
    },
    "Marquis2019": {
        "Negative particle diffusivity [m2.s-1]": (
            "graphite_mcmb2528_diffusivity_Dualfoil1998"
        ),
        "Positive particle diffusivity [m2.s-1]": (
            "lico2_diffusivity_Dualfoil1998"
        ),
        "Negative electrode OCP [V]": "graphite_mcmb2528_ocp_Dualfoil1998",
        "Positive electrode OCP [V]": "lico2_ocp_Dualfoil1998",
        "Negative electrode exchange-current density [A.m-2]": (
            "graphite_electrolyte_exchange_current_density_Dualfoil1998"
        ),
        "Positive electrode exchange-current density [A.m-2]": (
            "lico2_electrolyte_exchange_current_density_Dualfoil1998"
        ),
        "Negative electrode OCP entropic change [V.K-1]": (
            "graphite_entropic_change_Moura2016"
        ),
        "Positive electrode OCP entropic change [V.K-1]": (
            "lico2_entropic_change_Moura2016"
        ),
        "Electrolyte diffusivity [m2.s-1]": (
            "electrolyte_diffusivity_Capiglia1999"
        ),
        "Electrolyte conductivity [S.m-1]": (
            "electrolyte_conductivity_Capiglia1999"
        ),
    },
}


def is_parameter_values(value: Any) -> bool:
    """A pybamm.ParameterValues, recognised without importing PyBaMM."""
    return type(value).__name__ == "ParameterValues" and hasattr(
        value, "items"
    )


def is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def describe(value: Any) -> str:
    return getattr(value, "__name__", None) or type(value).__name__


def matches(value: Any, fit: Any) -> bool:
    if is_number(fit):
        return is_number(value) and float(value) == fit
    return callable(value) and getattr(value, "__name__", None) == fit


def base_set(values: dict) -> str:
    """The built-in set whose negative OCP fit the values use (else
    Chen2020). OKane2022's graphite OCP has Chen2020's function name (a
    table of measured points there, Chen2020's a fit): its module tells
    them apart."""
    ocp = values.get("Negative electrode OCP [V]")
    if getattr(ocp, "__module__", "").endswith(".OKane2022"):
        return "OKane2022"
    for name, fits in FITS.items():
        if name == "OKane2022":
            continue
        if matches(ocp, fits["Negative electrode OCP [V]"]):
            return name
    return "Chen2020"


def from_parameter_values(parameter_values: Any) -> dict:
    """A dict of overrides on the built-in set whose fits the values use.
    Raises ValueError naming every function voltaic cannot take."""
    values = dict(parameter_values.items())
    base = base_set(values)
    known = set(_core.parameter_names())
    overrides, refused = {}, []
    for key, value in values.items():
        if key in FITS[base]:
            if not matches(value, FITS[base][key]):
                refused.append(f"'{key}' ({describe(value)})")
        elif key in known:
            if is_number(value):
                overrides[key] = float(value)
            else:
                refused.append(f"'{key}' ({describe(value)})")
    if refused:
        raise ValueError(
            "pybamm.ParameterValues: voltaic has no fit for "
            + ", ".join(refused)
            + f"; based on {base}, it takes these functions only as "
            + ", ".join(f"{k} = {v}" for k, v in FITS[base].items())
        )
    return {"parameter_set": base, **overrides}


def as_parameter_set(value: Any) -> Any:
    """The value as the config writer takes it."""
    if is_parameter_values(value):
        return from_parameter_values(value)
    return value
