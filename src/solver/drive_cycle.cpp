// DriveCycle: the checks on a table and the lookups an integrator makes in it.
#include "voltaic/solver/drive_cycle.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/experiment.hpp"

namespace voltaic {

namespace {

constexpr const char* kWhere = "voltaic::DriveCycle";

std::string row(std::size_t i) { return "row " + std::to_string(i + 1); }

void check_name(const std::string& name) {
  if (name.empty()) {
    throw InvalidArgument("drive cycle ''", kWhere, "the name is empty; allowed: a word such as US06, without spaces");
  }
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isspace(u) || std::iscntrl(u)) {
      throw InvalidArgument("drive cycle '" + one_line(name) + "'", kWhere,
                            "the name holds a space or a control character, so no step could name it; allowed: a "
                            "word such as US06, without spaces");
    }
  }
}

void check_rows(const std::string& label, const std::vector<double>& t, const std::vector<double>& v) {
  if (t.size() != v.size()) {
    throw SizeMismatch(
        label, kWhere,
        std::to_string(t.size()) + " times and " + std::to_string(v.size()) + " values; allowed: one value per time");
  }
  if (t.size() < 2) {
    throw InvalidArgument(label, kWhere,
                          "has " + std::to_string(t.size()) + " row(s); allowed: at least 2 (time, value) rows");
  }
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!std::isfinite(t[i])) {
      throw InvalidArgument(
          label, kWhere, row(i) + ": the time is " + format_parameter_value(t[i]) + "; allowed: a finite number [s]");
    }
    if (!std::isfinite(v[i])) {
      throw InvalidArgument(
          label, kWhere,
          row(i) + ": the value is " + format_parameter_value(v[i]) + "; allowed: a finite number [A] or [W]");
    }
    if (i == 0 && t[0] != 0.0) {
      throw InvalidArgument(label, kWhere,
                            row(0) + ": the first time is " + format_parameter_value(t[0]) +
                                "; allowed: 0 (a drive cycle starts at the step's start)");
    }
    if (i > 0 && !(t[i] > t[i - 1])) {
      throw InvalidArgument(label, kWhere,
                            row(i) + ": the time " + format_parameter_value(t[i]) + " is not after " + row(i - 1) +
                                "'s (" + format_parameter_value(t[i - 1]) + "); allowed: strictly increasing times");
    }
    if (i > 0 && t[i] - t[i - 1] < kStepLimits.duration.min) {
      throw InvalidArgument(label, kWhere,
                            row(i) + ": the time " + format_parameter_value(t[i]) + " is " +
                                format_parameter_value(t[i] - t[i - 1]) + " s after " + row(i - 1) +
                                "'s; allowed: " + format_parameter_value(kStepLimits.duration.min) + " s or more");
    }
  }
}

}  // namespace

DriveCycle::DriveCycle(std::string name, std::vector<double> time_s, std::vector<double> value)
    : name_(std::move(name)), time_(std::move(time_s)), value_(std::move(value)) {
  check_name(name_);
  check_rows("drive cycle '" + name_ + "'", time_, value_);
}

double DriveCycle::value_at(double t) const { return table().value_at(t); }

double DriveCycle::next_breakpoint(double t) const { return table().next_breakpoint(t); }

std::uint64_t DriveCycle::digest() const {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a, 64 bits
  const auto mix = [&h](double x) {
    unsigned char bytes[sizeof x];
    std::memcpy(bytes, &x, sizeof x);
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
  };
  for (std::size_t i = 0; i < time_.size(); ++i) {
    mix(time_[i]);
    mix(value_[i]);
  }
  return h;
}

}  // namespace voltaic
