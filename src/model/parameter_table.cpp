// The table of every ParameterSet field: PyBaMM's name, unit, description and
// allowed range. Names without a PyBaMM counterpart (activation energies and
// rate constants that PyBaMM keeps inside its functions) follow its style.
#include "voltaic/model/parameter_table.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "voltaic/core/error.hpp"

namespace voltaic {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const Interval kPositive{0.0, kInf, false, false};
const Interval kNonNegative{0.0, kInf, true, false};
const Interval kUnitOpen{0.0, 1.0, false, false};
const Interval kUnitLeftOpen{0.0, 1.0, false, true};
const Interval kAny{-kInf, kInf, false, false};
const Interval kCount{1.0, kInf, true, false, true};
const Interval kOnlyOne{1.0, 1.0, true, true};
// Physical ranges, far beyond any cell built but tight enough that a denormal
// or astronomic value (5e-324 m) is refused by its name up front rather than
// met later as a singular matrix inside the solver.
const Interval kThickness{1e-7, 0.1, true, true};                 // [m]: 0.1 um to 10 cm
const Interval kCollectorThickness{0.0, 0.1, true, true};         // [m]: 0 leaves the foil out
const Interval kElectrodeSize{1e-4, 1e3, true, true};             // [m]
const Interval kParticleRadius{1e-9, 1e-3, true, true};           // [m]
const Interval kElectronicConductivity{1e-10, 1e30, true, true};  // [S/m]; 1e30: a perfect conductor
const Interval kMaximumConcentration{1.0, 1e6, true, true};       // [mol/m^3]
const Interval kElectrolyteConcentration{1.0, 1e5, true, true};   // [mol/m^3]
const Interval kParticleDiffusivity{1e-25, 1e-5, true, true};     // [m^2/s]
const Interval kRateConstant{1e-20, 1e5, true, true};
const Interval kDensity{1e-12, 1e6, true, true};              // [kg/m^3]; tiny: a part left out of the heat balance
const Interval kSpecificHeat{1e-12, 1e6, true, true};         // [J/(kg K)]; likewise
const Interval kThermalConductivity{1e-4, 1e30, true, true};  // [W/(m K)]
const Interval kCellVolume{1e-12, 1e3, true, true};           // [m^3]
const Interval kRateFactor{0.0, 100.0, false, true};          // a protocol's C-rates scaled per cell
const Interval kCoolingArea{1e-10, 1e4, true, true};          // [m^2]
const Interval kCapacity{1e-9, 1e6, true, true};              // [A.h]

/// The field G.F of a ParameterSet, as a plain function pointer.
template <auto G, auto F>
double& field(ParameterSet& p) {
  return (p.*G).*F;
}

template <auto G>
void add_collector(std::vector<ParameterInfo>& t, const std::string& Side) {
  using C = CurrentCollectorParameters;
  const std::string n = Side + " current collector ";
  const std::string d = "of the " + std::string(Side == "Negative" ? "negative" : "positive") + " current collector";
  // >= 0: PyBaMM's BPX import leaves the foils out of the lumped thermal model with thickness 0.
  t.push_back(
      {n + "thickness [m]", "m", "Thickness " + d + " (0: left out)", kCollectorThickness, &field<G, &C::thickness>});
  t.push_back({n + "conductivity [S.m-1]", "S.m-1", "Electronic conductivity " + d, kElectronicConductivity,
               &field<G, &C::conductivity>});
  t.push_back({n + "density [kg.m-3]", "kg.m-3", "Density " + d, kDensity, &field<G, &C::density>});
  t.push_back({n + "specific heat capacity [J.kg-1.K-1]", "J.kg-1.K-1", "Specific heat capacity " + d, kSpecificHeat,
               &field<G, &C::specific_heat_capacity>});
  t.push_back({n + "thermal conductivity [W.m-1.K-1]", "W.m-1.K-1", "Thermal conductivity " + d, kThermalConductivity,
               &field<G, &C::thermal_conductivity>});
  const std::string tab = Side + " tab ";
  const std::string of_tab = " of the " + std::string(Side == "Negative" ? "negative" : "positive") +
                             " tab on an edge of the electrode plane (potential-pair collectors; may be unset)";
  t.push_back({tab + "width [m]", "m", "Width" + of_tab, kPositive, &field<G, &C::tab_width>, true});
  t.push_back({tab + "centre y-coordinate [m]", "m", "Centre along the electrode width" + of_tab, kNonNegative,
               &field<G, &C::tab_centre_y>, true});
  t.push_back({tab + "centre z-coordinate [m]", "m", "Centre along the electrode height" + of_tab, kNonNegative,
               &field<G, &C::tab_centre_z>, true});
}

template <auto G>
void add_electrode(std::vector<ParameterInfo>& t, const std::string& Side) {
  using E = ElectrodeParameters;
  const std::string side = Side == "Negative" ? "negative" : "positive";
  const std::string n = Side + " electrode ";
  const std::string of = " of the " + side + " electrode";
  t.push_back({n + "thickness [m]", "m", "Thickness" + of, kThickness, &field<G, &E::thickness>});
  t.push_back({n + "porosity", "", "Electrolyte volume fraction" + of, kUnitOpen, &field<G, &E::porosity>});
  t.push_back({n + "active material volume fraction", "", "Active material volume fraction" + of, kUnitOpen,
               &field<G, &E::active_material_volume_fraction>});
  t.push_back({Side + " particle radius [m]", "m", "Radius of the spherical particles" + of, kParticleRadius,
               &field<G, &E::particle_radius>});
  t.push_back({n + "Bruggeman coefficient (electrolyte)", "", "b in porosity^b scaling electrolyte transport" + of,
               kNonNegative, &field<G, &E::bruggeman_electrolyte>});
  t.push_back({n + "Bruggeman coefficient (electrode)", "",
               "b in (active fraction)^b scaling the conductivity (0: it is already effective)", kNonNegative,
               &field<G, &E::bruggeman_electrode>});
  t.push_back({n + "conductivity [S.m-1]", "S.m-1", "Electronic conductivity" + of, kElectronicConductivity,
               &field<G, &E::conductivity>});
  t.push_back({"Maximum concentration in " + side + " electrode [mol.m-3]", "mol.m-3",
               "Lithium concentration of the fully lithiated active material" + of, kMaximumConcentration,
               &field<G, &E::maximum_concentration>});
  t.push_back({"Initial concentration in " + side + " electrode [mol.m-3]", "mol.m-3",
               "Uniform particle concentration at t = 0" + of, kPositive, &field<G, &E::initial_concentration>});
  t.push_back({Side + " particle diffusivity [m2.s-1]", "m2.s-1", "Solid-phase diffusivity at 298.15 K" + of,
               kParticleDiffusivity, &field<G, &E::diffusivity>});
  t.push_back({Side + " particle diffusivity activation energy [J.mol-1]", "J.mol-1",
               "Arrhenius activation energy of the solid-phase diffusivity" + of, kNonNegative,
               &field<G, &E::diffusivity_activation_energy>});
  t.push_back({n + "reaction rate constant [A.m-2.(m3.mol-1)1.5]", "A.m-2.(m3.mol-1)1.5",
               "m in j0 = m sqrt(c_e c_s (c_max - c_s)) at 298.15 K" + of, kRateConstant,
               &field<G, &E::reaction_rate_constant>});
  t.push_back({n + "reaction activation energy [J.mol-1]", "J.mol-1",
               "Arrhenius activation energy of the reaction rate constant" + of, kNonNegative,
               &field<G, &E::reaction_activation_energy>});
  t.push_back({n + "charge transfer coefficient", "", "Butler-Volmer transfer coefficient alpha" + of, kUnitOpen,
               &field<G, &E::charge_transfer_coefficient>});
  t.push_back({n + "double-layer capacity [F.m-2]", "F.m-2",
               "Not used (the model has no double-layer): double-layer capacitance per particle surface" + of,
               kNonNegative, &field<G, &E::double_layer_capacity>});
  t.push_back({n + "density [kg.m-3]", "kg.m-3", "Density" + of, kDensity, &field<G, &E::density>});
  t.push_back({n + "specific heat capacity [J.kg-1.K-1]", "J.kg-1.K-1", "Specific heat capacity" + of, kSpecificHeat,
               &field<G, &E::specific_heat_capacity>});
  t.push_back({n + "thermal conductivity [W.m-1.K-1]", "W.m-1.K-1", "Thermal conductivity" + of, kThermalConductivity,
               &field<G, &E::thermal_conductivity>});
}

template <auto G>
void add_active_material_loss(std::vector<ParameterInfo>& t, const std::string& Side) {
  using M = ActiveMaterialLossParameters;
  const std::string n = Side + " electrode ";
  const std::string of = " of the " + std::string(Side == "Negative" ? "negative" : "positive") +
                         " particles (loss of active material; may be unset without it)";
  const auto add = [&](const std::string& name, const std::string& unit, const std::string& what,
                       const Interval& allowed, double& (*f)(ParameterSet&)) {
    t.push_back({n + name, unit, what + of, allowed, f, true});
  };
  add("Poisson's ratio", "", "Poisson's ratio nu", kUnitOpen, &field<G, &M::poisson_ratio>);
  add("Young's modulus [Pa]", "Pa", "Young's modulus E", kPositive, &field<G, &M::youngs_modulus>);
  add("partial molar volume [m3.mol-1]", "m3.mol-1", "Partial molar volume Omega of lithium", kAny,
      &field<G, &M::partial_molar_volume>);
  add("reference concentration for free of deformation [mol.m-3]", "mol.m-3",
      "Concentration without deformation (not used by the stress)", kNonNegative,
      &field<G, &M::reference_concentration>);
  add("LAM constant proportional term [s-1]", "s-1", "beta of the stress-driven loss", kNonNegative,
      &field<G, &M::proportional_term>);
  add("LAM constant exponential term", "", "m of the stress-driven loss", kPositive, &field<G, &M::exponential_term>);
  add("critical stress [Pa]", "Pa", "sigma_c of the stress-driven loss", kPositive, &field<G, &M::critical_stress>);
  add("reaction-driven LAM factor [m3.mol-1]", "m3.mol-1", "beta_sei of the SEI-driven loss", kNonNegative,
      &field<G, &M::reaction_factor>);
}

std::vector<ParameterInfo> build_parameter_table() {
  std::vector<ParameterInfo> t;
  using P = ParameterSet;
  using G = CellGeometry;
  t.push_back({"Electrode height [m]", "m", "Height of the electrodes (the short side of a wound cell)", kElectrodeSize,
               &field<&P::cell, &G::electrode_height>});
  t.push_back({"Electrode width [m]", "m", "Width of the electrodes (the unwound length of a wound cell)",
               kElectrodeSize, &field<&P::cell, &G::electrode_width>});
  t.push_back({"Number of electrodes connected in parallel to make a cell", "",
               "Electrode pairs in parallel; the current density is I / (height width pairs)", kCount,
               &field<&P::cell, &G::electrodes_in_parallel>});
  t.push_back({"Number of cells connected in series to make a battery", "",
               "1: voltaic simulates one cell (a string of cells in series is not built)", kOnlyOne,
               &field<&P::cell, &G::cells_in_series>});
  add_collector<&P::negative_current_collector>(t, "Negative");
  add_electrode<&P::negative_electrode>(t, "Negative");
  add_active_material_loss<&P::negative_lam>(t, "Negative");
  using S = SeparatorParameters;
  t.push_back(
      {"Separator thickness [m]", "m", "Thickness of the separator", kThickness, &field<&P::separator, &S::thickness>});
  t.push_back({"Separator porosity", "", "Electrolyte volume fraction of the separator", kUnitLeftOpen,
               &field<&P::separator, &S::porosity>});
  t.push_back({"Separator Bruggeman coefficient (electrolyte)", "",
               "b in porosity^b scaling electrolyte transport in the separator", kNonNegative,
               &field<&P::separator, &S::bruggeman_electrolyte>});
  t.push_back({"Separator density [kg.m-3]", "kg.m-3", "Density of the separator", kDensity,
               &field<&P::separator, &S::density>});
  t.push_back({"Separator specific heat capacity [J.kg-1.K-1]", "J.kg-1.K-1", "Specific heat capacity of the separator",
               kSpecificHeat, &field<&P::separator, &S::specific_heat_capacity>});
  t.push_back({"Separator thermal conductivity [W.m-1.K-1]", "W.m-1.K-1", "Thermal conductivity of the separator",
               kThermalConductivity, &field<&P::separator, &S::thermal_conductivity>});
  add_electrode<&P::positive_electrode>(t, "Positive");
  add_active_material_loss<&P::positive_lam>(t, "Positive");
  add_collector<&P::positive_current_collector>(t, "Positive");
  using L = ElectrolyteParameters;
  t.push_back({"Initial concentration in electrolyte [mol.m-3]", "mol.m-3", "Uniform salt concentration at t = 0",
               kElectrolyteConcentration, &field<&P::electrolyte, &L::initial_concentration>});
  t.push_back({"Cation transference number", "", "t+ of the electrolyte", kUnitOpen,
               &field<&P::electrolyte, &L::transference_number>});
  t.push_back({"Thermodynamic factor", "", "1 + dln f / dln c_e of the electrolyte", kPositive,
               &field<&P::electrolyte, &L::thermodynamic_factor>});
  t.push_back({"Electrolyte conductivity activation energy [J.mol-1]", "J.mol-1",
               "Arrhenius activation energy of the electrolyte conductivity", kNonNegative,
               &field<&P::electrolyte, &L::conductivity_activation_energy>});
  t.push_back({"Electrolyte diffusivity activation energy [J.mol-1]", "J.mol-1",
               "Arrhenius activation energy of the electrolyte diffusivity", kNonNegative,
               &field<&P::electrolyte, &L::diffusivity_activation_energy>});
  using T = ThermalParameters;
  t.push_back({"Reference temperature [K]", "K", "T_ref of U = U_ref + (T - T_ref) dU/dT", kPositive,
               &field<&P::thermal, &T::reference_temperature>});
  t.push_back({"Initial temperature [K]", "K", "Uniform cell temperature at t = 0", kPositive,
               &field<&P::thermal, &T::initial_temperature>});
  t.push_back({"Ambient temperature [K]", "K", "Temperature of the cooling medium", kPositive,
               &field<&P::thermal, &T::ambient_temperature>});
  t.push_back({"Total heat transfer coefficient [W.m-2.K-1]", "W.m-2.K-1",
               "h of the lumped model's cooling h A (T - T_amb)", kNonNegative,
               &field<&P::thermal, &T::heat_transfer_coefficient>});
  t.push_back({"Cell cooling surface area [m2]", "m2", "A of the lumped model's cooling", kCoolingArea,
               &field<&P::thermal, &T::cooling_surface_area>});
  t.push_back({"Cell volume [m3]", "m3", "Volume over which the lumped model spreads the heat", kCellVolume,
               &field<&P::thermal, &T::cell_volume>});
  const std::string pouch = " (3D conduction; may be unset)";
  for (const char* side : {"Negative", "Positive"}) {
    const bool neg = side[0] == 'N';
    const std::string lower = neg ? "negative" : "positive";
    t.push_back({std::string(side) + " current collector surface heat transfer coefficient [W.m-2.K-1]", "W.m-2.K-1",
                 "h of the " + lower + " foil's outer face" + pouch, kNonNegative,
                 neg ? &field<&P::thermal, &T::negative_collector_heat_transfer_coefficient>
                     : &field<&P::thermal, &T::positive_collector_heat_transfer_coefficient>,
                 true});
    t.push_back({std::string(side) + " tab heat transfer coefficient [W.m-2.K-1]", "W.m-2.K-1",
                 "h of the " + lower + " foil's edge under its tab" + pouch, kNonNegative,
                 neg ? &field<&P::thermal, &T::negative_tab_heat_transfer_coefficient>
                     : &field<&P::thermal, &T::positive_tab_heat_transfer_coefficient>,
                 true});
  }
  t.push_back({"Edge heat transfer coefficient [W.m-2.K-1]", "W.m-2.K-1", "h of the stack's four edges" + pouch,
               kNonNegative, &field<&P::thermal, &T::edge_heat_transfer_coefficient>, true});
  using V = ElectricalParameters;
  t.push_back({"Nominal cell capacity [A.h]", "A.h", "Capacity that defines 1C", kCapacity,
               &field<&P::electrical, &V::nominal_capacity>});
  t.push_back({"Current function [A]", "A",
               "Not used: the experiment's steps set the current (PyBaMM's default current, read so its files load)",
               kAny, &field<&P::electrical, &V::current_function>});
  t.push_back({"Lower voltage cut-off [V]", "V", "Terminal voltage that ends a discharge", kPositive,
               &field<&P::electrical, &V::lower_voltage_cutoff>});
  t.push_back({"Upper voltage cut-off [V]", "V", "Terminal voltage that ends a charge", kPositive,
               &field<&P::electrical, &V::upper_voltage_cutoff>});
  t.push_back({"Open-circuit voltage at 0% SOC [V]", "V", "Open-circuit voltage that defines 0% state of charge",
               kPositive, &field<&P::electrical, &V::ocv_at_0_soc>});
  t.push_back({"Open-circuit voltage at 100% SOC [V]", "V", "Open-circuit voltage that defines 100% state of charge",
               kPositive, &field<&P::electrical, &V::ocv_at_100_soc>});
  t.push_back({"Discharge C-rate factor", "",
               "voltaic's: the experiment's C-rate discharge steps run at this times their rate (a sweep's "
               "per-cell protocol; 1: as written)",
               kRateFactor, &field<&P::electrical, &V::discharge_rate_factor>});
  t.push_back({"Charge C-rate factor", "",
               "voltaic's: the experiment's C-rate charge steps run at this times their rate (a sweep's "
               "per-cell protocol; 1: as written)",
               kRateFactor, &field<&P::electrical, &V::charge_rate_factor>});
  t.push_back(
      {"Contact resistance [Ohm]", "Ohm",
       "Not used: PyBaMM's DFN leaves it out unless its \"contact resistance\" option is on (read so its files load)",
       kNonNegative, &field<&P::electrical, &V::contact_resistance>});
  using I = SeiParameters;
  const auto sei = [&t](const std::string& name, const std::string& unit, const std::string& what,
                        const Interval& allowed, double& (*f)(ParameterSet&)) {
    t.push_back({name, unit, what + " (SEI growth; may be unset without it)", allowed, f, true});
  };
  sei("SEI reaction exchange current density [A.m-2]", "A.m-2", "j0 of the SEI reaction (\"reaction limited\")",
      kPositive, &field<&P::sei, &I::exchange_current_density>);
  sei("SEI open-circuit potential [V]", "V", "U_sei of the SEI reaction's overpotential", kAny,
      &field<&P::sei, &I::open_circuit_potential>);
  sei("SEI resistivity [Ohm.m]", "Ohm.m", "Ionic resistivity of the film (its resistance L_sei R_sei)", kNonNegative,
      &field<&P::sei, &I::resistivity>);
  sei("SEI partial molar volume [m3.mol-1]", "m3.mol-1", "Volume of one mole of SEI", kPositive,
      &field<&P::sei, &I::partial_molar_volume>);
  sei("Ratio of lithium moles to SEI moles", "", "Lithium atoms bound per SEI molecule", kPositive,
      &field<&P::sei, &I::lithium_moles_ratio>);
  sei("Initial SEI thickness [m]", "m", "Film thickness at t = 0", kPositive, &field<&P::sei, &I::initial_thickness>);
  sei("SEI growth activation energy [J.mol-1]", "J.mol-1", "Arrhenius activation energy of every SEI growth model",
      kNonNegative, &field<&P::sei, &I::activation_energy>);
  sei("SEI growth transfer coefficient", "", "alpha of the \"(asymmetric)\" SEI models", kUnitOpen,
      &field<&P::sei, &I::transfer_coefficient>);
  sei("SEI solvent diffusivity [m2.s-1]", "m2.s-1", "Solvent diffusivity through the film", kPositive,
      &field<&P::sei, &I::solvent_diffusivity>);
  sei("Bulk solvent concentration [mol.m-3]", "mol.m-3", "Solvent concentration outside the film", kPositive,
      &field<&P::sei, &I::bulk_solvent_concentration>);
  sei("SEI lithium interstitial diffusivity [m2.s-1]", "m2.s-1", "Lithium interstitial diffusivity in the film",
      kPositive, &field<&P::sei, &I::interstitial_diffusivity>);
  sei("Lithium interstitial reference concentration [mol.m-3]", "mol.m-3",
      "Interstitial concentration at the film's inner face", kPositive,
      &field<&P::sei, &I::interstitial_concentration>);
  sei("EC diffusivity [m2.s-1]", "m2.s-1", "Ethylene carbonate diffusivity through the film", kPositive,
      &field<&P::sei, &I::ec_diffusivity>);
  sei("EC initial concentration in electrolyte [mol.m-3]", "mol.m-3", "Ethylene carbonate concentration outside",
      kPositive, &field<&P::sei, &I::ec_concentration>);
  sei("SEI kinetic rate constant [m.s-1]", "m.s-1", "k of the \"ec reaction limited\" model", kPositive,
      &field<&P::sei, &I::kinetic_rate_constant>);
  sei("SEI electron conductivity [S.m-1]", "S.m-1", "Not used: the \"electron-migration limited\" model's", kPositive,
      &field<&P::sei, &I::electron_conductivity>);
  using Li = PlatingParameters;
  const auto plating = [&t](const std::string& name, const std::string& unit, const std::string& what,
                            const Interval& allowed, double& (*f)(ParameterSet&)) {
    t.push_back({name, unit, what + " (lithium plating; may be unset without it)", allowed, f, true});
  };
  plating("Lithium metal partial molar volume [m3.mol-1]", "m3.mol-1", "Volume of one mole of plated lithium",
          kPositive, &field<&P::plating, &Li::lithium_metal_partial_molar_volume>);
  plating("Lithium plating kinetic rate constant [m.s-1]", "m.s-1",
          "k of the exchange-current densities F k c_e (plating) and F k c_Li (stripping)", kNonNegative,
          &field<&P::plating, &Li::kinetic_rate_constant>);
  plating("Initial plated lithium concentration [mol.m-3]", "mol.m-3", "Plated lithium at t = 0, per electrode volume",
          kNonNegative, &field<&P::plating, &Li::initial_plated_concentration>);
  plating("Typical plated lithium concentration [mol.m-3]", "mol.m-3", "PyBaMM's scale of the plated lithium",
          kPositive, &field<&P::plating, &Li::typical_plated_concentration>);
  plating("Lithium plating transfer coefficient", "", "alpha of plating (stripping's is 1 - alpha)", kUnitOpen,
          &field<&P::plating, &Li::transfer_coefficient>);
  plating("Dead lithium decay constant [s-1]", "s-1",
          "gamma_0 of the dead lithium's decay rate gamma_0 L_sei_0 / L_sei (\"partially reversible\")", kNonNegative,
          &field<&P::plating, &Li::dead_lithium_decay_constant>);
  return t;
}

/// The fit's name, or for `custom` what the custom function is ("expression: ...").
template <class Model>
std::string selected_fit(const ParameterSet& p, Model m, FunctionSlot slot) {
  return m == Model::custom ? p.custom_function_description(slot) : to_string(m);
}

std::vector<FunctionInfo> build_function_table() {
  std::vector<FunctionInfo> t;
  using S = FunctionSlot;
  for (const char* Side : {"Negative", "Positive"}) {
    const bool neg = std::string(Side) == "Negative";
    const std::string n = std::string(Side) + " electrode ";
    t.push_back(
        {n + "OCP [V]", "V", "Open-circuit potential U_ref(stoichiometry) at the reference temperature",
         neg ? +[](const ParameterSet& p) { return selected_fit(p, p.negative_electrode.ocp, S::negative_ocp); }
             : +[](const ParameterSet& p) { return selected_fit(p, p.positive_electrode.ocp, S::positive_ocp); }});
    t.push_back({n + "OCP entropic change [V.K-1]", "V.K-1", "Entropic coefficient dU/dT(stoichiometry)",
                 neg ? +[](const ParameterSet&
                               p) { return selected_fit(p, p.negative_electrode.entropic, S::negative_entropic); }
                     : +[](const ParameterSet& p) {
                         return selected_fit(p, p.positive_electrode.entropic, S::positive_entropic);
                       }});
    t.push_back({n + "exchange-current density [A.m-2]", "A.m-2",
                 "j0 = m Arrhenius(E_r, T) sqrt(c_e c_s (c_max - c_s)), m and E_r from the table",
                 +[](const ParameterSet&) { return std::string("arrhenius_sqrt"); }});
    t.push_back({std::string(Side) + " particle diffusivity [m2.s-1]", "m2.s-1",
                 "D_s = D_s(298.15 K) Arrhenius(E_D, T), independent of stoichiometry",
                 +[](const ParameterSet&) { return std::string("arrhenius"); }});
  }
  t.push_back(
      {"Electrolyte conductivity [S.m-1]", "S.m-1", "kappa(c_e) Arrhenius(E_kappa, T)", +[](const ParameterSet& p) {
         return selected_fit(p, p.electrolyte.conductivity_model, S::electrolyte_conductivity);
       }});
  t.push_back({"Electrolyte diffusivity [m2.s-1]", "m2.s-1", "D_e(c_e) Arrhenius(E_De, T)", +[](const ParameterSet& p) {
                 return selected_fit(p, p.electrolyte.diffusivity_model, S::electrolyte_diffusivity);
               }});
  return t;
}

std::string format_number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return format_parameter_value(v);
}

}  // namespace

