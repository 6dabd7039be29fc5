// Bitwise reproducibility of voltaic::dot across launch configurations.
#include "determinism.hpp"

#include <array>
#include <cstring>
#include <vector>

#include "bench_result.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic_bench {

namespace {

constexpr std::array<voltaic::LaunchConfig, 4> kConfigs{{{256, 0}, {128, 1000}, {64, 97}, {32, 0}}};

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
nlohmann::ordered_json check(const voltaic::Executor& exec, voltaic::View<const T> x, voltaic::View<const T> y,
                             int repeats) {
  if (repeats < 1) {
    throw voltaic::InvalidArgument("repeats", "voltaic_bench::check_dot_determinism",
                                   "repeats = " + std::to_string(repeats) + " must be at least 1");
  }
  std::vector<T> distinct;  // one entry per bit pattern seen, in order of appearance
  bool have_first = false;
  T first{};
  bool deterministic = true;
  int calls = 0;
  nlohmann::ordered_json configs = nlohmann::ordered_json::array();

  for (const voltaic::LaunchConfig& launch : kConfigs) {
    T config_first{};
    bool config_identical = true;
    for (int r = 0; r < repeats; ++r) {
      const T value = voltaic::dot(exec, x, y, launch);
      ++calls;
      if (r == 0) config_first = value;
      if (!have_first) {
        first = value;
        have_first = true;
      }
      if (!same_bits(value, first)) deterministic = false;
      if (!same_bits(value, config_first)) config_identical = false;
      bool seen = false;
      for (const T& d : distinct) seen = seen || same_bits(d, value);
      if (!seen) distinct.push_back(value);
    }
    configs.push_back({{"block_size", launch.block_size},
                       {"grid_size", launch.grid_size},
                       {"value_17g", format_17g(static_cast<double>(config_first))},
                       {"identical_across_repeats", config_identical}});
  }

  nlohmann::ordered_json distinct_values = nlohmann::ordered_json::array();
  for (const T& d : distinct) distinct_values.push_back(format_17g(static_cast<double>(d)));

  nlohmann::ordered_json out;
  out["deterministic"] = deterministic;
  out["distinct_bit_patterns"] = distinct.size();
  out["calls"] = calls;
  out["repeats_per_config"] = repeats;
  out["value"] = static_cast<double>(first);
  out["value_17g"] = format_17g(static_cast<double>(first));
  out["distinct_values_17g"] = std::move(distinct_values);
  out["configs"] = std::move(configs);
  return out;
}

}  // namespace

nlohmann::ordered_json check_dot_determinism(const voltaic::Executor& exec, voltaic::View<const double> x,
                                             voltaic::View<const double> y, int repeats) {
  return check<double>(exec, x, y, repeats);
}

nlohmann::ordered_json check_dot_determinism(const voltaic::Executor& exec, voltaic::View<const float> x,
                                             voltaic::View<const float> y, int repeats) {
  return check<float>(exec, x, y, repeats);
}

}  // namespace voltaic_bench
