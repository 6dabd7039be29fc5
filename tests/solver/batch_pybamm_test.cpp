// Five random cells of a Latin-hypercube-like sweep (tests/data/pybamm/sweep,
// written by tools/pybamm_sweep.py: five Chen2020 parameters within +-20 %),
// run as one BatchSimulation on PyBaMM's mesh with the lumped thermal model,
// against PyBaMM's DFN: voltage within 2 mV RMS, capacity and final
// temperature close.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pybamm_curves.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic {
namespace {

/// cells.csv: a `cell` column, then one column per parameter (PyBaMM's names).
CellParameters read_cells(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  CellParameters cells;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream fields(line);
    std::string field;
    std::getline(fields, field, ',');  // the cell index
    while (std::getline(fields, field, ',')) {
      if (header)
        cells.names.push_back(field);
      else
        cells.values.push_back(std::stod(field));
    }
    header = false;
  }
  return cells;
}

TEST(BatchVersusPybamm, FiveCellsOfASweepWithinTwoMillivolts) {
  const CellParameters cells = read_cells(std::string(VOLTAIC_TEST_DATA_DIR) + "/pybamm/sweep/cells.csv");
  ASSERT_EQ(cells.num_cells(), 5u);
  ASSERT_EQ(cells.names.size(), 5u);
  SimulationOptions o;  // PyBaMM's mesh: 20 cells per region and shells per particle
  o.thermal = ThermalModel::lumped;
  o.potential.electrolyte_face_mean = FaceMean::arithmetic;  // PyBaMM's
  BatchSimulation batch(parameter_sets::chen2020(), cells, o, CpuExecutor::create(), {0, true});
  const std::vector<BatchCellResult> results = batch.run(Experiment({"Discharge at 1C until 2.5 V"}));
  for (std::size_t i = 0; i < results.size(); ++i) {
    const BatchCellResult& r = results[i];
    ASSERT_EQ(r.status, BatchCellResult::Status::completed) << "cell " << i << ": " << r.termination;
    const test::PybammCurve ref = test::read_pybamm_curve("sweep/cell_" + std::to_string(i));
    Solution ours;  // the batch's curves as a Solution, for its interpolation
    for (std::size_t k = 0; k < r.time.size(); ++k) {
      std::vector<double> row(Solution::variable_names().size(), 0.0);
      row[0] = r.time[k];
      row[1] = r.voltage[k];
      ours.append(row);
    }
    const test::CurveDifference d = test::voltage_difference(ours, ref);
    ASSERT_GT(d.points, 100u);
    EXPECT_LE(d.rms, 2e-3) << "cell " << i;
    EXPECT_LE(d.max, 10e-3) << "cell " << i;
    // The cut-off comes at the same time (the capacity at 1C) to 0.5 %.
    EXPECT_NEAR(r.simulated_time, ref["Time [s]"].back(), 0.005 * ref["Time [s]"].back()) << "cell " << i;
    EXPECT_NEAR(r.temperature.back(), ref["Volume-averaged cell temperature [K]"].back(), 0.2) << "cell " << i;
    RecordProperty("rms_mV_cell_" + std::to_string(i), std::to_string(1e3 * d.rms));
    std::printf("cell %zu: %.3f mV RMS, %.3f mV max, %d steps\n", i, 1e3 * d.rms, 1e3 * d.max, r.steps_taken);
  }
}

}  // namespace
}  // namespace voltaic
