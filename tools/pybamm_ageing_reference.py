#!/usr/bin/env python3
"""Produces PyBaMM reference data for SEI growth, lithium plating and loss of
active material over many cycles.

Every case is PyBaMM's DFN model (``pybamm.lithium_ion.DFN(options)``),
solved by PyBaMM's default solver (IDAKLU) at its default tolerances on
PyBaMM's default mesh of 20 finite-volume cells per domain and per particle
(the mesh of tools/pybamm_reference.py), from the parameter set's own initial
state (no initial_soc), with rows every 10 s within each step (the
experiment's ``period``) plus the solver's root-found end of each step. The
cases come in three families (``FAMILIES``), each with its own parameter
set, temperature and experiment:

* SEI (``sei_*``): the Chen2020 parameter set (which holds SEI parameters),
  298.15 K ambient and initial temperature, ``CYCLES`` (10) cycles of

      "Discharge at 1C until 2.5 V", "Rest for 10 minutes",
      "Charge at 0.5C until 4.2 V", "Hold at 4.2 V until C/20",
      "Rest for 10 minutes"

* lithium plating (``plating_*``): the OKane2022 parameter set (Chen2020's
  cell with plating, SEI, cracking parameters and Arrhenius transport),
  "Ambient temperature [K]" and "Initial temperature [K]" set to 268.15 K
  (cold, so that lithium plates while charging at 1C), ``PLATING_CYCLES``
  (10) cycles of the same experiment charging at 1C:

      "Discharge at 1C until 2.5 V", "Rest for 10 minutes",
      "Charge at 1C until 4.2 V", "Hold at 4.2 V until C/20",
      "Rest for 10 minutes"

* loss of active material (``lam_*``): the OKane2022 parameter set (it holds
  the mechanics and LAM parameters), at its own 298.15 K (no lithium plating
  option is needed to see LAM, and the coupled case is OKane2022's own
  set-up), the plating family's experiment (1C discharge, 1C charge), 50
  cycles (``LAM_CYCLES``) or fewer where the case says.

Cases (``--cases`` takes names or shell patterns):

* ``sei_reaction_limited``: {"SEI": "reaction limited"} (PyBaMM then sets
  "SEI film resistance" to "distributed"), nominal parameters;
* ``sei_reaction_limited_fast``: the same with "SEI reaction exchange current
  density [A.m-2]" x 100, so that the fade shows in 10 cycles;
* ``sei_reaction_limited_fast_nofilm``: as ``_fast`` with
  "SEI film resistance": "none";
* ``sei_reaction_limited_fast_lumped``: as ``_fast`` with "thermal": "lumped"
  and "SEI growth activation energy [J.mol-1]" = 37000 where Chen2020's is 0;
* ``sei_reaction_limited_fast_porosity``: as ``_fast`` with "SEI porosity
  change": "true" (a porosity-change case, below);
* ``sei_solvent_diffusion_limited``, ``sei_interstitial_diffusion_limited``,
  ``sei_ec_reaction_limited``: the other SEI growth options, nominal
  parameters;
* ``plating_reversible``, ``plating_irreversible``: {"lithium plating":
  "reversible" / "irreversible"}, no SEI;
* ``plating_partially_reversible``: {"SEI": "solvent-diffusion limited",
  "lithium plating": "partially reversible"} (OKane2022's dead-lithium decay
  rate is gamma_0 L_SEI,0 / L_SEI: it needs an SEI thickness);
* ``plating_partially_reversible_lumped``: the same with "thermal": "lumped";
* ``plating_reaction_limited_sei``: {"SEI": "reaction limited",
  "lithium plating": "partially reversible"} (PyBaMM then sets "SEI film
  resistance" to "distributed", and the film's overpotential enters the
  plating overpotential);
* ``plating_partially_reversible_porosity``: as
  ``plating_partially_reversible`` with "SEI porosity change" and "lithium
  plating porosity change" "true", ``POROSITY_PLATING_CYCLES`` (30) cycles
  (with 10 the option moves the last discharge capacity by 0.12 % only);
* ``lam_stress``: {"loss of active material": "stress-driven",
  "stress-induced diffusion": "true"} (both electrodes; PyBaMM then sets
  "particle mechanics" to "swelling only"), no SEI or plating, 50 cycles;
* ``lam_stress_negative``: {"loss of active material": ("stress-driven",
  "none"), "stress-induced diffusion": "false"}, 10 cycles (PyBaMM still
  sets "swelling only" on both electrodes);
* ``lam_reaction``: {"SEI": "reaction limited", "loss of active material":
  ("reaction-driven", "none")} with "Negative electrode reaction-driven LAM
  factor [m3.mol-1]" = ``LAM_REACTION_FACTOR`` (0 in OKane2022), 15 cycles;
* ``lam_okane2022_coupled``: {"SEI": "solvent-diffusion limited", "lithium
  plating": "partially reversible", "loss of active material":
  "stress-driven", "particle mechanics": "swelling only", "stress-induced
  diffusion": "true"} (PyBaMM's default "SEI film resistance":
  "distributed"), 50 cycles;
* ``lam_okane2022_coupled_porosity``: as ``lam_okane2022_coupled`` with "SEI
  porosity change" and "lithium plating porosity change" "true"
  (OKane2022's own set-up), 50 cycles;
* ``<case>_50`` for each of ``LONG_CASES`` (the four SEI models and the
  three plating models at their nominal parameters): the same case over
  ``LONG_CYCLES`` (50) cycles.

The porosity-change cases (``*_porosity``, a spec's "porosity_of" names
the base case) add the end-of-cycle "X-averaged negative electrode
porosity" and the least "Negative electrode porosity" over x to their
summary; the script solves each a second time with the options "false"
(not written to files) and records in ``<case>_info.json``
("porosity_change") what the option changes: the per-cycle figures without
it and the relative differences after the last cycle (discharge capacity,
eSOH capacity, lithium lost to SEI and plating), the porosity at the end and
the porosity against the films' volume. A case should move the last
discharge capacity by at least ``POROSITY_MIN_EFFECT`` (0.3 %), so that a
test can tell with from without; ``lam_okane2022_coupled_porosity`` (0.002
%) is kept as OKane2022 set it up, and says so.

Every LAM case with particle mechanics (the stress-driven ones) passes
"stress-induced diffusion" explicitly, with a note saying why (the script
stops otherwise). PyBaMM's default once mechanics is on is "true" (the
particle diffusivity times 1 + theta_M (c - c_0); voltaic models it too,
docs/theory.md §2.13): ``lam_stress_negative`` passes "false" (``SID_OFF``)
to test the stress-driven loss without it. With
"false", OKane2022's positive electrode (theta_M c ~ 100-350: its
diffusivity is that many times larger with "true") reaches surface
stresses of ~11 GPa at 1C and its stress-driven LAM runs away (33 % after
cycle 1, 92 % after cycle 2, about all of it in cycle 3, then IDA fails),
so ``lam_stress`` and ``lam_okane2022_coupled``, which lose positive
active material, keep "true" (``SID_KEPT``).

Every plating case (and ``lam_okane2022_coupled``) also passes "lithium
plating porosity change": "false" and "SEI porosity change": "false"
(PyBaMM's defaults) explicitly, but the porosity-change cases, which pass
"true".

Written into ``--out-dir`` (default tests/data/pybamm/ageing):

* ``<case>_summary.csv``: one row per cycle: PyBaMM's summary variables
  (``Solution.summary_variables``, the cycle's last state and the eSOH
  capacity), and from the cycle's own solution the first step's discharge
  capacity, the X-averaged negative SEI thickness and the loss of capacity to
  negative SEI at the cycle's end; plating cases also the loss of lithium and
  of capacity to negative lithium plating and the X-averaged negative plated
  and dead lithium concentrations at the cycle's end; LAM cases also PyBaMM's
  "Loss of active material in ... electrode [%]", the loss of lithium due to
  LAM and the X-averaged active material volume fractions at the cycle's
  end and the cycle's minimum voltage, without the SEI, plating and stress
  columns of the submodels the case does not have; porosity-change cases
  also the X-averaged and the least (over x) negative electrode porosity at
  the cycle's end;
* ``<case>_cycle1.csv``, ``<case>_cycle<last>.csv``: time from the cycle's
  start, voltage, current and step index of the first and last cycles at
  PyBaMM's output rows (no interpolation by this script), with the SEI (and,
  plating cases, plating; LAM cases, the X-averaged surface tangential
  stresses, active material volume fractions and the loss of lithium due to
  LAM) states. LAM cases thin these rows: each step's every s-th output
  row from its first, and always its first and last rows, with s the
  smallest stride that keeps the case's files within ``LAM_CASE_BYTES``
  (400 KB) and no curve under ``MIN_CURVE_ROWS`` (300) rows;
* ``<case>_info.json``: options (as asked and as PyBaMM resolved them),
  parameter changes, step terminations of every cycle, checks, the wall time
  of the solve (the one number that differs from run to run) and, for a case
  PyBaMM could not run, the error;
* ``sei_parameters.json``: every Chen2020 parameter whose name holds "SEI" or
  that an SEI case needs beyond the SEI-free DFN, and every SEI case's
  resolved options (written when an SEI case runs);
* ``plating_parameters.json``: every OKane2022 parameter whose name holds
  "plating", "plated", "Lithium metal", "dead lithium" or "SEI", those a
  plating case needs beyond the plating- and SEI-free DFN, the temperatures,
  every OKane2022 parameter that differs from Chen2020 (numbers by value,
  functions by name, interpolants with their data) and every plating case's
  resolved options (written when a plating case runs);
* ``lam_parameters.json``: every OKane2022 mechanics and LAM parameter
  (Poisson's ratio, Young's modulus, partial molar volume, reference
  concentration for free of deformation, LAM constants, critical stress,
  reaction-driven LAM factor, volume change), its SEI and plating ones,
  those a LAM case needs beyond the DFN without SEI, plating, mechanics and
  LAM, the temperatures and every LAM case's resolved options (written when
  a LAM case runs);
* ``README.md``: what each file is, the commands, the headline numbers.

Run from the repository root with a Python that has PyBaMM 26.10.1.1::

    python3 tools/pybamm_ageing_reference.py --cases 'sei_*'
    python3 tools/pybamm_ageing_reference.py --cases 'plating_*'
    python3 tools/pybamm_ageing_reference.py --cases 'lam_*'
    python3 tools/pybamm_ageing_reference.py --cases '*_porosity'

(no ``--cases``: every case). A ``--cases`` run rewrites the files of those
cases and its families' parameter files only; the README is rebuilt from
every ``<case>_info.json`` and parameter file in the folder. Each case takes
seconds to a few minutes on one core; the solver runs single-threaded.
Cases run one after the other.
"""

import argparse
import ast
import fnmatch
import inspect
import json
import os
import shlex
import sys
import textwrap
import time
from pathlib import Path

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from pybamm_common import (  # noqa: E402
    host_cpu_name,
    import_pybamm,
    package_version,
)

