#include <gtest/gtest.h>

#include <regex>

#include "voltaic/config.hpp"
#include "voltaic/voltaic.hpp"

TEST(Version, IsSemanticVersionOfThisBuild) {
  EXPECT_TRUE(std::regex_match(voltaic::version(), std::regex(R"(\d+\.\d+\.\d+)")));
  EXPECT_STREQ(voltaic::version(), VOLTAIC_VERSION_STRING);
}

TEST(Version, BackendsAlwaysIncludeCpu) {
  const auto b = voltaic::backends_built();
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(b.front(), "cpu");
  EXPECT_EQ(b.size(), voltaic::cuda_backend_built() ? 2u : 1u);
}
