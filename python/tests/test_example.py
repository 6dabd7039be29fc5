"""examples/python/compare_with_pybamm.py runs (where PyBaMM is installed)."""

import pathlib
import subprocess
import sys

import pytest

EXAMPLE = (
    pathlib.Path(__file__).resolve().parents[2]
    / "examples/python/compare_with_pybamm.py"
)


def test_compare_with_pybamm_runs_and_agrees(tmp_path):
    pytest.importorskip("pybamm")
    pytest.importorskip("matplotlib")
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--output", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert (tmp_path / "compare_with_pybamm.png").exists()
    mv = float(run.stdout.split("largest voltage difference: ")[1].split()[0])
    assert mv < 10.0
