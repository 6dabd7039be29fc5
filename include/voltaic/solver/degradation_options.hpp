#pragma once
/// @file degradation_options.hpp
/// @brief Which ageing submodels a cell runs, with PyBaMM's option names
/// ("SEI", "SEI film resistance", "lithium plating"). Their parameters are
/// ParameterSet::sei and ParameterSet::plating; the equations are in
/// docs/theory.md ("SEI growth", "Lithium plating"), sei_point.hpp and
/// plating_point.hpp.
/// Only a 1D cell runs them (the cell engine); a 3D cell refuses them by name.

#include <optional>
#include <string>
#include <vector>

namespace voltaic {

/// PyBaMM's "SEI" option on the negative electrode: how fast the film grows.
enum class SeiModel : int {
  none,                            ///< no film (unless "partially reversible" plating implies "constant")
  constant,                        ///< a film of its initial thickness that does not grow
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

/// PyBaMM's "lithium plating" on the negative particles (O'Kane et al.):
/// j = j0_s exp(F (1 - alpha) eta / RT) - j0_p exp(-F alpha eta / RT),
/// eta = phi_s - phi_e - j_tot L_sei R_sei.
enum class PlatingModel : int {
  none,
  reversible,            ///< plated lithium strips back; none turns dead
  partially_reversible,  ///< plated lithium decays into dead lithium at gamma_0 L_sei_0 / L_sei
  irreversible,          ///< no stripping: every plated atom is dead
};

/// PyBaMM's "loss of active material" of one electrode (Reniers et al. 2019,
/// Ai et al. 2020): what shrinks its active material volume fraction eps_s,
/// and with it the surface a = 3 eps_s / R and the electrode's capacity.
/// Stress-driven implies PyBaMM's "particle mechanics": "swelling only".
enum class LamModel : int {
  none,
  stress_driven,               ///< d eps_s/dt = -beta (max(sigma_h, 0) / sigma_c)^m
  reaction_driven,             ///< d eps_s/dt = beta_sei a j_sei / F (the SEI's current; negative only)
  stress_and_reaction_driven,  ///< both
};

/// PyBaMM's "particle mechanics" of one electrode: its particles' swelling
/// stresses (Ai et al. 2020), which the stress-driven loss of active material
/// and the stress-induced diffusion read.
enum class ParticleMechanics : int {
  automatic,      ///< PyBaMM's default: "swelling only" when either electrode's loss is stress-driven
  none,           ///< no stresses
  swelling_only,  ///< "swelling only"
};

/// PyBaMM's "stress-induced diffusion" of one electrode (Ai et al. 2020, eq.
/// 12): the particle diffusivity times 1 + theta_M (c - c_0) with
/// theta_M = Omega / (R T) 2 Omega E / (9 (1 - nu)).
enum class StressInducedDiffusion : int {
  automatic,  ///< PyBaMM's default: on where either electrode has particle mechanics
  off,        ///< "false"
  on,         ///< "true"
};

struct DegradationOptions {
  SeiModel sei = SeiModel::none;
  SeiFilmResistance sei_film_resistance = SeiFilmResistance::automatic;
  PlatingModel lithium_plating = PlatingModel::none;
  LamModel loss_of_active_material[2] = {LamModel::none, LamModel::none};  ///< negative, positive
  ParticleMechanics particle_mechanics[2] = {ParticleMechanics::automatic, ParticleMechanics::automatic};
  StressInducedDiffusion stress_induced_diffusion[2] = {StressInducedDiffusion::automatic,
                                                        StressInducedDiffusion::automatic};
  /// PyBaMM's "SEI porosity change" and "lithium plating porosity change":
  /// either turns on the one model that counts every film (porosity_change()).
  bool sei_porosity_change = false, lithium_plating_porosity_change = false;

  /// Whether either porosity-change option is asked for.
  bool porosity_change() const { return sei_porosity_change || lithium_plating_porosity_change; }
  /// Whether the negative electrode's porosity follows its films: asked for,
  /// and a film (SEI, the implied constant one, or plating) to follow.
  bool porosity_follows_films() const {
    return porosity_change() && (film() != SeiModel::none || lithium_plating != PlatingModel::none);
  }

