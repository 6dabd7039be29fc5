#include <gtest/gtest.h>

#include "voltaic/voltaic.hpp"

using voltaic::Grid3D;
using voltaic::InvalidArgument;
using voltaic::ZRegionSpec;

namespace {
Grid3D cell_grid() {
  return Grid3D(3, 2, 1e-3, 2e-3, {{"negative", 4, 85.2e-6}, {"separator", 2, 12e-6}, {"positive", 3, 75.6e-6}});
}
}  // namespace

TEST(Grid3D, SizesIndexXFastest) {
  const Grid3D g = cell_grid();
  EXPECT_EQ(g.nz(), 9);
  EXPECT_EQ(g.num_cells(), 3u * 2u * 9u);
  EXPECT_EQ(g.index(0, 0, 0), 0u);
  EXPECT_EQ(g.index(1, 0, 0), 1u);
  EXPECT_EQ(g.index(0, 1, 0), 3u);
  EXPECT_EQ(g.index(0, 0, 1), 6u);
  EXPECT_EQ(g.index(2, 1, 8), g.num_cells() - 1);
}

TEST(Grid3D, RegionsHaveContiguousRangesAndUniformSpacing) {
  const Grid3D g = cell_grid();
  ASSERT_EQ(g.regions().size(), 3u);
  const auto& sep = g.region("separator");
  EXPECT_EQ(sep.k_begin, 4);
  EXPECT_EQ(sep.k_end, 6);
  EXPECT_DOUBLE_EQ(sep.dz, 6e-6);
  EXPECT_EQ(g.region_of_layer()[3], 0);
  EXPECT_EQ(g.region_of_layer()[4], 1);
  EXPECT_EQ(g.region_of_layer()[8], 2);
  EXPECT_DOUBLE_EQ(g.dz()[8], 25.2e-6);
  EXPECT_NEAR(g.thickness(), 172.8e-6, 1e-18);
  const auto z = g.z_centres();
  EXPECT_NEAR(z[0], 85.2e-6 / 8, 1e-18);
  EXPECT_NEAR(z[8], 172.8e-6 - 25.2e-6 / 2, 1e-18);
}

TEST(Grid3D, OneDimensionalCell) {
  const Grid3D g(1, 1, 1.0, 1.0, {{"cell", 30, 1e-4}});
  EXPECT_EQ(g.num_cells(), 30u);
  EXPECT_EQ(g.index(0, 0, 29), 29u);
}

TEST(Grid3D, BadInputNamesTheValue) {
  try {
    Grid3D(0, 1, 1.0, 1.0, {{"a", 1, 1.0}});
    FAIL() << "nx = 0 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "grid.nx");
    EXPECT_NE(std::string(e.what()).find("= 0"), std::string::npos);
  }
  EXPECT_THROW(Grid3D(1, 1, -1.0, 1.0, {{"a", 1, 1.0}}), InvalidArgument);
  EXPECT_THROW(Grid3D(1, 1, 1.0, 1.0, {}), InvalidArgument);
  EXPECT_THROW(Grid3D(1, 1, 1.0, 1.0, {{"a", 0, 1.0}}), InvalidArgument);
  EXPECT_THROW(Grid3D(1, 1, 1.0, 1.0, {{"a", 1, 0.0}}), InvalidArgument);
  EXPECT_THROW(Grid3D(1, 1, 1.0, 1.0, {{"a", 1, 1.0}, {"a", 1, 1.0}}), InvalidArgument);
  EXPECT_THROW(cell_grid().region("collector"), InvalidArgument);
}
