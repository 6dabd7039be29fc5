// PyBaMM's names of the degradation options and what each model needs.
#include "voltaic/solver/degradation_options.hpp"

#include <cmath>
#include <utility>

#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic {
namespace {

const std::pair<SeiModel, const char*> kSeiNames[] = {
    {SeiModel::none, "none"},
    {SeiModel::constant, "constant"},
    {SeiModel::reaction_limited, "reaction limited"},
    {SeiModel::reaction_limited_asymmetric, "reaction limited (asymmetric)"},
    {SeiModel::solvent_diffusion_limited, "solvent-diffusion limited"},
    {SeiModel::interstitial_diffusion_limited, "interstitial-diffusion limited"},
    {SeiModel::ec_reaction_limited, "ec reaction limited"},
    {SeiModel::ec_reaction_limited_asymmetric, "ec reaction limited (asymmetric)"},
};

const std::pair<SeiFilmResistance, const char*> kFilmNames[] = {
    {SeiFilmResistance::automatic, "auto"},
    {SeiFilmResistance::none, "none"},
    {SeiFilmResistance::distributed, "distributed"},
};

const std::pair<PlatingModel, const char*> kPlatingNames[] = {
    {PlatingModel::none, "none"},
    {PlatingModel::reversible, "reversible"},
    {PlatingModel::partially_reversible, "partially reversible"},
    {PlatingModel::irreversible, "irreversible"},
};

const std::pair<LamModel, const char*> kLamNames[] = {
    {LamModel::none, "none"},
    {LamModel::stress_driven, "stress-driven"},
    {LamModel::reaction_driven, "reaction-driven"},
    {LamModel::stress_and_reaction_driven, "stress and reaction-driven"},
};

const std::pair<ParticleMechanics, const char*> kMechanicsNames[] = {
    {ParticleMechanics::automatic, "auto"},
    {ParticleMechanics::none, "none"},
    {ParticleMechanics::swelling_only, "swelling only"},
};

const std::pair<StressInducedDiffusion, const char*> kStressDiffusionNames[] = {
    {StressInducedDiffusion::automatic, "auto"},
    {StressInducedDiffusion::off, "false"},
    {StressInducedDiffusion::on, "true"},
};

template <class E, std::size_t N>
std::string name_of(const std::pair<E, const char*> (&names)[N], E e) {
  for (const auto& [value, name] : names) {
    if (value == e) return name;
  }
  return "unknown";
}

template <class E, std::size_t N>
bool parse(const std::pair<E, const char*> (&names)[N], const std::string& name, E& out) {
  for (const auto& [value, text] : names) {
    if (name == text) {
      out = value;
      return true;
    }
  }
  return false;
}

template <class E, std::size_t N>
std::vector<std::string> all_names(const std::pair<E, const char*> (&names)[N]) {
  std::vector<std::string> out;
  for (const auto& entry : names) out.emplace_back(entry.second);
  return out;
}

/// PyBaMM's names of the parameters `m` reads.
std::vector<std::string> needed(SeiModel m, bool film) {
  if (m == SeiModel::constant) {
    std::vector<std::string> n = {"SEI partial molar volume [m3.mol-1]", "Initial SEI thickness [m]"};
    if (film) n.push_back("SEI resistivity [Ohm.m]");
    return n;
  }
  std::vector<std::string> n = {"SEI partial molar volume [m3.mol-1]", "Ratio of lithium moles to SEI moles",
                                "Initial SEI thickness [m]", "SEI growth activation energy [J.mol-1]"};
  const bool asymmetric = m == SeiModel::reaction_limited_asymmetric || m == SeiModel::ec_reaction_limited_asymmetric;
  if (asymmetric) n.push_back("SEI growth transfer coefficient");
  // eta_SEI has the film's drop whatever the film option (PyBaMM's sei_growth.py).
  const bool drop = m != SeiModel::solvent_diffusion_limited && m != SeiModel::interstitial_diffusion_limited;
  if (film || drop) n.push_back("SEI resistivity [Ohm.m]");
  switch (m) {
    case SeiModel::none:
    case SeiModel::constant: return {};
    case SeiModel::reaction_limited:
    case SeiModel::reaction_limited_asymmetric:
      n.push_back("SEI reaction exchange current density [A.m-2]");
      n.push_back("SEI open-circuit potential [V]");
      break;
    case SeiModel::solvent_diffusion_limited:
      n.push_back("SEI solvent diffusivity [m2.s-1]");
      n.push_back("Bulk solvent concentration [mol.m-3]");
      break;
    case SeiModel::interstitial_diffusion_limited:
      n.push_back("SEI lithium interstitial diffusivity [m2.s-1]");
      n.push_back("Lithium interstitial reference concentration [mol.m-3]");
      break;
    case SeiModel::ec_reaction_limited:
    case SeiModel::ec_reaction_limited_asymmetric:
      n.push_back("SEI kinetic rate constant [m.s-1]");
      n.push_back("SEI open-circuit potential [V]");
      n.push_back("EC diffusivity [m2.s-1]");
      n.push_back("EC initial concentration in electrolyte [mol.m-3]");
      break;
  }
  return n;
}

std::vector<std::string> needed(PlatingModel m) {
  if (m == PlatingModel::none) return {};
  std::vector<std::string> n = {
      "Lithium plating kinetic rate constant [m.s-1]", "Initial plated lithium concentration [mol.m-3]",
      "Typical plated lithium concentration [mol.m-3]", "Lithium plating transfer coefficient",
      "Lithium metal partial molar volume [m3.mol-1]"};
  if (m == PlatingModel::partially_reversible) n.push_back("Dead lithium decay constant [s-1]");
  return n;
}

bool stress_driven(LamModel m) { return DegradationOptions::stress_lam(m); }
bool reaction_driven(LamModel m) { return m == LamModel::reaction_driven || m == LamModel::stress_and_reaction_driven; }

/// PyBaMM's names of the parameters the loss of `Side`'s active material reads.
std::vector<std::string> needed(LamModel m, const std::string& Side) {
  std::vector<std::string> n;
  const std::string e = Side + " electrode ";
  if (stress_driven(m)) {
    for (const char* what :
         {"Poisson's ratio", "Young's modulus [Pa]", "partial molar volume [m3.mol-1]",
          "LAM constant proportional term [s-1]", "LAM constant exponential term", "critical stress [Pa]"})
      n.push_back(e + what);
  }
  if (reaction_driven(m)) n.push_back(e + "reaction-driven LAM factor [m3.mol-1]");
  return n;
}

/// PyBaMM's names of the parameters `Side`'s stress-induced diffusion reads.
std::vector<std::string> needed_for_stress_diffusion(const std::string& Side) {
  std::vector<std::string> n;
  for (const char* what : {"Poisson's ratio", "Young's modulus [Pa]", "partial molar volume [m3.mol-1]",
                           "reference concentration for free of deformation [mol.m-3]"})
    n.push_back(Side + " electrode " + what);
  return n;
}

using Option = DegradationRefusal::Option;

/// `name` unset or out of its range in `p` (`model` says who needs it), refused for `option`.
std::optional<DegradationRefusal> require(const std::string& name, const ParameterSet& p, const std::string& model,
                                          Option option) {
  const ParameterInfo& info = *find_parameter(name);
  const double v = info.get(p);
  if (std::isnan(v))
    return DegradationRefusal{option, true, name, model + " needs it and the parameter set leaves it unset"};
  if (!info.allowed.contains(v))
    return DegradationRefusal{option, true, name,
                              "value " + format_parameter_value(v) + " outside " + info.allowed.to_string()};
  return std::nullopt;
}

}  // namespace

