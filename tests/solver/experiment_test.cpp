// Experiment steps in PyBaMM's wording, and the errors for steps that do not parse.
#include "voltaic/solver/experiment.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace voltaic;

TEST(Experiment, ParsesPyBaMMWording) {
  const ExperimentStep d = parse_experiment_step("Discharge at 1C until 2.5 V");
  EXPECT_EQ(d.mode, StepMode::current);
  EXPECT_TRUE(d.current.c_rate);
  EXPECT_DOUBLE_EQ(d.current.value, 1.0);
  EXPECT_DOUBLE_EQ(d.current.amperes(5.0), 5.0);
  EXPECT_DOUBLE_EQ(*d.until_voltage_v, 2.5);
  EXPECT_TRUE(d.default_duration);  // no "for": the default (AStepWithoutForHasPyBammsDefaultDuration)

  const ExperimentStep a = parse_experiment_step("Discharge at 5 A until 2.5 V");
  EXPECT_FALSE(a.current.c_rate);
  EXPECT_DOUBLE_EQ(a.current.value, 5.0);

  const ExperimentStep c = parse_experiment_step("Charge at 0.5C until 4.2 V");
  EXPECT_DOUBLE_EQ(c.current.value, -0.5);  // charge is negative current
  EXPECT_DOUBLE_EQ(*c.until_voltage_v, 4.2);

  const ExperimentStep h = parse_experiment_step("Hold at 4.2 V until C/50");
  EXPECT_EQ(h.mode, StepMode::voltage);
  EXPECT_DOUBLE_EQ(h.voltage_v, 4.2);
  EXPECT_TRUE(h.until_current->c_rate);
  EXPECT_DOUBLE_EQ(h.until_current->value, 1.0 / 50);
  EXPECT_DOUBLE_EQ(parse_experiment_step("Hold at 4.2 V until 50 mA").until_current->amperes(5.0), 0.05);

  EXPECT_DOUBLE_EQ(*parse_experiment_step("Rest for 1 hour").duration_s, 3600.0);
  EXPECT_DOUBLE_EQ(*parse_experiment_step("Rest for 30 minutes").duration_s, 1800.0);
  EXPECT_DOUBLE_EQ(*parse_experiment_step("rest for 45 s").duration_s, 45.0);
  EXPECT_DOUBLE_EQ(*parse_experiment_step("Rest for 2 hours").duration_s, 7200.0);

  const ExperimentStep p = parse_experiment_step("Discharge at 2 W for 10 minutes or until 3V");
  EXPECT_EQ(p.mode, StepMode::power);
  EXPECT_DOUBLE_EQ(p.power_w, 2.0);
  EXPECT_DOUBLE_EQ(*p.duration_s, 600.0);
  EXPECT_DOUBLE_EQ(*p.until_voltage_v, 3.0);
  EXPECT_DOUBLE_EQ(parse_experiment_step("Charge at 500 mW for 1 h").power_w, -0.5);
}

TEST(Experiment, CyclesRepeatTheSteps) {
  const Experiment e(
      {"Discharge at 1C until 2.5 V", "Rest for 1 hour", "Charge at 0.5C until 4.2 V", "Hold at 4.2 V until C/50"}, 3);
  EXPECT_EQ(e.cycle().size(), 4u);
  EXPECT_EQ(e.total_steps(), 12u);
  EXPECT_EQ(e.step(3).mode, StepMode::voltage);
  EXPECT_THROW(Experiment({}, 1), InvalidArgument);
  EXPECT_THROW(Experiment({"Rest for 1 hour"}, 0), InvalidArgument);
}

namespace {
/// The error a malformed step gives: which step, which column, and why.
ExperimentError error_of(const std::vector<std::string>& steps) {
  try {
    Experiment e(steps);
  } catch (const ExperimentError& err) {
    return err;
  }
  ADD_FAILURE() << "'" << steps.back() << "' parsed";
  return ExperimentError(0, "", 0, "");
}
}  // namespace

