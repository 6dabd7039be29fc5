#!/usr/bin/env python3
"""Tests of tools/plot.py on output directories made up here (timeseries.csv
and fields.h5 of a 1D and a 3D cell, a sweep's curves.h5, laid out as voltaic
writes them).

    python3 tests/tools/test_plot.py [--keep DIR]

Plain Python, no pytest. Ends with "N passed, N failed"; exit status 0 when
all pass, 1 when one fails, 77 (skipped) when numpy, matplotlib or h5py is
missing.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.path.join(ROOT, "tools", "plot.py")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

COLUMNS = ["Time [s]", "Voltage [V]", "Current [A]", "Discharge capacity [A.h]", "Discharge energy [W.h]",
           "Cell temperature [K]", "Minimum cell temperature [K]", "Maximum cell temperature [K]",
           "Total heating [W]", "Step"]
FIELD_NAMES = {
    "electrolyte_concentration": ("Electrolyte concentration [mol.m-3]", "mol.m-3"),
    "electrolyte_potential": ("Electrolyte potential [V]", "V"),
    "solid_potential": ("Solid potential [V]", "V"),
    "temperature": ("Cell temperature [K]", "K"),
    "interfacial_current": ("Volumetric interfacial current density [A.m-3]", "A.m-3"),
    "heating": ("Total heating [W.m-3]", "W.m-3"),
    "particle_surface_concentration": ("Particle surface concentration [mol.m-3]", "mol.m-3"),
}
PLANE_NAMES = {
    "negative_collector_potential": ("Negative current collector potential [V]", "V"),
    "positive_collector_potential": ("Positive current collector potential [V]", "V"),
    "collector_current_density": ("Current collector current density [A.m-2]", "A.m-2"),
    "negative_stoichiometry": ("Negative electrode stoichiometry", ""),
    "column_temperature": ("Column-averaged cell temperature [K]", "K"),
}


# ------------------------------------------------------------ made-up output


def write_timeseries(path, rows=200, nan_row=None, columns=COLUMNS, duration=3555.0):
    """A 1C discharge look-alike: falling voltage, constant current, rising temperature."""
    with open(path, "w") as f:
        f.write(",".join(columns) + "\n")
        for k in range(rows):
            t = duration * k / (rows - 1)
            s = t / duration
            values = {
                "Time [s]": t, "Voltage [V]": 4.0 - 0.6 * s - 0.6 * s ** 8, "Current [A]": 5.0 if k else 0.0,
                "Discharge capacity [A.h]": 5.0 * t / 3600.0, "Discharge energy [W.h]": 18.0 * t / 3600.0,
                "Cell temperature [K]": 298.15 + 8.0 * s, "Minimum cell temperature [K]": 298.15 + 7.0 * s,
                "Maximum cell temperature [K]": 298.15 + 9.5 * s, "Total heating [W]": 1.2 + s,
                "Step": 0.0 if s < 0.7 else 1.0,
            }
            row = ["nan" if (k == nan_row and c == "Voltage [V]") else "%.17g" % values[c] for c in columns]
            f.write(",".join(row) + "\n")


def write_fields(path, nx, ny, layers=(8, 4, 7), frames=12, fmt="voltaic-fields-1", thickness=(85.2e-6, 12e-6, 75.6e-6),
                 width=(0.065, 1.58), planes=True):
    """A fields.h5 in the voltaic-fields-1 layout (x fastest, z slowest),
    with the column fields under /planes unless `planes` is False."""
    import h5py
    import numpy as np

    nz = sum(layers)
    z = [0.0]
    region = []
    for r, (n, h) in enumerate(zip(layers, thickness)):
        for _ in range(n):
            z.append(z[-1] + h / n)
            region.append(r)
    x = np.linspace(0.0, width[0], nx + 1)
    y = np.linspace(0.0, width[1], ny + 1)
    z = np.array(z)
    xc, yc, zc = 0.5 * (x[1:] + x[:-1]), 0.5 * (y[1:] + y[:-1]), 0.5 * (z[1:] + z[:-1])
    zz, yy, xx = np.meshgrid(zc, yc, xc, indexing="ij")  # [nz, ny, nx]
    region_cells = np.broadcast_to(np.array(region, dtype=np.int32)[:, None, None], (nz, ny, nx)).reshape(-1)
    times = np.linspace(0.0, 3500.0, frames)
    with h5py.File(path, "w") as f:
        f.attrs["format"] = fmt
        for name, n in (("nx", nx), ("ny", ny), ("nz", nz)):
            f.attrs[name] = np.int64(n)
        f["/grid/x_nodes"] = x
        f["/grid/y_nodes"] = y
        f["/grid/z_nodes"] = z
        f["/grid/region"] = region_cells
        f["/time"] = times
        for key, (name, units) in FIELD_NAMES.items():
            data = np.empty((frames, nx * ny * nz))
            for i, t in enumerate(times):
                s = t / 3500.0
                v = 298.15 + 8.0 * s + 0.5 * s * np.sin(math.pi * zz / z[-1]) + 0.3 * s * xx / width[0] - 0.2 * yy
                if key != "temperature":
                    v = 1000.0 * (1.0 + 0.3 * s * np.cos(math.pi * zz / z[-1]))
                if key == "particle_surface_concentration":
                    v = np.where(region_cells.reshape(nz, ny, nx) == 1, np.nan, v)
                data[i] = v.reshape(-1)
            d = f.create_dataset(f"/fields/{key}", data=data)
            d.attrs["name"] = name
            d.attrs["units"] = units
        if not planes:
            return
        f["/grid/plane_z_nodes"] = np.array([z[-1], z[-1] + 16e-6])
        yy2, xx2 = np.meshgrid(yc, xc, indexing="ij")  # [ny, nx]
        for key, (name, units) in PLANE_NAMES.items():
            data = np.empty((frames, nx * ny))
            for i, t in enumerate(times):
                s = t / 3500.0
                v = {
                    "negative_collector_potential": np.zeros_like(xx2),
                    "positive_collector_potential": np.full_like(xx2, 4.0 - 0.8 * s),
                    "collector_current_density": 30.0 + 5.0 * xx2 / width[0] - 3.0 * yy2 / width[1],
                    "negative_stoichiometry": 0.9 - 0.8 * s + 0.05 * s * xx2 / width[0],
                    "column_temperature": 298.15 + 8.0 * s + 0.3 * s * xx2 / width[0] - 0.2 * yy2,
                }[key]
                data[i] = v.reshape(-1)
            d = f.create_dataset(f"/planes/{key}", data=data)
            d.attrs["name"] = name
            d.attrs["units"] = units


def write_sweep(path, cells=30, rows=120, fmt="voltaic-sweep-1", not_run=(4,)):
    """A curves.h5 in the voltaic-sweep-1 layout: ragged curves, rows in an
    order other than the cells' (the order they finished), a start/count table."""
    import h5py
    import numpy as np

    thickness = np.linspace(60e-6, 100e-6, cells)
    parameters = np.column_stack((thickness, np.full(cells, 298.15)))
    order = list(range(cells))[::-1]
    start, count = np.zeros(cells, dtype=np.int64), np.zeros(cells, dtype=np.int64)
    series = {k: [] for k in ("time", "voltage", "current", "temperature")}
    at = 0
    for i in order:
        if i in not_run:
            continue
        n = rows - i  # cells of different lengths
        t = np.linspace(0.0, 3500.0 * thickness[i] / 100e-6, n)
        s = t / t[-1]
        series["time"].append(t)
        series["voltage"].append(4.1 - 0.7 * s - 0.5 * s ** 8)
        series["current"].append(np.full(n, 5.0))
        series["temperature"].append(298.15 + 5.0 * s)
        start[i], count[i] = at, n
        at += n
    with h5py.File(path, "w") as f:
        f.attrs["format"] = fmt
        f.attrs["cells"] = np.int64(cells)
        d = f.create_dataset("parameters", data=parameters)
        d.attrs["names"] = ["Negative electrode thickness [m]", "Ambient temperature [K]"]
        f["status"] = ["not run" if i in not_run else "completed" for i in range(cells)]
        f["start"] = start
        f["count"] = count
        for key, parts in series.items():
            f[f"curves/{key}"] = np.concatenate(parts)


