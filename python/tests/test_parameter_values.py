"""pybamm.ParameterValues, recognised by its class name: tested with a
stand-in holding PyBaMM's function names, so that PyBaMM is not needed."""

import pytest

import voltaic
from voltaic._parameters import FITS


class ParameterValues(dict):
    pass


def pybamm_function(name):
    def f(*args):
        return 0.0

    f.__name__ = name
    return f


def chen2020_values(**changes):
    values = ParameterValues(
        {
            k: pybamm_function(v) if isinstance(v, str) else v
            for k, v in FITS["Chen2020"].items()
        }
    )
    values["Negative electrode thickness [m]"] = 7e-5
    values["SEI resistivity [Ohm.m]"] = 2e5
    values.update(changes)
    return values


def test_scalars_are_taken_by_name():
    sim = voltaic.Simulation(
        chen2020_values(), experiment=["Rest for 1 minute"]
    )
    assert sim.config.cell_source == "Chen2020"
    assert sim.config.parameter("Negative electrode thickness [m]") == 7e-5


def test_marquis_functions_select_marquis2019():
    values = ParameterValues(
        {k: pybamm_function(v) for k, v in FITS["Marquis2019"].items()}
    )
    sim = voltaic.Simulation(values, experiment=["Rest for 1 minute"])
    assert sim.config.cell_source == "Marquis2019"


def test_okane2022_is_told_from_chen2020_by_its_functions_module():
    # Its graphite OCP has Chen2020's function name (a table there).
    values = ParameterValues()
    for k, v in FITS["OKane2022"].items():
        if isinstance(v, str):
            v = pybamm_function(v)
            v.__module__ = "pybamm.input.parameters.lithium_ion.OKane2022"
        values[k] = v
    values["Dead lithium decay constant [s-1]"] = 2e-6
    sim = voltaic.Simulation(values, experiment=["Rest for 1 minute"])
    assert sim.config.cell_source == "OKane2022"
    assert sim.config.parameter("Dead lithium decay constant [s-1]") == 2e-6
    values["Dead lithium decay rate [s-1]"] = pybamm_function("my_decay")
    with pytest.raises(ValueError, match="my_decay"):
        voltaic.Simulation(values)


def test_every_function_voltaic_cannot_take_is_named_in_one_error():
    values = chen2020_values(
        **{
            "Electrolyte conductivity [S.m-1]": pybamm_function(
                "my_conductivity"
            ),
            "Positive electrode OCP [V]": pybamm_function("my_ocp"),
        }
    )
    with pytest.raises(ValueError) as e:
        voltaic.Simulation(values)
    message = str(e.value)
    assert "'Electrolyte conductivity [S.m-1]' (my_conductivity)" in message
    assert "'Positive electrode OCP [V]' (my_ocp)" in message
    assert "Negative electrode OCP" not in message.split(";")[0]
