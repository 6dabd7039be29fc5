#!/usr/bin/env python3
"""Writes tests/data/bpx/chen2020.json: voltaic's built-in Chen2020 parameter
set (src/model/chen2020.cpp) as a BPX 1.x file.

Every material function is an expression string grouped exactly as the C++
fit in include/voltaic/model/material_functions.hpp is, so that voltaic's
expression evaluator gives the same doubles (BPX allows exp, tanh and cosh
only, so Nyman's sqrt is written ``** 0.5``). The values are Chen2020's as
voltaic holds them, put into BPX's form the way BPX defines it:

* reaction rate: BPX's k [mol m-2 s-1] with j0 = F k sqrt(c_e/c_e0 c/c_max
  (1 - c/c_max)) is our m times c_max sqrt(c_e0) / F (c_e0 = 1000 mol m-3);
* transport efficiency: porosity ** Bruggeman exponent (1.5);
* surface area per unit volume: 3 eps_s / R;
* stoichiometry window: the initial state is 100% SOC, so the negative
  maximum and the positive minimum are Chen2020's initial stoichiometries
  (29866 / 33133 and 17038 / 63104); the other two ends are the paper's
  (0.0279 and 0.9084);
* lumped thermal data: rho and c_p such that rho c_p is the
  thickness-weighted mean of rho c_p over collectors, electrodes and
  separator (PyBaMM's lumped heat capacity), and the through-thickness
  (series) thermal conductivity under "User-defined".

Only the standard library is needed. Run from the repository root::

    python3 tools/write_chen2020_bpx.py            # writes tests/data/bpx/chen2020.json
    python3 tools/write_chen2020_bpx.py OUT.json   # elsewhere

With the ``bpx`` package installed the result is also validated by
``bpx.parse_bpx_obj``.
"""

import json
import math
import sys
import warnings
from pathlib import Path

# src/model/chen2020.cpp, layer by layer: thickness [m], density [kg m-3],
# specific heat [J kg-1 K-1], thermal conductivity [W m-1 K-1].
LAYERS = {
    "negative collector": (1.2e-05, 8960.0, 385.0, 401.0),
    "negative electrode": (8.52e-05, 1657.0, 700.0, 1.7),
    "separator": (1.2e-05, 397.0, 700.0, 0.16),
    "positive electrode": (7.56e-05, 3262.0, 700.0, 2.1),
    "positive collector": (1.6e-05, 2700.0, 897.0, 237.0),
}
FARADAY = 96485.33212331001  # include/voltaic/model/constants.hpp
ELECTROLYTE_CONCENTRATION = 1000.0

# material_functions.hpp, with the same grouping (x: stoichiometry, or c_e [mol m-3]).
GRAPHITE_OCP = (
    "1.9793 * exp(-39.3631 * x) + 0.2482 - 0.0909 * tanh(29.8538 * (x - 0.1234)) - "
    "0.04478 * tanh(14.9159 * (x - 0.2769)) - 0.0205 * tanh(30.4444 * (x - 0.6103))"
)
NMC811_OCP = (
    "-0.8090 * x + 4.4875 - 0.0428 * tanh(18.5138 * (x - 0.5542)) - "
    "17.7326 * tanh(15.7890 * (x - 0.3117)) + 17.5842 * tanh(15.9308 * (x - 0.3120))"
)
NYMAN_CONDUCTIVITY = (
    "0.1297 * ((x / 1000.0) * (x / 1000.0) * (x / 1000.0)) - "
    "2.51 * ((x / 1000.0) * (x / 1000.0) ** 0.5) + 3.329 * (x / 1000.0)"
)
NYMAN_DIFFUSIVITY = "8.794e-11 * ((x / 1000.0) * (x / 1000.0)) - 3.972e-10 * (x / 1000.0) + 4.862e-10"