SCRIPT = "pybamm_ageing_reference.py"
PARAMETER_SET = "Chen2020"
CYCLES = 10
PERIOD_S = 10
POINTS = 20
PROTOCOL = (
    "Discharge at 1C until 2.5 V",
    "Rest for 10 minutes",
    "Charge at 0.5C until 4.2 V",
    "Hold at 4.2 V until C/20",
    "Rest for 10 minutes",
)
J0_SEI = "SEI reaction exchange current density [A.m-2]"
FAST_FACTOR = 100.0
E_SEI = "SEI growth activation energy [J.mol-1]"
E_SEI_FALLBACK = 37000.0
# The plating cases: OKane2022 (Chen2020's LG M50 cell with plating, SEI and
# cracking parameters), cold, charging at 1C so that lithium plates.
PLATING_PARAMETER_SET = "OKane2022"
PLATING_CYCLES = 10
PLATING_TEMPERATURE_K = 268.15
PLATING_PROTOCOL = (
    "Discharge at 1C until 2.5 V",
    "Rest for 10 minutes",
    "Charge at 1C until 4.2 V",
    "Hold at 4.2 V until C/20",
    "Rest for 10 minutes",
)
# PyBaMM's defaults, passed explicitly by every plating case (but
# plating_partially_reversible_porosity).
PLATING_POROSITY = "lithium plating porosity change"
SEI_POROSITY = "SEI porosity change"
PLATING_FIXED_OPTIONS = {
    PLATING_POROSITY: "false",
    SEI_POROSITY: "false",
}
# The porosity-change cases (a spec with "porosity_of": its base case): the
# base case with these options "true" ("SEI porosity change" alone where the
# case has no plating). The script also solves the same case with them
# "false" (not written to files) and records what the option changes
# (<case>_info.json, "porosity_change"). plating_partially_reversible_porosity
# runs POROSITY_PLATING_CYCLES cycles: with the family's 10 the option moves
# the last discharge capacity by 0.12 % only (PyBaMM 26.10.1.1; 0.40 % after
# 30), too little for a test to tell with from without.
POROSITY_ON = {PLATING_POROSITY: "true", SEI_POROSITY: "true"}
POROSITY_PLATING_CYCLES = 30
POROSITY_PLATING_NOTE = (
    "30 cycles, not the plating family's 10: with 10 the porosity change "
    "moves the last discharge capacity by -0.12 % only (PyBaMM 26.10.1.1), "
    "-0.40 % after 30"
)
# lam_okane2022_coupled_porosity is OKane2022's own set-up and stays so,
# although its capacity hardly moves (at 298.15 K the 1C discharge is not
# limited by the electrolyte and the negative porosity falls 0.25 -> 0.247).
POROSITY_COUPLED_NOTE = (
    "OKane2022's own set-up, unchanged: the porosity change moves its last "
    "discharge capacity by 0.002 % only (PyBaMM 26.10.1.1), below the "
    "solver's tolerance; it shows in the porosity columns and the SEI "
    "lithium (+0.1 %)"
)
# What a porosity case adds to its summary: the X-averaged negative
# electrode porosity and the least "Negative electrode porosity" over the
# electrode's cells, at the cycle's last row.
EPS_N_X = "X-averaged negative electrode porosity"
EPS_N_LOCAL = "Negative electrode porosity"
MIN_OVER_X = "minimum over x of "
# A porosity case's files should let a test tell with from without the
# option by the last discharge capacity: at least this relative difference.
POROSITY_MIN_EFFECT = 3e-3
V_BAR_SEI = "SEI partial molar volume [m3.mol-1]"
V_BAR_LI = "Lithium metal partial molar volume [m3.mol-1]"
Z_SEI = "Ratio of lithium moles to SEI moles"
AMBIENT = "Ambient temperature [K]"
INITIAL_TEMPERATURE = "Initial temperature [K]"
# Names in a parameter set that plating_parameters.json lists (any case).
PLATING_WORDS = ("plating", "plated", "lithium metal", "dead lithium", "sei")
# PyBaMM 26.10.1.1 names (there is no "... total SEI thickness ..." variable).
THICKNESS = "X-averaged negative SEI thickness [m]"
SEI_LITHIUM = "Loss of lithium to negative SEI [mol]"
SEI_CAPACITY = "Loss of capacity to negative SEI [A.h]"
SEI_CURRENT = (
    "X-averaged negative electrode SEI interfacial current density [A.m-2]"
)
PLATING_LITHIUM = "Loss of lithium to negative lithium plating [mol]"
PLATING_CAPACITY = "Loss of capacity to negative lithium plating [A.h]"
PLATED = "X-averaged negative lithium plating concentration [mol.m-3]"
DEAD = "X-averaged negative dead lithium concentration [mol.m-3]"
PLATING_CURRENT = (
    "X-averaged negative electrode lithium plating interfacial current "
    "density [A.m-2]"
)
TEMPERATURE = "X-averaged cell temperature [K]"
# Summary variables written per cycle, as PyBaMM names them (the
# "Change in ..." ones are differences of these; "Loss of lithium inventory,
# including electrolyte [%]" has a comma in its name and is left out of the
# CSV: it is in <case>_info.json).
SUMMARY_COLUMNS = (
    "Time [s]",
    "Capacity [A.h]",
    "Loss of lithium inventory [%]",
    SEI_LITHIUM,
    SEI_CAPACITY,
    "Total lithium lost [mol]",
    "Total lithium lost from particles [mol]",
    "Total lithium lost from electrolyte [mol]",
    "Total lithium lost to side reactions [mol]",
    "Total lithium [mol]",
    "Total lithium in particles [mol]",
    "Total lithium in electrolyte [mol]",
    "Total lithium in negative electrode [mol]",
    "Total lithium in positive electrode [mol]",
    "Negative electrode capacity [A.h]",
    "Positive electrode capacity [A.h]",
    "Cyclable lithium capacity [A.h]",
    "Throughput capacity [A.h]",
    "x_0",
    "x_100",
    "y_0",
    "y_100",
)
_AFTER_SEI = SUMMARY_COLUMNS.index(SEI_CAPACITY) + 1
PLATING_SUMMARY_COLUMNS = (
    SUMMARY_COLUMNS[:_AFTER_SEI]
    + (PLATING_LITHIUM, PLATING_CAPACITY)
    + SUMMARY_COLUMNS[_AFTER_SEI:]
)
SUMMARY_EXTRA = "Loss of lithium inventory, including electrolyte [%]"
# Per-cycle figures taken from the cycle's own solution: these, then the
# family's variables at the cycle's last row ("End of cycle <name>").
CYCLE_COLUMNS = (
    "Cycle start time [s]",
    "Discharge step capacity [A.h]",
    "Discharge step duration [s]",
    "Charge capacity [A.h]",
)
END_OF_CYCLE = (THICKNESS, SEI_CAPACITY)
PLATING_END_OF_CYCLE = END_OF_CYCLE + (
    PLATING_LITHIUM,
    PLATING_CAPACITY,
    PLATED,
    DEAD,
)
CURVE_COLUMNS = ("Voltage [V]", "Current [A]")
CURVE_EXTRA = (THICKNESS, SEI_CAPACITY, SEI_CURRENT)
PLATING_CURVE_EXTRA = CURVE_EXTRA + (
    PLATING_LITHIUM,
    PLATED,
    DEAD,
    PLATING_CURRENT,
)
# The loss-of-active-material cases: OKane2022 (it holds the mechanics and
# LAM parameters) at its own 298.15 K, the plating family's experiment.
LAM_PARAMETER_SET = "OKane2022"
LAM_CYCLES = 50
LAM_TEMPERATURE_K = 298.15
LAM_PROTOCOL = PLATING_PROTOCOL
BETA_LAM_SEI_N = "Negative electrode reaction-driven LAM factor [m3.mol-1]"
# lam_reaction's factor (0 in OKane2022): about 1 % of the negative
# electrode's active material lost over its 15 cycles with OKane2022's
# reaction-limited SEI (LAM_n [%] = 100 beta n_Li,SEI / (V_n eps_s,n,0)).
LAM_REACTION_FACTOR = 1.5e-4
# Every LAM case whose options turn particle mechanics on (the stress-driven
# ones) passes "stress-induced diffusion" explicitly, with a note. With
# mechanics on, PyBaMM's default is "true" (the particle diffusivity times
# 1 + theta_M (c - c_0)); lam_stress_negative runs without it (SID_OFF) to
# test the stress-driven loss alone. Without it OKane2022's positive electrode's stress-driven LAM runs away
# (measured with PyBaMM 26.10.1.1, lam_stress and lam_okane2022_coupled
# with "false": X-averaged positive surface tangential stress up to 11 GPa
# in cycle 1 against 54 MPa with "true", LAM_p 33 % after cycle 1, 92 %
# after cycle 2 and 98-100 % in cycle 3, eSOH capacity 4.30 then 0.50 A.h
# then about 0; IDA fails in cycle 3 (lam_okane2022_coupled, error test) or
# 4 (lam_stress, convergence test)): the cases that lose positive active
# material keep PyBaMM's default (SID_KEPT).
SID = "stress-induced diffusion"
SID_OFF = {SID: "false"}
SID_OFF_NOTE = (
    '"stress-induced diffusion": "false" is passed explicitly, to test the '
    "stress-driven loss without it; PyBaMM's default with particle "
    'mechanics on is "true" (particle diffusivity x (1 + theta_M (c - c_0)))'
)
SID_KEPT = {SID: "true"}
SID_KEPT_NOTE = (
    '"stress-induced diffusion": "true" (PyBaMM\'s default with particle '
    "mechanics on) is passed explicitly: with \"false\" OKane2022's positive electrode "
    "(theta_M c ~ 100-350) reaches surface tangential stresses of ~11 GPa "
    '(54 MPa with "true") and its stress-driven LAM runs away in PyBaMM '
    "26.10.1.1 (LAM_p 33 % after cycle 1, 92 % after cycle 2, 98-100 % in "
    "cycle 3, then IDA fails)"
)
# Curve thinning (LAM family): each case's files (summary, the two curves and
# the info json) total at most LAM_CASE_BYTES. The curves keep every
# stride-th output row of each step from its first, and always each step's
# first and last rows; the stride is the smallest that fits the budget,
# but not one that leaves a curve fewer than MIN_CURVE_ROWS rows.
LAM_CASE_BYTES = 400_000
MIN_CURVE_ROWS = 300
LAM_N = "Loss of active material in negative electrode [%]"
LAM_P = "Loss of active material in positive electrode [%]"
LLI_LAM_N = (
    "Loss of lithium due to loss of active material in negative electrode "
    "[mol]"
)
LLI_LAM_P = (
    "Loss of lithium due to loss of active material in positive electrode "
    "[mol]"
)
STRESS_N = "X-averaged negative particle surface tangential stress [Pa]"
STRESS_P = "X-averaged positive particle surface tangential stress [Pa]"
EPS_N = "X-averaged negative electrode active material volume fraction"
EPS_P = "X-averaged positive electrode active material volume fraction"
# The per-cycle figures a porosity case compares with the case solved
# without the option (those its summary has).
POROSITY_COMPARED = (
    "Capacity [A.h]",
    "Discharge step capacity [A.h]",
    "Loss of lithium inventory [%]",
    SEI_LITHIUM,
    PLATING_LITHIUM,
    LAM_N,
    LAM_P,
)
# As PyBaMM's experiment log computes it: the least "Battery voltage [V]"
# over the cycle's output rows.
MIN_VOLTAGE = "Minimum voltage [V]"
LAM_SUMMARY_COLUMNS = (
    PLATING_SUMMARY_COLUMNS[:3] + (LAM_N, LAM_P) + PLATING_SUMMARY_COLUMNS[3:]
)
LAM_CYCLE_COLUMNS = CYCLE_COLUMNS + (MIN_VOLTAGE,)
LAM_END_OF_CYCLE = PLATING_END_OF_CYCLE + (LLI_LAM_N, LLI_LAM_P, EPS_N, EPS_P)
LAM_CURVE_EXTRA = PLATING_CURVE_EXTRA + (
    STRESS_N,
    STRESS_P,
    EPS_N,
    EPS_P,
    LLI_LAM_N,
    LLI_LAM_P,
)
# LAM cases leave out the columns of a submodel whose option resolves to
# "none" on both electrodes.
LAM_OPTIONAL = {
    "SEI": (THICKNESS, SEI_LITHIUM, SEI_CAPACITY, SEI_CURRENT),
    "lithium plating": (
        PLATING_LITHIUM,
        PLATING_CAPACITY,
        PLATED,
        DEAD,
        PLATING_CURRENT,
    ),
    "particle mechanics": (STRESS_N, STRESS_P),
}
# Names in OKane2022 that lam_parameters.json lists (with PLATING_WORDS).
LAM_WORDS = PLATING_WORDS + (
    "lam constant",
    "reaction-driven lam",
    "poisson",
    "young",
    "partial molar volume",
    "free of deformation",
    "critical stress",
    "volume change",
    "thermal expansion",
)
INTEGER_COLUMNS = ("Cycle number", "Step")
# What differs between the two families of cases. "changes" apply to every
# case of the family; "option_words" pick the resolved options written into
# the CSV headers; "since_t0" are the curve columns counted from t = 0.
FAMILIES = {
    "sei": {
        "title": "SEI",
        "parameter_set": PARAMETER_SET,
        "protocol": PROTOCOL,
        "cycles": CYCLES,
        "temperature_K": 298.15,
        "changes": {},
        "summary_columns": SUMMARY_COLUMNS,
        "end_of_cycle": END_OF_CYCLE,
        "curve_extra": CURVE_EXTRA,
        "option_words": ("SEI",),
        "options_label": "SEI-related and thermal",
        "since_t0": (SEI_CAPACITY,),
        "per_cycle": (
            "Capacity [A.h]",
            SEI_LITHIUM,
            "Discharge step capacity [A.h]",
            "End of cycle " + THICKNESS,
        ),
        "parameters_file": "sei_parameters.json",
    },
    "plating": {
        "title": "lithium-plating",
        "parameter_set": PLATING_PARAMETER_SET,
        "protocol": PLATING_PROTOCOL,
        "cycles": PLATING_CYCLES,
        "temperature_K": PLATING_TEMPERATURE_K,
        "changes": {
            AMBIENT: ("set", PLATING_TEMPERATURE_K),
            INITIAL_TEMPERATURE: ("set", PLATING_TEMPERATURE_K),
        },
        "summary_columns": PLATING_SUMMARY_COLUMNS,
        "end_of_cycle": PLATING_END_OF_CYCLE,
        "curve_extra": PLATING_CURVE_EXTRA,
        "option_words": ("SEI", "plating"),
        "options_label": "SEI-, plating-related and thermal",
        "since_t0": (SEI_CAPACITY, PLATING_LITHIUM),
        "per_cycle": (
            "Capacity [A.h]",
            PLATING_LITHIUM,
            SEI_LITHIUM,
            "Discharge step capacity [A.h]",
            "End of cycle " + PLATED,
            "End of cycle " + DEAD,
            "End of cycle " + THICKNESS,
        ),
        "parameters_file": "plating_parameters.json",
    },
    "lam": {
        "title": "loss-of-active-material",
        "parameter_set": LAM_PARAMETER_SET,
        "protocol": LAM_PROTOCOL,
        "cycles": LAM_CYCLES,
        "temperature_K": LAM_TEMPERATURE_K,
        "state_temperature": True,
        "changes": {},
        "summary_columns": LAM_SUMMARY_COLUMNS,
        "cycle_columns": LAM_CYCLE_COLUMNS,
        "end_of_cycle": LAM_END_OF_CYCLE,
        "curve_extra": LAM_CURVE_EXTRA,
        "optional": LAM_OPTIONAL,
        "option_words": (
            "SEI",
            "plating",
            "active material",
            "mechanics",
            "stress",
        ),
        "options_label": "SEI-, plating-, LAM-, mechanics-related and thermal",
        "since_t0": (SEI_CAPACITY, PLATING_LITHIUM, LLI_LAM_N, LLI_LAM_P),
        "per_cycle": (
            "Capacity [A.h]",
            LAM_N,
            LAM_P,
            "Loss of lithium inventory [%]",
            "Negative electrode capacity [A.h]",
            "Positive electrode capacity [A.h]",
            SEI_LITHIUM,
            PLATING_LITHIUM,
            "Discharge step capacity [A.h]",
            MIN_VOLTAGE,
            "End of cycle " + LLI_LAM_N,
            "End of cycle " + LLI_LAM_P,
        ),
        "parameters_file": "lam_parameters.json",
        "case_bytes": LAM_CASE_BYTES,
    },
}


def case_family(spec, resolved=None):
    """The case's family with the case's cycle count and, given the resolved
    options, without the columns of submodels the case does not have."""
    family = dict(FAMILIES[spec["family"]])
    family["cycles"] = spec.get("cycles", family["cycles"])
    family.setdefault("cycle_columns", CYCLE_COLUMNS)
    if "porosity_of" in spec:  # a porosity case: its porosity per cycle
        family["end_of_cycle"] = family["end_of_cycle"] + (EPS_N_X,)
        family["end_of_cycle_min_over_x"] = (EPS_N_LOCAL,)
        family["per_cycle"] = family["per_cycle"] + (
            "End of cycle " + EPS_N_X,
            "End of cycle " + MIN_OVER_X + EPS_N_LOCAL,
        )
    if resolved is None:
        return family
    unused = set()
    for option, names in family.get("optional", {}).items():
        value = resolved.get(option, "none")
        values = value if isinstance(value, (list, tuple)) else [value]
        if all(v == "none" for v in values):
            unused.update(names)

    def keep(name):
        return name.removeprefix("End of cycle ") not in unused

    for key in ("summary_columns", "end_of_cycle", "curve_extra", "since_t0"):
        family[key] = tuple(n for n in family[key] if keep(n))
    family["per_cycle"] = tuple(n for n in family["per_cycle"] if keep(n))
    return family


def states_temperature(family):
    """Whether the family's temperature is stated (set, or not Chen2020's)."""
    return bool(family["changes"]) or family.get("state_temperature", False)


# The cases ------------------------------------------------------------------


LONG_CYCLES = 50
LONG_CASES = (
    "sei_reaction_limited",
    "sei_solvent_diffusion_limited",
    "sei_interstitial_diffusion_limited",
    "sei_ec_reaction_limited",
    "plating_reversible",
    "plating_irreversible",
    "plating_partially_reversible",
)


def case_specs():
    """Every case: its family, the model options and how the parameters
    change (beyond the family's changes)."""
    fast = {J0_SEI: ("times", FAST_FACTOR)}
    sei = {
        "sei_reaction_limited": {"options": {"SEI": "reaction limited"}},
        "sei_reaction_limited_fast": {
            "options": {"SEI": "reaction limited"},
            "changes": fast,
        },
        "sei_reaction_limited_fast_nofilm": {
            "options": {
                "SEI": "reaction limited",
                "SEI film resistance": "none",
            },
            "changes": fast,
        },
        "sei_reaction_limited_fast_lumped": {
            "options": {"SEI": "reaction limited", "thermal": "lumped"},
            "changes": dict(fast, **{E_SEI: ("if zero", E_SEI_FALLBACK)}),
        },
        "sei_reaction_limited_fast_porosity": {
            "options": {"SEI": "reaction limited", SEI_POROSITY: "true"},
            "changes": fast,
            "porosity_of": "sei_reaction_limited_fast",
        },
        "sei_solvent_diffusion_limited": {
            "options": {"SEI": "solvent-diffusion limited"}
        },
        "sei_interstitial_diffusion_limited": {
            "options": {"SEI": "interstitial-diffusion limited"}
        },
        "sei_ec_reaction_limited": {"options": {"SEI": "ec reaction limited"}},
    }
    partial = {
        "SEI": "solvent-diffusion limited",
        "lithium plating": "partially reversible",
    }
    plating = {
        "plating_reversible": {"lithium plating": "reversible"},
        "plating_irreversible": {"lithium plating": "irreversible"},
        "plating_partially_reversible": partial,
        "plating_partially_reversible_lumped": dict(partial, thermal="lumped"),
        "plating_reaction_limited_sei": dict(partial, SEI="reaction limited"),
    }
    stress = {"loss of active material": "stress-driven"}
    lam = {
        "lam_stress": {
            "options": dict(stress, **SID_KEPT),
            "option_notes": {SID: SID_KEPT_NOTE},
        },
        "lam_stress_negative": {
            "options": {
                "loss of active material": ("stress-driven", "none"),
                **SID_OFF,
            },
            "option_notes": {SID: SID_OFF_NOTE},
            "cycles": 10,
        },
        "lam_reaction": {
            "options": {
                "SEI": "reaction limited",
                "loss of active material": ("reaction-driven", "none"),
            },
            "changes": {BETA_LAM_SEI_N: ("if zero", LAM_REACTION_FACTOR)},
            "cycles": 15,
        },
        "lam_okane2022_coupled": {
            "options": dict(
                partial,
                **stress,
                **{"particle mechanics": "swelling only"},
                **SID_KEPT,
                **PLATING_FIXED_OPTIONS,
            ),
            "option_notes": {SID: SID_KEPT_NOTE},
        },
        "lam_okane2022_coupled_porosity": {
            "options": dict(
                partial,
                **stress,
                **{"particle mechanics": "swelling only"},
                **SID_KEPT,
                **POROSITY_ON,
            ),
            "option_notes": {SID: SID_KEPT_NOTE},
            "porosity_of": "lam_okane2022_coupled",
            "note": POROSITY_COUPLED_NOTE,
        },
    }
    specs = {name: dict(spec, family="sei") for name, spec in sei.items()}
    for name, options in plating.items():
        specs[name] = {
            "options": dict(options, **PLATING_FIXED_OPTIONS),
            "family": "plating",
        }
    specs["plating_partially_reversible_porosity"] = {
        "options": dict(partial, **POROSITY_ON),
        "family": "plating",
        "cycles": POROSITY_PLATING_CYCLES,
        "porosity_of": "plating_partially_reversible",
        "note": POROSITY_PLATING_NOTE,
    }
    for name, spec in lam.items():
        specs[name] = dict(spec, family="lam")
    # Each SEI model and each plating model over LONG_CYCLES (the issue's
    # bar: at least 50 cycles), beside the ten-cycle cases of each option.
    for name in LONG_CASES:
        specs[f"{name}_{LONG_CYCLES}"] = dict(specs[name], cycles=LONG_CYCLES)
    return specs


def family_cases(family):
    return {
        name: spec
        for name, spec in case_specs().items()
        if spec["family"] == family
    }


def select_cases(patterns):
    """Case names matching the given names or shell patterns, in run order."""
    names = list(case_specs())
    if not patterns:
        return names
    unmatched = [p for p in patterns if not fnmatch.filter(names, p)]
    if unmatched:
        sys.exit(
            f"{SCRIPT}: no case matches {', '.join(unmatched)}; the cases "
            "are: " + ", ".join(names)
        )
    return [n for n in names if any(fnmatch.fnmatch(n, p) for p in patterns)]


def apply_changes(params, changes, parameter_set):
    """Changes the parameter values; returns what was done, per name."""
    done = {}
    for name, (how, value) in (changes or {}).items():
        old = float(params[name])
        if how == "times":
            new = old * value
            words = f"{parameter_set}'s value x {value:g}"
        elif how == "if zero":
            new = value if old == 0.0 else old
            words = (
                f"0 in {parameter_set}, set to {value:g}"
                if old == 0.0
                else f"{parameter_set}'s value kept (not 0)"
            )
        elif how == "set":
            new = value
            words = f"{old:g} in {parameter_set}, set to {value:g}"
        else:
            raise ValueError(how)
        params[name] = new
        done[name] = {parameter_set.lower(): old, "used": new, "how": words}
    return done


def model_options(model):
    """The model's resolved options as plain JSON values."""
    return {
        key: list(value) if isinstance(value, tuple) else value
        for key, value in model.options.items()
    }


def build(pybamm, spec, rtol, atol):
    """The simulation of a case, its model and the parameter changes."""
    family = case_family(spec)
    model = pybamm.lithium_ion.DFN(options=dict(spec["options"]))
    params = pybamm.ParameterValues(family["parameter_set"])
    changes = apply_changes(
        params,
        dict(family["changes"], **spec.get("changes", {})),
        family["parameter_set"],
    )
    var_pts = dict(model.default_var_pts)
    var_pts.update({k: POINTS for k in ("x_n", "x_s", "x_p", "r_n", "r_p")})
    experiment = pybamm.Experiment(
        [family["protocol"]] * family["cycles"], period=f"{PERIOD_S} seconds"
    )
    sim = pybamm.Simulation(
        model,
        parameter_values=params,
        var_pts=var_pts,
        solver=pybamm.IDAKLUSolver(rtol=rtol, atol=atol),
        experiment=experiment,
    )
    return sim, model, changes


# Reading a solution ---------------------------------------------------------


def entries(np, solution, name):
    return np.asarray(solution[name].entries, dtype=float).ravel()


def step_capacity(np, step):
    """Change of PyBaMM's "Discharge capacity [A.h]" (its integral of
    Current [A] / 3600) over one step."""
    q = entries(np, step, "Discharge capacity [A.h]")
    return float(q[-1] - q[0])


def cycle_figures(np, cycle, family):
    """The per-cycle figures taken from the cycle's own solution."""
    steps = cycle.steps
    figures = {
        "Cycle start time [s]": float(cycle.t[0]),
        "Discharge step capacity [A.h]": step_capacity(np, steps[0]),
        "Discharge step duration [s]": float(steps[0].t[-1] - steps[0].t[0]),
        "Charge capacity [A.h]": -sum(
            step_capacity(np, s) for s in steps[2:4]
        ),
    }
    if MIN_VOLTAGE in family["cycle_columns"]:
        figures[MIN_VOLTAGE] = float(
            entries(np, cycle, "Battery voltage [V]").min()
        )
    for name in family["end_of_cycle"]:
        figures["End of cycle " + name] = float(entries(np, cycle, name)[-1])
    for name in family.get("end_of_cycle_min_over_x", ()):
        last = np.asarray(cycle[name].entries, dtype=float)[..., -1]
        figures["End of cycle " + MIN_OVER_X + name] = float(last.min())
    return figures


