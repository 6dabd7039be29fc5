import numpy as np

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
        parameters={THICKNESS: [7e-5]}, experiment=ONE_C, thermal="lumped"
    )
    sol = voltaic.Simulation(
        {THICKNESS: 7e-5}, experiment=ONE_C, thermal="lumped", backend="cpu"
    ).solve()
    assert np.array_equal(out["curves"][0]["Voltage [V]"], sol["Voltage [V]"])


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
