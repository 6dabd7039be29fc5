// The [solver] option table: defaults inside their ranges, each entry bound
// to its own field, Simulation's messages, and docs/config.md's [solver]
// table row for row.
#include "voltaic/solver/solver_options.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "voltaic/core/error.hpp"

namespace voltaic {
namespace {

/// The message of the InvalidArgument that check_solver_options throws ("" if none).
std::string error_of(const SimulationOptions& o) {
  try {
    check_solver_options(o, "test");
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

/// A value just outside the option's range (below it, or above a choice's last index).
double outside(const SolverOption& opt) {
  if (opt.kind == SolverOption::Kind::choice) return opt.allowed.hi + 1.0;
  return opt.allowed.lo_closed ? opt.allowed.lo - 1.0 : opt.allowed.lo;
}

TEST(SolverOptions, KeysAreUniqueAndDefaultsAreAllowed) {
  std::set<std::string> keys;
  for (const SolverOption& opt : solver_option_table()) {
    EXPECT_TRUE(keys.insert(opt.key).second) << opt.key << " twice";
    EXPECT_TRUE(opt.allowed.contains(opt.default_value())) << opt.key;
    EXPECT_EQ(find_solver_option(opt.key), &opt);
  }
  EXPECT_EQ(find_solver_option("no_such_option"), nullptr);
  EXPECT_EQ(error_of(SimulationOptions{}), "");
}

TEST(SolverOptions, EachEntrySetsItsOwnFieldOnly) {
  for (const SolverOption& opt : solver_option_table()) {
    SimulationOptions o;
    const double v = opt.kind == SolverOption::Kind::choice ? 1.0 - opt.default_value() : opt.default_value() + 1.0;
    opt.set(o, v);
    EXPECT_EQ(opt.get(o), v) << opt.key;
    for (const SolverOption& other : solver_option_table()) {
      if (&other == &opt) continue;
      EXPECT_EQ(other.get(o), other.default_value()) << opt.key << " changed " << other.key;
    }
  }
  SimulationOptions o;
  find_solver_option("newton_max_iterations")->set(o, 31.0);
  find_solver_option("electrolyte_face_mean")->set(o, 1.0);
  find_solver_option("max_growth")->set(o, 1.25);
  EXPECT_EQ(o.potential.max_iterations, 31);
  EXPECT_EQ(o.potential.electrolyte_face_mean, FaceMean::arithmetic);
  EXPECT_EQ(o.steps.max_growth, 1.25);
}

// Every option outside its range is named with its value and what is allowed.
TEST(SolverOptions, EachOptionOutsideItsRangeIsNamed) {
  for (const SolverOption& opt : solver_option_table()) {
    SimulationOptions o;
    opt.set(o, outside(opt));
    const std::string m = error_of(o);
    EXPECT_NE(m.find(opt.qualified_name()), std::string::npos) << m;
    EXPECT_NE(m.find("is " + opt.value_text(o) + "; allowed: " + opt.range_text()), std::string::npos) << m;
  }
  SimulationOptions o;
  o.steps.max_growth = 3.0;
  EXPECT_NE(error_of(o).find("StepControl::max_growth: is 3; allowed: in (1, 2.4] (variable-step BDF2 is zero-stable"),
            std::string::npos)
      << error_of(o);
  o = SimulationOptions{};
  o.potential.tolerance = 0.0;
  EXPECT_NE(error_of(o).find("PotentialOptions::tolerance: is 0; allowed: > 0 [V]"), std::string::npos) << error_of(o);
}

TEST(SolverOptions, StepSizesMustBeInOrder) {
  SimulationOptions o;
  o.steps.min_dt = 1.0;
  EXPECT_NE(error_of(o).find("StepControl::min_dt: is 1 (initial_dt is 0.01); allowed: > 0, at most initial_dt [s]"),
            std::string::npos)
      << error_of(o);
  o = SimulationOptions{};
  o.steps.max_dt = 1e-3;
  EXPECT_NE(error_of(o).find("StepControl::max_dt: is 0.001 (initial_dt is 0.01)"), std::string::npos) << error_of(o);
  o.steps.initial_dt = 1e-3;
  EXPECT_EQ(error_of(o), "");
}

/// The cells of a markdown table row ("| a | b |" -> {"a", "b"}), trimmed.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::istringstream in(row.substr(1));
  for (std::string cell; std::getline(in, cell, '|');) {
    const std::size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  return out;
}

std::string without_backticks(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  return s;
}

/// The rows of the table under "## [solver]" in docs/config.md, by their cells.
std::vector<std::vector<std::string>> documented_solver_rows() {
  std::ifstream in(std::filesystem::path(VOLTAIC_SOURCE_DIR) / "docs" / "config.md");
  std::vector<std::vector<std::string>> rows;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line == "## [solver]";
    if (inside && line.rfind("| `", 0) == 0) rows.push_back(cells(line));
  }
  return rows;
}

std::string type_name(SolverOption::Kind kind) {
  switch (kind) {
    case SolverOption::Kind::number: return "number";
    case SolverOption::Kind::integer: return "integer";
    case SolverOption::Kind::choice: return "string";
  }
  return "";
}

/// The docs' default cell against the struct's default.
void expect_documented_default(const SolverOption& opt, const std::string& cell) {
  if (opt.kind == SolverOption::Kind::choice) {
    EXPECT_EQ(cell, "`\"" + opt.choices.at(static_cast<std::size_t>(opt.default_value())) + "\"`") << opt.key;
    return;
  }
  std::size_t used = 0;
  EXPECT_EQ(std::stod(cell, &used), opt.default_value()) << opt.key << ": docs say " << cell;
  EXPECT_EQ(used, cell.size()) << opt.key << ": docs say " << cell;
}

// docs/config.md's [solver] table: the backend, then exactly the option
// table's keys in its order, each with its type, unit, default, range and
// description.
TEST(SolverOptionsDocs, ConfigReferenceMatchesTheTable) {
  const std::vector<std::vector<std::string>> rows = documented_solver_rows();
  const std::vector<SolverOption>& table = solver_option_table();
  ASSERT_EQ(rows.size(), table.size() + 1) << "rows under ## [solver] in docs/config.md";
  EXPECT_EQ(rows[0].at(0), "`backend`");
  for (std::size_t i = 0; i < table.size(); ++i) {
    const SolverOption& opt = table[i];
    const std::vector<std::string>& row = rows[i + 1];
    ASSERT_EQ(row.size(), 6u) << row.at(0);
    EXPECT_EQ(row[0], "`" + opt.key + "`");
    EXPECT_EQ(row[1], type_name(opt.kind)) << opt.key;
    EXPECT_EQ(row[2], opt.unit) << opt.key;
    expect_documented_default(opt, row[3]);
    EXPECT_EQ(without_backticks(row[4]), opt.range_text()) << opt.key;
    EXPECT_EQ(row[5], opt.description) << opt.key;
  }
}

}  // namespace
}  // namespace voltaic
