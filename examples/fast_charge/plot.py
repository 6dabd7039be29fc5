#!/usr/bin/env python3
"""Draws what voltaic-fast-charge wrote: (a) the lithium lost to plating
against the cycle, a colour per C-rate and a line style per ambient
temperature, the onset threshold dashed; (b) the plating onset cycle over
C-rate x temperature ("none": every cycle ran below the threshold; ">N": the
run ended after N cycles without reaching it).

    python3 examples/fast_charge/plot.py [OUTPUT_DIR] [--out PNG] [--show]
"""
import argparse
import csv
import os
import sys

import matplotlib

if "--show" not in sys.argv:
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

PLATING = "Loss of lithium to plating [%]"
TEMPERATURE = "Ambient temperature [K]"


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def plot_losses(ax, rows, onsets, threshold):
    """Panel (a): one line per (C-rate, temperature), a dot at its onset and
    a cross where a run stopped before its last cycle."""
    rates = sorted({float(r["C-rate"]) for r in rows})
    temps = sorted({float(r[TEMPERATURE]) for r in rows})
    colours = plt.cm.viridis(np.linspace(0.0, 0.85, len(rates)))
    styles = ["-", "--", ":", "-."]
    for i, rate in enumerate(rates):
        for k, temp in enumerate(temps):
            pair = [r for r in rows if float(r["C-rate"]) == rate and float(r[TEMPERATURE]) == temp]
            if not pair:
                continue
            cycle = [int(float(r["Cycle number"])) for r in pair]
            loss = [float(r[PLATING]) for r in pair]
            ax.plot(cycle, loss, styles[k % len(styles)], color=colours[i], lw=1.5)
            row = next(r for r in onsets if float(r["C-rate"]) == rate and float(r[TEMPERATURE]) == temp)
            if row["Onset cycle"]:
                ax.plot(int(row["Onset cycle"]), loss[cycle.index(int(row["Onset cycle"]))], "o", color=colours[i], ms=4)
            if row["Completed"] != "true":
                ax.plot(cycle[-1], loss[-1], "x", color=colours[i], ms=7, mew=2)
    limit = ax.axhline(threshold, color="0.4", lw=0.8, ls=(0, (4, 3)))
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 3, 5)))
    ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("cycle")
    ax.set_ylabel("lithium lost to plating [% of inventory]")
    ax.set_title("(a) plated + dead lithium after each cycle (o onset, x run stopped)", fontsize=10)
    # Two legends: colour is the C-rate, line style the temperature.
    rate_handles = [plt.Line2D([], [], color=colours[i], lw=2) for i in range(len(rates))]
    temp_handles = [plt.Line2D([], [], color="k", ls=styles[k % len(styles)]) for k in range(len(temps))] + [limit]
    first = ax.legend(rate_handles, [f"{r:g}C charge" for r in rates], loc="lower right", fontsize=8)
    ax.add_artist(first)
    temp_labels = [f"{t:g} K ({t - 273.15:.0f} °C)" for t in temps] + [f"onset threshold {threshold:g} %"]
    ax.legend(temp_handles, temp_labels, loc="upper left", fontsize=8)
    ax.grid(True, which="major", alpha=0.3)


def plot_onsets(ax, onsets):
    """Panel (b): the onset cycle as a heat map, C-rate up, temperature across."""
    rates = sorted({float(r["C-rate"]) for r in onsets})
    temps = sorted({float(r[TEMPERATURE]) for r in onsets})
    grid = np.full((len(rates), len(temps)), np.nan)
    text = [["" for _ in temps] for _ in rates]
    for r in onsets:
        i, k = rates.index(float(r["C-rate"])), temps.index(float(r[TEMPERATURE]))
        ran = int(r["Cycles run"])
        if r["Onset cycle"]:
            grid[i, k] = int(r["Onset cycle"])
            text[i][k] = r["Onset cycle"]
        else:
            text[i][k] = "none" if ran == int(r["Cycles"]) else f">{ran}"
    ax.set_facecolor("0.85")  # pairs without an onset
    image = ax.imshow(grid, origin="lower", cmap="magma", aspect="auto")
    for i in range(len(rates)):
        for k in range(len(temps)):
            dark = np.isfinite(grid[i, k]) and image.norm(grid[i, k]) < 0.6
            ax.text(k, i, text[i][k], ha="center", va="center", fontsize=10, color="w" if dark else "k")
    ax.set_xticks(range(len(temps)), [f"{t:g} K\n({t - 273.15:.0f} °C)" for t in temps])
    ax.set_yticks(range(len(rates)), [f"{r:g}C" for r in rates])
    ax.set_xlabel("ambient temperature")
    ax.set_ylabel("charge C-rate")
    ax.set_title("(b) plating onset cycle", fontsize=10)
    plt.colorbar(image, ax=ax, label="onset cycle")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", nargs="?", default="fast_charge-output")
    parser.add_argument("--out", help="the PNG (default DIRECTORY/fast_charge_plating.png)")
    parser.add_argument("--show", action="store_true", help="open a window too")
    args = parser.parse_args()
    rows = read_rows(os.path.join(args.directory, "cycles.csv"))
    onsets = read_rows(os.path.join(args.directory, "onset.csv"))
    if not rows or not onsets:
        sys.exit(f"{args.directory}: no cycles to plot")
    threshold = float(onsets[0]["Onset threshold [%]"])

    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.4), gridspec_kw={"width_ratios": [1.35, 1]})
    plot_losses(a, rows, onsets, threshold)
    plot_onsets(b, onsets)
    fig.tight_layout()
    out = args.out or os.path.join(args.directory, "fast_charge_plating.png")
    fig.savefig(out, dpi=100)
    print(f"wrote {out}")
    if args.show:
        plt.show()


if __name__ == "__main__":
    main()