# ------------------------------------------------------------------- checks


def run_plot(*args):
    p = subprocess.run([sys.executable, PLOT, *args], capture_output=True, text=True, timeout=240)
    return p.returncode, p.stdout, p.stderr


def assert_png(path):
    assert os.path.isfile(path), f"{path} was not written"
    with open(path, "rb") as f:
        assert f.read(8) == PNG_MAGIC, f"{path} is not a PNG"
    assert os.path.getsize(path) > 10000, f"{path} is suspiciously small ({os.path.getsize(path)} bytes)"


def assert_bad_input(args, expected):
    """Exit status 2, one line on stderr that says `expected`, and no PNG written."""
    directory = args[0]
    before = set(os.listdir(directory)) if os.path.isdir(directory) else set()
    rc, out, err = run_plot(*args)
    lines = [line for line in err.splitlines() if line.strip()]
    assert rc == 2, f"plot.py {' '.join(args)}: exit {rc}, expected 2; stderr: {err!r}"
    assert len(lines) == 1, f"plot.py {' '.join(args)}: expected one line on stderr, got {err!r}"
    assert lines[0].startswith("plot.py: error: "), f"unexpected message {lines[0]!r}"
    assert expected in lines[0], f"message {lines[0]!r} does not mention {expected!r}"
    after = set(os.listdir(directory)) if os.path.isdir(directory) else set()
    assert after == before, f"plot.py {' '.join(args)} wrote {sorted(after - before)} on bad input"


