"""The Python solve is the CLI's run bit for bit: the same TOML, read by the
same parser, run by the same Simulation."""

import subprocess

import numpy as np
import pytest

import voltaic
from conftest import ONE_C


def cli_timeseries(cli, config_text, tmp_path):
    path = tmp_path / "run.toml"
    path.write_text(config_text)
    out = tmp_path / "out"
    subprocess.run(
        [cli, "run", str(path), "--output", str(out)],
        check=True,
        capture_output=True,
    )
    return np.genfromtxt(out / "timeseries.csv", delimiter=",", names=True)


@pytest.mark.parametrize("thermal", ["lumped", "isothermal"])
def test_1c_discharge_voltage_is_the_clis_bit_for_bit(cli, tmp_path, thermal):
    sim = voltaic.Simulation(
        "Chen2020", experiment=ONE_C, thermal=thermal, backend="cpu"
    )
    sol = sim.solve()
    csv = cli_timeseries(cli, sim.config_text, tmp_path)
    assert len(csv) == len(sol)
    assert np.array_equal(csv["Voltage_V"], sol["Voltage [V]"])
    assert np.array_equal(csv["Time_s"], sol["Time [s]"])


def test_a_changed_config_is_not_equal(cli, tmp_path):
    """The comparison can fail: another tolerance gives other numbers."""
    sim = voltaic.Simulation("Chen2020", experiment=ONE_C, backend="cpu")
    other = voltaic.Simulation(
        "Chen2020",
        experiment=ONE_C,
        backend="cpu",
        solver={"relative_tolerance": 1e-5},
    )
    csv = cli_timeseries(cli, other.config_text, tmp_path)
    v = sim.solve()["Voltage [V]"]
    assert len(csv) != len(v) or not np.array_equal(csv["Voltage_V"], v)


def test_with_field_times_too(cli, tmp_path):
    """Steps land on the field times: the same ones in both runs."""
    sim = voltaic.Simulation(experiment=ONE_C, thermal="lumped", backend="cpu")
    sol = sim.solve(field_times=[0.0, 600.0, 1200.0])
    text = sim.config_text_with_fields([0.0, 600.0, 1200.0], 0.0)
    csv = cli_timeseries(cli, text, tmp_path)
    assert 600.0 in sol["Time [s]"]
    assert np.array_equal(csv["Voltage_V"], sol["Voltage [V]"])
    assert len(sol.fields) == 3
