// Fuzz target: parse_bpx, the BPX JSON reader, through the mapping to a
// validated ParameterSet. A file either fails with BpxError or gives a set
// whose custom functions evaluate without touching memory outside their data.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "voltaic/io/bpx.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const voltaic::ParameterSet p = voltaic::io::parse_bpx(voltaic::fuzz::text_of(data, size), "fuzz.json");
    for (int slot = 0; slot < voltaic::kFunctionSlots; ++slot) {
      const auto s = static_cast<voltaic::FunctionSlot>(slot);
      voltaic::fuzz::require(p.holds_custom_function(s) || p.custom_function(s).kind == voltaic::FunctionKind::none,
                             "a custom function whose data the set does not hold");
      for (const double x : {0.0, 0.5, 1.0, 1000.0}) (void)p.custom_function(s)(x);
    }
  } catch (const voltaic::io::BpxError&) {
    // the documented refusal
  }
  return 0;
}
