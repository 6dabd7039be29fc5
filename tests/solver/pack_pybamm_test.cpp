// A 2p2s pack of unlike cells through 5 minutes at 1C and a drive profile,
// against PyBaMM DFN cells wired by the same circuit and stepped through it
// at 0.2 s with the circuit solved at every step (tools/pybamm_pack_reference.py,
// tests/data/pack/pybamm_2p2s_drive.csv): the cells' currents within 1 % RMS
// of the reference's and the pack's voltage within 2 mV RMS (issue 33's bar).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/drive_cycle.hpp"
#include "voltaic/solver/pack.hpp"

#ifndef VOLTAIC_TEST_DATA_DIR
#error "VOLTAIC_TEST_DATA_DIR must point to tests/data"
#endif

namespace voltaic {
namespace {

struct Reference {
  std::vector<double> thickness, radius, connection;
  double busbar = 0.0;
  std::vector<std::vector<double>> rows;  ///< time, pack current, pack voltage, I0..I3, V0..V3
};

std::vector<double> numbers_after(const std::string& line, const std::string& label) {
  std::vector<double> out;
  std::istringstream in(line.substr(line.find(label) + label.size()));
  for (double x; in >> x;) out.push_back(x);
  return out;
}

Reference read_reference() {
  std::ifstream f(std::string(VOLTAIC_TEST_DATA_DIR) + "/pack/pybamm_2p2s_drive.csv");
  Reference r;
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("# thickness [m]:", 0) == 0) r.thickness = numbers_after(line, ":");
    if (line.rfind("# radius [m]:", 0) == 0) r.radius = numbers_after(line, ":");
    if (line.rfind("# connection [Ohm]:", 0) == 0) {
      const std::string head = line.substr(0, line.find(';'));
      r.connection = numbers_after(head, ":");
      r.busbar = numbers_after(line.substr(line.find(';')), ":").at(0);
    }
    if (line.empty() || line[0] == '#' || line[0] == 'T') continue;
    std::vector<double> row;
    std::istringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) row.push_back(std::stod(cell));
    r.rows.push_back(row);
  }
  return r;
}

/// Linear interpolation of values[row * stride + column] over `time` at t.
double at(const std::vector<double>& time, const std::vector<double>& values, std::size_t stride, std::size_t column,
          double t) {
  std::size_t i = 1;
  while (i + 1 < time.size() && time[i] < t) ++i;
  const double w = (t - time[i - 1]) / (time[i] - time[i - 1]);
  return values[(i - 1) * stride + column] + w * (values[i * stride + column] - values[(i - 1) * stride + column]);
}

TEST(PackPybamm, TwoByTwoPackThroughADriveProfileMatchesPyBaMM) {
  const Reference ref = read_reference();
  ASSERT_EQ(ref.thickness.size(), 4u);
  ASSERT_EQ(ref.radius.size(), 4u);
  ASSERT_EQ(ref.connection.size(), 4u);
  ASSERT_GT(ref.rows.size(), 300u);
  CellParameters cells{{"Negative electrode thickness [m]", "Positive particle radius [m]"}, {}};
  for (std::size_t k = 0; k < 4; ++k) {
    cells.values.push_back(ref.thickness[k]);
    cells.values.push_back(ref.radius[k]);
  }
  PackLayout l;
  l.parallel = 2;
  l.series = 2;
  l.connection_resistances = ref.connection;
  l.busbar_resistance = ref.busbar;
  PackOptions o;
  o.cell.thermal = ThermalModel::lumped;
  std::vector<double> t, amps;
  for (const auto& row : ref.rows) {
    t.push_back(row[0]);
    amps.push_back(row[1]);
  }
  DriveCycles cycles;
  cycles["profile"] = std::make_shared<const DriveCycle>(DriveCycle("profile", t, amps));
  const PackSolution p = PackSimulation(parameter_sets::chen2020(), cells, l, o, CpuExecutor::create())
                             .run(Experiment({"Run profile (A)"}, 1, cycles));
  ASSERT_TRUE(p.completed) << p.termination;
  double di2 = 0.0, i2 = 0.0, dv2 = 0.0;
  for (const auto& row : ref.rows) {
    dv2 += std::pow(at(p.time, p.voltage, 1, 0, row[0]) - row[2], 2);
    for (std::size_t k = 0; k < 4; ++k) {
      di2 += std::pow(at(p.time, p.cell_current, 4, k, row[0]) - row[3 + k], 2);
      i2 += row[3 + k] * row[3 + k];
    }
  }
  const double current_rms = std::sqrt(di2 / i2), voltage_rms = std::sqrt(dv2 / double(ref.rows.size()));
  RecordProperty("current_rms_relative", std::to_string(current_rms));
  RecordProperty("voltage_rms_v", std::to_string(voltage_rms));
  EXPECT_LT(current_rms, 0.01);
  EXPECT_LT(voltage_rms, 2e-3);
  std::printf("cells' currents %.3g RMS of the reference's, the pack's voltage %.3g mV RMS from it\n", current_rms,
              1e3 * voltage_rms);
}

}  // namespace
}  // namespace voltaic