def end_of_cycle_columns(family):
    """The summary's columns taken at the cycle's last row."""
    return tuple("End of cycle " + n for n in family["end_of_cycle"]) + tuple(
        "End of cycle " + MIN_OVER_X + n
        for n in family.get("end_of_cycle_min_over_x", ())
    )


def summary_table(np, solution, thermal, family):
    """One row per completed cycle: PyBaMM's summary variables, then the
    cycle's own figures."""
    summary = solution.summary_variables
    cycles = solution.cycles
    table = {"Cycle number": [int(n) for n in summary["Cycle number"]]}
    for name in family["summary_columns"]:
        table[name] = [float(v) for v in summary[name]]
    figures = [cycle_figures(np, c, family) for c in cycles]
    own = family["cycle_columns"] + end_of_cycle_columns(family)
    for name in own:
        table[name] = [f[name] for f in figures]
    if thermal != "isothermal":
        table["End of cycle " + TEMPERATURE] = [
            float(entries(np, c, TEMPERATURE)[-1]) for c in cycles
        ]
        table["Maximum in cycle " + TEMPERATURE] = [
            float(entries(np, c, TEMPERATURE).max()) for c in cycles
        ]
    return table


def cycle_curve(np, cycle, thermal, family):
    """Rows of one cycle, time counted from the cycle's start."""
    t0 = float(cycle.t[0])
    names = CURVE_COLUMNS + family["curve_extra"]
    if thermal != "isothermal":
        names += (TEMPERATURE,)
    parts = {"Time [s]": [], "Step": []}
    parts.update({name: [] for name in names})
    for index, step in enumerate(cycle.steps):
        t = np.asarray(step.t, dtype=float) - t0
        if not np.all(np.diff(t) > 0.0):
            sys.exit(f"{SCRIPT}: step {index} times are not increasing.")
        parts["Time [s]"].append(t)
        parts["Step"].append(np.full(len(t), index))
        for name in names:
            parts[name].append(entries(np, step, name))
    return {name: np.concatenate(p) for name, p in parts.items()}


def initial_summary(pybamm, solution, sim, model, family):
    """Summary variables at t = 0 (eSOH capacity of the initial state)."""
    esoh = pybamm.lithium_ion.ElectrodeSOHSolver(
        sim.parameter_values, param=model.param, options=model.options
    )
    first = pybamm.SummaryVariables(solution.first_state, esoh_solver=esoh)
    names = family["summary_columns"] + (SUMMARY_EXTRA,)
    return {name: float(first[name]) for name in names}


# Checks ---------------------------------------------------------------------


def growing(np, values):
    return bool(np.all(np.diff(values) > 0))


def checks(np, table):
    """SEI cases: capacity falling, SEI growing, lithium lost > 0, cycle by
    cycle."""
    capacity = np.array(table["Capacity [A.h]"])
    thickness = np.array(table["End of cycle " + THICKNESS])
    lost = np.array(table[SEI_LITHIUM])
    own = np.array(table["End of cycle " + SEI_CAPACITY])
    pybamm_own = np.array(table[SEI_CAPACITY])
    return {
        "capacity_decreasing_every_cycle": growing(np, -capacity),
        "sei_thickness_increasing_every_cycle": growing(np, thickness),
        "lithium_lost_to_sei_positive": bool(np.all(lost > 0)),
        "lithium_lost_to_sei_increasing_every_cycle": growing(np, lost),
        "max_abs_diff_end_of_cycle_vs_summary_sei_capacity_Ah": float(
            np.max(np.abs(own - pybamm_own))
        ),
        "max_abs_diff_total_lost_vs_sei_mol": float(
            np.max(np.abs(np.array(table["Total lithium lost [mol]"]) - lost))
        ),
    }


def plating_checks(np, table, options, initial):
    """Plating cases: lithium lost to plating > 0 and above 1e-4 of the
    cyclable lithium after the last cycle; where some plated lithium dies
    (irreversible, partially reversible), capacity falling and plating loss
    and dead lithium growing every cycle; SEI growing where there is one;
    the summary's total loss against SEI + plating. Reversible plating is
    stripped again in each discharge and replated in each charge, so its
    end-of-cycle loss settles (its change over the cycles is recorded)."""
    array = {name: np.array(table[name]) for name in table}
    plating = array[PLATING_LITHIUM]
    sei = array[SEI_LITHIUM]
    fraction = plating[-1] / initial["Total lithium in particles [mol]"]
    result = {
        "lithium_lost_to_plating_positive": bool(np.all(plating > 0)),
        "lithium_lost_to_plating_last_cycle_over_cyclable_lithium_t0": float(
            fraction
        ),
        "lithium_lost_to_plating_at_least_1e-4_of_cyclable_lithium": bool(
            fraction >= 1e-4
        ),
    }
    if options["lithium plating"] == "reversible":
        result["lithium_lost_to_plating_max_abs_change_per_cycle_mol"] = float(
            np.max(np.abs(np.diff(plating)))
        )
    else:
        result["capacity_decreasing_every_cycle"] = growing(
            np, -array["Capacity [A.h]"]
        )
        result["lithium_lost_to_plating_increasing_every_cycle"] = growing(
            np, plating
        )
        result["dead_lithium_increasing_every_cycle"] = growing(
            np, array["End of cycle " + DEAD]
        )
    if options.get("SEI", "none") != "none":
        result["sei_thickness_increasing_every_cycle"] = growing(
            np, array["End of cycle " + THICKNESS]
        )
        result["lithium_lost_to_sei_increasing_every_cycle"] = growing(np, sei)
    for name in (SEI_CAPACITY, PLATING_CAPACITY):
        key = "sei" if name == SEI_CAPACITY else "plating"
        result[f"max_abs_diff_end_of_cycle_vs_summary_{key}_capacity_Ah"] = (
            float(np.max(np.abs(array["End of cycle " + name] - array[name])))
        )
    result["max_abs_diff_total_lost_vs_sei_plus_plating_mol"] = float(
        np.max(np.abs(array["Total lithium lost [mol]"] - sei - plating))
    )
    return result


def lam_geometry(params):
    """What lam_checks needs from the parameter values: each electrode's
    volume L_k L_y L_z, initial active material volume fraction and
    reaction-driven LAM factor."""
    area = float(params["Electrode height [m]"]) * float(
        params["Electrode width [m]"]
    )
    geometry = {}
    for domain in ("negative", "positive"):
        Domain = domain.capitalize()
        geometry[domain] = {
            "volume_m3": float(params[f"{Domain} electrode thickness [m]"])
            * area,
            "eps_s_0": float(
                params[f"{Domain} electrode active material volume fraction"]
            ),
            "beta_lam_sei_m3_per_mol": float(
                params[
                    f"{Domain} electrode reaction-driven LAM factor [m3.mol-1]"
                ]
            ),
        }
    return geometry


def lam_checks(np, table, options, initial, geometry):
    """LAM cases: capacity falling every cycle; where an electrode loses
    active material, its LAM [%] > 0 and growing, its capacity falling and
    the lithium lost with it growing every cycle, LAM [%] against the
    electrode capacity and the active material volume fraction; where it
    does not, the largest |LAM [%]|; the lithium balance (lost = side
    reactions + lost with the active material); reaction-driven LAM against
    the SEI's lithium (LAM_n [%] = 100 beta n_Li,SEI / (V_n eps_s,0)); SEI
    and plating growing where the case has them."""
    array = {name: np.array(table[name]) for name in table}
    q = table["Discharge step capacity [A.h]"]
    result = {
        "capacity_decreasing_every_cycle": growing(
            np, -array["Capacity [A.h]"]
        ),
        "discharge_step_capacity_last_below_cycle_2": bool(
            q[-1] < q[min(1, len(q) - 1)]
        ),
    }
    lam = options["loss of active material"]
    lam = list(lam) if isinstance(lam, (list, tuple)) else [lam, lam]
    columns = {
        "negative": (LAM_N, LLI_LAM_N, EPS_N),
        "positive": (LAM_P, LLI_LAM_P, EPS_P),
    }
    lli_lam = 0.0
    for (domain, (pct, lli, eps)), option in zip(columns.items(), lam):
        Domain = domain.capitalize()
        capacity = array[f"{Domain} electrode capacity [A.h]"]
        lost = array["End of cycle " + lli]
        lli_lam = lli_lam + lost
        if option == "none":
            result[f"lam_{domain}_max_abs_pct"] = float(
                np.max(np.abs(array[pct]))
            )
            result[
                f"lithium_lost_with_{domain}_active_material_max_abs_mol"
            ] = float(np.max(np.abs(lost)))
            continue
        result[f"lam_{domain}_positive"] = bool(np.all(array[pct] > 0))
        result[f"lam_{domain}_increasing_every_cycle"] = growing(
            np, array[pct]
        )
        result[f"{domain}_electrode_capacity_decreasing_every_cycle"] = (
            growing(np, -capacity)
        )
        result[
            f"lithium_lost_with_{domain}_active_material_increasing_every_cycle"
        ] = growing(np, lost)
        q0 = initial[f"{Domain} electrode capacity [A.h]"]
        result[f"max_abs_diff_lam_{domain}_pct_vs_electrode_capacity"] = float(
            np.max(np.abs(array[pct] - 100.0 * (1.0 - capacity / q0)))
        )
        eps0 = geometry[domain]["eps_s_0"]
        result[f"max_abs_diff_lam_{domain}_pct_vs_volume_fraction"] = float(
            np.max(
                np.abs(
                    array[pct]
                    - 100.0 * (1.0 - array["End of cycle " + eps] / eps0)
                )
            )
        )
        if "reaction" in option and SEI_LITHIUM in array:
            g = geometry[domain]
            expected = (
                100.0
                * g["beta_lam_sei_m3_per_mol"]
                * array[SEI_LITHIUM]
                / (g["volume_m3"] * eps0)
            )
            result[f"lam_{domain}_pct_from_sei_lithium_last_cycle"] = float(
                expected[-1]
            )
            result[f"max_abs_diff_lam_{domain}_pct_vs_sei_lithium"] = float(
                np.max(np.abs(array[pct] - expected))
            )
    result["max_abs_diff_total_lost_vs_side_reactions_plus_lam_mol"] = float(
        np.max(
            np.abs(
                array["Total lithium lost [mol]"]
                - array["Total lithium lost to side reactions [mol]"]
                - lli_lam
            )
        )
    )
    if SEI_LITHIUM in array:
        result["sei_thickness_increasing_every_cycle"] = growing(
            np, array["End of cycle " + THICKNESS]
        )
        result["lithium_lost_to_sei_increasing_every_cycle"] = growing(
            np, array[SEI_LITHIUM]
        )
    if PLATING_LITHIUM in array:
        plating = array[PLATING_LITHIUM]
        result["lithium_lost_to_plating_positive"] = bool(np.all(plating > 0))
        result[
            "lithium_lost_to_plating_last_cycle_over_cyclable_lithium_t0"
        ] = float(plating[-1] / initial["Total lithium in particles [mol]"])
        result["lithium_lost_to_plating_increasing_every_cycle"] = growing(
            np, plating
        )
        result["dead_lithium_increasing_every_cycle"] = growing(
            np, array["End of cycle " + DEAD]
        )
    return result


# Writing --------------------------------------------------------------------


def csv_text(header_lines, data):
    """The CSV file's text: comment lines, column names, rows."""
    names = list(data)
    if any("," in name for name in names):
        sys.exit(f"{SCRIPT}: a column name holds a comma: {names}")
    rows = len(data[names[0]])
    lines = [f"# {line}" for line in header_lines]
    lines.append(",".join(names))
    for i in range(rows):
        cells = [
            (
                str(int(data[n][i]))
                if n in INTEGER_COLUMNS
                else repr(float(data[n][i]))
            )
            for n in names
        ]
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def write_text(path, text):
    with open(path, "w", newline="\n") as f:
        f.write(text)


def write_csv(path, header_lines, data):
    write_text(path, csv_text(header_lines, data))


def json_text(obj):
    return json.dumps(obj, indent=2) + "\n"


def write_json(path, obj):
    write_text(path, json_text(obj))


def provenance(pybamm, np, argv, rtol, atol, family):
    info = {
        "pybamm_version": pybamm.__version__,
        "pybammsolvers_version": package_version("pybammsolvers"),
        "casadi_version": package_version("casadi"),
        "numpy_version": np.__version__,
        "python_version": sys.version.split()[0],
        "command": "python3 " + shlex.join(argv),
        "model": "pybamm.lithium_ion.DFN",
        "parameter_set": family["parameter_set"],
        "mesh": {k: POINTS for k in ("x_n", "x_s", "x_p", "r_n", "r_p")},
        "solver": {"name": "IDAKLUSolver", "rtol": rtol, "atol": atol},
        "experiment": list(family["protocol"]),
        "cycles": family["cycles"],
        "period_s": PERIOD_S,
    }
    if states_temperature(family):
        info["ambient_and_initial_temperature_K"] = family["temperature_K"]
    return info


def header_lines(info, case, entry, what, family):
    solver = info["solver"]
    changes = (
        "; ".join(
            f'"{name}" = {c["used"]!r} ({c["how"]})'
            for name, c in entry["parameter_changes"].items()
        )
        or "none"
    )
    name = family["parameter_set"]
    return [
        f"PyBaMM {family['title']} ageing reference data for voltaic, "
        f"written by tools/{SCRIPT}; do not edit, rerun the command.",
        f"pybamm.__version__: {info['pybamm_version']} (pybammsolvers "
        f"{info['pybammsolvers_version']}, casadi {info['casadi_version']}, "
        f"numpy {info['numpy_version']}, Python {info['python_version']})",
        f"command: {info['command']}",
        f"case: {case}: {what}",
        "model: pybamm.lithium_ion.DFN(options="
        f"{json.dumps(entry['options'])})"
        f'; parameters: pybamm.ParameterValues("{name}")',
        *(
            f"option note: {note}"
            for note in entry.get("option_notes", {}).values()
        ),
        f"resolved options ({family['options_label']}): "
        + json.dumps(
            key_options(entry["resolved_options"], family["option_words"])
        ),
        f"parameter changes: {changes}",
        f"initial state: {name}'s own (no initial_soc), "
        f"{family['temperature_K']:g} K",
        "experiment: "
        + json.dumps(list(family["protocol"]))
        + f" x {family['cycles']} cycles, period {PERIOD_S} s",
        "mesh: x_n=x_s=x_p=r_n=r_p=20 uniform finite-volume cells "
        "(PyBaMM's default)",
        f"solver: pybamm.IDAKLUSolver(rtol={solver['rtol']!r}, "
        f"atol={solver['atol']!r}), PyBaMM's default solver at its default "
        "tolerances, single-threaded",
        f"cycles completed: {entry['cycles_completed']} of "
        f"{family['cycles']}",
        "signs: Current [A] > 0 is discharge",
    ]


def key_options(options, words):
    keys = [k for k in options if any(w in k for w in words)] + [
        "thermal",
        "total interfacial current density as a state",
    ]
    return {k: options[k] for k in keys}


def thinned_rows(np, steps, stride):
    """Which rows of a cycle's curve to keep: every stride-th row of each
    step from the step's first, and always the step's first and last rows
    (`steps`: the Step column; a step's rows are consecutive)."""
    steps = np.asarray(steps)
    keep = np.zeros(len(steps), dtype=bool)
    starts = np.flatnonzero(np.r_[True, steps[1:] != steps[:-1]])
    for first, end in zip(starts, np.r_[starts[1:], len(steps)]):
        keep[first:end:stride] = True
        keep[end - 1] = True
    return keep


def thinning_words(stride, budget):
    """How a curve's rows were thinned, for headers and the info json."""
    if stride == 1:
        return (
            "stride 1: every output row is kept (the case's files fit in "
            f"{budget} bytes without thinning)"
        )
    return (
        f"stride {stride}: of each step's output rows, every {stride}th "
        f"from the step's first (every {stride * PERIOD_S} s from the "
        "step's start) and always the step's first and last rows, so that "
        f"the case's files fit in {budget} bytes"
    )


def choose_stride(np, budget, size, curves, render):
    """The smallest row stride whose files fit in `budget` (`size(stride,
    texts)`: the case's bytes with these curve texts), but none that leaves
    a curve fewer than MIN_CURVE_ROWS rows (nor thins a curve that already
    has fewer); no budget: 1. Returns the stride and its texts."""
    stride, texts = 1, render(1)
    if budget is None:
        return stride, texts
    while size(stride, texts) > budget:
        rows = min(
            int(thinned_rows(np, c["Step"], stride + 1).sum())
            for c in curves.values()
        )
        if rows < MIN_CURVE_ROWS:
            break
        stride += 1
        texts = render(stride)
    return stride, texts


