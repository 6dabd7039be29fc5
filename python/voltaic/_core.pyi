"""voltaic's C++ library; the voltaic package is its Python API."""

from collections.abc import Sequence
from typing import Annotated

import numpy
from numpy.typing import NDArray


class ConfigError(ValueError):
    """A config, parameter or experiment step voltaic refuses."""

class BackendUnavailable(RuntimeError):
    """A backend that is not built or has no device."""

class CudaError(RuntimeError):
    """A CUDA call failed."""

class RunConfig:
    """A run config as `voltaic run` reads it (io::parse_config)."""

    @property
    def cell_source(self) -> str: ...

    @property
    def experiment_steps(self) -> list[str]: ...

    @property
    def cycles(self) -> int: ...

    @property
    def grid(self) -> list[int]:
        """negative_cells, separator_cells, positive_cells, radial_shells, nx, ny"""

    def parameter(self, name: str) -> float:
        """A parameter of the cell by PyBaMM name, overrides applied."""

def parse_config(toml_text: str, origin: str, base_dir: str = '.') -> RunConfig:
    """
    Reads and checks a run config's TOML text; raises ConfigError naming the key.
    """

class RunResult:
    """A Simulation run's Solution and the executor it ran on."""

    def column(self, name: str) -> Annotated[NDArray[numpy.float64], dict(shape=(None,), writable=False)]:
        """A time-series column as a read-only NumPy view (no copy)."""

    @property
    def rows(self) -> int: ...

    @property
    def completed(self) -> bool: ...

    @property
    def termination(self) -> str: ...

    @property
    def notes(self) -> list[str]: ...

    @property
    def cycles(self) -> dict[str, list[float]]:
        """
        One value per finished cycle, by PyBaMM's summary-variable names (cycles.csv's columns).
        """

    @property
    def steps_taken(self) -> int: ...

    @property
    def steps_rejected(self) -> int: ...

    @property
    def executor(self) -> str: ...

    @property
    def fields(self) -> list:
        """
        (time, {name: values per cell, per particle or per in-plane column}) at each field time, read-only NumPy views (no copy).
        """

def variable_names() -> list[str]:
    """The time-series columns of a Solution, in order."""

def solve(config: RunConfig) -> RunResult:
    """Runs the config as `voltaic run` does, without writing files."""

class BatchCellResult:
    """What one cell of a sweep did."""

    @property
    def status(self) -> str: ...

    @property
    def termination(self) -> str: ...

    @property
    def discharge_capacity_ah(self) -> float: ...

    @property
    def discharge_energy_wh(self) -> float: ...

    @property
    def final_voltage(self) -> float: ...

    @property
    def max_temperature(self) -> float: ...

    @property
    def simulated_time(self) -> float: ...

    @property
    def steps_taken(self) -> int: ...

    @property
    def steps_rejected(self) -> int: ...

    @property
    def cycles(self) -> dict[str, list[float]]:
        """
        One value per cycle the cell ended, by PyBaMM's summary-variable names (the sweep's cycles.csv).
        """

    @property
    def time(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None,), writable=False)]: ...

    @property
    def voltage(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None,), writable=False)]: ...

    @property
    def current(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None,), writable=False)]: ...

    @property
    def temperature(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None,), writable=False)]: ...

class SweepResult:
    """Every cell's result of a sweep, and where it ran."""

    @property
    def cells(self) -> list[BatchCellResult]: ...

    @property
    def executor(self) -> str: ...

def sweep(config: RunConfig, names: Sequence[str], values: Sequence[float], threads: int = 0) -> SweepResult:
    """
    Runs one cell per row of values (cell-major, one value per name) through BatchSimulation on the config's backend: the CPU's threads, or the GPU's cell program.
    """

class PackConfig:
    """A pack config as `voltaic pack` reads it (io::parse_pack_config)."""

    @property
    def parallel(self) -> int: ...

    @property
    def series(self) -> int: ...

    @property
    def cells(self) -> int: ...

    @property
    def netlist(self) -> bool:
        """Whether a netlist wires the cells (else Np x Ns)."""

    @property
    def cell_source(self) -> str: ...

    @property
    def experiment_steps(self) -> list[str]: ...

    @property
    def cell_parameters(self) -> list[str]:
        """
        The names of the parameters each cell has its own value of ([sweep]'s).
        """

    @property
    def cell_values(self) -> list[float]:
        """
        Each cell's own values, cell-major (cell k = s Np + p), one per name of cell_parameters.
        """

def parse_pack_config(toml_text: str, origin: str, base_dir: str = '.') -> PackConfig:
    """
    Reads and checks a pack config's TOML text ([pack], [pack.thermal], [sweep]); raises ConfigError naming the key.
    """

class PackResult:
    """What a pack did (PackSolution) and the executor it ran on."""

    @property
    def cells(self) -> int: ...

    @property
    def rows(self) -> int: ...

    @property
    def time(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None,), writable=False)]: ...

    @property
    def voltage(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None,), writable=False)]: ...

    @property
    def current(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None,), writable=False)]: ...

    @property
    def coolant_outlet(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None,), writable=False)]:
        """A flowing coolant's outlet temperature per row (empty without a flow)."""

    @property
    def cell_current(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None, None), writable=False)]:
        """[A] [rows, cells], > 0 discharging."""

    @property
    def cell_voltage(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None, None), writable=False)]:
        """[V] [rows, cells], each cell's own."""

    @property
    def cell_temperature(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None, None), writable=False)]:
        """[K] [rows, cells]."""

    @property
    def cell_heat(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None, None), writable=False)]:
        """[W] [rows, cells], each cell's generation."""

    @property
    def node_names(self) -> list[str]: ...

    @property
    def node_voltage(self) -> Annotated[NDArray[numpy.float64], dict(shape=(None, None), writable=False)]:
        """
        [V] [rows, nodes]: across each group of an Np x Ns pack, each node of a netlist against its negative terminal.
        """

    @property
    def completed(self) -> bool: ...

    @property
    def interrupted(self) -> bool: ...

    @property
    def termination(self) -> str: ...

    @property
    def steps_taken(self) -> int: ...

    @property
    def steps_rejected(self) -> int: ...

    @property
    def circuit_iterations(self) -> int: ...

    @property
    def executor(self) -> str: ...

class PackSimulation:
    """A PackSimulation built from a pack config, on the config's backend."""

    def __init__(self, config: PackConfig) -> None: ...

    @property
    def config(self) -> PackConfig: ...

    @property
    def nominal_capacity(self) -> float:
        """
        [A h] the smallest over the groups of the sum of the group's cells' capacities.
        """

    @property
    def lower_voltage_cutoff(self) -> float: ...

    @property
    def upper_voltage_cutoff(self) -> float: ...

    @property
    def heat_capacities(self) -> list[float]:
        """[J/K] each cell's lumped heat capacity."""

    def run(self, with_experiment: PackConfig) -> PackResult:
        """
        Runs the experiment of a config (its [experiment]; the pack is this one's), from the start.
        """

def version() -> str: ...

def cuda_backend_built() -> bool: ...

def cuda_device_count() -> int: ...

def parameter_names() -> list[str]: ...

def function_names() -> list[str]: ...
