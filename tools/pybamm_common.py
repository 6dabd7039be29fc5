"""What voltaic's PyBaMM scripts (pybamm_reference.py, pybamm_benchmark.py)
share: importing PyBaMM with a message that says how to get it, and the
versions of the packages it runs on."""

import importlib.metadata
import sys


def import_pybamm(script):
    """Imports PyBaMM and NumPy, or stops `script` with a message saying how."""
    try:
        import numpy
        import pybamm
    except ImportError as err:
        sys.exit(
            f"{script}: cannot import PyBaMM ({err}).\n"
            f"Install it with 'pip install pybamm' and run this script again."
        )
    return pybamm, numpy


def package_version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"
