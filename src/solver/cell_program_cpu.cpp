#include "solver/cell_program_cpu.hpp"

#include "cpu/fma_clones.hpp"

namespace voltaic::program {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VOLTAIC_FLATTEN __attribute__((flatten))
#else
#define VOLTAIC_FLATTEN
#endif

VOLTAIC_FMA_CLONES VOLTAIC_FLATTEN void initialise_on_cpu(CellRun& run) { run.initialise(); }

VOLTAIC_FMA_CLONES VOLTAIC_FLATTEN void advance_on_cpu(CellRun& run) { run.advance(); }

VOLTAIC_FMA_CLONES VOLTAIC_FLATTEN bool circuit_start_on_cpu(CellRun& run, double amperes, double initial_dt) {
  return run.circuit_start(amperes, initial_dt);
}

VOLTAIC_FMA_CLONES VOLTAIC_FLATTEN bool circuit_attempt_on_cpu(CellRun& run, double h, double amperes) {
  return run.circuit_attempt(h, amperes);
}

VOLTAIC_FMA_CLONES VOLTAIC_FLATTEN double circuit_error_on_cpu(const CellRun& run, double h) {
  return run.circuit_error(h);
}

VOLTAIC_FMA_CLONES VOLTAIC_FLATTEN void circuit_save_on_cpu(CellRun& run) { run.circuit_save(); }

VOLTAIC_FMA_CLONES VOLTAIC_FLATTEN void circuit_restore_on_cpu(CellRun& run) { run.circuit_restore(); }

VOLTAIC_FMA_CLONES VOLTAIC_FLATTEN void circuit_accept_on_cpu(CellRun& run, double h) { run.circuit_accept(h); }

}  // namespace voltaic::program
