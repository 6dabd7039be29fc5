#!/usr/bin/env python3
"""Ageing cases the test suite does not hold, against PyBaMM: each case is a
voltaic config in docs/data/ageing/unseen/ and the same cell built here in
PyBaMM (its DFN, default mesh and solver). Runs both and prints, per cycle,
the discharge capacity and the lithium lost to SEI and to plating, with the
relative differences, as one JSON line per case.

    python3 tools/pybamm_ageing_unseen.py build/cuda-release/apps/voltaic [CASE ...]
"""

import csv
import json
import os
import subprocess
import sys
import tempfile

from pybamm_common import import_pybamm, package_version

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.join(HERE, "..", "docs", "data", "ageing", "unseen")


def parameters_at(pybamm, name, kelvin):
    """PyBaMM's parameter set `name`, starting at and held towards `kelvin`."""
    pv = pybamm.ParameterValues(name)
    pv.update({"Ambient temperature [K]": kelvin, "Initial temperature [K]": kelvin})
    return pv


def sei_ec_lumped_313K_2C(pybamm):
    """Chen2020, "ec reaction limited" SEI (its kinetic rate x 100, a 37 kJ/mol
    activation energy), lumped thermal at 313.15 K, 2C discharge, 1C CC-CV."""
    pv = parameters_at(pybamm, "Chen2020", 313.15)
    pv.update({"SEI growth activation energy [J.mol-1]": 37000.0})
    pv["SEI kinetic rate constant [m.s-1]"] = pv["SEI kinetic rate constant [m.s-1]"] * 100
    model = pybamm.lithium_ion.DFN({"SEI": "ec reaction limited", "thermal": "lumped"})
    cycle = ("Discharge at 2C until 2.5 V", "Rest for 5 minutes", "Charge at 1C until 4.2 V",
             "Hold at 4.2 V until C/50", "Rest for 5 minutes")
    return model, pv, cycle


def plating_irreversible_278K_1_5C(pybamm):
    """OKane2022, "reaction limited" SEI and "irreversible" plating,
    isothermal at 278.15 K, C/2 discharge, 1.5C CC-CV charge."""
    pv = parameters_at(pybamm, "OKane2022", 278.15)
    model = pybamm.lithium_ion.DFN({"SEI": "reaction limited", "lithium plating": "irreversible"})
    cycle = ("Discharge at 0.5C until 2.5 V", "Rest for 10 minutes", "Charge at 1.5C until 4.2 V",
             "Hold at 4.2 V until C/20", "Rest for 10 minutes")
    return model, pv, cycle


def okane_coupled_porosity_2C_charge(pybamm):
    """OKane2022, "solvent-diffusion limited" SEI, "partially reversible"
    plating, stress-driven LAM in both electrodes (swelling-only mechanics),
    SEI and plating porosity change, isothermal at 298.15 K, 1C discharge,
    2C CC-CV charge."""
    pv = parameters_at(pybamm, "OKane2022", 298.15)
    model = pybamm.lithium_ion.DFN({"SEI": "solvent-diffusion limited", "lithium plating": "partially reversible",
                                    "loss of active material": "stress-driven", "SEI porosity change": "true",
                                    "lithium plating porosity change": "true"})
    cycle = ("Discharge at 1C until 2.5 V", "Rest for 5 minutes", "Charge at 2C until 4.2 V",
             "Hold at 4.2 V until C/20", "Rest for 5 minutes")
    return model, pv, cycle


def sei_interstitial_lumped_288K_partial(pybamm):
    """Chen2020, "interstitial-diffusion limited" SEI, lumped thermal at
    288.15 K, a partial 1C discharge, a rest, 2C to the cut-off, C/1.5 CC-CV."""
    pv = parameters_at(pybamm, "Chen2020", 288.15)
    model = pybamm.lithium_ion.DFN({"SEI": "interstitial-diffusion limited", "thermal": "lumped"})
    cycle = ("Discharge at 1C for 20 minutes", "Rest for 10 minutes", "Discharge at 2C until 2.5 V",
             "Rest for 5 minutes", "Charge at 0.7C until 4.2 V", "Hold at 4.2 V until C/20")
    return model, pv, cycle


def plating_reversible_268K_2C(pybamm):
    """OKane2022, "reversible" plating without SEI, isothermal at 268.15 K,
    1C discharge, 2C CC-CV charge to 4.1 V."""
    pv = parameters_at(pybamm, "OKane2022", 268.15)
    model = pybamm.lithium_ion.DFN({"lithium plating": "reversible"})
    cycle = ("Discharge at 1C until 2.5 V", "Rest for 10 minutes", "Charge at 2C until 4.1 V",
             "Hold at 4.1 V until C/10", "Rest for 10 minutes")
    return model, pv, cycle


def lam_both_lumped_308K(pybamm):
    """OKane2022, "reaction limited" SEI, "stress and reaction-driven" loss of
    active material in the negative electrode and "stress-driven" in the
    positive (PyBaMM's default mechanics and stress-induced diffusion), the
    reaction-driven factor 1.5e-4 m3/mol (0 in the set), lumped at 308.15 K,
    1C discharge, C/2 CC-CV charge."""
    pv = parameters_at(pybamm, "OKane2022", 308.15)
    pv.update({"Negative electrode reaction-driven LAM factor [m3.mol-1]": 1.5e-4})
    model = pybamm.lithium_ion.DFN({"SEI": "reaction limited", "thermal": "lumped",
                                    "loss of active material": ("stress and reaction-driven", "stress-driven")})
    cycle = ("Discharge at 1C until 2.5 V", "Rest for 10 minutes", "Charge at 0.5C until 4.2 V",
             "Hold at 4.2 V until C/20", "Rest for 10 minutes")
    return model, pv, cycle


