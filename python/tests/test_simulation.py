import pathlib

import numpy as np
import pytest

import voltaic
from conftest import ONE_C


def test_voltage_is_a_numpy_array_ending_at_the_cut_off(lumped_1c):
    _, sol = lumped_1c
    v = sol["Voltage [V]"]
    assert isinstance(v, np.ndarray) and v.dtype == np.float64
    assert len(v) == len(sol) > 100
    assert v[0] > 4.0
    assert v[-1] == pytest.approx(2.5, abs=1e-6)
    assert sol.completed
    assert "cut-off" in sol.termination
    assert sol.notes == []  # its own end is the cell's cut-off


def test_capacity_and_temperature_match_the_documented_run(lumped_1c):
    _, sol = lumped_1c  # docs/api.md: 4.9474 A.h, 311.97 K
    assert sol["Discharge capacity [A.h]"][-1] == pytest.approx(
        4.9474, abs=1e-3
    )
    t = sol["Volume-averaged cell temperature [K]"]
    assert t[-1] == pytest.approx(311.97, abs=0.05)


def test_columns_are_read_only_views(lumped_1c):
    _, sol = lumped_1c
    with pytest.raises(ValueError):
        sol["Voltage [V]"][0] = 0.0


def test_variables_are_pybamm_names(lumped_1c):
    _, sol = lumped_1c
    assert sol.variables[:2] == ["Time [s]", "Voltage [V]"]
    assert "Volume-averaged cell temperature [K]" in sol.variables


def test_unknown_variable_is_a_value_error(lumped_1c):
    _, sol = lumped_1c
    with pytest.raises(ValueError, match="Voltage"):
        sol["Voltage"]


def test_to_csv_reads_back_bitwise(lumped_1c, tmp_path):
    _, sol = lumped_1c
    sol.to_csv(tmp_path / "t.csv")
    data = np.genfromtxt(tmp_path / "t.csv", delimiter=",", names=True)
    assert np.array_equal(data["Voltage_V"], sol["Voltage [V]"])


def test_to_pandas(lumped_1c):
    pytest.importorskip("pandas")
    _, sol = lumped_1c
    df = sol.to_pandas()
    assert list(df.columns) == sol.variables
    assert np.array_equal(df["Voltage [V]"].to_numpy(), sol["Voltage [V]"])


def test_plot_draws_voltage_and_temperature(lumped_1c):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    _, sol = lumped_1c
    fig = sol.plot()
    v_axis, t_axis = fig.axes
    assert np.array_equal(v_axis.lines[0].get_ydata(), sol["Voltage [V]"])
    assert t_axis.get_ylabel() == "Volume-averaged cell temperature [K]"


def test_overrides_change_the_cell():
    thin = voltaic.Simulation(
        {"Negative electrode thickness [m]": 6e-5}, experiment=ONE_C
    ).solve()
    base = voltaic.Simulation("Chen2020", experiment=ONE_C).solve()
    assert (
        thin["Discharge capacity [A.h]"][-1]
        < base["Discharge capacity [A.h]"][-1] - 0.3
    )


def test_dict_with_a_parameter_set_key():
    sim = voltaic.Simulation(
        {"parameter_set": "Marquis2019", "Current function [A]": 0.5},
        experiment=["Rest for 1 minute"],
    )
    assert sim.config.cell_source == "Marquis2019"
    assert sim.config.parameter("Current function [A]") == 0.5


def test_cycles_from_repeated_tuples():
    steps = ("Discharge at 1C for 1 minute", "Rest for 1 minute")
    sim = voltaic.Simulation(experiment=[steps] * 3)
    assert sim.config.cycles == 3
    assert sim.config.experiment_steps == list(steps)
    sol = sim.solve()
    assert sol["Step"][-1] == 5


def test_grid_and_fields_shaped_nz_ny_nx():
    sim = voltaic.Simulation(
        experiment=["Discharge at 1C for 2 minutes"],
        grid=dict(
            negative_cells=4,
            separator_cells=3,
            positive_cells=5,
            radial_shells=4,
            nx=2,
            ny=3,
        ),
    )
    sol = sim.solve(field_times=[0.0, 60.0])
    assert np.array_equal(sol.field_times, [0.0, 60.0])
    c = sol.fields[1]["Electrolyte concentration [mol.m-3]"]
    assert c.shape == (12, 3, 2)
    assert np.all(c > 0)
    assert not np.array_equal(
        c, sol.fields[0]["Electrolyte concentration [mol.m-3]"]
    )


def test_a_bpx_file_is_a_parameter_set():
    bpx = (
        pathlib.Path(__file__).resolve().parents[2]
        / "tests/data/bpx/nmc_pouch_cell_BPX_v1.json"
    )
    sim = voltaic.Simulation(str(bpx), experiment=["Rest for 1 minute"])
    assert sim.config.cell_source == str(bpx)
    assert sim.solve().completed


class Experiment:
    """A stand-in for pybamm.Experiment: its cycles of step strings."""

    def __init__(self, cycles):
        self.cycles = cycles


def test_a_pybamm_experiment_is_taken_by_its_cycles():
    steps = ("Discharge at 1C for 1 minute", "Rest for 1 minute")
    sim = voltaic.Simulation(experiment=Experiment([steps] * 2))
    assert sim.config.experiment_steps == list(steps)
    assert sim.config.cycles == 2


def test_a_step_cut_short_by_the_cells_cut_off_is_noted():
    sol = voltaic.Simulation(
        "Chen2020", experiment=["Discharge at 2C for 40 minutes", "Rest for 1 minute"]
    ).solve()
    assert sol.completed
    assert "after its duration" in sol.termination
    assert len(sol.notes) == 1
    assert "cell's lower voltage cut-off, 2.5 V" in sol.notes[0]


