#!/usr/bin/env python3
"""Writes PyBaMM's parameter values and material functions, evaluated at fixed
sample points, to tests/data/parameters/<set>.json for voltaic's model tests.

Uses PyBaMM's public API only (ParameterValues, FunctionParameter,
LithiumIonParameters, StateVector); no PyBaMM code is copied. Two kinds of
function values are written:

- "functions": each parameter function as the parameter set defines it (the
  published formula), evaluated through ParameterValues.evaluate.
- "ocp_dense": each OCP as the set defines it at 201 stoichiometries from 0
  to 1 (OKane2022's negative OCP is a cubic spline through 248 points; the
  coarse sample points above would test little of it).
- "fixed_forms": functions whose form voltaic fixes and whose constants are
  numbers of its table (O'Kane's plating exchange-current densities and
  dead lithium decay rate), where the set has them.
- "model_level": the same quantities as PyBaMM's DFN sees them
  (LithiumIonParameters), with PyBaMM's own safeguards: OCP stoichiometry
  clipped to [1e-10, 1 - 1e-10] plus a barrier near 0 and 1, electrolyte
  concentration clipped below at 10 mol/m3, and exchange-current powers
  regularised (RegPower, delta = 1e-3). voltaic's tests show where and by how
  much these differ from the published formulas.

Run from the repository root:
    python3 tools/pybamm_parameter_reference.py
"""

import json
import math
import os
import sys

import numpy as np
import pybamm

COMMAND = "python3 tools/pybamm_parameter_reference.py"
SETS = {"Chen2020": "chen2020", "Marquis2019": "marquis2019", "OKane2022": "okane2022"}
ELECTRODES = {"n": "Negative", "p": "Positive"}

# Sample points. Stoichiometries include the ends for the published formulas,
# which are finite there; the model-level OCP adds 0.001 and 0.999, where
# PyBaMM's barrier is about 1 mV.
STO = [0.0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0]
STO_MODEL = [0.001, 0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 0.99, 0.999]
T_OCP_MODEL = [263.15, 298.15, 318.15]
C_E = [10.0, 100.0, 500.0, 1000.0, 1500.0, 2000.0, 3000.0]
C_E_MODEL = [1.0, 5.0, 10.0, 1000.0]
TEMPS = [253.15, 273.15, 298.15, 318.15, 333.15]
J0_C_E = [100.0, 1000.0, 2000.0]
J0_STO = [0.01, 0.05, 0.3, 0.5, 0.7, 0.95, 0.99]
J0_T = [263.15, 298.15, 333.15]
D_STO = [0.1, 0.5, 0.9]
STO_DENSE = [i / 200 for i in range(201)]
PLATING_C = [0.0, 1.0, 500.0, 1000.0, 2500.0]
PLATING_T = [263.15, 298.15, 333.15]
L_SEI = [1e-9, 5e-9, 2e-8, 1e-7]


def as_float(x):
    """A PyBaMM evaluation result (scalar, 0-d or 1x1 array) as a float."""
    v = float(np.asarray(x).reshape(-1)[0])
    if not math.isfinite(v):
        raise ValueError(f"non-finite PyBaMM value {v}")
    return v


def fp(pv, name, *args):
    """Evaluates the parameter function `name` at scalar arguments."""
    inputs = {f"x{i}": pybamm.Scalar(a) for i, a in enumerate(args)}
    return as_float(pv.evaluate(pybamm.FunctionParameter(name, inputs)))


def table(inputs, points, values):
    return {"inputs": inputs, "points": points, "values": values}


def published_functions(pv):
    out = {}
    for d, D in ELECTRODES.items():
        c_max = pv[f"Maximum concentration in {D.lower()} electrode [mol.m-3]"]
        name = f"{D} electrode OCP [V]"
        out[name] = table(["stoichiometry"], [[s] for s in STO], [fp(pv, name, s) for s in STO])
        name = f"{D} electrode OCP entropic change [V.K-1]"
        out[name] = table(["stoichiometry"], [[s] for s in STO], [fp(pv, name, s) for s in STO])
        name = f"{D} electrode exchange-current density [A.m-2]"
        pts = [[ce, s * c_max, c_max, T] for ce in J0_C_E for s in J0_STO for T in J0_T]
        out[name] = table(["c_e [mol.m-3]", "c_s_surf [mol.m-3]", "c_s_max [mol.m-3]", "T [K]"], pts,
                          [fp(pv, name, *p) for p in pts])
        name = f"{D} particle diffusivity [m2.s-1]"
        pts = [[s, T] for s in D_STO for T in TEMPS]
        out[name] = table(["stoichiometry", "T [K]"], pts, [fp(pv, name, *p) for p in pts])
    for name in ["Electrolyte conductivity [S.m-1]", "Electrolyte diffusivity [m2.s-1]"]:
        pts = [[ce, T] for ce in C_E for T in TEMPS]
        out[name] = table(["c_e [mol.m-3]", "T [K]"], pts, [fp(pv, name, *p) for p in pts])
    return out


