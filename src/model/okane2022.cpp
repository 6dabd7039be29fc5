// OKane2022: the LG M50 21700 of Chen2020 as O'Kane et al., "Lithium-ion
// battery degradation: how to model it", Phys. Chem. Chem. Phys. 24 (2022)
// 7909, parameterise it for ageing, with every value as PyBaMM's "OKane2022"
// holds it (checked against PyBaMM by tests/model). PyBaMM builds it from
// Chen2020; the differences, each checked against PyBaMM's two sets, are:
//
// - the negative OCP: Chen et al.'s measured curve (248 points) through a
//   not-a-knot cubic spline, instead of Chen2020's tanh fit;
// - Bruggeman coefficients (electrode) 1.5 on both electrodes (Chen2020: 0);
// - Arrhenius temperature dependence where Chen2020 has none: particle
//   diffusivities (negative 30300 J/mol, from Ecker et al. 2015; positive
//   25000 J/mol, after Cabanero et al. 2018) and Nyman's electrolyte
//   conductivity and diffusivity (17000 J/mol each, from Ecker et al. 2015);
// - SEI: one lithium per SEI molecule (Chen2020: 2) and a growth activation
//   energy of 38000 J/mol (Chen2020: 0);
// - lithium plating (O'Kane et al. 2020 and 2022);
// - particle mechanics and loss of active material (Ai et al. 2020).
//
// PyBaMM's OKane2022 also holds particle cracking (crack sizes, Paris' law,
// the volume change and cracking-rate functions), which voltaic does not
// model: those are left out.
#include <vector>

#include "model/okane2022_graphite_ocp.hpp"
#include "voltaic/model/function_definition.hpp"
#include "voltaic/model/parameter_sets.hpp"

namespace voltaic::parameter_sets {

namespace {

FunctionDefinition graphite_ocp() {
  using namespace okane2022_data;
  const std::vector<double> sto(kGraphiteOcpStoichiometry, kGraphiteOcpStoichiometry + kGraphiteOcpPoints);
  const std::vector<double> ocp(kGraphiteOcpVoltage, kGraphiteOcpVoltage + kGraphiteOcpPoints);
  return FunctionDefinition::cubic_table(sto, ocp);
}

}  // namespace

ParameterSet okane2022() {
  ParameterSet p = chen2020();

  // The spline's second derivatives are solved once per set made (248 points: microseconds).
  p.set_custom_function(FunctionSlot::negative_ocp, graphite_ocp());

  ElectrodeParameters& n = p.negative_electrode;
  n.bruggeman_electrode = 1.5;
  n.diffusivity_activation_energy = 30300.0;

  ElectrodeParameters& q = p.positive_electrode;
  q.bruggeman_electrode = 1.5;
  q.diffusivity_activation_energy = 25000.0;

  p.electrolyte.conductivity_activation_energy = 17000.0;
  p.electrolyte.diffusivity_activation_energy = 17000.0;

  p.sei.lithium_moles_ratio = 1.0;
  p.sei.activation_energy = 38000.0;

  PlatingParameters& li = p.plating;
  li.lithium_metal_partial_molar_volume = 1.3e-05;
  li.kinetic_rate_constant = 1e-09;
  li.initial_plated_concentration = 0.0;
  li.typical_plated_concentration = 1000.0;
  li.transfer_coefficient = 0.65;
  li.dead_lithium_decay_constant = 1e-06;

  const auto lam = [](ActiveMaterialLossParameters& m, double nu, double E, double omega, double beta, double sigma_c) {
    m.poisson_ratio = nu;
    m.youngs_modulus = E;
    m.partial_molar_volume = omega;
    m.reference_concentration = 0.0;
    m.proportional_term = beta;
    m.exponential_term = 2.0;
    m.critical_stress = sigma_c;
    m.reaction_factor = 0.0;
  };
  lam(p.negative_lam, 0.3, 15e9, 3.1e-06, 2.7778e-07, 60e6);
  lam(p.positive_lam, 0.2, 375e9, 1.25e-05, 2.7778e-07, 375e6);

  p.validate();
  return p;
}

}  // namespace voltaic::parameter_sets