def test_sei_growth_with_pybamms_option_names_gives_summary_variables():
    sim = voltaic.Simulation(
        "Chen2020",
        experiment=[("Discharge at 1C until 2.5 V", "Charge at 0.5C until 4.2 V")] * 2,
        grid={"negative_cells": 6, "separator_cells": 4, "positive_cells": 6, "radial_shells": 6},
        options={"SEI": "reaction limited"},
    )
    sol = sim.solve()
    assert sol.completed, sol.termination
    s = sol.summary_variables
    assert list(s["Cycle number"]) == [1, 2]
    lost = s["Loss of lithium to negative SEI [mol]"]
    assert 0 < lost[0] < lost[1]
    assert s["X-averaged negative SEI thickness [m]"][1] > 5e-9
    with pytest.raises(ValueError, match="particle mechanics"):
        voltaic.Simulation("Chen2020", options={"particle mechanics": "swelling and cracking"})


def test_porosity_change_with_pybamms_option_names():
    sol = voltaic.Simulation(
        {"parameter_set": "Chen2020", "SEI reaction exchange current density [A.m-2]": 1.5e-5},
        experiment=[("Discharge at 1C until 2.5 V", "Charge at 0.5C until 4.2 V")] * 2,
        grid={"negative_cells": 6, "separator_cells": 4, "positive_cells": 6, "radial_shells": 6},
        options={"SEI": "reaction limited", "SEI porosity change": "true"},
    ).solve()
    assert sol.completed, sol.termination
    eps = sol.summary_variables["X-averaged negative electrode porosity"]
    assert 0 < eps[1] < eps[0] < 0.25
    with pytest.raises(ValueError, match="sei_porosity_change"):
        voltaic.Simulation("Chen2020", options={"SEI porosity change": "maybe"})


def test_lithium_plating_with_pybamms_option_names():
    cold = {"Ambient temperature [K]": 268.15, "Initial temperature [K]": 268.15}
    sol = voltaic.Simulation(
        {"parameter_set": "OKane2022", **cold},
        experiment=[("Discharge at 1C until 2.5 V", "Charge at 1C until 4.2 V")] * 2,
        grid={"negative_cells": 6, "separator_cells": 4, "positive_cells": 6, "radial_shells": 6},
        options={"SEI": "solvent-diffusion limited", "lithium plating": "partially reversible"},
    ).solve()
    assert sol.completed, sol.termination
    s = sol.summary_variables
    assert s["Loss of lithium to negative lithium plating [mol]"][0] > 0
    dead = s["X-averaged negative dead lithium concentration [mol.m-3]"]
    assert 0 < dead[0] < dead[1]
    with pytest.raises(ValueError, match="Lithium plating kinetic rate constant"):
        voltaic.Simulation("Chen2020", options={"lithium plating": "reversible"})


def test_loss_of_active_material_with_pybamms_option_names():
    sol = voltaic.Simulation(
        "OKane2022",
        experiment=[("Discharge at 1C until 2.5 V", "Charge at 1C until 4.2 V")] * 2,
        grid={"negative_cells": 6, "separator_cells": 4, "positive_cells": 6, "radial_shells": 6},
        options={
            "loss of active material": ("stress-driven", "none"),
            "particle mechanics": "swelling only",
            "stress-induced diffusion": "false",
        },
    ).solve()
    assert sol.completed, sol.termination
    s = sol.summary_variables
    lost = s["Loss of active material in negative electrode [%]"]
    assert 0 < lost[0] < lost[1]
    assert list(s["Loss of active material in positive electrode [%]"]) == [0.0, 0.0]
    assert s["Loss of lithium due to loss of active material in negative electrode [mol]"][1] > 0
    # PyBaMM's default with mechanics: the stress-induced diffusion on, both electrodes losing material.
    both = voltaic.Simulation(
        "OKane2022",
        experiment=[("Discharge at 1C until 2.5 V", "Charge at 1C until 4.2 V")],
        grid={"negative_cells": 6, "separator_cells": 4, "positive_cells": 6, "radial_shells": 6},
        options={"loss of active material": "stress-driven"},
    ).solve()
    assert both.completed, both.termination
    assert both.summary_variables["Loss of active material in positive electrode [%]"][0] > 0
    with pytest.raises(ValueError, match="particle mechanics model"):
        voltaic.Simulation("OKane2022", options={"stress-induced diffusion": "true"})
    with pytest.raises(ValueError, match="Poisson's ratio"):
        voltaic.Simulation("Chen2020", options={"loss of active material": "stress-driven"})


def test_termination_and_save_at_cycles_as_pybamm():
    sim = voltaic.Simulation(
        {"parameter_set": "Chen2020", "SEI reaction exchange current density [A.m-2]": 1.5e-4},
        experiment=[("Discharge at 1C until 2.5 V", "Charge at 1C until 4.2 V")] * 40,
        grid={"negative_cells": 6, "separator_cells": 4, "positive_cells": 6, "radial_shells": 6},
        options={"SEI": "reaction limited"},
        termination="97% capacity",
    )
    sol = sim.solve(save_at_cycles=2)
    assert sol.completed, sol.termination
    assert "97% capacity" in sol.termination
    s = sol.summary_variables
    n = len(s["Cycle number"])
    assert 2 <= n < 40
    assert s["Capacity [A.h]"][-1] <= 0.97 * s["Capacity [A.h]"][0]
    kept = {int(step) // 2 + 1 for step in sol["Step"]}
    # The first, every second and the one it stopped in (as PyBaMM keeps it).
    assert kept == {c for c in range(1, n + 1) if c in (1, n) or c % 2 == 0}
    with pytest.raises(ValueError, match="termination"):
        voltaic.Simulation("Chen2020", termination="80 percent")
