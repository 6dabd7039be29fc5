// ParameterSet::validate and the parameter table: every field is checked, and
// a bad value is named as PyBaMM names it, with its value and allowed range.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"

using namespace voltaic;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// validate() throws InvalidArgument naming `name`, and its message holds every one of `parts`.
::testing::AssertionResult rejected(const ParameterSet& p, const std::string& name,
                                    std::initializer_list<std::string> parts) {
  try {
    p.validate();
  } catch (const InvalidArgument& e) {
    if (e.what_failed() != name)
      return ::testing::AssertionFailure() << "named '" << e.what_failed() << "': " << e.what();
    for (const auto& part : parts) {
      if (!contains(e.what(), part)) return ::testing::AssertionFailure() << "no '" << part << "' in: " << e.what();
    }
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "validate() accepted it";
}

/// A value just outside the allowed range.
double outside(const Interval& r) {
  if (r.whole) return r.lo + 0.5;
  if (std::isinf(r.lo)) return kInf;
  return r.lo_closed ? r.lo - 1.0 : r.lo;
}

}  // namespace

TEST(ParameterSets, BuildValidatedByFunctionAndByName) {
  EXPECT_NO_THROW(parameter_sets::chen2020().validate());
  EXPECT_NO_THROW(parameter_sets::marquis2019().validate());
  EXPECT_NO_THROW(parameter_sets::okane2022().validate());
  EXPECT_EQ(parameter_sets::parameter_set_names(), (std::vector<std::string>{"Chen2020", "Marquis2019", "OKane2022"}));
  EXPECT_EQ(parameter_sets::by_name("Chen2020").negative_electrode.thickness, 8.52e-05);
  EXPECT_EQ(parameter_sets::by_name("marquis2019").positive_electrode.ocp, OcpModel::dualfoil1998_lico2);
  EXPECT_EQ(parameter_sets::by_name("okane2022").negative_electrode.ocp, OcpModel::custom);
}

