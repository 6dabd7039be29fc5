#!/usr/bin/env python3
"""Plots what a voltaic run or sweep left in its output directory.

    python3 tools/plot.py OUTPUT_DIR [--time-unit auto|s|min|h] [--field KEY] [--frame N] [--show]
    python3 tools/plot.py OUTPUT_DIR --maps [KEYS] [--times LIST] [--show]
    python3 tools/plot.py SWEEP_DIR [--x capacity|time] [--cells LIST] [--max-cells N] [--time-unit ...] [--show]

Writes OUTPUT_DIR/timeseries.png from OUTPUT_DIR/timeseries.csv: voltage,
current and temperature (mean, with the min-max band) against time in three
stacked panels. If OUTPUT_DIR/fields.h5 exists, also OUTPUT_DIR/KEY_map.png
(temperature_map.png by default): for a 1D cell (nx = ny = 1) the field over
time and through the thickness, region boundaries marked; for a 3D cell one
frame (the last by default) as an x-y plane at the middle of the cell's
thickness and an x-z section at the middle of y.

With --maps, writes OUTPUT_DIR/maps.png instead: x-y maps over the
electrode plane of the column fields of fields.h5 (/planes: the collector
potentials and current density, the negative electrode's stoichiometry, the
column-averaged temperature), one row of maps per time of --times (seconds;
each drawn at the nearest stored frame; default the first, middle and last
frames) and one column per key of KEYS (comma-separated; default
collector_current_density,negative_stoichiometry,column_temperature), x
along the electrode height, y along its width, equal aspect, one colour
scale per field over all the rows.

If OUTPUT_DIR/curves.h5 exists (voltaic sweep), writes OUTPUT_DIR/sweep_voltage.png
instead: every cell's voltage against its discharge capacity (the trapezoidal
integral of its current, as voltaic computes it) or, with --x time, against
time; the cells of --cells (indices and ranges: 0,3,10-20) or all of them
(at most --max-cells, default 1000: an evenly spaced selection beyond that),
coloured by the first varied parameter.

Needs numpy and matplotlib; h5py only for fields.h5. Bad input (a missing
file, a missing column, a file that is not voltaic's) ends with a one-line
message and exit status 2.
"""
import argparse
import csv
import math
import os
import re
import sys

PROG = "plot.py"
FIELDS_FORMAT = "voltaic-fields-1"
SWEEP_FORMAT = "voltaic-sweep-1"
TIME = "Time [s]"
VOLTAGE = "Voltage [V]"
CURRENT = "Current [A]"
CAPACITY = "Discharge capacity [A.h]"
# The mean temperature: voltaic's CSV name first, then Solution's and PyBaMM's other names for it.
MEAN_TEMPERATURE = ("Cell temperature [K]", "Volume-averaged cell temperature [K]", "X-averaged cell temperature [K]")
MIN_TEMPERATURE = "Minimum cell temperature [K]"
MAX_TEMPERATURE = "Maximum cell temperature [K]"
STEP = "Step"
REGION_NAMES = ("negative", "separator", "positive")
DEFAULT_MAPS = "collector_current_density,negative_stoichiometry,column_temperature"
TIME_UNITS = {"s": 1.0, "min": 60.0, "h": 3600.0}


class InputError(Exception):
    """Input that cannot be plotted; the message is one line and names the file."""


def one_line(text):
    return " ".join(str(text).split())


# ---------------------------------------------------------------- time series


def read_timeseries(path):
    """Columns of a timeseries.csv by name, as lists of floats (nan kept)."""
    if not os.path.isfile(path):
        part = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".part")
        hint = " (a run still going or one that was killed leaves only " + part + ")" if os.path.exists(part) else ""
        raise InputError(f"{path}: no such file{hint}")
    with open(path, newline="") as f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            raise InputError(f"{path}: empty file (expected a header of column names)") from None
        header = [h.strip() for h in header]
        columns = {name: [] for name in header}
        for row in reader:
            if not row or all(not v.strip() for v in row):
                continue
            if len(row) != len(header):
                raise InputError(f"{path}:{reader.line_num}: {len(row)} values, the header has {len(header)} columns")
            for name, text in zip(header, row):
                try:
                    columns[name].append(float(text))
                except ValueError:
                    raise InputError(f"{path}:{reader.line_num}: column '{name}': '{text}' is not a number") from None
    if not header or not columns[header[0]]:
        raise InputError(f"{path}: no data rows")
    return columns


