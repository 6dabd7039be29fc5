#!/usr/bin/env python3
"""Plots what `voltaic pack` left in its output directory.

    python3 tools/plot_pack.py OUTPUT_DIR [--times LIST] [--time-unit auto|s|min|h] [--show]

Reads OUTPUT_DIR/pack.h5 (docs/getting_started.md, "Packs") and writes
OUTPUT_DIR/pack.png:

- the pack's terminal voltage and current (> 0 discharging) against time;
- the spreads within the pack against time: of the cells' currents within
  their group (max - min over the cells of a group, the largest over the
  groups) and of the cells' temperatures over the whole pack;
- heat maps at three times, one row per series group (group 0, at the pack's
  negative terminal, at the bottom) and one column per parallel index: each
  cell's current as its deviation from its group's mean, in % of the mean's
  magnitude (blank where the group carries no current, as at rest), and each
  cell's temperature. --times gives the times in seconds (900,1800,3200),
  each drawn at the nearest stored row; by default a quarter and a half of
  the way through the run, and its end. One colour scale per quantity over
  the three times, so that they compare.

Needs numpy, matplotlib and h5py. Bad input (a missing directory or file, a
file that is not voltaic's pack.h5, a time outside the run) ends with a
one-line message and exit status 2, nothing written.
"""
import argparse
import math
import os
import sys
import textwrap

from plot import TIME_UNITS, InputError, one_line  # tools/plot.py, beside this script

PROG = "plot_pack.py"
PACK_FORMAT = "voltaic-pack-1"
# Rows x cells read at once while the spreads are summed (bounds the memory a large pack takes).
CHUNK_VALUES = 4_000_000


def text_attribute(value):
    if isinstance(value, bytes):  # a fixed-length HDF5 string may carry NUL padding
        return value.decode("utf-8", "replace").rstrip("\x00")
    if hasattr(value, "shape") and getattr(value, "shape", None) == (1,):
        return text_attribute(value[0])
    return str(value).rstrip("\x00")


def parse_times(text):
    """'900,1800,3200' as a list of floats (seconds)."""
    times = []
    for part in text.split(","):
        try:
            t = float(part)
        except ValueError:
            raise InputError(f"--times {text}: '{part.strip()}' is not a time in seconds") from None
        if not math.isfinite(t):
            raise InputError(f"--times {text}: '{part.strip()}' is not a finite time")
        times.append(t)
    if not times:
        raise InputError(f"--times {text}: no times")
    return times


# ------------------------------------------------------------------- reading