bool Interval::contains(double v) const {
  if (!std::isfinite(v)) return false;
  if (lo_closed ? v < lo : v <= lo) return false;
  if (hi_closed ? v > hi : v >= hi) return false;
  return !whole || v == std::floor(v);
}

std::string Interval::to_string() const {
  std::string s;
  if (lo == hi && lo_closed && hi_closed) return "exactly " + format_number(lo);
  if (std::isinf(lo) && std::isinf(hi)) {
    s = "finite";
  } else if (std::isinf(hi)) {
    s = (lo_closed ? ">= " : "> ") + format_number(lo);
  } else {
    s = (lo_closed ? "[" : "(") + format_number(lo) + ", " + format_number(hi) + (hi_closed ? "]" : ")");
  }
  return whole ? "a whole number " + s : s;
}

const std::vector<ParameterInfo>& parameter_table() {
  static const std::vector<ParameterInfo> table = build_parameter_table();
  return table;
}

const std::vector<FunctionInfo>& function_table() {
  static const std::vector<FunctionInfo> table = build_function_table();
  return table;
}

const ParameterInfo* find_parameter(const std::string& name) {
  for (const ParameterInfo& info : parameter_table()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

namespace {
const ParameterInfo& require_parameter(const std::string& name, const char* where) {
  if (const ParameterInfo* info = find_parameter(name)) return *info;
  throw InvalidArgument(name, where,
                        "no parameter is named '" + name +
                            "'; names are PyBaMM's, unit included (voltaic::parameter_table() lists them)");
}
}  // namespace

double parameter_value(const ParameterSet& p, const std::string& name) {
  return require_parameter(name, "voltaic::parameter_value").get(p);
}

void set_parameter(ParameterSet& p, const std::string& name, double value) {
  require_parameter(name, "voltaic::set_parameter").set(p, value);
}

std::string format_parameter_value(double v) {
  if (std::isnan(v)) return "nan";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

std::string to_string(OcpModel m) {
  switch (m) {
    case OcpModel::chen2020_graphite_siox: return "chen2020_graphite_siox";
    case OcpModel::chen2020_nmc811: return "chen2020_nmc811";
    case OcpModel::dualfoil1998_graphite_mcmb2528: return "dualfoil1998_graphite_mcmb2528";
    case OcpModel::dualfoil1998_lico2: return "dualfoil1998_lico2";
    case OcpModel::custom: return "custom";
  }
  return "unknown (" + std::to_string(static_cast<int>(m)) + ")";
}

std::string to_string(EntropicModel m) {
  switch (m) {
    case EntropicModel::none: return "none";
    case EntropicModel::moura2016_graphite: return "moura2016_graphite";
    case EntropicModel::moura2016_lico2: return "moura2016_lico2";
    case EntropicModel::custom: return "custom";
  }
  return "unknown (" + std::to_string(static_cast<int>(m)) + ")";
}

std::string to_string(ElectrolyteModel m) {
  switch (m) {
    case ElectrolyteModel::nyman2008: return "nyman2008";
    case ElectrolyteModel::capiglia1999: return "capiglia1999";
    case ElectrolyteModel::custom: return "custom";
  }
  return "unknown (" + std::to_string(static_cast<int>(m)) + ")";
}

}  // namespace voltaic
