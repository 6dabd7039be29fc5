"""The fields of a voltaic run as whole-plane arrays: fields.h5 as it is, or
the pieces a run cut over MPI ranks leaves (fields.rank-R.h5, each rank's
block of the plane, its place given by the root attributes i_begin,
j_begin, plane_nx and plane_ny) put together.

read_fields_dir(directory) -> (datasets, attributes, dataset_attributes):
datasets maps "/time", "/grid/...", "/fields/KEY" and "/planes/KEY" to numpy
arrays of the whole cell's shape (cells and columns x fastest, as in
fields.h5); attributes holds the root attributes of the whole plane (format,
nx, ny, nz); dataset_attributes each dataset's (name, units).
write_whole(directory, path) writes them as one fields.h5 at `path`.
Needs h5py.
"""
import glob
import os


def _pieces(directory):
    whole = os.path.join(directory, "fields.h5")
    if os.path.exists(whole):
        return [whole]
    found = sorted(glob.glob(os.path.join(directory, "fields.rank-*.h5")),
                   key=lambda p: int(p.rsplit("-", 1)[1][:-3]))
    if not found:
        raise FileNotFoundError(f"{directory}: neither fields.h5 nor fields.rank-*.h5")
    return found


def read_fields_dir(directory):
    import h5py
    import numpy as np

    datasets, attributes, dataset_attributes, covered = {}, {}, {}, None
    for path in _pieces(directory):
        with h5py.File(path, "r") as f:
            a = {k: f.attrs[k] for k in f.attrs}
            nx, ny, nz = int(a["nx"]), int(a["ny"]), int(a["nz"])
            i0, j0 = int(a.get("i_begin", 0)), int(a.get("j_begin", 0))
            px, py = int(a.get("plane_nx", nx)), int(a.get("plane_ny", ny))
            if not attributes:
                attributes = dict(a, nx=px, ny=py, nz=nz)
                covered = np.zeros((py, px), dtype=int)
            covered[j0:j0 + ny, i0:i0 + nx] += 1
            block = (slice(j0, j0 + ny), slice(i0, i0 + nx))

            def put(name, values, layers):
                frames = values.shape[:-1]
                shaped = values.reshape(frames + (layers, ny, nx))
                if name not in datasets:
                    empty = np.nan if values.dtype.kind == "f" else -1
                    datasets[name] = np.full(frames + (layers, py, px), empty, dtype=values.dtype)
                datasets[name][(Ellipsis,) + block] = shaped

            datasets["/time"] = f["time"][()]
            put("/grid/region", f["grid/region"][()], nz)
            for axis in ("z_nodes", "plane_z_nodes"):
                datasets["/grid/" + axis] = f["grid/" + axis][()]
            for axis, start, count, size in (("x_nodes", i0, nx, px), ("y_nodes", j0, ny, py)):
                name = "/grid/" + axis
                if name not in datasets:
                    datasets[name] = np.full(size + 1, np.nan)
                datasets[name][start:start + count + 1] = f["grid/" + axis][()]
            for group, layers in (("fields", nz), ("planes", 1)):
                for key in f[group]:
                    put(f"/{group}/{key}", f[group][key][()], layers)
            for name in ("/time", "/grid/x_nodes", "/grid/y_nodes", "/grid/z_nodes", "/grid/plane_z_nodes") + tuple(
                    f"/{g}/{k}" for g in ("fields", "planes") for k in f[g]):
                dataset_attributes[name] = {k: f[name].attrs[k] for k in f[name].attrs}
    if covered is None or (covered != 1).any():
        raise ValueError("the field pieces do not cover the plane exactly once")
    for name, values in datasets.items():  # back to the flat layout of fields.h5
        if name in ("/grid/region",) or name.startswith(("/fields/", "/planes/")):
            datasets[name] = values.reshape(values.shape[:values.ndim - 3] + (-1,))
    for k in ("i_begin", "j_begin", "plane_nx", "plane_ny"):
        attributes.pop(k, None)
    return datasets, attributes, dataset_attributes


def write_whole(directory, path):
    """The fields of `directory` (pieces put together) as one fields.h5 at `path`."""
    import h5py

    datasets, attributes, dataset_attributes = read_fields_dir(directory)
    with h5py.File(path, "w") as f:
        f.attrs.update(attributes)
        for group in ("grid", "fields", "planes"):
            f.require_group(group)
        for name, values in datasets.items():
            f[name] = values
            f[name].attrs.update(dataset_attributes.get(name, {}))
