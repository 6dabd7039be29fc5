// Chen2020: LG M50 21700, NMC811 / graphite-SiOx. Chen, Brosa Planella,
// O'Regan, Gastol, Widanage, Kendrick, "Development of experimental techniques
// for parameterization of multi-scale lithium-ion battery models",
// J. Electrochem. Soc. 167 (2020) 080534, with every value as PyBaMM's
// "Chen2020" holds it (checked against PyBaMM by tests/model). Where PyBaMM
// marks a value as not from the paper, the comment says where it is from.
#include "model/pybamm_sei.hpp"
#include "voltaic/model/parameter_sets.hpp"

namespace voltaic::parameter_sets {

ParameterSet chen2020() {
  ParameterSet p;
  // PyBaMM's height and width are the paper's width and (unwound) length: same area.
  p.cell.electrode_height = 0.065;
  p.cell.electrode_width = 1.58;
  p.cell.electrodes_in_parallel = 1.0;
  p.cell.cells_in_series = 1.0;

  // Copper and aluminium foils: thicknesses from the paper, properties from the CRC Handbook.
  p.negative_current_collector = {1.2e-05, 58411000.0, 8960.0, 385.0, 401.0};
  p.positive_current_collector = {1.6e-05, 36914000.0, 2700.0, 897.0, 237.0};

  ElectrodeParameters& n = p.negative_electrode;
  n.thickness = 8.52e-05;
  n.porosity = 0.25;
  n.active_material_volume_fraction = 0.75;
  n.particle_radius = 5.86e-06;
  n.bruggeman_electrolyte = 1.5;
  n.bruggeman_electrode = 0.0;  // the measured conductivity is the electrode's effective one
  n.conductivity = 215.0;
  n.maximum_concentration = 33133.0;
  n.initial_concentration = 29866.0;
  n.diffusivity = 3.3e-14;
  n.diffusivity_activation_energy = 0.0;
  n.reaction_rate_constant = 6.48e-07;
  n.reaction_activation_energy = 35000.0;
  n.charge_transfer_coefficient = 0.5;
  n.double_layer_capacity = 0.2;
  n.density = 1657.0;  // thermal properties: PyBaMM's defaults, not the paper's
  n.specific_heat_capacity = 700.0;
  n.thermal_conductivity = 1.7;
  n.ocp = OcpModel::chen2020_graphite_siox;
  n.entropic = EntropicModel::none;

  p.separator.thickness = 1.2e-05;
  p.separator.porosity = 0.47;
  p.separator.bruggeman_electrolyte = 1.5;
  p.separator.density = 397.0;
  p.separator.specific_heat_capacity = 700.0;
  p.separator.thermal_conductivity = 0.16;

  ElectrodeParameters& q = p.positive_electrode;
  q.thickness = 7.56e-05;
  q.porosity = 0.335;
  q.active_material_volume_fraction = 0.665;
  q.particle_radius = 5.22e-06;
  q.bruggeman_electrolyte = 1.5;
  q.bruggeman_electrode = 0.0;
  q.conductivity = 0.18;
  q.maximum_concentration = 63104.0;
  q.initial_concentration = 17038.0;
  q.diffusivity = 4e-15;
  q.diffusivity_activation_energy = 0.0;
  q.reaction_rate_constant = 3.42e-06;
  q.reaction_activation_energy = 17800.0;
  q.charge_transfer_coefficient = 0.5;
  q.double_layer_capacity = 0.2;
  q.density = 3262.0;
  q.specific_heat_capacity = 700.0;
  q.thermal_conductivity = 2.1;
  q.ocp = OcpModel::chen2020_nmc811;
  q.entropic = EntropicModel::none;

  // LiPF6 in EC:EMC 3:7 (Nyman et al. 2008): no temperature dependence.
  p.electrolyte.initial_concentration = 1000.0;
  p.electrolyte.transference_number = 0.2594;
  p.electrolyte.thermodynamic_factor = 1.0;
  p.electrolyte.conductivity_activation_energy = 0.0;
  p.electrolyte.diffusivity_activation_energy = 0.0;
  p.electrolyte.conductivity_model = ElectrolyteModel::nyman2008;
  p.electrolyte.diffusivity_model = ElectrolyteModel::nyman2008;

  // 21700 can: 5.31e-3 m^2 of surface, 2.42e-5 m^3.
  p.thermal.reference_temperature = 298.15;
  p.thermal.initial_temperature = 298.15;
  p.thermal.ambient_temperature = 298.15;
  p.thermal.heat_transfer_coefficient = 10.0;
  p.thermal.cooling_surface_area = 0.00531;
  p.thermal.cell_volume = 2.42e-05;

  p.electrical.nominal_capacity = 5.0;
  p.electrical.current_function = 5.0;
  p.electrical.lower_voltage_cutoff = 2.5;
  p.electrical.upper_voltage_cutoff = 4.2;
  p.electrical.ocv_at_0_soc = 2.5;
  p.electrical.ocv_at_100_soc = 4.2;
  p.electrical.contact_resistance = 0.0;

  p.sei = pybamm_sei();  // SEI growth (used only by a degradation model)

  // PyBaMM's set holds the reaction-driven loss of active material's factor, 0.
  p.negative_lam.reaction_factor = 0.0;
  p.positive_lam.reaction_factor = 0.0;

  p.validate();
  return p;
}

}  // namespace voltaic::parameter_sets