TEST(Experiment, MalformedStepsSayWhichAndWhere) {
  const ExperimentError typo = error_of({"Rest for 1 hour", "Charge at 0.5C untl 4.2 V"});
  EXPECT_EQ(typo.step_index(), 2u);
  EXPECT_EQ(typo.column(), 16u);
  EXPECT_NE(std::string(typo.what()).find("expected 'until'"), std::string::npos) << typo.what();
  EXPECT_NE(std::string(typo.what()).find("Charge at 0.5C untl 4.2 V"), std::string::npos);

  EXPECT_EQ(error_of({"Discharge at 1X until 2.5 V"}).column(), 15u);  // unknown unit, at the unit
  EXPECT_NE(std::string(error_of({"Discharge at 1C until 2.5 A"}).what()).find("expected a voltage"),
            std::string::npos);
  EXPECT_NE(std::string(error_of({"Hold at 4.2 V until 3 V"}).what()).find("expected a current"), std::string::npos);
  EXPECT_NE(std::string(error_of({"Discharge at -1C until 2.5 V"}).what()).find("positive"), std::string::npos);
  EXPECT_NE(std::string(error_of({"Discharge at 1C"}).what()).find("step ends"), std::string::npos);
  EXPECT_NE(std::string(error_of({"Rest for 1 hour please"}).what()).find("unexpected 'please'"), std::string::npos);
  EXPECT_NE(std::string(error_of({"Sprint at 1C until 2.5 V"}).what()).find("not a step"), std::string::npos);
  EXPECT_NE(std::string(error_of({""}).what()).find("step ends"), std::string::npos);
  EXPECT_NE(std::string(error_of({"Rest for 5 V"}).what()).find("duration"), std::string::npos);
  EXPECT_NE(std::string(error_of({"Hold at 4.2 V until C/0"}).what()).find("divisor"), std::string::npos);
  EXPECT_NE(std::string(error_of({"Discharge at abc until 2.5 V"}).what()).find("number"), std::string::npos);
}

// Found by fuzz_experiment: strtod took these, and the step then held an
// infinite (or zero) current, power or duration.
TEST(Experiment, NumbersAreDecimalAndStayFiniteInSiUnits) {
  const auto why = [](const std::string& step) { return std::string(error_of({step}).what()); };
  EXPECT_NE(why("Discharge at 1e400C until 2.5 V").find("is not a finite number"), std::string::npos);
  EXPECT_NE(why("Discharge at C/1e-310 until 2.5 V").find("divisor of 'c/1e-310' is too small"), std::string::npos);
  EXPECT_NE(why("Rest for 1e306 hours").find("outside the range of a double"), std::string::npos);
  EXPECT_NE(why("Discharge at 5e-324 mA until 3 V").find("outside the range of a double"), std::string::npos);
  EXPECT_NE(why("Charge at 1e-322 mW until 4.2 V").find("outside the range"), std::string::npos);
  for (const char* not_decimal :
       {"Hold at 4.2 V until C/0x10", "Hold at 4.2 V until C/inf", "Hold at 4.2 V until C/nan"})
    EXPECT_NE(why(not_decimal).find("does not start with a number"), std::string::npos) << not_decimal;
  // A finite but sub-microsecond duration leaves a time step the solver cannot take (1 / h overflows).
  EXPECT_NE(why("Rest for 1e-300 hours").find("the duration 3.6e-297 s is out of range: at least 1e-06 s"),
            std::string::npos);
  EXPECT_NE(why("Rest for 5e-324 s").find("at least 1e-06 s"), std::string::npos);
  EXPECT_DOUBLE_EQ(*parse_experiment_step("Rest for 1e-6 s").duration_s, 1e-6);
}