std::string to_string(SeiModel m) { return name_of(kSeiNames, m); }
std::string to_string(SeiFilmResistance m) { return name_of(kFilmNames, m); }
std::string to_string(PlatingModel m) { return name_of(kPlatingNames, m); }
std::string to_string(LamModel m) { return name_of(kLamNames, m); }
bool parse_sei_model(const std::string& name, SeiModel& out) { return parse(kSeiNames, name, out); }
bool parse_sei_film_resistance(const std::string& name, SeiFilmResistance& out) { return parse(kFilmNames, name, out); }
bool parse_plating_model(const std::string& name, PlatingModel& out) { return parse(kPlatingNames, name, out); }
bool parse_lam_model(const std::string& name, LamModel& out) { return parse(kLamNames, name, out); }
std::string to_string(ParticleMechanics m) { return name_of(kMechanicsNames, m); }
std::string to_string(StressInducedDiffusion m) { return name_of(kStressDiffusionNames, m); }
bool parse_particle_mechanics(const std::string& name, ParticleMechanics& out) {
  return parse(kMechanicsNames, name, out);
}
bool parse_stress_induced_diffusion(const std::string& name, StressInducedDiffusion& out) {
  return parse(kStressDiffusionNames, name, out);
}

const std::vector<std::string>& particle_mechanics_names() {
  static const std::vector<std::string> names = all_names(kMechanicsNames);
  return names;
}

const std::vector<std::string>& stress_induced_diffusion_names() {
  static const std::vector<std::string> names = all_names(kStressDiffusionNames);
  return names;
}