def make_dir(base, name, nx=None, ny=None, **kw):
    d = os.path.join(base, name)
    os.makedirs(d)
    write_timeseries(os.path.join(d, "timeseries.csv"), **kw)
    if nx is not None:
        write_fields(os.path.join(d, "fields.h5"), nx, ny)
    return d


def test_timeseries_only(base):
    d = make_dir(base, "csv_only", nan_row=57)  # a NaN value is drawn as a gap, not an error
    rc, out, err = run_plot(d)
    assert rc == 0, err
    assert_png(os.path.join(d, "timeseries.png"))
    assert not os.path.exists(os.path.join(d, "temperature_map.png"))
    assert "wrote" in out


def test_time_unit_hours(base):
    d = make_dir(base, "hours", duration=5 * 3600.0)
    rc, out, err = run_plot(d, "--time-unit", "h")
    assert rc == 0, err
    assert_png(os.path.join(d, "timeseries.png"))


def test_1d_map(base):
    d = make_dir(base, "cell_1d", nx=1, ny=1)
    rc, out, err = run_plot(d)
    assert rc == 0, err
    assert_png(os.path.join(d, "timeseries.png"))
    assert_png(os.path.join(d, "temperature_map.png"))


def test_1d_other_field_with_nan(base):
    d = make_dir(base, "cell_1d_field", nx=1, ny=1)
    rc, out, err = run_plot(d, "--field", "particle_surface_concentration", "--frame", "3")
    assert rc == 0, err
    assert_png(os.path.join(d, "particle_surface_concentration_map.png"))


def test_3d_map(base):
    d = make_dir(base, "cell_3d", nx=6, ny=5)
    rc, out, err = run_plot(d)
    assert rc == 0, err
    assert_png(os.path.join(d, "temperature_map.png"))
    rc, out, err = run_plot(d, "--field", "particle_surface_concentration", "--frame", "0")
    assert rc == 0, err  # the middle layer is separator (all NaN): the nearest electrode layer is drawn
    assert_png(os.path.join(d, "particle_surface_concentration_map.png"))
    rc, out, err = run_plot(d, "--frame", "-2")
    assert rc == 0, err