// Every number of the step grammar, given as inf, nan, 1e400 (beyond a
// double) or beyond its documented limit, is refused when parsed: such a
// step used to run for ever or stop the run as a solver failure.
TEST(Experiment, NumbersMustBeFiniteAndWithinTheirLimits) {
  const auto has = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  const std::vector<std::string> patterns = {"Rest for X s",
                                             "Rest for X hours",
                                             "Discharge at XC until 2.5 V",
                                             "Charge at X A until 4.2 V",
                                             "Discharge at X mA for 1 s",
                                             "Discharge at X W until 2.5 V",
                                             "Charge at X mW for 1 s",
                                             "Hold at X V until C/50",
                                             "Hold at X mV until C/50",
                                             "Hold at 4.0 V until X A",
                                             "Hold at 4.0 V until XC",
                                             "Hold at 4.0 V until C/X",
                                             "Discharge at 1C until X V",
                                             "Discharge at 1C for X minutes",
                                             "Hold at 4.0 V for X hours",
                                             "Charge at 1C for 1 s or until X mV"};
  for (const std::string& pattern : patterns) {
    for (const std::string x : {"inf", "nan", "1e400", "-1e400", "1e308"}) {
      if (x == "1e308" && pattern.find("C/X") != std::string::npos) continue;  // C/1e308: a tiny rate
      std::string step = pattern;
      step.replace(step.find('X'), 1, x);
      const std::string why = error_of({step}).what();
      const bool said = has(why, "is not a finite number") || has(why, "is out of range: at most ") ||
                        has(why, "does not start with a number") || has(why, "positive") ||
                        has(why, "outside the range of a double");
      EXPECT_TRUE(said) << step << ": " << why;
    }
  }
  EXPECT_TRUE(has(error_of({"Rest for 1e400 s"}).what(), "'1e400' is not a finite number"));
  EXPECT_TRUE(has(error_of({"Rest for 1e6 hours"}).what(), "the duration 3.6e+09 s is out of range: at most 1e+09 s"))
      << error_of({"Rest for 1e6 hours"}).what();
  EXPECT_TRUE(has(error_of({"Rest for 1e308 hours"}).what(), "outside the range of a double in SI units"))
      << error_of({"Rest for 1e308 hours"}).what();
  EXPECT_TRUE(has(error_of({"Discharge at 1001C until 2.5 V"}).what(), "C-rate 1001 C is out of range"));
  EXPECT_TRUE(has(error_of({"Hold at 4.0 V until C/1e-300"}).what(), "is out of range: at most 1000 C"));
  EXPECT_TRUE(has(error_of({"Hold at 1001 V until C/50"}).what(), "voltage 1001 V is out of range"));
  EXPECT_TRUE(has(error_of({"Discharge at 2e9 W until 2.5 V"}).what(), "power 2e+09 W is out of range"));
  EXPECT_TRUE(has(error_of({"Discharge at 2e6 A until 2.5 V"}).what(), "current 2e+06 A is out of range"));
  // The limits themselves are allowed.
  EXPECT_NO_THROW(parse_experiment_step("Rest for 1e9 s"));
  EXPECT_NO_THROW(parse_experiment_step("Discharge at 1000C for 1 s"));
  EXPECT_NO_THROW(parse_experiment_step("Charge at 1e6 A for 1 s or until 1000 V"));
}

