import _thread
import os
import signal
import subprocess
import threading
import time

import pytest

import voltaic
from conftest import ONE_C


def test_unknown_parameter_is_a_config_error_naming_it():
    with pytest.raises(
        voltaic.ConfigError, match="Negative electrode thicknes"
    ):
        voltaic.Simulation({"Negative electrode thicknes [m]": 1e-5})


def test_config_error_is_a_value_error():
    assert issubclass(voltaic.ConfigError, ValueError)
    with pytest.raises(ValueError, match="thermal.model"):
        voltaic.Simulation(thermal="Lumped")


def test_bad_experiment_step_names_the_step():
    with pytest.raises(voltaic.ConfigError, match="Dischrge"):
        voltaic.Simulation(experiment=["Dischrge at 1C until 2.5 V"])


def test_out_of_range_value_names_the_range():
    with pytest.raises(voltaic.ConfigError, match="porosity"):
        voltaic.Simulation({"Negative electrode porosity": 1.5})


def test_message_is_the_clis(tmp_path, cli):
    sim_text = voltaic._config.run_config_text(
        {"Negative electrode porosity": 1.5},
        ONE_C,
        None,
        "lumped",
        "cpu",
        None,
    )
    path = tmp_path / "bad.toml"
    path.write_text(sim_text)
    run = subprocess.run(
        [cli, "run", str(path), "--output", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    cli_message = run.stderr.strip().split(f"{path}:", 1)[1]
    with pytest.raises(voltaic.ConfigError) as e:
        voltaic.Simulation(
            {"Negative electrode porosity": 1.5},
            ONE_C,
            thermal="lumped",
            backend="cpu",
        )
    assert "\n" not in str(e.value)
    assert str(e.value).split("voltaic.Simulation:", 1)[1] == cli_message


def test_a_run_that_stops_early_does_not_raise():
    sol = voltaic.Simulation(
        experiment=["Discharge at 1C until 4.5 V"]
    ).solve()
    assert not sol.completed
    assert "infeasible" in sol.termination or "4.5" in sol.termination


def test_cuda_without_a_device_is_a_runtime_error():
    if voltaic._core.cuda_device_count() > 0:
        pytest.skip("a CUDA device is visible")
    sim = voltaic.Simulation(backend="cuda")
    with pytest.raises(voltaic.BackendUnavailable, match="cuda"):
        sim.solve()
    assert issubclass(voltaic.BackendUnavailable, RuntimeError)


@pytest.fixture
def sigint_raises():
    """Python's own SIGINT handler, even where the shell started the tests
    with SIGINT ignored (a background job of a non-interactive shell)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def real_sigint():
    os.kill(os.getpid(), signal.SIGINT)


@pytest.mark.parametrize("interrupt", [_thread.interrupt_main, real_sigint])
def test_ctrl_c_interrupts_a_long_solve(interrupt, sigint_raises):
    sim = voltaic.Simulation(
        experiment=[
            ("Discharge at 1C until 2.5 V", "Charge at 1C until 4.2 V")
        ]
        * 50,
        solver={"max_dt": 1.0},  # about 20 s when not interrupted
    )
    timer = threading.Timer(0.5, interrupt)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        sim.solve()
    assert time.perf_counter() - start < 5.0


def test_ctrl_c_interrupts_a_sweep(sigint_raises):
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        voltaic.sweep(
            parameters={"Negative electrode thickness [m]": [7e-5] * 8},
            experiment=[
                ("Discharge at 1C until 2.5 V", "Charge at 1C until 4.2 V")
            ]
            * 50,
            solver={"max_dt": 1.0},
            threads=2,
        )
    assert time.perf_counter() - start < 5.0


def test_ctrl_c_interrupts_a_pack(sigint_raises):
    pack = voltaic.Pack(2, 1, solver={"max_dt": 1.0}, backend="cpu")
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        pack.run(
            [("Discharge at 1C until 3.0 V", "Charge at 1C until 4.1 V")]
            * 50  # about 20 s when not interrupted
        )
    assert time.perf_counter() - start < 5.0