def electrode(thickness, porosity, active, radius, conductivity, c_max, c_init, sto_other, diffusivity, m, e_r, ocp,
              negative):
    sto = c_init / c_max
    return {
        "Thickness [m]": thickness,
        "Porosity": porosity,
        "Transport efficiency": porosity**1.5,
        "Conductivity [S.m-1]": conductivity,
        "Particle radius [m]": radius,
        "Surface area per unit volume [m-1]": 3.0 * active / radius,
        "Maximum concentration [mol.m-3]": c_max,
        "Minimum stoichiometry": sto_other if negative else sto,
        "Maximum stoichiometry": sto if negative else sto_other,
        "Diffusivity [m2.s-1]": diffusivity,
        "Diffusivity activation energy [J.mol-1]": 0.0,
        "OCP [V]": ocp,
        "Reaction rate constant [mol.m-2.s-1]": m * c_max * math.sqrt(ELECTROLYTE_CONCENTRATION) / FARADAY,
        "Reaction rate constant activation energy [J.mol-1]": e_r,
    }


def lumped_thermal():
    length = sum(l for l, _, _, _ in LAYERS.values())
    mass = sum(l * rho for l, rho, _, _ in LAYERS.values())
    heat = sum(l * rho * cp for l, rho, cp, _ in LAYERS.values())
    resistance = sum(l / k for l, _, _, k in LAYERS.values())
    return mass / length, heat / mass, length / resistance


def chen2020_bpx():
    rho, cp, k = lumped_thermal()
    return {
        "Header": {
            "BPX": "1.1.1",
            "Title": "Chen2020 (LG M50 21700, NMC811 / graphite-SiOx) as voltaic holds it",
            "Description": "voltaic's built-in Chen2020 set (Chen et al., J. Electrochem. Soc. 167 (2020) "
            "080534, with PyBaMM's values), written by tools/write_chen2020_bpx.py with every function "
            "grouped as voltaic's C++ fits.",
            "References": "Chang-Hui Chen et al 2020 J. Electrochem. Soc. 167 080534",
            "Model": "DFN",
        },
        "Parameterisation": {
            "Cell": {
                "Electrode area [m2]": 0.065 * 1.58,
                "External surface area [m2]": 0.00531,
                "Volume [m3]": 2.42e-05,
                "Number of electrode pairs connected in parallel to make a cell": 1,
                "Lower voltage cut-off [V]": 2.5,
                "Upper voltage cut-off [V]": 4.2,
                "Nominal cell capacity [A.h]": 5.0,
                "Reference temperature [K]": 298.15,
                "Density [kg.m-3]": rho,
                "Specific heat capacity [J.K-1.kg-1]": cp,
            },
            "Electrolyte": {
                "Cation transference number": 0.2594,
                "Conductivity [S.m-1]": NYMAN_CONDUCTIVITY,
                "Diffusivity [m2.s-1]": NYMAN_DIFFUSIVITY,
                "Conductivity activation energy [J.mol-1]": 0.0,
                "Diffusivity activation energy [J.mol-1]": 0.0,
            },
            "Negative electrode": electrode(8.52e-05, 0.25, 0.75, 5.86e-06, 215.0, 33133.0, 29866.0, 0.0279, 3.3e-14,
                                            6.48e-07, 35000.0, GRAPHITE_OCP, True),
            "Positive electrode": electrode(7.56e-05, 0.335, 0.665, 5.22e-06, 0.18, 63104.0, 17038.0, 0.9084, 4e-15,
                                            3.42e-06, 17800.0, NMC811_OCP, False),
            "Separator": {
                "Thickness [m]": 1.2e-05,
                "Porosity": 0.47,
                "Transport efficiency": 0.47**1.5,
            },
            "User-defined": {
                "Thermal conductivity [W.m-1.K-1]": k,
            },
        },
        "State": {
            "Initial conditions": {
                "Initial state-of-charge": 1.0,
                "Initial temperature [K]": 298.15,
                "Initial electrolyte concentration [mol.m-3]": ELECTROLYTE_CONCENTRATION,
            },
            "Thermal environment": {
                "Ambient temperature [K]": 298.15,
                "Heat transfer coefficient [W.m-2.K-1]": 10.0,
            },
        },
    }


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "tests" / "data" / "bpx" / "chen2020.json"
    data = chen2020_bpx()
    try:
        import bpx
    except ImportError:
        print("write_chen2020_bpx: bpx not installed; not validated by bpx.parse_bpx_obj")
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # bpx's 1 mV check of OCPs at the window's ends against the cut-offs
            bpx.parse_bpx_obj(json.loads(json.dumps(data)))
    target.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"write_chen2020_bpx: wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
