#!/usr/bin/env python3
"""Draws a roofline plot (PNG) from voltaic-bench --json output, and prints its numbers.

    python3 tools/roofline.py docs/data/all-h200-2026-11-22.jsonl --plot docs/roofline-h200.png

Each measured kernel variant with a flop and a byte count becomes a point at
arithmetic intensity flops/bytes (the benchmark's minimal-byte model) and
achieved GFLOP/s: circles are voltaic, squares the baselines (cuBLAS, CUB,
cuSPARSE, ...); filled FP64, open FP32. The roofs:

- measured memory roof: the device copy bandwidth (cudaMemcpy device to
  device) measured in the same runs, the largest one seen;
- nominal memory roof (dotted): the device's peak DRAM bandwidth from its data sheet;
- compute roofs: peak FP64 and FP32 rates without tensor cores, from the data sheet.

The peaks come from a table by device name (H100 SXM / PCIe / NVL, H200) or
from --peak-fp64, --peak-fp32 (GFLOP/s) and --peak-bandwidth (GB/s). Results
without flop or byte counts (the solve and step benchmarks, copies) and CPU
results are left out and counted on stderr. A table of the points (intensity,
GFLOP/s, fraction of the attainable rate under the roofs) goes to stdout.

Exit status 2, with a one-line message, for unreadable input or nothing to plot.
"""
import argparse
import json
import math
import sys

PROG = "roofline.py"

# Data-sheet peaks of SXM / PCIe / NVL parts at boost clock: FP64 and FP32
# without tensor cores [GFLOP/s], DRAM bandwidth [GB/s]. First match of the
# name in the device string wins, so the more specific names come first.
DEVICES = [
    ("H100 PCIe", "H100 PCIe", 25600.0, 51200.0, 2000.0),
    ("H100 NVL", "H100 NVL", 30000.0, 60000.0, 3900.0),
    ("H100", "H100 SXM", 34000.0, 67000.0, 3350.0),
    ("H200 NVL", "H200 NVL", 30000.0, 60000.0, 4800.0),
    ("H200", "H200 SXM", 34000.0, 67000.0, 4800.0),
]

# Flops per element of the BLAS-1 benchmarks, for result files written before
# voltaic-bench recorded "flops" (docs/data/blas1-*.jsonl).
FLOPS_PER_ELEMENT = {"axpy": 2.0, "dot": 2.0}


class InputError(Exception):
    """Input that cannot be plotted; the message is one line."""


def read_reports(paths):
    reports = []
    for path in paths:
        try:
            with open(path) as f:
                for number, line in enumerate(f, 1):
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        report = json.loads(line)
                    except json.JSONDecodeError as e:
                        raise InputError(f"{path}:{number}: not a JSON line ({e.msg} at column {e.colno})") from None
                    if not isinstance(report, dict) or not isinstance(report.get("variants"), list):
                        raise InputError(f"{path}:{number}: not a voltaic-bench result (no 'variants' list)")
                    report["_origin"] = f"{path}:{number}"
                    reports.append(report)
        except OSError as e:
            raise InputError(f"{path}: {e.strerror or e}") from None
    return reports


def device_peaks(device, args):
    """(label, FP64, FP32 [GFLOP/s], DRAM bandwidth [GB/s]) for the device, options first."""
    known = next((d for d in DEVICES if d[0] in device), None)
    fp64 = args.peak_fp64 or (known[2] if known else None)
    fp32 = args.peak_fp32 or (known[3] if known else None)
    bandwidth = args.peak_bandwidth or (known[4] if known else None)
    if not (fp64 and fp32):
        raise InputError(f"no peak rates known for '{device}'; pass --peak-fp64 and --peak-fp32 (GFLOP/s)")
    return (known[1] if known else device), fp64, fp32, bandwidth


def points_of(report):
    """The plottable variants of one report: (variant, flops, bytes)."""
    out = []
    for v in report["variants"]:
        flops, nbytes = v.get("flops"), v.get("bytes")
        if flops is None and report.get("benchmark") in FLOPS_PER_ELEMENT and report.get("size"):
            flops = FLOPS_PER_ELEMENT[report["benchmark"]] * float(report["size"])
        if not flops or not nbytes or not v.get("median_s"):
            continue
        out.append((v, float(flops), float(nbytes)))
    return out


