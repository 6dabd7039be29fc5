#pragma once
/// @file determinism.hpp
/// @brief Checks that voltaic::dot returns the same bits for every launch
/// configuration and every repetition.

#include <memory>
#include <nlohmann/json.hpp>

#include "voltaic/core/executor.hpp"
#include "voltaic/core/view.hpp"

namespace voltaic_bench {

/// Calls the host-returning voltaic::dot(exec, x, y, LaunchConfig) `repeats`
/// times for each of the launch configurations {256,0}, {128,1000}, {64,97},
/// {32,0} and compares every result's bit pattern (memcmp) with the first one.
/// Returns {"deterministic", "distinct_bit_patterns", "calls", "value",
/// "value_17g", "configs": [{block_size, grid_size, value_17g, identical}]}.
nlohmann::ordered_json check_dot_determinism(const voltaic::Executor& exec, voltaic::View<const double> x,
                                             voltaic::View<const double> y, int repeats = 10);
nlohmann::ordered_json check_dot_determinism(const voltaic::Executor& exec, voltaic::View<const float> x,
                                             voltaic::View<const float> y, int repeats = 10);

}  // namespace voltaic_bench
