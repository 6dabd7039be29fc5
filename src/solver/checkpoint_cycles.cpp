// An ageing run's cycling in its checkpoint (checkpoint_cycles.hpp).
#include "solver/checkpoint_cycles.hpp"

#include <array>
#include <cmath>
#include <string>

#include "solver/checkpoint_values.hpp"
#include "voltaic/core/error.hpp"

namespace voltaic {

namespace {

constexpr int kFields = 20;
/// A summary's stored values (its derived columns are recomputed from them).
constexpr std::array<const char*, kFields> kNames = {"time",
                                                     "discharge capacity",
                                                     "charge capacity",
                                                     "discharge energy",
                                                     "particle lithium",
                                                     "SEI lithium",
                                                     "SEI thickness",
                                                     "plating lithium",
                                                     "plated",
                                                     "dead",
                                                     "capacity",
                                                     "LLI",
                                                     "minimum voltage",
                                                     "LAM negative",
                                                     "LAM positive",
                                                     "LAM lithium negative",
                                                     "LAM lithium positive",
                                                     "negative capacity",
                                                     "positive capacity",
                                                     "negative porosity"};

std::array<double*, kFields> fields(CycleSummary& s) {
  return {&s.time,
          &s.discharge_capacity,
          &s.charge_capacity,
          &s.discharge_energy,
          &s.particle_lithium,
          &s.sei_lithium_lost,
          &s.sei_thickness,
          &s.plating_lithium_lost,
          &s.plated_concentration,
          &s.dead_concentration,
          &s.capacity,
          &s.lithium_inventory_lost_percent,
          &s.min_voltage,
          &s.lam_percent[0],
          &s.lam_percent[1],
          &s.lam_lithium_lost[0],
          &s.lam_lithium_lost[1],
          &s.electrode_capacity[0],
          &s.electrode_capacity[1],
          &s.negative_porosity};
}

std::string key(const char* name) { return std::string("cycles/") + name; }

/// The tally's values, "cycle tally/<name>"; min voltage is +inf until a row.
std::array<double*, 6> tally_fields(program::CycleTally& t) {
  return {&t.discharge_capacity, &t.charge_capacity, &t.discharge_energy, &t.t, &t.I, &t.V};
}
constexpr std::array<const char*, 6> kTallyNames = {
    "discharge capacity", "charge capacity", "discharge energy", "time", "current", "voltage"};

/// Array `name` of `size` finite values.
const std::vector<double>& array(const Checkpoint& c, const std::string& name, std::size_t size, const char* where) {
  const std::vector<double>& values = checkpoint_values::finite_array(c, name);
  if (values.size() != size)
    throw InvalidArgument(
        "checkpoint", where,
        "array '" + name + "' holds " + std::to_string(values.size()) + " values; expected " + std::to_string(size));
  return values;
}

}  // namespace

void save_cycles(const std::vector<CycleSummary>& cycles, const program::CycleTally& tally, const Solution& held,
                 Checkpoint& c) {
  std::vector<double>& numbers = c.arrays[key("cycle")];
  for (const CycleSummary& s : cycles) numbers.push_back(s.cycle);
  for (int f = 0; f < kFields; ++f) {
    std::vector<double>& out = c.arrays[key(kNames[static_cast<std::size_t>(f)])];
    for (CycleSummary s : cycles) out.push_back(*fields(s)[static_cast<std::size_t>(f)]);
  }
  program::CycleTally t = tally;
  for (std::size_t f = 0; f < kTallyNames.size(); ++f)
    c.scalars[std::string("cycle tally/") + kTallyNames[f]] = *tally_fields(t)[f];
  c.scalars["cycle tally/minimum voltage"] = tally.started ? tally.min_voltage : 0.0;
  c.integers["cycle tally started"] = tally.started ? 1 : 0;
  for (const std::string& name : Solution::variable_names()) c.arrays["held/" + name] = held[name];
}

CheckpointCycles resume_cycles(const Checkpoint& c, const char* where) {
  CheckpointCycles out;
  const auto numbers = c.arrays.find(key("cycle"));
  if (numbers == c.arrays.end()) return out;  // written before the cycling was kept
  out.kept = true;
  const std::size_t n = numbers->second.size();
  out.cycles.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (numbers->second[i] != double(i + 1))
      throw InvalidArgument("checkpoint", where, "array 'cycles/cycle' does not count 1, 2, ...");
    out.cycles[i].cycle = static_cast<int>(i + 1);
  }
  for (int f = 0; f < kFields; ++f) {
    const std::string name = key(kNames[static_cast<std::size_t>(f)]);  // named: GCC 13 flags a temporary argument
    const std::vector<double>& values = array(c, name, n, where);
    for (std::size_t i = 0; i < n; ++i) *fields(out.cycles[i])[static_cast<std::size_t>(f)] = values[i];
  }
  namespace v = checkpoint_values;
  for (std::size_t f = 0; f < kTallyNames.size(); ++f)
    *tally_fields(out.tally)[f] = v::scalar(c, std::string("cycle tally/") + kTallyNames[f]);
  out.tally.started = v::integer(c, "cycle tally started", 0, 1) == 1;
  const double least = v::scalar(c, "cycle tally/minimum voltage");
  out.tally.min_voltage = out.tally.started ? least : INFINITY;
  const std::vector<std::string>& names = Solution::variable_names();
  const auto rows = c.arrays.find("held/" + names.front());
  if (rows == c.arrays.end()) throw InvalidArgument("checkpoint", where, "has no array 'held/" + names.front() + "'");
  std::vector<const std::vector<double>*> columns;
  for (const std::string& name : names) columns.push_back(&array(c, "held/" + name, rows->second.size(), where));
  std::vector<double> row(names.size());
  for (std::size_t r = 0; r < rows->second.size(); ++r) {
    for (std::size_t k = 0; k < names.size(); ++k) row[k] = (*columns[k])[r];
    out.held.append(row);
  }
  return out;
}

}  // namespace voltaic