def require_columns(columns, path):
    """The columns the plot needs; names every one that is missing."""
    missing = [c for c in (TIME, VOLTAGE, CURRENT) if c not in columns]
    mean = next((c for c in MEAN_TEMPERATURE if c in columns), None)
    if mean is None:
        missing.append(MEAN_TEMPERATURE[0])
    if missing:
        raise InputError(f"{path}: missing column(s) " + ", ".join(f"'{c}'" for c in missing)
                         + " (has: " + ", ".join(f"'{c}'" for c in columns) + ")")
    return mean


def choose_time_unit(requested, times):
    if requested != "auto":
        return requested
    finite = [t for t in times if math.isfinite(t)]
    span = (max(finite) - min(finite)) if finite else 0.0
    return "h" if span >= 2 * 3600.0 else "s"


def plot_timeseries(plt, np, columns, mean_name, unit, out_path, title):
    scale = TIME_UNITS[unit]
    t = np.asarray(columns[TIME]) / scale
    fig, (ax_v, ax_i, ax_t) = plt.subplots(3, 1, sharex=True, figsize=(8.0, 8.0), layout="constrained")
    ax_v.plot(t, columns[VOLTAGE], color="tab:blue", lw=1.4)
    ax_v.set_ylabel(VOLTAGE)
    ax_i.plot(t, columns[CURRENT], color="tab:red", lw=1.4)
    ax_i.set_ylabel(CURRENT)
    ax_i.axhline(0.0, color="0.6", lw=0.6)
    mean = np.asarray(columns[mean_name])
    if MIN_TEMPERATURE in columns and MAX_TEMPERATURE in columns:
        ax_t.fill_between(t, columns[MIN_TEMPERATURE], columns[MAX_TEMPERATURE], color="tab:orange", alpha=0.3,
                          lw=0, label="min - max")
    ax_t.plot(t, mean, color="tab:orange", lw=1.4, label="mean")
    ax_t.set_ylabel("Temperature [K]")
    ax_t.legend(loc="best", fontsize=8, frameon=False)
    ax_t.ticklabel_format(axis="y", useOffset=False)
    ax_t.set_xlabel(f"Time [{unit}]")
    if STEP in columns:  # experiment step changes, as faint vertical lines
        steps = columns[STEP]
        for k in range(1, len(steps)):
            if steps[k] != steps[k - 1] and math.isfinite(t[k]):
                for ax in (ax_v, ax_i, ax_t):
                    ax.axvline(t[k], color="0.75", lw=0.6, ls=":")
    for ax in (ax_v, ax_i, ax_t):
        ax.grid(True, alpha=0.3)
    ax_v.set_title(title, fontsize=10)
    fig.align_ylabels((ax_v, ax_i, ax_t))
    fig.savefig(out_path, dpi=120)
    return fig


def timeseries_title(directory, columns):
    name = os.path.basename(os.path.normpath(os.path.abspath(directory)))
    parts = [name]
    if CAPACITY in columns:
        finite = [c for c in columns[CAPACITY] if math.isfinite(c)]
        if finite:
            parts.append(f"discharge capacity {finite[-1]:.4g} A.h")
    finite = [v for v in columns[VOLTAGE] if math.isfinite(v)]
    if finite:
        parts.append(f"final voltage {finite[-1]:.4g} V")
    return ", ".join(parts)


# ------------------------------------------------------------------- fields


def text_attribute(value):
    if isinstance(value, bytes):  # a fixed-length HDF5 string may carry NUL padding
        return value.decode("utf-8", "replace").rstrip("\x00")
    if hasattr(value, "shape") and getattr(value, "shape", None) == (1,):  # a one-element array
        return text_attribute(value[0])
    return str(value).rstrip("\x00")


def open_voltaic_h5(path, expected_format, what):
    """An HDF5 file of voltaic's, open for reading, whose root attribute
    "format" is `expected_format`; InputError otherwise."""
    import h5py

    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise InputError(f"{path}: cannot be read as HDF5 ({one_line(e)})") from None
    fmt = text_attribute(f.attrs["format"]) if "format" in f.attrs else None
    if fmt != expected_format:
        f.close()
        found = "no 'format' attribute" if fmt is None else f"format '{fmt}'"
        raise InputError(f"{path}: {found}; expected format '{expected_format}' ({what})")
    return f


