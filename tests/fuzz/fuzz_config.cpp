// Fuzz target: parse_config, the TOML run-config reader, from the text to a
// checked RunConfig. Relative paths resolve in tests/data, so that a mutated
// `bpx = "bpx/chen2020.json"` or drive-cycle table is read for real. A config
// either fails with ConfigError or is one whose experiment can be built.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "voltaic/io/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const voltaic::io::RunConfig config =
        voltaic::io::parse_config(voltaic::fuzz::text_of(data, size), "fuzz.toml", VOLTAIC_FUZZ_DATA_DIR);
    // The reader checked the steps and cycles: building them must not throw.
    (void)config.experiment();
  } catch (const voltaic::io::ConfigError&) {
    // the documented refusal
  }
  return 0;
}
