#include <gtest/gtest.h>

#include <string>

#include "voltaic/voltaic.hpp"

using voltaic::Error;

TEST(Error, CarriesWhatWhereAndWhy) {
  const voltaic::InvalidArgument e("grid.nx", "Grid3D::Grid3D", "grid.nx = -1 must be finite and > 0");
  EXPECT_EQ(e.what_failed(), "grid.nx");
  EXPECT_EQ(e.where(), "Grid3D::Grid3D");
  EXPECT_EQ(e.why(), "grid.nx = -1 must be finite and > 0");
  const std::string msg = e.what();
  EXPECT_NE(msg.find("grid.nx"), std::string::npos);
  EXPECT_NE(msg.find("Grid3D::Grid3D"), std::string::npos);
  EXPECT_NE(msg.find("must be finite"), std::string::npos);
}

TEST(Error, HierarchyLetsCallersCatchByKind) {
  EXPECT_THROW(throw voltaic::SizeMismatch("a", "b", "c"), voltaic::InvalidArgument);
  EXPECT_THROW(throw voltaic::ExecutorMismatch("a", "b", "c"), voltaic::InvalidArgument);
  EXPECT_THROW(throw voltaic::BackendUnavailable("a", "b", "c"), Error);
  EXPECT_THROW(throw voltaic::OutOfRange("a", "b", "c"), Error);
  const voltaic::CudaError cuda("cudaMalloc(&p, n)", "x.cpp:3", "out of memory", 2, false);
  EXPECT_EQ(cuda.code(), 2);
  EXPECT_FALSE(cuda.sticky());
}
