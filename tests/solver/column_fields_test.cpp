// The column fields of a 3D cell (maps over the electrode plane, one value
// per in-plane column): stored and streamed with nx ny values each, the
// current density integrating to the cell current, the stoichiometry and
// temperature maps agreeing with the state they summarise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/field_catalog.hpp"
#include "voltaic/solver/particle_step.hpp"
#include "voltaic/solver/potential_step.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

const char* const kNegativeFoil = "Negative current collector potential [V]";
const char* const kPositiveFoil = "Positive current collector potential [V]";
const char* const kCurrentDensity = "Current collector current density [A.m-2]";
const char* const kStoichiometry = "Negative electrode stoichiometry";
const char* const kColumnTemperature = "Column-averaged cell temperature [K]";
constexpr double kPi = 3.14159265358979323846;

/// Chen2020 on 6 + 4 + 6 z-cells, 6 shells, 3 x 4 columns, with heat conduction.
SimulationOptions pouch() {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 3, 4};
  o.thermal = ThermalModel::conduction;
  return o;
}

/// Keeps the first checkpoint offered at `at` seconds (a field time).
class CheckpointAt : public RunObserver {
 public:
  explicit CheckpointAt(double at) : at_(at) {}
  bool checkpoint_due(double time) override { return !kept && std::fabs(time - at_) < 1e-9; }
  void on_checkpoint(const Checkpoint& c) override { kept = std::make_unique<Checkpoint>(c); }
  std::unique_ptr<Checkpoint> kept;

 private:
  double at_;
};

double sum(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return s;
}

TEST(ColumnFields, TheCatalogSaysWhereEachFieldLives) {
  const std::size_t columns = 5;
  std::size_t seen = 0;
  for (const FieldInfo& f : field_catalog()) {
    if (f.kind == FieldKind::column) ++seen;
    if (f.key == "particle_surface_concentration") {
      EXPECT_EQ(f.kind, FieldKind::particle);
    }
    if (f.key == "temperature") {
      EXPECT_EQ(f.kind, FieldKind::cell);
    }
  }
  EXPECT_EQ(seen, columns);
  for (const char* key : {"negative_collector_potential", "positive_collector_potential", "collector_current_density",
                          "negative_stoichiometry", "column_temperature"}) {
    const FieldInfo* f = find_field(key);
    ASSERT_NE(f, nullptr) << key;
    EXPECT_EQ(f->kind, FieldKind::column) << key;
  }
  EXPECT_EQ(find_field("collector_current_density")->name, kCurrentDensity);
  EXPECT_EQ(find_field("collector_current_density")->unit, "A.m-2");
}

// Under current control: every column field has nx ny values; the foils sit
// at 0 V and at the terminal voltage; the current density, summed over the
// columns' faces, is the applied current.
TEST(ColumnFields, CurrentControlStoresMapsThatCarryTheCellCurrent) {
  SimulationOptions o = pouch();
  o.field_times = {0.0, 120.0, 300.0};
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 1C for 5 minutes"}));
  ASSERT_TRUE(s.completed) << s.termination;
  ASSERT_EQ(s.fields.size(), 3u);
  const CellMap& map = sim.layout().constants().map;
  const std::size_t columns = 12;
  ASSERT_EQ(map.layer, columns);
  const double current = sim.layout().parameters().electrical.nominal_capacity;  // 1C
  for (const FieldSnapshot& f : s.fields) {
    for (const FieldInfo& info : field_catalog()) {
      if (info.kind != FieldKind::column) continue;
      const std::vector<double>& v = f.fields.at(info.name);
      ASSERT_EQ(v.size(), columns) << info.name;
      for (double x : v) EXPECT_TRUE(std::isfinite(x)) << info.name << " at t = " << f.time;
    }
    const double voltage = s.at("Voltage [V]", f.time);
    for (std::size_t c = 0; c < columns; ++c) {
      EXPECT_EQ(f.fields.at(kNegativeFoil)[c], 0.0);
      EXPECT_NEAR(f.fields.at(kPositiveFoil)[c], voltage, 1e-12) << "t = " << f.time;
    }
    EXPECT_NEAR(sum(f.fields.at(kCurrentDensity)) * map.face_area, current, 1e-12 * current) << "t = " << f.time;
    for (double x : f.fields.at(kCurrentDensity)) EXPECT_GT(x, 0.0);  // discharge
  }
  // The cell discharges: the negative electrode loses lithium in every column.
  for (std::size_t c = 0; c < columns; ++c)
    EXPECT_LT(s.fields[2].fields.at(kStoichiometry)[c], s.fields[0].fields.at(kStoichiometry)[c]);
}

