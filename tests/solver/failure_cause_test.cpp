// The physical limit behind a failed step, read from the state: depleted
// electrolyte and full or empty particles, with where in the cell.
#include "solver/failure_cause.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_sets.hpp"

namespace voltaic {
namespace {

class FailureCause : public ::testing::Test {
 protected:
  FailureCause() : layout_(parameter_sets::chen2020(), CellGridSpec{4, 3, 5, 6, 2, 1}, CpuExecutor::create()) {
    const ParameterSet& p = layout_.parameters();
    c_e_.assign(layout_.num_cells(), p.electrolyte.initial_concentration);
    for (std::size_t q = 0; q < layout_.num_particles(); ++q) c_surf_.push_back(q < 8 ? 20000.0 : 30000.0);
  }
  CellLayout layout_;
  std::vector<double> c_e_, c_surf_;
};

TEST_F(FailureCause, AStateClearOfEveryLimitHasNone) { EXPECT_EQ(physical_limit(c_e_, c_surf_, layout_), ""); }

TEST_F(FailureCause, DepletedElectrolyteIsNamedWithItsPlace) {
  // Cells: 2 columns per z-layer; layers 0-3 negative, 4-6 separator, 7-11 positive.
  c_e_[2 * 10 + 1] = 3.0;  // layer 11, column 2: the positive electrode
  EXPECT_EQ(physical_limit(c_e_, c_surf_, layout_),
            "the electrolyte is depleted in the positive electrode (z-layer 11 of 12 from the negative collector, "
            "x 2, y 1): c_e = 3 mol/m3, 0.3% of its initial value");
}

TEST_F(FailureCause, EmptyAndFullParticlesAreNamedWithTheirElectrode) {
  c_surf_[1] = 10.0;  // negative electrode, layer 1, column 2
  const std::string empty = physical_limit(c_e_, c_surf_, layout_);
  EXPECT_NE(empty.find("the particles of the negative electrode (z-layer 1 of 12"), std::string::npos) << empty;
  EXPECT_NE(empty.find("are empty at their surface"), std::string::npos) << empty;
  c_surf_[1] = 20000.0;
  c_surf_.back() = layout_.parameters().positive_electrode.maximum_concentration;
  const std::string full = physical_limit(c_e_, c_surf_, layout_);
  EXPECT_NE(full.find("the particles of the positive electrode (z-layer 12 of 12"), std::string::npos) << full;
  EXPECT_NE(full.find("are full at their surface (stoichiometry 1"), std::string::npos) << full;
}

// Both engines word a failed step with these: the numbers as a stream
// prints them (six significant digits), the same from either engine.
TEST(FailureWords, NameTheLimitAndTheLastValue) {
  EXPECT_EQ(newton_failure(8, 2.5e-3, 1e-9),
            "Newton did not converge in 8 iterations (last update 0.0025 V, tolerance 1e-09 V)");
  EXPECT_EQ(split_failure(stepping::Split::unsettled, 40, 12.34567),
            "the concentration/potential/temperature split did not converge in 40 passes (last change 12.3457 of "
            "the error tolerance)");
  EXPECT_EQ(split_failure(stepping::Split::nonfinite, 40, 0.0),
            "the step produced a non-finite electrolyte concentration or temperature");
  EXPECT_EQ(local_error_failure(3.5, 1e-6), "the local error stays 3.5 times the tolerance at dt = 1e-06 s");
  EXPECT_NE(depletion_failure().find("fell below zero"), std::string::npos);
  EXPECT_NE(terminal_failure().find("non-finite voltage"), std::string::npos);
}

}  // namespace
}  // namespace voltaic
