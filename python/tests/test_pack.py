import subprocess

import numpy as np
import pytest

import voltaic

# Coarse cells, as the other tests' ageing runs: a pack is many cells.
GRID = {
    "negative_cells": 6,
    "separator_cells": 4,
    "positive_cells": 6,
    "radial_shells": 6,
}
SOLVER = {"event_tolerance": 1e-10}
THICKNESS = "Negative electrode thickness [m]"
RADIUS = "Positive particle radius [m]"


def test_identical_parallel_cells_are_one_cell_at_a_third_of_the_current():
    pack = voltaic.Pack(
        3, 1, grid=GRID, solver=SOLVER, thermal="lumped", backend="cpu"
    )
    out = pack.run(["Discharge at 15 A until 3.0 V", "Rest for 10 minutes"])
    sol = voltaic.Simulation(
        experiment=["Discharge at 5 A until 3.0 V", "Rest for 10 minutes"],
        grid=GRID,
        solver=SOLVER,
        thermal="lumped",
        backend="cpu",
    ).solve()
    assert out["completed"], out["termination"]
    assert (out["parallel"], out["series"]) == (3, 1)
    assert out["executor"] == "cpu"
    assert len(out["Time [s]"]) == len(sol)
    assert out["Cell voltage [V]"].shape == (len(sol), 3)
    assert np.allclose(out["Time [s]"], sol["Time [s]"], rtol=1e-9, atol=1e-9)
    assert np.max(np.abs(out["Voltage [V]"] - sol["Voltage [V]"])) < 1e-8
    for k in range(3):
        cell = out["Cell current [A]"][:, k]
        assert np.max(np.abs(cell - sol["Current [A]"])) < 1e-12
    assert out["steps"] == sol.steps_taken
    assert pack.nominal_capacity == pytest.approx(3 * 5.0, rel=0.02)


def test_unlike_cells_share_each_groups_current():
    pack = voltaic.Pack(
        2,
        2,
        cells={
            THICKNESS: [7.5e-5, 8.5e-5, 9e-5, 8e-5],
            RADIUS: [5.0e-6, 5.5e-6, 5.2e-6, 4.8e-6],
        },
        connection_resistance=[1e-3, 2e-3, 1.5e-3, 0.5e-3],
        busbar_resistance=1e-3,
        grid=GRID,
        backend="cpu",
    )
    out = pack.run(
        ["Discharge at 1C for 5 minutes", "Rest for 2 minutes"]
    )
    assert out["completed"], out["termination"]
    amps = out["Cell current [A]"]
    assert amps.shape == (len(out["Time [s]"]), 4)
    pack_amps = out["Current [A]"]
    for group in range(2):  # cell k = s Np + p
        total = amps[:, 2 * group] + amps[:, 2 * group + 1]
        assert np.allclose(total, pack_amps, rtol=1e-10, atol=1e-10)
    assert np.max(np.abs(amps[:, 0] - amps[:, 1])) > 1e-3  # unlike cells
    assert "Coolant outlet temperature [K]" not in out
    assert out["circuit iterations"] >= out["steps"] > 0


def test_a_flowing_coolant_leaves_warmer_than_it_came():
    pack = voltaic.Pack(
        2,
        2,
        grid=GRID,
        thermal="lumped",
        network={
            "neighbour_conductance": 0.5,
            "links": [(0, 3, 0.2)],
            "coolant": "flow",
            "coolant_conductance": 1.0,
            "coolant_temperature": 293.15,
            "coolant_capacity_rate": 2.0,
        },
        backend="cpu",
    )
    out = pack.run(["Discharge at 1C for 10 minutes"])
    assert out["completed"], out["termination"]
    outlet = out["Coolant outlet temperature [K]"]
    assert outlet.shape == out["Time [s]"].shape
    assert outlet[-1] > 293.15
    assert np.all(out["Cell heat [W]"][-1] > 0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(parallel=0, series=2), "pack.parallel"),
        (dict(connection_resistance=-1e-3), "pack.connection_resistance"),
        (dict(busbar_resistance=-1e-3), "pack.busbar_resistance"),
        (
            dict(connection_resistance=[1e-3, 1e-3, 1e-3]),
            "pack.connection_resistances",
        ),
        (dict(cells={THICKNESS: [8e-5, 8e-5, 8e-5]}), "3 cells"),
        (
            dict(cells={"Negative electrode thicknes [m]": [8e-5] * 4}),
            "Negative electrode thickness",
        ),
        (
            dict(thermal="isothermal", network={"neighbour_conductance": 1}),
            "pack.thermal",
        ),
        (dict(network={"neighbor_conductance": 1}), "neighbour_conductance"),
    ],
)
def test_bad_inputs_are_refused_naming_the_key(kwargs, match):
    args = dict(parallel=2, series=2, grid=GRID, backend="cpu")
    args.update(kwargs)
    with pytest.raises(voltaic.ConfigError, match=match):
        voltaic.Pack(**args)


def test_a_bad_cell_value_names_the_cell():
    with pytest.raises(ValueError, match="cell 3"):
        voltaic.Pack(
            2, 2, cells={"Negative electrode porosity": [0.25, 0.25, 0.25, 1.5]}
        )