def test_one_frame(base):
    import h5py

    d = make_dir(base, "one_frame", nx=1, ny=1)
    with h5py.File(os.path.join(d, "fields.h5"), "a") as f:  # keep frame 0 only
        t = f["/time"][:1]
        del f["/time"]
        f["/time"] = t
        for key in list(f["fields"].keys()):
            data, attrs = f["fields"][key][:1], dict(f["fields"][key].attrs)
            del f["fields"][key]
            f["fields"][key] = data
            f["fields"][key].attrs.update(attrs)
    rc, out, err = run_plot(d)
    assert rc == 0, err
    assert_png(os.path.join(d, "temperature_map.png"))


def test_bad_inputs(base):
    assert_bad_input([os.path.join(base, "no_such_dir")], "no such directory")
    empty = os.path.join(base, "empty")
    os.makedirs(empty)
    assert_bad_input([empty], "timeseries.csv: no such file")

    d = os.path.join(base, "missing_column")
    os.makedirs(d)
    write_timeseries(os.path.join(d, "timeseries.csv"), columns=[c for c in COLUMNS if c != "Voltage [V]"])
    assert_bad_input([d], "missing column(s) 'Voltage [V]'")

    d = make_dir(base, "not_a_number")
    with open(os.path.join(d, "timeseries.csv"), "a") as f:
        f.write(",".join(["1e3", "x"] + ["0"] * (len(COLUMNS) - 2)) + "\n")
    assert_bad_input([d], "'x' is not a number")

    d = make_dir(base, "header_only")
    with open(os.path.join(d, "timeseries.csv"), "w") as f:
        f.write(",".join(COLUMNS) + "\n")
    assert_bad_input([d], "no data rows")

    d = make_dir(base, "wrong_format")
    write_fields(os.path.join(d, "fields.h5"), 1, 1, fmt="something-else-3")
    assert_bad_input([d], "expected format 'voltaic-fields-1'")

    d = make_dir(base, "not_hdf5")
    with open(os.path.join(d, "fields.h5"), "w") as f:
        f.write("this is not HDF5\n")
    assert_bad_input([d], "cannot be read as HDF5")

    d = make_dir(base, "bad_key", nx=1, ny=1)
    assert_bad_input([d, "--field", "no_such_field"], "no field 'no_such_field'; fields: ")
    assert_bad_input([d, "--frame", "99"], "frame 99 out of range")

    d = make_dir(base, "field_without_h5")
    assert_bad_input([d, "--field", "heating"], "fields.h5: no such file")

    rc, out, err = run_plot(d, "--time-unit", "fortnights")  # argparse's own usage error
    assert rc == 2 and "invalid choice" in err, err


def test_maps(base):
    d = make_dir(base, "maps_3d", nx=6, ny=5)
    rc, out, err = run_plot(d, "--maps", "collector_current_density,negative_stoichiometry,column_temperature",
                            "--times", "900,1800,3200")
    assert rc == 0, err
    assert_png(os.path.join(d, "maps.png"))
    assert "maps.png" in out
    assert not os.path.exists(os.path.join(d, "timeseries.png"))  # --maps draws the maps only
    os.remove(os.path.join(d, "maps.png"))
    rc, out, err = run_plot(d, "--maps")  # the default fields at the first, middle and last frames
    assert rc == 0, err
    assert_png(os.path.join(d, "maps.png"))
    rc, out, err = run_plot(d, "--maps", "negative_collector_potential,positive_collector_potential", "--times", "0")
    assert rc == 0, err  # uniform maps draw too
    os.remove(os.path.join(d, "maps.png"))
    rc, out, err = run_plot(d, "--maps", "column_temperature", "--map-scale", "frame")
    assert rc == 0, err
    assert_png(os.path.join(d, "maps.png"))
    rc, out, err = run_plot(d, "--maps", "--map-scale", "panel")
    assert rc != 0 and "panel" in err


