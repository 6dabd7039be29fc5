#pragma once
/// @file degradation_options.hpp
/// @brief Which ageing submodels a cell runs, with PyBaMM's option names
/// ("SEI", "SEI film resistance"). Their parameters are ParameterSet::sei;
/// the equations are in docs/theory.md ("SEI growth") and sei_point.hpp.
/// Only a 1D cell runs them (the cell engine); a 3D cell refuses them by name.

#include <string>
#include <vector>

namespace voltaic {

/// PyBaMM's "SEI" option on the negative electrode: how fast the film grows.
enum class SeiModel : int {
  none,                            ///< no film grows
  reaction_limited,                ///< j = -j0 exp(-F eta_SEI / 2RT)
  reaction_limited_asymmetric,     ///< the same with alpha = "SEI growth transfer coefficient"
  solvent_diffusion_limited,       ///< j = -D_sol c_sol F / L_sei
  interstitial_diffusion_limited,  ///< j = -(D_li c_li0 F / L_sei) exp(-F (phi_s - phi_e) / RT)
  ec_reaction_limited,             ///< j = -F c_ec0 k / (1 + L_sei k / D_ec), k = k_sei exp(-F eta_SEI / 2RT)
  ec_reaction_limited_asymmetric,  ///< the same with alpha = "SEI growth transfer coefficient"
};

/// PyBaMM's "SEI film resistance": the film's ohmic drop j_tot L_sei R_sei
/// in the intercalation overpotential.
enum class SeiFilmResistance : int {
  automatic,    ///< PyBaMM's default: distributed with a growing film, none without
  none,         ///< no drop
  distributed,  ///< the local drop, with each node's own film and total current
};

struct DegradationOptions {
  SeiModel sei = SeiModel::none;
  SeiFilmResistance sei_film_resistance = SeiFilmResistance::automatic;

  /// Whether any degradation submodel is on.
  bool any() const { return sei != SeiModel::none; }
  /// Whether the film's drop applies (automatic resolved as PyBaMM does).
  /// A film resistance without a growing film is refused (check_degradation).
  bool film_resistance() const { return sei != SeiModel::none && sei_film_resistance != SeiFilmResistance::none; }
};

/// PyBaMM's names ("reaction limited", "ec reaction limited (asymmetric)", ...).
std::string to_string(SeiModel m);
std::string to_string(SeiFilmResistance m);
/// The model of a PyBaMM name; false when there is none.
bool parse_sei_model(const std::string& name, SeiModel& out);
bool parse_sei_film_resistance(const std::string& name, SeiFilmResistance& out);
/// Every name parse_sei_model() reads, and parse_sei_film_resistance()'s, for messages.
const std::vector<std::string>& sei_model_names();
const std::vector<std::string>& sei_film_resistance_names();

struct ParameterSet;
/// Refuses what the options cannot run with: a film resistance without a
/// growing film, and a parameter the SEI model needs left unset in `p`.
/// @throws InvalidArgument naming the option or PyBaMM's parameter name
void check_degradation(const DegradationOptions& o, const ParameterSet& p);

}  // namespace voltaic
