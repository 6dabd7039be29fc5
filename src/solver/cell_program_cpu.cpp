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

}  // namespace voltaic::program
