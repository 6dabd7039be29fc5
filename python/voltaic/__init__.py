"""voltaic: lithium-ion cell simulation (the DFN model) on CPUs and GPUs,
from Python with PyBaMM's habits.

    import voltaic
    sim = voltaic.Simulation("Chen2020", experiment=["Discharge at 1C until 2.5 V"], thermal="lumped")
    sol = sim.solve()
    sol["Voltage [V]"]   # a NumPy array
    sol.plot()
"""

from . import _core
from ._core import BackendUnavailable, ConfigError, CudaError
from ._pack import Pack
from ._simulation import Simulation, Solution
from ._sweep import sweep

__version__ = _core.version()

__all__ = [
    "Simulation",
    "Solution",
    "sweep",
    "Pack",
    "ConfigError",
    "BackendUnavailable",
    "CudaError",
    "parameter_names",
]


def parameter_names() -> list:
    """Every parameter a dict or a sweep can set, by PyBaMM name."""
    return list(_core.parameter_names())
