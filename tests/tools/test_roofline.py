#!/usr/bin/env python3
"""Tests of tools/roofline.py on the committed benchmark results
(docs/data/*.jsonl) and on results made up here.

    python3 tests/tools/test_roofline.py

Plain Python, no pytest. Ends with "N passed, N failed"; exit status 0 when
all pass, 1 when one fails, 77 (skipped) when matplotlib is missing.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROOFLINE = os.path.join(ROOT, "tools", "roofline.py")
DATA = os.path.join(ROOT, "docs", "data")
ALL_H200 = os.path.join(DATA, "all-h200-2026-11-22.jsonl")
STEP_H100 = os.path.join(DATA, "step-h100.jsonl")


def run(*args):
    p = subprocess.run([sys.executable, ROOFLINE, *args], capture_output=True, text=True, timeout=240)
    return p.returncode, p.stdout, p.stderr


def assert_png(path):
    assert os.path.isfile(path), f"{path} was not written"
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"


def assert_error(args, expected):
    rc, out, err = run(*args)
    lines = [line for line in err.splitlines() if line.strip()]
    assert rc == 2, f"roofline.py {' '.join(args)}: exit {rc}, expected 2; stderr {err!r}"
    assert lines and lines[-1].startswith("roofline.py: error: "), f"no error line in {err!r}"
    assert "Traceback" not in err, err
    assert expected in lines[-1], f"{lines[-1]!r} does not mention {expected!r}"


def h100_results(path, copy_bandwidth=0.0, device="NVIDIA H100 80GB HBM3"):
    """The H200 kernel results as if from another device (copy bandwidth not measured by default)."""
    with open(ALL_H200) as f, open(path, "w") as out:
        for line in f:
            r = json.loads(line)
            r["device"] = device
            r["copy_bandwidth_GBps"] = copy_bandwidth
            out.write(json.dumps(r) + "\n")


def test_committed_h200(tmp):
    png = os.path.join(tmp, "all.png")
    rc, out, err = run(ALL_H200, "--plot", png)
    assert rc == 0, err
    assert_png(png)
    assert "26 points, NVIDIA H200" in out and "measured copy" in out, out
    assert "voltaic::dot" in out and "StencilOperator::apply" in out, out  # the table of points


def test_every_committed_file(tmp):
    files = sorted(glob.glob(os.path.join(DATA, "*.jsonl")))
    assert len(files) >= 2, files
    devices = []
    for f in files:
        with open(f) as lines:
            devices += [json.loads(line)["device"] for line in lines if line.strip()]
    for device in ("H200", "H100"):  # the committed results come from both
        if not any(device in d for d in devices):
            continue
        png = os.path.join(tmp, f"every-{device}.png")
        rc, out, err = run(*files, "--device", device, "-o", png)  # step and solve results: left out, said so
        assert rc == 0, err
        assert_png(png)
        assert f"NVIDIA {device}" in out, out
    if any("H200" in d for d in devices) and any("H100" in d for d in devices):
        assert_error([*files, "-o", os.path.join(tmp, "mixed.png")], "several devices")


def test_step_results_alone(tmp):
    assert_error([STEP_H100, "-o", os.path.join(tmp, "step.png")], "no CUDA kernel results with flop and byte counts")
    assert not os.path.exists(os.path.join(tmp, "step.png"))


def test_h100_roofs(tmp):
    data = os.path.join(tmp, "h100.jsonl")
    h100_results(data)
    png = os.path.join(tmp, "h100.png")
    rc, out, err = run(data, "--plot", png)
    assert rc == 0, err
    assert_png(png)
    assert "memory roof 3.35 TB/s (nominal)" in out, out  # H100 SXM data sheet, no copy bandwidth measured


def test_several_devices(tmp):
    data = os.path.join(tmp, "h100.jsonl")
    h100_results(data, copy_bandwidth=3000.0)
    assert_error([data, ALL_H200, "-o", os.path.join(tmp, "x.png")], "several devices")
    png = os.path.join(tmp, "only_h100.png")
    rc, out, err = run(data, ALL_H200, "--device", "H100", "-o", png)
    assert rc == 0, err
    assert "NVIDIA H100" in out and "3 TB/s (measured copy)" in out, out


def test_unknown_device(tmp):
    data = os.path.join(tmp, "other.jsonl")
    h100_results(data, copy_bandwidth=1500.0, device="Some Future GPU")
    assert_error([data, "-o", os.path.join(tmp, "x.png")], "no peak rates known for 'Some Future GPU'")
    rc, out, err = run(data, "--peak-fp64", "9700", "--peak-fp32", "19500", "--peak-bandwidth", "2039",
                       "-o", os.path.join(tmp, "other.png"))
    assert rc == 0, err
    assert_png(os.path.join(tmp, "other.png"))


def test_bad_files(tmp):
    assert_error([os.path.join(tmp, "missing.jsonl")], "missing.jsonl")
    bad = os.path.join(tmp, "bad.jsonl")
    with open(bad, "w") as f:
        f.write('{"benchmark": "dot", "variants": []}\n{not json\n')
    assert_error([bad], "bad.jsonl:2: not a JSON line")


TESTS = [test_committed_h200, test_every_committed_file, test_step_results_alone, test_h100_roofs,
         test_several_devices, test_unknown_device, test_bad_files]


def main():
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        print(f"test_roofline.py: skipped: {e} (tools/setup.sh installs python3-matplotlib)")
        return 77
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="voltaic-roofline-test-") as tmp:
        for test in TESTS:
            where = os.path.join(tmp, test.__name__)
            os.makedirs(where)
            try:
                test(where)
                passed += 1
                print(f"ok      {test.__name__}")
            except Exception:  # noqa: BLE001: report every failure and go on
                failed += 1
                print(f"FAILED  {test.__name__}")
                traceback.print_exc(file=sys.stdout)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