const std::vector<std::string>& sei_model_names() {
  static const std::vector<std::string> names = all_names(kSeiNames);
  return names;
}

const std::vector<std::string>& sei_film_resistance_names() {
  static const std::vector<std::string> names = all_names(kFilmNames);
  return names;
}

std::string describe(const DegradationOptions& o) {
  std::string out;
  if (o.sei != SeiModel::none) out = "SEI \"" + to_string(o.sei) + "\"";
  if (o.lithium_plating != PlatingModel::none)
    out += (out.empty() ? "" : ", ") + std::string("lithium plating \"") + to_string(o.lithium_plating) + "\"";
  const LamModel* lam = o.loss_of_active_material;
  if (o.lam()) {
    out += (out.empty() ? "" : ", ") + std::string("loss of active material (\"") + to_string(lam[0]) + "\", \"" +
           to_string(lam[1]) + "\")";
  }
  if (o.any_stress_diffusion()) {
    out += (out.empty() ? "" : ", ") + std::string("stress-induced diffusion (\"") +
           (o.stress_diffusion(0) ? "true" : "false") + "\", \"" + (o.stress_diffusion(1) ? "true" : "false") + "\")";
  }
  if (o.porosity_follows_films()) out += ", porosity change";
  return out.empty() ? "no degradation" : out;
}

const std::vector<std::string>& plating_model_names() {
  static const std::vector<std::string> names = all_names(kPlatingNames);
  return names;
}

const std::vector<std::string>& lam_model_names() {
  static const std::vector<std::string> names = all_names(kLamNames);
  return names;
}

std::optional<DegradationRefusal> degradation_refusal(const DegradationOptions& o, const ParameterSet& p) {
  if (o.sei == SeiModel::none && o.sei_film_resistance == SeiFilmResistance::distributed)
    return DegradationRefusal{Option::sei_film_resistance, false, "SEI film resistance",
                              "\"distributed\" needs a film: set \"SEI\" to one of its models"};
  for (const std::string& name : needed(o.film(), o.film_resistance()))
    if (auto r = require(name, p, "the SEI model \"" + to_string(o.film()) + "\"", Option::sei)) return r;
  for (const std::string& name : needed(o.lithium_plating))
    if (auto r = require(name, p, "the lithium plating model \"" + to_string(o.lithium_plating) + "\"",
                         Option::lithium_plating))
      return r;
  const LamModel* lam = o.loss_of_active_material;
  if (reaction_driven(lam[1]))
    return DegradationRefusal{Option::loss_of_active_material, false, "loss of active material",
                              "\"" + to_string(lam[1]) +
                                  "\" on the positive electrode needs an SEI there (voltaic grows "
                                  "the film on the negative particles only)"};
  if (reaction_driven(lam[0]) && (o.sei == SeiModel::none || o.sei == SeiModel::constant))
    return DegradationRefusal{
        Option::loss_of_active_material, false, "loss of active material",
        "\"" + to_string(lam[0]) + "\" follows the SEI's current: set \"SEI\" to a growing model"};
  for (int e = 0; e < 2; ++e) {
    const std::string Side = e == 0 ? "Negative" : "Positive";
    if (stress_driven(lam[e]) && !o.mechanics(e))
      return DegradationRefusal{Option::particle_mechanics, false, "particle mechanics",
                                "the " + Side + " electrode's loss of active material \"" + to_string(lam[e]) +
                                    "\" reads its particles' stresses, which \"none\" turns off: set \"swelling "
                                    "only\" or \"auto\""};
    if (o.stress_diffusion(e) && !o.mechanics(0) && !o.mechanics(1))
      return DegradationRefusal{Option::stress_induced_diffusion, false, "stress-induced diffusion",
                                "needs a particle mechanics model and neither electrode has one (PyBaMM refuses it "
                                "too): set \"particle mechanics\" to \"swelling only\""};
    for (const std::string& name : needed(lam[e], Side))
      if (auto r =
              require(name, p, "the loss of active material \"" + to_string(lam[e]) + "\" (" + Side + " electrode)",
                      Option::loss_of_active_material))
        return r;
    if (o.stress_diffusion(e)) {
      for (const std::string& name : needed_for_stress_diffusion(Side))
        if (auto r = require(name, p, "the stress-induced diffusion (" + Side + " electrode)",
                             Option::stress_induced_diffusion))
          return r;
    }
  }
  return std::nullopt;
}

void check_degradation(const DegradationOptions& o, const ParameterSet& p) {
  if (const auto r = degradation_refusal(o, p))
    throw InvalidArgument(r->what_failed, "voltaic::check_degradation", r->why);
}

}  // namespace voltaic