  /// Whether any degradation submodel is on.
  bool any() const {
    return sei != SeiModel::none || lithium_plating != PlatingModel::none || lam() || any_stress_diffusion();
  }
  /// Whether either electrode loses active material.
  bool lam() const {
    return loss_of_active_material[0] != LamModel::none || loss_of_active_material[1] != LamModel::none;
  }
  /// Whether electrode e (0 negative, 1 positive) has particle mechanics,
  /// "automatic" resolved as PyBaMM does.
  bool mechanics(int e) const {
    if (particle_mechanics[e] != ParticleMechanics::automatic)
      return particle_mechanics[e] == ParticleMechanics::swelling_only;
    return stress_lam(loss_of_active_material[0]) || stress_lam(loss_of_active_material[1]);
  }
  /// Whether electrode e's particles diffuse with the stress factor, "automatic"
  /// resolved as PyBaMM does (on when either electrode has mechanics).
  bool stress_diffusion(int e) const {
    if (stress_induced_diffusion[e] != StressInducedDiffusion::automatic)
      return stress_induced_diffusion[e] == StressInducedDiffusion::on;
    return mechanics(0) || mechanics(1);
  }
  /// Whether either electrode's particles do.
  bool any_stress_diffusion() const { return stress_diffusion(0) || stress_diffusion(1); }
  static bool stress_lam(LamModel m) {
    return m == LamModel::stress_driven || m == LamModel::stress_and_reaction_driven;
  }
  /// The SEI model that runs: "partially reversible" plating without one
  /// implies "constant" (as PyBaMM: its dead lithium's decay needs a thickness).
  SeiModel film() const {
    return sei == SeiModel::none && lithium_plating == PlatingModel::partially_reversible ? SeiModel::constant : sei;
  }
  /// Whether the film's drop applies (automatic resolved as PyBaMM does: on
  /// when "SEI" was set, so not for the film "partially reversible" implies).
  /// A film resistance without a film is refused (check_degradation).
  bool film_resistance() const { return sei != SeiModel::none && sei_film_resistance != SeiFilmResistance::none; }
};

/// PyBaMM's names ("reaction limited", "ec reaction limited (asymmetric)", ...).
std::string to_string(SeiModel m);
std::string to_string(SeiFilmResistance m);
std::string to_string(PlatingModel m);
std::string to_string(LamModel m);
std::string to_string(ParticleMechanics m);
std::string to_string(StressInducedDiffusion m);
/// The model of a PyBaMM name; false when there is none.
bool parse_sei_model(const std::string& name, SeiModel& out);
bool parse_sei_film_resistance(const std::string& name, SeiFilmResistance& out);
bool parse_plating_model(const std::string& name, PlatingModel& out);
bool parse_lam_model(const std::string& name, LamModel& out);
bool parse_particle_mechanics(const std::string& name, ParticleMechanics& out);
bool parse_stress_induced_diffusion(const std::string& name, StressInducedDiffusion& out);
/// The models that are on, as `SEI "reaction limited", lithium plating "reversible"`.
std::string describe(const DegradationOptions& o);
/// Every name each parse_*() reads, for messages.
const std::vector<std::string>& sei_model_names();
const std::vector<std::string>& sei_film_resistance_names();
const std::vector<std::string>& plating_model_names();
const std::vector<std::string>& lam_model_names();
const std::vector<std::string>& particle_mechanics_names();
const std::vector<std::string>& stress_induced_diffusion_names();

struct ParameterSet;

/// Why check_degradation() refuses, and which option asks: a config names
/// that option's key without reading the message.
struct DegradationRefusal {
  enum class Option {
    sei,
    sei_film_resistance,
    lithium_plating,
    loss_of_active_material,
    particle_mechanics,
    stress_induced_diffusion,
  };
  Option option;
  /// A parameter the option's model needs is unset or out of range
  /// (what_failed: its name); else the option itself is refused
  /// (what_failed: the option's PyBaMM name).
  bool parameter;
  std::string what_failed, why;
};

/// What check_degradation() would refuse, if anything.
std::optional<DegradationRefusal> degradation_refusal(const DegradationOptions& o, const ParameterSet& p);

/// Refuses what the options cannot run with: a film resistance without a
/// film, a reaction-driven loss without a growing film or on the positive
/// electrode, and a parameter a model needs left unset in `p`.
/// @throws InvalidArgument naming the option or PyBaMM's parameter name
void check_degradation(const DegradationOptions& o, const ParameterSet& p);

}  // namespace voltaic