def write_case_files(np, out_dir, info, case, entry, solution, family):
    thermal = entry["resolved_options"]["thermal"]
    table = summary_table(np, solution, thermal, family)
    head = header_lines(info, case, entry, entry["description"], family)
    summary_text = csv_text(
        head
        + [
            "rows: one per cycle; columns up to y_100: PyBaMM's summary "
            "variables (Solution.summary_variables) at the cycle's last "
            "state; the columns after: from the cycle's own solution "
            "(README.md says how)"
        ],
        table,
    )
    write_text(out_dir / f"{case}_summary.csv", summary_text)
    since_t0 = family["since_t0"]
    budget = family.get("case_bytes")
    cycles = solution.cycles
    curves = {
        number: cycle_curve(np, cycles[number - 1], thermal, family)
        for number in (1, len(cycles))
    }

    def render(stride):
        texts = {}
        for number, curve in curves.items():
            keep = thinned_rows(np, curve["Step"], stride)
            kept = {name: values[keep] for name, values in curve.items()}
            cycle_start = float(cycles[number - 1].t[0])
            rows_line = (
                f"rows: PyBaMM's output rows, every {PERIOD_S} s within each "
                "step from its start, then the step's end; a step's first row "
                "repeats the previous step's last time (the control changes)"
            )
            count_line = f"row count: {int(keep.sum())}"
            if budget is not None:
                rows_line += "; thinned, " + thinning_words(stride, budget)
                count_line += f" of the cycle's {len(keep)} output rows"
            texts[number] = csv_text(
                head
                + [
                    f"cycle {number}: starts at t = {cycle_start!r} s of the "
                    "run; Time [s] counts from the cycle's start",
                    rows_line,
                    "Step: 0-based index into the cycle's 5 steps; "
                    + " and ".join(since_t0)
                    + (" counts" if len(since_t0) == 1 else " count")
                    + " from t = 0 of the run",
                    count_line,
                ],
                kept,
            )
        return texts

    summary_bytes = len(summary_text.encode())

    def record(stride, texts):
        return {
            "stride": stride,
            "thinning": thinning_words(stride, budget),
            "case_files_budget_bytes": budget,
            "min_rows_per_curve": MIN_CURVE_ROWS,
            "rows": {
                f"cycle{n}": int(thinned_rows(np, c["Step"], stride).sum())
                for n, c in curves.items()
            },
            "output_rows": {
                f"cycle{n}": len(c["Step"]) for n, c in curves.items()
            },
            "bytes": dict(
                {f"{case}_summary.csv": summary_bytes},
                **{
                    f"{case}_cycle{n}.csv": len(t.encode())
                    for n, t in texts.items()
                },
            ),
        }

    def finish(info_bytes):
        """Chooses the stride, counting the info json at its size
        (`info_bytes()`, measured with each stride's record in the entry),
        and writes the curves."""

        def size(stride, texts):
            entry["curve_files"] = record(stride, texts)
            curve_bytes = sum(len(t.encode()) for t in texts.values())
            return summary_bytes + curve_bytes + info_bytes()

        stride, texts = choose_stride(np, budget, size, curves, render)
        if budget is not None:
            entry["curve_files"] = record(stride, texts)
        for number, text in texts.items():
            write_text(out_dir / f"{case}_cycle{number}.csv", text)

    return table, finish


# Running --------------------------------------------------------------------


def describe(spec, changes):
    family = case_family(spec)
    own = {n: c for n, c in changes.items() if n not in family["changes"]}
    words = "DFN " + json.dumps(spec["options"])
    if own:
        words += ", " + "; ".join(
            f'"{name}" {c["how"]}' for name, c in own.items()
        )
    words += (
        f"; {family['cycles']} cycles of the experiment from "
        f"{family['parameter_set']}'s initial state"
    )
    if states_temperature(family):
        words += f" at {family['temperature_K']:g} K"
    if "note" in spec:
        words += f" ({spec['note']})"
    return words


def stress_ranges(np, cycles):
    """Least and greatest X-averaged surface tangential stress [Pa] of each
    electrode over the rows of the first and last cycles."""
    ranges = {}
    for name in (STRESS_N, STRESS_P):
        for number in (1, len(cycles)):
            values = entries(np, cycles[number - 1], name)
            ranges[f"cycle {number}: {name}"] = [
                float(values.min()),
                float(values.max()),
            ]
    return ranges


def check_mechanics_options(case, spec, resolved):
    """A LAM case with particle mechanics on must pass "stress-induced
    diffusion" explicitly, with a note saying why, and resolve to it."""
    if spec["family"] != "lam":
        return
    mechanics = resolved.get("particle mechanics", "none")
    values = mechanics if isinstance(mechanics, list) else [mechanics]
    if all(v == "none" for v in values):
        return
    asked = spec["options"].get(SID)
    if asked is None or SID not in spec.get("option_notes", {}):
        sys.exit(
            f'{SCRIPT}: {case} has particle mechanics: it must pass "{SID}" '
            "explicitly, with a note in option_notes"
        )
    if resolved.get(SID) != asked:
        sys.exit(f"{SCRIPT}: {case} resolves {SID} to {resolved.get(SID)}")


def without_porosity_change(spec):
    """A porosity case's spec with its porosity options "false" (as its base
    case runs, over the porosity case's cycles)."""
    twin = {k: v for k, v in spec.items() if k not in ("porosity_of", "note")}
    twin["options"] = {
        k: ("false" if k in POROSITY_ON else v)
        for k, v in spec["options"].items()
    }
    return twin


def film_porosity(np, table, params, with_plating):
    """The X-averaged negative porosity PyBaMM's "reaction-driven" porosity
    gives from the summary's lithium losses, where the surface area per
    volume does not change (no LAM): eps_0 - V_bar_SEI n_Li,SEI / (z_SEI
    V_n) - V_bar_Li n_Li,plating / V_n."""
    volume = (
        float(params["Negative electrode thickness [m]"])
        * float(params["Electrode height [m]"])
        * float(params["Electrode width [m]"])
    )
    eps = float(params[EPS_N_LOCAL]) - float(params[V_BAR_SEI]) * np.array(
        table[SEI_LITHIUM]
    ) / (float(params[Z_SEI]) * volume)
    if with_plating:
        eps = (
            eps
            - float(params[V_BAR_LI])
            * np.array(table[PLATING_LITHIUM])
            / volume
        )
    return eps


def porosity_effect(pybamm, np, out_dir, spec, table, params, rtol, atol):
    """Solves a porosity case again with its porosity options "false" and
    compares: per-cycle figures without, the relative differences after the
    last cycle (with / without - 1), the porosity at the end, the porosity
    from the film volumes (no LAM) and the committed base case against the
    case solved here without the option."""
    twin = without_porosity_change(spec)
    start = time.perf_counter()
    sim, model, _ = build(pybamm, twin, rtol, atol)
    solution = sim.solve()
    wall = time.perf_counter() - start
    resolved = model_options(model)
    family = case_family(twin, resolved)
    other = summary_table(np, solution, resolved["thermal"], family)
    names = [n for n in POROSITY_COMPARED if n in table and n in other]
    if len(other["Cycle number"]) != len(table["Cycle number"]):
        sys.exit(f"{SCRIPT}: the case without porosity change stopped early")
    eps0 = float(params[EPS_N_LOCAL])
    x_av = table["End of cycle " + EPS_N_X]
    least = table["End of cycle " + MIN_OVER_X + EPS_N_LOCAL]
    q = "Discharge step capacity [A.h]"
    relative = {n: table[n][-1] / other[n][-1] - 1.0 for n in names}
    effect = {
        "base_case": spec["porosity_of"],
        "without": "the same case (options, parameter changes, cycles) with "
        + " and ".join(
            f'"{k}": "false"' for k in spec["options"] if k in POROSITY_ON
        )
        + " (PyBaMM's default), solved by this script in the same run; not "
        "written to files",
        "without_options": twin["options"],
        "without_solve_wall_s": wall,
        "without_per_cycle": {n: other[n] for n in names},
        "relative_difference_last_cycle": relative,
        "negative_electrode_porosity": {
            "initial": eps0,
            "end_of_last_cycle_x_averaged": x_av[-1],
            "end_of_last_cycle_minimum_over_x": least[-1],
            "without_porosity_change": eps0,
        },
    }
    checks_ = {
        "porosity_decreasing_every_cycle": growing(np, -np.array(x_av)),
        "last_discharge_capacity_differs_by_at_least_"
        f"{100 * POROSITY_MIN_EFFECT:g}_pct": bool(
            abs(relative[q]) >= POROSITY_MIN_EFFECT
        ),
    }
    lam = resolved.get("loss of active material", "none")
    lam = lam if isinstance(lam, list) else [lam]
    film = film_porosity(np, table, params, PLATING_LITHIUM in table)
    key = "max_abs_diff_x_averaged_porosity_vs_film_volume"
    if any(v != "none" for v in lam):
        key += "_lam_changes_a"  # exact only where a = 3 eps_s / R is fixed
    checks_[key] = float(np.max(np.abs(np.array(x_av) - film)))
    base = out_dir / f"{spec['porosity_of']}_info.json"
    if base.exists():
        with open(base) as f:
            committed = json.load(f).get("per_cycle", {})
        same = [n for n in names if len(committed.get(n, [])) == len(other[n])]
        if same:
            effect["base_case_vs_without_max_abs_diff"] = {
                n: float(np.max(np.abs(np.array(committed[n]) - other[n])))
                for n in same
            }
    effect["checks"] = checks_
    return effect


def run_case(pybamm, np, out_dir, info, case, spec, rtol, atol):
    case_start = time.perf_counter()
    family = case_family(spec)
    protocol = family["protocol"]
    sim, model, changes = build(pybamm, spec, rtol, atol)
    family = case_family(spec, model_options(model))
    entry = {
        "case": case,
        "description": describe(spec, changes),
        "options": spec["options"],
        "resolved_options": model_options(model),
        "parameter_changes": changes,
        "cycles_requested": family["cycles"],
        "cycles_completed": 0,
    }
    if "option_notes" in spec:
        entry["option_notes"] = spec["option_notes"]
    check_mechanics_options(case, spec, entry["resolved_options"])
    start = time.perf_counter()
    try:
        solution = sim.solve()
    except Exception as err:  # a case PyBaMM cannot run is recorded
        entry["error"] = f"{type(err).__name__}: {err}"
        entry["solve_wall_s"] = time.perf_counter() - start
        print(f"{case}: FAILED: {entry['error']}")
        return entry
    entry["solve_wall_s"] = time.perf_counter() - start
    entry["integration_s"] = float(
        getattr(solution.integration_time, "value", solution.integration_time)
    )
    cycles = solution.cycles
    complete = [c for c in cycles if len(c.steps) == len(protocol)]
    entry["cycles_completed"] = len(complete)
    entry["terminations"] = [[s.termination for s in c.steps] for c in cycles]
    entry["final_termination"] = solution.termination
    if len(complete) < 1:
        entry["error"] = f"no complete cycle ('{solution.termination}')"
        return entry
    table, finish_curves = write_case_files(
        np, out_dir, info, case, entry, solution, family
    )
    entry["initial_state_summary"] = initial_summary(
        pybamm, solution, sim, model, family
    )
    entry["summary_variables_available"] = sorted(
        set(solution.summary_variables.all_variables) | {"Cycle number"}
    )
    entry["loss_of_lithium_inventory_including_electrolyte_pct"] = [
        float(v) for v in solution.summary_variables[SUMMARY_EXTRA]
    ]
    entry["per_cycle"] = {name: table[name] for name in family["per_cycle"]}
    if spec["family"] == "sei":
        entry["checks"] = checks(np, table)
    elif spec["family"] == "plating":
        entry["checks"] = plating_checks(
            np, table, spec["options"], entry["initial_state_summary"]
        )
    else:
        geometry = lam_geometry(sim.parameter_values)
        entry["electrodes"] = geometry
        entry["checks"] = lam_checks(
            np,
            table,
            entry["resolved_options"],
            entry["initial_state_summary"],
            geometry,
        )
        if STRESS_N in family["curve_extra"]:
            entry["surface_tangential_stress_range_Pa"] = stress_ranges(
                np, solution.cycles
            )
    if "porosity_of" in spec:
        entry["porosity_change"] = porosity_effect(
            pybamm, np, out_dir, spec, table, sim.parameter_values, rtol, atol
        )
        relative = entry["porosity_change"]["relative_difference_last_cycle"]
        print(
            f"{case}: with / without porosity change - 1 after the last "
            "cycle: "
            + ", ".join(f"{n} {100 * v:+.4f} %" for n, v in relative.items())
        )
    stats = getattr(solution, "solver_statistics", None)
    steps = getattr(stats, "number_of_steps", None)
    entry["idaklu_steps"] = None if steps is None else int(steps)
    entry["case_wall_s"] = time.perf_counter() - case_start
    # main writes the curves once the entry is complete (their stride
    # depends on the info json's size); the wall time then includes them.
    entry["_finish_curves"] = (finish_curves, case_start)
    cap = table["Capacity [A.h]"]
    words = f"{case}: {len(complete)} cycles, capacity {cap[0]:.6f} -> "
    words += f"{cap[-1]:.6f} A.h, "
    if SEI_LITHIUM in table:
        words += f"SEI Li {table[SEI_LITHIUM][-1]:.4e} mol, "
    if PLATING_LITHIUM in table:
        words += f"plating Li {table[PLATING_LITHIUM][-1]:.4e} mol, "
    if LAM_N in table:
        words += f"LAM {table[LAM_N][-1]:.4f} / {table[LAM_P][-1]:.4f} %, "
    print(words + f"solve {entry['solve_wall_s']:.1f} s")
    return entry


# The parameter files ---------------------------------------------------------


def needed_beyond_plain_dfn(pybamm, specs):
    """Per case, the parameters its model uses and the DFN without SEI and
    plating (same thermal option) does not; its resolved options; what the
    plain DFN uses."""
    needed = {}
    options = {}
    base = {}
    for case, spec in specs.items():
        model = pybamm.lithium_ion.DFN(options=dict(spec["options"]))
        thermal = model.options["thermal"]
        if thermal not in base:
            plain = pybamm.lithium_ion.DFN(options={"thermal": thermal})
            base[thermal] = set(plain.get_parameter_info())
        needed[case] = sorted(set(model.get_parameter_info()) - base[thermal])
        options[case] = model_options(model)
    return needed, options, model, set().union(*base.values())


def sei_parameters(pybamm, info):
    """Chen2020's SEI parameters, those the SEI cases need beyond the SEI-free
    DFN, and every SEI case's resolved options."""
    params = pybamm.ParameterValues(PARAMETER_SET)
    specs = family_cases("sei")
    names = {k for k in params.keys() if "SEI" in k}
    needed, options, model, _ = needed_beyond_plain_dfn(pybamm, specs)
    for extra in needed.values():
        names.update(n for n in extra if n in params.keys())
    missing = {
        case: [n for n in extra if n not in params.keys()]
        for case, extra in needed.items()
    }
    possible = list(model.options.possible_options["SEI"])
    run = {spec["options"]["SEI"] for spec in specs.values()}
    return {
        "generator": {k: info[k] for k in ("pybamm_version", "command")},
        "parameter_set": PARAMETER_SET,
        "sei_options_in_pybamm": possible,
        "sei_options_not_run": [o for o in possible if o not in run],
        "values": {n: float(params[n]) for n in sorted(names)},
        "needed_beyond_sei_free_dfn": needed,
        "needed_but_missing_from_chen2020": {
            c: m for c, m in missing.items() if m
        },
        "resolved_options": options,
    }


def function_definition(fn):
    """The function's code without its docstring (to tell whether two
    functions of one name are the same), or None."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return None
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.FunctionDef)
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def function_result(pybamm, value):
    """A function parameter called on symbols (pybamm.Variable per
    argument), or None for a number or a function that cannot be."""
    if not callable(value):
        return None
    try:
        names = list(inspect.signature(value).parameters)
        return value(*[pybamm.Variable(n) for n in names])
    except Exception:  # not a function of symbols: the name is enough
        return None


def parameter_value(pybamm, value):
    """A parameter's value as JSON: a number, or {"function": name}, with the
    data where the function is an interpolant."""
    if not callable(value):
        return float(value)
    record = {"function": value.__name__}
    result = function_result(pybamm, value)
    if isinstance(result, pybamm.Interpolant):
        record["interpolant"] = {
            "interpolator": result.interpolator,
            "x": [[float(v) for v in x] for x in result.x],
            "y": [float(v) for v in result.y.ravel()],
        }
    return record


def set_differences(pybamm, params, other):
    """Every parameter of `params` (OKane2022) that differs from `other`
    (Chen2020): numbers by value, functions by name (and, where one name has
    two definitions, a flag saying so)."""
    own, theirs = PLATING_PARAMETER_SET.lower(), PARAMETER_SET.lower()
    skip = {"citations"}  # a list of references, not a parameter
    keys = [k for k in params.keys() if k not in skip]
    differ, only = {}, {}
    for name in sorted(keys):
        value = parameter_value(pybamm, params[name])
        if name not in other.keys():
            only[name] = value
            continue
        before = parameter_value(pybamm, other[name])
        same_name = (
            isinstance(value, dict)
            and isinstance(before, dict)
            and value["function"] == before["function"]
        )
        if same_name:
            definitions = {
                function_definition(params[name]),
                function_definition(other[name]),
            }
            if len(definitions) == 1 and value == before:
                continue
            value = dict(value, same_name_different_definition=True)
        elif value == before:
            continue
        differ[name] = {own: value, theirs: before}
    return {
        "differ": differ,
        f"only_in_{own}": only,
        f"only_in_{theirs}": {
            k: parameter_value(pybamm, other[k])
            for k in sorted(other.keys())
            if k not in skip and k not in params.keys()
        },
    }


def named_parameters(pybamm, params, specs, words):
    """The parameters a family lists: those whose name holds one of `words`,
    the temperatures, those its cases need beyond the plain DFN and those
    read inside any of these that is a function parameter. Returns the names,
    the needed ones per case, the resolved options per case, the last model,
    what the plain DFN reads and the parameters inside functions."""
    names = {k for k in params.keys() if any(w in k.lower() for w in words)}
    names.update((AMBIENT, INITIAL_TEMPERATURE, "Reference temperature [K]"))
    needed, options, model, plain = needed_beyond_plain_dfn(pybamm, specs)
    for extra in needed.values():
        names.update(n for n in extra if n in params.keys())
    # The parameters a function parameter reads (OKane2022's plating and
    # dead-lithium functions read "Lithium plating kinetic rate constant
    # [m.s-1]", "Dead lithium decay constant [s-1]", ...).
    inside = {}
    for name in sorted(names):
        result = function_result(pybamm, params[name])
        if result is not None:
            found = {
                node.name
                for node in result.pre_order()
                if isinstance(node, pybamm.Parameter)
            }
            if found:
                inside[name] = sorted(found)
    for found in inside.values():
        names.update(n for n in found if n in params.keys())
    return names, needed, options, model, plain, inside


def plating_parameters(pybamm, info):
    """OKane2022's plating, dead-lithium and SEI parameters, those the plating
    cases need beyond the plating- and SEI-free DFN, the temperatures, what
    differs from Chen2020, and every plating case's resolved options."""
    family = FAMILIES["plating"]
    params = pybamm.ParameterValues(PLATING_PARAMETER_SET)
    specs = family_cases("plating")
    names, needed, options, model, plain, inside = named_parameters(
        pybamm, params, specs, PLATING_WORDS
    )
    missing = {
        case: [n for n in extra if n not in params.keys()]
        for case, extra in needed.items()
    }
    possible = list(model.options.possible_options["lithium plating"])
    run = {spec["options"]["lithium plating"] for spec in specs.values()}
    own = PLATING_PARAMETER_SET.lower()
    return {
        "generator": {k: info[k] for k in ("pybamm_version", "command")},
        "parameter_set": PLATING_PARAMETER_SET,
        "plating_options_in_pybamm": possible,
        "plating_options_not_run": [o for o in possible if o not in run],
        "changes_in_every_plating_case": apply_changes(
            pybamm.ParameterValues(PLATING_PARAMETER_SET),
            family["changes"],
            PLATING_PARAMETER_SET,
        ),
        "values": {
            n: parameter_value(pybamm, params[n]) for n in sorted(names)
        },
        "needed_beyond_plating_and_sei_free_dfn": needed,
        "parameters_inside_functions": inside,
        "read_by_plain_dfn": sorted(names & plain),
        f"needed_but_missing_from_{own}": {
            c: m for c, m in missing.items() if m
        },
        f"{own}_vs_{PARAMETER_SET.lower()}": set_differences(
            pybamm, params, pybamm.ParameterValues(PARAMETER_SET)
        ),
        "resolved_options": options,
    }


