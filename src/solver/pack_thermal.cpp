#include "solver/pack_thermal.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "voltaic/core/error.hpp"

namespace voltaic::pack {
namespace {

constexpr const char* kWhere = "PackSimulation";

[[noreturn]] void refuse(const std::string& what, const std::string& why) { throw InvalidArgument(what, kWhere, why); }

void check_conductance(const std::string& what, double g) {
  if (!(g >= 0.0) || !std::isfinite(g)) {
    std::ostringstream m;
    m << "is " << g << " W/K; allowed: a finite number >= 0";
    refuse(what, m.str());
  }
}

/// The grid's neighbours: p, p + 1 in a group, and the same p in groups s, s + 1.
void add_grid(std::vector<std::vector<std::pair<std::size_t, double>>>& links, const PackLayout& l, double g) {
  const auto m = static_cast<std::size_t>(l.parallel);
  for (std::size_t k = 0; k < links.size(); ++k) {
    if ((k + 1) % m != 0) {
      links[k].push_back({k + 1, g});
      links[k + 1].push_back({k, g});
    }
    if (k + m < links.size()) {
      links[k].push_back({k + m, g});
      links[k + m].push_back({k, g});
    }
  }
}

/// Sets the link a-b (both directions) to g, adding it where the grid has none.
void set_link(std::vector<std::vector<std::pair<std::size_t, double>>>& links, std::size_t a, std::size_t b, double g) {
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    bool found = false;
    for (auto& [j, c] : links[from]) {
      if (j == to) {
        c = g;
        found = true;
      }
    }
    if (!found) links[from].push_back({to, g});
  }
}

}  // namespace

ThermalNetwork::ThermalNetwork(const PackThermal& t, const PackLayout& l, bool lumped) : kind_(t.coolant) {
  const std::size_t n = l.cells();
  check_conductance("thermal.neighbour_conductance", t.neighbour_conductance);
  check_conductance("thermal.coolant_conductance", t.coolant_conductance);
  links_.assign(n, {});
  if (t.neighbour_conductance > 0.0 && !l.netlist.empty())
    refuse("thermal.neighbour_conductance",
           "links the neighbours of an Np x Ns grid, which a netlist pack has not; allowed: 0, and links between "
           "the cells that touch");
  if (t.neighbour_conductance > 0.0) add_grid(links_, l, t.neighbour_conductance);
  for (std::size_t i = 0; i < t.links.size(); ++i) {
    const PackLink& k = t.links[i];
    const std::string what = "thermal.links[" + std::to_string(i) + "]";
    if (k.a >= n || k.b >= n || k.a == k.b) {
      refuse(what, "joins cells " + std::to_string(k.a) + " and " + std::to_string(k.b) +
                       "; allowed: two different cells in [0, " + std::to_string(n) + ")");
    }
    for (std::size_t j = 0; j < i; ++j) {
      const PackLink& o = t.links[j];
      if ((o.a == k.a && o.b == k.b) || (o.a == k.b && o.b == k.a))
        refuse(what, "joins cells " + std::to_string(k.a) + " and " + std::to_string(k.b) + " again (thermal.links[" +
                         std::to_string(j) + "]); allowed: each pair once");
    }
    check_conductance(what + ".conductance", k.conductance);
    set_link(links_, k.a, k.b, k.conductance);
  }
  if (!t.coolant_conductances.empty() && t.coolant_conductances.size() != n)
    refuse("thermal.coolant_conductances", "has " + std::to_string(t.coolant_conductances.size()) +
                                               " values; allowed: one per cell, " + std::to_string(n));
  coolant_ = t.coolant_conductances.empty() ? std::vector<double>(n, t.coolant_conductance) : t.coolant_conductances;
  for (std::size_t k = 0; k < t.coolant_conductances.size(); ++k)
    check_conductance("thermal.coolant_conductances[" + std::to_string(k) + "]", t.coolant_conductances[k]);
  if (kind_ == PackThermal::Coolant::none) coolant_.assign(n, 0.0);
  if (kind_ != PackThermal::Coolant::none && !(t.coolant_temperature > 0.0 && std::isfinite(t.coolant_temperature))) {
    std::ostringstream m;
    m << "is " << t.coolant_temperature << " K; allowed: a finite temperature > 0";
    refuse("thermal.coolant_temperature", m.str());
  }
  if (kind_ == PackThermal::Coolant::flow &&
      !(t.coolant_capacity_rate > 0.0 && std::isfinite(t.coolant_capacity_rate))) {
    std::ostringstream m;
    m << "is " << t.coolant_capacity_rate << " W/K; allowed: a finite number > 0 (mass flow x specific heat)";
    refuse("thermal.coolant_capacity_rate", m.str());
  }
  inlet_ = t.coolant_temperature;
  rate_ = t.coolant_capacity_rate;
  for (std::size_t k = 0; k < n; ++k) {
    active_ = active_ || coolant_[k] > 0.0;
    for (const auto& link : links_[k]) active_ = active_ || link.second > 0.0;
  }
  if (active_ && !lumped)
    refuse("thermal",
           "links or cools the cells, but they are isothermal; allowed: lumped cells (thermal.model = "
           "\"lumped\"), or no network");
}

double ThermalNetwork::surroundings(const double* T, const double* hA, const double* ambient, double* conductance,
                                    double* temperature) const {
  double coolant = kind_ == PackThermal::Coolant::none ? std::numeric_limits<double>::quiet_NaN() : inlet_;
  for (std::size_t k = 0; k < links_.size(); ++k) {
    double g = hA[k], q = hA[k] * ambient[k];
    for (const auto& [j, c] : links_[k]) {
      g += c;
      q += c * T[j];
    }
    if (coolant_[k] > 0.0) {
      // A flow leaves the cell at T_k + (Tc - T_k) exp(-Gc / rate) (an
      // exchanger along the cell): to the cell, a conductance rate (1 -
      // exp(-Gc / rate)) to the arriving coolant, which takes what it gives.
      const double c = kind_ == PackThermal::Coolant::flow ? rate_ * -std::expm1(-coolant_[k] / rate_) : coolant_[k];
      g += c;
      q += c * coolant;
      if (kind_ == PackThermal::Coolant::flow) coolant += c * (T[k] - coolant) / rate_;
    }
    conductance[k] = g;
    temperature[k] = g > 0.0 ? q / g : ambient[k];
  }
  return coolant;
}

}  // namespace voltaic::pack
