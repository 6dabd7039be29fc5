import os

import pytest

import voltaic

ONE_C = ["Discharge at 1C until 2.5 V"]


@pytest.fixture(scope="session")
def lumped_1c():
    """The Chen2020 1C discharge with the lumped thermal model, solved once."""
    sim = voltaic.Simulation("Chen2020", experiment=ONE_C, thermal="lumped")
    return sim, sim.solve()


@pytest.fixture(scope="session")
def cli():
    """The `voltaic` command built from the same tree (tools/test_python.sh
    builds it and sets VOLTAIC_CLI)."""
    path = os.environ.get("VOLTAIC_CLI", "")
    if not os.access(path, os.X_OK):
        pytest.skip("VOLTAIC_CLI is not set to the voltaic command")
    return path