def is_fp32(report):
    return str(report.get("precision", "")).startswith("float")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("jsonl", nargs="+", help="files of voltaic-bench --json lines")
    ap.add_argument("-o", "--output", "--plot", dest="output", default="roofline.png", metavar="PNG",
                    help="the PNG to write (default: roofline.png)")
    ap.add_argument("--device", default=None,
                    help="plot the results of this device only (a part of its name, e.g. H100) when the input "
                         "holds several")
    ap.add_argument("--peak-fp64", type=float, default=None, help="peak FP64 rate [GFLOP/s] (overrides the table)")
    ap.add_argument("--peak-fp32", type=float, default=None, help="peak FP32 rate [GFLOP/s] (overrides the table)")
    ap.add_argument("--peak-bandwidth", type=float, default=None,
                    help="nominal DRAM bandwidth [GB/s] (overrides the table)")
    ap.add_argument("--title", default=None, help="plot title (default: voltaic roofline on DEVICE)")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    reports = read_reports(args.jsonl)
    skipped = {}
    plotted = []
    for r in reports:
        pts = points_of(r) if r.get("backend") == "cuda" else []
        if args.device and args.device not in str(r.get("device", "")):
            continue
        if pts:
            plotted.append((r, pts))
        else:
            why = r.get("benchmark", "?") + ("" if r.get("backend") == "cuda" else f" ({r.get('backend', '?')})")
            skipped[why] = skipped.get(why, 0) + 1
    if not plotted:
        which = f" of a device matching '{args.device}'" if args.device else ""
        raise InputError("no CUDA kernel results with flop and byte counts" + which + " in "
                         + ", ".join(args.jsonl) + (" (only: " + ", ".join(sorted(skipped)) + ")" if skipped else ""))
    devices = sorted({r["device"] for r, _ in plotted})
    if len(devices) > 1:
        raise InputError("results of several devices (" + "; ".join(devices) + "); choose one with --device")
    device = devices[0]
    label, p64, p32, nominal_bw = device_peaks(device, args)
    measured = [r.get("copy_bandwidth_GBps") or 0.0 for r, _ in plotted]
    measured_bw = max(measured) if max(measured) > 0.0 else None
    roof_bw = measured_bw or nominal_bw
    if roof_bw is None:
        raise InputError(f"no copy bandwidth measured and none known for '{device}'; pass --peak-bandwidth (GB/s)")
    if skipped:
        print(f"{PROG}: left out (no flop/byte counts, or not CUDA): "
              + ", ".join(f"{k} x{n}" for k, n in sorted(skipped.items())), file=sys.stderr)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, ax = plt.subplots(figsize=(11.5, 6.0), layout="constrained")
    all_ai = [f / b for _, pts in plotted for _, f, b in pts]
    lo = min(min(all_ai) / 3.0, 0.03)
    hi = max(max(all_ai) * 3.0, 3.0 * max(p64, p32) / roof_bw)
    ai = [lo * (hi / lo) ** (k / 200.0) for k in range(201)]
    for peak, name, style in ((p64, "FP64", "-"), (p32, "FP32", "--")):
        ax.plot(ai, [min(roof_bw * a, peak) for a in ai], style, color="black", lw=1.1)
        ax.text(hi, peak * 1.06, f"{label} {name} peak {peak / 1000:.3g} TFLOP/s", ha="right", va="bottom",
                fontsize=8)
    slanted = []  # (bandwidth, text, colour, above the line): labels along the memory roofs, placed after layout
    if measured_bw and nominal_bw:
        ax.plot(ai, [min(nominal_bw * a, p64) for a in ai], ":", color="0.45", lw=1.1)
        slanted.append((nominal_bw, f"nominal DRAM {nominal_bw / 1000:.3g} TB/s", "0.35", True))
    slanted.append((roof_bw, f"measured copy {measured_bw / 1000:.3g} TB/s" if measured_bw else
                    f"nominal DRAM {nominal_bw / 1000:.3g} TB/s (copy not measured)", "black", False))

    tab20 = matplotlib.colormaps["tab20"]
    palette = [tab20(k) for k in range(20)]
    colours, handles = {}, []
    table = []
    for r, pts in plotted:
        fp32 = is_fp32(r)
        for v, flops, nbytes in pts:
            key = (r.get("benchmark", "?"), r.get("size"), v["name"])
            if key not in colours:
                colours[key] = palette[len(colours) % len(palette)]
                handles.append(Line2D([], [], ls="", marker="o" if "voltaic" in v.get("role", "") else "s",
                                      color=colours[key], label=f"{key[0]} ({key[1]:.3g}): {key[2]}"))
            x, y = flops / nbytes, flops / v["median_s"] / 1e9
            marker = "o" if "voltaic" in v.get("role", "") else "s"
            ax.scatter([x], [y], marker=marker, s=34, zorder=3, linewidths=1.3, edgecolors=[colours[key]],
                       facecolors="none" if fp32 else [colours[key]])
            table.append((r.get("benchmark", "?"), "FP32" if fp32 else "FP64", r.get("size"), v["name"], x, y,
                          y / min(roof_bw * x, p32 if fp32 else p64)))
    handles += [Line2D([], [], ls="", marker="o", color="0.3", label="filled: FP64, open: FP32; "
                       "circle: voltaic, square: baseline", markerfacecolor="none")]
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(roof_bw * lo / 3.0, max(p64, p32) * 2.5)
    ax.set_xlabel("arithmetic intensity [flop/byte] (minimal-byte model)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(args.title or f"voltaic roofline on {device}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(handles=handles, fontsize=6.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.canvas.draw()  # settle the layout, so the slope of a roof on screen is known
    ridge = min(p64, p32) / roof_bw
    x0 = max(lo * 1.4, min(max(all_ai) * 1.6, ridge / 8.0))  # right of the points, left of the ridge
    for bw, text, colour, above in slanted:
        (ax_, ay_), (bx_, by_) = ax.transData.transform([(x0, bw * x0), (x0 * 10.0, bw * x0 * 10.0)])
        angle = math.degrees(math.atan2(by_ - ay_, bx_ - ax_))
        ax.annotate(text, xy=(x0, bw * x0), xytext=(0, 4 if above else -4), textcoords="offset points",
                    rotation=angle, rotation_mode="anchor", ha="left", va="bottom" if above else "top",
                    fontsize=8, color=colour)
    fig.savefig(args.output, dpi=130)

    print(f"{'benchmark':<9} {'prec':<4} {'size':>9} {'flop/B':>7} {'GFLOP/s':>9} {'of roof':>7}  variant")
    for bench, prec, size, name, x, y, frac in table:
        print(f"{bench:<9} {prec:<4} {size:>9.3g} {x:>7.3f} {y:>9.1f} {100 * frac:>6.1f}%  {name}")
    print(f"{PROG}: wrote {args.output}: {len(table)} points, {device}, memory roof "
          f"{roof_bw / 1000:.3g} TB/s ({'measured copy' if measured_bw else 'nominal'})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InputError as e:
        print(f"{PROG}: error: {' '.join(str(e).split())}", file=sys.stderr)
        sys.exit(2)