def lam_parameters(pybamm, info):
    """OKane2022's mechanics, LAM, SEI and plating parameters, those the LAM
    cases need beyond the DFN without SEI, plating, mechanics and LAM, the
    temperatures, each case's parameter changes and resolved options."""
    params = pybamm.ParameterValues(LAM_PARAMETER_SET)
    specs = family_cases("lam")
    names, needed, options, model, plain, inside = named_parameters(
        pybamm, params, specs, LAM_WORDS
    )
    missing = {
        case: [n for n in extra if n not in params.keys()]
        for case, extra in needed.items()
    }
    possible = list(model.options.possible_options["loss of active material"])
    run = set()
    for spec in specs.values():
        value = spec["options"]["loss of active material"]
        run.update(value if isinstance(value, tuple) else (value,))
    own = LAM_PARAMETER_SET.lower()
    return {
        "generator": {k: info[k] for k in ("pybamm_version", "command")},
        "parameter_set": LAM_PARAMETER_SET,
        "temperature_K": LAM_TEMPERATURE_K,
        "lam_options_in_pybamm": possible,
        "lam_options_not_run": [o for o in possible if o not in run],
        "particle_mechanics_options_in_pybamm": list(
            model.options.possible_options["particle mechanics"]
        ),
        "changes_per_case": {
            case: apply_changes(
                pybamm.ParameterValues(LAM_PARAMETER_SET),
                spec.get("changes", {}),
                LAM_PARAMETER_SET,
            )
            for case, spec in specs.items()
        },
        "values": {
            n: parameter_value(pybamm, params[n]) for n in sorted(names)
        },
        "needed_beyond_dfn_without_sei_plating_mechanics_lam": needed,
        "parameters_inside_functions": inside,
        "read_by_plain_dfn": sorted(names & plain),
        f"needed_but_missing_from_{own}": {
            c: m for c, m in missing.items() if m
        },
        "resolved_options": options,
    }


PARAMETER_FILES = {
    "sei": sei_parameters,
    "plating": plating_parameters,
    "lam": lam_parameters,
}


# README ---------------------------------------------------------------------


def case_files(case, entry):
    """The files a case wrote (its info json only, where it failed)."""
    if "curve_files" in entry:  # the names it wrote
        return list(entry["curve_files"]["bytes"]) + [f"{case}_info.json"]
    last = entry.get("cycles_completed", 0)
    if last < 1:
        return [f"{case}_info.json"]
    names = [
        f"{case}_summary.csv",
        f"{case}_cycle1.csv",
        f"{case}_cycle{last}.csv",
        f"{case}_info.json",
    ]
    return list(dict.fromkeys(names))


def read_entries(out_dir):
    """Every case's info json, with the sizes of its files on disk
    ("file_bytes", not stored in the json)."""
    entries_ = {}
    for case in case_specs():
        path = out_dir / f"{case}_info.json"
        if path.exists():
            with open(path) as f:
                entries_[case] = json.load(f)
            entries_[case]["file_bytes"] = sum(
                (out_dir / n).stat().st_size
                for n in case_files(case, entries_[case])
                if (out_dir / n).exists()
            )
    return entries_


README_HEAD = """\
# PyBaMM reference data: SEI growth, lithium plating and loss of active \
material over cycles

Written by `tools/{script}`; do not edit these files by hand,
rerun the command instead. PyBaMM's code is not in this repository: the
script only calls PyBaMM's public API.

- PyBaMM: `pybamm.__version__` = **{pybamm_version}** (pybammsolvers
  {pybammsolvers_version}, casadi {casadi_version}, numpy {numpy_version},
  Python {python_version})
- Commands (from the repository root; `python3` is a Python with that
  PyBaMM, here the virtual environment /tmp/pybamm-venv):
{commands}

## Set-up common to every case

- Model `pybamm.lithium_ion.DFN(options)`; isothermal unless the case says
  `lumped`.
- Mesh: x_n=20, x_s=20, x_p=20, r_n=20, r_p=20 uniform finite-volume cells:
  PyBaMM's default (`model.default_var_pts`), the same as
  `tools/pybamm_reference.py` uses for its Chen2020 DFN cases.
- Solver: `pybamm.IDAKLUSolver(rtol={rtol!r}, atol={atol!r})`: PyBaMM's
  default solver at its default tolerances, single-threaded.
  `save_at_cycles` is not used: every cycle is kept.
- Output rows every {period} s within each step (the experiment's
  `period`), plus each step's end.

## SEI cases (`sei_*`)

- Parameter set `Chen2020` (`pybamm.ParameterValues("Chen2020")`, which
  holds the SEI parameters in `sei_parameters.json`).
- Initial state: Chen2020's own (no `initial_soc`): uniform particle
  concentrations 29866 / 17038 mol/m^3, electrolyte 1000 mol/m^3,
  298.15 K (ambient and reference temperature 298.15 K), SEI thickness
  `Initial SEI thickness [m]` = 5 nm everywhere.
- Experiment: `pybamm.Experiment([{protocol}] * {cycles},
  period="{period} seconds")`; 1C = 5 A (nominal 5 A.h), C/20 = 0.25 A.
  Cycle 1 starts from Chen2020's initial state (not a 4.2 V / C/20 charge),
  so its discharge differs from the later ones.
"""

README_PLATING = """
## Lithium-plating cases (`plating_*`)

- Parameter set `OKane2022` (`pybamm.ParameterValues("OKane2022")`):
  Chen2020's LG M50 cell with lithium-plating, SEI and cracking parameters
  (`plating_parameters.json`, `values`). It differs from Chen2020 in
  {differ} (`plating_parameters.json`, `okane2022_vs_chen2020`: numbers by
  value, functions by name, the interpolant's data).
- Temperature: `Ambient temperature [K]` and `Initial temperature [K]` set
  to **{temperature:g} K** (OKane2022: 298.15 K; `Reference temperature
  [K]` stays 298.15 K). Cold, so that lithium plates while charging at 1C:
  after {cycles_words} cycles the cases have lost {low:.2e} to {high:.2e} of the
  initial cyclable lithium (`Total lithium in particles [mol]` at t = 0)
  to plating (in `<case>_info.json`, `checks`); PyBaMM runs every case at
  that temperature and rate, so neither was changed from the plan.
- Initial state: OKane2022's own (no `initial_soc`): the same
  concentrations as Chen2020 (29866 / 17038 mol/m^3, electrolyte
  1000 mol/m^3), no plated or dead lithium (`Initial plated lithium
  concentration [mol.m-3]` = 0), SEI 5 nm where the case has SEI.
- Experiment: `pybamm.Experiment([{protocol}] * {cycles},
  period="{period} seconds")`; 1C = 5 A. Cycle 1 starts with the discharge
  from that (near full) state; it runs to 2.5 V ({first_discharge} A.h).
- Every plating case{but} passes
  `"lithium plating porosity change": "false"` and
  `"SEI porosity change": "false"` explicitly (PyBaMM's defaults; it
  accepts them: resolved options in `plating_parameters.json`){porosity_words}.
"""

README_FILES = """
## Files

| file | content |
|---|---|
{files}

CSV files start with comment lines (`#`: version, command, case, options,
parameter changes, mesh, solver), then one line of column names (unquoted,
comma-separated), then numbers written with Python's `repr`. Read them with
`pandas.read_csv(path, comment="#")`.
"""

README_CASES = """
## Cases

Solve wall time: `Simulation.solve` (model set-up, discretisation and the
cycles) on one core of the machine named in `<case>_info.json`
(`host_cpu`); it differs from run to run, the one figure here that does.

{rows}
"""

README_DEFINITIONS = """
## Columns of `<case>_summary.csv`

One row per cycle (`Cycle number` 1 to {cycles}). The columns from `Time [s]`
to `y_100` are PyBaMM's summary variables (`solution.summary_variables[name]`,
one value per cycle), exactly as PyBaMM names them; each is the variable's
value at the **last state of the cycle** (after the second rest):

- `Time [s]`: time of the run (from its t = 0) at the end of the cycle.
- `Capacity [A.h]`: PyBaMM's electrode state-of-health (eSOH) capacity,
  `Q = Q_n (x_100 - x_0)`: the charge between the stoichiometries at which
  the open-circuit voltage is 4.2 V and 2.5 V ("Open-circuit voltage at
  100% / 0% SOC [V]") for the electrode capacities `Q_n`, `Q_p` and the
  cyclable lithium in the particles (`Cyclable lithium capacity [A.h]` =
  `Total lithium in particles [mol]` x F / 3600) of that state. It is a
  zero-current capacity, not the 1C discharge capacity
  (`Discharge step capacity [A.h]`). `x_0`, `x_100`, `y_0`, `y_100` are the
  stoichiometries of that calculation.
- `Loss of lithium inventory [%]`: `(1 - n_Li,particles / n_Li,particles(t=0))
  x 100`, lithium in the particles only (PyBaMM's "LLI"); the variant
  including the electrolyte (`Loss of lithium inventory, including
  electrolyte [%]`, whose name holds a comma) is in `<case>_info.json`.
- `Loss of lithium to negative SEI [mol]`: `(c_SEI,avg - c_SEI,0) V_n z_SEI`:
  SEI moles formed since t = 0 (volume-averaged SEI concentration
  [mol/m^3] above its initial value, times the negative electrode's volume
  L_n L_y L_z) times "Ratio of lithium moles to SEI moles" (Chen2020 2,
  OKane2022 1). `Loss of capacity to negative SEI [A.h]` is the same times
  F / 3600. 0 in the plating cases without SEI.
- Plating cases: `{plating_lithium}`: `(c_plated,avg + c_dead,avg) V_n`,
  the plated and dead lithium (volume averages [mol/m^3]) times the
  negative electrode's volume, from t = 0 (initially 0);
  `{plating_capacity}` the same times F / 3600.
- `Total lithium lost [mol]`: lithium at t = 0 (particles + electrolyte)
  minus now; `... from particles`, `... from electrolyte` split it;
  `Total lithium lost to side reactions [mol]`: the sum of the SEI, SEI on
  cracks and plating losses. In these runs `Total lithium lost [mol]`
  equals the SEI loss (SEI cases) or the SEI + plating loss (plating cases)
  to the solver tolerance (largest difference in `<case>_info.json`,
  `checks`).
- `Total lithium ...`: moles now in the particles, electrolyte, each
  electrode; `Negative electrode capacity [A.h]`, `Positive electrode
  capacity [A.h]`: the electrodes' full stoichiometric capacities (they do
  not change in the SEI and plating cases; in the LAM cases they fall with
  the active material volume fraction).
- `Throughput capacity [A.h]`: integral of |I| / 3600 from t = 0.

Then, from the cycle's own solution (`solution.cycles[k]`):

- `Cycle start time [s]`: the cycle's first time in the run.
- `Discharge step capacity [A.h]`: the change of PyBaMM's
  `Discharge capacity [A.h]` (its integral of `Current [A]` / 3600, a state
  of the model, not a sum over rows) over step 0, "Discharge at 1C until
  2.5 V"; `Discharge step duration [s]` its length.
- `Charge capacity [A.h]`: the charge put in by steps 2 and 3 (CC + CV),
  the same way.
- `End of cycle {thickness}`: PyBaMM's `{thickness}` (the SEI thickness
  `L = c_SEI V_bar / a` averaged over the negative electrode) at the
  cycle's last row (0 in the plating cases without SEI).
- `End of cycle {sei_capacity}`: `{sei_capacity}` at the cycle's last row;
  it equals the summary column of that name (difference in `checks`).
- Plating cases: `End of cycle {plating_lithium}`, `End of cycle
  {plating_capacity}` (equal to the summary columns, difference in
  `checks`), `End of cycle {plated}` (reversibly plated lithium, 0 in
  `plating_irreversible`) and `End of cycle {dead}` (dead lithium, 0 in
  `plating_reversible`) at the cycle's last row.
- Lumped cases: `End of cycle {temperature}` and `Maximum in cycle
  {temperature}` over the cycle's rows.

## Columns of `<case>_cycle1.csv` and `<case>_cycle{cycles}.csv`

`Time [s]` from the start of the cycle: PyBaMM's time of the run minus the
cycle's first time (given in the header), in double precision, so the
10 s rows read 9.999999999985448 and the like; `Voltage [V]`, `Current [A]`
(> 0 discharge), `Step` (0-based index into the cycle's 5 steps), and
`{thickness}`, `{sei_capacity}` (from t = 0 of the run),
`{sei_current}` (the SEI reaction's current density per particle surface,
< 0); plating cases also `{plating_lithium}` (from t = 0), `{plated}`,
`{dead}` and `{plating_current}` (the net stripping current density per
particle surface, < 0 while lithium plates); lumped: `{temperature}`.
Rows are PyBaMM's output rows: every {period} s from each step's start (the
experiment's period) and the step's end (root-found termination or end of
its duration); the first row of a step has the time of the previous step's
last row, with the state made consistent under the new control, so current
and voltage jump there.
"""

README_QUIRKS = """
## How PyBaMM {version} models the SEI (from its source, for comparing)

- State: the SEI concentration `c_SEI` [mol/m^3 of electrode] per
  finite-volume cell of the negative electrode ("full electrode" reaction
  location in the DFN), `dc_SEI/dt = -a j_SEI / (F z_SEI)` with `a` the
  surface area per volume and `z_SEI` = "Ratio of lithium moles to SEI
  moles"; thickness `L_SEI = c_SEI V_bar_SEI / a`, initial `L_SEI,0` =
  "Initial SEI thickness [m]". Only the negative electrode grows SEI (the
  resolved "SEI" option is `["<option>", "none"]`, negative and positive).
- Reaction limited: `j_SEI = -j0_SEI exp(-0.5 F eta_SEI / (R T))` with
  `eta_SEI = (phi_s - phi_e) - U_SEI - j L_SEI R_SEI`, where `j` is the
  **intercalation** current density of the main reaction ("Negative
  electrode interfacial current density [A.m-2]", not the total including
  j_SEI) and `R_SEI` = "SEI resistivity [Ohm.m]". That film term is in
  eta_SEI **whatever "SEI film resistance" says**: `"none"` removes the
  film drop only from the intercalation reaction's overpotential.
- "SEI film resistance" = `"distributed"` (the default once an SEI option is
  set) puts `-j_tot L_SEI R_SEI` into the intercalation overpotential, with
  `j_tot` = intercalation + SEI (+ plating) current density as an algebraic
  state ("total interfacial current density as a state" = "true").
- Solvent-diffusion limited: `j_SEI = -D_sol c_sol F / L_SEI`;
  interstitial-diffusion limited: `j_SEI = -(D_li c_li,0 F / L_SEI)
  exp(-F (phi_s - phi_e) / (R T))`; EC reaction limited: `j_SEI = -F c_EC,0
  k / (1 + L_SEI k / D_EC)` with `k = k_SEI exp(-0.5 F eta_SEI / (R T))`
  (eta_SEI as above).
- Every option is multiplied by `exp(E_SEI / R (1 / T_ref - 1 / T))`,
  `T_ref` = "Reference temperature [K]" (298.15 K); Chen2020's
  "SEI growth activation energy [J.mol-1]" is 0, OKane2022's 38000.
- Summary variables are taken at each cycle's last state; "Capacity [A.h]"
  comes from the eSOH calculation (above), not from the cycling.

## How PyBaMM {version} models lithium plating (from its source)

- States per finite-volume cell of the negative electrode: the plated
  lithium `c_Li` and the dead lithium `c_dead` [mol/m^3 of electrode],
  both initially `Initial plated lithium concentration [mol.m-3]` (0) and 0.
- Net stripping current density (per particle surface, > 0 stripping):
  `j_str = j0_str exp(F (1 - alpha) eta / (R T)) - j0_pl exp(-F alpha eta
  / (R T))` with `eta = (phi_s - phi_e) + eta_film`, the lithium-metal
  open-circuit potential 0 V, `alpha` = "Lithium plating transfer
  coefficient" (0.65, the plating one; stripping `1 - alpha`),
  `j0_pl = F k c_e`, `j0_str = F k c_Li` (OKane2022's functions of
  "Lithium plating kinetic rate constant [m.s-1]" `k`; no Arrhenius
  factor). "irreversible": `j_str = -j0_pl exp(-F alpha eta / (R T))` (no
  stripping).
- `eta_film` is the SEI film overpotential of the intercalation reaction:
  `-j_tot L_SEI R_SEI` with "SEI film resistance" = "distributed" (every
  plating case with SEI here; `j_tot` includes the plating current), 0
  with "none" (the plating cases without SEI).
- Reversible: `dc_Li/dt = -a j_str / F`, `c_dead` stays 0; irreversible:
  `dc_dead/dt = -a j_str / F`, `c_Li` stays 0; partially reversible:
  `dc_Li/dt = -a j_str / F - g c_Li`, `dc_dead/dt = g c_Li` with `g` =
  "Dead lithium decay rate [s-1]" = OKane2022's `gamma_0 L_SEI,0 / L_SEI`
  (`gamma_0` = "Dead lithium decay constant [s-1]").
- The plating current enters the electrode's charge balance with the
  intercalation and SEI currents (their sum is what the electrolyte and
  solid carry).
"""