namespace {

/// 0 A for 1 s, a ramp to 10 A by 11 s, 10 A to 300 s.
std::shared_ptr<const DriveCycle> ramp(const std::string& name = "US06") {
  return std::make_shared<const DriveCycle>(name, std::vector<double>{0, 1, 11, 300},
                                            std::vector<double>{0, 0, 10, 10});
}

/// The message of the InvalidArgument that building a DriveCycle throws ("" if none).
std::string table_error(std::vector<double> t, std::vector<double> v, const std::string& name = "T") {
  try {
    DriveCycle(name, std::move(t), std::move(v));
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

ExperimentError run_error(const std::string& step, const DriveCycles& tables) {
  try {
    parse_experiment_step(step, 3, tables);
  } catch (const ExperimentError& err) {
    return err;
  }
  ADD_FAILURE() << "'" << step << "' parsed";
  return ExperimentError(0, "", 0, "");
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(DriveCycle, InterpolatesLinearlyAndClampsOutsideTheTable) {
  const auto t = ramp();
  EXPECT_EQ(t->name(), "US06");
  EXPECT_EQ(t->rows(), 4u);
  EXPECT_EQ(t->duration(), 300.0);
  EXPECT_EQ(t->value_at(0.0), 0.0);
  EXPECT_EQ(t->value_at(0.5), 0.0);
  EXPECT_EQ(t->value_at(1.0), 0.0);
  EXPECT_DOUBLE_EQ(t->value_at(6.0), 5.0);
  EXPECT_DOUBLE_EQ(t->value_at(3.5), 2.5);
  EXPECT_EQ(t->value_at(11.0), 10.0);  // exactly a row's value at its time
  EXPECT_EQ(t->value_at(150.0), 10.0);
  EXPECT_EQ(t->value_at(300.0), 10.0);
  EXPECT_EQ(t->value_at(-5.0), 0.0);  // before the start: the first row
  EXPECT_EQ(t->value_at(1e9), 10.0);  // after the end: the last row
  EXPECT_EQ(t->value_at(std::numeric_limits<double>::quiet_NaN()), 0.0);

  const DriveCycle steps("pulses", {0, 10, 10.5, 20}, {-5, -5, 8, 8});
  EXPECT_DOUBLE_EQ(steps.value_at(10.25), 1.5);
  EXPECT_EQ(steps.value_at(20), 8.0);
}

TEST(DriveCycle, NextBreakpointIsTheFirstRowStrictlyAfter) {
  const auto t = ramp();
  EXPECT_EQ(t->next_breakpoint(-1.0), 0.0);
  EXPECT_EQ(t->next_breakpoint(0.0), 1.0);
  EXPECT_EQ(t->next_breakpoint(0.999), 1.0);
  EXPECT_EQ(t->next_breakpoint(1.0), 11.0);  // strictly after: a step that landed on 1 goes on to 11
  EXPECT_EQ(t->next_breakpoint(11.0), 300.0);
  EXPECT_EQ(t->next_breakpoint(299.0), 300.0);
  EXPECT_EQ(t->next_breakpoint(300.0), 300.0);  // none left: the duration
  EXPECT_EQ(t->next_breakpoint(500.0), 300.0);
}

TEST(DriveCycle, RefusesBadTablesNamingTheRowAndValue) {
  EXPECT_EQ(table_error({0, 1}, {1, 2}), "");
  EXPECT_TRUE(has(table_error({0}, {1}), "has 1 row(s); allowed: at least 2")) << table_error({0}, {1});
  EXPECT_TRUE(has(table_error({}, {}), "has 0 row(s)"));
  EXPECT_THROW(DriveCycle("T", {0, 1, 2}, {1, 2}), SizeMismatch);
  const std::string start = table_error({5, 6}, {1, 2}, "US06");
  EXPECT_TRUE(has(start, "drive cycle 'US06'")) << start;
  EXPECT_TRUE(has(start, "row 1: the first time is 5; allowed: 0")) << start;
  const std::string order = table_error({0, 1, 1, 2}, {0, 0, 0, 0});
  EXPECT_TRUE(has(order, "row 3: the time 1 is not after row 2's (1)")) << order;
  EXPECT_TRUE(has(table_error({0, 2, 1}, {0, 0, 0}), "row 3: the time 1 is not after row 2's (2)"));
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  EXPECT_TRUE(has(table_error({0, 1, inf}, {0, 0, 0}), "row 3: the time is inf"))
      << table_error({0, 1, inf}, {0, 0, 0});
  EXPECT_TRUE(has(table_error({0, 1}, {0, nan}), "row 2: the value is nan"));
  EXPECT_TRUE(has(table_error({0, nan}, {0, 0}), "row 2: the time is nan"));
  EXPECT_TRUE(has(table_error({0, 1}, {0, 1}, ""), "the name is empty"));
  EXPECT_TRUE(has(table_error({0, 1}, {0, 1}, "US 06"), "holds a space"));
}

TEST(Experiment, RunStepsFollowATable) {
  const DriveCycles tables{{"US06", ramp()}, {"wltc", ramp("wltc")}};
  const ExperimentStep a = parse_experiment_step("Run US06 (A)", 1, tables);
  EXPECT_EQ(a.mode, StepMode::current);
  EXPECT_EQ(a.drive_cycle, tables.at("US06"));
  EXPECT_EQ(*a.duration_s, 300.0);
  EXPECT_FALSE(a.until_voltage_v);
  EXPECT_EQ(a.current.value, 0.0);  // the table drives it

  const ExperimentStep w = parse_experiment_step("run wltc (w) until 2.5 V", 1, tables);  // keywords in any case
  EXPECT_EQ(w.mode, StepMode::power);
  EXPECT_EQ(w.drive_cycle, tables.at("wltc"));
  EXPECT_EQ(*w.duration_s, 300.0);
  EXPECT_EQ(*w.until_voltage_v, 2.5);
  EXPECT_EQ(w.power_w, 0.0);

  const ExperimentStep f = parse_experiment_step("Run US06 (W) for 2 minutes or until 3 V", 1, tables);
  EXPECT_EQ(*f.duration_s, 120.0);
  EXPECT_EQ(*f.until_voltage_v, 3.0);
  EXPECT_EQ(*parse_experiment_step("Run US06 (A) for 5 minutes", 1, tables).duration_s, 300.0);  // the whole table
  EXPECT_EQ(*parse_experiment_step("Run US06 (A) for 10 s", 1, tables).duration_s, 10.0);

  // Other steps have no table; tables are shared, not copied.
  const Experiment e({"Rest for 1 minute", "Run US06 (A) until 2.5 V", "Discharge at 12 W until 2.5 V"}, 2, tables);
  EXPECT_FALSE(e.step(0).drive_cycle);
  EXPECT_EQ(e.step(1).drive_cycle.get(), tables.at("US06").get());
  EXPECT_FALSE(e.step(2).drive_cycle);
  EXPECT_EQ(e.step(2).mode, StepMode::power);
  EXPECT_EQ(e.step(2).power_w, 12.0);
  EXPECT_EQ(e.total_steps(), 6u);
}

// A table's rows obey the limits of a step's own numbers (issue 34: a table
// of 1e300 A failed in Newton with exit 3, one ending at 1e300 s ran
// forever): refused where the step names it, with the table's row.
TEST(Experiment, RunStepsRefuseTablesOutsideTheStepLimits) {
  const auto table = [](std::vector<double> t, std::vector<double> v) {
    return DriveCycles{{"trips", std::make_shared<const DriveCycle>("trips", std::move(t), std::move(v))}};
  };
  const ExperimentError amps = run_error("Run trips (A)", table({0, 1, 2}, {1, -1e300, 1}));
  EXPECT_TRUE(has(amps.what(), "drive cycle 'trips' row 2: the value -1e+300 A is out of range: at most 1e+06 A"))
      << amps.what();
  EXPECT_EQ(amps.column(), 11u);  // the table's kind, '(A)'
  const ExperimentError watts = run_error("Run trips (W)", table({0, 1}, {2e9, 1}));
  EXPECT_TRUE(has(watts.what(), "row 1: the value 2e+09 W is out of range: at most 1e+09 W either way"))
      << watts.what();
  const ExperimentError endless = run_error("Run trips (A) until 2.5 V", table({0, 1, 1e300}, {1, 1, 1}));
  EXPECT_TRUE(has(endless.what(), "row 3: the time 1e+300 s is out of range: at most 1e+09 s")) << endless.what();
  // At the limits: accepted (2e6 W is a power, not a current).
  EXPECT_NO_THROW(parse_experiment_step("Run trips (A)", 1, table({0, 1e9}, {1e6, -1e6})));
  EXPECT_NO_THROW(parse_experiment_step("Run trips (W)", 1, table({0, 1}, {2e6, 1})));
}

// No step is endless (issue 34): one without "for" lasts at most PyBaMM's
// default, 2 / |C| hours at a C-rate, a day otherwise, within the duration limit.
TEST(Experiment, AStepWithoutForHasPyBammsDefaultDuration) {
  const auto step = [](const std::string& text) { return parse_experiment_step(text, 1); };
  const ExperimentStep one_c = step("Discharge at 1C until 2.5 V");
  EXPECT_EQ(*one_c.duration_s, 7200.0);
  EXPECT_TRUE(one_c.default_duration);
  EXPECT_EQ(*step("Charge at C/20 until 4.2 V").duration_s, 40.0 * 3600.0);
  EXPECT_EQ(*step("Discharge at 2 A until 2.5 V").duration_s, 86400.0);
  EXPECT_EQ(*step("Discharge at 1e-300 A until 2.5 V").duration_s, 86400.0);
  EXPECT_EQ(*step("Discharge at 10 W until 2.5 V").duration_s, 86400.0);
  EXPECT_EQ(*step("Hold at 4.1 V until 1e-300 A").duration_s, 86400.0);
  EXPECT_EQ(*step("Discharge at 1e-300C until 2.5 V").duration_s, kStepLimits.duration.max);
  const ExperimentStep given = step("Discharge at 1C for 10 minutes or until 2.5 V");
  EXPECT_EQ(*given.duration_s, 600.0);
  EXPECT_FALSE(given.default_duration);
  EXPECT_FALSE(parse_experiment_step("Run US06 (A) until 2.5 V", 1, {{"US06", ramp()}}).default_duration);
}

TEST(Experiment, RunStepErrorsSayWhichColumn) {
  const DriveCycles tables{{"US06", ramp()}, {"pulses", ramp("pulses")}};
  const ExperimentError unknown = run_error("Run US07 (A)", tables);
  EXPECT_EQ(unknown.step_index(), 3u);
  EXPECT_EQ(unknown.column(), 5u);
  EXPECT_TRUE(has(unknown.what(), "unknown drive cycle 'US07'; known: 'US06', 'pulses'")) << unknown.what();
  const ExperimentError cased = run_error("Run us06 (A)", tables);  // names are case-sensitive
  EXPECT_TRUE(has(cased.what(), "did you mean 'US06'? (names are case-sensitive)")) << cased.what();
  const ExperimentError none = run_error("Run US06 (A)", {});
  EXPECT_TRUE(has(none.what(), "unknown drive cycle 'US06': no tables are given")) << none.what();
  EXPECT_THROW(Experiment({"Run US06 (A)"}), ExperimentError);

  const ExperimentError kind = run_error("Run US06 A", tables);
  EXPECT_EQ(kind.column(), 10u);
  EXPECT_TRUE(has(kind.what(), "expected '(A)' (a current table) or '(W)' (a power table), got 'A'")) << kind.what();
  EXPECT_TRUE(has(run_error("Run US06 (V)", tables).what(), "voltage drive cycles '(V)' are not supported"));
  EXPECT_TRUE(has(run_error("Run US06", tables).what(), "step ends where '(A)'"));
  EXPECT_TRUE(has(run_error("Run", tables).what(), "step ends where a drive cycle's name"));

  const ExperimentError longer = run_error("Run US06 (A) for 10 minutes or until 3 V", tables);
  EXPECT_EQ(longer.column(), 18u);
  EXPECT_TRUE(has(longer.what(), "the duration 600 s is longer than drive cycle 'US06' (300 s)")) << longer.what();
  EXPECT_TRUE(has(run_error("Run US06 (A) until 3 A", tables).what(), "expected a voltage"));
  EXPECT_TRUE(has(run_error("Run US06 (A) or until 3 V", tables).what(), "expected 'until', got 'or'"));
  EXPECT_TRUE(has(run_error("Run US06 (A) until 3 V please", tables).what(), "unexpected 'please'"));
  const DriveCycles null_table{{"US06", nullptr}};
  EXPECT_TRUE(has(run_error("Run US06 (A)", null_table).what(), "null table"));
}
