#pragma once
/// @file parameter_set.hpp
/// @brief ParameterSet: every quantity of the DFN model with its lumped
/// thermal model, in SI units. Its groups are plain trivially copyable
/// structs that a CUDA kernel takes by value.
///
/// Each field's comment gives its PyBaMM name (parameter_table.hpp lists the
/// names, units, descriptions and allowed ranges). Material functions are
/// chosen by the small enums below and evaluated by material_functions.hpp;
/// their constants (activation energies, rate constants, reference values)
/// are fields here, so overriding a value overrides it everywhere. A
/// selector set to `custom` uses a CustomFunction handle instead (a constant,
/// a table or an expression, e.g. from a BPX file), whose data the
/// ParameterSet holds.

#include <array>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "voltaic/core/macros.hpp"
#include "voltaic/model/material_function.hpp"

namespace voltaic {

/// Value of a field nobody has set: validate() rejects it by name.
inline constexpr double kUnsetParameter = std::numeric_limits<double>::quiet_NaN();

/// Open-circuit potential fits U(stoichiometry) [V].
enum class OcpModel : int {
  chen2020_graphite_siox,          ///< LG M50 graphite-SiOx (Chen et al. 2020)
  chen2020_nmc811,                 ///< LG M50 NMC811 (Chen et al. 2020)
  dualfoil1998_graphite_mcmb2528,  ///< MCMB 2528 graphite (Dualfoil; Marquis et al. 2019)
  dualfoil1998_lico2,              ///< LiCoO2 (Dualfoil; Marquis et al. 2019)
  custom,                          ///< ElectrodeParameters::ocp_function
};

/// Entropic coefficient fits dU/dT(stoichiometry) [V/K].
enum class EntropicModel : int {
  none,                ///< dU/dT = 0
  moura2016_graphite,  ///< graphite (Moura's fastDFN; Marquis et al. 2019)
  moura2016_lico2,     ///< LiCoO2 (Moura's fastDFN; Marquis et al. 2019)
  custom,              ///< ElectrodeParameters::entropic_function
};

/// Electrolyte fits: each gives a conductivity and a diffusivity as functions
/// of concentration, times an Arrhenius factor whose activation energy is a
/// field of ElectrolyteParameters (0 when the fit has no temperature dependence).
enum class ElectrolyteModel : int {
  nyman2008,     ///< LiPF6 in EC:EMC 3:7 (Nyman et al. 2008; Chen et al. 2020)
  capiglia1999,  ///< LiPF6 in EC:DMC (Capiglia et al. 1999, Dualfoil fit; Marquis et al. 2019)
  custom,        ///< ElectrolyteParameters::conductivity_function / diffusivity_function (of c_e [mol/m^3])
};

/// Format of the cell: electrode area and how electrode pairs and cells are connected.
struct CellGeometry {
  double electrode_height = kUnsetParameter;        ///< "Electrode height [m]"
  double electrode_width = kUnsetParameter;         ///< "Electrode width [m]"
  double electrodes_in_parallel = kUnsetParameter;  ///< "Number of electrodes connected in parallel to make a cell"
  double cells_in_series = kUnsetParameter;         ///< "Number of cells connected in series to make a battery"
};

/// One current collector foil ("Negative current collector ..." / "Positive current collector ...").
struct CurrentCollectorParameters {
  double thickness = kUnsetParameter;               ///< [m]
  double conductivity = kUnsetParameter;            ///< electronic [S/m]
  double density = kUnsetParameter;                 ///< [kg/m^3]
  double specific_heat_capacity = kUnsetParameter;  ///< [J/(kg K)]
  double thermal_conductivity = kUnsetParameter;    ///< [W/(m K)]
  /// The foil's tab, as PyBaMM places it on an edge of the electrode plane
  /// (y along the width, z along the height). Optional: unset (NaN) unless
  /// the set has tabs; only the potential-pair collectors need them.
  double tab_width = kUnsetParameter;     ///< "... tab width [m]"
  double tab_centre_y = kUnsetParameter;  ///< "... tab centre y-coordinate [m]"
  double tab_centre_z = kUnsetParameter;  ///< "... tab centre z-coordinate [m]"
};

/// One porous electrode ("Negative electrode ..." / "Positive electrode ...").
struct ElectrodeParameters {
  double thickness = kUnsetParameter;                        ///< [m]
  double porosity = kUnsetParameter;                         ///< electrolyte volume fraction
  double active_material_volume_fraction = kUnsetParameter;  ///< eps_s
  double particle_radius = kUnsetParameter;                  ///< [m]
  double bruggeman_electrolyte = kUnsetParameter;            ///< b in eps^b for electrolyte transport
  double bruggeman_electrode = kUnsetParameter;              ///< b in eps_s^b for sigma (0: sigma is already effective)
  double conductivity = kUnsetParameter;                     ///< electronic [S/m]
  double maximum_concentration = kUnsetParameter;            ///< c_max [mol/m^3]
  double initial_concentration = kUnsetParameter;            ///< uniform c_s at t = 0 [mol/m^3]
  double diffusivity = kUnsetParameter;                      ///< D_s at 298.15 K [m^2/s]
  double diffusivity_activation_energy = kUnsetParameter;    ///< of D_s [J/mol]
  double reaction_rate_constant = kUnsetParameter;           ///< m in j0 at 298.15 K [A/m^2 (m^3/mol)^1.5]
  double reaction_activation_energy = kUnsetParameter;       ///< of m [J/mol]
  double charge_transfer_coefficient = kUnsetParameter;      ///< alpha of Butler-Volmer
  double double_layer_capacity = kUnsetParameter;            ///< [F/m^2]
  double density = kUnsetParameter;                          ///< [kg/m^3]
  double specific_heat_capacity = kUnsetParameter;           ///< [J/(kg K)]
  double thermal_conductivity = kUnsetParameter;             ///< [W/(m K)]
  OcpModel ocp = OcpModel::chen2020_graphite_siox;           ///< U at the reference temperature
  EntropicModel entropic = EntropicModel::none;              ///< dU/dT
  CustomFunction ocp_function;                               ///< U_ref(sto) [V] when ocp == custom
  CustomFunction entropic_function;                          ///< dU/dT(sto) [V/K] when entropic == custom
};

/// The separator ("Separator ...").
struct SeparatorParameters {
  double thickness = kUnsetParameter;               ///< [m]
  double porosity = kUnsetParameter;                ///< electrolyte volume fraction (1: no solid)
  double bruggeman_electrolyte = kUnsetParameter;   ///< b in eps^b
  double density = kUnsetParameter;                 ///< [kg/m^3]
  double specific_heat_capacity = kUnsetParameter;  ///< [J/(kg K)]
  double thermal_conductivity = kUnsetParameter;    ///< [W/(m K)]
};

/// The electrolyte: a binary salt in a solvent.
struct ElectrolyteParameters {
  double initial_concentration = kUnsetParameter;           ///< uniform c_e at t = 0 [mol/m^3]
  double transference_number = kUnsetParameter;             ///< cation, t+
  double thermodynamic_factor = kUnsetParameter;            ///< 1 + dln f / dln c
  double conductivity_activation_energy = kUnsetParameter;  ///< [J/mol]
  double diffusivity_activation_energy = kUnsetParameter;   ///< [J/mol]
  ElectrolyteModel conductivity_model = ElectrolyteModel::nyman2008;
  ElectrolyteModel diffusivity_model = ElectrolyteModel::nyman2008;
  CustomFunction conductivity_function;  ///< kappa(c_e) [S/m] at 298.15 K when conductivity_model == custom
  CustomFunction diffusivity_function;   ///< D_e(c_e) [m^2/s] at 298.15 K when diffusivity_model == custom
};

/// Temperatures and the lumped (0D) model's cooling: q = h A (T - T_amb) over the cell volume.
struct ThermalParameters {
  double reference_temperature = kUnsetParameter;      ///< T_ref of U(sto, T) = U_ref + (T - T_ref) dU/dT [K]
  double initial_temperature = kUnsetParameter;        ///< [K]
  double ambient_temperature = kUnsetParameter;        ///< [K]
  double heat_transfer_coefficient = kUnsetParameter;  ///< h [W/(m^2 K)]
  double cooling_surface_area = kUnsetParameter;       ///< A [m^2]
  double cell_volume = kUnsetParameter;                ///< [m^3]
  // The 3D conduction model's cooling per outer face (PyBaMM's pouch-cell
  // coefficients [W/(m^2 K)]; optional). An unset face, foil face or edge is
  // cooled by heat_transfer_coefficient; an unset tab by the edge's.
  double negative_collector_heat_transfer_coefficient = kUnsetParameter;  ///< outer face of the negative foil
  double positive_collector_heat_transfer_coefficient = kUnsetParameter;  ///< outer face of the positive foil
  double negative_tab_heat_transfer_coefficient = kUnsetParameter;        ///< negative foil's edge under its tab
  double positive_tab_heat_transfer_coefficient = kUnsetParameter;        ///< positive foil's edge under its tab
  double edge_heat_transfer_coefficient = kUnsetParameter;                ///< the four edges of the stack
};

/// [A] of a C-rate `c` (> 0 discharges) on a cell of `capacity` [A h] with
/// a protocol's rate factors: c x capacity x its direction's factor. One
/// formula for Simulation's steps and the cell program's (both backends).
VOLTAIC_HD inline double c_rate_amperes(double c, double capacity, double discharge_factor, double charge_factor) {
  return c * capacity * (c > 0.0 ? discharge_factor : charge_factor);
}

/// Ratings, limits and the default drive.
struct ElectricalParameters {
  double nominal_capacity = kUnsetParameter;      ///< defines 1C [A h]
  double current_function = kUnsetParameter;      ///< default applied current, > 0 discharges [A]
  double lower_voltage_cutoff = kUnsetParameter;  ///< [V]
  double upper_voltage_cutoff = kUnsetParameter;  ///< [V]
  double ocv_at_0_soc = kUnsetParameter;          ///< open-circuit voltage defining 0% SOC [V]
  double ocv_at_100_soc = kUnsetParameter;        ///< open-circuit voltage defining 100% SOC [V]
  double contact_resistance = kUnsetParameter;    ///< [Ohm]
  /// The experiment's C-rate steps drive value x nominal capacity x this
  /// factor (discharging, and charging): a protocol's rates per cell of a
  /// sweep. 1 leaves the experiment as written.
  double discharge_rate_factor = 1.0;
  double charge_rate_factor = 1.0;

