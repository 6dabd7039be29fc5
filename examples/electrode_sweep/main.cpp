// Electrode design with the batch API: the cells of a config's [sweep] run as
// one BatchSimulation, on the GPU where one is visible (two warps a cell, the
// batch cell program), else on every CPU core; the program prints each design's
// capacity and energy, names the design with the most energy, and leaves
// summary.csv and curves.h5 as `voltaic sweep` does.
//
//   voltaic-electrode-sweep [CONFIG.toml] [OUTPUT_DIR]
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "voltaic/io/sweep_config.hpp"
#include "voltaic/io/sweep_output.hpp"
#include "voltaic/voltaic.hpp"

int main(int argc, char** argv) {
  try {
    const voltaic::io::SweepRunConfig config = voltaic::io::load_sweep_config(argc > 1 ? argv[1] : "config.toml");
    const std::string dir = (argc > 2 ? argv[2] : config.run.output.directory) + std::string("/sweep");
    const voltaic::CellParameters& cells = config.sweep.cells;

    const std::shared_ptr<const voltaic::Executor> exec =
        voltaic::CudaExecutor::device_count() > 0
            ? std::shared_ptr<const voltaic::Executor>(voltaic::CudaExecutor::create())
            : voltaic::CpuExecutor::create();
    voltaic::BatchSimulation batch(config.run.parameters, cells, config.run.simulation, exec);
    std::printf("%zu cells on %s\n", batch.num_cells(), exec->name().c_str());
    voltaic::io::SweepOutput output(
        dir, cells, voltaic::io::sweep_output_info(config));  // streams each cell's curves as it finishes
    const std::vector<voltaic::BatchCellResult> results = batch.run(config.run.experiment(), &output);
    output.finish(results);

    std::size_t best = results.size();
    for (std::size_t i = 0; i < results.size(); ++i) {
      const voltaic::BatchCellResult& r = results[i];
      for (std::size_t k = 0; k < cells.names.size(); ++k)
        std::printf("%s = %-10g ", cells.names[k].c_str(), cells.value(i, k));
      if (r.status != voltaic::BatchCellResult::Status::completed) {
        std::printf("%s: %s\n", voltaic::to_string(r.status), r.termination.c_str());
        continue;
      }
      std::printf("%8.4f Ah %8.4f Wh\n", r.discharge_capacity_ah, r.discharge_energy_wh);
      if (best == results.size() || r.discharge_energy_wh > results[best].discharge_energy_wh) best = i;
    }
    if (best == results.size()) {
      std::fprintf(stderr, "no design completed the discharge\n");
      return 3;
    }
    std::printf("most energy: cell %zu, %.4f Wh\n", best, results[best].discharge_energy_wh);
    for (const std::string& f : output.files()) std::printf("wrote %s\n", f.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
