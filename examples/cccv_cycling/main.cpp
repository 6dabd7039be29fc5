// CC-CV cycling from a config: runs every cycle, writes timeseries.csv, and
// prints the charge each cycle discharged and charged back.
//
//   voltaic-cccv-cycling [CONFIG.toml] [OUTPUT_DIR]
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

#include "voltaic/io/config.hpp"
#include "voltaic/io/run_output.hpp"
#include "voltaic/voltaic.hpp"

int main(int argc, char** argv) {
  try {
    voltaic::io::RunConfig config = voltaic::io::load_config(argc > 1 ? argv[1] : "config.toml");
    if (argc > 2) config.output.directory = argv[2];
    const voltaic::Experiment experiment = config.experiment();
    voltaic::Simulation sim(config.parameters, config.simulation, voltaic::CpuExecutor::create());
    voltaic::io::RunOutput output(config.output, sim.layout());
    const voltaic::Solution s = sim.run(experiment, &output);
    output.finish(s);

    // Charge moved per cycle: discharge capacity changes, split by sign of the current.
    const std::size_t per_cycle = experiment.cycle().size();
    std::vector<double> out(experiment.cycles()), in(experiment.cycles());
    const auto& q = s["Discharge capacity [A.h]"];
    const auto& step = s["Step"];
    for (std::size_t r = 1; r < s.rows(); ++r) {
      const auto cycle = static_cast<std::size_t>(step[r]) / per_cycle;
      const double dq = q[r] - q[r - 1];
      (dq > 0 ? out : in)[cycle] += std::fabs(dq);
    }
    std::printf("%s\n%6s %14s %14s %12s\n", s.termination.c_str(), "cycle", "discharged", "charged", "efficiency");
    for (int c = 0; c < experiment.cycles(); ++c)
      std::printf("%6d %11.4f Ah %11.4f Ah %11.2f %%\n", c + 1, out[c], in[c],
                  in[c] > 0 ? 100.0 * out[c] / in[c] : 0.0);
    return s.completed ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
