// Experiment steps in PyBaMM's wording, and the errors for steps that do not parse.
#include "voltaic/solver/experiment.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace voltaic;

TEST(Experiment, ParsesPyBaMMWording) {
  const ExperimentStep d = parse_experiment_step("Discharge at 1C until 2.5 V");
  EXPECT_EQ(d.mode, StepMode::current);
  EXPECT_TRUE(d.current.c_rate);
  EXPECT_DOUBLE_EQ(d.current.value, 1.0);
  EXPECT_DOUBLE_EQ(d.current.amperes(5.0), 5.0);
  EXPECT_DOUBLE_EQ(*d.until_voltage_v, 2.5);
  EXPECT_FALSE(d.duration_s);

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