def test_maps_of_a_1d_cell(base):
    d = make_dir(base, "maps_1d", nx=1, ny=1)
    rc, out, err = run_plot(d, "--maps", "negative_stoichiometry", "--times", "0,3500")
    assert rc == 0, err
    assert_png(os.path.join(d, "maps.png"))


def test_maps_bad_inputs(base):
    d = make_dir(base, "maps_bad", nx=4, ny=3)
    assert_bad_input([d, "--maps", "no_such_map"], "no column field 'no_such_map'; column fields (/planes): ")
    assert_bad_input([d, "--maps", "temperature"], "is a cell field: draw it with --field")
    assert_bad_input([d, "--field", "column_temperature"], "is a column field: draw it with --maps")
    assert_bad_input([d, "--maps", "column_temperature", "--times", "100,x"], "'x' is not a time in seconds")
    assert_bad_input([d, "--maps", "column_temperature", "--times", "9000"], "time 9000 s is outside the stored")
    assert_bad_input([d, "--times", "100"], "give --maps too")
    assert_bad_input([d, "--maps", "column_temperature", "--frame", "1"], "--field and --frame draw one cell field")
    d = make_dir(base, "maps_without_planes")
    write_fields(os.path.join(d, "fields.h5"), 4, 3, planes=False)
    assert_bad_input([d, "--maps"], "column fields (/planes): none")
    d = make_dir(base, "maps_without_h5")
    assert_bad_input([d, "--maps"], "fields.h5: no such file")


def make_sweep(base, name, **kw):
    d = os.path.join(base, name)
    os.makedirs(d)
    write_sweep(os.path.join(d, "curves.h5"), **kw)
    return d


def test_sweep_all_cells(base):
    d = make_sweep(base, "sweep")
    rc, out, err = run_plot(d)
    assert rc == 0, err
    assert_png(os.path.join(d, "sweep_voltage.png"))
    assert not os.path.exists(os.path.join(d, "timeseries.png"))
    rc, out, err = run_plot(d, "--x", "time", "--max-cells", "7", "--time-unit", "min")
    assert rc == 0, err
    assert_png(os.path.join(d, "sweep_voltage.png"))


def test_sweep_chosen_cells(base):
    d = make_sweep(base, "sweep_cells")
    rc, out, err = run_plot(d, "--cells", "0,4,10-12")  # cell 4 was not run: nothing to draw for it
    assert rc == 0, err
    assert_png(os.path.join(d, "sweep_voltage.png"))


def test_sweep_bad_inputs(base):
    d = make_sweep(base, "sweep_bad")
    assert_bad_input([d, "--cells", "3,x"], "'x' is not a cell index")
    assert_bad_input([d, "--cells", "29-31"], "cell 30 out of range; the sweep has 30 cell(s)")
    assert_bad_input([d, "--field", "temperature"], "a sweep has no fields")
    assert_bad_input([d, "--maps"], "a sweep has no fields")
    d = make_sweep(base, "sweep_format", fmt="voltaic-fields-1")
    assert_bad_input([d], "expected format 'voltaic-sweep-1'")
    d = make_dir(base, "run_not_sweep")
    assert_bad_input([d, "--cells", "0"], "curves.h5: no such file")