// Under a voltage hold the current density is the Dirichlet face's, and its
// sum is the cell current the reactions carry.
TEST(ColumnFields, VoltageHoldCurrentDensityIsTheReactionCurrent) {
  SimulationOptions o = pouch();
  o.field_times = {200.0, 280.0};
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  const Solution s = sim.run(Experiment({"Discharge at 1C for 2 minutes", "Hold at 3.9 V for 3 minutes"}));
  ASSERT_TRUE(s.completed) << s.termination;
  ASSERT_EQ(s.fields.size(), 2u);
  const CellMap& map = sim.layout().constants().map;
  for (const FieldSnapshot& f : s.fields) {
    const double current = s.at("Current [A]", f.time);  // the negative electrode's reaction current
    ASSERT_GT(std::fabs(current), 0.05);
    EXPECT_NEAR(sum(f.fields.at(kCurrentDensity)) * map.face_area, current, 1e-9 * std::fabs(current))
        << "t = " << f.time;
    for (double v : f.fields.at(kPositiveFoil)) EXPECT_EQ(v, 3.9);
    for (double v : f.fields.at(kNegativeFoil)) EXPECT_EQ(v, 0.0);
  }
}

// The stoichiometry map is the mean lithium stoichiometry of each column's
// negative particles (from the particle state of a checkpoint taken at the
// field time), the temperature map each column's thickness-weighted mean.
TEST(ColumnFields, StoichiometryAndTemperatureMapsSummariseTheState) {
  SimulationOptions o = pouch();
  const double at = 240.0;
  o.field_times = {at};
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  CheckpointAt observer(at);
  const Solution s = sim.run(Experiment({"Discharge at 2C for 5 minutes"}), &observer);
  ASSERT_TRUE(s.completed) << s.termination;
  ASSERT_TRUE(observer.kept);
  ASSERT_EQ(s.fields.size(), 1u);
  ASSERT_NEAR(s.fields[0].time, at, 1e-9);

  const CellLayout& l = sim.layout();
  const DfnConstants& k = l.host_constants();
  const std::size_t layer = k.map.layer, np = l.num_particles();
  const auto exec = CpuExecutor::create();
  const std::vector<double> radii = l.particle_radii().to_host();
  const Array<double> radius = Array<double>::from_host(exec, radii);
  const Array<double> c_s = Array<double>::from_host(exec, observer.kept->arrays.at("state/c_s"));
  ParticleDiffusion<double> particles(exec, o.grid.radial_shells, radius.view());
  Array<double> lithium(exec, np);
  particles.lithium(c_s.view(), lithium.view());
  const std::vector<double> li = lithium.to_host();
  const double c_max = l.parameters().negative_electrode.maximum_concentration;

  const std::vector<double>& map = s.fields[0].fields.at(kStoichiometry);
  const std::vector<double>& temperature = s.fields[0].fields.at("Cell temperature [K]");
  const std::vector<double>& column_t = s.fields[0].fields.at(kColumnTemperature);
  ASSERT_EQ(map.size(), layer);
  ASSERT_EQ(column_t.size(), layer);
  double lo = 1.0, hi = 0.0;
  for (std::size_t col = 0; col < layer; ++col) {
    // The negative electrode's z-cells are equally thick: a plain mean of its particles' stoichiometry.
    double sto = 0.0;
    int cells = 0;
    for (std::size_t c = col; c < k.map.negative_end; c += layer, ++cells) {
      const double r = radii[k.map.particle_of_cell(c)];
      sto += li[k.map.particle_of_cell(c)] / (4.0 / 3.0 * kPi * r * r * r) / c_max;
    }
    EXPECT_EQ(cells, o.grid.negative_cells);
    EXPECT_NEAR(map[col], sto / cells, 1e-12) << "column " << col;
    lo = std::min(lo, map[col]);
    hi = std::max(hi, map[col]);

    double weighted = 0.0, thickness = 0.0;
    for (std::size_t c = col; c < k.map.cells; c += layer) {
      const double dz = l.grid()->dz()[c / layer];
      weighted += temperature[c] * dz;
      thickness += dz;
    }
    EXPECT_NEAR(column_t[col], weighted / thickness, 1e-9) << "column " << col;
  }
  EXPECT_GT(lo, 0.0);
  EXPECT_LT(hi, 1.0);
}

/// Collects streamed frames (on the output thread).
class Collector : public RunObserver {
 public:
  explicit Collector(std::vector<std::size_t> sizes) : sizes_(std::move(sizes)) {}
  std::vector<std::string> streamed_fields() const override {
    return {"collector_current_density", "temperature", "negative_stoichiometry", "positive_collector_potential"};
  }
  void on_fields(double time, const std::vector<const double*>& data) override {
    std::lock_guard<std::mutex> lock(mutex_);
    times.push_back(time);
    frames.emplace_back();
    for (std::size_t f = 0; f < data.size(); ++f) frames.back().emplace_back(data[f], data[f] + sizes_[f]);
  }
  std::vector<double> times;
  std::vector<std::vector<std::vector<double>>> frames;

 private:
  std::vector<std::size_t> sizes_;
  std::mutex mutex_;
};

