#pragma once
/// @file plane_multigrid.hpp
/// @brief Geometric multigrid for the two-foil in-plane system
/// (plane_system.hpp), as a Preconditioner of the Krylov solvers.

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/plane_system.hpp"
#include "voltaic/linalg/preconditioner.hpp"

namespace voltaic {

namespace cuda {
class GraphCache;
}  // namespace cuda

namespace plane {
template <class T>
struct Level;
template <class T>
struct Transfer;
template <class T>
struct FusedCycle;
template <class T>
struct HostLevel;
}  // namespace plane

template <class T>
class CutPlaneMultigrid;

/// How a level's residual goes to the next coarser level. Both keep the
/// total (integrated) residual.
enum class PlaneRestriction {
  /// The transpose of the bilinear prolongation (each fine residual shared
  /// among the coarse cells its interpolation uses, with the same weights):
  /// the V-cycle is then symmetric, as CG needs.
  bilinear_transpose,
  /// The sum of the residuals of the fine cells a coarse cell aggregates:
  /// cheaper (no residual array), but M is not symmetric.
  cell_sum,
};

struct PlaneMultigridOptions {
  int pre_smoothing = 2;   ///< nu1: red-black sweeps (red, then black) before each coarse correction, >= 0
  int post_smoothing = 2;  ///< nu2: sweeps (black, then red) after it, >= 0; nu1 = nu2 keeps M symmetric (CG)
  PlaneRestriction restriction = PlaneRestriction::bilinear_transpose;
  /// On CUDA, the coarse levels of at most kPlaneFusedCells cells each run as
  /// one kernel (one thread block walks them, a barrier between steps):
  /// the same cell operations in the same colour order, so the same bits as
  /// a kernel per step, without some 45 launches of a few microseconds each.
  bool fuse_coarse_levels = true;
  /// On CUDA, each V-cycle is a CUDA graph, captured at the first apply()
  /// with a given pair of r and z and replayed after: the same kernels with
  /// the same arguments, so the same bits, in one launch (23 on the 130 x
  /// 130 plane). Off, or with debug_sync() on, every kernel is launched.
  bool cuda_graphs = true;
};

/// A direction with more than this many cells is coarsened; the coarsest
/// level has at most kPlaneCoarsest x kPlaneCoarsest cells.
constexpr int kPlaneCoarsest = 4;

/// On CUDA the levels of at most this many cells (33 x 33) run as one kernel
/// (PlaneMultigridOptions::fuse_coarse_levels); at most kPlaneFusedLevels of them.
constexpr std::size_t kPlaneFusedCells = 1089;
constexpr int kPlaneFusedLevels = 8;

/// One V-cycle of cell-centred geometric multigrid per apply: z = M^{-1} r,
/// from z = 0 (docs/multigrid.md).
///
/// Levels: level 0 is the operator's grid; each next level halves every
/// direction that has more than kPlaneCoarsest cells (pairs of cells from the
/// first; with an odd count the last coarse cell holds one fine cell), until
/// both have at most kPlaneCoarsest. Coarse cells may be of unequal widths,
/// so each level keeps its cell widths and centres per direction and is
/// rediscretised with the actual geometry: the coupling between neighbouring
/// cells is k_f (face length) / (centre distance); the 2x2 blocks are the sums
/// of the aggregated fine blocks. A coarse boundary face's Dirichlet
/// conductance is that of the fine faces it covers (summed: they are in
/// parallel) in series with the strip of foil between the fine and the coarse
/// boundary cells' centres: D = 1 / (1 / sum D_fine + d / (k_f len)),
/// d = (h_coarse - h_fine) / 2. On a fully covered edge that is 2 k_f len / h
/// of the coarse cell, the usual rediscretisation; on a partly covered one it
/// keeps the boundary's conductance across levels, which the rediscretised
/// 2 k_f w len / h with the mean coverage w does not (it halves per level, and
/// the V-cycle diverges on nearly Neumann problems).
///
/// Cycle, on each level but the coarsest: nu1 sweeps of red-black 2x2-block
/// Gauss-Seidel (each cell solves its own 2x2 block with its neighbours held;
/// red, then black) from z = 0; the residual r - A z restricted (options:
/// the transpose of the prolongation, the default, or the sum over each coarse
/// cell's fine cells); the coarse correction; z += its bilinear interpolation
/// (linear in x then y between cell centres, constant beyond the outermost
/// ones); nu2 sweeps in the reverse colour order (black, then red). The
/// coarsest level (at most 4 x 4 cells, 32 unknowns) is solved exactly by a
/// dense LU with partial pivoting, factored by update(). With nu1 = nu2, the
/// default restriction, symmetric blocks and A positive definite, M is
/// symmetric positive definite (CG may use it).
///
/// The level structure (geometry, couplings, Dirichlet terms, transfer
/// weights) is built at construction; update() recomputes every level's
/// blocks, the smoother's inverse diagonal blocks and the coarsest
/// factorisation, allocating nothing (one host wait, for its checks).
/// Deterministic: the same bits on every apply; the CPU and CUDA backends run
/// the same cell operations (src/linalg/plane_ops.hpp) with explicit rounding.
/// A singular A is reported only when the coarsest LU meets an exact zero
/// pivot; a nearly singular one (a field held only through weak blocks) is
/// legitimate and is solved as it is.
///
/// On CUDA every step of a fine level is one kernel on stream 0 (11 per level
/// with nu1 = nu2 = 2); the coarse levels of at most kPlaneFusedCells cells
/// and the coarsest solve are one kernel of one thread block; nothing goes to
/// the host during apply(). Memory per apply on a level of n cells (values per
/// cell, both fields): each half-sweep reads r, z and the inverse blocks of
/// its colour and the neighbours' z (about 5 per cell of the level), the
/// residual reads z, r, the Dirichlet diagonal and the blocks and writes the
/// residual (12), the restriction reads it (2), the prolongation reads and
/// writes z (4): about 40n per level with nu1 = nu2 = 2, 53n for the whole
/// hierarchy (coarse levels add a third).
template <class T>
class PlaneMultigrid final : public Preconditioner<T> {
 public:
  /// @throws InvalidArgument when an option is out of range, or naming the
  ///         level and cell whose diagonal block or coarsest pivot is not
  ///         finite and > 0 (A is then not positive definite enough to smooth)
  explicit PlaneMultigrid(const PlaneOperator<T>& op, PlaneMultigridOptions options = {});
  /// From the system directly; the system need not outlive the preconditioner.
  explicit PlaneMultigrid(const PlaneSystem<T>& system, PlaneMultigridOptions options = {});

