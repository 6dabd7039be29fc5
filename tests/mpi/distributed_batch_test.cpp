// A sweep over ranks: rank 0 gathers every cell's result, bit for bit the
// one-process batch of the same cells, whatever the rank count (ctest runs
// this on 1, 2 and 4 ranks); shares are contiguous and balanced.
#include "voltaic/mpi/distributed_batch.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "voltaic/model/parameter_sets.hpp"

namespace voltaic::mpi {
namespace {

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(CellRange, SharesAreContiguousBalancedAndCoverEveryCell) {
  for (int ranks : {1, 2, 3, 4, 7}) {
    std::size_t next = 0;
    for (int r = 0; r < ranks; ++r) {
      const auto [first, end] = cell_range(10, r, ranks);
      EXPECT_EQ(first, next);
      EXPECT_LE(end - first, 10u / ranks + 1);
      EXPECT_GE(end - first, 10u / ranks);
      next = end;
    }
    EXPECT_EQ(next, 10u);
  }
}

class Counting : public BatchObserver {
 public:
  void on_cell(std::size_t index, const BatchCellResult&) override { seen.push_back(index); }
  std::vector<std::size_t> seen;
};

// One message per rank, and 7-byte messages (a rank's results in many
// pieces, split mid-number).
class DistributedBatch : public ::testing::TestWithParam<std::size_t> {};

TEST_P(DistributedBatch, RankZeroGathersTheOneProcessResultsBitForBit) {
  const Communicator world;
  CellParameters cells;
  cells.names = {"Negative electrode thickness [m]"};
  for (int i = 0; i < 7; ++i) cells.values.push_back(70e-6 + 3e-6 * i);
  cells.values[5] = -1.0;  // a cell that fails: its row travels too
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 1, 1};
  const Experiment e({"Discharge at 1C for 4 minutes", "Rest for 1 minute"});
  const ParameterSet base = parameter_sets::chen2020();
  const BatchOptions b{1, true, BatchEngine::automatic};
  Counting seen;
  const std::vector<BatchCellResult> got =
      run_batch(world, base, cells, o, CpuExecutor::create(), b, e, &seen, GetParam());
  if (world.rank() != 0) {
    EXPECT_TRUE(got.empty());
    EXPECT_TRUE(seen.seen.empty());
    return;
  }
  const std::vector<BatchCellResult> alone = BatchSimulation(base, cells, o, CpuExecutor::create(), b).run(e);
  ASSERT_EQ(got.size(), alone.size());
  EXPECT_EQ(seen.seen, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6}));
  for (std::size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE("cell " + std::to_string(i) + " on " + std::to_string(world.size()) + " ranks");
    EXPECT_EQ(got[i].status, alone[i].status);
    EXPECT_EQ(got[i].termination, alone[i].termination);
    EXPECT_TRUE(same_bits(got[i].final_voltage, alone[i].final_voltage));
    EXPECT_TRUE(same_bits(got[i].discharge_capacity_ah, alone[i].discharge_capacity_ah));
    EXPECT_EQ(got[i].steps_taken, alone[i].steps_taken);
    EXPECT_TRUE(same_bits(got[i].time, alone[i].time));
    EXPECT_TRUE(same_bits(got[i].voltage, alone[i].voltage));
    EXPECT_TRUE(same_bits(got[i].temperature, alone[i].temperature));
  }
  EXPECT_EQ(got[5].status, BatchCellResult::Status::failed);
  EXPECT_EQ(got[0].status, BatchCellResult::Status::completed);
}

INSTANTIATE_TEST_SUITE_P(Chunks, DistributedBatch, ::testing::Values(std::size_t{1} << 30, std::size_t{7}));

}  // namespace
}  // namespace voltaic::mpi
