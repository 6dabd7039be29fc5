#pragma once
// The batch cell program: one 1D cell's whole integration, written once as
// VOLTAIC_HD code that a CPU worker thread (one lane) and a CUDA warp (32
// lanes sharing every loop) run alike. It is Simulation's algorithm for a 1D cell (simulation.cpp,
// simulation_steps.cpp, simulation_substeps.cpp, potential_step.cpp):
// particles implicit in the potential step, the concentration -> potential
// -> temperature passes with Anderson-mixed c_e, variable-step BDF2 with the
// predictor error test, cut-and-retry, Illinois event location. Its solves
// are the exact column solves Simulation takes in 1D, on the same point
// functions (dfn_point.hpp, stencil_point.hpp, particle_point.hpp, the
// z-line factorisations), so no cell's arithmetic ever reads another's: a
// cell's result does not depend on the batch around it.
//
// A CPU lane and a CUDA warp give the same bits: the sums run in the warp's
// butterfly order on both (lane_sum), the column solves are twisted (halves
// on lanes 0 and 1, both halves' rows in one loop on a CPU: the same
// operations), the CUDA side is compiled without contraction (--fmad=false)
// and exp is pmath::exp. Only custom material functions with pow, log, sinh
// or cosh, and the OCP barriers' log1p, can still round apart. A 1D
// Simulation runs on it (cell_engine.hpp), which reads fields and
// checkpoints from the slab between calls; 3D
// conduction and collectors stay with the field solvers.

#include <cmath>
#include <cstddef>

#include "linalg/twisted_column_ops.hpp"
#include "solver/bdf2.hpp"
#include "solver/cell_program_data.hpp"
#include "solver/dfn_point.hpp"
#include "solver/newton_rate.hpp"
#include "solver/particle_kernels.hpp"
#include "solver/side_reaction.hpp"
#include "solver/step_control.hpp"
#include "voltaic/linalg/blas1_ops.hpp"
#include "voltaic/linalg/stencil_point.hpp"

namespace voltaic::program {

/// One cell's run: settings, constants, clock and slab. `Ageing` false
/// compiles a run without the degradation submodels (SEI, plating, loss of
/// active material, stress-induced diffusion, the porosity change): the
/// same arithmetic for a cell that has none, in less code, which a GPU's
/// instruction cache and registers feel (kernels/cell_program_plain.cu).
/// `Lanes` is the CUDA threads a cell: a warp (kWarpLanes: a pack's circuit
/// calls), or a block of several warps, one cell a block, whose loops take
/// each array in fewer rounds (kCellLanes: the batch's advance kernel). A
/// CPU thread is one lane either way, and every lane count gives the same
/// bits (lane_sum's order is a warp's).
template <bool Ageing, int Lanes>
class CellRunT {
 public:
  /// `slab`: this cell's arrays (SlabOffsets). One thread runs the cell on a
  /// CPU; on CUDA a warp or a block runs it (Lanes lanes, this thread's lane
  /// from its index), each lane holding its own copy of the clock (they stay
  /// equal: every decision is taken from values all lanes share).
  VOLTAIC_HD CellRunT(const ProgramSettings& s, const CellConstants& c, ProgramClock& k, double* slab)
      : s_(s), c_(c), k_(k), base_(slab), n_(static_cast<std::size_t>(s.n)), np_(static_cast<std::size_t>(s.P)) {}

  /// Sets the initial state (Simulation's constructor).
  VOLTAIC_HD void initialise();
  /// Runs until the cell finishes or its row buffer holds rows_per_call rows.
  VOLTAIC_HD void advance();

  // ---- A cell in a circuit (a pack: pack_simulation.cpp). The circuit sets
  // each attempt's current and takes the steps (one step size for every cell
  // of the pack); the cell integrates as it does alone, records no rows and
  // keeps its clock (time, charge, levels) in step with the pack's.
  /// A fresh experiment step's consistent state under `amperes` (its time steps start at `initial_dt`).
  VOLTAIC_HD bool circuit_start(double amperes, double initial_dt);
  /// One attempt of h from the saved state under a constant `amperes`:
  /// the clock's voltage is then the terminal voltage it gives.
  VOLTAIC_HD bool circuit_attempt(double h, double amperes);
  /// The attempt's local error (<= 1 accepts; < 0 without an estimate).
  VOLTAIC_HD double circuit_error(double h) const { return local_error(h, false); }
  VOLTAIC_HD void circuit_save() { save(); }
  VOLTAIC_HD void circuit_restore() { restore(); }
  /// The attempt of h accepted: charge and energy counted, time and levels moved on.
  VOLTAIC_HD void circuit_accept(double h);

 private:
  struct Pass {
    double a0, a1, dt;
    int index;
    double value;  ///< the drive at the pass's time (drive_at)
  };

  VOLTAIC_HD double* at(std::size_t offset) const { return base_ + offset; }

  // The lanes of the cell: loops share the elements out (i = lane(), lane() +
  // lanes_, ...) and end with sync(); sums and maxima are butterflies, which
  // give every lane the same bits (a + b = b + a); serial parts run on lane 0
  // (the row buffer) or lanes 0 and 1 (the twisted column solves). A cell of
  // several warps is one block: sync() is the block's barrier, and a maximum
  // or a vote crosses the warps through shared memory.
  static_assert(Lanes == kWarpLanes || (Lanes % kWarpLanes == 0 && Lanes <= 1024), "a warp or a block of warps a cell");
  static constexpr bool kBlockCell = Lanes > kWarpLanes;
  VOLTAIC_HD void sync() const {
#if defined(__CUDA_ARCH__)
    if constexpr (kBlockCell)
      __syncthreads();
    else
      __syncwarp();
#endif
  }
#if defined(__CUDA_ARCH__)
  /// op over one value from each warp of a block cell, on every lane.
  template <class Op>
  __device__ static double across_warps(double x, const Op& op) {
    __shared__ double slot[Lanes / kWarpLanes];
    if (threadIdx.x % kWarpLanes == 0) slot[threadIdx.x / kWarpLanes] = x;
    __syncthreads();
    double r = slot[0];
    for (int w = 1; w < Lanes / kWarpLanes; ++w) r = op(r, slot[w]);
    __syncthreads();  // the slots are free again
    return r;
  }
#endif
  VOLTAIC_HD double reduce_max(double x) const {
#if defined(__CUDA_ARCH__)
    for (int d = kWarpLanes / 2; d > 0; d /= 2) x = fmax(x, __shfl_xor_sync(0xffffffffu, x, d));
    if constexpr (kBlockCell) x = across_warps(x, [](double a, double b) { return fmax(a, b); });
#endif
    return x;
  }
  VOLTAIC_HD double reduce_min(double x) const {
#if defined(__CUDA_ARCH__)
    for (int d = kWarpLanes / 2; d > 0; d /= 2) x = fmin(x, __shfl_xor_sync(0xffffffffu, x, d));
    if constexpr (kBlockCell) x = across_warps(x, [](double a, double b) { return fmin(a, b); });
#endif
    return x;
  }
  /// The sum over i in [0, m) of the terms `add` accumulates (partial =
  /// add(partial, i)) in a warp's order: each lane its terms i = lane,
  /// lane + 32, ..., then the butterfly. One CPU lane runs the 32 lanes'
  /// loops itself, and a block cell's first warp runs them alone (a lane's
  /// chain of terms must not be split), so every lane count sums the same
  /// values to the same bits.
  template <class Add>
  VOLTAIC_HD double lane_sum(std::size_t m, const Add& add) const {
#if defined(__CUDA_ARCH__)
    double partial = 0.0;
    if (!kBlockCell || threadIdx.x < kWarpLanes) {
      for (std::size_t i = threadIdx.x % kWarpLanes; i < m; i += kWarpLanes) partial = add(partial, i);
      for (int d = kWarpLanes / 2; d > 0; d /= 2) partial += __shfl_xor_sync(0xffffffffu, partial, d);
    }
    if constexpr (kBlockCell) {
      __shared__ double total;
      if (threadIdx.x == 0) total = partial;
      __syncthreads();
      partial = total;
      __syncthreads();
    }
    return partial;
#else
    constexpr auto kWarp = static_cast<std::size_t>(kWarpLanes);
    double p[kWarp];
    for (std::size_t l = 0; l < kWarp; ++l) {
      double partial = 0.0;
      for (std::size_t i = l; i < m; i += kWarp) partial = add(partial, i);
      p[l] = partial;
    }
    for (std::size_t d = kWarp / 2; d > 0; d /= 2) {
      double q[kWarp];
      for (std::size_t l = 0; l < kWarp; ++l) q[l] = p[l] + p[l ^ d];
      for (std::size_t l = 0; l < kWarp; ++l) p[l] = q[l];
    }
    return p[0];
#endif
  }
  VOLTAIC_HD bool all_lanes(bool b) const {
#if defined(__CUDA_ARCH__)
    if constexpr (kBlockCell) return __syncthreads_and(b) != 0;
    return __all_sync(0xffffffffu, b) != 0;
#else
    return b;
#endif
  }
  /// A twisted column solve (linalg/twisted_column_ops.hpp): on a GPU lanes
  /// 0 and 1 run its halves, `half(side)`; on a CPU `whole()` runs both
  /// halves' rows in one loop. True on every lane where it solved, after a
  /// barrier that publishes its writes.
  template <class Half, class Whole>
  VOLTAIC_HD bool twisted(const Half& half, const Whole& whole) const {
    bool ok = true;
#if defined(__CUDA_ARCH__)
    static_cast<void>(whole);
    if (lane() < 2) ok = half(static_cast<int>(lane()));
#else
    static_cast<void>(half);
    ok = whole();
#endif
    ok = all_lanes(ok);
    if constexpr (!kBlockCell) sync();  // a warp's vote publishes no memory; the block's barrier does
    return ok;
  }
  /// Level i of a 3-level (c_e, c_surf, phi, aj) or 2-level (c_s) array.
  VOLTAIC_HD double* level3(std::size_t base, std::size_t size, int i) const {
    return at(base + static_cast<std::size_t>((i + k_.rotation3) % 3) * size);
  }
  VOLTAIC_HD double* level2(std::size_t base, std::size_t size, int i) const {
    return at(base + static_cast<std::size_t>((i + k_.rotation2) % 2) * size);
  }
  /// The step's drive `t` seconds into it: [V] for a hold, [W] for a power,
  /// else [A] (as Simulation's StepDrive::at).
  VOLTAIC_HD double drive_at(const ProgramStep& step, double t) const {
    if (step.table_rows > 0) return table(step).value_at(t);
    if (step.voltage_control || !step.c_rate) return step.value;
    return c_rate_amperes(step.value, c_.nominal_capacity, c_.discharge_rate_factor, c_.charge_rate_factor);
  }
  VOLTAIC_HD stepping::DriveTable table(const ProgramStep& step) const {
    return {s_.tables + step.table, s_.tables + step.table + step.table_rows, step.table_rows};
  }
  VOLTAIC_HD double until_current(const ProgramStep& step) const {
    return fabs(step.until_c_rate ? step.until_current * c_.nominal_capacity : step.until_current);
  }
  VOLTAIC_HD const ProgramStep& current_step() const {
    return s_.steps[static_cast<std::size_t>(k_.step % s_.cycle_size)];
  }

