#pragma once
// PyBaMM's reference curves (tests/data/pybamm, written by
// tools/pybamm_reference.py) and the measures the validation tests apply.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "voltaic/solver/solution.hpp"

namespace voltaic::test {

/// One CSV of tests/data/pybamm: its columns by header name.
struct PybammCurve {
  std::map<std::string, std::vector<double>> columns;
  const std::vector<double>& operator[](const std::string& name) const { return columns.at(name); }
};

inline PybammCurve read_pybamm_curve(const std::string& stem) {
  const std::string path = std::string(VOLTAIC_TEST_DATA_DIR) + "/pybamm/" + stem + ".csv";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  PybammCurve curve;
  std::vector<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream fields(line);
    std::string field;
    if (names.empty()) {
      while (std::getline(fields, field, ',')) names.push_back(field);
      continue;
    }
    for (std::size_t i = 0; std::getline(fields, field, ','); ++i)
      curve.columns[names.at(i)].push_back(std::stod(field));
  }
  return curve;
}

/// RMS and largest difference of our voltage from PyBaMM's at PyBaMM's times
/// (ours interpolated linearly between our steps), over the times both cover.
struct CurveDifference {
  double rms = 0.0;
  double max = 0.0;
  std::size_t points = 0;
};

inline CurveDifference voltage_difference(const Solution& ours, const PybammCurve& ref,
                                          const std::string& variable = "Voltage [V]") {
  const std::vector<double>& t = ref["Time [s]"];
  const std::vector<double>& v = ref[variable];
  const double end = ours["Time [s]"].back();
  CurveDifference d;
  double sum = 0.0;
  for (std::size_t i = 0; i < t.size() && t[i] <= end; ++i) {
    const double e = ours.at(variable, t[i]) - v[i];
    sum += e * e;
    d.max = std::max(d.max, std::fabs(e));
    ++d.points;
  }
  d.rms = d.points ? std::sqrt(sum / static_cast<double>(d.points)) : 0.0;
  return d;
}

/// RMS of our voltage against PyBaMM's over one cycle of `steps` steps whose
/// first is our step `first_step` (PyBaMM's step indices from 0 in `ref`), step by step in time
/// since each step's start (the steps end at slightly other times), leaving
/// out each step's first and last reference rows (the jumps).
inline double cycle_rms(const Solution& s, const PybammCurve& ref, long long first_step, int steps) {
  const std::vector<double>&t = ref["Time [s]"], &v = ref["Voltage [V]"], &step = ref["Step"];
  const std::vector<double>&ot = s["Time [s]"], &ov = s["Voltage [V]"], &os = s["Step"];
  double sum = 0.0;
  std::size_t n = 0;
  for (int k = 0; k < steps; ++k) {
    std::vector<double> rt, rv, mt, mv;
    for (std::size_t i = 0; i < t.size(); ++i)
      if (step[i] == k) {
        rt.push_back(t[i]);
        rv.push_back(v[i]);
      }
    for (std::size_t i = 0; i < ot.size(); ++i)
      if (os[i] == static_cast<double>(first_step + k)) {
        mt.push_back(ot[i]);
        mv.push_back(ov[i]);
      }
    if (rt.size() < 3 || mt.size() < 2) continue;
    for (std::size_t i = 1; i + 1 < rt.size(); ++i) {
      const double at = mt.front() + (rt[i] - rt.front());
      if (at > mt.back()) break;
      const auto hi = std::upper_bound(mt.begin(), mt.end(), at);
      const std::size_t j = static_cast<std::size_t>(std::max<std::ptrdiff_t>(hi - mt.begin(), 1));
      const double w = mt[j] == mt[j - 1] ? 1.0 : (at - mt[j - 1]) / (mt[j] - mt[j - 1]);
      const double ours = mv[j - 1] + w * (mv[j] - mv[j - 1]);
      sum += (ours - rv[i]) * (ours - rv[i]);
      ++n;
    }
  }
  return n ? std::sqrt(sum / static_cast<double>(n)) : INFINITY;
}

/// Our voltage against PyBaMM's over the first and the last of `cycles`
/// cycles of `size` steps (references `stem`_cycle1 and `stem`_cycleN):
/// each RMS below `limit` [V], both recorded as test properties.
inline void expect_first_and_last_cycles(const Solution& s, const std::string& stem, int cycles, int size,
                                         double limit = 2e-3) {
  const double first = cycle_rms(s, read_pybamm_curve(stem + "_cycle1"), 0, size);
  const double last = cycle_rms(s, read_pybamm_curve(stem + "_cycle" + std::to_string(cycles)),
                                static_cast<long long>(size) * (cycles - 1), size);
  EXPECT_LT(first, limit) << stem << ", cycle 1 [V RMS]";
  EXPECT_LT(last, limit) << stem << ", cycle " << cycles << " [V RMS]";
  ::testing::Test::RecordProperty("first_cycle_rms_mV", std::to_string(first * 1e3));
  ::testing::Test::RecordProperty("last_cycle_rms_mV", std::to_string(last * 1e3));
}

}  // namespace voltaic::test
