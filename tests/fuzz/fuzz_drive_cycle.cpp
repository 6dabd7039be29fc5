// Fuzz target: parse_drive_cycle, the CSV reader of drive-cycle tables
// ("Run US06 (A)" steps). A table either fails with InvalidArgument or is
// one DriveCycle promises: at least 2 rows, times from 0 strictly
// increasing, every number finite.
#include <cmath>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "voltaic/io/drive_cycle_file.hpp"

namespace {

void check_table(const voltaic::DriveCycle& d) {
  using voltaic::fuzz::require;
  const auto& t = d.times();
  const auto& v = d.values();
  require(t.size() >= 2 && t.size() == v.size() && t[0] == 0.0, "a table without 2 rows from time 0");
  for (std::size_t i = 0; i < t.size(); ++i) {
    require(std::isfinite(t[i]) && std::isfinite(v[i]), "a number that is not finite");
    require(i == 0 || t[i] > t[i - 1], "times that do not increase");
  }
  require(std::isfinite(d.value_at(d.duration() / 3)), "an interpolated value that is not finite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    check_table(voltaic::io::parse_drive_cycle(voltaic::fuzz::text_of(data, size), "fuzz.csv", "fuzz"));
  } catch (const voltaic::InvalidArgument&) {
    // the documented refusal
  }
  return 0;
}