def read_fields(path, key, frame):
    """The grid, times and one field of a fields.h5. For a 1D cell every frame
    is read; otherwise only `frame` (an index, negative counts from the end)."""
    import h5py
    import numpy as np

    with open_voltaic_h5(path, FIELDS_FORMAT, "a voltaic fields file") as f:
        dims = []
        for a in ("nx", "ny", "nz"):
            if a not in f.attrs:
                raise InputError(f"{path}: root attribute '{a}' is missing")
            dims.append(int(np.asarray(f.attrs[a]).reshape(-1)[0]))
        nx, ny, nz = dims
        if min(dims) < 1:
            raise InputError(f"{path}: nx, ny, nz = {nx}, {ny}, {nz}; each must be >= 1")
        cells = nx * ny * nz

        def dataset(name, shape=None):
            if name not in f or not isinstance(f[name], h5py.Dataset):
                raise InputError(f"{path}: dataset '{name}' is missing")
            d = f[name]
            if shape is not None and tuple(d.shape) != tuple(shape):
                raise InputError(f"{path}: dataset '{name}' has shape {tuple(d.shape)}, expected {tuple(shape)}")
            return d

        grid = {
            "x": dataset("/grid/x_nodes", (nx + 1,))[...],
            "y": dataset("/grid/y_nodes", (ny + 1,))[...],
            "z": dataset("/grid/z_nodes", (nz + 1,))[...],
            "region": dataset("/grid/region", (cells,))[...].reshape(nz, ny, nx),
            "nx": nx, "ny": ny, "nz": nz,
        }
        times = dataset("/time")[...].reshape(-1)
        frames = times.shape[0]
        if frames == 0:
            raise InputError(f"{path}: no frames (/time is empty)")
        keys = sorted(f["fields"].keys()) if "fields" in f and isinstance(f["fields"], h5py.Group) else []
        if key not in keys:
            planes = group_keys(h5py, f, "planes")
            hint = f" ('{key}' is a column field: draw it with --maps)" if key in planes else ""
            raise InputError(f"{path}: no field '{key}'; fields: {', '.join(keys) if keys else 'none'}{hint}")
        d = dataset(f"/fields/{key}", (frames, cells))
        name = text_attribute(d.attrs["name"]) if "name" in d.attrs else key
        units = text_attribute(d.attrs["units"]) if "units" in d.attrs else ""
        one_d = nx == 1 and ny == 1
        if not -frames <= frame < frames:
            raise InputError(f"{path}: frame {frame} out of range; the file has {frames} frame(s) (0 to {frames - 1})")
        index = frame % frames
        values = d[...] if one_d else d[index, :].reshape(nz, ny, nx)
    label = name if ("[" in name or not units) else f"{name} [{units}]"
    return {"grid": grid, "time": times, "values": values, "label": label, "frame": index, "one_d": one_d}


def group_keys(h5py, f, group):
    """The dataset names in a group of an open HDF5 file (none without it)."""
    if group not in f or not isinstance(f[group], h5py.Group):
        return []
    return sorted(k for k in f[group].keys() if isinstance(f[group][k], h5py.Dataset))


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
    return times


