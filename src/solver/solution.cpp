#include "voltaic/solver/solution.hpp"

#include <algorithm>

#include "voltaic/core/error.hpp"
#include "voltaic/model/constants.hpp"

namespace voltaic {

double CycleSummary::sei_capacity_lost() const { return sei_lithium_lost * kFaraday / 3600.0; }
double CycleSummary::plating_capacity_lost() const { return plating_lithium_lost * kFaraday / 3600.0; }

const std::vector<std::string>& CycleSummary::names() {
  static const std::vector<std::string> n = {
      "Cycle number",
      "Time [s]",
      "Discharge capacity [A.h]",
      "Charge capacity [A.h]",
      "Discharge energy [W.h]",
      "Total lithium in particles [mol]",
      "Loss of lithium to negative SEI [mol]",
      "Loss of capacity to negative SEI [A.h]",
      "X-averaged negative SEI thickness [m]",
      "Loss of lithium to negative lithium plating [mol]",
      "Loss of capacity to negative lithium plating [A.h]",
      "X-averaged negative lithium plating concentration [mol.m-3]",
      "X-averaged negative dead lithium concentration [mol.m-3]",
      "Capacity [A.h]",
      "Loss of lithium inventory [%]",
      "Minimum voltage [V]",
      "Loss of active material in negative electrode [%]",
      "Loss of active material in positive electrode [%]",
      "Loss of lithium due to loss of active material in negative electrode [mol]",
      "Loss of lithium due to loss of active material in positive electrode [mol]",
      "Negative electrode capacity [A.h]",
      "Positive electrode capacity [A.h]",
      "X-averaged negative electrode porosity"};
  return n;
}

std::vector<double> CycleSummary::values() const {
  return {static_cast<double>(cycle),
          time,
          discharge_capacity,
          charge_capacity,
          discharge_energy,
          particle_lithium,
          sei_lithium_lost,
          sei_capacity_lost(),
          sei_thickness,
          plating_lithium_lost,
          plating_capacity_lost(),
          plated_concentration,
          dead_concentration,
          capacity,
          lithium_inventory_lost_percent,
          min_voltage,
          lam_percent[0],
          lam_percent[1],
          lam_lithium_lost[0],
          lam_lithium_lost[1],
          electrode_capacity[0],
          electrode_capacity[1],
          negative_porosity};
}

const std::vector<std::string>& Solution::variable_names() {
  static const std::vector<std::string> names{"Time [s]",
                                              "Voltage [V]",
                                              "Current [A]",
                                              "Discharge capacity [A.h]",
                                              "Discharge energy [W.h]",
                                              "Volume-averaged cell temperature [K]",
                                              "Minimum cell temperature [K]",
                                              "Maximum cell temperature [K]",
                                              "Total heating [W]",
                                              "Step"};
  return names;
}

const std::vector<double>& Solution::operator[](const std::string& name) const {
  const auto& names = variable_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "\"" : ", \"") + n + "\"";
    throw InvalidArgument("variable \"" + name + "\"", "Solution", "is not a time-series variable; known: " + known);
  }
  return columns_[static_cast<std::size_t>(it - names.begin())];
}

void Solution::append(const std::vector<double>& row) {
  if (row.size() != columns_.size()) throw SizeMismatch("row", "Solution::append", "needs one value per variable");
  for (std::size_t i = 0; i < row.size(); ++i) columns_[i].push_back(row[i]);
}

void Solution::take_rows(Solution& other) {
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    columns_[i].insert(columns_[i].end(), other.columns_[i].begin(), other.columns_[i].end());
    other.columns_[i].clear();
  }
}

double Solution::at(const std::string& name, double t) const {
  const std::vector<double>& time = columns_[0];
  const std::vector<double>& y = (*this)[name];
  if (time.empty()) throw InvalidArgument("Solution::at", "Solution::at", "the solution has no rows");
  if (t <= time.front()) return y.front();
  if (t >= time.back()) return y.back();
  // The last row at or before t (rows at equal times: a step's end and the
  // next step's start; take the later one).
  const auto it = std::upper_bound(time.begin(), time.end(), t);
  const std::size_t hi = static_cast<std::size_t>(it - time.begin()), lo = hi - 1;
  const double w = (t - time[lo]) / (time[hi] - time[lo]);
  return y[lo] + w * (y[hi] - y[lo]);
}

}  // namespace voltaic
