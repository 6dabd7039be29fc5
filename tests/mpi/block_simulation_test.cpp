// A 3D cell whose plane is cut over the ranks (ctest runs this on 1, 2 and
// 4 ranks): its time series and fields have the bits of the one-block run
// of the same cell, and that run is the serial Simulation's to rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "voltaic/io/checkpoint_pieces.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/mpi/block_decomposition.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic::mpi {
namespace {

struct Case {
  const char* name;
  ParameterSet parameters;
  CurrentCollectorModel collectors;
  ThermalModel thermal;
  std::vector<std::string> steps;
  int nx = 12, ny = 10;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// 12 x 10 columns: tiles of 8 give 2 x 2 tiles, so 4 ranks each own one.
// The wide case's 36 x 32 columns are more than kPlaneFusedCells: its plane
// V-cycles are cut over the ranks on their finest level (CutPlaneMultigrid).
constexpr int kTile = 8;

SimulationOptions options(const Case& c) {
  SimulationOptions o;
  o.grid = {3, 2, 3, 5, c.nx, c.ny, c.collectors};
  o.thermal = c.thermal;
  o.field_times = {0.0, 200.0};
  return o;
}

Solution run(const ParameterSet& p, const std::shared_ptr<const BlockDecomposition>& cut, const SimulationOptions& o,
             const Experiment& experiment) {
  Simulation sim(p, o, CpuExecutor::create(), cut);
  return sim.run(experiment);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

/// Values of the fields (the whole cell's on every rank) whose bits differ.
std::size_t differing_field_bits(const FieldSnapshot& a, const FieldSnapshot& b) {
  std::size_t differ = 0;
  for (const auto& [name, values] : a.fields) {
    const std::vector<double>& other = b.fields.at(name);
    EXPECT_EQ(values.size(), other.size()) << name;
    for (std::size_t c = 0; c < std::min(values.size(), other.size()); ++c)
      if (!same_bits(values[c], other[c])) ++differ;
  }
  return differ;
}

void expect_one_block_bits(const Solution& cut, const Solution& one, const BlockDecomposition& d) {
  ASSERT_EQ(cut.rows(), one.rows());
  std::size_t differ = 0;
  for (const std::string& name : Solution::variable_names())
    for (std::size_t r = 0; r < cut.rows(); ++r)
      if (!same_bits(cut[name][r], one[name][r])) ++differ;
  EXPECT_EQ(differ, 0u) << "values of the time series differ on rank " << d.communicator().rank() << " of "
                        << d.communicator().size();
  ASSERT_EQ(cut.fields.size(), one.fields.size());
  for (std::size_t f = 0; f < cut.fields.size(); ++f)
    EXPECT_EQ(differing_field_bits(cut.fields[f], one.fields[f]), 0u) << "fields at t = " << cut.fields[f].time;
}

class BlockSimulation : public ::testing::TestWithParam<Case> {};

TEST_P(BlockSimulation, EveryCutGivesTheOneBlockBitsAndTheSerialCurve) {
  const Communicator world, self(MPI_COMM_SELF);
  const Case& c = GetParam();
  const SimulationOptions o = options(c);
  const Experiment experiment(c.steps);
  const auto many = BlockDecomposition::over(world, o.grid.nx, o.grid.ny, kTile);
  const auto one = std::make_shared<const BlockDecomposition>(self, PlanePartition(o.grid.nx, o.grid.ny, 1, 1, kTile));
  const Solution cut = run(c.parameters, many, o, experiment), alone = run(c.parameters, one, o, experiment);
  ASSERT_TRUE(cut.completed) << cut.termination;
  expect_one_block_bits(cut, alone, *many);

  // The one-block run is the serial Simulation's, up to the order of its sums
  // (checked once: every rank's one-block run is the same).
  if (world.rank() != 0) return;
  Simulation serial(c.parameters, o, CpuExecutor::create());
  const Solution s = serial.run(experiment);
  ASSERT_TRUE(s.completed);
  const auto last = [](const Solution& x, const char* name) { return x[name].back(); };
  EXPECT_EQ(last(s, "Time [s]"), last(alone, "Time [s]"));
  EXPECT_NEAR(last(s, "Voltage [V]"), last(alone, "Voltage [V]"), 1e-6);
  EXPECT_NEAR(last(s, "Current [A]"), last(alone, "Current [A]"), 1e-6);
  EXPECT_NEAR(last(s, "Discharge capacity [A.h]"), last(alone, "Discharge capacity [A.h]"), 1e-8);
}

const std::vector<Case>& cases() {
  const ParameterSet chen = parameter_sets::chen2020(), marquis = parameter_sets::marquis2019();
  const auto uniform = CurrentCollectorModel::uniform, pair = CurrentCollectorModel::potential_pair;
  const std::vector<std::string> hold = {"Discharge at 2C for 3 minutes", "Hold at 3.8 V for 1 minute"};
  const std::vector<std::string> rest = {"Discharge at 1C for 4 minutes", "Rest for 1 minute"};
  static const std::vector<Case> all = {
      {"UniformIsothermalWithHold", chen, uniform, ThermalModel::isothermal, hold},
      {"UniformLumped", chen, uniform, ThermalModel::lumped, rest},
      {"UniformConduction", chen, uniform, ThermalModel::conduction, rest},
      {"PouchIsothermalWithHold", marquis, pair, ThermalModel::isothermal, hold},
      {"PouchLumped", marquis, pair, ThermalModel::lumped, rest},
      {"PouchConductionWithHold", marquis, pair, ThermalModel::conduction, hold},
      {"WidePouchConductionWithHold",
       marquis,
       pair,
       ThermalModel::conduction,
       {"Discharge at 2C for 1 minute", "Hold at 3.8 V for 30 seconds"},
       36,
       32},
  };
  return all;
}

// The potential pair's tabs and the 3D heat step's cooled edges make the
// plane non-uniform: the exchanges and the gathered V-cycles matter there.
INSTANTIATE_TEST_SUITE_P(Cells, BlockSimulation, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

/// The options of the restart tests: a frame every minute.
SimulationOptions restart_options(const Case& c) {
  SimulationOptions o = options(c);
  o.field_times = {};
  o.field_period = 60.0;
  return o;
}

/// Keeps the checkpoint taken at `at` and every streamed frame.
class Recorder : public RunObserver {
 public:
  explicit Recorder(double at) : at_(at) {}
  bool checkpoint_due(double time) override { return !kept && time >= at_; }
  void on_checkpoint(const Checkpoint& c) override { kept = std::make_unique<Checkpoint>(c); }
  std::vector<std::string> streamed_fields() const override { return {"temperature", "negative_stoichiometry"}; }
  void on_fields(double, const std::vector<const double*>& data) override {
    frames.push_back({std::vector<double>(data[0], data[0] + cells), std::vector<double>(data[1], data[1] + columns)});
  }
  std::unique_ptr<Checkpoint> kept;
  std::vector<std::array<std::vector<double>, 2>> frames;
  std::size_t cells = 0, columns = 0;

 private:
  double at_;
};

// A checkpoint taken on every rank of the world restarts on half of them
// (on one where there are fewer than 4) and ends with the uninterrupted
// run's bits; the frames streamed are the whole cell's, the same on every cut.
TEST(BlockSimulation, ACheckpointRestartsOnAnotherNumberOfRanks) {
  const Communicator world;
  const Case& c = cases()[5];  // the pouch with 3D heat and a hold
  const SimulationOptions o = restart_options(c);
  const Experiment experiment(c.steps);
  const auto cut = BlockDecomposition::over(world, o.grid.nx, o.grid.ny, kTile);
  Recorder first(100.0);
  first.cells = std::size_t(o.grid.nx) * o.grid.ny * 8;
  first.columns = std::size_t(o.grid.nx) * o.grid.ny;
  Simulation whole_run(c.parameters, o, CpuExecutor::create(), cut);
  const Solution uninterrupted = whole_run.run(experiment, &first);
  ASSERT_TRUE(first.kept);

  // Half the ranks (world ranks 0, 1 and 2, 3 in two groups of 2; one rank alone below 4).
  const int group = world.size() >= 4 ? world.rank() / 2 : world.rank();
  MPI_Comm half_comm;
  MPI_Comm_split(world.get(), group, world.rank(), &half_comm);
  {
    const Communicator half(half_comm);
    const auto smaller = BlockDecomposition::over(half, o.grid.nx, o.grid.ny, kTile);
    Recorder second(1e9);
    second.cells = first.cells;
    second.columns = first.columns;
    Simulation resumed(c.parameters, o, CpuExecutor::create(), smaller);
    resumed.load_checkpoint(*first.kept, experiment);
    const Solution after = resumed.run(experiment, &second);
    ASSERT_EQ(after.rows(), uninterrupted.rows());
    std::size_t differ = 0;
    for (const std::string& name : Solution::variable_names())
      for (std::size_t r = 0; r < after.rows(); ++r)
        if (!same_bits(after[name][r], uninterrupted[name][r])) ++differ;
    EXPECT_EQ(differ, 0u) << "the restart on " << half.size() << " of " << world.size() << " ranks";
    // The frames after the checkpoint: the same bits as the uninterrupted run's last ones.
    ASSERT_LE(second.frames.size(), first.frames.size());
    ASSERT_FALSE(second.frames.empty());
    const std::size_t skip = first.frames.size() - second.frames.size();
    for (std::size_t f = 0; f < second.frames.size(); ++f)
      for (int k = 0; k < 2; ++k)
        EXPECT_EQ(second.frames[f][k], first.frames[skip + f][k]) << "frame " << f << " field " << k;
  }
  MPI_Comm_free(&half_comm);
}

/// The owned columns `b` of a whole-plane field of `layers` layers.
std::vector<double> owned_part(const std::vector<double>& whole, int nx, int ny, const PlaneBlock& b, int layers) {
  std::vector<double> v;
  for (int k = 0; k < layers; ++k)
    for (int j = b.j_begin; j < b.j_end; ++j)
      for (int i = b.i_begin; i < b.i_end; ++i) v.push_back(whole[std::size_t(i + nx * (j + ny * k))]);
  return v;
}

/// A Recorder that takes blocks: this rank's frames and checkpoint piece.
class BlockRecorder : public Recorder {
 public:
  using Recorder::Recorder;
  bool takes_blocks() const override { return true; }
};

// Each rank streams and checkpoints its own block (no rank holds a whole
// field): the frames are the owned part of the gathered ones, the rows the
// same bits; the pieces, written as files with a manifest, restart on half
// the ranks and on one block (io::read_checkpoint_for assembling each rank's
// block), ending with the uninterrupted run's bits, and in a serial run.
TEST(BlockSimulation, ACheckpointWrittenPerRankRestartsOnAnotherNumberOfRanks) {
  const Communicator world;
  const Case& c = cases()[5];  // the pouch with 3D heat and a hold
  const SimulationOptions o = restart_options(c);
  const Experiment experiment(c.steps);
  const int nx = o.grid.nx, ny = o.grid.ny, nz = 8;
  const auto cut = BlockDecomposition::over(world, nx, ny, kTile);
  const PlaneBlock& mine = cut->block();
  Recorder gathered(100.0);
  gathered.cells = std::size_t(nx) * ny * nz;
  gathered.columns = std::size_t(nx) * ny;
  const Solution uninterrupted = Simulation(c.parameters, o, CpuExecutor::create(), cut).run(experiment, &gathered);
  BlockRecorder pieces(100.0);
  pieces.cells = mine.columns() * nz;
  pieces.columns = mine.columns();
  const Solution blocked = Simulation(c.parameters, o, CpuExecutor::create(), cut).run(experiment, &pieces);
  ASSERT_EQ(blocked.rows(), uninterrupted.rows());
  for (const std::string& name : Solution::variable_names())
    for (std::size_t r = 0; r < blocked.rows(); ++r)
      ASSERT_TRUE(same_bits(blocked[name][r], uninterrupted[name][r])) << name << " row " << r;
  ASSERT_EQ(pieces.frames.size(), gathered.frames.size());
  for (std::size_t f = 0; f < pieces.frames.size(); ++f) {
    EXPECT_EQ(pieces.frames[f][0], owned_part(gathered.frames[f][0], nx, ny, mine, nz)) << "frame " << f;
    EXPECT_EQ(pieces.frames[f][1], owned_part(gathered.frames[f][1], nx, ny, mine, 1)) << "frame " << f;
  }
  ASSERT_TRUE(pieces.kept);
  const std::optional<CheckpointWindow> window = window_of(*pieces.kept);
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(*window, (CheckpointWindow{nx, ny, mine}));

  // The pieces and the manifest as files (one directory per world size: ctest may run them at once).
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("voltaic_mpi_pieces_" + std::to_string(world.size()));
  if (world.rank() == 0) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  MPI_Barrier(world.get());
  const std::string manifest = (dir / "checkpoint.h5").string();
  io::write_checkpoint_piece(io::checkpoint_piece_path(manifest, 0, world.rank()), *pieces.kept);
  MPI_Barrier(world.get());
  if (world.rank() == 0) {
    std::vector<std::string> names;
    std::vector<CheckpointWindow> windows;
    for (int r = 0; r < world.size(); ++r) {
      names.push_back(io::checkpoint_piece_path(manifest, 0, r));
      windows.push_back({nx, ny, cut->blocks()[std::size_t(r)]});
    }
    io::write_checkpoint_manifest(manifest, *pieces.kept, names, windows);
  }
  MPI_Barrier(world.get());

  const int group = world.size() >= 4 ? world.rank() / 2 : world.rank();
  MPI_Comm half_comm;
  MPI_Comm_split(world.get(), group, world.rank(), &half_comm);
  {
    const Communicator half(half_comm);
    const auto smaller = BlockDecomposition::over(half, nx, ny, kTile);
    const Communicator self(MPI_COMM_SELF);
    Simulation on_half(c.parameters, o, CpuExecutor::create(), smaller);
    Simulation alone(c.parameters, o, CpuExecutor::create(), BlockDecomposition::over(self, nx, ny, kTile));
    for (Simulation* resumed : {&on_half, &alone}) {
      resumed->load_checkpoint(io::read_checkpoint_for(manifest, resumed->state_window()), experiment);
      Recorder second(1e9);
      second.cells = gathered.cells;
      second.columns = gathered.columns;
      const Solution after = resumed->run(experiment, &second);
      ASSERT_EQ(after.rows(), uninterrupted.rows());
      std::size_t differ = 0;
      for (const std::string& name : Solution::variable_names())
        for (std::size_t r = 0; r < after.rows(); ++r)
          if (!same_bits(after[name][r], uninterrupted[name][r])) ++differ;
      EXPECT_EQ(differ, 0u) << (resumed == &alone ? "alone" : "on half the ranks");
      ASSERT_FALSE(second.frames.empty());
      const std::size_t skip = gathered.frames.size() - second.frames.size();
      for (std::size_t f = 0; f < second.frames.size(); ++f)
        for (int k = 0; k < 2; ++k) EXPECT_EQ(second.frames[f][k], gathered.frames[skip + f][k]) << "frame " << f;
    }
  }
  MPI_Comm_free(&half_comm);
  // The serial Simulation (the one-block run's to rounding) continues from the pieces too.
  Simulation serial(c.parameters, o, CpuExecutor::create());
  serial.load_checkpoint(io::read_checkpoint_for(manifest, serial.state_window()), experiment);
  const Solution after = serial.run(experiment);
  ASSERT_TRUE(after.completed) << after.termination;
  EXPECT_NEAR(after["Voltage [V]"].back(), uninterrupted["Voltage [V]"].back(), 1e-6);
  // A rank's piece is not its ghosted block: loaded as it is, it is refused by name.
  Simulation other(c.parameters, o, CpuExecutor::create(), cut);
  if (world.size() > 1) {
    Checkpoint wrong = *pieces.kept;
    EXPECT_THROW(other.load_checkpoint(wrong, experiment), InvalidArgument);
  }
}

// On a GPU (the arrays staged through the host for now): the ranks sharing
// one device give the one-block run's bits there too. Up to 2 ranks: more
// processes time-slicing one GPU (without MPS) take minutes to stage.
TEST(BlockSimulation, RanksSharingAGpuGiveTheOneBlockBits) {
  std::shared_ptr<const Executor> gpu;
  try {
    gpu = CudaExecutor::create(0);
  } catch (const BackendUnavailable& e) {
    GTEST_SKIP() << e.what();
  }
  const Communicator world, self(MPI_COMM_SELF);
  if (world.size() > 2) GTEST_SKIP() << world.size() << " ranks on one GPU: run on 1 and 2";
  const Case& c = cases()[5];  // the pouch with 3D heat and a hold, shorter
  const SimulationOptions o = options(c);
  const Experiment experiment({"Discharge at 2C for 1 minute", "Hold at 3.8 V for 20 seconds"});
  const auto many = BlockDecomposition::over(world, o.grid.nx, o.grid.ny, kTile, gpu);
  const auto one =
      std::make_shared<const BlockDecomposition>(self, PlanePartition(o.grid.nx, o.grid.ny, 1, 1, kTile), gpu);
  Simulation cut_run(c.parameters, o, gpu, many), one_run(c.parameters, o, gpu, one);
  const Solution cut = cut_run.run(experiment), alone = one_run.run(experiment);
  ASSERT_TRUE(cut.completed) << cut.termination;
  expect_one_block_bits(cut, alone, *many);
}

TEST(BlockSimulation, RefusesAnotherPlane) {
  const Communicator world;
  SimulationOptions o;
  o.grid = {3, 2, 3, 5, 12, 10};
  const auto cut = BlockDecomposition::over(world, o.grid.nx, o.grid.ny, kTile);
  try {  // a decomposition of host arrays, a GPU executor
    const auto gpu = CudaExecutor::create(0);
    EXPECT_THROW(Simulation(parameter_sets::chen2020(), o, gpu, cut), InvalidArgument);
  } catch (const BackendUnavailable&) {
  }
  o.grid.nx = 13;  // not the decomposition's plane
  EXPECT_THROW(Simulation(parameter_sets::chen2020(), o, CpuExecutor::create(), cut), InvalidArgument);
}

}  // namespace
}  // namespace voltaic::mpi