def read_maps(path, keys, times):
    """The column fields `keys` of a fields.h5 (its /planes datasets, one
    value per x-y column) at the frames nearest to `times` (seconds; None:
    the first, middle and last frames)."""
    import h5py
    import numpy as np

    with open_voltaic_h5(path, FIELDS_FORMAT, "a voltaic fields file") as f:
        dims = []
        for a in ("nx", "ny"):
            if a not in f.attrs:
                raise InputError(f"{path}: root attribute '{a}' is missing")
            dims.append(int(np.asarray(f.attrs[a]).reshape(-1)[0]))
        nx, ny = dims
        if min(dims) < 1:
            raise InputError(f"{path}: nx, ny = {nx}, {ny}; each must be >= 1")
        for name, n in (("x_nodes", nx), ("y_nodes", ny), ("time", None)):
            where = name if name == "time" else f"grid/{name}"
            if where not in f or not isinstance(f[where], h5py.Dataset):
                raise InputError(f"{path}: dataset '/{where}' is missing")
            if n is not None and f[where].shape != (n + 1,):
                raise InputError(f"{path}: dataset '/{where}' has shape {f[where].shape}, expected ({n + 1},)")
        x, y = f["grid/x_nodes"][...], f["grid/y_nodes"][...]
        stored = f["time"][...].reshape(-1)
        if stored.shape[0] == 0:
            raise InputError(f"{path}: no frames (/time is empty)")
        available = group_keys(h5py, f, "planes")
        for key in keys:
            if key not in available:
                cells = group_keys(h5py, f, "fields")
                hint = f" ('{key}' is a cell field: draw it with --field)" if key in cells else ""
                raise InputError(f"{path}: no column field '{key}'; column fields (/planes): "
                                 f"{', '.join(available) if available else 'none'}{hint}")
        if times is None:
            frames = sorted({0, (len(stored) - 1) // 2, len(stored) - 1})
        else:
            frames = []
            lo, hi = float(stored[0]), float(stored[-1])
            for t in times:
                slack = 1e-6 * max(1.0, abs(t))
                if t < lo - slack or t > hi + slack:
                    raise InputError(f"{path}: time {t:g} s is outside the stored frames ({lo:g} s to {hi:g} s)")
                frames.append(int(np.argmin(np.abs(stored - t))))
        fields = []
        for key in keys:
            d = f[f"planes/{key}"]
            if d.shape != (len(stored), nx * ny):
                raise InputError(f"{path}: dataset '/planes/{key}' has shape {d.shape}, "
                                 f"expected ({len(stored)}, {nx * ny})")
            name = text_attribute(d.attrs["name"]) if "name" in d.attrs else key
            units = text_attribute(d.attrs["units"]) if "units" in d.attrs else ""
            label = name if ("[" in name or not units) else f"{name} [{units}]"
            values = np.stack([d[k, :].reshape(ny, nx) for k in frames])  # [row, j, i]
            fields.append({"key": key, "label": label, "values": values})
    return {"x": x, "y": y, "times": [float(stored[k]) for k in frames], "frames": frames, "fields": fields}


def colour_range(np, v):
    """The finite values' range; a visible one around a uniform map."""
    finite = v[np.isfinite(v)]
    vmin, vmax = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if vmax - vmin <= 1e-12 * max(abs(vmin), abs(vmax), 1e-300):
        pad = max(1e-6 * abs(vmin), 1e-12)
        vmin, vmax = vmin - pad, vmax + pad
    return vmin, vmax


def plot_maps(plt, np, maps, out_path, title, per_frame=False):
    """A row of x-y maps per time, a column per field; x (electrode height)
    across, y (width) up, equal aspect, one colour scale per field (per
    panel with per_frame: the spread at each time, when the level moves)."""
    x_mm, y_mm = np.asarray(maps["x"]) * 1e3, np.asarray(maps["y"]) * 1e3
    rows, cols = len(maps["times"]), len(maps["fields"])
    # Panels as tall as the electrode is wide, within reason (a jelly roll
    # unrolled is metres long: its maps are narrow strips).
    aspect = (y_mm[-1] - y_mm[0]) / max(x_mm[-1] - x_mm[0], 1e-300)
    panel_h = min(max(3.0 * aspect, 1.6), 7.0)
    panel_w = min(max(panel_h / aspect, 0.8), 4.0) + 1.8  # the map, its colour bar and labels
    fig, axes = plt.subplots(rows, cols, figsize=(panel_w * cols + 0.4, panel_h * rows + 0.8), layout="constrained",
                             squeeze=False)
    cmap = masked_colormap()
    for c, field in enumerate(maps["fields"]):
        v = np.asarray(field["values"], dtype=float)
        vmin, vmax = colour_range(np, v)
        for r in range(rows):
            if per_frame:
                vmin, vmax = colour_range(np, v[r])
            ax = axes[r][c]
            m = ax.pcolormesh(x_mm, y_mm, np.ma.masked_invalid(v[r]), cmap=cmap, vmin=vmin, vmax=vmax,
                              shading="flat")
            ax.set_aspect("equal")
            ax.set_xlabel("x (electrode height) [mm]", fontsize=8)
            ax.set_ylabel("y (electrode width) [mm]", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.set_title(f"t = {maps['times'][r]:.6g} s (frame {maps['frames'][r]})", fontsize=8)
            bar = fig.colorbar(m, ax=ax, pad=0.02)
            bar.set_label(field["label"], fontsize=8)
            bar.ax.tick_params(labelsize=7)
            bar.formatter.set_useOffset(False)
            bar.update_ticks()
    fig.suptitle(title, fontsize=10)
    fig.savefig(out_path, dpi=120)
    return fig


def region_spans(region_by_layer):
    """(region, first layer, end layer) for each run of layers of one region."""
    spans, start = [], 0
    for k in range(1, len(region_by_layer) + 1):
        if k == len(region_by_layer) or region_by_layer[k] != region_by_layer[start]:
            spans.append((int(region_by_layer[start]), start, k))
            start = k
    return spans


def mark_regions(ax, z_um, spans, horizontal=True):
    """Region boundaries as dashed lines, region names at the side."""
    for region, k0, k1 in spans:
        if k0 > 0:
            (ax.axhline if horizontal else ax.axvline)(z_um[k0], color="white", lw=1.0, ls="--")
            (ax.axhline if horizontal else ax.axvline)(z_um[k0], color="black", lw=0.5, ls="--")
        name = REGION_NAMES[region] if 0 <= region < len(REGION_NAMES) else f"region {region}"
        ax.annotate(name, xy=(1.01, 0.5 * (z_um[k0] + z_um[k1])), xycoords=("axes fraction", "data"), fontsize=7,
                    va="center", ha="left", rotation=90, annotation_clip=False)


def masked_colormap():
    """inferno, with NaN (no value: a particle field in the separator) drawn light grey."""
    import matplotlib

    cmap = matplotlib.colormaps["inferno"].copy()
    cmap.set_bad("0.85")
    return cmap


def time_edges(np, t):
    """Column edges around the frame times: the midpoints, and the first and
    last times themselves (no column reaches outside the run)."""
    if len(t) == 1:
        return np.array([t[0] - 0.5, t[0] + 0.5])
    return np.concatenate(([t[0]], 0.5 * (t[1:] + t[:-1]), [t[-1]]))


def plot_map_1d(plt, np, data, unit, marked_frame, out_path):
    g = data["grid"]
    z_um = np.asarray(g["z"]) * 1e6
    values = np.ma.masked_invalid(np.asarray(data["values"], dtype=float))  # [frames, nz]
    scale = TIME_UNITS[unit]
    t = np.asarray(data["time"]) / scale
    spans = region_spans(g["region"][:, 0, 0])
    cmap = masked_colormap()
    fig, ax = plt.subplots(figsize=(9.0, 5.0), layout="constrained")
    if len(t) == 1:  # one frame: a profile through the thickness
        centres = 0.5 * (z_um[1:] + z_um[:-1])
        ax.plot(values[0], centres, color="tab:red", lw=1.4)
        ax.set_xlabel(data["label"])
        ax.set_title(f"{data['label']} at t = {data['time'][0]:.6g} s", fontsize=10)
    else:
        mesh = ax.pcolormesh(time_edges(np, t), z_um, values.T, cmap=cmap, shading="flat")
        bar = fig.colorbar(mesh, ax=ax, pad=0.06)
        bar.set_label(data["label"])
        bar.formatter.set_useOffset(False)
        bar.update_ticks()
        ax.set_xlabel(f"Time [{unit}]")
        ax.set_title(f"{data['label']} through the cell thickness", fontsize=10)
        if marked_frame is not None:
            ax.axvline(t[data["frame"]], color="cyan", lw=1.0)
    ax.set_ylabel("z (through thickness) [\u00b5m]")
    ax.set_ylim(z_um[0], z_um[-1])
    mark_regions(ax, z_um, spans)
    fig.savefig(out_path, dpi=120)
    return fig


def plot_map_3d(plt, np, data, out_path):
    g = data["grid"]
    nx, ny, nz = g["nx"], g["ny"], g["nz"]
    x_mm, y_mm = np.asarray(g["x"]) * 1e3, np.asarray(g["y"]) * 1e3
    z = np.asarray(g["z"])
    z_um = z * 1e6
    v = np.asarray(data["values"], dtype=float)  # [nz, ny, nx]
    # The layer at the middle of the thickness; if that one has no values (a
    # per-particle field in the separator), the nearest layer that has some.
    z_mid = 0.5 * (z[0] + z[-1])
    k_mid = int(min(max(np.searchsorted(z, z_mid, side="right") - 1, 0), nz - 1))
    order = sorted(range(nz), key=lambda k: (abs(k - k_mid), k))
    k_plane = next((k for k in order if np.isfinite(v[k]).any()), k_mid)
    j_mid = ny // 2
    finite = v[np.isfinite(v)]
    vmin, vmax = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if vmax - vmin <= 1e-12 * max(abs(vmin), abs(vmax), 1e-300):  # a uniform frame: a visible range around it
        pad = max(1e-6 * abs(vmin), 1e-12)
        vmin, vmax = vmin - pad, vmax + pad
    cmap = masked_colormap()
    spans = region_spans(g["region"][:, 0, 0])
    region = REGION_NAMES[int(g["region"][k_plane, 0, 0])] if 0 <= int(g["region"][k_plane, 0, 0]) < 3 else "?"

    fig, (ax_xy, ax_xz) = plt.subplots(2, 1, figsize=(9.0, 8.0), layout="constrained")
    m = ax_xy.pcolormesh(x_mm, y_mm, np.ma.masked_invalid(v[k_plane]), cmap=cmap, vmin=vmin, vmax=vmax,
                         shading="flat")
    ax_xy.set_xlabel("x (electrode height) [mm]")
    ax_xy.set_ylabel("y (electrode width) [mm]")
    ax_xy.set_title(f"x-y plane at z = {0.5 * (z_um[k_plane] + z_um[k_plane + 1]):.4g} \u00b5m ({region}, layer "
                    f"{k_plane}; layers 0-{nz - 1})", fontsize=9)
    ax_xz.pcolormesh(x_mm, z_um, np.ma.masked_invalid(v[:, j_mid, :]), cmap=cmap, vmin=vmin, vmax=vmax,
                     shading="flat")
    ax_xz.set_xlabel("x (electrode height) [mm]")
    ax_xz.set_ylabel("z (through thickness) [\u00b5m]")
    y_c = 0.5 * (y_mm[j_mid] + y_mm[j_mid + 1])
    ax_xz.set_title(f"x-z section at y = {y_c:.4g} mm", fontsize=9)
    mark_regions(ax_xz, z_um, spans)
    t = data["time"][data["frame"]]
    fig.suptitle(f"{data['label']} at t = {t:.6g} s (frame {data['frame']}; frames 0-{len(data['time']) - 1})",
                 fontsize=10)
    bar = fig.colorbar(m, ax=[ax_xy, ax_xz], pad=0.04, fraction=0.04)
    bar.set_label(data["label"])
    bar.formatter.set_useOffset(False)
    bar.update_ticks()
    fig.savefig(out_path, dpi=120)
    return fig


# -------------------------------------------------------------------- sweeps


def parse_cells(text):
    """'0,3,10-20' as a sorted list of cell indices."""
    cells = set()
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if m is None or (m.group(2) is not None and int(m.group(2)) < int(m.group(1))):
            raise InputError(f"--cells {text}: '{part.strip()}' is not a cell index or a range like 10-20")
        cells.update(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
    return sorted(cells)


def read_sweep(path, chosen, max_cells):
    """The curves of the chosen cells of a curves.h5 (all cells when `chosen`
    is None, at most `max_cells` of them, evenly spaced), with the varied
    parameters' names and values."""
    import h5py
    import numpy as np

    with open_voltaic_h5(path, SWEEP_FORMAT, "a voltaic sweep file") as f:
        for name in ("parameters", "status", "start", "count", "curves/time", "curves/voltage", "curves/current"):
            if name not in f or not isinstance(f[name], h5py.Dataset):
                raise InputError(f"{path}: dataset '{name}' is missing")
        start, count = f["start"][...], f["count"][...]
        cells = start.shape[0]
        parameters = f["parameters"][...].reshape(cells, -1)
        names = [text_attribute(n) for n in f["parameters"].attrs.get("names", [])]
        status = [text_attribute(s) for s in f["status"][...]]
        if chosen is None:
            with_rows = [i for i in range(cells) if count[i] > 0]
            if len(with_rows) > max_cells:
                with_rows = [with_rows[k] for k in np.linspace(0, len(with_rows) - 1, max_cells).round().astype(int)]
            chosen = sorted(set(with_rows))
        else:
            outside = [i for i in chosen if not 0 <= i < cells]
            if outside:
                raise InputError(f"{path}: cell {outside[0]} out of range; the sweep has {cells} cell(s) "
                                 f"(0 to {cells - 1})")
        curves = []
        for i in chosen:
            rows = slice(int(start[i]), int(start[i]) + int(count[i]))
            t = f["curves/time"][rows]
            current = f["curves/current"][rows]
            capacity = np.concatenate(([0.0], np.cumsum(0.5 * (current[1:] + current[:-1]) * np.diff(t)) / 3600.0))
            curves.append({"cell": i, "time": t, "voltage": f["curves/voltage"][rows],
                           "capacity": capacity[:len(t)], "status": status[i]})
    return {"cells": cells, "names": names, "parameters": parameters, "curves": curves}


def plot_sweep(plt, np, sweep, x_axis, unit, out_path, title):
    from matplotlib.collections import LineCollection

    curves = [c for c in sweep["curves"] if len(c["time"]) > 0]
    names, parameters = sweep["names"], sweep["parameters"]
    fig, ax = plt.subplots(figsize=(9.0, 5.5), layout="constrained")
    if x_axis == "time":
        xs = [np.asarray(c["time"]) / TIME_UNITS[unit] for c in curves]
        ax.set_xlabel(f"Time [{unit}]")
    else:
        xs = [c["capacity"] for c in curves]
        ax.set_xlabel(CAPACITY)
    segments = [np.column_stack((x, c["voltage"])) for x, c in zip(xs, curves)]
    colour_by = names[0] if names and parameters.shape[1] > 0 else None
    if len(curves) <= 10:  # few cells: one labelled line each
        for seg, c in zip(segments, curves):
            values = ", ".join(f"{n} = {parameters[c['cell'], k]:.4g}" for k, n in enumerate(names))
            ax.plot(seg[:, 0], seg[:, 1], lw=1.4, label=f"cell {c['cell']}: {values}" if values else f"cell {c['cell']}")
        if curves:
            ax.legend(loc="best", fontsize=7, frameon=False)
    elif curves:
        lines = LineCollection(segments, linewidths=0.8, cmap="viridis")
        if colour_by is not None:
            lines.set_array(np.array([parameters[c["cell"], 0] for c in curves]))
        ax.add_collection(lines)
        ax.autoscale()
        if colour_by is not None:
            bar = fig.colorbar(lines, ax=ax, pad=0.02)
            bar.set_label(colour_by)
    ax.set_ylabel(VOLTAGE)
    ax.grid(True, alpha=0.3)
    ax.set_title(title, fontsize=10)
    fig.savefig(out_path, dpi=120)
    return fig


def sweep_title(directory, sweep):
    name = os.path.basename(os.path.normpath(os.path.abspath(directory)))
    shown = sum(1 for c in sweep["curves"] if len(c["time"]) > 0)
    return f"{name}: {shown} of {sweep['cells']} cell(s) shown"


# --------------------------------------------------------------------- main


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("output_dir", metavar="OUTPUT_DIR",
                    help="a run's output directory (voltaic run --output) or a sweep's (with curves.h5)")
    ap.add_argument("--time-unit", choices=("auto", "s", "min", "h"), default="auto",
                    help="time axis unit (auto: s, or h from 2 h on)")
    ap.add_argument("--field", metavar="KEY", default=None,
                    help="field of fields.h5 to map (default: temperature; e.g. electrolyte_concentration, "
                         "electrolyte_potential, solid_potential, interfacial_current, heating, "
                         "particle_surface_concentration); writes KEY_map.png")
    ap.add_argument("--frame", metavar="N", type=int, default=None,
                    help="frame of fields.h5 for a 3D map (default: the last; negative counts from the end); "
                         "on a 1D map it is marked by a line")
    ap.add_argument("--maps", metavar="KEYS", nargs="?", const=DEFAULT_MAPS, default=None,
                    help="draw x-y maps of column fields of fields.h5 (comma-separated keys; default "
                         f"{DEFAULT_MAPS}; also negative_collector_potential, positive_collector_potential): "
                         "a row per time of --times; writes maps.png instead of the other plots")
    ap.add_argument("--times", metavar="LIST", default=None,
                    help="with --maps: times in seconds (900,1800,3200), each drawn at the nearest stored frame; "
                         "default the first, middle and last frames")
    ap.add_argument("--map-scale", choices=("field", "frame"), default="field",
                    help="with --maps: one colour scale per field over all times (default), or one per map "
                         "(shows the spread at each time, e.g. of a temperature that rises)")
    ap.add_argument("--x", choices=("capacity", "time"), default=None,
                    help="sweep: plot voltage against discharge capacity (default) or time")
    ap.add_argument("--cells", metavar="LIST", default=None,
                    help="sweep: the cells to plot, indices and ranges (0,3,10-20); default all")
    ap.add_argument("--max-cells", metavar="N", type=int, default=1000,
                    help="sweep: without --cells, plot at most N cells, evenly spaced (default 1000)")
    ap.add_argument("--show", action="store_true", help="also open the figures in a window")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    import matplotlib

    if not args.show:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    directory = args.output_dir
    if not os.path.isdir(directory):
        raise InputError(f"{directory}: no such directory")
    curves_path = os.path.join(directory, "curves.h5")
    if os.path.isfile(curves_path):
        return plot_sweep_dir(args, plt, np, directory, curves_path)
    if args.cells is not None or args.x is not None:
        raise InputError(f"{curves_path}: no such file (--cells and --x plot a sweep: voltaic sweep's output)")
    if args.maps is not None or args.times is not None:
        return plot_maps_dir(args, plt, np, directory)
    csv_path = os.path.join(directory, "timeseries.csv")
    columns = read_timeseries(csv_path)
    mean_name = require_columns(columns, csv_path)
    unit = choose_time_unit(args.time_unit, columns[TIME])

    # Every input is read and checked before anything is written.
    h5_path = fields_path(directory)
    key = args.field or "temperature"
    data = None
    if os.path.isfile(h5_path):
        try:
            import h5py  # noqa: F401
        except ImportError:
            h5py = None
        if h5py is None:
            message = (f"{h5_path} not plotted: the Python module h5py is missing "
                       "(apt-get install python3-h5py, or pip install h5py)")
            if args.field or args.frame is not None:
                raise InputError(message)
            print(f"{PROG}: warning: {message}", file=sys.stderr)
        else:
            data = read_fields(h5_path, key, -1 if args.frame is None else args.frame)
    elif args.field or args.frame is not None:
        raise InputError(f"{h5_path}: no such file (--field and --frame map fields.h5; set [output] "
                         "field_period or field_times in the config to write it)")

    written = [os.path.join(directory, "timeseries.png")]
    plot_timeseries(plt, np, columns, mean_name, unit, written[-1], timeseries_title(directory, columns))
    if data is not None:
        written.append(os.path.join(directory, f"{key}_map.png"))
        if data["one_d"]:
            plot_map_1d(plt, np, data, unit, args.frame, written[-1])
        else:
            plot_map_3d(plt, np, data, written[-1])
    print(f"{PROG}: wrote " + ", ".join(written))
    if args.show:
        plt.show()
    return 0


def fields_path(directory):
    """fields.h5 of `directory`; for a run cut over MPI ranks (fields.rank-R.h5
    pieces, no fields.h5) the pieces put together in a temporary fields.h5."""
    path = os.path.join(directory, "fields.h5")
    if os.path.isfile(path) or not os.path.isfile(os.path.join(directory, "fields.rank-0.h5")):
        return path
    import tempfile

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from field_pieces import write_whole

    whole = os.path.join(tempfile.mkdtemp(prefix="voltaic_plot_"), "fields.h5")
    try:
        write_whole(directory, whole)
    except (OSError, ValueError, KeyError) as e:
        raise InputError(f"{directory}: its fields.rank-*.h5 pieces cannot be put together ({one_line(e)})") from None
    return whole


def plot_maps_dir(args, plt, np, directory):
    if args.maps is None:
        raise InputError("--times picks the rows of --maps: give --maps too")
    if args.field or args.frame is not None:
        raise InputError("--maps draws column fields at --times; --field and --frame draw one cell field")
    keys = [k.strip() for k in args.maps.split(",") if k.strip()]
    if not keys:
        raise InputError(f"--maps {args.maps}: no field keys")
    times = parse_times(args.times) if args.times is not None else None
    h5_path = fields_path(directory)
    if not os.path.isfile(h5_path):
        raise InputError(f"{h5_path}: no such file (--maps draws its column fields; set [output] field_period "
                         "or field_times in the config to write it)")
    try:
        import h5py  # noqa: F401
    except ImportError:
        raise InputError(f"{h5_path} not plotted: the Python module h5py is missing "
                         "(apt-get install python3-h5py, or pip install h5py)") from None
    maps = read_maps(h5_path, keys, times)
    out_path = os.path.join(directory, "maps.png")
    name = os.path.basename(os.path.normpath(os.path.abspath(directory)))
    plot_maps(plt, np, maps, out_path, f"{name}: maps over the electrode plane", args.map_scale == "frame")
    print(f"{PROG}: wrote {out_path}")
    if args.show:
        plt.show()
    return 0


def plot_sweep_dir(args, plt, np, directory, curves_path):
    if args.field or args.frame is not None:
        raise InputError(f"{curves_path}: a sweep has no fields (--field and --frame map a run's fields.h5)")
    if args.maps is not None or args.times is not None:
        raise InputError(f"{curves_path}: a sweep has no fields (--maps and --times draw a run's fields.h5)")
    if args.max_cells < 1:
        raise InputError(f"--max-cells {args.max_cells}: must be at least 1")
    try:
        import h5py  # noqa: F401
    except ImportError:
        raise InputError(f"{curves_path} not plotted: the Python module h5py is missing "
                         "(apt-get install python3-h5py, or pip install h5py)") from None
    chosen = parse_cells(args.cells) if args.cells is not None else None
    sweep = read_sweep(curves_path, chosen, args.max_cells)
    times = [t for c in sweep["curves"] for t in (c["time"][:1].tolist() + c["time"][-1:].tolist())]
    unit = choose_time_unit(args.time_unit, times)
    out_path = os.path.join(directory, "sweep_voltage.png")
    plot_sweep(plt, np, sweep, args.x or "capacity", unit, out_path, sweep_title(directory, sweep))
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