def sei_solvent_porosity_marquis_318K(pybamm):
    """Marquis2019, "solvent-diffusion limited" SEI with "SEI porosity
    change", isothermal at 318.15 K, 1.5C discharge to 3.2 V, C/3 CC-CV
    charge to 4.1 V."""
    pv = parameters_at(pybamm, "Marquis2019", 318.15)
    model = pybamm.lithium_ion.DFN({"SEI": "solvent-diffusion limited", "SEI porosity change": "true"})
    cycle = ("Discharge at 1.5C until 3.2 V", "Rest for 5 minutes", "Charge at C/3 until 4.1 V",
             "Hold at 4.1 V until C/20", "Rest for 5 minutes")
    return model, pv, cycle


def power_plating_lumped_283K(pybamm):
    """OKane2022, "interstitial-diffusion limited" SEI and "partially
    reversible" plating, lumped at 283.15 K, a 15 W discharge to 2.5 V, a
    1C CC-CV charge."""
    pv = parameters_at(pybamm, "OKane2022", 283.15)
    model = pybamm.lithium_ion.DFN({"SEI": "interstitial-diffusion limited", "lithium plating": "partially reversible",
                                    "thermal": "lumped"})
    cycle = ("Discharge at 15 W until 2.5 V", "Rest for 10 minutes", "Charge at 1C until 4.2 V",
             "Hold at 4.2 V until C/20", "Rest for 10 minutes")
    return model, pv, cycle


def sei_ec_asymmetric_no_film_resistance(pybamm):
    """OKane2022, "ec reaction limited (asymmetric)" SEI (its transfer
    coefficient 0.3, which the set leaves unset) without its film resistance
    ("SEI film resistance": "none"), isothermal at 298.15 K, a two-rate
    discharge (2C for 20 minutes, then C/2 to 2.5 V), a 1C CC-CV charge."""
    pv = parameters_at(pybamm, "OKane2022", 298.15)
    pv.update({"SEI growth transfer coefficient": 0.3}, check_already_exists=False)
    model = pybamm.lithium_ion.DFN({"SEI": "ec reaction limited (asymmetric)", "SEI film resistance": "none"})
    cycle = ("Discharge at 2C for 20 minutes", "Discharge at 0.5C until 2.5 V", "Rest for 10 minutes",
             "Charge at 1C until 4.2 V", "Hold at 4.2 V until C/20", "Rest for 10 minutes")
    return model, pv, cycle


CASES = {
    "sei_ec_lumped_313K_2C": sei_ec_lumped_313K_2C,
    "plating_irreversible_278K_1.5C": plating_irreversible_278K_1_5C,
    "okane_coupled_porosity_2C_charge": okane_coupled_porosity_2C_charge,
    "sei_interstitial_lumped_288K_partial": sei_interstitial_lumped_288K_partial,
    "plating_reversible_268K_2C": plating_reversible_268K_2C,
    "lam_both_lumped_308K": lam_both_lumped_308K,
    "sei_solvent_porosity_marquis_318K": sei_solvent_porosity_marquis_318K,
    "power_plating_lumped_283K": power_plating_lumped_283K,
    "sei_ec_asymmetric_no_film_resistance": sei_ec_asymmetric_no_film_resistance,
}
CYCLES = 10  # as the configs say


def pybamm_cycles(pybamm, build):
    model, pv, cycle = build(pybamm)
    sol = pybamm.Simulation(model, parameter_values=pv, experiment=pybamm.Experiment([cycle] * CYCLES)).solve()
    plating = "lithium plating" in model.options and model.options["lithium plating"] != "none"
    out = []
    for c in sol.cycles:
        # The charge of every discharging step, as voltaic's cycle summary counts it.
        steps = [s["Discharge capacity [A.h]"].entries for s in c.steps]
        out.append({"capacity": float(sum(max(q[-1] - q[0], 0.0) for q in steps)),
                    "sei": float(c["Loss of lithium to negative SEI [mol]"].entries[-1]),
                    "plating": float(c["Loss of lithium to negative lithium plating [mol]"].entries[-1])
                    if plating else 0.0})
    return out


def voltaic_cycles(voltaic, config):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([voltaic, "run", config, "--output", out, "--backend", "cpu"], check=True,
                       stdout=subprocess.DEVNULL)
        rows = list(csv.DictReader(open(os.path.join(out, "cycles.csv"))))
    return [{"capacity": float(r["Discharge capacity [A.h]"]),
             "sei": float(r["Loss of lithium to negative SEI [mol]"]),
             "plating": float(r["Loss of lithium to negative lithium plating [mol]"])} for r in rows]


def relative(a, b):
    return a / b - 1.0 if b != 0.0 else (0.0 if a == 0.0 else float("inf"))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    voltaic, names = sys.argv[1], sys.argv[2:] or list(CASES)
    pybamm, _ = import_pybamm("pybamm_ageing_unseen.py")
    for name in names:
        ref = pybamm_cycles(pybamm, CASES[name])
        ours = voltaic_cycles(voltaic, os.path.join(CONFIGS, name + ".toml"))
        worst = {k: max(abs(relative(o[k], r[k])) for o, r in zip(ours, ref)) for k in ("capacity", "sei", "plating")}
        print(json.dumps({"case": name, "pybamm": package_version("pybamm"), "cycles": len(ours),
                          "worst_relative": worst, "voltaic": ours, "reference": ref}))


if __name__ == "__main__":
    main()