  // Vector helpers over this cell's elements.
  VOLTAIC_HD void copy(const double* x, double* y, std::size_t m) const {
    for (std::size_t i = lane(); i < m; i += lanes_) y[i] = x[i];
    sync();
  }
  VOLTAIC_HD void fill(double* y, double v, std::size_t m) const {
    for (std::size_t i = lane(); i < m; i += lanes_) y[i] = v;
    sync();
  }
  VOLTAIC_HD void axpby(double a, const double* x, double b, double* y, std::size_t m) const {
    const ops::Axpby<double> op{a, b};
    for (std::size_t i = lane(); i < m; i += lanes_) y[i] = op(x[i], y[i]);
    sync();
  }
  VOLTAIC_HD void axpy(double a, const double* x, double* y, std::size_t m) const {
    const ops::Axpy<double> op{a};
    for (std::size_t i = lane(); i < m; i += lanes_) y[i] = op(x[i], y[i]);
    sync();
  }
  VOLTAIC_HD double dot(const double* x, const double* y, std::size_t m) const {
    return lane_sum(m, [&](double partial, std::size_t i) { return fp::fma(x[i], y[i], partial); });
  }
  /// max |x|, NaN when any x is NaN.
  VOLTAIC_HD double max_abs(const double* x, std::size_t m) const {
    double top = 0.0;
    bool nan = false;
    for (std::size_t i = lane(); i < m; i += lanes_) {
      const double a = fabs(x[i]);
      if (a != a) nan = true;
      top = fp::max(top, a);
    }
    return all_lanes(!nan) ? reduce_max(top) : NAN;
  }
  VOLTAIC_HD bool above(const double* x, double floor, std::size_t m) const {
    bool ok = true;
    for (std::size_t i = lane(); i < m; i += lanes_) ok = ok && x[i] > floor;
    return all_lanes(ok);
  }
  /// Runs a dfn_point.hpp functor on this cell's n elements.
  template <class F>
  VOLTAIC_HD void each(const F& f) const {
    for (std::size_t c = lane(); c < n_; c += lanes_) f(c);
    sync();
  }
  /// f at each element: each() on the GPU, f.all() on the CPU, whose
  /// elements share work where they can (HeatSourceT::all), the same
  /// operations per element.
  template <class F>
  VOLTAIC_HD void each_grouped(const F& f) const {
#if defined(__CUDA_ARCH__)
    each(f);
#else  // one lane
    f.all(n_);
#endif
  }
  /// f(c) then g(c) at each element (g reads what f wrote at the same
  /// element only): one loop on the GPU; on the CPU f.all() first, whose
  /// elements' solves run together (ReactionCurrentT::all), the same
  /// operations per element.
  template <class F, class G>
  VOLTAIC_HD void each_then(const F& f, const G& g) const {
#if defined(__CUDA_ARCH__)
    each([&](std::size_t c) {
      f(c);
      g(c);
    });
#else  // one lane
    f.all(n_);
    for (std::size_t c = 0; c < n_; ++c) g(c);
#endif
  }
  /// The formula's start a0 y_n + a1 y_{n-1} into y.
  VOLTAIC_HD void start(const Pass& p, const double* y0, const double* y1, double* y, std::size_t m) {
    copy(y0, y, m);
    if (p.a1 != 0.0) axpby(p.a1, y1, p.a0, y, m);
  }

  // The sub-steps.
  /// c_s over the pass from the formula's start (start(), then the step).
  VOLTAIC_HD void particle_step(const Pass& p, double* cs, const double* flux);
#if defined(__CUDA_ARCH__)
  VOLTAIC_HD particle::SharedFactors<double> factors(int electrode) const {
    double* f = at(s_.o.particle_factors) + static_cast<std::size_t>(3 * s_.R * electrode);
    return particle::SharedFactors<double>{f, f + s_.R, f + 2 * s_.R};
  }
#endif
  /// Every particle's surface response over dt to a unit flux from zero (slope).
  VOLTAIC_HD void surface_response(double dt);
  /// Particles [first, last) of one radius and diffusivity (the same bits):
  /// one factorisation serves them all (particle::factor_alike).
  VOLTAIC_HD bool alike(const double* radius, const double* ds, std::size_t first, std::size_t last) const {
    bool ok = true;
    for (std::size_t q = first + lane(); q < last; q += lanes_)
      ok = ok && particle::same_bits(radius[q], radius[first]) && particle::same_bits(ds[q], ds[first]);
    return all_lanes(ok);
  }
  /// The inner faces' diffusivity with the stress factor, from c_s as it is
  /// (ProgramSettings::stress_diffusion; stress_diffusion_point.hpp).
  VOLTAIC_HD void stress_diffusivity();
  /// The porosity change (ProgramSettings::porosity_change; porosity_point.hpp):
  /// eps, eps^b_e and the solid's conductivity per node from the films as they
  /// are. False (Failure::porosity) where a node's pores closed.
  VOLTAIC_HD bool porosity_now();
  /// The electrolyte's start as the amount eps c_e the formula carries
  /// (PyBaMM's state is eps c_e): (a0 eps_n c_n + a1 eps_n-1 c_n-1) / eps.
  VOLTAIC_HD void salt_start(const Pass& p, double* c_e);
  /// eps at negative node c from the films of `level` (0: the last accepted step).
  VOLTAIC_HD double porosity_at_level(int level, std::size_t c) const {
    const SlabOffsets& o = s_.o;
    const auto value = [&](bool on, std::size_t levels, double none) {
      return on ? level3(levels, n_, level)[c] : none;
    };
    return porosity::value(c_.porosity, value(has_sei(), o.c_sei_levels, 0.0), value(has_plating(), o.c_pl_levels, 0.0),
                           value(has_plating(), o.c_dead_levels, 0.0), value(has_lam(), o.active_levels, 1.0));
  }
  /// The porosity, eps^b_e (null: the regions') and the solid's effective
  /// conductivity the steps use: changing with the films, or the constant ones.
  VOLTAIC_HD const double* porosity() const { return at(has_porosity_change() ? s_.o.eps_now : s_.o.porosity); }
  VOLTAIC_HD const double* transport() const { return has_porosity_change() ? at(s_.o.transport) : nullptr; }
  VOLTAIC_HD const double* solid_sigma() const { return at(has_porosity_change() ? s_.o.sigma_now : s_.o.solid_sigma); }
  VOLTAIC_HD void particle_surface(const double* c, const double* flux, double* out);
  VOLTAIC_HD VOLTAIC_CPU_CALL bool concentration(const Pass& p, bool linearised_sink, bool response);
  VOLTAIC_HD bool concentration_finish(const Pass& p);
  VOLTAIC_HD void stencil(const double* kc, const double* d, bool dirichlet_lo, bool dirichlet_hi, bool arithmetic,
                          double* diag, double* tz, bool d_last = false) const;
  /// stencil()'s diagonal for another d, from the faces `tz` that stencil()
  /// gave for the same kc and face rule: the same bits, no face recomputed.
  VOLTAIC_HD double diagonal_at(const double* kc, const double* tz, const double* d, bool dirichlet_lo,
                                bool dirichlet_hi, bool d_last, std::size_t c) const;
  /// (A x)_c of the stencil (diag, tz).
  VOLTAIC_HD double apply_at(const double* diag, const double* tz, const double* x, std::size_t c) const {
    const bool top = c + 1 == n_, bottom = c == 0;
    const double up = top ? x[c] : x[c + 1], down = bottom ? x[c] : x[c - 1];
    const double t_up = top ? 0.0 : tz[c], t_down = bottom ? 0.0 : tz[c - 1];
    return stencil::apply_point(diag[c], x[c], 0.0, x[c], 0.0, x[c], 0.0, x[c], 0.0, x[c], t_up, up, t_down, down);
  }
  /// The potential step under the drive `value` (drive_at).
  VOLTAIC_HD VOLTAIC_CPU_CALL bool potential(const ProgramStep& step, double value);
  /// The potential step under a current [A] (the reaction's guess from the
  /// last accepted pass), the terminal voltage it gives.
  VOLTAIC_HD bool solve_current(double amperes);
  VOLTAIC_HD double terminal_voltage(double amperes) const;
  VOLTAIC_HD VOLTAIC_CPU_CALL bool newton(const dfn::Drive& drive);
  VOLTAIC_HD VOLTAIC_CPU_CALL void heat(const ProgramStep& step, double value);
  VOLTAIC_HD void thermal_update(const Pass& p);
  /// The film's growth over the pass from the last potential step's a j_sei (ProgramSettings::sei).
  VOLTAIC_HD VOLTAIC_CPU_CALL void sei_growth(const Pass& p);
  /// The plated and dead lithium over the pass from the last potential step's a j_pl (ProgramSettings::plating).
  VOLTAIC_HD VOLTAIC_CPU_CALL void plating_growth(const Pass& p);
  /// The active material left and its lost lithium over the pass
  /// (ProgramSettings::lam), from the pass's particles and a j_sei.
  VOLTAIC_HD VOLTAIC_CPU_CALL void lam_growth(const Pass& p);
  /// f = eps_s / eps_s0 per node, or null without a loss of active material.
  VOLTAIC_HD const double* active() const { return has_lam() ? at(s_.o.active) : nullptr; }
  /// The film's thickness c_sei V_bar / a [m] at node i (a = a0 f).
  VOLTAIC_HD double film_thickness(const double* c_sei, std::size_t i) const {
    return has_lam() ? c_sei[i] * c_.sei.c_to_l / at(s_.o.active)[i] : c_sei[i] * c_.sei.c_to_l;
  }
  /// The side reactions' currents from the pass (aj_sei, aj_pl) into the
  /// potential step's guess (pot_aj_sei, pot_aj_pl), or back.
  VOLTAIC_HD void side_to_potential();
  VOLTAIC_HD void side_from_potential();
  /// The side reactions' arrays of the potential step (null where off).
  VOLTAIC_HD dfn::SideArrays potential_side();
  VOLTAIC_HD VOLTAIC_CPU_CALL void mix();

