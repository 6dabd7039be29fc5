#pragma once
/// @file parameter_set.hpp
/// @brief ParameterSet: every quantity of the DFN model with its lumped
/// thermal model, in SI units, as plain trivially copyable structs that a
/// CUDA kernel takes by value.
///
/// Each field's comment gives its PyBaMM name (parameter_table.hpp lists the
/// names, units, descriptions and allowed ranges). Material functions are
/// chosen by the small enums below and evaluated by material_functions.hpp;
/// their constants (activation energies, rate constants, reference values)
/// are fields here, so overriding a value overrides it everywhere.

#include <limits>
#include <type_traits>

namespace voltaic {

/// Value of a field nobody has set: validate() rejects it by name.
inline constexpr double kUnsetParameter = std::numeric_limits<double>::quiet_NaN();

/// Open-circuit potential fits U(stoichiometry) [V].
enum class OcpModel : int {
  chen2020_graphite_siox,          ///< LG M50 graphite-SiOx (Chen et al. 2020)
  chen2020_nmc811,                 ///< LG M50 NMC811 (Chen et al. 2020)
  dualfoil1998_graphite_mcmb2528,  ///< MCMB 2528 graphite (Dualfoil; Marquis et al. 2019)
  dualfoil1998_lico2,              ///< LiCoO2 (Dualfoil; Marquis et al. 2019)
};

/// Entropic coefficient fits dU/dT(stoichiometry) [V/K].
enum class EntropicModel : int {
  none,                ///< dU/dT = 0
  moura2016_graphite,  ///< graphite (Moura's fastDFN; Marquis et al. 2019)
  moura2016_lico2,     ///< LiCoO2 (Moura's fastDFN; Marquis et al. 2019)
};

/// Electrolyte fits: each gives a conductivity and a diffusivity as functions
/// of concentration, times an Arrhenius factor whose activation energy is a
/// field of ElectrolyteParameters (0 when the fit has no temperature dependence).
enum class ElectrolyteModel : int {
  nyman2008,     ///< LiPF6 in EC:EMC 3:7 (Nyman et al. 2008; Chen et al. 2020)
  capiglia1999,  ///< LiPF6 in EC:DMC (Capiglia et al. 1999, Dualfoil fit; Marquis et al. 2019)
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
};

/// Temperatures and the lumped (0D) model's cooling: q = h A (T - T_amb) over the cell volume.
struct ThermalParameters {
  double reference_temperature = kUnsetParameter;      ///< T_ref of U(sto, T) = U_ref + (T - T_ref) dU/dT [K]
  double initial_temperature = kUnsetParameter;        ///< [K]
  double ambient_temperature = kUnsetParameter;        ///< [K]
  double heat_transfer_coefficient = kUnsetParameter;  ///< h [W/(m^2 K)]
  double cooling_surface_area = kUnsetParameter;       ///< A [m^2]
  double cell_volume = kUnsetParameter;                ///< [m^3]
};

/// Ratings, limits and the default drive.
struct ElectricalParameters {
  double nominal_capacity = kUnsetParameter;      ///< defines 1C [A h]
  double current_function = kUnsetParameter;      ///< default applied current, > 0 discharges [A]
  double lower_voltage_cutoff = kUnsetParameter;  ///< [V]
  double upper_voltage_cutoff = kUnsetParameter;  ///< [V]
  double ocv_at_0_soc = kUnsetParameter;          ///< open-circuit voltage defining 0% SOC [V]
  double ocv_at_100_soc = kUnsetParameter;        ///< open-circuit voltage defining 100% SOC [V]
  double contact_resistance = kUnsetParameter;    ///< [Ohm]
};

/// Every parameter of one cell. Plain data: copy it, override fields, then
/// call validate(). The factory functions in parameter_sets.hpp return
/// validated sets.
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

  /// Checks every value: finite, inside its allowed range (parameter_table()),
  /// porosity + active material fraction <= 1, initial stoichiometries in
  /// (0, 1), lower cut-off < upper cut-off, OCV at 0% SOC < OCV at 100% SOC,
  /// material function selectors valid.
  /// @throws InvalidArgument naming the parameter as PyBaMM does, its value and
  ///         the allowed range
  void validate() const;

  /// Electrode (current collector) area carrying the cell current, as PyBaMM's
  /// A_cc: height x width x electrodes in parallel [m^2]. The applied current
  /// density is I / electrode_area().
  double electrode_area() const { return cell.electrode_height * cell.electrode_width * cell.electrodes_in_parallel; }
};

static_assert(std::is_trivially_copyable_v<ParameterSet>, "kernels take parameters by value");
static_assert(std::is_standard_layout_v<ParameterSet>, "kernels take parameters by value");

}  // namespace voltaic