  /// [A] of a C-rate `c` (> 0 discharges) on this cell: c x nominal capacity x its direction's factor.
  double c_rate_amperes(double c) const {
    return voltaic::c_rate_amperes(c, nominal_capacity, discharge_rate_factor, charge_rate_factor);
  }
};

/// The solid-electrolyte interphase on the negative particles (PyBaMM's SEI
/// parameters; used only when a degradation model asks for them, see
/// degradation_options.hpp, and then checked by name).
struct SeiParameters {
  double exchange_current_density = kUnsetParameter;    ///< j0_sei of "reaction limited" [A/m^2]
  double open_circuit_potential = kUnsetParameter;      ///< U_sei [V]
  double resistivity = kUnsetParameter;                 ///< R_sei [Ohm m]
  double partial_molar_volume = kUnsetParameter;        ///< V_bar_sei [m^3/mol]
  double lithium_moles_ratio = kUnsetParameter;         ///< z_sei: lithium moles per SEI mole
  double initial_thickness = kUnsetParameter;           ///< L_sei_0 [m]
  double activation_energy = kUnsetParameter;           ///< E_sei of the Arrhenius factor [J/mol]
  double transfer_coefficient = kUnsetParameter;        ///< alpha_SEI of the "(asymmetric)" models (else 1/2)
  double solvent_diffusivity = kUnsetParameter;         ///< D_sol [m^2/s]
  double bulk_solvent_concentration = kUnsetParameter;  ///< c_sol [mol/m^3]
  double interstitial_diffusivity = kUnsetParameter;    ///< D_li [m^2/s]
  double interstitial_concentration = kUnsetParameter;  ///< c_li_0 [mol/m^3]
  double ec_diffusivity = kUnsetParameter;              ///< D_ec [m^2/s]
  double ec_concentration = kUnsetParameter;            ///< c_ec_0 [mol/m^3]
  double kinetic_rate_constant = kUnsetParameter;       ///< k_sei [m/s]
  double electron_conductivity = kUnsetParameter;       ///< kappa_inner [S/m] (not used: "electron-migration limited")
};

/// Lithium plating on the negative particles (PyBaMM's plating parameters,
/// O'Kane et al. 2020/2022; used only by a "lithium plating" model). The
/// exchange-current densities are O'Kane's: j0_plating = F k c_e,
/// j0_stripping = F k c_Li; the dead lithium's decay rate is
/// gamma_0 L_sei_0 / L_sei (OKane2022's SEI-limited form).
struct PlatingParameters {
  double lithium_metal_partial_molar_volume = kUnsetParameter;  ///< V_bar_Li [m^3/mol]
  double kinetic_rate_constant = kUnsetParameter;               ///< k_plating [m/s]
  double initial_plated_concentration = kUnsetParameter;        ///< c_plated_Li_0 [mol/m^3]
  double typical_plated_concentration = kUnsetParameter;        ///< c_Li_typ [mol/m^3] (PyBaMM's scale)
  double transfer_coefficient = kUnsetParameter;                ///< alpha_plating (stripping: 1 - alpha)
  double dead_lithium_decay_constant = kUnsetParameter;         ///< gamma_0 [1/s]
};

/// Particle mechanics ("swelling only") and loss of active material of one
/// electrode (PyBaMM's "<Side> electrode Poisson's ratio", ...; Ai et al.
/// 2020, Reniers et al. 2019; used only by a "loss of active material"
/// model). The surface's tangential stress is
/// sigma_t = Omega E (c_rav - c_surf) / (3 (1 - nu)), the stress-driven loss
/// d eps_s/dt = -beta (max(2 sigma_t / 3, 0) / sigma_c)^m, the reaction-driven
/// d eps_s/dt = beta_sei a j_sei / F.
struct ActiveMaterialLossParameters {
  double poisson_ratio = kUnsetParameter;            ///< nu
  double youngs_modulus = kUnsetParameter;           ///< E [Pa]
  double partial_molar_volume = kUnsetParameter;     ///< Omega [m^3/mol]
  double reference_concentration = kUnsetParameter;  ///< c_0, free of deformation [mol/m^3]
  double proportional_term = kUnsetParameter;        ///< beta_LAM [1/s]
  double exponential_term = kUnsetParameter;         ///< m_LAM
  double critical_stress = kUnsetParameter;          ///< sigma_c [Pa]
  double reaction_factor = kUnsetParameter;          ///< beta_LAM_sei [m^3/mol]
};

/// The CustomFunction handles of a ParameterSet.
enum class FunctionSlot : int {
  negative_ocp,
  negative_entropic,
  positive_ocp,
  positive_entropic,
  electrolyte_conductivity,
  electrolyte_diffusivity,
};
inline constexpr int kFunctionSlots = 6;

/// The data of a ParameterSet's custom functions: never changed once made,
/// shared by copies of the set (a new function makes a new store).
struct FunctionStore {
  std::vector<double> data;                             ///< every slot's table or program, one after the other
  std::array<std::string, kFunctionSlots> description;  ///< by FunctionSlot, for function_table()
};

struct FunctionDefinition;

/// Every parameter of one cell. Copy it, override fields, then call
/// validate(). The factory functions in parameter_sets.hpp return validated
/// sets. Copies share the custom functions' data (its handles stay valid in
/// every copy); only the groups below, not the set itself, are trivially
/// copyable for kernels.
struct ParameterSet {
  CellGeometry cell;
  CurrentCollectorParameters negative_current_collector;
  ElectrodeParameters negative_electrode;
  SeparatorParameters separator;
  ElectrodeParameters positive_electrode;
  CurrentCollectorParameters positive_current_collector;
  ElectrolyteParameters electrolyte;
  ThermalParameters thermal;
  ElectricalParameters electrical;
  SeiParameters sei;
  PlatingParameters plating;
  ActiveMaterialLossParameters negative_lam;  ///< "Negative electrode Poisson's ratio", ...
  ActiveMaterialLossParameters positive_lam;