def file_rows(entries_, parameter_files):
    rows = []
    for case, e in entries_.items():
        if e.get("cycles_completed", 0) < 1:
            rows.append(
                (
                    f"{case}_info.json",
                    "the failed case's options and " "PyBaMM's error",
                )
            )
            continue
        last = e["cycles_completed"]
        rows += [
            (f"{case}_summary.csv", f"{e['description']}: one row per cycle"),
            (f"{case}_cycle1.csv", "cycle 1's rows"),
            (f"{case}_cycle{last}.csv", f"cycle {last}'s rows"),
            (
                f"{case}_info.json",
                "options (asked, resolved), parameter "
                "changes, step terminations per cycle, checks, initial-state "
                "summary, solve wall time (differs run to run)",
            ),
        ]
    words = {
        "sei": "Chen2020's SEI parameters and those each SEI case needs "
        "beyond the SEI-free DFN, with values; every SEI case's resolved "
        "options",
        "plating": "OKane2022's plating, dead-lithium and SEI parameters, "
        "the temperatures, those each plating case needs beyond the "
        "plating- and SEI-free DFN, with values; every OKane2022 parameter "
        "that differs from Chen2020; every plating case's resolved options",
        "lam": "OKane2022's mechanics, LAM, SEI and plating parameters, the "
        "temperatures, those each LAM case needs beyond the DFN without SEI, "
        "plating, mechanics and LAM, with values; each LAM case's parameter "
        "changes and resolved options",
    }
    rows += [
        (FAMILIES[family]["parameters_file"], words[family])
        for family in parameter_files
    ]
    rows.append(("README.md", "this file"))
    return rows


def case_rows(entries_):
    rows = [
        "| case | options asked | resolved SEI film resistance / lithium "
        "plating / thermal | parameter changes | cycles | solve wall time "
        "[s] |",
        "|" + "---|" * 6,
    ]
    for case, e in entries_.items():
        o = e["resolved_options"]
        plating = o.get("lithium plating", "none")
        if isinstance(plating, list):
            plating = plating[0]
        changes = (
            "; ".join(
                f"`{n}` {c['used']:g} ({c['how']})"
                for n, c in e["parameter_changes"].items()
            )
            or "-"
        )
        cycles = str(e.get("cycles_completed", 0))
        if "error" in e:
            cycles += f" (error: {e['error'][:200]})"
        rows.append(
            f"| `{case}` | `{json.dumps(e['options'])}` | "
            f"{o['SEI film resistance']} / {plating} / {o['thermal']} | "
            f"{changes} | {cycles} | {e['solve_wall_s']:.1f} |"
        )
    return rows


def checks_passed(e):
    return (
        "yes"
        if all(v for v in e["checks"].values() if isinstance(v, bool))
        else "NO"
    )


def result_rows(entries_):
    rows = []
    for case, e in entries_.items():
        if "per_cycle" not in e or not case.startswith("sei_"):
            continue
        p = e["per_cycle"]
        c0 = e["initial_state_summary"]["Capacity [A.h]"]
        cap = p["Capacity [A.h]"]
        li = p[SEI_LITHIUM]
        q = p["Discharge step capacity [A.h]"]
        L = p["End of cycle " + THICKNESS]
        q2 = q[min(1, len(q) - 1)]
        rows.append(
            f"| `{case}` | {c0:.6f} | {cap[0]:.6f} | {cap[-1]:.6f} | "
            f"{li[0]:.4e} | {li[-1]:.4e} | {q[0]:.5f} | {q2:.5f} | "
            f"{q[-1]:.5f} | {1e9 * L[0]:.4f} | {1e9 * L[-1]:.4f} | "
            f"{checks_passed(e)} |"
        )
    return rows


def plating_result_rows(entries_):
    rows = []
    for case, e in entries_.items():
        if "per_cycle" not in e or not case.startswith("plating_"):
            continue
        p = e["per_cycle"]
        c0 = e["initial_state_summary"]["Capacity [A.h]"]
        cap = p["Capacity [A.h]"]
        li = p[PLATING_LITHIUM]
        sei = p[SEI_LITHIUM]
        q = p["Discharge step capacity [A.h]"]
        q2 = q[min(1, len(q) - 1)]
        plated = p["End of cycle " + PLATED]
        dead = p["End of cycle " + DEAD]
        share = e["checks"][
            "lithium_lost_to_plating_last_cycle_over_cyclable_lithium_t0"
        ]
        rows.append(
            f"| `{case}` | {c0:.6f} | {cap[0]:.6f} | {cap[-1]:.6f} | "
            f"{li[0]:.4e} | {li[-1]:.4e} | {share:.3e} | {plated[-1]:.4g} | "
            f"{dead[-1]:.4g} | {sei[-1]:.4e} | {q[0]:.5f} | {q2:.5f} | "
            f"{q[-1]:.5f} | {checks_passed(e)} |"
        )
    return rows


def parameter_lines(sei):
    """The SEI parameters as a table, then what was missing or not run."""
    lines = [
        "",
        "## SEI parameters (Chen2020 in PyBaMM "
        f"{sei['generator']['pybamm_version']}, `sei_parameters.json`)",
        "",
        'Every Chen2020 parameter whose name holds "SEI", and every '
        "parameter that one of the SEI cases' models uses and the SEI-free "
        "DFN (same thermal option) does not (`needed_beyond_sei_free_dfn` "
        "lists them per case). Values as in Chen2020; the cases' changes are "
        "in the Cases table.",
        "",
        "| parameter | value | used by |",
        "|---|---|---|",
    ]
    lines += used_by_rows(sei["values"], sei["needed_beyond_sei_free_dfn"])
    missing = sei["needed_but_missing_from_chen2020"]
    lines += [
        "",
        "Missing from Chen2020: "
        + (
            "; ".join(f"`{c}`: {', '.join(m)}" for c, m in missing.items())
            if missing
            else "nothing: Chen2020 holds every parameter these cases need "
            "(no value was invented)."
        ),
        "",
        "SEI options PyBaMM offers but no case runs (not asked for): "
        + ", ".join(f'`"{o}"`' for o in sei["sei_options_not_run"])
        + ".",
    ]
    return lines


def value_words(value):
    """A parameters file's value for a table: the number, or the function's
    name (and "interpolant" where it is one)."""
    if not isinstance(value, dict):
        return repr(value)
    words = f"function `{value['function']}`"
    if "interpolant" in value:
        words += (
            f" ({value['interpolant']['interpolator']} interpolant of "
            f"{len(value['interpolant']['y'])} points)"
        )
    if value.get("same_name_different_definition"):
        words += ", same name, other definition"
    return words


def used_by_rows(values, needed, inside=None, changed=None, plain=()):
    """Table rows: parameter, value, the cases that need it (directly or
    inside a function parameter they need); `plain` ones are read by every
    DFN, `changed` ones (the temperatures) also set by every case."""
    inside = inside or {}
    changed = changed or {}
    rows = []
    for name, value in values.items():
        users = [
            case
            for case, names in needed.items()
            if name in names or any(name in inside.get(f, ()) for f in names)
        ]
        used = (
            "all cases"
            if len(users) == len(needed)
            else ", ".join(f"`{c}`" for c in users) or "none of these cases"
        )
        words = value_words(value)
        if name in plain:
            used = "every DFN (all cases)"
        if name in changed:
            words += f" (every case: {changed[name]['used']:g})"
        rows.append(f"| `{name}` | {words} | {used} |")
    return rows


def plating_parameter_lines(plating):
    """The plating parameters, then what OKane2022 changes from Chen2020."""
    own = PLATING_PARAMETER_SET.lower()
    needed = plating["needed_beyond_plating_and_sei_free_dfn"]
    diff = plating[f"{own}_vs_{PARAMETER_SET.lower()}"]
    missing = plating[f"needed_but_missing_from_{own}"]
    lines = [
        "",
        "## Plating parameters (OKane2022 in PyBaMM "
        f"{plating['generator']['pybamm_version']}, "
        "`plating_parameters.json`)",
        "",
        'Every OKane2022 parameter whose name holds "plating", "plated", '
        '"Lithium metal", "dead lithium" or "SEI", the temperatures, and '
        "every parameter that one of the plating cases' models uses and the "
        "DFN without SEI and plating (same thermal option) does not "
        "(`needed_beyond_plating_and_sei_free_dfn`, per case; a parameter "
        "read inside a function parameter counts for the cases that need "
        "the function: `parameters_inside_functions`). Values as in "
        "OKane2022; the plating cases set both temperatures to "
        f"{PLATING_TEMPERATURE_K:g} K (`changes_in_every_plating_case`).",
        "",
        "| parameter | value | used by |",
        "|---|---|---|",
        *used_by_rows(
            plating["values"],
            needed,
            plating["parameters_inside_functions"],
            plating["changes_in_every_plating_case"],
            plating["read_by_plain_dfn"],
        ),
        "",
        "Missing from OKane2022: "
        + (
            "; ".join(f"`{c}`: {', '.join(m)}" for c, m in missing.items())
            if missing
            else "nothing (no value was invented)."
        ),
        "",
        "Plating options PyBaMM offers but no case runs: "
        + ", ".join(f'`"{o}"`' for o in plating["plating_options_not_run"])
        + ".",
        "",
        "### OKane2022 against Chen2020",
        "",
        "Parameters in both whose values differ (a function is compared by "
        "name, and by its code where the names agree):",
        "",
        "| parameter | OKane2022 | Chen2020 |",
        "|---|---|---|",
    ]
    lines += [
        f"| `{n}` | {value_words(v[own])} | "
        f"{value_words(v[PARAMETER_SET.lower()])} |"
        for n, v in diff["differ"].items()
    ]
    only = diff[f"only_in_{own}"]
    lines += [
        "",
        f"Only in OKane2022 ({len(only)}): "
        + ", ".join(f"`{n}`" for n in only)
        + ". Only in Chen2020: "
        + (
            ", ".join(
                f"`{n}`" for n in diff[f"only_in_{PARAMETER_SET.lower()}"]
            )
            or "none"
        )
        + ".",
    ]
    return lines


def film_lines(entries_):
    """How the film-resistance option changed the fast case's growth."""
    a = entries_.get("sei_reaction_limited_fast", {}).get("per_cycle")
    b = entries_.get("sei_reaction_limited_fast_nofilm", {}).get("per_cycle")
    if not a or not b:
        return []
    la, lb = a[SEI_LITHIUM][-1], b[SEI_LITHIUM][-1]
    return [
        "",
        f'Film resistance: with "distributed" the fast case loses {la:.4e} '
        f'mol of lithium to SEI in {CYCLES} cycles, with "none" {lb:.4e} mol '
        f"({100 * (la / lb - 1):+.1f}% with the film). In PyBaMM the SEI "
        "reaction's eta_SEI carries the film term `-j L_SEI R_SEI` in both "
        '(see below); "none" drops it only from the intercalation '
        'overpotential. With "distributed" both reactions see the film, so '
        "the lower phi_s - phi_e needed to charge through it (j_tot < 0) "
        "and the `-j L_SEI R_SEI` > 0 in eta_SEI about cancel (j_tot ~ j); "
        'with "none" phi_s - phi_e is not lowered, so while charging the '
        "film term raises eta_SEI and the SEI grows more slowly.",
    ]


def failure_lines(entries_):
    failed = {c: e for c, e in entries_.items() if "error" in e}
    if not failed:
        return [
            "",
            "Every case ran all its cycles; PyBaMM raised no error "
            "(step terminations of every cycle in `<case>_info.json`).",
        ]
    lines = ["", "Cases PyBaMM could not run (error as PyBaMM gave it):", ""]
    lines += [f"- `{c}`: `{e['error']}`" for c, e in failed.items()]
    return lines


def plating_setup_lines(entries_, plating):
    """The plating cases' set-up, with the figures that justify it."""
    done = {
        c: e
        for c, e in entries_.items()
        if c.startswith("plating_") and "checks" in e
    }
    if not done or plating is None:
        return []
    key = "lithium_lost_to_plating_last_cycle_over_cyclable_lithium_t0"
    shares = [e["checks"][key] for e in done.values()]
    others = {
        c: len(e["per_cycle"]["Capacity [A.h]"])
        for c, e in done.items()
        if len(e["per_cycle"]["Capacity [A.h]"]) != PLATING_CYCLES
    }
    cycles_words = str(PLATING_CYCLES) + (
        " (" + ", ".join(f"`{c}`: {n}" for c, n in others.items()) + ")"
        if others
        else ""
    )
    porous = porosity_cases(done)
    first = [
        e["per_cycle"]["Discharge step capacity [A.h]"][0]
        for e in done.values()
    ]
    differ = plating[
        f"{PLATING_PARAMETER_SET.lower()}_vs_" f"{PARAMETER_SET.lower()}"
    ]["differ"]
    return [
        README_PLATING.format(
            differ=", ".join(f"`{n}`" for n in differ),
            temperature=PLATING_TEMPERATURE_K,
            cycles=PLATING_CYCLES,
            cycles_words=cycles_words,
            but=(
                " but " + ", ".join(f"`{c}`" for c in porous) if porous else ""
            ),
            porosity_words=(
                ";\n  " + ", ".join(f"`{c}`" for c in porous) + " passes "
                'both "true"\n  (porosity-change cases, below)'
                if porous
                else ""
            ),
            low=min(shares),
            high=max(shares),
            protocol=", ".join(f'"{s}"' for s in PLATING_PROTOCOL),
            period=PERIOD_S,
            first_discharge=f"{min(first):.3f} to {max(first):.3f}",
        ).rstrip("\n")
    ]


README_LAM = """
## Loss-of-active-material cases (`lam_*`)

- Parameter set `OKane2022` (`pybamm.ParameterValues("OKane2022")`), which
  holds the mechanics and LAM parameters (`lam_parameters.json`, `values`;
  table at the end).
- Temperature: OKane2022's own **{temperature:g} K** (`Ambient temperature
  [K]`, `Initial temperature [K]` and `Reference temperature [K]`; not
  changed). The plating family's 268.15 K is not needed: stress-driven LAM
  needs no plating, and the coupled case is OKane2022's own set-up. At
  298.15 K `lam_okane2022_coupled` still plates, mostly in its first
  charge ({coupled_plating}).
- Initial state: OKane2022's own (no `initial_soc`), active material volume
  fractions 0.75 (negative) and 0.665 (positive), SEI 5 nm where the case
  has SEI, no plated lithium.
- Experiment: the plating family's, `pybamm.Experiment([{protocol}] * N,
  period="{period} seconds")`, 1C = 5 A, with N per case below ("cycles").
- OKane2022's own LAM constants are used unchanged ("LAM constant
  proportional term [s-1]" 2.7778e-07 = 1e-3 per hour, exponent 2, critical
  stress 60 MPa negative and 375 MPa positive). With them stress-driven LAM
  is small but clearly visible: {stress_words}.
- `lam_reaction`: OKane2022's "Negative electrode reaction-driven LAM factor
  [m3.mol-1]" is 0; it is set to **{factor:g}**, so that the negative
  electrode loses about 1 % of its active material over the 15 cycles
  ({reaction_words}).
- `lam_okane2022_coupled` passes `"lithium plating porosity change":
  "false"` and `"SEI porosity change": "false"` explicitly, as the plating
  cases do (PyBaMM's defaults), and PyBaMM's default "SEI film resistance"
  for SEI, "distributed"{coupled_porosity_words}.
- Every stress-driven case ({mechanics_cases}) turns on particle
  mechanics: PyBaMM resolves "particle mechanics" to "swelling only" on
  **both** electrodes (`lam_stress_negative` too), and its default once
  mechanics is on is "stress-induced diffusion": "true", which multiplies
  the particle diffusivity by `1 + theta_M (c - c_0)` (below; voltaic
  models it too, docs/theory.md §2.13). Each of these cases passes
  the option **explicitly**, with a note saying why (`option_notes` in
  `<case>_info.json` and the CSV headers; resolved options in the table
  below and `lam_parameters.json`; the script stops if a case with
  mechanics passes none):
  - **"false"**, to test the stress-driven loss alone: {off_cases}.
  - **"true"** (PyBaMM's default) kept: {kept_cases}.
    With "false" (tried with PyBaMM 26.10.1.1, both cases alike)
    OKane2022's positive
    electrode, whose diffusivity "true" multiplies by `1 + theta_M c` =
    110 to 350 (theta_M = 6.6e-3 m^3/mol from its Omega, E and nu at
    298.15 K, c = 17,000 to 54,000 mol/m^3 over a cycle; the negative's
    theta_M is 1.8e-5 m^3/mol, a factor up to ~1.6), reaches X-averaged
    surface tangential stresses of ~11 GPa at 1C (54 MPa with "true",
    critical stress 375 MPa), and its stress-driven LAM runs away: LAM_p
    33 % after cycle 1, 92 % after cycle 2 and 98-100 % in cycle 3 (eSOH
    capacity 4.30, then 0.50 A.h, then about 0), and IDA fails in cycle 3
    (`lam_okane2022_coupled`, error test) or 4 (`lam_stress`, convergence
    test). These cases lose positive active material. `lam_stress_negative`
    loses only negative active material (the positive stress is an output
    there), so it runs with "false".
  {no_mechanics_words}
- Summary columns of the LAM cases: those of the plating cases plus
  `{lam_n}` and `{lam_p}` (PyBaMM's summary variables), then, from the
  cycle's own solution, `{min_voltage}` (the least `Battery voltage [V]`
  over the cycle's output rows, as PyBaMM's experiment log computes it) and,
  at the cycle's last row, `End of cycle {lli_n}`, `End of cycle {lli_p}`,
  `End of cycle {eps_n}` and `End of cycle {eps_p}`. The SEI columns are
  left out where the case has no SEI and the plating columns where it has
  no plating (they would be 0).
- Curve columns (`<case>_cycle1.csv`, `<case>_cycle<last>.csv`, last =
  the case's cycle count): time, voltage, current, step as in the other
  families, the SEI and plating columns where the case has them, and
  `{stress_n}`, `{stress_p}` (where the case has particle mechanics),
  `{eps_n}`, `{eps_p}`, `{lli_n}` and `{lli_p}` (these two from t = 0 of
  the run). The x-averaged stress is the mean over the electrode's cells of
  the local stress; the LAM rate uses the local one.
- Curve rows are **thinned** so that each case's four files (summary, the
  two curves, the info json) total at most {budget} bytes: of each step's
  output rows (every {period} s from the step's start, then the step's
  end) a curve keeps every s-th from the step's first (every s x {period} s
  from the step's start) and **always each step's first and last rows**
  (the control change and the root-found end). The stride s is the
  smallest that fits (the info json counted at its own size), but never
  one that leaves a curve fewer than {min_rows} rows; s = 1 keeps every
  output row. The stride, rows kept of the output rows and the bytes are
  in the CSV headers and `<case>_info.json` (`curve_files`), and below.
  Thinning only drops rows: the kept ones are PyBaMM's output rows
  unchanged. A comparison that interpolates the curve (voltage RMS at
  voltaic's times) sees a linear interpolation over at most s x {period} s.

{option_rows}

Wall time: `Simulation.solve` (set-up, discretisation and the cycles) and
the whole case (with the summary, eSOH at t = 0 and the files), on one core
(`solve_wall_s`, `case_wall_s` in `<case>_info.json`, with `host_cpu`).
"""

