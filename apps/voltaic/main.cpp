// voltaic: run a cell simulation (or a sweep of cells, or a pack) from a TOML config, list and print
// parameter sets, and say what this build and machine can do.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "commands.hpp"
#include "ranks.hpp"
#include "voltaic/core/version.hpp"
#include "voltaic/io/run_output.hpp"

int main(int argc, char** argv) {
  using namespace voltaic::cli;
  voltaic::io::skip_hdf5_exit_cleanup();
  const Ranks ranks(argc, argv);
  if (!ranks.root()) {  // rank 0 speaks for all (an error of another rank reaches it through the batch)
    for (FILE* stream : {stdout, stderr})
      if (std::freopen("/dev/null", "w", stream) == nullptr) continue;  // then that stream stays as it was
  }
  CLI::App app{"voltaic: lithium-ion cell simulation with the Doyle-Fuller-Newman model, on GPUs and CPUs"};
  app.set_version_flag("--version", voltaic::version());
  app.require_subcommand(1);

  RunArguments run;
  CLI::App* run_cmd = app.add_subcommand("run", "Run the simulation a TOML config describes");
  run_cmd->add_option("config", run.config, "The config file (docs/config.md)")->required();
  run_cmd->add_option("--output,-o", run.output, "Output directory (default: the config's [output] directory)");
  run_cmd->add_option("--backend,-b", run.backend, "Where to run (default: the config's [solver] backend)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  run_cmd->add_option("--restart", run.restart, "Continue from this checkpoint (DIR/checkpoint.h5 of an earlier run)");

  SweepArguments sweep;
  CLI::App* sweep_cmd = app.add_subcommand("sweep", "Run many 1D cells whose parameters the config's [sweep] varies");
  sweep_cmd->add_option("config", sweep.config, "The config file with a [sweep] section (docs/config.md)")->required();
  sweep_cmd->add_option("--output,-o", sweep.output,
                        "Output directory (default: the config's [output] directory); the files go in its sweep/");
  sweep_cmd
      ->add_option("--backend,-b", sweep.backend,
                   "Where to run (default: the config's [solver] backend; cuda and auto with a GPU: the cell program)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  sweep_cmd->add_option("--threads,-j", sweep.threads, "CPU worker threads (default 0: every hardware thread)")
      ->check(CLI::Range(0, 4096));
  CLI::Option* checkpoint =
      sweep_cmd->add_option("--checkpoint", sweep.checkpoint,
                            "Where a stopped sweep (SIGINT, SIGTERM) leaves its cells' state, to go on with --resume");
  sweep_cmd
      ->add_option("--checkpoint-every", sweep.checkpoint_every,
                   "Seconds of wall time between checkpoints while it runs as well (on a GPU, between its calls)")
      ->check(CLI::Range(0.0, 1e9))
      ->needs(checkpoint);
  sweep_cmd->add_option("--resume", sweep.resume, "Go on from this checkpoint (--checkpoint of the same sweep)");
  sweep_cmd->add_option("--cells", sweep.cells,
                        "Run only these of the sweep's cells: numbers and FIRST:END ranges (END excluded), "
                        "e.g. 0:500,742; the files number them as the whole sweep does");

  PackArguments pack;
  CLI::App* pack_cmd =
      app.add_subcommand("pack", "Run a pack of 1D cells in parallel and in series that the config's [pack] wires");
  pack_cmd->add_option("config", pack.config, "The config file with a [pack] section (docs/config.md)")->required();
  pack_cmd->add_option("--output,-o", pack.output,
                       "Output directory (default: the config's [output] directory); pack.csv and pack.h5 go in it");
  pack_cmd
      ->add_option("--backend,-b", pack.backend,
                   "Where to run (default: the config's [solver] backend; auto runs an ageing pack on the CPU)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));

  std::string set_name;
  CLI::App* params_cmd = app.add_subcommand("params", "List the built-in parameter sets, or print one with units");
  params_cmd->add_option("name", set_name, "A built-in set (e.g. Chen2020) or a BPX file");

  CLI::App* info_cmd = app.add_subcommand("info", "Print the version, the backends built and the GPUs found");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "voltaic: error: %s (see voltaic --help)\n", e.what());
    return kBadInput;
  }
  try {
    if (*run_cmd) return run_command(run);
    if (*sweep_cmd) return sweep_command(sweep);
    if (*pack_cmd) return pack_command(pack);
    if (*params_cmd) return params_command(set_name);
    if (*info_cmd) return info_command();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voltaic: internal error: %s\n", e.what());
    return kInternalError;
  }
  return kInternalError;
}
