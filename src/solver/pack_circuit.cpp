// The Np x Ns pack's circuit, group by group (pack_circuit.hpp), the
// layout's cell count and names, and the pack's rating.
#include "solver/pack_circuit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/pack_netlist.hpp"

namespace voltaic {

std::size_t PackLayout::cells() const {
  if (netlist.empty()) return static_cast<std::size_t>(parallel) * static_cast<std::size_t>(series);
  return static_cast<std::size_t>(std::count_if(netlist.begin(), netlist.end(), [](const NetlistElement& e) {
    return pack::element_kind(e) == pack::ElementKind::cell;
  }));
}

std::string PackLayout::cell_name(std::size_t k) const {
  if (!netlist.empty()) {
    std::size_t seen = 0;
    for (const NetlistElement& e : netlist) {
      if (pack::element_kind(e) != pack::ElementKind::cell) continue;
      if (seen++ == k) return "cell " + std::to_string(k) + " (" + e.name + ")";
    }
    return "cell " + std::to_string(k);
  }
  const auto m = static_cast<std::size_t>(std::max(parallel, 1));
  return "cell " + std::to_string(k) + " (series " + std::to_string(k / m) + ", parallel " + std::to_string(k % m) +
         ")";
}

namespace pack {
namespace {

/// Ns groups of Np cells: each group's cells share its voltage through their
/// connection resistances, the groups' voltages add up, less the busbars'.
class GridCircuit final : public Circuit {
 public:
  explicit GridCircuit(const PackLayout& l)
      : m_(static_cast<std::size_t>(l.parallel)),
        groups_(static_cast<std::size_t>(l.series)),
        busbar_(l.busbar_resistance),
        admittance_(groups_),
        voltage_(groups_) {
    for (std::size_t k = 0; k < l.cells(); ++k)
      r_.push_back(l.connection_resistances.empty() ? l.connection_resistance : l.connection_resistances[k]);
  }

  void share(double, double J, const double* dv, double* amps) override {
    for (std::size_t g = 0; g < groups_; ++g) {  // each group's change shared as its cells' admittances share it
      double sum = 0.0, admittance = 0.0;
      for (std::size_t p = 0; p < m_; ++p) {
        sum += amps[g * m_ + p];
        admittance += 1.0 / (dv[g * m_ + p] - r_[g * m_ + p]);
      }
      for (std::size_t p = 0; p < m_; ++p)
        amps[g * m_ + p] += (J - sum) * (1.0 / (dv[g * m_ + p] - r_[g * m_ + p])) / admittance;
    }
  }

  CircuitStep update(const double* v, const double* i, const double* dv, double J, double rtol, double atol,
                     double* next) override {
    CircuitStep s{-busbar_ * J, -busbar_, 0.0, 0.0};
    for (std::size_t g = 0; g < groups_; ++g) {
      const GroupStep u = update_group(v + g * m_, i + g * m_, dv + g * m_, &r_[g * m_], m_, J, next + g * m_);
      s.mismatch = std::max(s.mismatch, u.mismatch);
      s.voltage += u.voltage;
      s.slope -= 1.0 / u.admittance;
      admittance_[g] = u.admittance;
      voltage_[g] = u.voltage;
      s.tolerance = std::max(s.tolerance, rtol * std::fabs(u.voltage) + atol);
    }
    dv_.assign(dv, dv + r_.size());
    return s;
  }

  void shift(double dJ, double* amps) override {
    for (std::size_t k = 0; k < r_.size(); ++k) amps[k] += dJ * (-1.0 / (dv_[k] - r_[k])) / admittance_[k / m_];
  }

  std::vector<std::string> node_names() const override {
    std::vector<std::string> names;
    for (std::size_t g = 0; g < groups_; ++g) names.push_back("group " + std::to_string(g));
    return names;
  }
  void node_voltages(std::vector<double>& out) const override {
    out.insert(out.end(), voltage_.begin(), voltage_.end());
  }

 private:
  std::size_t m_, groups_;
  double busbar_;
  std::vector<double> r_, dv_;
  std::vector<double> admittance_, voltage_;  ///< per group at the last update
};

}  // namespace

std::unique_ptr<Circuit> make_circuit(const PackLayout& layout) {
  if (!layout.netlist.empty()) return std::make_unique<NetlistCircuit>(layout.netlist);
  return std::make_unique<GridCircuit>(layout);
}

PackRating rating(const PackLayout& layout, const std::vector<double>& q) {
  if (!layout.netlist.empty()) return netlist_rating(layout.netlist, q);
  const auto m = static_cast<std::size_t>(layout.parallel);
  double capacity = std::numeric_limits<double>::infinity();
  for (std::size_t g = 0; g < static_cast<std::size_t>(layout.series); ++g) {
    double sum = 0.0;
    for (std::size_t p = 0; p < m; ++p) sum += q[g * m + p];
    capacity = std::min(capacity, sum);
  }
  return {capacity, static_cast<double>(layout.series)};
}

}  // namespace pack
}  // namespace voltaic
