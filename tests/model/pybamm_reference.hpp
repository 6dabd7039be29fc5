#pragma once
// PyBaMM's parameter values and function values, as
// tools/pybamm_parameter_reference.py wrote them to tests/data/parameters/.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <string>

#include "voltaic/model/parameter_set.hpp"
#include "voltaic/model/parameter_sets.hpp"

namespace voltaic::test {

/// One parameter set: its reference file's stem and voltaic's factory.
struct ReferenceSet {
  const char* stem;  ///< chen2020 -> tests/data/parameters/chen2020.json
  ParameterSet (*make)();
};

inline const ReferenceSet kReferenceSets[] = {{"chen2020", &parameter_sets::chen2020},
                                              {"marquis2019", &parameter_sets::marquis2019},
                                              {"okane2022", &parameter_sets::okane2022}};

/// gtest prints a parameter by this (ctest names carry it).
inline void PrintTo(const ReferenceSet& s, std::ostream* os) { *os << s.stem; }

inline std::string reference_set_name(const ::testing::TestParamInfo<ReferenceSet>& info) { return info.param.stem; }

/// The parsed reference file (parsed once per set).
inline const nlohmann::json& pybamm_reference(const std::string& stem) {
  static std::map<std::string, nlohmann::json> cache;
  auto it = cache.find(stem);
  if (it == cache.end()) {
    const std::string path = std::string(VOLTAIC_TEST_DATA_DIR) + "/parameters/" + stem + ".json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path + " (written by tools/pybamm_parameter_reference.py)");
    it = cache.emplace(stem, nlohmann::json::parse(in)).first;
  }
  return it->second;
}

/// |a - b| within rel * max(|b|, floor): relative, with an absolute floor for
/// values near a zero crossing of a function whose size is about `floor`.
inline ::testing::AssertionResult close(double a, double b, double rel, double floor) {
  const double tol = rel * std::max(std::abs(b), floor);
  if (std::abs(a - b) <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs PyBaMM " << b << ": difference " << a - b << " exceeds " << tol;
}

}  // namespace voltaic::test
