"""Drive cycles from Python: a table given as arrays or as a CSV file, in
voltaic.Simulation and voltaic.sweep (the experiment's "Run NAME (A)")."""

import pathlib

import numpy as np
import pytest

import voltaic

PULSES = (
    pathlib.Path(__file__).resolve().parents[2] / "tests/data/drive_cycles/pulses.csv"
)
THICKNESS = "Negative electrode thickness [m]"
STEPS = ["Run pulses (A) until 2.5 V", "Rest for 1 minute"]


def pulses_arrays():
    table = np.loadtxt(PULSES, delimiter=",", comments="#", skiprows=4)
    return table[:, 0], table[:, 1]


def test_arrays_and_the_file_give_the_same_bits():
    from_file = voltaic.Simulation(
        experiment=STEPS, drive_cycles={"pulses": PULSES}, backend="cpu"
    ).solve()
    from_arrays = voltaic.Simulation(
        experiment=STEPS, drive_cycles={"pulses": pulses_arrays()}, backend="cpu"
    ).solve()
    assert from_file.completed, from_file.termination
    assert np.array_equal(from_file["Voltage [V]"], from_arrays["Voltage [V]"])
    # The current follows the table (up to its charge, where the full cell
    # reaches its upper cut-off and the step ends).
    t, i = from_file["Time [s]"], from_file["Current [A]"]
    before = t < 30.0
    assert np.allclose(i[before], np.interp(t[before], *pulses_arrays()), rtol=0, atol=1e-9)
    assert np.isclose(i.max(), 10.0)


def test_a_swept_drive_cycle_is_the_simulation_bit_for_bit():
    out = voltaic.sweep(
        parameters={THICKNESS: [7e-5]},
        experiment=STEPS,
        drive_cycles={"pulses": pulses_arrays()},
        backend="cpu",
    )
    assert out["status"][0] == "completed", out["termination"][0]
    sol = voltaic.Simulation(
        {THICKNESS: 7e-5},
        experiment=STEPS,
        drive_cycles={"pulses": PULSES},
        backend="cpu",
    ).solve()
    assert np.array_equal(out["curves"][0]["Voltage [V]"], sol["Voltage [V]"])


def test_a_table_of_unequal_columns_is_refused_by_name():
    with pytest.raises(ValueError, match=r"drive_cycles\['pulses'\]: 3 times and 2 values"):
        voltaic.Simulation(
            experiment=STEPS, drive_cycles={"pulses": ([0, 1, 2], [0, 1])}
        )


def test_a_bad_row_is_refused_by_the_config_parser():
    with pytest.raises(ValueError, match="not after"):
        voltaic.Simulation(
            experiment=STEPS, drive_cycles={"pulses": ([0, 2, 1], [0, 1, 1])}
        )


def test_a_drive_cycle_sweep_on_the_gpu_is_the_cpu_within_1e_8_volts():
    if voltaic._core.cuda_device_count() == 0 or not voltaic._core.cuda_backend_built():
        pytest.skip("no CUDA device visible or no CUDA backend built")
    cells = {THICKNESS: [7e-5, 8.52e-5]}
    tables = {"pulses": pulses_arrays()}
    gpu = voltaic.sweep(parameters=cells, experiment=STEPS, drive_cycles=tables, backend="cuda")
    cpu = voltaic.sweep(parameters=cells, experiment=STEPS, drive_cycles=tables, backend="cpu")
    assert gpu["executor"].startswith("cuda")
    for g, c in zip(gpu["curves"], cpu["curves"]):
        assert len(g["Voltage [V]"]) == len(c["Voltage [V]"])
        assert np.max(np.abs(g["Voltage [V]"] - c["Voltage [V]"])) < 1e-8
