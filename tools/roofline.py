#!/usr/bin/env python3
"""Draws a roofline plot (PNG) from voltaic-bench --json output.

Each variant with a flop count becomes a point at arithmetic intensity
flops/bytes (the benchmark's minimal-byte model) and achieved GFLOP/s. The
memory roof is the copy bandwidth measured in the same runs (the largest one
seen); the compute roofs are the device's peak FP64 / FP32 rates (non-tensor),
from a table by device name or --peak-fp64/--peak-fp32 in GFLOP/s.

    python3 tools/roofline.py docs/data/*.jsonl -o docs/roofline.png
"""
import argparse
import json
import sys

# Non-tensor-core peaks in GFLOP/s (SXM parts, boost clock), from NVIDIA's data sheets.
PEAKS = {"H100": (34000.0, 67000.0), "H200": (34000.0, 67000.0)}


def read_reports(paths):
    reports = []
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    reports.append(json.loads(line))
    return reports


def peaks_for(device, fp64, fp32):
    for key, (p64, p32) in PEAKS.items():
        if key in device:
            return fp64 or p64, fp32 or p32
    if not (fp64 and fp32):
        sys.exit(f"roofline.py: no peak rates known for '{device}'; pass --peak-fp64 and --peak-fp32")
    return fp64, fp32


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("jsonl", nargs="+", help="files of voltaic-bench --json lines")
    ap.add_argument("-o", "--output", default="roofline.png")
    ap.add_argument("--peak-fp64", type=float, default=None, help="GFLOP/s")
    ap.add_argument("--peak-fp32", type=float, default=None, help="GFLOP/s")
    args = ap.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    reports = [r for r in read_reports(args.jsonl) if r.get("backend") == "cuda"]
    if not reports:
        sys.exit("roofline.py: no CUDA results in the input")
    device = reports[0]["device"]
    bandwidth = max(r["copy_bandwidth_GBps"] for r in reports)
    p64, p32 = peaks_for(device, args.peak_fp64, args.peak_fp32)

    fig, ax = plt.subplots(figsize=(11, 5.5))
    ai = [10 ** (e / 20) for e in range(-30, 35)]
    for peak, label, style in ((p64, "FP64 peak", "-"), (p32, "FP32 peak", "--")):
        ax.plot(ai, [min(bandwidth * a, peak) for a in ai], style, color="black", lw=1)
        ax.text(ai[-1], peak, f"{label} {peak / 1000:.0f} TFLOP/s", ha="right", va="bottom", fontsize=8)
    ax.text(ai[0] * 1.3, bandwidth * ai[0] * 1.6, f"measured copy {bandwidth / 1000:.2f} TB/s", rotation=28,
            fontsize=8)

    markers = {"voltaic": "o", "baseline": "s"}
    for r in reports:
        for v in r["variants"]:
            if not v.get("flops") or not v.get("bytes"):
                continue
            kind = "voltaic" if "voltaic" in v["role"] else "baseline"
            x = v["flops"] / v["bytes"]
            y = v["flops"] / v["median_s"] / 1e9
            ax.scatter([x], [y], marker=markers[kind], s=28, alpha=0.8,
                       label=f"{r['benchmark']} {r['precision']} ({r['size']:.2g}): {v['name']}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity [flop/byte] (minimal-byte model)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(f"voltaic roofline on {device}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), ncol=1, frameon=False)
    fig.tight_layout()
    fig.savefig(args.output, dpi=130)
    print(f"roofline.py: wrote {args.output} ({sum(len(r['variants']) for r in reports)} variants)")


if __name__ == "__main__":
    main()