  // The integrator.
  VOLTAIC_HD VOLTAIC_CPU_CALL void predict_inputs(double h);
  VOLTAIC_HD bool attempt(double h, const ProgramStep& step);
  VOLTAIC_HD double split_change() const;
  VOLTAIC_HD double local_error(double h, bool voltage_driven) const;
  /// The step's ends for this cell (step_control.hpp) and the state's margin to them.
  VOLTAIC_HD stepping::Ends ends(const ProgramStep& step) const;
  VOLTAIC_HD double event_margin(const ProgramStep& step) const;
  /// This cell's operator split as the shared pass loop sees it (stepping::split_passes).
  struct Passes {
    CellRunT& run;
    const ProgramStep& step;
    Pass& p;
    VOLTAIC_HD bool concentration(int pass) {
      ++run.k_.passes;
      p.index = pass;
      return run.concentration(p, true, pass == 0);
    }
    VOLTAIC_HD double split_change() const { return run.split_change(); }
    VOLTAIC_HD bool voltage_driven() const { return step.voltage_control; }
    VOLTAIC_HD double current() const { return run.k_.current; }
    VOLTAIC_HD double current_tolerance() const { return run.s_.rtol * fabs(run.k_.current) + run.s_.atol * 1.0; }
    VOLTAIC_HD stepping::Clock& clock() { return run.k_; }
    VOLTAIC_HD void mix() {
      const SlabOffsets& o = run.s_.o;
      run.mix();
      if (run.above(run.at(o.work), 0.0, run.n_)) {
        run.copy(run.at(o.work), run.at(o.c_e), run.n_);
      } else {
        run.k_.mix_count = 0;
      }
    }
    VOLTAIC_HD void reset_mixing() { run.k_.mix_count = 0; }
    VOLTAIC_HD void keep_inputs() {
      const SlabOffsets& o = run.s_.o;
      run.copy(run.at(o.c_e), run.at(o.c_e_pass), run.n_);
      run.copy(run.at(o.T), run.at(o.T_pass), run.n_);
    }
    VOLTAIC_HD bool coupled(int) {
      if (!run.potential(step, p.value)) return false;
      run.heat(step, p.value);
      run.thermal_update(p);
      return true;
    }
    VOLTAIC_HD bool finish() { return run.concentration_finish(p); }
  };
  /// This cell's attempt as the shared skeleton sees it (stepping::attempt).
  struct Attempt {
    CellRunT& run;
    const ProgramStep& step;
    VOLTAIC_HD stepping::Clock& clock() { return run.k_; }
    VOLTAIC_HD void count_attempt() { ++run.k_.attempts; }
    VOLTAIC_HD bool extrapolation_positive(const bdf::Formula& f);
    VOLTAIC_HD double lowest_concentration() const;
    VOLTAIC_HD double initial_concentration() const { return run.c_.ce0; }
    VOLTAIC_HD void predict_inputs(double h) { run.predict_inputs(h); }
    VOLTAIC_HD stepping::SplitEnd split(const bdf::Formula& f, double h, bool rate_test);
    VOLTAIC_HD bool above_depletion_floor() const {
      return run.above(run.at(run.s_.o.c_e), run.depletion_floor(), run.n_);
    }
  };
  /// This cell under one experiment step as the shared step control sees it (step_control.hpp).
  struct Stepped {
    CellRunT& run;
    const ProgramStep& step;
    VOLTAIC_HD bool attempt(double h) { return run.attempt(h, step); }
    VOLTAIC_HD void restore() { run.restore(); }
    VOLTAIC_HD void reject() { ++run.k_.steps_rejected; }
    VOLTAIC_HD double local_error(double h) const { return run.local_error(h, step.voltage_control); }
    VOLTAIC_HD int last_order() const { return run.k_.last_order; }
    VOLTAIC_HD double event_margin() const { return run.event_margin(step); }
    VOLTAIC_HD void save() { run.save(); }
    VOLTAIC_HD void accept(double h) { run.accept(h); }
  };
  /// This cell's potential step as the shared power iteration sees it (stepping::draw_power).
  struct PowerDraw {
    CellRunT& run;
    VOLTAIC_HD bool solve_current(double amperes) { return run.solve_current(amperes); }
    VOLTAIC_HD double terminal_voltage(double amperes) const { return run.terminal_voltage(amperes); }
  };
  VOLTAIC_HD bool consistent_start(const ProgramStep& step);
  VOLTAIC_HD void save();
  VOLTAIC_HD void restore();
  VOLTAIC_HD void accept(double h);
  VOLTAIC_HD void record();
  VOLTAIC_HD bool start_step();
  VOLTAIC_HD bool step_once(bool& step_ended);
  VOLTAIC_HD double depletion_floor() const { return stepping::depletion_floor(s_.atol, c_.ce0); }
  // The degradation submodels the batch runs (always off in CellRunT<false>).
  VOLTAIC_HD bool has_sei() const { return Ageing && s_.sei; }
  VOLTAIC_HD bool has_plating() const { return Ageing && s_.plating; }
  VOLTAIC_HD bool has_side() const { return Ageing && s_.side(); }
  VOLTAIC_HD bool has_lam() const { return Ageing && s_.lam; }
  VOLTAIC_HD bool has_stress_diffusion() const { return Ageing && s_.stress_diffusion; }
  VOLTAIC_HD bool has_porosity_change() const { return Ageing && s_.porosity_change; }
  VOLTAIC_HD void fail(Failure f, double value = 0.0) {
    k_.failure = f;
    k_.failure_value = value;
  }