def test_a_second_run_starts_from_the_start():
    pack = voltaic.Pack(1, 2, grid=GRID, backend="cpu")
    first = pack.run(["Discharge at 1C for 2 minutes"])
    second = pack.run(["Discharge at 1C for 2 minutes"])
    assert np.array_equal(first["Voltage [V]"], second["Voltage [V]"])


def test_a_drive_cycle_is_the_packs_current():
    t = np.arange(0.0, 121.0, 10.0)
    amps = 8.0 + 4.0 * np.sin(t / 20.0)
    pack = voltaic.Pack(2, 2, grid=GRID, backend="cpu")
    out = pack.run(["Run trip (A)"], drive_cycles={"trip": (t, amps)})
    assert out["completed"], out["termination"]
    assert out["Time [s]"][-1] == pytest.approx(120.0)
    expected = np.interp(out["Time [s]"], t, amps)
    assert np.allclose(out["Current [A]"], expected, rtol=1e-9, atol=1e-9)


def test_a_cuda_pack_without_a_device_is_refused():
    if voltaic._core.cuda_device_count() > 0:
        pytest.skip("a CUDA device is visible")
    with pytest.raises(voltaic.BackendUnavailable, match="voltaic.Pack"):
        voltaic.Pack(2, 1, grid=GRID, backend="cuda")


def test_a_pack_is_the_clis_bit_for_bit(cli, tmp_path):
    """The same TOML, read by the same parser, run by the same
    PackSimulation as `voltaic pack`."""
    pack = voltaic.Pack(
        2,
        2,
        cells={THICKNESS: [7.5e-5, 8.5e-5, 9e-5, 8e-5]},
        connection_resistance=1e-3,
        grid=GRID,
        backend="cpu",
    )
    steps = ["Discharge at 1C for 5 minutes", "Rest for 2 minutes"]
    out = pack.run(steps)
    path = tmp_path / "pack.toml"
    path.write_text(
        pack.config_text + voltaic._config.experiment_table(steps)
    )
    subprocess.run(
        [cli, "pack", str(path), "--output", str(tmp_path / "out")],
        check=True,
        capture_output=True,
    )
    csv = np.genfromtxt(
        tmp_path / "out" / "pack.csv", delimiter=",", names=True
    )
    assert np.array_equal(csv["Time_s"], out["Time [s]"])
    assert np.array_equal(csv["Voltage_V"], out["Voltage [V]"])
    assert np.array_equal(csv["Current_A"], out["Current [A]"])


NETLIST = (
    "* two strings of two cells, their midpoints joined\n"
    "V0 N002 N001\nV1 N004 N003\nRt0 N002 N005 2m\nRt1 N004 N005 1m\n"
    "Rs0 N001 N006 1m\nV2 N006 0\nRs1 N003 N007 2m\nV3 N007 0\n"
    "Rx0 N001 N003 5m\nI0 N005 0 10\n"
)


def test_a_netlist_wires_the_cells_and_gives_its_nodes(tmp_path):
    path = tmp_path / "module.cir"
    path.write_text(NETLIST)
    pack = voltaic.Pack(
        netlist=path,
        cells={THICKNESS: [7.5e-5, 8.5e-5, 9e-5, 8e-5]},
        grid=GRID,
        backend="cpu",
    )
    assert pack.cells == 4
    assert "a netlist of 4 cells" in repr(pack)
    out = pack.run(["Discharge at 1C for 5 minutes"])
    assert out["completed"], out["termination"]
    assert out["nodes"] == [f"N{n}" for n in range(8)]
    u = out["Node voltage [V]"]
    assert u.shape == (len(out["Time [s]"]), 8)
    assert np.all(u[:, 0] == 0.0)  # the negative terminal
    # The interconnection carries the current the unlike strings push through it.
    assert np.max(np.abs(u[:, 1] - u[:, 3])) / 5e-3 > 1e-3
    # Each cell's voltage is its terminals' difference, to the circuit's tolerance.
    v = out["Cell voltage [V]"]
    assert np.max(np.abs(u[:, 2] - u[:, 1] - v[:, 0])) < 1e-5


def test_a_netlist_beside_the_grid_is_refused(tmp_path):
    path = tmp_path / "module.cir"
    path.write_text(NETLIST)
    with pytest.raises(ValueError, match="parallel is given beside netlist"):
        voltaic.Pack(2, netlist=path)
    bad = tmp_path / "bad.cir"
    bad.write_text("V0 N001 0\nRc0 N001 N002 0\nI0 N002 0\n")
    with pytest.raises(voltaic.ConfigError, match="netlist element Rc0 .line 2.: is 0 Ohm"):
        voltaic.Pack(netlist=bad)


def test_a_record_period_keeps_fewer_of_the_same_rows():
    args = dict(grid=GRID, backend="cpu", connection_resistance=1e-3)
    steps = ["Discharge at 1C for 10 minutes"]
    full = voltaic.Pack(2, 1, **args).run(steps)
    some = voltaic.Pack(2, 1, record_period=60.0, **args).run(steps)
    assert some["steps"] == full["steps"]
    assert len(some["Time [s]"]) < len(full["Time [s]"]) / 3
    kept = np.isin(full["Time [s]"], some["Time [s]"])
    assert np.array_equal(full["Voltage [V]"][kept], some["Voltage [V]"])
    with pytest.raises(voltaic.ConfigError, match="pack.record_period"):
        voltaic.Pack(2, 1, record_period=-1.0, **args)
