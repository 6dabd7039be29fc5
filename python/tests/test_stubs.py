"""voltaic/_core.pyi is what nanobind's stubgen makes of the built module."""

import pathlib
import subprocess
import sys

import pytest

import voltaic


def test_committed_stub_is_up_to_date(tmp_path):
    pytest.importorskip("nanobind")
    out = tmp_path / "_core.pyi"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "nanobind.stubgen",
            "-q",
            "-m",
            "voltaic._core",
            "-o",
            str(out),
        ],
        check=True,
    )
    committed = pathlib.Path(voltaic.__file__).with_name("_core.pyi")
    assert committed.read_text() == out.read_text(), (
        "regenerate it: python -m nanobind.stubgen -m voltaic._core "
        "-o python/voltaic/_core.pyi"
    )


def test_package_is_typed():
    assert pathlib.Path(voltaic.__file__).with_name("py.typed").exists()
