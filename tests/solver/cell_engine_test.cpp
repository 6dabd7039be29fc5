// A 1D Simulation runs on the cell engine (src/solver/cell_engine.hpp); a
// plane of identical columns still runs on the field solvers. Both solve the
// same model, so a 1 x 2 plane of a cell must give the 1D cell's curve (each
// column carries half the current): this keeps the two implementations
// honest against each other now that no 1D cell runs through the field
// solvers. Measured when written: voltages 1.3e-9 and 3.5e-9 V apart, the
// fields within 2e-7 of their scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

SimulationOptions cell(int nx, int ny, ThermalModel thermal) {
  SimulationOptions o;
  o.grid = {10, 6, 10, 10, nx, ny};
  o.thermal = thermal;
  o.field_times = {600.0, 1800.0};
  return o;
}

/// The largest difference between the two runs' voltages at the 1D run's
/// times, within each experiment step (the other's curve of that step
/// linearly interpolated; a step's ends jump).
double max_voltage_gap(const Solution& a, const Solution& b) {
  const std::vector<double>&ta = a["Time [s]"], &va = a["Voltage [V]"], &sa = a["Step"];
  const std::vector<double>&tb = b["Time [s]"], &vb = b["Voltage [V]"], &sb = b["Step"];
  double gap = 0.0;
  for (std::size_t i = 0; i < ta.size(); ++i) {
    for (std::size_t j = 1; j < tb.size(); ++j) {
      if (sb[j] != sa[i] || sb[j - 1] != sa[i] || tb[j - 1] > ta[i] || tb[j] < ta[i] || tb[j] == tb[j - 1]) continue;
      const double w = (ta[i] - tb[j - 1]) / (tb[j] - tb[j - 1]);
      gap = std::max(gap, std::fabs(va[i] - (vb[j - 1] + w * (vb[j] - vb[j - 1]))));
      break;
    }
  }
  return gap;
}

void expect_engine_equals_field_solvers(const ParameterSet& p, ThermalModel thermal, const Experiment& e) {
  Simulation one(p, cell(1, 1, thermal), CpuExecutor::create());
  Simulation plane(p, cell(1, 2, thermal), CpuExecutor::create());
  const Solution a = one.run(e), b = plane.run(e);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(b.completed) << b.termination;
  EXPECT_EQ(a.termination, b.termination);
  EXPECT_NEAR(a["Time [s]"].back(), b["Time [s]"].back(), 1e-3);
  EXPECT_LE(max_voltage_gap(a, b), 2e-8);
  EXPECT_NEAR(a["Discharge capacity [A.h]"].back(), b["Discharge capacity [A.h]"].back(), 1e-6);
  EXPECT_NEAR(a["Volume-averaged cell temperature [K]"].back(), b["Volume-averaged cell temperature [K]"].back(), 1e-6);
  EXPECT_NEAR(one.lithium_inventory(), plane.lithium_inventory(), 1e-9 * one.lithium_inventory());
  // The fields at the same times: the 1D cell's against the plane's first column.
  ASSERT_EQ(a.fields.size(), 2u);
  ASSERT_EQ(b.fields.size(), 2u);
  for (std::size_t f = 0; f < 2; ++f) {
    EXPECT_EQ(a.fields[f].time, b.fields[f].time);
    for (const FieldInfo& info : field_catalog()) {
      const std::vector<double>&x = a.fields[f].fields.at(info.name), &y = b.fields[f].fields.at(info.name);
      ASSERT_EQ(2 * x.size(), y.size()) << info.name;
      double scale = 0.0, gap = 0.0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        scale = std::max(scale, std::fabs(x[i]));
        gap = std::max(gap, std::fabs(x[i] - y[2 * i]));
      }
      // The collector current density is per plane area: the same; the rest per cell.
      EXPECT_LE(gap, 1e-6 * std::max(scale, 1.0)) << info.name << " at " << a.fields[f].time << " s";
    }
  }
}

TEST(CellEngine, EqualsTheFieldSolversOnAPlaneOfIdenticalColumns) {
  expect_engine_equals_field_solvers(parameter_sets::chen2020(), ThermalModel::lumped,
                                     Experiment({"Discharge at 1C until 2.5 V"}));
}

TEST(CellEngine, EqualsTheFieldSolversThroughAHoldAndARest) {
  expect_engine_equals_field_solvers(parameter_sets::chen2020(), ThermalModel::isothermal,
                                     Experiment({"Discharge at 2C for 20 minutes", "Rest for 10 minutes",
                                                 "Charge at 1C until 4.2 V", "Hold at 4.2 V until C/20"}));
}

TEST(CellEngine, RefusesToTimeTheSubStepsOfA1dCell) {
  SimulationOptions o = cell(1, 1, ThermalModel::isothermal);
  o.time_substeps = true;
  try {
    Simulation(parameter_sets::chen2020(), o, CpuExecutor::create());
    FAIL() << "time_substeps on a 1D cell was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("time_substeps"), std::string::npos) << e.what();
  }
  o.grid.ny = 2;  // the field solvers time theirs
  EXPECT_NO_THROW(Simulation(parameter_sets::chen2020(), o, CpuExecutor::create()));
}

}  // namespace
}  // namespace voltaic