def split_into_pieces(whole, directory, blocks):
    """The fields.h5 `whole` cut into the fields.rank-R.h5 pieces a run on
    len(blocks) ranks writes (block R: columns (i0, i1, j0, j1))."""
    import h5py
    import numpy as np

    with h5py.File(whole, "r") as f:
        nx, ny, nz = (int(f.attrs[a]) for a in ("nx", "ny", "nz"))
        for r, (i0, i1, j0, j1) in enumerate(blocks):
            with h5py.File(os.path.join(directory, f"fields.rank-{r}.h5"), "w") as p:
                p.attrs.update(dict(f.attrs, nx=np.int64(i1 - i0), ny=np.int64(j1 - j0), i_begin=np.int64(i0),
                                    j_begin=np.int64(j0), plane_nx=np.int64(nx), plane_ny=np.int64(ny)))
                p["/time"] = f["/time"][()]
                p["/grid/x_nodes"] = f["/grid/x_nodes"][i0:i1 + 1]
                p["/grid/y_nodes"] = f["/grid/y_nodes"][j0:j1 + 1]
                p["/grid/z_nodes"] = f["/grid/z_nodes"][()]
                p["/grid/plane_z_nodes"] = f["/grid/plane_z_nodes"][()]
                p["/grid/region"] = f["/grid/region"][()].reshape(nz, ny, nx)[:, j0:j1, i0:i1].reshape(-1)
                for group, layers in (("fields", nz), ("planes", 1)):
                    for key in f[group]:
                        d = f[group][key]
                        v = d[()].reshape(-1, layers, ny, nx)[:, :, j0:j1, i0:i1]
                        p[f"/{group}/{key}"] = v.reshape(v.shape[0], -1)
                        p[f"/{group}/{key}"].attrs.update(dict(d.attrs))


def test_pieces_of_a_run_over_ranks(base):
    """A run cut over ranks leaves fields.rank-R.h5 pieces: field_pieces puts
    them together bit for bit, and plot.py draws them as it draws fields.h5."""
    import numpy as np

    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from field_pieces import read_fields_dir

    whole_dir = make_dir(base, "whole", nx=7, ny=5)
    d = make_dir(base, "pieces")
    split_into_pieces(os.path.join(whole_dir, "fields.h5"), d, [(0, 4, 0, 3), (4, 7, 0, 3), (0, 4, 3, 5), (4, 7, 3, 5)])
    a, attrs, names = read_fields_dir(whole_dir)
    b, pieces_attrs, pieces_names = read_fields_dir(d)
    assert int(pieces_attrs["nx"]) == 7 and int(pieces_attrs["ny"]) == 5, pieces_attrs
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name].shape == b[name].shape, name
        assert np.array_equal(a[name], b[name], equal_nan=a[name].dtype.kind == "f"), name
    assert pieces_names["/fields/temperature"]["units"] == "K"
    rc, out, err = run_plot(d, "--field", "temperature")
    assert rc == 0, err
    assert_png(os.path.join(d, "temperature_map.png"))
    rc, out, err = run_plot(d, "--maps")
    assert rc == 0, err
    assert_png(os.path.join(d, "maps.png"))
    os.remove(os.path.join(d, "fields.rank-3.h5"))  # a piece missing: a one-line error
    assert_bad_input([d, "--field", "temperature"], "cannot be put together")


TESTS = [test_timeseries_only, test_time_unit_hours, test_1d_map, test_1d_other_field_with_nan, test_3d_map,
         test_one_frame, test_bad_inputs, test_maps, test_maps_of_a_1d_cell, test_maps_bad_inputs,
         test_sweep_all_cells, test_sweep_chosen_cells, test_sweep_bad_inputs, test_pieces_of_a_run_over_ranks]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", metavar="DIR", help="make the test directories here and keep them (to look at the PNGs)")
    args = ap.parse_args()
    try:
        import h5py  # noqa: F401
        import matplotlib  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        print(f"test_plot.py: skipped: {e} (tools/setup.sh installs python3-matplotlib, python3-numpy, python3-h5py)")
        return 77
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="voltaic-plot-test-") as tmp:
        base = args.keep or tmp
        for test in TESTS:
            where = os.path.join(base, test.__name__)
            os.makedirs(where, exist_ok=True)
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
