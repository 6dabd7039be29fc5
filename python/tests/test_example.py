"""examples/python/compare_with_pybamm.ipynb runs (where PyBaMM is
installed): its code cells, in order, as one script, as a user running the
notebook top to bottom would."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

NOTEBOOK = (
    pathlib.Path(__file__).resolve().parents[2]
    / "examples/python/compare_with_pybamm.ipynb"
)


def notebook_script(path):
    cells = json.loads(path.read_text())["cells"]
    return "\n\n".join(
        "".join(c["source"]) for c in cells if c["cell_type"] == "code"
    )


def test_the_notebook_is_code_and_text():
    script = notebook_script(NOTEBOOK)
    compile(
        script, str(NOTEBOOK), "exec"
    )  # valid Python, whatever is installed
    assert "voltaic.Simulation(" in script and "pybamm.Simulation(" in script


def test_compare_with_pybamm_runs_and_agrees(tmp_path):
    pytest.importorskip("pybamm")
    pytest.importorskip("matplotlib")
    script = tmp_path / "compare_with_pybamm.py"
    script.write_text(notebook_script(NOTEBOOK))
    env = dict(
        os.environ, VOLTAIC_EXAMPLE_OUTPUT=str(tmp_path), MPLBACKEND="Agg"
    )
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert (tmp_path / "compare_with_pybamm.png").exists()
    mv = float(run.stdout.split("largest voltage difference: ")[1].split()[0])
    assert mv < 10.0
