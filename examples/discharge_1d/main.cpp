// 1D Chen2020 1C discharge from a config file: runs it, leaves
// timeseries.csv, fields.h5/.xdmf and a checkpoint in the output directory,
// and prints what an engineer looks at first.
//
//   voltaic-discharge-1d [CONFIG.toml] [OUTPUT_DIR]
#include <cstdio>
#include <exception>
#include <string>

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

    voltaic::Simulation sim(config.parameters, options, voltaic::CpuExecutor::create());
    voltaic::io::RunOutput output(config.output, sim.layout());
    const voltaic::Solution s = sim.run(config.experiment(), &output);
    output.finish(s);

    const std::size_t last = s.rows() - 1;
    std::printf("%s\n", s.termination.c_str());
    std::printf("capacity %.4f A.h, energy %.4f W.h, final voltage %.4f V, temperature rise %.2f K\n",
                s["Discharge capacity [A.h]"][last], s["Discharge energy [W.h]"][last], s["Voltage [V]"][last],
                s["Volume-averaged cell temperature [K]"][last] - s["Volume-averaged cell temperature [K]"][0]);
    for (const std::string& f : output.files()) std::printf("wrote %s\n", f.c_str());
    return s.completed ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
