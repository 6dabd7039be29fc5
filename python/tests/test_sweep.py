import numpy as np
import pytest

import voltaic
from conftest import ONE_C

THICKNESS = "Negative electrode thickness [m]"


def test_sweep_returns_arrays_and_reports_a_bad_cell():
    out = voltaic.sweep(
        parameters={
            THICKNESS: np.array([6e-5, 8.52e-5, 1e-4]),
            "Negative electrode porosity": np.array([0.25, 0.25, 1.5]),
        },
        experiment=ONE_C,
        thermal="lumped",
        threads=2,
    )
    assert list(out["status"]) == ["completed", "completed", "failed"]
    assert "porosity" in out["termination"][2]
    cap = out["Discharge capacity [A.h]"]
    assert cap.shape == (3,) and cap[0] < cap[1]
    assert np.isnan(cap[2])
    assert out["Steps"].dtype.kind == "i" and out["Steps"][0] > 100
    assert np.all(out["Maximum temperature [K]"][:2] > 300)
    curve = out["curves"][1]
    assert curve["Voltage [V]"][-1] == out["Final voltage [V]"][1]


def test_a_swept_cell_is_the_simulation_bit_for_bit():
    out = voltaic.sweep(
        parameters={THICKNESS: [7e-5]},
        experiment=ONE_C,
        thermal="lumped",
        backend="cpu",
    )
    assert out["executor"] == "cpu"
    sol = voltaic.Simulation(
        {THICKNESS: 7e-5}, experiment=ONE_C, thermal="lumped", backend="cpu"
    ).solve()
    assert np.array_equal(out["curves"][0]["Voltage [V]"], sol["Voltage [V]"])


def test_a_c_rate_factor_gives_each_cell_its_protocol():
    # The experiment written at 1C, each cell its own rate; a factored cell is
    # the cell whose experiment spells the rate out, bit for bit.
    out = voltaic.sweep(
        parameters={"Discharge C-rate factor": [1.0, 2.0]},
        experiment=["Discharge at 1C for 10 minutes"],
        thermal="lumped",
        backend="cpu",
    )
    assert list(out["status"]) == ["completed", "completed"]
    cap = out["Discharge capacity [A.h]"]
    assert cap[1] == pytest.approx(2.0 * cap[0], rel=1e-9)
    written = voltaic.Simulation(
        {"Discharge C-rate factor": 1.0},
        experiment=["Discharge at 2C for 10 minutes"],
        thermal="lumped",
        backend="cpu",
    ).solve()
    assert np.array_equal(out["curves"][1]["Voltage [V]"], written["Voltage [V]"])


def test_arrays_of_different_lengths_are_refused():
    import pytest

    with pytest.raises(ValueError, match="one value per cell"):
        voltaic.sweep(
            parameters={THICKNESS: [7e-5, 8e-5], "Separator porosity": [0.4]}
        )


def test_an_unknown_swept_name_is_a_value_error():
    import pytest

    with pytest.raises(ValueError, match="Negative electrode thicknes"):
        voltaic.sweep(parameters={"Negative electrode thicknes [m]": [7e-5]})


def test_a_cuda_sweep_without_a_device_is_refused():
    if voltaic._core.cuda_device_count() > 0:
        pytest.skip("a CUDA device is visible")
    with pytest.raises(voltaic.BackendUnavailable, match="voltaic.sweep"):
        voltaic.sweep(parameters={THICKNESS: [7e-5]}, experiment=ONE_C, backend="cuda")


def test_a_power_sweep_on_the_gpu_is_the_cpu_within_1e_8_volts():
    if voltaic._core.cuda_device_count() == 0 or not voltaic._core.cuda_backend_built():
        pytest.skip("no CUDA device visible or no CUDA backend built")
    step = ("Discharge at 15 W until 3.3 V",)
    cells = {THICKNESS: [7e-5, 8.52e-5]}
    gpu = voltaic.sweep(parameters=cells, experiment=step, backend="cuda")
    cpu = voltaic.sweep(parameters=cells, experiment=step, backend="cpu")
    assert gpu["executor"].startswith("cuda")
    for g, c in zip(gpu["curves"], cpu["curves"]):
        assert len(g["Voltage [V]"]) == len(c["Voltage [V]"])
        assert np.max(np.abs(g["Voltage [V]"] - c["Voltage [V]"])) < 1e-8


def test_batched_ageing_keeps_every_cells_cycles_and_its_own_termination():
    rate = "SEI reaction exchange current density [A.m-2]"
    out = voltaic.sweep(
        parameters={rate: [1.5e-6, 3e-4]},
        experiment=[("Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V")] * 5,
        grid={"negative_cells": 6, "separator_cells": 4, "positive_cells": 6, "radial_shells": 6},
        options={"SEI": "reaction limited"},
        termination="99% capacity",
        backend="cpu",
    )
    slow, fast = out["cycles"]
    assert list(slow["Cycle number"]) == [1, 2, 3, 4, 5]
    assert 1 <= len(fast["Cycle number"]) < 5
    assert "99% capacity" in out["termination"][1]
    assert fast["Loss of lithium to negative SEI [mol]"][-1] > slow["Loss of lithium to negative SEI [mol]"][-1]
    alone = voltaic.Simulation(
        {rate: 3e-4},
        experiment=[("Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V")] * 5,
        grid={"negative_cells": 6, "separator_cells": 4, "positive_cells": 6, "radial_shells": 6},
        options={"SEI": "reaction limited"},
        termination="99% capacity",
        backend="cpu",
    ).solve()
    assert np.array_equal(fast["Capacity [A.h]"], alone.summary_variables["Capacity [A.h]"])