README_LAM_QUIRKS = """
## How PyBaMM {version} models loss of active material (from its source)

From `pybamm/models/submodels/active_material/loss_active_material.py`,
`base_active_material.py`, `particle_mechanics/base_mechanics.py`,
`swelling_only.py`, `particle/base_particle.py`, `interface/sei/*.py` and
`transport_efficiency/bruggeman.py`; checked against these runs where
noted. In the DFN every quantity below is per finite-volume cell of the
electrode (the "x-averaged" variables are only outputs).

- State: the active material volume fraction `eps_s` of each cell of an
  electrode with LAM (a constant, the parameter, otherwise), initially
  "... electrode active material volume fraction" (OKane2022 0.75 / 0.665),
  `d eps_s / dt = (stress term) + (reaction term)`.
- Particle mechanics ("swelling only", Ai2019), each cell and electrode:
  `c_avg` = "R-averaged ... particle concentration [mol.m-3]", the
  **volume (r^2-weighted) average** over the particle's finite volumes,
  `sum_i c_i (r_(i+1/2)^3 - r_(i-1/2)^3) / R^3` (checked on a run to
  4e-12 mol/m^3; not the plain mean of the cells); `c_surf` the particle's
  surface concentration. Surface stresses:
  radial `sigma_r = 0`, tangential
  **`sigma_t = Omega E (c_avg - c_surf) / (3 (1 - nu))`**
  (checked on a run), with `Omega` = "... partial molar volume
  [m3.mol-1]" and `E` = "... Young's modulus [Pa]" (functions of
  stoichiometry and T, r-averaged over the particle; OKane2022's are
  constants), `nu` = "... Poisson's ratio". `sigma_t > 0` (tension) where
  the surface is emptier than the mean: the negative electrode while it
  delithiates (discharge), the positive while charging. PyBaMM cites
  Ai2019 eq. [8] at r = R; the 1/3 is PyBaMM's (its comment: "c_s_rav is
  already multiplied by 3/R^3 inside r_average"). Surface displacement
  `Omega R (c_avg - c_0) / 3`, `c_0` = "... reference concentration for
  free of deformation [mol.m-3]" (0 in OKane2022; used only there and in
  stress-induced diffusion); electrode thickness change from "... volume
  change" (outputs only).
- Stress-driven LAM ("stress-driven"): hydrostatic surface stress
  `sigma_h = (sigma_r + 2 sigma_t) / 3 = 2 sigma_t / 3`; only its tensile
  part counts: **`d eps_s / dt = -beta(T) (max(sigma_h, 0) / sigma_c)^m`**
  with `beta` = "... LAM constant proportional term [s-1]" (a function of
  T; OKane2022 2.7778e-07), `m` = "... LAM constant exponential term" (2),
  `sigma_c` = "... critical stress [Pa]". ("asymmetric stress-driven" adds
  a compressive term; not run.)
- Reaction-driven LAM ("reaction-driven"): **`d eps_s / dt = beta_SEI a
  j_SEI / F`** with `beta_SEI` = "... reaction-driven LAM factor
  [m3.mol-1]" and `a j_SEI` the SEI's volumetric current density [A/m^3]
  (< 0 while SEI grows), so `eps_s` falls by `beta_SEI` times the lithium
  the SEI has taken per unit electrode volume: LAM_n [%] = 100 `beta_SEI
  n_Li,SEI / (V_n eps_s,0)` when eps_s,0 is uniform (`lam_reaction`:
  agrees to {reaction_diff} %, `checks`). "stress and reaction-driven" adds
  both.
- Where `eps_s` enters: the **surface area per volume `a = 3 eps_s / R`**
  (spherical, one size; checked), so every volumetric current (the
  intercalation `a j`, the SEI's `a j_SEI`, plating's `a j_str`) uses the
  falling `a` and the same cell current needs a larger `j` per particle
  surface; the electrode capacity `Q_k = x_avg(eps_s) L_k L_y L_z c_max F
  / 3600` (the eSOH `Q_n`, `Q_p`); the lithium in the particles
  `x_avg(eps_s c_avg) L_k L_y L_z`. It does **not** enter the porosity (the
  lost particles' volume does not become pore), so without a porosity
  change the electrolyte's transport efficiency
  `porosity^b_e` and the **electrode's `(1 - porosity)^b_s`** (Bruggeman,
  "... Bruggeman coefficient (electrode)" 1.5: 0.75^1.5 = 0.6495 in the
  OKane2022 negative, checked) stay at their initial values; in OKane2022
  `1 - porosity` equals `eps_s,0` (0.75 / 0.665) only at t = 0. Nor does it
  enter the particle diffusion equation (per particle). (With "SEI porosity
  change", `lam_okane2022_coupled_porosity`, the porosity falls with the
  SEI and plated films, and the falling `a` enters that: see the
  porosity-change section.)
- LAM [%]: `(1 - Q_k / Q_k(t=0)) x 100 = (1 - x_avg(eps_s) /
  x_avg(eps_s,0)) x 100` ("Loss of active material in ... electrode [%]",
  a summary variable).
- Loss of lithium due to LAM: a state per electrode, from 0,
  **`d n_LAM / dt = -L_k L_y L_z x_avg(c_avg d eps_s / dt)`** (Sulzer 2021
  eq. 37), `c_avg` the R-averaged (volume-averaged) particle concentration
  of each cell: the lithium in the lost particles. The lithium balance
  `Total lithium lost = side reactions (SEI, plating) + n_LAM,n + n_LAM,p`
  holds in these runs to {balance} mol at most (`checks`,
  `max_abs_diff_total_lost_vs_side_reactions_plus_lam_mol`: the solver's
  tolerance on the integrated states); "Loss of lithium inventory [%]"
  (particles) includes it.
- SEI with LAM: the state is the SEI concentration per electrode volume
  `c_SEI` [mol/m^3], grown by `dc_SEI/dt = -a j_SEI / (F z_SEI)` (with the
  falling `a`), initially `L_SEI,0 a_typ / V_bar` with `a_typ = 3
  x_avg(eps_s,0) / R`. LAM does not remove SEI: `c_SEI` is unchanged when
  `eps_s` falls, and the thickness `L_SEI = c_SEI V_bar / a = c_SEI V_bar
  R / (3 eps_s)` **grows as eps_s falls** (the same SEI on less surface).
  That thicker film enters the film resistance `L_SEI R_SEI` (with
  "distributed"), the solvent-diffusion limited rate `j_SEI = -D_sol c_sol
  F / L_SEI` and OKane2022's dead-lithium decay rate `gamma_0 L_SEI,0 /
  L_SEI`. `Loss of lithium to negative SEI [mol]` = `(x_avg(c_SEI) -
  c_SEI,0) V_n z_SEI` does not change with eps_s.
- Stress-induced diffusion (PyBaMM's default "true" once particle
  mechanics is on; passed explicitly by each case with mechanics, "false"
  where PyBaMM can run without it, since voltaic does not model it; see
  above): `D_eff = D (1 + theta_M (c - c_0))`,
  `theta_M = Omega / (R_g T) x 2 Omega E / (9 (1 - nu))` (Ai2019 eq. [12]),
  in the particle flux and its surface condition. With "false" the
  particle diffusivity is the parameter's `D(c, T)` and the stresses only
  drive LAM (and the outputs).
"""


def lam_option_rows(entries_):
    rows = []
    for case, e in entries_.items():
        if not case.startswith("lam_"):
            continue
        o = e["resolved_options"]

        def pair(name):
            v = o.get(name, "none")
            return " / ".join(v) if isinstance(v, list) else v

        sei = pair("SEI")
        if sei != "none":
            sei += f" / {o['SEI film resistance']}"
        cycles = str(e.get("cycles_completed", 0))
        if "error" in e:
            cycles += f" (error: {e['error'][:200]})"
        curves = e.get("curve_files")
        if curves is None:
            thinning = "- | -"
        else:
            kept = " / ".join(
                f"{curves['rows'][k]} of {curves['output_rows'][k]}"
                for k in curves["rows"]
            )
            thinning = f"{curves['stride']} | {kept}"
        rows.append(
            f"| `{case}` | {pair('loss of active material')} | "
            f"{pair('particle mechanics')} / "
            f"{pair('stress-induced diffusion')} | {sei} | "
            f"{pair('lithium plating')} | {cycles} | "
            f"{e['solve_wall_s']:.1f} | {e.get('case_wall_s', 0.0):.1f} | "
            f"{thinning} | {e.get('file_bytes', 0)} |"
        )
    return rows


def has_mechanics(entry):
    value = entry["resolved_options"].get("particle mechanics", "none")
    values = value if isinstance(value, list) else [value]
    return any(v != "none" for v in values)


def lam_result_rows(entries_):
    rows = []
    for case, e in entries_.items():
        if "per_cycle" not in e or not case.startswith("lam_"):
            continue
        p = e["per_cycle"]
        c0 = e["initial_state_summary"]["Capacity [A.h]"]
        cap = p["Capacity [A.h]"]
        q = p["Discharge step capacity [A.h]"]
        q2 = q[min(1, len(q) - 1)]
        sei = p.get(SEI_LITHIUM)
        plating = p.get(PLATING_LITHIUM)
        rows.append(
            f"| `{case}` | {len(cap)} | {c0:.6f} | {cap[-1]:.6f} | "
            f"{100 * (1 - cap[-1] / c0):.4f} | {p[LAM_N][-1]:.5f} | "
            f"{p[LAM_P][-1]:.5f} | {p['End of cycle ' + LLI_LAM_N][-1]:.4e} | "
            f"{p['End of cycle ' + LLI_LAM_P][-1]:.4e} | "
            f"{p['Loss of lithium inventory [%]'][-1]:.4f} | "
            + (f"{sei[-1]:.4e}" if sei else "-")
            + " | "
            + (f"{plating[-1]:.4e}" if plating else "-")
            + f" | {q[0]:.5f} | {q2:.5f} | {q[-1]:.5f} | "
            f"{p[MIN_VOLTAGE][-1]:.4f} | {checks_passed(e)} |"
        )
    return rows


def lam_setup_lines(entries_):
    """The LAM cases' set-up, with the figures that justify it."""
    done = {
        c: e
        for c, e in entries_.items()
        if c.startswith("lam_") and "per_cycle" in e
    }
    if not done:
        return []
    stress = done.get("lam_stress")
    stress_words = "see the headline numbers"
    if stress is not None:
        n = len(stress["per_cycle"][LAM_N])
        stress_words = (
            f"`lam_stress` loses {stress['per_cycle'][LAM_N][-1]:.4f} % "
            f"(negative) and {stress['per_cycle'][LAM_P][-1]:.4f} % "
            f"(positive) of its active material in {n} cycles, growing "
            "every cycle"
        )
    reaction = done.get("lam_reaction")
    reaction_words = "LAM_n [%] = 100 beta n_Li,SEI / (V_n eps_s,0)"
    if reaction is not None:
        reaction_words = (
            f"{reaction['per_cycle'][LAM_N][-1]:.3f} % after "
            f"{len(reaction['per_cycle'][LAM_N])} cycles; LAM_n [%] = 100 "
            "beta n_Li,SEI / (V_n eps_s,0), with n_Li,SEI the lithium lost "
            "to SEI"
        )
    lam_entries = {c: e for c, e in entries_.items() if c.startswith("lam_")}
    mechanics = [c for c, e in lam_entries.items() if has_mechanics(e)]
    sid = {c: lam_entries[c]["resolved_options"].get(SID) for c in mechanics}
    without = [c for c in lam_entries if c not in mechanics]
    no_mechanics_words = (
        " and ".join(f"`{c}`" for c in without)
        + (" has" if len(without) == 1 else " have")
        + ' no particle mechanics and resolves to "stress-induced '
        'diffusion": "false" by itself (nothing passed).'
        if without
        else ""
    )
    porous = porosity_cases(done)
    coupled_porosity_words = (
        ";\n  "
        + ", ".join(f"`{c}`" for c in porous)
        + ' passes both "true"\n  (OKane2022\'s own set-up; porosity-change '
        "cases, below)"
        if porous
        else ""
    )
    coupled = done.get("lam_okane2022_coupled")
    coupled_plating = "`lam_okane2022_coupled` not run"
    if coupled is not None:
        key = "lithium_lost_to_plating_last_cycle_over_cyclable_lithium_t0"
        li = coupled["per_cycle"][PLATING_LITHIUM]
        coupled_plating = (
            f"{li[0]:.3e} mol of plated and dead lithium after cycle 1, "
            f"{li[-1]:.3e} mol after the last, "
            f"{coupled['checks'][key]:.2e} of the cyclable lithium"
        )
    return [
        README_LAM.format(
            temperature=LAM_TEMPERATURE_K,
            coupled_plating=coupled_plating,
            coupled_porosity_words=coupled_porosity_words,
            protocol=", ".join(f'"{s}"' for s in LAM_PROTOCOL),
            period=PERIOD_S,
            stress_words=stress_words,
            factor=LAM_REACTION_FACTOR,
            reaction_words=reaction_words,
            lam_n=LAM_N,
            lam_p=LAM_P,
            min_voltage=MIN_VOLTAGE,
            lli_n=LLI_LAM_N,
            lli_p=LLI_LAM_P,
            eps_n=EPS_N,
            eps_p=EPS_P,
            stress_n=STRESS_N,
            stress_p=STRESS_P,
            mechanics_cases=", ".join(f"`{c}`" for c in mechanics),
            off_cases=", ".join(
                f"`{c}`" for c in mechanics if sid[c] == "false"
            )
            or "none",
            kept_cases=", ".join(
                f"`{c}`" for c in mechanics if sid[c] == "true"
            )
            or "none",
            no_mechanics_words=no_mechanics_words,
            budget=LAM_CASE_BYTES,
            min_rows=MIN_CURVE_ROWS,
            option_rows="\n".join(
                [
                    "| case | LAM (negative / positive; one value: both) | "
                    "particle mechanics / stress-induced diffusion | SEI "
                    "(negative / positive) / film resistance | lithium "
                    "plating (negative / positive) | cycles | solve wall "
                    "time [s] | case wall time [s] | curve stride | curve "
                    "rows kept (cycle 1 / last) of output rows | files "
                    "[bytes] |",
                    "|" + "---|" * 11,
                    *lam_option_rows(entries_),
                ]
            ),
        ).rstrip("\n")
    ]


README_POROSITY = """
## Porosity-change cases (`*_porosity`)

- Each is its base case (family, parameter set, temperature, experiment,
  parameter changes) with PyBaMM's `"SEI porosity change": "true"`, and
  `"lithium plating porosity change": "true"` where the case has lithium
  plating:
{pairs}
- The script solves each case a second time, with those options "false"
  (PyBaMM's default, as the base case runs) over the same cycles, in the
  same run, and records what the option changes in `<case>_info.json`,
  `porosity_change` (not written to other files): that solve's per-cycle
  figures (`without_per_cycle`), the relative differences after the last
  cycle (`relative_difference_last_cycle`, with / without - 1), the
  negative porosity at the end, checks and, where the base case's files
  have as many cycles, the largest difference between them and that solve
  (`base_case_vs_without_max_abs_diff`), which is the spread from run to
  run and machine to machine:
{base_words}
- Summary columns added after the family's, at the cycle's last row:
  `End of cycle {eps_x}` and
  `End of cycle {min_over_x}{eps_local}`
  (the least of the electrode's {points} cells). Without the option both
  stay at the initial `{eps_local}` parameter, 0.25 in Chen2020 and
  OKane2022.
- A test must be able to tell with from without: the last cycle's 1C
  discharge capacity (`Discharge step capacity [A.h]`) should differ by at
  least {min_effect:g} %.
{strength}

| case | base case | cycles | Q_dis last with / without [A.h] | Q_dis last [%] | capacity (eSOH) last [%] | SEI Li last [%] | plating Li last [%] | eps_n t=0 | eps_n X-av. end | eps_n min over x end | X-av. porosity vs film volume, max abs | solve wall time with / without [s] |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
{rows}

The [%] columns: (with / without - 1) x 100 after the last cycle; SEI Li,
plating Li: `{sei}`,
`{plating}` (- where the case has none); "vs film volume": the largest
|X-averaged porosity - (eps_0 - V_bar_SEI n_Li,SEI / (z_SEI V_n) -
V_bar_Li n_Li,plating / V_n)| over the cycles' ends, the film-volume form
below; exact only without LAM (`*_lam_changes_a` in `checks` otherwise).
"""