  /// Checks every value: finite, inside its allowed range (parameter_table()),
  /// porosity + active material fraction <= 1, initial stoichiometries in
  /// (0, 1), lower cut-off < upper cut-off, OCV at 0% SOC < OCV at 100% SOC,
  /// material function selectors valid, and a selected custom function set
  /// (finite if a constant, its data held by this set if a table or expression).
  /// @throws InvalidArgument naming the parameter as PyBaMM does, its value and
  ///         the allowed range
  void validate() const;

  /// Electrode (current collector) area carrying the cell current, as PyBaMM's
  /// A_cc: height x width x electrodes in parallel [m^2]. The applied current
  /// density is I / electrode_area().
  double electrode_area() const { return cell.electrode_height * cell.electrode_width * cell.electrodes_in_parallel; }

  /// Stores `f` as the function of `slot` and selects it (the slot's enum
  /// becomes `custom`). Copy on write: copies made before keep their data.
  void set_custom_function(FunctionSlot slot, const FunctionDefinition& f);
  /// The handle of `slot` (whatever its selector says).
  const CustomFunction& custom_function(FunctionSlot slot) const;
  /// "expression: ...", "table (N points)", "constant: ..." or "none".
  std::string custom_function_description(FunctionSlot slot) const;
  /// The doubles the handles point into (empty without tables or expressions).
  const std::vector<double>& custom_function_data() const;
  /// Whether the handle of `slot` can be evaluated: a constant, or a table or
  /// expression whose data lie in this set's store (not one copied in from
  /// another set, whose data this set does not keep alive).
  bool holds_custom_function(FunctionSlot slot) const;

 private:
  CustomFunction& handle(FunctionSlot slot);
  std::shared_ptr<const FunctionStore> functions_;
};

static_assert(std::is_trivially_copyable_v<ElectrodeParameters>, "kernels take parameters by value");
static_assert(std::is_trivially_copyable_v<ElectrolyteParameters>, "kernels take parameters by value");

}  // namespace voltaic
