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


def host_cpu_name():
    """'model name' of /proc/cpuinfo (as voltaic-bench reads it), or 'unknown'."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and ":" in line:
                    return line.split(":", 1)[1].strip() or "unknown"
    except OSError:
        pass
    return "unknown"


def print_report(report, json_path):
    """The report's notes, then the report as one JSON line on stdout (the
    last line, for scripts), also appended to `json_path` when given."""
    import json

    for note in report["notes"]:
        print(f"  note: {note}")
    line = json.dumps(report)
    print(line)
    if json_path:
        with open(json_path, "a") as f:
            f.write(line + "\n")
