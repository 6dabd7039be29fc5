// BPX 1.x "Parameterisation" and "State" to a ParameterSet. The conventions
// are BPX's, applied as PyBaMM's reader (pybamm/parameters/bpx.py, 26.10)
// applies them; where BPX has no value and PyBaMM none either, the choice is
// voltaic's and says so. docs/bpx.md has the whole mapping.
#include "io/bpx_mapping.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "io/nearest_name.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/function_definition.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic::io::detail {

namespace {

/// The reference temperature when the file gives none (BPX makes it optional;
/// PyBaMM's reader then fails, we take the 298.15 K of every BPX example).
constexpr double kDefaultReferenceTemperature = 298.15;
/// PyBaMM's default initial (and reference) electrolyte concentration, 1 M.
constexpr double kDefaultElectrolyteConcentration = 1000.0;
/// Through-thickness thermal conductivity when "User-defined" gives none:
/// BPX 1.x has no such field and PyBaMM's reader sets none (its lumped model
/// does not need one). Ours is used only by ThermalModel::conduction.
constexpr double kDefaultThermalConductivity = 1.0;
/// Collector foils as PyBaMM's reader sets them: no thickness (left out of
/// the lumped model), a conductivity that then does not matter.
constexpr double kCollectorConductivity = 4e7;
/// BPX's Butler-Volmer is symmetric: j = 2 j0 sinh(F eta / (2 R T)).
constexpr double kChargeTransferCoefficient = 0.5;
/// Not in BPX, not used by voltaic's DFN (no double layer); PyBaMM's
/// Chen2020 and Marquis2019 value, so that the set is complete.
constexpr double kDoubleLayerCapacity = 0.2;

/// What the sections share: the reference temperature of the Arrhenius
/// factors and of U(T), and the initial state.
struct Context {
  double reference_temperature = kDefaultReferenceTemperature;
  double initial_soc = 1.0;  ///< PyBaMM's default: full charge
  double initial_temperature = 0.0;
  double electrolyte_concentration = kDefaultElectrolyteConcentration;
};

/// BPX's Arrhenius factors are 1 at its reference temperature, ours at
/// kArrheniusReferenceTemperature: a value at T_ref times this is the value at
/// 298.15 K (exactly 1 when T_ref is 298.15 K).
double to_our_arrhenius_reference(double activation_energy, double reference_temperature) {
  return std::exp(activation_energy / kGasConstant *
                  (1.0 / reference_temperature - 1.0 / kArrheniusReferenceTemperature));
}

/// b with porosity^b = transport efficiency (PyBaMM: log(tau) / log(eps)).
double bruggeman(const BpxNode& n, double porosity) {
  const double tau = n.number("Transport efficiency", BpxRange::unit_upper);
  if (porosity == 1.0) {
    if (tau != 1.0) n.fail("Transport efficiency", "must be 1 when the porosity is 1 (nothing obstructs transport)");
    return 0.0;
  }
  return std::log(tau) / std::log(porosity);
}

/// A function that must be finite (and positive when `positive`) at `x`, a
/// point every simulation visits: catches formulas that cannot be meant.
void check_at(const BpxNode& n, const std::string& key, const FunctionDefinition& f, double x, const char* at,
              bool positive) {
  const double v = f(x);
  if (!std::isfinite(v) || (positive && !(v > 0.0))) {
    n.fail(key, "is " + format_parameter_value(v) + " at " + at + " (x = " + format_parameter_value(x) +
                    "); it must be " + (positive ? "> 0" : "finite") + " there");
  }
}

Context read_state(const std::optional<BpxNode>& state, double reference_temperature, double& ambient, double& h) {
  Context c;
  c.reference_temperature = reference_temperature;
  c.initial_temperature = reference_temperature;  // PyBaMM's defaults, as for the ambient temperature
  ambient = reference_temperature;
  h = 0.0;  // PyBaMM's default: adiabatic
  if (!state) return c;
  state->allow_only({"Initial conditions", "Thermal environment", "Degradation"});
  if (const auto ic = state->optional_section("Initial conditions")) {
    ic->allow_only({"Initial state-of-charge", "Initial temperature [K]", "Initial electrolyte concentration [mol.m-3]",
                    "Initial hysteresis state: Positive electrode", "Initial hysteresis state: Negative electrode"});
    c.initial_soc = ic->number_or("Initial state-of-charge", BpxRange::unit_closed, 1.0);
    c.initial_temperature = ic->number_or("Initial temperature [K]", BpxRange::positive, reference_temperature);
    c.electrolyte_concentration = ic->number_or("Initial electrolyte concentration [mol.m-3]", BpxRange::positive,
                                                kDefaultElectrolyteConcentration);
  }
  if (const auto te = state->optional_section("Thermal environment")) {
    te->allow_only({"Ambient temperature [K]", "Heat transfer coefficient [W.m-2.K-1]"});
    ambient = te->number_or("Ambient temperature [K]", BpxRange::positive, reference_temperature);
    h = te->number_or("Heat transfer coefficient [W.m-2.K-1]", BpxRange::non_negative, 0.0);
  }
  if (const auto d = state->optional_section("Degradation")) {
    for (const char* key : {"LLI", "LAM: Positive electrode", "LAM: Negative electrode"}) {
      const nlohmann::json* v = d->find(key);
      if (v != nullptr && !(v->is_number() && v->get<double>() == 0.0)) {
        d->fail(key, "degradation states (LLI, LAM) are not supported; only 0 (a fresh cell) is accepted");
      }
    }
    d->allow_only({"LLI", "LAM: Positive electrode", "LAM: Negative electrode"});
  }
  return c;
}

double read_cell(const BpxNode& n, ParameterSet& p) {
  n.allow_only({"Electrode area [m2]", "External surface area [m2]", "Volume [m3]",
                "Number of electrode pairs connected in parallel to make a cell", "Lower voltage cut-off [V]",
                "Upper voltage cut-off [V]", "Nominal cell capacity [A.h]", "Reference temperature [K]",
                "Density [kg.m-3]", "Specific heat capacity [J.K-1.kg-1]"},
               {{"Initial temperature [K]", "State/Initial conditions"},
                {"Ambient temperature [K]", "State/Thermal environment"},
                {"Thermal conductivity [W.m-1.K-1]", "User-defined (BPX 1.x dropped it from Cell)"}});
  // Only the area matters to a 1D cell; PyBaMM makes it a square, and so do we.
  const double side = std::sqrt(n.number("Electrode area [m2]", BpxRange::positive));
  p.cell.electrode_height = side;
  p.cell.electrode_width = side;
  p.cell.electrodes_in_parallel = n.whole_number("Number of electrode pairs connected in parallel to make a cell", 1);
  p.cell.cells_in_series = 1.0;  // BPX describes one cell
  // Optional in BPX, needed by our lumped thermal model (and so by every set).
  p.thermal.cooling_surface_area = n.number("External surface area [m2]", BpxRange::positive);
  p.thermal.cell_volume = n.number("Volume [m3]", BpxRange::positive);
  const double lower = n.number("Lower voltage cut-off [V]", BpxRange::positive);
  const double upper = n.number("Upper voltage cut-off [V]", BpxRange::positive);
  if (!(lower < upper)) {
    n.fail("Upper voltage cut-off [V]", "is " + format_parameter_value(upper) +
                                            "; it must be above the lower cut-off " + format_parameter_value(lower));
  }
  ElectricalParameters& e = p.electrical;
  e.lower_voltage_cutoff = lower;
  e.upper_voltage_cutoff = upper;
  e.ocv_at_0_soc = lower;  // PyBaMM's reader: the cut-offs define 0% and 100% SOC
  e.ocv_at_100_soc = upper;
  e.nominal_capacity = n.number("Nominal cell capacity [A.h]", BpxRange::positive);
  e.current_function = e.nominal_capacity;  // PyBaMM's reader: 1C by default
  e.contact_resistance = 0.0;
  return n.number_or("Reference temperature [K]", BpxRange::positive, kDefaultReferenceTemperature);
}

/// The lumped density and heat capacity (and the conductivity, see
/// kDefaultThermalConductivity) in every layer, as PyBaMM's reader does.
void read_lumped_thermal(const BpxNode& cell, const std::optional<BpxNode>& user, ParameterSet& p) {
  const double rho = cell.number("Density [kg.m-3]", BpxRange::positive);
  const double cp = cell.number("Specific heat capacity [J.K-1.kg-1]", BpxRange::positive);
  double lambda = kDefaultThermalConductivity;
  if (user) lambda = user->number_or("Thermal conductivity [W.m-1.K-1]", BpxRange::positive, lambda);
  for (ElectrodeParameters* e : {&p.negative_electrode, &p.positive_electrode}) {
    e->density = rho;
    e->specific_heat_capacity = cp;
    e->thermal_conductivity = lambda;
  }
  p.separator.density = rho;
  p.separator.specific_heat_capacity = cp;
  p.separator.thermal_conductivity = lambda;
  for (CurrentCollectorParameters* c : {&p.negative_current_collector, &p.positive_current_collector}) {
    *c = {0.0, kCollectorConductivity, rho, cp, lambda};
  }
}

/// "User-defined" beyond the thermal conductivity: parameters by PyBaMM's
/// names, as PyBaMM's reader adds them to its ParameterValues (after the BPX
/// sections, so a name BPX also sets takes this value): the degradation
/// parameters of SEI, plating and loss of active material above all. A name
/// voltaic has no parameter for, or a value outside its range, is an error
/// naming it: nothing in the file is ignored.
void read_user_defined(const BpxNode& user, ParameterSet& p) {
  for (const std::string& key : user.keys()) {
    if (key == "Thermal conductivity [W.m-1.K-1]") continue;  // read_lumped_thermal's
    const ParameterInfo* info = find_parameter(key);
    if (info == nullptr) {
      std::vector<std::string> known;
      for (const ParameterInfo& i : parameter_table()) known.push_back(i.name);
      const std::optional<std::string> near = nearest_name(key, known);
      user.fail(key,
                "is not a parameter voltaic has (User-defined takes numeric parameters by PyBaMM's names, "
                "as docs/config.md's parameter table lists them" +
                    (near ? "; did you mean '" + *near + "'?)" : std::string(")")));
    }
    const double v = user.number(key, BpxRange::any);
    if (!info->allowed.contains(v)) {
      user.fail(key, "is " + format_parameter_value(v) + "; allowed: " + info->allowed.to_string() +
                         (info->unit.empty() ? "" : " " + info->unit));
    }
    info->set(p, v);
  }
}

void read_electrolyte(const BpxNode& n, const Context& c, ParameterSet& p) {
  n.allow_only({"Cation transference number", "Diffusivity [m2.s-1]", "Diffusivity activation energy [J.mol-1]",
                "Conductivity [S.m-1]", "Conductivity activation energy [J.mol-1]"},
               {{"Initial concentration [mol.m-3]",
                 "State/Initial conditions as 'Initial electrolyte concentration [mol.m-3]'"}});
  ElectrolyteParameters& e = p.electrolyte;
  e.initial_concentration = c.electrolyte_concentration;
  e.transference_number = n.number("Cation transference number", BpxRange::unit_open);
  e.thermodynamic_factor = 1.0;  // PyBaMM's reader
  e.diffusivity_activation_energy = n.number_or("Diffusivity activation energy [J.mol-1]", BpxRange::non_negative, 0.0);
  e.conductivity_activation_energy =
      n.number_or("Conductivity activation energy [J.mol-1]", BpxRange::non_negative, 0.0);
  const struct {
    const char* key;
    FunctionSlot slot;
    double activation_energy;
  } functions[] = {{"Diffusivity [m2.s-1]", FunctionSlot::electrolyte_diffusivity, e.diffusivity_activation_energy},
                   {"Conductivity [S.m-1]", FunctionSlot::electrolyte_conductivity, e.conductivity_activation_energy}};
  for (const auto& f : functions) {
    FunctionDefinition d = n.function(f.key);
    check_at(n, f.key, d, c.electrolyte_concentration, "the initial electrolyte concentration", true);
    const double factor = to_our_arrhenius_reference(f.activation_energy, c.reference_temperature);
    p.set_custom_function(f.slot, factor == 1.0 ? d : d.scaled(factor));
  }
}

/// D_s: our particle model takes one diffusivity per particle, so a function
/// of stoichiometry is refused rather than approximated; an expression
/// without x is its value.
double particle_diffusivity(const BpxNode& n) {
  const char* key = "Diffusivity [m2.s-1]";
  const FunctionDefinition d = n.function(key);
  if (d.uses_x) {
    n.fail(key,
           "a diffusivity that depends on stoichiometry is not supported (voltaic's particle model takes one "
           "constant D_s per electrode); give a number");
  }
  const double v = d(0.0);
  if (!(std::isfinite(v) && v > 0.0)) n.fail(key, "is " + format_parameter_value(v) + "; it must be > 0");
  return v;
}

void read_electrode(const BpxNode& n, bool negative, const Context& c, ParameterSet& p) {
  if (n.has("Particle")) {
    n.fail("Particle", "blended electrodes (several active materials) are not supported");
  }
  n.allow_only({"Thickness [m]", "Porosity", "Transport efficiency", "Conductivity [S.m-1]", "Minimum stoichiometry",
                "Maximum stoichiometry", "Maximum concentration [mol.m-3]", "Particle radius [m]",
                "Surface area per unit volume [m-1]", "Diffusivity [m2.s-1]", "Diffusivity activation energy [J.mol-1]",
                "OCP [V]", "OCP (delithiation) [V]", "OCP (lithiation) [V]", "OCP hysteresis decay constant",
                "Entropic change coefficient [V.K-1]", "Reaction rate constant [mol.m-2.s-1]",
                "Reaction rate constant activation energy [J.mol-1]"});
  ElectrodeParameters& e = negative ? p.negative_electrode : p.positive_electrode;
  e.thickness = n.number("Thickness [m]", BpxRange::positive);
  e.porosity = n.number("Porosity", BpxRange::unit_open);
  e.bruggeman_electrolyte = bruggeman(n, e.porosity);
  e.conductivity = n.number("Conductivity [S.m-1]", BpxRange::positive);
  e.bruggeman_electrode = 0.0;  // BPX's conductivity is already the effective one
  e.particle_radius = n.number("Particle radius [m]", BpxRange::positive);
  // a = 3 eps_s / R for spheres.
  e.active_material_volume_fraction =
      n.number("Surface area per unit volume [m-1]", BpxRange::positive) * e.particle_radius / 3.0;
  if (!(e.active_material_volume_fraction < 1.0 - e.porosity + 1e-15)) {
    n.fail("Surface area per unit volume [m-1]", "gives an active material volume fraction a R / 3 = " +
                                                     format_parameter_value(e.active_material_volume_fraction) +
                                                     ", which with the porosity " + format_parameter_value(e.porosity) +
                                                     " fills more than the whole electrode");
  }
  e.maximum_concentration = n.number("Maximum concentration [mol.m-3]", BpxRange::positive);
  const double sto_min = n.number("Minimum stoichiometry", BpxRange::unit_closed);
  const double sto_max = n.number("Maximum stoichiometry", BpxRange::unit_closed);
  if (!(sto_min < sto_max)) {
    n.fail("Maximum stoichiometry", "is " + format_parameter_value(sto_max) + "; it must be above the minimum " +
                                        format_parameter_value(sto_min));
  }
  // BPX's stoichiometry window (bpx.get_electrode_stoichiometries): SOC 1 is
  // the negative electrode at its maximum, the positive at its minimum.
  const double s = c.initial_soc;
  const double sto = negative ? (sto_max - sto_min) * s + sto_min : sto_max - (sto_max - sto_min) * s;
  e.initial_concentration = sto * e.maximum_concentration;

  const double E_D = n.number_or("Diffusivity activation energy [J.mol-1]", BpxRange::non_negative, 0.0);
  e.diffusivity = particle_diffusivity(n) * to_our_arrhenius_reference(E_D, c.reference_temperature);
  e.diffusivity_activation_energy = E_D;
  // BPX: j0 = F k sqrt(c_e / c_e0 * c_s / c_max * (1 - c_s / c_max)); ours
  // j0 = m sqrt(c_e c_s (c_max - c_s)), so m = F k / (c_max sqrt(c_e0)), c_e0
  // the initial electrolyte concentration (as PyBaMM's reader takes it).
  const double E_k = n.number_or("Reaction rate constant activation energy [J.mol-1]", BpxRange::non_negative, 0.0);
  const double k = n.number("Reaction rate constant [mol.m-2.s-1]", BpxRange::positive);
  e.reaction_rate_constant = k * kFaraday / (e.maximum_concentration * std::sqrt(c.electrolyte_concentration)) *
                             to_our_arrhenius_reference(E_k, c.reference_temperature);
  e.reaction_activation_energy = E_k;
  e.charge_transfer_coefficient = kChargeTransferCoefficient;
  e.double_layer_capacity = kDoubleLayerCapacity;

  const FunctionDefinition ocp = n.function("OCP [V]");
  check_at(n, "OCP [V]", ocp, sto, "the initial stoichiometry", false);
  p.set_custom_function(negative ? FunctionSlot::negative_ocp : FunctionSlot::positive_ocp, ocp);
  if (n.has("Entropic change coefficient [V.K-1]")) {
    const FunctionDefinition dudt = n.function("Entropic change coefficient [V.K-1]");
    check_at(n, "Entropic change coefficient [V.K-1]", dudt, sto, "the initial stoichiometry", false);
    p.set_custom_function(negative ? FunctionSlot::negative_entropic : FunctionSlot::positive_entropic, dudt);
  } else {
    e.entropic = EntropicModel::none;  // dU/dT = 0
  }
}

void read_separator(const BpxNode& n, ParameterSet& p) {
  n.allow_only({"Thickness [m]", "Porosity", "Transport efficiency"});
  SeparatorParameters& s = p.separator;
  s.thickness = n.number("Thickness [m]", BpxRange::positive);
  s.porosity = n.number("Porosity", BpxRange::unit_upper);
  s.bruggeman_electrolyte = bruggeman(n, s.porosity);
}

}  // namespace

ParameterSet bpx_parameter_set(const BpxNode& parameterisation, const std::optional<BpxNode>& state) {
  const BpxNode& n = parameterisation;
  n.allow_only({"Cell", "Electrolyte", "Negative electrode", "Positive electrode", "Separator", "User-defined"});
  ParameterSet p;
  const BpxNode cell = n.section("Cell");
  const double reference_temperature = read_cell(cell, p);
  double ambient = 0.0, h = 0.0;
  const Context c = read_state(state, reference_temperature, ambient, h);
  p.thermal.reference_temperature = reference_temperature;
  p.thermal.initial_temperature = c.initial_temperature;
  p.thermal.ambient_temperature = ambient;
  p.thermal.heat_transfer_coefficient = h;
  read_electrolyte(n.section("Electrolyte"), c, p);
  read_electrode(n.section("Negative electrode"), true, c, p);
  read_electrode(n.section("Positive electrode"), false, c, p);
  read_separator(n.section("Separator"), p);
  const std::optional<BpxNode> user = n.optional_section("User-defined");
  read_lumped_thermal(cell, user, p);
  if (user) read_user_defined(*user, p);
  return p;
}

}  // namespace voltaic::io::detail