def dense_ocp(pv):
    out = {}
    for D in ELECTRODES.values():
        name = f"{D} electrode OCP [V]"
        out[name] = table(["stoichiometry"], [[s] for s in STO_DENSE], [fp(pv, name, s) for s in STO_DENSE])
    return out


def fixed_forms(pv):
    out = {}
    for name in ["Exchange-current density for plating [A.m-2]", "Exchange-current density for stripping [A.m-2]"]:
        if name in pv.keys():
            pts = [[ce, cli, T] for ce in PLATING_C for cli in PLATING_C for T in PLATING_T]
            out[name] = table(["c_e [mol.m-3]", "c_Li [mol.m-3]", "T [K]"], pts, [fp(pv, name, *p) for p in pts])
    name = "Dead lithium decay rate [s-1]"
    if name in pv.keys():
        out[name] = table(["L_sei [m]"], [[x] for x in L_SEI], [fp(pv, name, x) for x in L_SEI])
    return out


def model_level(pv):
    """PyBaMM's DFN-level expressions, evaluated on state vectors so that the
    regularisation PyBaMM applies to state-dependent quantities is active."""
    param = pybamm.LithiumIonParameters()
    y0, y1, y2 = (pybamm.StateVector(slice(i, i + 1)) for i in range(3))

    def ev(expr, *ys):
        return as_float(pv.process_symbol(expr).evaluate(y=np.array(ys, dtype=float)))

    out = {}
    for d, D in ELECTRODES.items():
        dom = getattr(param, d).prim
        c_max = pv[f"Maximum concentration in {D.lower()} electrode [mol.m-3]"]
        pts = [[s, T] for s in STO_MODEL for T in T_OCP_MODEL]
        out[f"{D} electrode OCP [V]"] = table(["stoichiometry", "T [K]"], pts,
                                              [ev(dom.U(y0, y1), *p) for p in pts])
        pts = [[ce, s * c_max, T] for ce in J0_C_E for s in J0_STO for T in J0_T]
        out[f"{D} electrode exchange-current density [A.m-2]"] = table(
            ["c_e [mol.m-3]", "c_s_surf [mol.m-3]", "T [K]"], pts, [ev(dom.j0(y0, y1, y2), *p) for p in pts])
    pts = [[ce, T] for ce in C_E_MODEL for T in [298.15]]
    out["Electrolyte conductivity [S.m-1]"] = table(["c_e [mol.m-3]", "T [K]"], pts,
                                                    [ev(param.kappa_e(y0, y1), *p) for p in pts])
    out["Electrolyte diffusivity [m2.s-1]"] = table(["c_e [mol.m-3]", "T [K]"], pts,
                                                    [ev(param.D_e(y0, y1), *p) for p in pts])
    return out


def reference(set_name):
    pv = pybamm.ParameterValues(set_name)
    values, functions = {}, []
    for key in sorted(pv.keys()):
        v = pv[key]
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            values[key] = float(v)
        elif callable(v):
            functions.append(key)
    return {
        "parameter_set": set_name,
        "pybamm_version": pybamm.__version__,
        "command": COMMAND,
        "constants": {"R [J.mol-1.K-1]": float(pybamm.constants.R.value),
                      "F [C.mol-1]": float(pybamm.constants.F.value)},
        "values": values,
        "function_parameters": functions,
        "functions": published_functions(pv),
        "ocp_dense": dense_ocp(pv),
        "fixed_forms": fixed_forms(pv),
        "model_level": model_level(pv),
    }


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out_dir = os.path.join(root, "tests", "data", "parameters")
    os.makedirs(out_dir, exist_ok=True)
    for set_name, file_stem in SETS.items():
        path = os.path.join(out_dir, f"{file_stem}.json")
        with open(path, "w", encoding="utf-8") as f:
            # repr-exact floats: json writes the shortest string that reads back
            # to the same double.
            json.dump(reference(set_name), f, indent=1)
            f.write("\n")
        print(f"wrote {os.path.relpath(path, root)}", file=sys.stderr)


if __name__ == "__main__":
    main()