README_POROSITY_QUIRKS = """
## How PyBaMM {version} models the porosity change (from its source)

From `pybamm/models/submodels/porosity/reaction_driven_porosity.py`,
`constant_porosity.py`, `base_porosity.py`,
`full_battery_models/lithium_ion/base_lithium_ion_model.py`
(`set_porosity_submodel`), `interface/sei/sei_thickness.py`,
`interface/lithium_plating/base_plating.py`,
`electrolyte_diffusion/full_diffusion.py`,
`electrolyte_conductivity/full_conductivity.py`,
`transport_efficiency/bruggeman.py` and `electrode/ohm/full_ohm.py`.

- Either option "true" swaps `pybamm.porosity.Constant` for
  `pybamm.porosity.ReactionDriven`; the two options are **not told apart**:
  `ReactionDriven` always counts every film, SEI, SEI on cracks, plated and
  dead lithium, so `"SEI porosity change": "true"` alone also counts
  plated lithium (and the plating option alone the SEI). (The ODE form,
  `ReactionDrivenODE`, `d eps/dt = DeltaV a j / F`, is the lead-acid
  models'; no lithium-ion option selects it.)
- No new state: the porosity is an **algebraic function of the film
  states**, in each finite-volume cell of each electrode (the separator's
  is constant): **`eps = eps_0 - a L_tot`**, `L_tot = (L_SEI - L_SEI,0) +
  L_plated + L_dead + L_SEI,cr (roughness - 1)` (a thin film: no
  curvature), `a` the surface area per volume `3 eps_s / R` of that cell
  (falling with LAM), `eps_0` = "Negative electrode porosity". The
  thicknesses: `L_SEI = c_SEI V_bar_SEI / a` (the same `a`), `L_plated =
  c_plated V_bar_Li / a_typ`, `L_dead = c_dead V_bar_Li / a_typ` with
  `a_typ = 3 x_avg(eps_s,0) / R` (fixed), `V_bar_SEI` =
  "{v_sei}", `V_bar_Li` =
  "{v_li}". So
  **`eps = eps_0 - V_bar_SEI (c_SEI - c_SEI,0) - V_bar_Li (c_plated +
  c_dead)`** where `a` = `a_typ` (no LAM): the films' volume per electrode
  volume, with `c_SEI,0 = L_SEI,0 a_typ / V_bar_SEI` (checked:
  `porosity_change`, `checks`,
  `max_abs_diff_x_averaged_porosity_vs_film_volume`: {film_diff}); with
  LAM `eps = eps_0 - (V_bar_SEI c_SEI - a L_SEI,0) - (a / a_typ) V_bar_Li
  (c_plated + c_dead)`. Termination events: the least porosity of an
  electrode reaching 0, or its largest 1.
- Electrolyte: the state is **"Porosity times concentration [mol.m-3]"**
  `eps c_e` per cell (whatever the option), `d(eps c_e)/dt = -div N_e +
  sum(a j) / F` (every reaction's volumetric current, SEI and plating
  included), initially `eps_0 c_e,0`, and `c_e = (eps c_e) / eps` with the
  current `eps`: as the porosity falls with the same salt, `c_e` rises (no
  separate `c_e d eps/dt` term). `N_e = -eps^b_e D_e(c_e, T) grad c_e +
  t_+ i_e / F` and `i_e = kappa_e(c_e, T) eps^b_e (...)`: the electrolyte
  transport efficiency `eps^b_e` (Bruggeman, "... Bruggeman coefficient
  (electrolyte)" `b_e`) follows the changing porosity.
- Electrode: the solid's transport efficiency **`(1 - eps)^b_s`** also
  follows it: with "... Bruggeman coefficient (electrode)" `b_s` = 1.5
  (OKane2022: the plating and LAM cases) the solid conductivity
  `sigma (1 - eps)^b_s` rises as the pores fill (the film is counted as
  solid); Chen2020's `b_s` is 0 (`sigma` itself), so there
  (`sei_reaction_limited_fast_porosity`) it does not change.
  Electrolyte `b_e` = 1.5 in both.
- Nothing else sees it: `eps_s`, `a`, the particles, the kinetics (but
  through `c_e` and `phi_e`: `j0 ~ c_e^0.5`, plating's `j0_pl = F k c_e`).
"""


def porosity_cases(entries_):
    """The porosity-change cases among these entries."""
    return [c for c, e in entries_.items() if "porosity_change" in e]


def porosity_rows(entries_):
    rows = []
    for case in porosity_cases(entries_):
        e = entries_[case]
        effect = e["porosity_change"]
        relative = effect["relative_difference_last_cycle"]
        eps = effect["negative_electrode_porosity"]
        q = "Discharge step capacity [A.h]"
        film = [
            v
            for k, v in effect["checks"].items()
            if k.startswith("max_abs_diff_x_averaged_porosity_vs_film")
        ]

        def pct(name):
            return f"{100 * relative[name]:+.4f}" if name in relative else "-"

        rows.append(
            f"| `{case}` | `{effect['base_case']}` | "
            f"{e.get('cycles_completed', 0)} | "
            f"{e['per_cycle'][q][-1]:.5f} / "
            f"{effect['without_per_cycle'][q][-1]:.5f} | {pct(q)} | "
            f"{pct('Capacity [A.h]')} | {pct(SEI_LITHIUM)} | "
            f"{pct(PLATING_LITHIUM)} | {eps['initial']:g} | "
            f"{eps['end_of_last_cycle_x_averaged']:.5f} | "
            f"{eps['end_of_last_cycle_minimum_over_x']:.5f} | "
            f"{film[0]:.1e} | {e['solve_wall_s']:.1f} / "
            f"{effect['without_solve_wall_s']:.1f} |"
        )
    return rows


def porosity_lines(entries_):
    """The porosity-change cases' set-up and effects."""
    cases = porosity_cases(entries_)
    if not cases:
        return []
    notes = {
        c: case_specs()[c]["note"]
        for c in cases
        if "note" in case_specs().get(c, {})
    }
    failed = {
        c: [
            k
            for k, v in entries_[c]["porosity_change"]["checks"].items()
            if v is False
        ]
        for c in cases
    }
    strength = "\n".join(f"  - `{c}`: {n}." for c, n in notes.items())
    strength += (
        "\n  - Checks (`porosity_change`, `checks`) not passed: "
        + (
            "; ".join(
                f"`{c}`: " + ", ".join(f"`{k}`" for k in keys)
                for c, keys in failed.items()
                if keys
            )
            or "none"
        )
        + "."
    )
    base_words = []
    q = "Discharge step capacity [A.h]"
    for c in cases:
        effect = entries_[c]["porosity_change"]
        diff = effect.get("base_case_vs_without_max_abs_diff", {})
        base = entries_.get(effect["base_case"], {})
        if q not in diff:
            base_words.append(
                f"  - `{c}`: not compared (`{effect['base_case']}` runs "
                f"{base.get('cycles_completed', 0)} cycles)"
            )
            continue
        hosts = (base.get("host_cpu"), entries_[c].get("host_cpu"))
        base_words.append(
            f"  - `{c}`: {diff[q]:.1e} A.h in `{q}` at most"
            + (
                f" (`{effect['base_case']}` written on an {hosts[0]}, "
                f"this case on an {hosts[1]})"
                if hosts[0] != hosts[1]
                else " (both written on an " + str(hosts[0]) + ")"
            )
        )
    return [
        README_POROSITY.format(
            pairs="\n".join(
                f"  `{c}` (of `{entries_[c]['porosity_change']['base_case']}`)"
                + (";" if i + 1 < len(cases) else ".")
                for i, c in enumerate(cases)
            ),
            base_words="\n".join(base_words),
            eps_x=EPS_N_X,
            eps_local=EPS_N_LOCAL,
            min_over_x=MIN_OVER_X,
            points=POINTS,
            min_effect=100 * POROSITY_MIN_EFFECT,
            strength=strength,
            rows="\n".join(porosity_rows(entries_)),
            sei=SEI_LITHIUM,
            plating=PLATING_LITHIUM,
        ).rstrip("\n")
    ]


def porosity_quirk_text(info, entries_):
    """The porosity equations, with the check that confirms them."""
    diffs = [
        v
        for c in porosity_cases(entries_)
        for k, v in entries_[c]["porosity_change"]["checks"].items()
        if k == "max_abs_diff_x_averaged_porosity_vs_film_volume"
    ]
    return README_POROSITY_QUIRKS.format(
        version=info["pybamm_version"],
        v_sei=V_BAR_SEI,
        v_li=V_BAR_LI,
        film_diff=(
            f"at most {max(diffs):.1e} in the cases without LAM"
            if diffs
            else "not run"
        ),
    ).rstrip("\n")


def lam_quirk_text(info, entries_):
    """The LAM equations, with the figures of the checks that confirm
    them."""
    done = [
        e["checks"]
        for c, e in entries_.items()
        if c.startswith("lam_") and "checks" in e
    ]
    balance = max(
        c["max_abs_diff_total_lost_vs_side_reactions_plus_lam_mol"]
        for c in done
    )
    reaction = [
        c["max_abs_diff_lam_negative_pct_vs_sei_lithium"]
        for c in done
        if "max_abs_diff_lam_negative_pct_vs_sei_lithium" in c
    ]
    return README_LAM_QUIRKS.format(
        version=info["pybamm_version"],
        balance=f"{balance:.1e}",
        reaction_diff=f"{max(reaction):.0e}" if reaction else "(not run)",
    ).rstrip("\n")


def lam_parameter_lines(lam):
    """The LAM family's parameters as a table."""
    own = LAM_PARAMETER_SET.lower()
    needed = lam["needed_beyond_dfn_without_sei_plating_mechanics_lam"]
    missing = lam[f"needed_but_missing_from_{own}"]
    changes = {
        f"`{case}`: `{n}` {c['used']:g} ({c['how']})"
        for case, done in lam["changes_per_case"].items()
        for n, c in done.items()
    }
    return [
        "",
        "## LAM parameters (OKane2022 in PyBaMM "
        f"{lam['generator']['pybamm_version']}, `lam_parameters.json`)",
        "",
        "Every OKane2022 mechanics and LAM parameter (Poisson's ratio, "
        "Young's modulus, partial molar volume, reference concentration for "
        "free of deformation, LAM constants, critical stress, reaction-driven "
        "LAM factor, volume change, thermal expansion), its SEI and plating "
        "parameters, the temperatures, and every parameter that one of the "
        "LAM cases' models uses and the DFN without SEI, plating, mechanics "
        "and LAM (same thermal option) does not "
        "(`needed_beyond_dfn_without_sei_plating_mechanics_lam`, per case; "
        "a parameter read inside a function parameter counts for the cases "
        "that need the function: `parameters_inside_functions`). Values as "
        "in OKane2022; changed by a case: "
        + ("; ".join(sorted(changes)) or "none")
        + ".",
        "",
        "| parameter | value | used by |",
        "|---|---|---|",
        *used_by_rows(
            lam["values"],
            needed,
            lam["parameters_inside_functions"],
            None,
            lam["read_by_plain_dfn"],
        ),
        "",
        "Missing from OKane2022: "
        + (
            "; ".join(f"`{c}`: {', '.join(m)}" for c, m in missing.items())
            if missing
            else "nothing (no value was invented)."
        ),
        "",
        "LAM options PyBaMM offers but no case runs: "
        + ", ".join(f'`"{o}"`' for o in lam["lam_options_not_run"])
        + ".",
    ]


def readme_text(info, entries_, commands, summary_names, parameter_files):
    sei = parameter_files.get("sei")
    plating = parameter_files.get("plating")
    lam = parameter_files.get("lam")
    plating_rows = plating_result_rows(entries_)
    lam_rows = lam_result_rows(entries_)
    parts = [
        README_HEAD.format(
            script=SCRIPT,
            cycles=CYCLES,
            period=PERIOD_S,
            protocol=", ".join(f'"{s}"' for s in PROTOCOL),
            commands="\n".join(f"  `{c}`" for c in commands),
            rtol=info["solver"]["rtol"],
            atol=info["solver"]["atol"],
            **{k: v for k, v in info.items() if k.endswith("_version")},
        ).rstrip("\n"),
        *plating_setup_lines(entries_, plating),
        *lam_setup_lines(entries_),
        README_FILES.format(
            files="\n".join(
                f"| `{n}` | {t} |"
                for n, t in file_rows(entries_, parameter_files)
            )
        ).rstrip("\n"),
        README_CASES.format(rows="\n".join(case_rows(entries_))).rstrip("\n"),
        *failure_lines(entries_),
        "",
        "## Headline numbers: SEI cases",
        "",
        "Capacity: `Capacity [A.h]` (eSOH) at t = 0 and after the first and "
        f"last cycle; SEI Li: `{SEI_LITHIUM}` after "
        "the first and last cycle; Q_dis: `Discharge step capacity [A.h]` of "
        "cycles 1, 2 and the last; L_SEI: end-of-cycle "
        f"`{THICKNESS}` after the first and last cycle, in nm; checks: "
        "capacity falls and L_SEI and SEI Li grow every cycle, SEI Li > 0.",
        "",
        "| case | capacity t=0 | capacity 1 | capacity last | SEI Li 1 "
        "[mol] | SEI Li last [mol] | Q_dis 1 | Q_dis 2 | Q_dis last | "
        "L_SEI 1 [nm] | L_SEI last [nm] | checks |",
        "|" + "---|" * 12,
        *result_rows(entries_),
        *film_lines(entries_),
    ]
    if plating_rows:
        parts += [
            "",
            "## Headline numbers: lithium-plating cases",
            "",
            "Capacity as above; plating Li: "
            f"`{PLATING_LITHIUM}` (plated + dead) after the first and last "
            "cycle, and the last over the cyclable lithium at t = 0 (`Total "
            "lithium in particles [mol]`); c_plated, c_dead: end-of-cycle "
            "X-averaged plated and dead lithium [mol/m^3] after the last "
            "cycle; SEI Li after the last cycle; Q_dis as above; checks: "
            "plating Li > 0 and at least 1e-4 of the cyclable lithium; "
            "where plated lithium dies (not `plating_reversible`) capacity "
            "falls and plating Li and dead lithium grow every cycle; SEI "
            "grows every cycle where there is one. Reversible plating is "
            "stripped in each discharge and replated in each charge: its "
            "end-of-cycle plating Li settles after cycle 2 (largest change "
            "per cycle in `checks`).",
            "",
            "| case | capacity t=0 | capacity 1 | capacity last | plating Li "
            "1 [mol] | plating Li last [mol] | plating Li last / cyclable "
            "Li | c_plated last | c_dead last | SEI Li last [mol] | Q_dis 1 "
            "| Q_dis 2 | Q_dis last | checks |",
            "|" + "---|" * 14,
            *plating_rows,
        ]
    if lam_rows:
        parts += [
            "",
            "## Headline numbers: loss-of-active-material cases",
            "",
            "Capacity: `Capacity [A.h]` (eSOH) at t = 0 and after the last "
            "cycle, and the fade between them [%]; LAM_n, LAM_p: "
            f"`{LAM_N}`, `{LAM_P}` after the last cycle; Li with AM n, p: "
            f"end-of-cycle `{LLI_LAM_N}` and the positive one after the last "
            "cycle; LLI: `Loss of lithium inventory [%]` after the last "
            f"cycle; SEI Li, plating Li: `{SEI_LITHIUM}`, "
            f"`{PLATING_LITHIUM}` after the last cycle (- where the case has "
            "none); Q_dis as above; V_min: the last cycle's "
            f"`{MIN_VOLTAGE}`; checks: capacity falls every cycle; where an "
            "electrode loses active material, its LAM grows, its capacity "
            "falls and the lithium lost with it grows every cycle; SEI and "
            "plating grow every cycle where the case has them.",
            "",
            "| case | cycles | capacity t=0 | capacity last | fade [%] | "
            "LAM_n last [%] | LAM_p last [%] | Li with AM n [mol] | Li with "
            "AM p [mol] | LLI last [%] | SEI Li last [mol] | plating Li last "
            "[mol] | Q_dis 1 | Q_dis 2 | Q_dis last | V_min last | checks |",
            "|" + "---|" * 17,
            *lam_rows,
        ]
    parts += porosity_lines(entries_)
    parts += [
        README_DEFINITIONS.format(
            cycles=CYCLES,
            period=PERIOD_S,
            thickness=THICKNESS,
            sei_capacity=SEI_CAPACITY,
            sei_current=SEI_CURRENT,
            plating_lithium=PLATING_LITHIUM,
            plating_capacity=PLATING_CAPACITY,
            plated=PLATED,
            dead=DEAD,
            plating_current=PLATING_CURRENT,
            temperature=TEMPERATURE,
        ).rstrip("\n"),
        "",
        f"Summary variables PyBaMM {info['pybamm_version']} offers for these "
        "models (any of them can be added to `SUMMARY_COLUMNS`): "
        + ", ".join(f"`{n}`" for n in summary_names)
        + ".",
        README_QUIRKS.format(version=info["pybamm_version"]).rstrip("\n"),
    ]
    if lam_rows:
        parts.append(lam_quirk_text(info, entries_))
    if porosity_cases(entries_):
        parts.append(porosity_quirk_text(info, entries_))
    if sei is not None:
        parts += parameter_lines(sei)
    if plating is not None:
        parts += plating_parameter_lines(plating)
    if lam is not None:
        parts += lam_parameter_lines(lam)
    parts.append("")
    return "\n".join(parts)


# Main -----------------------------------------------------------------------


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Write PyBaMM DFN SEI-ageing (Chen2020) and "
        "lithium-plating (OKane2022) reference data."
    )
    parser.add_argument(
        "--out-dir",
        type=Path,
        default=Path(__file__).resolve().parent.parent
        / "tests"
        / "data"
        / "pybamm"
        / "ageing",
        help="output folder (default: tests/data/pybamm/ageing)",
    )
    parser.add_argument(
        "--cases",
        nargs="+",
        default=None,
        metavar="CASE",
        help="run only these cases, by name or shell pattern (default: all): "
        + ", ".join(case_specs()),
    )
    return parser.parse_args(argv)


def read_parameter_files(out_dir):
    found = {}
    for family, spec in FAMILIES.items():
        path = out_dir / spec["parameters_file"]
        if path.exists():
            with open(path) as f:
                found[family] = json.load(f)
    return found


def main(argv):
    args = parse_args(argv[1:])
    pybamm, np = import_pybamm(SCRIPT)
    probe = pybamm.IDAKLUSolver()
    rtol, atol = probe.rtol, probe.atol
    infos = {
        name: provenance(pybamm, np, argv, rtol, atol, family)
        for name, family in FAMILIES.items()
    }
    args.out_dir.mkdir(parents=True, exist_ok=True)
    specs = case_specs()
    families_run = []
    for case in select_cases(args.cases):
        info = infos[specs[case]["family"]]
        entry = run_case(
            pybamm, np, args.out_dir, info, case, specs[case], rtol, atol
        )
        entry["generator"] = dict(
            info, cycles=case_family(specs[case])["cycles"]
        )
        entry["host_cpu"] = host_cpu_name()
        if "_finish_curves" in entry:
            finish, case_start = entry.pop("_finish_curves")
            finish(lambda: len(json_text(entry).encode()))
            entry["case_wall_s"] = time.perf_counter() - case_start
        write_json(args.out_dir / f"{case}_info.json", entry)
        families_run.append(specs[case]["family"])
        files = case_files(case, entry)
        total = sum((args.out_dir / n).stat().st_size for n in files)
        print(f"{case}: {len(files)} files, {total} bytes")
    # A family's parameter file is rewritten only when one of its cases ran.
    for family in dict.fromkeys(families_run):
        write_json(
            args.out_dir / FAMILIES[family]["parameters_file"],
            PARAMETER_FILES[family](pybamm, infos[family]),
        )
    entries_ = read_entries(args.out_dir)
    commands = list(
        dict.fromkeys(e["generator"]["command"] for e in entries_.values())
    )
    names = sorted(
        set().union(
            *(
                e.get("summary_variables_available", [])
                for e in entries_.values()
            )
        )
    )
    text = readme_text(
        infos["sei"],
        entries_,
        commands,
        names,
        read_parameter_files(args.out_dir),
    )
    with open(args.out_dir / "README.md", "w", newline="\n") as f:
        f.write(text)
    print(f"wrote {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
