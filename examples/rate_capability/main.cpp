// Rate capability: full discharges of one cell at 0.2C to 3C, from a config
// that gives the cell and the grid. Prints capacity, energy, mean voltage and
// temperature rise per rate and writes them to rate_capability.csv.
//
//   voltaic-rate-capability [CONFIG.toml] [OUTPUT_DIR]
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "voltaic/io/atomic_file.hpp"
#include "voltaic/io/config.hpp"
#include "voltaic/voltaic.hpp"

int main(int argc, char** argv) {
  try {
    voltaic::io::RunConfig config = voltaic::io::load_config(argc > 1 ? argv[1] : "config.toml");
    const std::string dir = argc > 2 ? argv[2] : config.output.directory;
    const double cutoff = config.parameters.electrical.lower_voltage_cutoff;
    std::string csv = "C-rate,Discharge capacity [A.h],Discharge energy [W.h],Mean voltage [V],Temperature rise [K]\n";
    std::printf("%8s %12s %12s %12s %10s\n", "C-rate", "capacity", "energy", "mean V", "dT [K]");
    for (double rate : {0.2, 0.5, 1.0, 2.0, 3.0}) {
      voltaic::Simulation sim(config.parameters, config.simulation, voltaic::CpuExecutor::create());
      char step[96];
      std::snprintf(step, sizeof step, "Discharge at %gC until %g V", rate, cutoff);
      const voltaic::Solution s = sim.run(voltaic::Experiment({step}));
      if (!s.completed) {
        std::fprintf(stderr, "%gC: %s\n", rate, s.termination.c_str());
        return 3;
      }
      const std::size_t last = s.rows() - 1;
      const double q = s["Discharge capacity [A.h]"][last], e = s["Discharge energy [W.h]"][last];
      const double rise = s["Maximum cell temperature [K]"][last] - s["Maximum cell temperature [K]"][0];
      std::printf("%8.1f %10.4f Ah %10.4f Wh %10.4f V %10.2f\n", rate, q, e, e / q, rise);
      char row[160];
      std::snprintf(row, sizeof row, "%.17g,%.17g,%.17g,%.17g,%.17g\n", rate, q, e, e / q, rise);
      csv += row;
    }
    voltaic::io::create_directories(dir);
    voltaic::io::write_file_atomically(dir + "/rate_capability.csv", csv);
    std::printf("wrote %s/rate_capability.csv\n", dir.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