  /// New blocks from the operator (same grid and k; its coverage is taken to
  /// be the one at construction). No allocation. After a rejected update the
  /// preconditioner is unusable until an update succeeds.
  /// @throws SizeMismatch when the grid differs, InvalidArgument as the constructor
  void update(const PlaneOperator<T>& op);
  void update(const PlaneSystem<T>& system);
  /// New blocks given directly (nx ny values each, checked finite).
  void update(View<const T> b00, View<const T> b01, View<const T> b10, View<const T> b11);

  std::size_t size() const override { return 2 * grid_.num_cells(); }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  /// One V-cycle: z = M^{-1} r (r and z must not overlap).
  void apply(View<const T> r, View<T> z) const override;
  /// Kernels only (the whole plane's V-cycle, no host wait).
  bool stream_ordered() const override { return true; }
  /// V-cycles held as CUDA graphs (PlaneMultigridOptions::cuda_graphs; 0 on the CPU).
  std::size_t cuda_graphs() const;

  const PlaneMultigridOptions& options() const { return options_; }
  /// Levels, finest first; the last is solved exactly.
  int num_levels() const { return static_cast<int>(levels_.size()); }
  /// Cells of level l in x and y.
  int level_nx(int l) const { return levels_.at(l).nx; }
  int level_ny(int l) const { return levels_.at(l).ny; }

 private:
  struct Level {
    int nx = 0, ny = 0;
    bool coarsen_x = false, coarsen_y = false;  ///< how this level was made from the finer one
    Array<T> geometry, dirichlet, blocks, inverse;
    mutable Array<T> r, z;      ///< apply()'s workspace: this level's right-hand side and correction (not level 0)
    mutable Array<T> residual;  ///< apply()'s workspace: r - A z before restriction (bilinear_transpose only)
    Array<int> transfer_index;  ///< from the finer level
    Array<T> transfer_weight;
    std::size_t cells() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny); }
  };

  template <class U>
  friend class CutPlaneMultigrid;
  /// The levels given (a cut hierarchy's replicated tail, CutPlaneMultigrid);
  /// the first level's blocks come with update(b00, b01, b10, b11).
  PlaneMultigrid(std::shared_ptr<const Executor> exec, std::array<double, 2> k, std::vector<plane::HostLevel<T>> levels,
                 PlaneMultigridOptions options);
  void build(const PlaneSystem<T>& system);
  /// Allocates the levels on the executor from their host values.
  void load(const std::vector<plane::HostLevel<T>>& hierarchy);
  /// apply()'s V-cycle, every kernel launched (or run on the CPU).
  void cycle(View<const T> r, View<T> z) const;
  /// Sums the blocks down the levels, inverts the diagonal blocks, factors
  /// the coarsest level; throws naming the first rejected cell.
  void refresh(const std::string& where);
  /// Level l and the transfer from level l - 1 to l as the kernels see them.
  plane::Level<T> kernel_level(std::size_t l) const;
  plane::Transfer<T> kernel_transfer(std::size_t l) const;
  /// The first level of the tail that CUDA runs as one kernel (levels_.size(): none).
  std::size_t fused_tail() const;
  /// That tail as the kernel sees it, for apply(r, z).
  plane::FusedCycle<T> fused_cycle(View<const T> r, View<T> z) const;

  PlaneGrid grid_;
  std::shared_ptr<const Executor> exec_;
  PlaneMultigridOptions options_;
  std::array<double, 2> k_{};
  std::vector<Level> levels_;
  Array<T> dense_;                    ///< the coarsest matrix's LU (m x m, m = 2 cells)
  Array<int> pivot_;                  ///< its row swaps
  std::size_t fused_from_ = 0;        ///< the first level of the one-kernel tail on CUDA (levels_.size(): none)
  Array<unsigned long long> status_;  ///< update()'s first rejected cell per level (the last: the LU's step)
  std::vector<unsigned long long> status_reset_;  ///< "none" per level, copied into status_ before update()
  /// apply()'s V-cycles by (r, z) on CUDA (null on the CPU or without cuda_graphs). The kernels take only the
  /// levels' pointers, sizes and k by value, none of which update() changes.
  std::shared_ptr<cuda::GraphCache> graphs_;
};

}  // namespace voltaic