  const ProgramSettings& s_;
  const CellConstants& c_;
  ProgramClock& k_;
  double* base_;
  // The lanes as constants, not members: this object's members live in a GPU
  // thread's stack (its adapters take its address), and a member lane count
  // was the sm_90 kernel's most reloaded spill slot. On a CPU the element
  // loops get a unit stride GCC vectorises.
#if defined(__CUDA_ARCH__)
  static constexpr std::size_t lanes_ = static_cast<std::size_t>(Lanes);
  VOLTAIC_HD static std::size_t lane() { return threadIdx.x % static_cast<unsigned>(Lanes); }
#else
  static constexpr std::size_t lanes_ = 1;
  VOLTAIC_HD static constexpr std::size_t lane() { return 0; }
#endif
  std::size_t n_, np_;
};

/// The run every CPU caller and an ageing batch on a GPU take.
using CellRun = CellRunT<true, kWarpLanes>;

// ---- Initial state ----------------------------------------------------------

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::initialise() {
  const SlabOffsets& o = s_.o;
  const CellMap& m = c_.k.map;
  double* cs = at(o.c_s);
  for (std::size_t q = lane(); q < np_; q += lanes_) {
    const double c0 = m.region_of(m.cell_of_particle(q)) == CellRegion::negative ? c_.cs0_negative : c_.cs0_positive;
    for (int i = 0; i < s_.R; ++i) cs[static_cast<std::size_t>(i) * np_ + q] = c0;
  }
  sync();
  fill(at(o.c_e), c_.ce0, n_);
  fill(at(o.T), c_.T0, n_);
  fill(at(o.aj), 0.0, n_);
  if (has_sei()) {
    double* c = at(o.c_sei);
    for (std::size_t i = lane(); i < n_; i += lanes_) c[i] = m.region_of(i) == CellRegion::negative ? c_.sei.c0 : 0.0;
    sync();
    fill(at(o.aj_sei), 0.0, n_);
    fill(at(o.pot_aj_sei), 0.0, n_);
  }
  if (has_plating()) {
    double* c = at(o.c_pl);
    for (std::size_t i = lane(); i < n_; i += lanes_)
      c[i] = m.region_of(i) == CellRegion::negative ? c_.plating.c0 : 0.0;
    sync();
    for (std::size_t a : {o.c_dead, o.aj_pl, o.pot_aj_pl, o.adj_pl}) fill(at(a), 0.0, n_);
  }
  if (has_lam()) {
    fill(at(o.active), 1.0, n_);
    fill(at(o.lam_li), 0.0, n_);
  }
  fill(at(o.flux), 0.0, np_);
  fill(at(o.ds), c_.ds0, np_);
  k_ = ProgramClock{};
  k_.lumped_t = c_.T0;
  for (double& t : k_.lumped_history) t = c_.T0;
  k_.max_temperature = c_.T0;
  particle_surface(at(o.c_s), at(o.flux), at(o.c_surf));
  // PotentialStep::initial_guess: the mean OCPs of the two electrodes.
  double mean[2], count[2];
  const double* surf = at(o.c_surf);
  for (int e = 0; e < 2; ++e) {
    const auto in = [&](std::size_t p) { return m.region(m.cell_of_particle(p)) / 2 == e; };
    mean[e] = lane_sum(np_, [&](double sum, std::size_t p) { return in(p) ? sum + surf[p] : sum; });
    count[e] = lane_sum(np_, [&](double sum, std::size_t p) { return in(p) ? sum + 1.0 : sum; });
  }
  double u[2];
  for (int e = 0; e < 2; ++e)
    u[e] = material::open_circuit_potential(c_.k.electrode[e],
                                            mean[e] / count[e] / c_.k.electrode[e].maximum_concentration, c_.T0,
                                            c_.k.reference_temperature);
  double* phi = at(o.phi);
  for (std::size_t c = lane(); c < n_; c += lanes_) {
    phi[c] = m.region_of(c) == CellRegion::positive ? u[1] - u[0] : 0.0;
    phi[n_ + c] = -u[0];
  }
  sync();
  fill(at(o.pot_aj), 0.0, n_);
}

// ---- Particles --------------------------------------------------------------

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::particle_step(const Pass& p, double* cs, const double* flux) {
  const std::size_t m = np_ * static_cast<std::size_t>(s_.R);
  const double *y0 = level2(s_.o.c_s_levels, m, 0), *y1 = level2(s_.o.c_s_levels, m, 1);
  const bool per_face = has_stress_diffusion();
  const particle::StepArgs<double> a{cs,      at(s_.o.particle_work), flux, at(per_face ? s_.o.ds_face : s_.o.ds),
                                     nullptr, at(s_.o.radius),        p.dt, np_,
                                     per_face};
#if defined(__CUDA_ARCH__)
  // As the CPU backend's step, an electrode's alike particles share one
  // factorisation (lanes 0 and 1 take one electrode each): a lane's sweep has
  // one division, not one a shell. The formula's start is taken inside the
  // sweep (start()'s operation on each value): c_s is written once a pass.
  // The same bits as start() and step_particle().
  const std::size_t split = c_.k.map.negative_end;
  const bool same0 = !per_face && alike(a.radius, a.diffusivity, 0, split),
             same1 = !per_face && alike(a.radius, a.diffusivity, split, np_);
  if ((lane() == 0 && same0) || (lane() == 1 && same1)) {
    const std::size_t first = lane() == 0 ? 0 : split;
    particle::factor_alike(s_.mesh, a.radius[first], a.diffusivity[first], p.dt, factors(static_cast<int>(lane())));
  }
  sync();
  const ops::Axpby<double> op{p.a1, p.a0};
  const bool second = p.a1 != 0.0;
  const auto old = [&](std::size_t at) { return second ? op(y1[at], y0[at]) : y0[at]; };
  for (std::size_t q = lane(); q < np_; q += lanes_) {
    const bool negative = q < split;
    if (negative ? same0 : same1) {
      particle::sweep_alike(s_.mesh, a, factors(negative ? 0 : 1), q, old);
      continue;
    }
    for (int i = 0; i < s_.R; ++i) {  // start() of this particle's shells
      const std::size_t k = static_cast<std::size_t>(i) * np_ + q;
      cs[k] = old(k);
    }
    particle::step_particle(s_.mesh, a, q);
  }
  sync();
#else  // start(), then the CPU backend's step: alike particles share a factorisation (the same bits)
  start(p, y0, y1, cs, m);
  cpu::particle_step(s_.mesh, a);
#endif
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::surface_response(double dt) {
  const SlabOffsets& o = s_.o;
  const bool per_face = has_stress_diffusion();
  const double *ds = at(o.ds), *radius = at(o.radius), *ones = at(o.ones);
  double *unit = at(o.unit_c_s), *slope = at(o.slope);
  const particle::StepArgs<double> a{
      unit, at(o.particle_work), ones, at(per_face ? o.ds_face : o.ds), nullptr, radius, dt, np_, per_face};
  // Alike particles respond alike: the first of each such electrode answers for it.
  const std::size_t split = c_.k.map.negative_end, last = static_cast<std::size_t>(s_.R - 1) * np_;
  const bool same0 = !per_face && alike(radius, ds, 0, split), same1 = !per_face && alike(radius, ds, split, np_);
  const auto leader = [&](std::size_t q) { return q < split ? (same0 ? 0 : q) : (same1 ? split : q); };
  for (std::size_t q = lane(); q < np_; q += lanes_) {
    if (leader(q) != q) continue;
    for (int i = 0; i < s_.R; ++i) unit[static_cast<std::size_t>(i) * np_ + q] = 0.0;
    particle::step_particle(s_.mesh, a, q);
    slope[q] =
        particle::surface_value(s_.surface, s_.mesh, unit[last + q], unit[last - np_ + q], ones[q], ds[q], radius[q]);
  }
  sync();
  for (std::size_t q = lane(); q < np_; q += lanes_) {
    if (leader(q) != q) slope[q] = slope[leader(q)];
  }
  sync();
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::stress_diffusivity() {
  const SlabOffsets& o = s_.o;
  const CellMap& m = c_.k.map;
  const double *cs = at(o.c_s), *ds = at(o.ds), *T = at(o.T);
  double* face = at(o.ds_face);
  // A floor keeps the step's matrix an M-matrix where c < c_0 would make the
  // factor non-positive (PyBaMM has none; no built-in set comes near it).
  constexpr double kLeastFactor = 1e-3;
  for (std::size_t q = lane(); q < np_; q += lanes_) {
    const std::size_t cell = m.cell_of_particle(q);
    const stress_diffusion::Electrode& e = c_.stress_diffusion.e[m.region_of(cell) == CellRegion::negative ? 0 : 1];
    for (int i = 0; i + 1 < s_.R; ++i) {
      const std::size_t k = static_cast<std::size_t>(i) * np_ + q;
      face[k] =
          e.on ? ds[q] * fp::max(stress_diffusion::face_factor(e, T[cell], cs[k], cs[k + np_]), kLeastFactor) : ds[q];
    }
  }
  sync();
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::porosity_now() {
  const SlabOffsets& o = s_.o;
  const CellMap& m = c_.k.map;
  const porosity::Constants& k = c_.porosity;
  const double *eps0 = at(o.porosity), *sigma0 = at(o.solid_sigma);
  const double *c_sei = has_sei() ? at(o.c_sei) : nullptr, *f = active();
  const double *c_pl = has_plating() ? at(o.c_pl) : nullptr, *c_dead = has_plating() ? at(o.c_dead) : nullptr;
  double *eps = at(o.eps_now), *transport = at(o.transport), *sigma = at(o.sigma_now);
  double least = 1.0;
  for (std::size_t c = lane(); c < n_; c += lanes_) {
    if (m.region_of(c) != CellRegion::negative) {  // no film: the constant ones
      eps[c] = eps0[c];
      transport[c] = c_.k.region[m.region(c)].transport_factor;
      sigma[c] = sigma0[c];
      continue;
    }
    const double e =
        porosity::value(k, c_sei ? c_sei[c] : 0.0, c_pl ? c_pl[c] : 0.0, c_dead ? c_dead[c] : 0.0, f ? f[c] : 1.0);
    least = fp::min(least, e);
    eps[c] = e;
    transport[c] = porosity::bruggeman(fp::max(e, porosity::kLeastPorosity), k.b_e);
    // PyBaMM's solid transport efficiency (1 - eps)^b_s: the constant one (CellLayout's) scaled by its change.
    sigma[c] = sigma0[c] * porosity::bruggeman((1.0 - e) / (1.0 - k.eps0), k.b_s);
  }
  sync();
  least = reduce_min(least);
  if (least < porosity::kLeastPorosity) {
    fail(Failure::porosity, least);
    return false;
  }
  return true;
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::salt_start(const Pass& p, double* c_e) {
  const CellMap& m = c_.k.map;
  const double *c0 = level3(s_.o.c_e_levels, n_, 0), *c1 = level3(s_.o.c_e_levels, n_, 1), *eps = at(s_.o.eps_now);
  for (std::size_t c = lane(); c < n_; c += lanes_) {
    if (m.region_of(c) != CellRegion::negative) continue;  // eps constant there: the start as it is
    double amount = p.a0 * porosity_at_level(0, c) * c0[c];
    if (p.a1 != 0.0) amount += p.a1 * porosity_at_level(1, c) * c1[c];
    c_e[c] = amount / eps[c];
  }
  sync();
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::particle_surface(const double* c, const double* flux, double* out) {
  const std::size_t stride = np_, last = static_cast<std::size_t>(s_.R - 1) * stride;
  const double *ds = at(s_.o.ds), *radius = at(s_.o.radius);
  for (std::size_t q = lane(); q < np_; q += lanes_)
    out[q] = particle::surface_value(s_.surface, s_.mesh, c[last + q], c[last - stride + q], flux[q], ds[q], radius[q]);
  sync();
}

// ---- Concentration ----------------------------------------------------------

/// A 1D stencil's diagonal and couplings, as StencilOperator's
/// cell_coefficients() rounds them for a 1 x 1 x n grid: insulated x-y faces,
/// z faces Dirichlet 0 or insulated. d_last: the diagonal as
/// StencilOperator::update_diagonal() rounds it (the faces' sum, then d's term).
template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::stencil(const double* kc, const double* d, bool dirichlet_lo,
                                                        bool dirichlet_hi, bool arithmetic, double* diag, double* tz,
                                                        bool d_last) const {
  const stencil::FaceCondition<double> dirichlet{0, 0.0, 0.0};
  const double* dz = at(s_.o.dz);
  const double area = fp::mul(c_.dx, c_.dy);
  for (std::size_t z = lane(); z < n_; z += lanes_) {
    const std::size_t c = z;
    const double h = dz[c], kk = kc[c];
    double out = d_last ? 0.0 : fp::mul(fp::mul(area, h), d[c]), rhs = 0.0, t = 0.0;
    if (z > 0) {
      out = fp::add(out, stencil::face_transmissibility(arithmetic, area, dz[c - 1], kc[c - 1], h, kk));
    } else if (dirichlet_lo) {
      stencil::add_boundary_face(dirichlet, area, h, kk, out, rhs);
    }
    if (z + 1 < n_) {
      t = stencil::face_transmissibility(arithmetic, area, h, kk, dz[c + 1], kc[c + 1]);
      out = fp::add(out, t);
    } else if (dirichlet_hi) {
      stencil::add_boundary_face(dirichlet, area, h, kk, out, rhs);
    }
    diag[c] = d_last ? stencil::cell_diagonal(out, area, h, d[c]) : out;
    tz[c] = t;
  }
  sync();
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline double CellRunT<Ageing, Lanes>::diagonal_at(const double* kc, const double* tz, const double* d,
                                                              bool dirichlet_lo, bool dirichlet_hi, bool d_last,
                                                              std::size_t c) const {
  const stencil::FaceCondition<double> dirichlet{0, 0.0, 0.0};
  const double area = fp::mul(c_.dx, c_.dy), h = at(s_.o.dz)[c];
  double out = d_last ? 0.0 : fp::mul(fp::mul(area, h), d[c]), rhs = 0.0;
  if (c > 0) {
    out = fp::add(out, tz[c - 1]);  // the lower cell's upper face, rounded as stencil() rounds it
  } else if (dirichlet_lo) {
    stencil::add_boundary_face(dirichlet, area, h, kc[c], out, rhs);
  }
  if (c + 1 < n_) {
    out = fp::add(out, tz[c]);
  } else if (dirichlet_hi) {
    stencil::add_boundary_face(dirichlet, area, h, kc[c], out, rhs);
  }
  return d_last ? stencil::cell_diagonal(out, area, h, d[c]) : out;
}

template <bool Ageing, int Lanes>
VOLTAIC_HD bool CellRunT<Ageing, Lanes>::concentration(const Pass& p, bool linearised_sink, bool response) {
  const SlabOffsets& o = s_.o;
  const DfnConstants& k = c_.k;
  double *aj = at(o.aj), *T = at(o.T), *source = at(o.source), *flux = at(o.flux), *ds = at(o.ds);
  double *c_e = at(o.c_e), *de = at(o.de), *iterate = at(o.iterate), *sigma = at(o.sigma), *cap = at(o.capacity);
  const dfn::ConcentrationInputsT<const DfnConstants&> inputs{
      k, aj, T, source, flux, ds, has_sei() ? at(o.aj_sei) : nullptr, has_plating() ? at(o.aj_pl) : nullptr, active()};
  each(inputs);
  if (has_stress_diffusion()) stress_diffusivity();  // from the pass before's shells, before start() resets them
  if (has_porosity_change() && !porosity_now()) return false;
  const dfn::ElectrolytePropertiesT<const DfnConstants&> props{k, c_e, T, de, nullptr, nullptr, transport()};
  each(props);
  if (response) surface_response(p.dt);
  copy(c_e, iterate, n_);
  start(p, level3(o.c_e_levels, n_, 0), level3(o.c_e_levels, n_, 1), c_e, n_);
  if (has_porosity_change()) salt_start(p, c_e);
  const dfn::ElectrolyteSink sink{porosity(), iterate, c_e, p.dt, linearised_sink, source, sigma, cap};
  each(sink);
  // DiffusionStep: (V C / dt) u - div(D grad u) = V (C / dt u_old + s), by the exact column solve.
  double *mass = at(o.work), *diag = at(o.el_diag), *tz = at(o.el_tz), *rhs = at(o.el_rhs);
  const ops::Scale<double> per_dt{1.0 / p.dt};
  for (std::size_t e = lane(); e < n_; e += lanes_) mass[e] = per_dt(cap[e]);
  sync();
  stencil(de, mass, false, false, false, diag, tz);
  const double* volume = at(o.volume);
  for (std::size_t c = lane(); c < n_; c += lanes_)
    rhs[c] = fp::mul(volume[c], fp::fma(1.0, source[c], fp::mul(mass[c], c_e[c])));
  sync();
  ++k_.electrolyte_solves;
  // Thomas is serial; twisted, its two halves run on lanes 0 and 1 of a GPU
  // cell and side by side in one loop on the CPU (the same bits; a cyclic
  // reduction over the lanes was 7 % faster on the GPU and 1.4x slower on
  // the CPU).
  double* inverse = at(o.el_inverse);
  const bool solved =
      twisted([&](int side) { return precond::twisted_column_half(diag, tz, rhs, inverse, c_e, s_.n, side); },
              [&] { return precond::twisted_column_solve(diag, tz, rhs, inverse, c_e, s_.n); });
  if (!solved) {
    fail(Failure::linear);
    return false;
  }
  const dfn::SinkFluxT<const DfnConstants&> sink_flux{k, sigma, c_e, iterate, flux, active()};
  each(sink_flux);
  double* cs = at(o.c_s);
  particle_step(p, cs, flux);
  particle_surface(cs, flux, at(o.c_surf));
  // From the side currents the particles' flux left out: lithium is conserved.
  if (has_sei() && c_.sei.grows()) sei_growth(p);
  if (has_plating()) plating_growth(p);
  if (has_lam()) lam_growth(p);
  return true;
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::concentration_finish(const Pass& p) {
  if (max_abs(at(s_.o.sigma), n_) == 0.0) return true;  // the sink was not linearised
  if (!concentration(p, false, false)) return false;
  if (!above(at(s_.o.c_e), depletion_floor(), n_)) return concentration(p, true, false);
  return true;
}

// ---- Potential --------------------------------------------------------------

template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::solve_current(double amperes) {
  const SlabOffsets& o = s_.o;
  dfn::Drive d;
  d.voltage_control = false;
  d.current_density = amperes / c_.area;
  d.voltage = 0.0;
  copy(at(o.aj), at(o.pot_aj), n_);  // the reaction's guess (ParticleSurface::reaction)
  side_to_potential();
  return newton(d);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline double CellRunT<Ageing, Lanes>::terminal_voltage(double amperes) const {
  const double i = amperes / c_.area;
  return at(s_.o.phi)[n_ - 1] - i * c_.k.last_layer_dz / (2.0 * c_.k.of(CellRegion::positive).solid_conductivity);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD bool CellRunT<Ageing, Lanes>::potential(const ProgramStep& step, double value) {
  const SlabOffsets& o = s_.o;
  if (step.power) {  // the current that draws the power (stepping::draw_power, as Simulation)
    PowerDraw cell{*this};
    const stepping::PowerEnd end = stepping::draw_power(cell, k_, value);
    if (end.outcome == stepping::Power::no_voltage) fail(Failure::power_voltage, end.voltage);
    if (end.outcome == stepping::Power::unsettled) fail(Failure::power_unsettled, end.voltage);
    if (end.outcome != stepping::Power::drawn) return false;
    copy(at(o.pot_aj), at(o.aj), n_);
    side_from_potential();
    copy(at(o.pot_surface), at(o.c_surf), np_);
    return true;
  }
  dfn::Drive d;
  d.voltage_control = step.voltage_control;
  d.current_density = step.voltage_control ? 0.0 : value / c_.area;
  d.voltage = step.voltage_control ? value : 0.0;
  copy(at(o.aj), at(o.pot_aj), n_);  // the reaction's guess (ParticleSurface::reaction)
  side_to_potential();
  if (!newton(d)) return false;
  if (step.voltage_control) {
    k_.voltage = value;
    k_.current = dot(at(o.pot_aj), at(o.negative_volume), n_);
  } else {
    k_.voltage = terminal_voltage(value);
    k_.current = value;
  }
  copy(at(o.pot_aj), at(o.aj), n_);
  side_from_potential();
  copy(at(o.pot_surface), at(o.c_surf), np_);
  return true;
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::side_to_potential() {
  const SlabOffsets& o = s_.o;
  if (has_sei()) copy(at(o.aj_sei), at(o.pot_aj_sei), n_);
  if (has_plating()) copy(at(o.aj_pl), at(o.pot_aj_pl), n_);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::side_from_potential() {
  const SlabOffsets& o = s_.o;
  if (has_sei()) copy(at(o.pot_aj_sei), at(o.aj_sei), n_);
  if (has_plating()) copy(at(o.pot_aj_pl), at(o.aj_pl), n_);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline dfn::SideArrays CellRunT<Ageing, Lanes>::potential_side() {
  const SlabOffsets& o = s_.o;
  return {has_sei() ? at(o.c_sei) : nullptr, has_sei() ? at(o.pot_aj_sei) : nullptr,
          has_plating() ? at(o.c_pl) : nullptr, has_plating() ? at(o.pot_aj_pl) : nullptr,
          has_plating() ? at(o.adj_pl) : nullptr};
}

template <bool Ageing, int Lanes>
VOLTAIC_HD bool CellRunT<Ageing, Lanes>::newton(const dfn::Drive& drive) {
  const SlabOffsets& o = s_.o;
  ++k_.potential_solves;
  const DfnConstants& k = c_.k;
  double *c_e = at(o.c_e), *T = at(o.T), *phi = at(o.phi), *kappa = at(o.kappa), *kappa_d = at(o.kappa_d);
  double *d_logc = at(o.d_logc), *aj = at(o.pot_aj), *adj = at(o.adj), *surface = at(o.pot_surface);
  double *residual = at(o.residual), *update = at(o.update);
  const double *c_surf = at(o.c_surf), *slope = at(o.slope), *flux = at(o.flux);
  if (has_porosity_change() && !porosity_now()) return false;
  const dfn::ElectrolytePropertiesT<const DfnConstants&> props{k, c_e, T, nullptr, kappa, kappa_d, transport()};
  each(props);
  fill(d_logc, 0.0, n_);
  stencil(kappa, d_logc, false, false, s_.kappa_arithmetic, at(o.kap_diag), at(o.kap_tz));
  stencil(kappa_d, d_logc, false, false, s_.kappa_arithmetic, at(o.kd_diag), at(o.kd_tz));
  stencil(solid_sigma(), at(o.separator_one), true, drive.voltage_control, false, at(o.sig_diag), at(o.sig_tz));
  copy(c_e, at(o.c_e_seen), n_);
  const double zero = 0.0;
  const dfn::DiffusionPotential dp{n_, 1, 1, 1, dfn::Couplings{&zero, &zero, at(o.kd_tz)}, c_e, d_logc};
  each(dp);
  // The implicit solves' constants are learned afresh in each potential solve
  // (state of no step: a restored or resumed run makes the same solves).
  double* quadratic = at(o.bv_quadratic);
  fill(quadratic, 0.0, n_);
  const dfn::ReactionCurrentT<const DfnConstants&> reaction{k,    phi, phi + n_, c_e,     T,        c_surf,   slope,
                                                            flux, aj,  adj,      surface, active(), quadratic};
  const dfn::SideReactionT<const DfnConstants&> with_side{reaction, c_.sei, c_.plating, potential_side(),
                                                          at(o.adj_main)};
  const dfn::NewtonSystemT<const DfnConstants&> system{k,   drive,    at(o.s_phi), at(o.e_phi), d_logc,    aj,
                                                       adj, residual, at(o.d_s),   at(o.d_e),   at(o.c01), at(o.c10)};
  double last_update = 0.0;
  // Counted as Simulation counts PotentialReport::iterations: the updates
  // made (a converged solve's last one included).
  const double *sig_tz = at(o.sig_tz), *kap_tz = at(o.kap_tz), *d_s = at(o.d_s), *d_e = at(o.d_e);
  double *s_phi = at(o.s_phi), *e_phi = at(o.e_phi), *j0 = at(o.j0_diag), *j1 = at(o.j1_diag);
  for (int it = 0;; ++it, ++k_.newton_iterations) {
    // At each node after its reaction, in the reaction's loop (each reads
    // only its own node's new values): the stencils' products, the residual,
    // the Jacobian's diagonals (after the first iteration rounded as
    // PotentialStep's diagonal-only update; their faces are the residual's
    // stencils', the same kc and rule) and the residual negated (exactly) as
    // the solve's right side.
    const ops::Scale<double> negate{-1.0};
    const auto assemble = [&](std::size_t c) {
      s_phi[c] = apply_at(at(o.sig_diag), sig_tz, phi, c);
      e_phi[c] = apply_at(at(o.kap_diag), kap_tz, phi + n_, c);
      system(c);
      j0[c] = diagonal_at(solid_sigma(), sig_tz, d_s, true, drive.voltage_control, it > 0, c);
      j1[c] = diagonal_at(kappa, kap_tz, d_e, false, false, it > 0, c);
      residual[c] = negate(residual[c]);
      residual[n_ + c] = negate(residual[n_ + c]);
    };
    if (has_side()) {
      each_then(with_side, assemble);
    } else {
      each_then(reaction, assemble);
    }
    if (it == s_.max_newton) {
      fail(Failure::newton, last_update);
      return false;
    }
    const precond::BlockZLineInputs<double> in{j0, j1, sig_tz, kap_tz, at(o.c01), at(o.c10)};
    double* factors = at(o.factors);
    const bool solved = twisted(  // block Thomas, twisted as the electrolyte's
        [&](int side) { return precond::twisted_block_column_half(in, residual, factors, update, s_.n, side); },
        [&] { return precond::twisted_block_column_solve(in, residual, factors, update, s_.n); });
    if (!solved) {
      fail(Failure::linear);
      return false;
    }
    const double largest = max_abs(update, 2 * n_);
    if (!(largest - largest == 0.0)) {
      fail(Failure::newton_update);
      return false;
    }
    const bool damped = largest > s_.max_update;
    if (damped) {
      const ops::Scale<double> damp{s_.max_update / largest};
      for (std::size_t i = lane(); i < 2 * n_; i += lanes_) update[i] = damp(update[i]);
      sync();
    }
    // As PotentialStep::solve.
    if (it == 1 && !damped && last_update <= newton::kLargest)
      k_.newton_constant = largest / (last_update * last_update);
    const double rate = it > 0 ? fp::min(1.0, largest / last_update) : newton::first_rate(k_.newton_constant, largest);
    last_update = largest;
    // phi moved by the update (axpy's operation at each node) and, in the same
    // loop, the reaction moved to first order along it: the solve's end, or the
    // next iteration's guesses (its implicit solves start a second-order step
    // from their roots).
    const dfn::LinearisedReactionT<const DfnConstants&> finish{k,    update, adj,     c_surf,  slope,
                                                               flux, aj,     surface, active()};
    const ops::Axpy<double> move{1.0};
    const auto moved = [&](const auto& f) {
      return [&](std::size_t c) {
        phi[c] = move(update[c], phi[c]);
        phi[n_ + c] = move(update[n_ + c], phi[n_ + c]);
        f(c);
      };
    };
    if (has_side()) {
      each(moved(dfn::SideLinearisedT<const DfnConstants&>{finish, at(o.adj_main), potential_side()}));
    } else {
      each(moved(finish));
    }
    if (!damped && largest * rate <= s_.newton_tolerance) {
      ++k_.newton_iterations;
      return true;
    }
  }
}

// ---- Thermal ----------------------------------------------------------------

template <bool Ageing, int Lanes>
VOLTAIC_HD void CellRunT<Ageing, Lanes>::heat(const ProgramStep& step, double value) {
  const SlabOffsets& o = s_.o;
  dfn::Drive d;
  d.voltage_control = step.voltage_control;
  d.current_density = step.voltage_control ? 0.0 : k_.current / c_.area;
  d.voltage = step.voltage_control ? value : 0.0;
  const double zero = 0.0;
  const double* phi = at(o.phi);
  const dfn::HeatSourceT<const DfnConstants&> h{c_.k,
                                                d,
                                                1,
                                                1,
                                                dfn::Couplings{&zero, &zero, at(o.sig_tz)},
                                                dfn::Couplings{&zero, &zero, at(o.kap_tz)},
                                                dfn::Couplings{&zero, &zero, at(o.kd_tz)},
                                                phi,
                                                phi + n_,
                                                at(o.c_e_seen),
                                                at(o.pot_aj),
                                                at(o.c_surf),
                                                at(o.T),
                                                at(o.q)};
  if (has_side()) {
    dfn::HeatSourceT<const DfnConstants&> with_side = h;
    if (has_sei()) {
      double* drop = at(o.film_drop);
      const double *aj = at(o.pot_aj), *c_sei = at(o.c_sei);
      const double a = c_.k.of(CellRegion::negative).surface_area;
      const double per = c_.sei.film ? c_.sei.c_to_l * c_.sei.resistivity / a : 0.0;
      const double* f = active();  // a = a0 f: j_tot L_sei = (a j_tot) (c_sei V_bar / a0) / f^2
      for (std::size_t i = lane(); i < n_; i += lanes_)
        drop[i] = f ? aj[i] * c_sei[i] * per / (f[i] * f[i]) : aj[i] * c_sei[i] * per;  // j_tot L_sei R_sei
      sync();
      with_side.aj_side = at(o.pot_aj_sei);
      with_side.film_drop = drop;
    }
    if (has_plating()) with_side.aj_plating = at(o.pot_aj_pl);
    each_grouped(with_side);
  } else {
    each_grouped(h);
  }
  k_.heat_w = dot(at(o.q), at(o.volume), n_) + k_.current * k_.current * c_.foils / c_.area;
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::thermal_update(const Pass& p) {
  if (!s_.lumped) return;
  // LumpedThermal::step
  const double t = p.a0 * k_.lumped_history[0] + p.a1 * k_.lumped_history[1];
  const double cap = c_.lumped_capacity / p.dt;
  k_.lumped_t = (cap * t + k_.heat_w + c_.lumped_cooling * c_.ambient) / (cap + c_.lumped_cooling);
  fill(at(s_.o.T), k_.lumped_t, n_);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD void CellRunT<Ageing, Lanes>::sei_growth(const Pass& p) {
  // dc_sei/dt = -a j_sei / (F z_sei), with the particles' formula and pass.
  const SlabOffsets& o = s_.o;
  double* c = at(o.c_sei);
  start(p, level3(o.c_sei_levels, n_, 0), level3(o.c_sei_levels, n_, 1), c, n_);
  const double* aj_sei = at(o.aj_sei);
  const double rate = -p.dt / (kFaraday * c_.sei.z);
  for (std::size_t i = lane(); i < n_; i += lanes_) c[i] = fp::fma(rate, aj_sei[i], c[i]);
  sync();
}

template <bool Ageing, int Lanes>
VOLTAIC_HD void CellRunT<Ageing, Lanes>::plating_growth(const Pass& p) {
  // dc_pl/dt = -a j_pl / F - gamma c_pl, dc_dead/dt = gamma c_pl
  // ("irreversible": all of -a j_pl / F to c_dead), with the particles'
  // formula and pass; the decay implicit (gamma from this pass's film).
  const SlabOffsets& o = s_.o;
  double *c = at(o.c_pl), *dead = at(o.c_dead);
  start(p, level3(o.c_pl_levels, n_, 0), level3(o.c_pl_levels, n_, 1), c, n_);
  start(p, level3(o.c_dead_levels, n_, 0), level3(o.c_dead_levels, n_, 1), dead, n_);
  const double* aj_pl = at(o.aj_pl);
  const double* c_sei = has_sei() ? at(o.c_sei) : nullptr;
  const double rate = -p.dt / kFaraday;
  const bool irreversible = c_.plating.model == PlatingModel::irreversible;
  for (std::size_t i = lane(); i < n_; i += lanes_) {
    if (irreversible) {
      dead[i] = fp::fma(rate, aj_pl[i], dead[i]);
      continue;
    }
    const double gamma = c_sei && c_sei[i] > 0.0 ? plating::decay(c_.plating, film_thickness(c_sei, i)) : 0.0;
    const double plated = fp::fma(rate, aj_pl[i], c[i]) / fp::fma(p.dt, gamma, 1.0);
    dead[i] = fp::fma(p.dt * gamma, plated, dead[i]);
    c[i] = plated;
  }
  sync();
}

template <bool Ageing, int Lanes>
VOLTAIC_HD void CellRunT<Ageing, Lanes>::lam_growth(const Pass& p) {
  // df/dt = lam::rate, dLLI/dt = -c_rav eps_s0 df/dt, with the particles'
  // formula and pass; the rate from this pass's particles (explicit in f).
  const SlabOffsets& o = s_.o;
  const CellMap& m = c_.k.map;
  double *f = at(o.active), *li = at(o.lam_li);
  start(p, level3(o.active_levels, n_, 0), level3(o.active_levels, n_, 1), f, n_);
  start(p, level3(o.lam_li_levels, n_, 0), level3(o.lam_li_levels, n_, 1), li, n_);
  const double *cs = at(o.c_s), *surf = at(o.c_surf), *aj_sei = has_sei() ? at(o.aj_sei) : nullptr;
  for (std::size_t c = lane(); c < n_; c += lanes_) {
    const int e = m.region(c) / 2;
    if (m.in_separator(c) || !c_.lam.e[e].on()) {  // as it was: the formula's weights sum to 1 within rounding
      f[c] = 1.0;
      li[c] = 0.0;
      continue;
    }
    const std::size_t q = m.particle_of_cell(c);
    double sum = 0.0, volume = 0.0;
    for (int i = 0; i < s_.mesh.n; ++i) {
      sum = fp::fma(s_.mesh.volume[i], cs[q + static_cast<std::size_t>(i) * np_], sum);
      volume = volume + s_.mesh.volume[i];
    }
    const double c_rav = sum / volume;
    const double df = p.dt * lam::rate(c_.lam.e[e], c_rav, surf[q], aj_sei ? aj_sei[c] : 0.0);
    f[c] = f[c] + df;
    li[c] = fp::fma(-c_rav * c_.lam.e[e].eps0, df, li[c]);
  }
  sync();
}

// ---- Anderson mixing of c_e (anderson_mixing.cpp) ------------------------------

/// next c_e from the pass's input x (c_e_pass) and output g (c_e), into work.
template <bool Ageing, int Lanes>
VOLTAIC_HD void CellRunT<Ageing, Lanes>::mix() {
  const SlabOffsets& o = s_.o;
  const double *x = at(o.c_e_pass), *g = at(o.c_e);
  double *f = at(o.mix_f), *f_last = at(o.mix_f_last), *g_last = at(o.mix_g_last), *next = at(o.work);
  copy(g, f, n_);
  axpy(-1.0, x, f, n_);
  if (k_.mix_count > 0) {
    const int slot = (k_.mix_count - 1) % mixing::kDepth;
    double *df = at(o.mix_df + static_cast<std::size_t>(slot) * n_), *dg = at(o.mix_dg + slot * n_);
    copy(f, df, n_);
    axpy(-1.0, f_last, df, n_);
    copy(g, dg, n_);
    axpy(-1.0, g_last, dg, n_);
  }
  copy(f, f_last, n_);
  copy(g, g_last, n_);
  copy(g, next, n_);
  const int m = k_.mix_count < mixing::kDepth ? k_.mix_count : mixing::kDepth;
  ++k_.mix_count;
  if (m == 0) return;
  double a[mixing::kDepth * mixing::kDepth], b[mixing::kDepth];
  for (int i = 0; i < m; ++i) {
    const double* di = at(o.mix_df + static_cast<std::size_t>(i) * n_);
    b[i] = dot(di, f, n_);
    for (int j = 0; j <= i; ++j) a[i * m + j] = a[j * m + i] = dot(di, at(o.mix_df + j * n_), n_);
  }
  if (!mixing::solve_normal_equations(a, b, m)) {  // no usable history: start again from this point
    k_.mix_count = 1;
    return;
  }
  for (int i = 0; i < m; ++i) axpy(-b[i], at(o.mix_dg + static_cast<std::size_t>(i) * n_), next, n_);
}

// ---- One attempt --------------------------------------------------------------

template <bool Ageing, int Lanes>
VOLTAIC_HD inline double CellRunT<Ageing, Lanes>::split_change() const {
  const SlabOffsets& o = s_.o;
  const bdf::Estimate same = bdf::previous_value();
  const auto change = [&](const double* now, const double* before, double scale) {
    const double atol = s_.atol * scale;
    const double squares = lane_sum(n_, [&](double sum, std::size_t i) {
      const double e = bdf::weighted_deviation(same, now[i], before[i], before[i], before[i], s_.rtol, atol);
      return fp::fma(e, e, sum);
    });
    return sqrt(squares / double(n_));
  };
  double d = change(at(o.c_e), at(o.c_e_pass), c_.ce0);
  if (s_.lumped) d = fp::max(d, change(at(o.T), at(o.T_pass), 1.0));
  return d;
}

/// Simulation::predict_inputs: the first pass's reaction, potentials,
/// electrolyte and (lumped) temperature from the error estimate's predictor.
template <bool Ageing, int Lanes>
VOLTAIC_HD void CellRunT<Ageing, Lanes>::predict_inputs(double h) {
  const SlabOffsets& o = s_.o;
  const int degree = k_.history >= 3 ? 2 : 1;
  const bdf::Estimate e = bdf::estimate(degree, h, k_.h1, k_.h2);
  const auto predict = [&](std::size_t levels, double* live, std::size_t m) {
    copy(level3(levels, m, 0), live, m);
    axpby(e.l1, level3(levels, m, 1), e.l0, live, m);
    if (degree == 2) axpy(e.l2, level3(levels, m, 2), live, m);
  };
  predict(o.aj_levels, at(o.aj), n_);
  if (has_sei()) {
    predict(o.aj_sei_levels, at(o.aj_sei), n_);
    if (c_.sei.grows()) predict(o.c_sei_levels, at(o.c_sei), n_);
  }
  if (has_plating()) {
    predict(o.aj_pl_levels, at(o.aj_pl), n_);
    predict(o.c_pl_levels, at(o.c_pl), n_);
    predict(o.c_dead_levels, at(o.c_dead), n_);
  }
  if (has_lam()) {
    predict(o.active_levels, at(o.active), n_);
    predict(o.lam_li_levels, at(o.lam_li), n_);
  }
  predict(o.phi_levels, at(o.phi), 2 * n_);
  predict(o.c_e_levels, at(o.c_e), n_);
  if (!above(at(o.c_e), 0.0, n_)) copy(level3(o.c_e_levels, n_, 0), at(o.c_e), n_);
  if (!s_.lumped) return;
  // The cells' temperature is the lumped one, whose past values are scalars.
  double t = ops::Axpby<double>{e.l1, e.l0}(k_.lumped_history[1], k_.lumped_history[0]);
  if (degree == 2) t = ops::Axpy<double>{e.l2}(k_.lumped_history[2], t);
  fill(at(o.T), t, n_);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::Attempt::extrapolation_positive(const bdf::Formula& f) {
  const SlabOffsets& o = run.s_.o;
  double* w = run.at(o.work);
  run.copy(run.level3(o.c_e_levels, run.n_, 0), w, run.n_);
  run.axpby(f.a1, run.level3(o.c_e_levels, run.n_, 1), f.a0, w, run.n_);
  return run.above(w, 0.0, run.n_);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline double CellRunT<Ageing, Lanes>::Attempt::lowest_concentration() const {
  double least = INFINITY;
  const double* c_e = run.level3(run.s_.o.c_e_levels, run.n_, 0);
  for (std::size_t c = lane(); c < run.n_; c += lanes_) least = fp::min(least, fabs(c_e[c]));
  return run.reduce_min(least);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline stepping::SplitEnd CellRunT<Ageing, Lanes>::Attempt::split(const bdf::Formula& f, double h,
                                                                             bool rate_test) {
  Pass p{f.a0, f.a1, f.beta * h, 0, run.drive_at(step, run.k_.elapsed + h)};  // implicit: the drive at the new time
  Passes passes{run, step, p};
  return stepping::split_passes(passes, h, rate_test, run.s_.max_split);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::attempt(double h, const ProgramStep& step) {
  Attempt a{*this, step};
  const stepping::AttemptEnd end = stepping::attempt(a, h);
  switch (end.outcome) {
    case stepping::Attempted::passed: return true;
    case stepping::Attempted::failed: return false;  // the sub-step said why
    case stepping::Attempted::nonfinite_inputs: fail(Failure::split_nonfinite); return false;
    case stepping::Attempted::unsettled: fail(Failure::split, end.change); return false;
    case stepping::Attempted::nonfinite_terminal: fail(Failure::terminal); return false;
    case stepping::Attempted::depleted: fail(Failure::depletion); return false;
  }
  return false;
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline double CellRunT<Ageing, Lanes>::local_error(double h, bool voltage_driven) const {
  if (k_.history < 2) return -1.0;
  const SlabOffsets& o = s_.o;
  const int order = k_.last_order;
  const bdf::Estimate e = bdf::estimate(order, h, k_.h1, k_.h2);
  const auto norm = [&](const double* y, const double* y0, const double* y1, const double* y2, std::size_t m,
                        double scale) {
    const double atol = s_.atol * scale;
    const double squares = lane_sum(m, [&](double sum, std::size_t i) {
      const double x = bdf::weighted_deviation(e, y[i], y0[i], y1[i], y2[i], s_.rtol, atol);
      return fp::fma(x, x, sum);
    });
    return sqrt(squares / double(m));
  };
  const int back = order >= 2 ? 2 : 1;
  double error = norm(at(o.c_e), level3(o.c_e_levels, n_, 0), level3(o.c_e_levels, n_, 1),
                      level3(o.c_e_levels, n_, back), n_, c_.ce0);
  error = fp::max(error, norm(at(o.c_surf), level3(o.c_surf_levels, np_, 0), level3(o.c_surf_levels, np_, 1),
                              level3(o.c_surf_levels, np_, back), np_, c_.c_max));
  const auto state = [&](std::size_t live, std::size_t levels, double scale) {
    error = fp::max(error,
                    norm(at(live), level3(levels, n_, 0), level3(levels, n_, 1), level3(levels, n_, back), n_, scale));
  };
  if (has_sei() && c_.sei.grows()) state(o.c_sei, o.c_sei_levels, c_.sei.c0);
  if (has_plating()) {
    state(o.c_pl, o.c_pl_levels, c_.plating.scale);
    state(o.c_dead, o.c_dead_levels, c_.plating.scale);
  }
  if (has_lam()) state(o.active, o.active_levels, 1.0);
  error = fp::max(error, stepping::terminal_error(k_, e, voltage_driven, s_.lumped, s_.rtol, s_.atol));
  return stepping::error_test(error);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::save() {
  const SlabOffsets& o = s_.o;
  copy(at(o.c_s), level2(o.c_s_levels, np_ * s_.R, 0), np_ * s_.R);
  copy(at(o.c_e), level3(o.c_e_levels, n_, 0), n_);
  copy(at(o.c_surf), level3(o.c_surf_levels, np_, 0), np_);
  copy(at(o.phi), level3(o.phi_levels, 2 * n_, 0), 2 * n_);
  copy(at(o.aj), level3(o.aj_levels, n_, 0), n_);
  if (has_sei()) {
    copy(at(o.c_sei), level3(o.c_sei_levels, n_, 0), n_);
    copy(at(o.aj_sei), level3(o.aj_sei_levels, n_, 0), n_);
  }
  if (has_plating()) {
    copy(at(o.c_pl), level3(o.c_pl_levels, n_, 0), n_);
    copy(at(o.c_dead), level3(o.c_dead_levels, n_, 0), n_);
    copy(at(o.aj_pl), level3(o.aj_pl_levels, n_, 0), n_);
  }
  if (has_lam()) {
    copy(at(o.active), level3(o.active_levels, n_, 0), n_);
    copy(at(o.lam_li), level3(o.lam_li_levels, n_, 0), n_);
  }
  k_.save();
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::restore() {
  const SlabOffsets& o = s_.o;
  copy(level2(o.c_s_levels, np_ * s_.R, 0), at(o.c_s), np_ * s_.R);
  copy(level3(o.c_e_levels, n_, 0), at(o.c_e), n_);
  copy(level3(o.c_surf_levels, np_, 0), at(o.c_surf), np_);
  copy(level3(o.phi_levels, 2 * n_, 0), at(o.phi), 2 * n_);
  copy(level3(o.aj_levels, n_, 0), at(o.aj), n_);
  if (has_sei()) {
    copy(level3(o.c_sei_levels, n_, 0), at(o.c_sei), n_);
    copy(level3(o.aj_sei_levels, n_, 0), at(o.aj_sei), n_);
  }
  if (has_plating()) {
    copy(level3(o.c_pl_levels, n_, 0), at(o.c_pl), n_);
    copy(level3(o.c_dead_levels, n_, 0), at(o.c_dead), n_);
    copy(level3(o.aj_pl_levels, n_, 0), at(o.aj_pl), n_);
  }
  if (has_lam()) {
    copy(level3(o.active_levels, n_, 0), at(o.active), n_);
    copy(level3(o.lam_li_levels, n_, 0), at(o.lam_li), n_);
  }
  k_.restore();
  fill(at(o.T), k_.lumped_t, n_);  // T is the lumped temperature everywhere (or the initial one)
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::accept(double h) {
  k_.rotation3 = (k_.rotation3 + 2) % 3;  // level i <- level i - 1
  k_.rotation2 = (k_.rotation2 + 1) % 2;
  k_.accept(h);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::record() {
  if (k_.rows < s_.rows_per_call) {
    const std::size_t row = s_.o.rows + static_cast<std::size_t>(k_.rows) * kRowValues;
    const double values[kRowValues] = {k_.time, k_.voltage, k_.current, k_.lumped_t};
    if (lane() == 0)
      for (int v = 0; v < kRowValues; ++v) at(row + v)[0] = values[v];
  }
  ++k_.rows;
  k_.max_temperature = fp::max(k_.max_temperature, k_.lumped_t);
}

// ---- Events and the step driver (simulation_steps.cpp) -------------------------

template <bool Ageing, int Lanes>
VOLTAIC_HD inline stepping::Ends CellRunT<Ageing, Lanes>::ends(const ProgramStep& step) const {
  stepping::Ends e;
  e.voltage_control = step.voltage_control;
  e.lower_cutoff = c_.lower_cutoff;
  e.upper_cutoff = c_.upper_cutoff;
  e.has_until_voltage = step.has_until_voltage;
  e.until_voltage = step.until_voltage;
  e.has_until_current = step.has_until_current;
  e.until_current = step.has_until_current ? until_current(step) : 0.0;
  return e;
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline double CellRunT<Ageing, Lanes>::event_margin(const ProgramStep& step) const {
  const stepping::Side side = stepping::side(step.table_rows > 0, drive_at(step, 0.0), k_.current, k_.until_below);
  return stepping::event_margin(ends(step), side, k_.voltage, k_.current);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::consistent_start(const ProgramStep& step) {
  fill(at(s_.o.slope), 0.0, np_);            // the surface is held where the particles are
  const double value = drive_at(step, 0.0);  // no time passes
  if (!potential(step, value)) return false;
  heat(step, value);
  k_.history = 1;
  return true;
}

/// A fresh experiment step: its consistent start, first row and feasibility.
/// False when the cell ends here.
template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::start_step() {
  const ProgramStep& step = current_step();
  if (!consistent_start(step)) {
    k_.ending = Ending::failed_step;
    return false;
  }
  k_.until_below = step.has_until_voltage && k_.voltage > step.until_voltage;
  record();
  switch (stepping::start_check(ends(step), drive_at(step, 0.0), k_.voltage, event_margin(step))) {
    case stepping::Start::feasible: break;
    case stepping::Start::until_voltage_behind: k_.ending = Ending::infeasible_voltage; return false;
    case stepping::Start::cutoff_reached: k_.ending = Ending::infeasible_cutoff; return false;
  }
  k_.start_step(s_.initial_dt);
  k_.step_started = true;
  return true;
}

/// One accepted time step of the present experiment step (or its end).
template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::step_once(bool& step_ended) {
  const ProgramStep& step = current_step();
  const stepping::DriveTable rows = table(step);
  Stepped cell{*this, step};
  const stepping::Advanced a = stepping::advance(cell, k_, s_.limits, step.has_duration ? step.duration : INFINITY,
                                                 k_.next_output - k_.time, step.table_rows > 0 ? &rows : nullptr);
  step_ended = false;
  switch (a.outcome) {
    case stepping::Advance::duration:
      k_.ended_by_event = false;
      step_ended = true;
      return true;
    case stepping::Advance::solver_failed: return false;  // a failed attempt said why
    case stepping::Advance::error_stuck:
      fail(Failure::local_error, a.tried.error);
      k_.failure_dt = a.tried.h;
      return false;
    case stepping::Advance::accepted:
    case stepping::Advance::event: break;
  }
  const bool event = a.outcome == stepping::Advance::event;
  ++k_.steps_taken;
  record();
  step_ended = event;
  k_.ended_by_event = event;
  if (!event && stepping::stalled(k_, a.h, a.at_boundary, s_.limits.min_dt, s_.limits.max_dt, s_.limits.max_steps)) {
    fail(Failure::stalled);
    k_.failure_dt = a.h;
    return false;
  }
  return true;
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::circuit_start(double amperes, double initial_dt) {
  ProgramStep step;
  step.value = amperes;
  if (!consistent_start(step)) return false;
  k_.start_step(initial_dt);
  return true;
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline bool CellRunT<Ageing, Lanes>::circuit_attempt(double h, double amperes) {
  ProgramStep step;
  step.value = amperes;
  return attempt(h, step);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::circuit_accept(double h) {
  stepping::account(k_.capacity_ah, k_.energy_wh, k_.current_history[0], k_.voltage_history[0], k_.current, k_.voltage,
                    h);
  k_.time += h;
  k_.elapsed += h;
  ++k_.steps_taken;
  k_.max_temperature = fp::max(k_.max_temperature, k_.lumped_t);
  accept(h);
}

template <bool Ageing, int Lanes>
VOLTAIC_HD inline void CellRunT<Ageing, Lanes>::advance() {
  while (k_.ending == Ending::running && k_.rows < s_.rows_per_call) {
    if (k_.step >= s_.total_steps) {
      k_.ending = Ending::completed;
      return;
    }
    if (!k_.step_started) {
      if (!start_step()) return;
      continue;
    }
    bool ended = false;
    if (!step_once(ended)) {
      k_.ending = Ending::failed_step;
      return;
    }
    if (ended) {
      k_.step_started = false;
      ++k_.step;
      if (s_.pause_at_step_ends || (s_.pause_at_cycle_ends && k_.step % s_.cycle_size == 0)) return;
    }
  }
}

}  // namespace voltaic::program
