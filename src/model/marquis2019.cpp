// Marquis2019: Kokam SLPB78205130H, LiCoO2 / graphite. Marquis, Sulzer, Timms,
// Please, Chapman, "An asymptotic derivation of a single particle model with
// electrolyte", J. Electrochem. Soc. 166 (2019) A3693, with every value as
// PyBaMM's "Marquis2019" holds it (mostly Dualfoil's and Moura's fastDFN's).
#include "model/pybamm_sei.hpp"
#include "voltaic/model/parameter_sets.hpp"

namespace voltaic::parameter_sets {

ParameterSet marquis2019() {
  ParameterSet p;
  p.cell.electrode_height = 0.137;
  p.cell.electrode_width = 0.207;
  p.cell.electrodes_in_parallel = 1.0;
  p.cell.cells_in_series = 1.0;

  p.negative_current_collector = {2.5e-05, 59600000.0, 8954.0, 385.0, 401.0, 0.04, 0.06, 0.137};
  p.positive_current_collector = {2.5e-05, 35500000.0, 2707.0, 897.0, 237.0, 0.04, 0.147, 0.137};

  ElectrodeParameters& n = p.negative_electrode;
  n.thickness = 0.0001;
  n.porosity = 0.3;
  n.active_material_volume_fraction = 0.6;
  n.particle_radius = 1e-05;
  n.bruggeman_electrolyte = 1.5;
  n.bruggeman_electrode = 1.5;
  n.conductivity = 100.0;
  n.maximum_concentration = 24983.2619938437;
  n.initial_concentration = 19986.609595075;
  n.diffusivity = 3.9e-14;
  n.diffusivity_activation_energy = 42770.0;
  n.reaction_rate_constant = 2e-05;
  n.reaction_activation_energy = 37480.0;
  n.charge_transfer_coefficient = 0.5;
  n.double_layer_capacity = 0.2;
  n.density = 1657.0;
  n.specific_heat_capacity = 700.0;
  n.thermal_conductivity = 1.7;
  n.ocp = OcpModel::dualfoil1998_graphite_mcmb2528;
  n.entropic = EntropicModel::moura2016_graphite;

  // No solid in the separator's electrolyte volume: porosity 1.
  p.separator.thickness = 2.5e-05;
  p.separator.porosity = 1.0;
  p.separator.bruggeman_electrolyte = 1.5;
  p.separator.density = 397.0;
  p.separator.specific_heat_capacity = 700.0;
  p.separator.thermal_conductivity = 0.16;

  ElectrodeParameters& q = p.positive_electrode;
  q.thickness = 0.0001;
  q.porosity = 0.3;
  q.active_material_volume_fraction = 0.5;
  q.particle_radius = 1e-05;
  q.bruggeman_electrolyte = 1.5;
  q.bruggeman_electrode = 1.5;
  q.conductivity = 10.0;
  q.maximum_concentration = 51217.9257309275;
  q.initial_concentration = 30730.7554385565;
  q.diffusivity = 1e-13;
  q.diffusivity_activation_energy = 18550.0;
  q.reaction_rate_constant = 6e-07;
  q.reaction_activation_energy = 39570.0;
  q.charge_transfer_coefficient = 0.5;
  q.double_layer_capacity = 0.2;
  q.density = 3262.0;
  q.specific_heat_capacity = 700.0;
  q.thermal_conductivity = 2.1;
  q.ocp = OcpModel::dualfoil1998_lico2;
  q.entropic = EntropicModel::moura2016_lico2;

  // LiPF6 in EC:DMC (Capiglia et al. 1999, Dualfoil's fits).
  p.electrolyte.initial_concentration = 1000.0;
  p.electrolyte.transference_number = 0.4;
  p.electrolyte.thermodynamic_factor = 1.0;
  p.electrolyte.conductivity_activation_energy = 34700.0;
  p.electrolyte.diffusivity_activation_energy = 37040.0;
  p.electrolyte.conductivity_model = ElectrolyteModel::capiglia1999;
  p.electrolyte.diffusivity_model = ElectrolyteModel::capiglia1999;

  p.thermal.reference_temperature = 298.15;
  p.thermal.initial_temperature = 298.15;
  p.thermal.ambient_temperature = 298.15;
  p.thermal.heat_transfer_coefficient = 10.0;
  p.thermal.cooling_surface_area = 0.0569;
  p.thermal.cell_volume = 7.8e-06;
  p.thermal.negative_collector_heat_transfer_coefficient = 0.0;
  p.thermal.positive_collector_heat_transfer_coefficient = 0.0;
  p.thermal.negative_tab_heat_transfer_coefficient = 10.0;
  p.thermal.positive_tab_heat_transfer_coefficient = 10.0;
  p.thermal.edge_heat_transfer_coefficient = 0.3;

  p.electrical.nominal_capacity = 0.680616;
  p.electrical.current_function = 0.680616;
  p.electrical.lower_voltage_cutoff = 3.105;
  p.electrical.upper_voltage_cutoff = 4.1;
  p.electrical.ocv_at_0_soc = 3.105;
  p.electrical.ocv_at_100_soc = 4.1;
  p.electrical.contact_resistance = 0.0;

  p.sei = pybamm_sei();              // SEI growth (used only by a degradation model)
  p.sei.transfer_coefficient = 0.5;  // Marquis2019 has it, Chen2020 not

  // PyBaMM's set holds the reaction-driven loss of active material's factor, 0.
  p.negative_lam.reaction_factor = 0.0;
  p.positive_lam.reaction_factor = 0.0;

  p.validate();
  return p;
}

}  // namespace voltaic::parameter_sets