TEST(ParameterSets, UnknownNameListsTheAvailableSets) {
  try {
    parameter_sets::by_name("Chen2021");
    FAIL() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_TRUE(contains(e.what(), "'Chen2021'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "available: Chen2020, Marquis2019, OKane2022")) << e.what();
  }
}

TEST(ParameterSets, ElectrodeAreaIsPyBaMMs) {
  const ParameterSet p = parameter_sets::chen2020();
  EXPECT_DOUBLE_EQ(p.electrode_area(), 0.1027);  // PYBAMM_CONVENTIONS: 5 A / 0.1027 m^2 at 1C
}

TEST(ParameterTable, NamesAreUniqueAndCarryTheirUnits) {
  std::set<std::string> names;
  for (const ParameterInfo& info : parameter_table()) {
    EXPECT_TRUE(names.insert(info.name).second) << "repeated: " << info.name;
    if (info.unit.empty()) {
      EXPECT_FALSE(contains(info.name, "[")) << info.name;
    } else {
      EXPECT_TRUE(contains(info.name, " [" + info.unit + "]")) << info.name;
    }
    EXPECT_FALSE(info.description.empty()) << info.name;
  }
  // A particle diffusivity is a number (its value at 298.15 K) and a function
  // (with its Arrhenius factor), under PyBaMM's one name; no other name is both.
  std::set<std::string> both;
  for (const FunctionInfo& f : function_table()) {
    if (!names.insert(f.name).second) both.insert(f.name);
  }
  EXPECT_EQ(both, (std::set<std::string>{"Negative particle diffusivity [m2.s-1]",
                                         "Positive particle diffusivity [m2.s-1]"}));
  EXPECT_EQ(parameter_table().size(), 125u);
  EXPECT_EQ(function_table().size(), 10u);
}

TEST(ParameterTable, ReadsAndWritesByName) {
  ParameterSet p = parameter_sets::chen2020();
  EXPECT_EQ(parameter_value(p, "Negative electrode porosity"), 0.25);
  set_parameter(p, "Negative electrode porosity", 0.2);
  EXPECT_EQ(p.negative_electrode.porosity, 0.2);
  EXPECT_NO_THROW(p.validate());
  EXPECT_THROW(parameter_value(p, "Negative electrode porosity [m]"), InvalidArgument);
  EXPECT_THROW(set_parameter(p, "Porosity", 0.3), InvalidArgument);
}

TEST(ParameterTable, FunctionTableNamesTheFitsASetUses) {
  const ParameterSet p = parameter_sets::chen2020();
  std::map<std::string, std::string> selected;
  for (const FunctionInfo& f : function_table()) selected[f.name] = f.selected(p);
  EXPECT_EQ(selected.at("Negative electrode OCP [V]"), "chen2020_graphite_siox");
  EXPECT_EQ(selected.at("Positive electrode OCP [V]"), "chen2020_nmc811");
  EXPECT_EQ(selected.at("Positive electrode OCP entropic change [V.K-1]"), "none");
  EXPECT_EQ(selected.at("Electrolyte conductivity [S.m-1]"), "nyman2008");
  EXPECT_EQ(selected.at("Electrolyte diffusivity [m2.s-1]"), "nyman2008");
}

TEST(ParameterTable, IntervalsPrintAsRanges) {
  EXPECT_EQ((Interval{0.0, 1.0, false, false}).to_string(), "(0, 1)");
  EXPECT_EQ((Interval{0.0, 1.0, false, true}).to_string(), "(0, 1]");
  EXPECT_EQ((Interval{0.0, kInf, false, false}).to_string(), "> 0");
  EXPECT_EQ((Interval{0.0, kInf, true, false}).to_string(), ">= 0");
  EXPECT_EQ((Interval{1.0, kInf, true, false, true}).to_string(), "a whole number >= 1");
  EXPECT_EQ(format_parameter_value(0.335), "0.335");
  EXPECT_EQ(format_parameter_value(-1e-05), "-1e-05");
}

// Every field, one at a time, in every set: NaN, infinity and a value just
// outside its range are each rejected, naming the field.
TEST(ParameterValidation, EveryFieldIsChecked) {
  for (const auto make : {&parameter_sets::chen2020, &parameter_sets::marquis2019, &parameter_sets::okane2022}) {
    for (const ParameterInfo& info : parameter_table()) {
      for (const double bad : {kNaN, -kInf, outside(info.allowed)}) {
        if (info.optional && std::isnan(bad)) continue;  // NaN is "unset": tested below
        ParameterSet p = make();
        info.set(p, bad);
        EXPECT_TRUE(rejected(p, info.name, {info.name + " = " + format_parameter_value(bad)})) << info.name;
      }
    }
  }
}

TEST(ParameterValidation, OptionalTabsMayBeUnsetButNotWrong) {
  ParameterSet p = parameter_sets::marquis2019();
  p.negative_current_collector.tab_width = kNaN;
  EXPECT_NO_THROW(p.validate());
  p.negative_current_collector.tab_width = -0.01;
  EXPECT_TRUE(rejected(p, "Negative tab width [m]", {"-0.01", "> 0"}));
  EXPECT_TRUE(std::isnan(parameter_sets::chen2020().positive_current_collector.tab_centre_y));
}

TEST(ParameterValidation, DefaultConstructedSetNamesItsFirstUnsetField) {
  EXPECT_TRUE(rejected(ParameterSet{}, "Electrode height [m]", {"= nan", "must be finite and [1e-04, 1000]"}));
}

TEST(ParameterValidation, EachKindOfBadValueIsNamedWithItsRange) {
  const ParameterSet good = parameter_sets::chen2020();
  ParameterSet p = good;
  p.negative_electrode.thickness = -1e-6;
  EXPECT_TRUE(rejected(p, "Negative electrode thickness [m]", {"-1e-06", "[1e-07, 0.1]"}));
  p = good;
  p.positive_electrode.porosity = 1.0;
  EXPECT_TRUE(rejected(p, "Positive electrode porosity", {"= 1 ", "(0, 1)"}));
  p = good;
  p.separator.porosity = 1.0;  // a separator may be all electrolyte (Marquis2019)
  EXPECT_NO_THROW(p.validate());
  p.separator.porosity = 1.01;
  EXPECT_TRUE(rejected(p, "Separator porosity", {"1.01", "(0, 1]"}));
  p = good;
  p.negative_electrode.active_material_volume_fraction = 0.0;
  EXPECT_TRUE(rejected(p, "Negative electrode active material volume fraction", {"= 0 ", "(0, 1)"}));
  p = good;
  p.negative_electrode.porosity = 0.3;  // + 0.75 > 1
  EXPECT_TRUE(rejected(p, "Negative electrode porosity",
                       {"Negative electrode active material volume fraction = 0.75", "1.05", "sum <= 1"}));
  p = good;
  p.positive_electrode.particle_radius = 0.0;
  EXPECT_TRUE(rejected(p, "Positive particle radius [m]", {"= 0 ", "[1e-09, 0.001]"}));
  p = good;
  p.negative_electrode.maximum_concentration = -33133.0;
  EXPECT_TRUE(rejected(p, "Maximum concentration in negative electrode [mol.m-3]", {"-33133", "[1, 1e+06]"}));
  p = good;
  p.positive_electrode.diffusivity = 0.0;
  EXPECT_TRUE(rejected(p, "Positive particle diffusivity [m2.s-1]", {"= 0 ", "[1e-25, 1e-05]"}));
  p = good;
  p.positive_electrode.conductivity = -0.18;
  EXPECT_TRUE(rejected(p, "Positive electrode conductivity [S.m-1]", {"-0.18", "[1e-10, 1e+30]"}));
  p = good;
  p.electrolyte.transference_number = 1.0;
  EXPECT_TRUE(rejected(p, "Cation transference number", {"= 1 ", "(0, 1)"}));
  p = good;
  p.negative_electrode.initial_concentration = 34000.0;  // above c_max
  EXPECT_TRUE(rejected(p, "Initial concentration in negative electrode [mol.m-3]",
                       {"34000", "Maximum concentration in negative electrode [mol.m-3] = 33133", "(0, 1)"}));
  p = good;
  p.electrical.lower_voltage_cutoff = 4.2;
  EXPECT_TRUE(rejected(p, "Lower voltage cut-off [V]", {"= 4.2 must be below Upper voltage cut-off [V] = 4.2"}));
  p = good;
  p.electrical.ocv_at_100_soc = 2.4;
  EXPECT_TRUE(rejected(p, "Open-circuit voltage at 0% SOC [V]", {"must be below", "= 2.4"}));
  p = good;
  p.thermal.initial_temperature = 0.0;
  EXPECT_TRUE(rejected(p, "Initial temperature [K]", {"= 0 ", "> 0"}));
  p = good;
  p.thermal.ambient_temperature = kInf;
  EXPECT_TRUE(rejected(p, "Ambient temperature [K]", {"inf", "finite"}));
  p = good;
  p.cell.electrodes_in_parallel = 2.5;
  EXPECT_TRUE(rejected(p, "Number of electrodes connected in parallel to make a cell", {"2.5", "whole number >= 1"}));
  p = good;
  p.negative_electrode.bruggeman_electrolyte = -1.5;
  EXPECT_TRUE(rejected(p, "Negative electrode Bruggeman coefficient (electrolyte)", {"-1.5", ">= 0"}));
}

TEST(ParameterValidation, UnknownFitsAreRejected) {
  const ParameterSet good = parameter_sets::marquis2019();
  ParameterSet p = good;
  p.negative_electrode.ocp = static_cast<OcpModel>(9);
  EXPECT_TRUE(rejected(p, "Negative electrode OCP [V]", {"unknown (9)"}));
  p = good;
  p.positive_electrode.entropic = static_cast<EntropicModel>(-1);
  EXPECT_TRUE(rejected(p, "Positive electrode OCP entropic change [V.K-1]", {"unknown (-1)"}));
  p = good;
  p.electrolyte.diffusivity_model = static_cast<ElectrolyteModel>(5);
  EXPECT_TRUE(rejected(p, "Electrolyte diffusivity [m2.s-1]", {"unknown (5)"}));
}
