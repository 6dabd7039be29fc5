#pragma once
// The cell program on a CPU thread (one lane): CellRun's entry points
// compiled with everything they call inlined, once with FMA instructions and
// once without, the loader picking what this CPU has (cpu/fma_clones.hpp).
// Without it every fp::fma of the program is a library call (a tenth of
// its time on the development machine). The largest callees are
// VOLTAIC_CPU_CALL, calls to their own flattened FMA clones: the implicit
// Butler-Volmer, the guarded OCP and the film's solve, and CellRunT's
// pass-level members (concentration, potential, newton, heat, mix,
// predict_inputs, the ageing growths). Flattened into advance_on_cpu they
// made this file take 5-9 minutes to compile, the critical path of every
// build; called, it takes about 30 s, with the same bits.

#include "solver/cell_program.hpp"

namespace voltaic::program {

/// CellRun::initialise on the calling thread.
void initialise_on_cpu(CellRun& run);
/// CellRun::advance on the calling thread.
void advance_on_cpu(CellRun& run);
/// CellRun's circuit entry points (a cell of a pack) on the calling thread.
bool circuit_start_on_cpu(CellRun& run, double amperes, double initial_dt);
bool circuit_attempt_on_cpu(CellRun& run, double h, double amperes);
double circuit_error_on_cpu(const CellRun& run, double h);
void circuit_save_on_cpu(CellRun& run);
void circuit_restore_on_cpu(CellRun& run);
void circuit_accept_on_cpu(CellRun& run, double h);

}  // namespace voltaic::program
