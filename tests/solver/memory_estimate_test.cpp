// The up-front memory estimate: an upper bound of what a Simulation
// allocates, close enough to be useful, and a refusal naming the grid and
// the numbers when it cannot fit.
#include "voltaic/solver/memory_estimate.hpp"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cmath>
#include <string>

#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {
namespace {

/// Bytes of the heap in use (small blocks and mmapped ones).
double heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return double(m.uordblks) + double(m.hblkhd);
}

SimulationOptions grid(int nx, int ny, ThermalModel thermal, int shells = 20, int separator = 20) {
  SimulationOptions o;
  o.grid = {20, separator, 20, shells, nx, ny};
  o.thermal = thermal;
  o.field_period = 1.0;  // streamed frames are part of a run's memory
  return o;
}

// Measured after a step: the first step allocates the Jacobian and Krylov
// workspaces too.
TEST(MemoryEstimate, BoundsWhatASimulationAllocatesOnTheCpu) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "mallinfo2 does not see AddressSanitizer's allocator";
#endif
  struct Case {
    int n, shells, separator;
  };
  for (ThermalModel thermal : {ThermalModel::lumped, ThermalModel::conduction}) {
    for (const Case& c : {Case{6, 20, 20}, Case{24, 20, 20}, Case{16, 5, 40}, Case{16, 40, 5}}) {
      const SimulationOptions o = grid(c.n, c.n, thermal, c.shells, c.separator);
      const double before = heap_in_use();
      Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
      sim.run(Experiment({"Discharge at 1C for 2 s"}));
      const double measured = heap_in_use() - before, estimate = simulation_memory_bytes(o);
      SCOPED_TRACE(std::to_string(c.n) + " x " + std::to_string(c.n) + ", " + std::to_string(c.shells) + " shells, " +
                   std::to_string(c.separator) + " separator cells" +
                   (thermal == ThermalModel::lumped ? ", lumped" : ", conduction"));
      EXPECT_GE(estimate, measured);
      EXPECT_LE(estimate, 1.5 * measured + (2 << 20)) << "measured " << measured;
    }
  }
}

TEST(MemoryEstimate, GrowsWithEveryPartOfTheGrid) {
  const SimulationOptions base = grid(4, 4, ThermalModel::lumped);
  const double b = simulation_memory_bytes(base);
  SimulationOptions more = base;
  more.grid.nx = 8;
  EXPECT_GT(simulation_memory_bytes(more), b);
  more = base;
  more.grid.radial_shells = 40;
  EXPECT_GT(simulation_memory_bytes(more), b);
  more = base;
  more.thermal = ThermalModel::conduction;
  EXPECT_GT(simulation_memory_bytes(more), b);
  more.grid.nx = more.grid.ny = 2147483647;  // no integer overflow
  EXPECT_TRUE(std::isfinite(simulation_memory_bytes(more)));
  EXPECT_GT(simulation_memory_bytes(more), 1e20);
}

TEST(MemoryEstimate, AGridThatCannotFitIsRefusedBeforeAllocating) {
  const auto cpu = CpuExecutor::create();
  const double available = available_memory_bytes(*cpu);
  ASSERT_GT(available, 0.0);
  const SimulationOptions huge = grid(5000, 5000, ThermalModel::lumped);  // the hostile test's grid
  ASSERT_GT(simulation_memory_bytes(huge), available) << "this machine has more memory than the test assumes";
  try {
    Simulation sim(parameter_sets::chen2020(), huge, cpu);
    FAIL() << "a grid of 5000 x 5000 columns was accepted";
  } catch (const InsufficientMemory& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.what_failed(), "grid");
    EXPECT_NE(m.find("needs about"), std::string::npos) << m;
    EXPECT_NE(m.find("nx = 5000, ny = 5000"), std::string::npos) << m;
    EXPECT_NE(m.find("available"), std::string::npos) << m;
  }
  EXPECT_NO_THROW(require_memory(grid(2, 2, ThermalModel::lumped), *cpu));
}

}  // namespace
}  // namespace voltaic
