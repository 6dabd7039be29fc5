#include "solver/checkpoint_values.hpp"

#include <cmath>

#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic::checkpoint_values {

namespace {

constexpr const char* kWhere = "Simulation::load_checkpoint";

[[noreturn]] void refuse(const std::string& why) { throw InvalidArgument("checkpoint", kWhere, why); }

template <class Map>
const typename Map::mapped_type& entry(const Map& m, const std::string& key) {
  const auto it = m.find(key);
  if (it == m.end()) refuse("has no '" + key + "'");
  return it->second;
}

std::string bound(double v) { return std::isinf(v) ? (v > 0 ? "inf" : "-inf") : format_parameter_value(v); }

}  // namespace

double scalar(const Checkpoint& c, const std::string& key, double lo, double hi, const char* unit) {
  const double v = entry(c.scalars, key);
  if (!std::isfinite(v) || v < lo || v > hi) {
    const std::string range = lo == kPositive ? "> 0"
                              : hi == kInf    ? ">= " + bound(lo)
                                              : "[" + bound(lo) + ", " + bound(hi) + "]";
    std::string allowed = "a finite number";
    if (lo != -kInf || hi != kInf) allowed += " " + range;
    if (*unit) allowed += std::string(" ") + unit;
    refuse("'" + key + "' is " + format_parameter_value(v) + "; allowed: " + allowed);
  }
  return v;
}

std::int64_t integer(const Checkpoint& c, const std::string& key, std::int64_t lo, std::int64_t hi) {
  const std::int64_t v = entry(c.integers, key);
  if (v < lo || v > hi) {
    refuse("'" + key + "' is " + std::to_string(v) + "; allowed: an integer in [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
  }
  return v;
}

const std::string& text(const Checkpoint& c, const std::string& key) { return entry(c.texts, key); }

const std::vector<double>& finite_array(const Checkpoint& c, const std::string& key) {
  const std::vector<double>& values = entry(c.arrays, key);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]))
      refuse("array '" + key + "' holds " + format_parameter_value(values[i]) + " at " + std::to_string(i) +
             "; allowed: finite numbers");
  }
  return values;
}

std::size_t solution_rows(const Checkpoint& c, const std::vector<std::string>& names) {
  const std::string time_key = "solution/" + names.front();  // named: a reference into c, not into a temporary
  const std::vector<double>& time = finite_array(c, time_key);
  for (const std::string& name : names) {
    const std::size_t n = entry(c.arrays, "solution/" + name).size();
    if (n != time.size())
      refuse("column '" + name + "' has " + std::to_string(n) + " rows, '" + names.front() + "' " +
             std::to_string(time.size()));
  }
  for (std::size_t r = 1; r < time.size(); ++r) {
    if (time[r] < time[r - 1]) refuse("the times of its rows decrease at row " + std::to_string(r));
  }
  return time.size();
}

}  // namespace voltaic::checkpoint_values
