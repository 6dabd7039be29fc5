// main() of voltaic_mpi_tests, run by mpirun with 1, 2 and 4 ranks: every
// rank runs every test; rank 0 prints; the exit status fails when any rank's
// test failed.
#include <gtest/gtest.h>

#include "voltaic/mpi/communicator.hpp"

int main(int argc, char** argv) {
  voltaic::mpi::Session session(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  const voltaic::mpi::Communicator world;
  if (world.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  return world.max(failed);
}