def read_pack(path, times):
    """The pack's series, the spreads over every row and the cells' current
    and temperature at the rows nearest to `times` (None: a quarter, a half,
    the end) of a pack.h5."""
    import h5py
    import numpy as np

    if not os.path.isfile(path):
        directory = os.path.dirname(path) or "."
        staged = [d for d in os.listdir(directory) if d.startswith(".voltaic-run-")] if os.path.isdir(directory) else []
        hint = " (a pack still running, or one that was killed, has only its staging directory)" if staged else ""
        raise InputError(f"{path}: no such file{hint}")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise InputError(f"{path}: cannot be read as HDF5 ({one_line(e)})") from None
    with f:
        fmt = text_attribute(f.attrs["format"]) if "format" in f.attrs else None
        if fmt != PACK_FORMAT:
            found = "no 'format' attribute" if fmt is None else f"format '{fmt}'"
            raise InputError(f"{path}: {found}; expected format '{PACK_FORMAT}' (voltaic pack's pack.h5)")
        netlist = "layout" in f.attrs and text_attribute(f.attrs["layout"]) == "netlist"
        if netlist:  # no groups: the cells in the netlist's order, one row
            if "cells/current" not in f or len(f["cells/current"].shape) != 2:
                raise InputError(f"{path}: dataset 'cells/current' is missing or not two-dimensional")
            np_, ns = int(f["cells/current"].shape[1]), 1
        else:
            layout = []
            for a in ("parallel", "series"):
                if a not in f.attrs:
                    raise InputError(f"{path}: root attribute '{a}' is missing")
                layout.append(int(np.asarray(f.attrs[a]).reshape(-1)[0]))
            np_, ns = layout
        if np_ < 1 or ns < 1:
            raise InputError(f"{path}: parallel = {np_}, series = {ns}; each must be >= 1")
        cells = np_ * ns

        def dataset(name, shape):
            if name not in f or not isinstance(f[name], h5py.Dataset):
                raise InputError(f"{path}: dataset '{name}' is missing")
            d = f[name]
            if tuple(d.shape) != tuple(shape):
                raise InputError(f"{path}: dataset '{name}' has shape {tuple(d.shape)}, expected {tuple(shape)}")
            return d

        if "time" not in f or not isinstance(f["time"], h5py.Dataset) or len(f["time"].shape) != 1:
            raise InputError(f"{path}: dataset 'time' is missing or not one-dimensional")
        time = f["time"][...].astype(float)
        rows = time.shape[0]
        if rows == 0:
            raise InputError(f"{path}: no rows (/time is empty)")
        if not np.all(np.isfinite(time)):
            raise InputError(f"{path}: /time holds a value that is not finite")
        voltage = dataset("voltage", (rows,))[...]
        current = dataset("current", (rows,))[...]
        cell_current = dataset("cells/current", (rows, cells))
        cell_temperature = dataset("cells/temperature", (rows, cells))

        chosen = choose_rows(np, time, times, path)
        # The spreads, a block of rows at a time: cell k = s Np + p.
        current_spread = np.empty(rows)
        temperature_spread = np.empty(rows)
        step = max(1, CHUNK_VALUES // cells)
        for r in range(0, rows, step):
            block = cell_current[r:r + step, :].reshape(-1, ns, np_)
            current_spread[r:r + step] = (block.max(axis=2) - block.min(axis=2)).max(axis=1)
            block = cell_temperature[r:r + step, :]
            temperature_spread[r:r + step] = block.max(axis=1) - block.min(axis=1)
        maps = []
        for row in chosen:
            amps = cell_current[row, :].reshape(ns, np_)
            mean = amps.mean(axis=1, keepdims=True)
            # Blank where the group carries next to no current (a thousandth
            # of the pack's largest, a cell's share): a % of nothing.
            carries = np.abs(mean) > 1e-3 * max(float(np.max(np.abs(current))) / np_, 1e-300)
            with np.errstate(divide="ignore", invalid="ignore"):
                deviation = np.where(carries, 100.0 * (amps - mean) / np.abs(mean), np.nan)
            maps.append({"row": row, "time": time[row], "pack_current": current[row], "deviation": deviation,
                         "temperature": cell_temperature[row, :].reshape(ns, np_)})
        info = {
            "parallel": np_, "series": ns, "netlist": netlist,
            "parameter_set": text_attribute(f.attrs["parameter_set"]) if "parameter_set" in f.attrs else "",
            "termination": text_attribute(f.attrs["termination"]) if "termination" in f.attrs else "",
            "completed": int(np.asarray(f.attrs["completed"]).reshape(-1)[0]) if "completed" in f.attrs else 1,
            "interrupted": int(np.asarray(f.attrs["interrupted"]).reshape(-1)[0]) if "interrupted" in f.attrs else 0,
        }
    return {"time": time, "voltage": voltage, "current": current, "current_spread": current_spread,
            "temperature_spread": temperature_spread, "maps": maps, "info": info}


def choose_rows(np, time, times, path):
    """The rows nearest to `times`; by default a quarter and a half of the way, and the last row."""
    t0, t1 = float(time[0]), float(time[-1])
    if times is None:
        times = [t0 + 0.25 * (t1 - t0), t0 + 0.5 * (t1 - t0), t1]
        rows = [int(np.argmin(np.abs(time - t))) for t in times[:2]] + [len(time) - 1]
        return rows
    span = max(t1 - t0, 1.0)
    for t in times:
        if t < t0 - 1e-9 * span or t > t1 + 1e-9 * span:
            raise InputError(f"--times: {t:g} s is outside the pack's run, {t0:g} s to {t1:g} s ({path})")
    return [int(np.argmin(np.abs(time - t))) for t in times]


# ------------------------------------------------------------------ plotting


def choose_time_unit(requested, time):
    if requested != "auto":
        return requested
    span = float(time[-1] - time[0])
    return "h" if span >= 2 * 3600.0 else "min" if span >= 20 * 60.0 else "s"


def plot_pack(plt, np, pack, unit, out_path, title):
    from matplotlib import colors, ticker

    scale = TIME_UNITS[unit]
    t = pack["time"] / scale
    maps = pack["maps"]
    n = len(maps)
    info = pack["info"]
    ns, np_ = info["series"], info["parallel"]
    # Heat maps about as tall as the groups ask, within reason.
    map_height = min(6.0, max(2.2, 0.12 * ns))
    fig = plt.figure(figsize=(max(9.0, 3.0 * n + 1.5), 5.6 + 2 * map_height), layout="constrained")
    grid = fig.add_gridspec(4, n, height_ratios=[2.4, 2.4, map_height, map_height])

    marker = "." if len(t) < 50 else None  # a few rows (a pack that stopped early) as points
    ax_v = fig.add_subplot(grid[0, :])
    ax_v.plot(t, pack["voltage"], color="tab:blue", lw=1.2, marker=marker)
    ax_v.set_ylabel("Pack voltage [V]", color="tab:blue")
    ax_i = ax_v.twinx()
    ax_i.plot(t, pack["current"], color="tab:red", lw=0.9, alpha=0.8, marker=marker)
    ax_i.axhline(0.0, color="0.6", lw=0.6)
    ax_i.set_ylabel("Pack current [A]", color="tab:red")
    ax_v.set_title(title, fontsize=10)

    ax_s = fig.add_subplot(grid[1, :], sharex=ax_v)
    ax_s.plot(t, pack["current_spread"], color="tab:purple", lw=1.0, marker=marker)
    spread = "Cell current spread [A]" if info.get("netlist") else "Cell current spread\nin a group [A]"
    ax_s.set_ylabel(spread, color="tab:purple")
    ax_T = ax_s.twinx()
    ax_T.plot(t, pack["temperature_spread"], color="tab:orange", lw=1.2, marker=marker)
    ax_T.set_ylabel("Cell temperature\nspread [K]", color="tab:orange")
    ax_s.set_xlabel(f"Time [{unit}]")
    for ax in (ax_v, ax_s):
        ax.grid(True, alpha=0.3)
        for m in maps:  # where the heat maps are drawn
            ax.axvline(m["time"] / scale, color="0.5", lw=0.8, ls="--")

    deviation = np.concatenate([m["deviation"].ravel() for m in maps])
    finite = deviation[np.isfinite(deviation)]
    limit = float(np.max(np.abs(finite))) if finite.size else 1.0
    limit = limit if limit > 0.0 else 1.0
    cmap_i = plt.get_cmap("RdBu_r").copy()
    cmap_i.set_bad("0.85")
    extent = (-0.5, np_ - 0.5, -0.5, ns - 0.5)

    def heat_map(r, c, values, cmap, norm, title):
        ax = fig.add_subplot(grid[2 + r, c])
        image = ax.imshow(values, origin="lower", aspect="auto", interpolation="nearest", cmap=cmap, norm=norm,
                          extent=extent)
        ax.set_title(title, fontsize=8)
        ax.set_xlabel("Cell (netlist order)" if info.get("netlist") else "Parallel index", fontsize=8)
        if c == 0:
            ax.set_ylabel("" if info.get("netlist") else "Series group", fontsize=8)
        ax.tick_params(labelsize=7)
        for axis, count in ((ax.xaxis, np_), (ax.yaxis, ns)):
            axis.set_major_locator(ticker.FixedLocator(range(count)) if count <= 12 else
                                   ticker.MaxNLocator(integer=True))
        return ax, image

    # Each quantity on one scale over the times. The temperatures as their
    # difference from the pack's mean at that time (the title gives the
    # range): the spread over the pack is small beside how far it warms.
    warmth = [m["temperature"] - float(np.mean(m["temperature"])) for m in maps]
    t_limit = max(float(np.max(np.abs(w))) for w in warmth)
    t_limit = t_limit if t_limit > 0.0 else 1.0
    for r in range(2):
        axes = []
        for c, m in enumerate(maps):
            when = f"t = {m['time'] / scale:.4g} {unit}"
            if r == 0:
                title = f"{when}, pack {m['pack_current']:.4g} A"
                if not np.any(np.isfinite(m["deviation"])):
                    title += " (no current: blank)"
                ax, image = heat_map(0, c, m["deviation"], cmap_i, colors.Normalize(-limit, limit), title)
            else:
                lo, hi = float(np.min(m["temperature"])), float(np.max(m["temperature"]))
                ax, image = heat_map(1, c, warmth[c], plt.get_cmap("coolwarm"), colors.Normalize(-t_limit, t_limit),
                                     f"{when}: {lo:.5g} to {hi:.5g} K")
            axes.append(ax)
        bar = fig.colorbar(image, ax=axes, shrink=0.9)
        bar.set_label("Cell current: deviation\nfrom its group's mean [%]" if r == 0 else
                      "Cell temperature minus\nthe pack's mean [K]", fontsize=8)
        bar.ax.tick_params(labelsize=7)
    fig.savefig(out_path, dpi=110)
    return fig


def pack_title(directory, info):
    name = os.path.basename(os.path.normpath(os.path.abspath(directory)))
    cells = info["parallel"] * info["series"]
    what = f"a netlist of {cells} cells" if info.get("netlist") else f"{info['parallel']}p{info['series']}s"
    if info["parameter_set"]:
        what += f" of {info['parameter_set']}"
    title = f"{name}: {what}" if info.get("netlist") else f"{name}: {what} ({cells} cells)"
    if not info["completed"]:
        why = textwrap.shorten(one_line(info["termination"]), 240, placeholder=" ...")
        how = "interrupted" if info["interrupted"] else "stopped early"
        title += "\n" + "\n".join(textwrap.wrap(f"{how}: {why}", 110))
    return title


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROG, description="Plot the pack.h5 that `voltaic pack` wrote.")
    ap.add_argument("output_dir", help="the pack's output directory (holds pack.h5)")
    ap.add_argument("--times", metavar="LIST", default=None,
                    help="times in seconds of the heat maps (900,1800,3200), each drawn at the nearest stored row; "
                         "default a quarter and a half of the way through the run, and its end")
    ap.add_argument("--time-unit", choices=("auto", "s", "min", "h"), default="auto",
                    help="unit of the time axis (auto: h from 2 hours, min from 20 minutes, else s)")
    ap.add_argument("--show", action="store_true", help="also open the figure in a window")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    times = parse_times(args.times) if args.times is not None else None
    directory = args.output_dir
    if not os.path.isdir(directory):
        raise InputError(f"{directory}: no such directory")
    try:
        import h5py  # noqa: F401
        import matplotlib
        import numpy as np
    except ImportError as e:
        raise InputError(f"the Python module {e.name} is missing (pip install numpy matplotlib h5py)") from None
    if not args.show:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pack = read_pack(os.path.join(directory, "pack.h5"), times)
    unit = choose_time_unit(args.time_unit, pack["time"])
    out_path = os.path.join(directory, "pack.png")
    plot_pack(plt, np, pack, unit, out_path, pack_title(directory, pack["info"]))
    print(f"{PROG}: wrote {out_path}")
    if args.show:
        plt.show()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InputError as e:
        print(f"{PROG}: error: {one_line(e)}", file=sys.stderr)
        sys.exit(2)
    except OSError as e:  # a PNG that cannot be written, a file that cannot be read
        print(f"{PROG}: error: {one_line(e)}", file=sys.stderr)
        sys.exit(2)