// Streamed column fields (nx ny values each, beside per-cell ones) are the
// stored snapshot's, bit for bit.
TEST(ColumnFields, StreamedMapsMatchStoredSnapshots) {
  SimulationOptions o = pouch();
  o.field_period = 100.0;
  const Experiment discharge({"Discharge at 1C for 4 minutes"});
  Simulation stored(parameter_sets::chen2020(), o, CpuExecutor::create());
  const Solution s = stored.run(discharge);
  Simulation streamed(parameter_sets::chen2020(), o, CpuExecutor::create());
  const std::size_t layer = 12, cells = streamed.layout().num_cells();
  Collector observer({layer, cells, layer, layer});
  const Solution t = streamed.run(discharge, &observer);
  ASSERT_TRUE(t.completed) << t.termination;
  ASSERT_EQ(observer.times.size(), s.fields.size());
  const char* names[] = {kCurrentDensity, "Cell temperature [K]", kStoichiometry, kPositiveFoil};
  for (std::size_t f = 0; f < s.fields.size(); ++f) {
    EXPECT_EQ(observer.times[f], s.fields[f].time);
    for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(observer.frames[f][k], s.fields[f].fields.at(names[k])) << names[k];
  }
}

// On a GPU: the maps of a discharge and a voltage hold are the CPU's (to the
// rounding of the solves), and the streamed ones the stored ones, bit for bit.
TEST(ColumnFieldsCuda, MapsMatchTheCpuAndStreamThroughPinnedMemory) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA column fields test skipped";
  SimulationOptions o = pouch();
  o.field_times = {60.0, 150.0, 170.0};
  const Experiment experiment({"Discharge at 1C for 2 minutes", "Hold at 3.9 V for 1 minute"});
  Simulation cpu(parameter_sets::chen2020(), o, CpuExecutor::create());
  Simulation stored(parameter_sets::chen2020(), o, gpu);
  const Solution a = cpu.run(experiment), b = stored.run(experiment);
  ASSERT_TRUE(a.completed) << a.termination;
  ASSERT_TRUE(b.completed) << b.termination;
  ASSERT_EQ(a.fields.size(), 3u);
  ASSERT_EQ(b.fields.size(), 3u);
  for (std::size_t f = 0; f < 3; ++f) {
    for (const FieldInfo& info : field_catalog()) {
      if (info.kind != FieldKind::column) continue;
      const std::vector<double>&x = a.fields[f].fields.at(info.name), &y = b.fields[f].fields.at(info.name);
      ASSERT_EQ(x.size(), y.size()) << info.name;
      for (std::size_t c = 0; c < x.size(); ++c)
        EXPECT_NEAR(y[c], x[c], 1e-6 * std::fabs(x[c]) + 1e-12)
            << info.name << ", column " << c << ", t = " << a.fields[f].time;
    }
  }
  Simulation streamed(parameter_sets::chen2020(), o, gpu);
  const std::size_t layer = 12, cells = streamed.layout().num_cells();
  Collector observer({layer, cells, layer, layer});
  ASSERT_TRUE(streamed.run(experiment, &observer).completed);
  ASSERT_EQ(observer.frames.size(), b.fields.size());
  const char* names[] = {kCurrentDensity, "Cell temperature [K]", kStoichiometry, kPositiveFoil};
  for (std::size_t f = 0; f < b.fields.size(); ++f)
    for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(observer.frames[f][k], b.fields[f].fields.at(names[k])) << names[k];
}

TEST(ColumnFields, CollectorFieldsChecksItsArguments) {
  SimulationOptions o = pouch();
  auto layout = std::make_shared<const CellLayout>(parameter_sets::chen2020(), o.grid, CpuExecutor::create());
  const PotentialStep step(layout);
  const auto& exec = layout->executor();
  const std::size_t n = layout->num_cells(), layer = 12;
  Array<double> phi(exec, 2 * n + 2 * layer), out(exec, 3 * layer);
  fill(*exec, phi.view(), 0.0);
  // A longer phi (the foils' potentials after the cells') is fine; a shorter one is not.
  EXPECT_NO_THROW(step.collector_fields(CellDrive::current(5.0), phi.const_view(), out.view()));
  const std::vector<double> v = out.to_host();
  for (std::size_t c = 0; c < layer; ++c) {
    EXPECT_EQ(v[c], 0.0);
    EXPECT_NEAR(v[2 * layer + c], 5.0 / layout->electrode_area(), 1e-12);
  }
  EXPECT_THROW(step.collector_fields(CellDrive::current(5.0), phi.const_view().subview(0, 2 * n - 1), out.view()),
               SizeMismatch);
  EXPECT_THROW(step.collector_fields(CellDrive::current(5.0), phi.const_view(), out.view().subview(0, 2 * layer)),
               SizeMismatch);
}

}  // namespace
}  // namespace voltaic
