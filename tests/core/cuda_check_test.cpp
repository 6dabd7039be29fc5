// The check macro on real failing calls. Runs without a GPU too: asking for a
// device that does not exist fails on every machine.
#include "core/cuda_check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "voltaic/core/error.hpp"

TEST(CudaCheck, FailingRuntimeCallNamesCallFileAndLine) {
  try {
    VOLTAIC_CUDA_CHECK(cudaSetDevice(9999));
    FAIL() << "cudaSetDevice(9999) succeeded";
  } catch (const voltaic::CudaError& e) {
    EXPECT_EQ(e.what_failed(), "cudaSetDevice(9999)");
    EXPECT_NE(e.where().find("cuda_check_test.cpp:"), std::string::npos);
    EXPECT_NE(e.code(), 0);
    EXPECT_FALSE(e.why().empty());
  }
  (void)cudaGetLastError();
}

TEST(CudaCheck, CublasAndCusparseStatusesThrowWithTheLibraryName) {
  try {
    VOLTAIC_CUDA_CHECK(CUBLAS_STATUS_NOT_INITIALIZED);
    FAIL();
  } catch (const voltaic::CudaError& e) {
    EXPECT_NE(e.why().find("cuBLAS"), std::string::npos);
  }
  try {
    VOLTAIC_CUDA_CHECK(CUSPARSE_STATUS_INVALID_VALUE);
    FAIL();
  } catch (const voltaic::CudaError& e) {
    EXPECT_NE(e.why().find("cuSPARSE"), std::string::npos);
  }
  EXPECT_NO_THROW(VOLTAIC_CUDA_CHECK(cudaSuccess));
}
