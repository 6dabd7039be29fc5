// Fuzz target: parse_sweep_config, the run config plus its [sweep] section,
// from the text to the cells. Relative paths resolve in tests/data/configs,
// so that a mutated `table = "sweep_table.csv"` is read for real. A sweep
// either fails with ConfigError or has cells of finite values, within the cap.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_support.hpp"
#include "voltaic/io/sweep_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const voltaic::io::SweepRunConfig config =
        voltaic::io::parse_sweep_config(voltaic::fuzz::text_of(data, size), "fuzz.toml", VOLTAIC_FUZZ_DATA_DIR);
    const voltaic::CellParameters& cells = config.sweep.cells;
    if (cells.names.empty() || cells.num_cells() == 0 || cells.num_cells() > voltaic::io::kMaxSweepCells ||
        cells.values.size() != cells.num_cells() * cells.names.size())
      std::abort();  // the reader promised whole, capped cells
    for (double v : cells.values)
      if (!std::isfinite(v)) std::abort();
    (void)config.run.experiment();
  } catch (const voltaic::io::ConfigError&) {
    // the documented refusal
  }
  return 0;
}
