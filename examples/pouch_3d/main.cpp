// A pouch cell with its tabs and current collector foils (the potential pair,
// as config.toml asks) and 3D heat conduction, on the GPU when one is
// visible: writes the fields (fields.xdmf opens in ParaView with the
// collector maps beside the cell; tools/plot.py --maps draws the maps over
// the electrode plane) and prints the hottest and coolest points over time.
//
//   voltaic-pouch-3d [CONFIG.toml] [OUTPUT_DIR]
#include <cstdio>
#include <exception>
#include <memory>

#include "voltaic/io/config.hpp"
#include "voltaic/io/run_output.hpp"
#include "voltaic/voltaic.hpp"

int main(int argc, char** argv) {
  try {
    voltaic::io::RunConfig config = voltaic::io::load_config(argc > 1 ? argv[1] : "config.toml");
    if (argc > 2) config.output.directory = argv[2];
    voltaic::SimulationOptions options = config.simulation;
    options.field_period = config.output.field_period;
    options.field_times = config.output.field_times;

    const bool gpu = config.backend != voltaic::io::BackendChoice::cpu && voltaic::CudaExecutor::device_count() > 0;
    std::shared_ptr<const voltaic::Executor> exec;
    if (gpu)
      exec = voltaic::CudaExecutor::create(0, 3);  // a third stream copies the field frames
    else
      exec = voltaic::CpuExecutor::create();
    voltaic::Simulation sim(config.parameters, options, exec);
    std::printf("%zu cells on %s\n", sim.layout().num_cells(), exec->name().c_str());
    voltaic::io::RunOutput output(config.output, sim.layout());
    const voltaic::Solution s = sim.run(config.experiment(), &output);
    output.finish(s);

    std::printf("%s\n%10s %10s %10s %10s\n", s.termination.c_str(), "t [s]", "V [V]", "T min [K]", "T max [K]");
    const std::size_t stride = s.rows() / 10 + 1;
    for (std::size_t r = 0; r < s.rows(); r += stride)
      std::printf("%10.0f %10.4f %10.3f %10.3f\n", s["Time [s]"][r], s["Voltage [V]"][r],
                  s["Minimum cell temperature [K]"][r], s["Maximum cell temperature [K]"][r]);
    for (const auto& f : output.files()) std::printf("wrote %s\n", f.c_str());
    return s.completed ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
