// The plane V-cycle cut over ranks (CutPlaneMultigrid; ctest runs this on 1,
// 2 and 4 ranks): on fresh random planes, tab coverage and blocks, every
// rank's cells and ghosts get the whole plane's PlaneMultigrid bits, for
// both restrictions, several smoothing counts, blocks that are not aligned
// to even columns, and planes whose cut levels are none, one or several;
// rejected blocks are reported on every rank. On a GPU (1 or 2 ranks
// sharing it) the same, against the whole plane's cycle on the GPU.
#include "voltaic/linalg/cut_plane_multigrid.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "solver/plane_cycle.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/mpi/block_decomposition.hpp"

namespace voltaic::mpi {
namespace {

/// A whole plane's coverage and blocks, the same on every rank.
struct Plane {
  int nx = 0, ny = 0;
  std::array<std::vector<double>, 2> coverage;  ///< per field: x_lo (ny), x_hi (ny), y_lo (nx), y_hi (nx)
  std::array<std::vector<double>, 4> blocks;
  std::vector<double> r;  ///< two fields
};

std::mt19937_64 shared_rng(const Communicator& world) {
  std::uint64_t seed = std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, world.get());
  return std::mt19937_64(seed);
}

Plane random_plane(int nx, int ny, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Plane p;
  p.nx = nx;
  p.ny = ny;
  for (int f = 0; f < 2; ++f) {  // a partly covered tab on one edge of each field
    p.coverage[f].assign(2 * static_cast<std::size_t>(nx + ny), 0.0);
    const std::size_t first = f == 0 ? 0 : 2 * static_cast<std::size_t>(ny);
    const std::size_t length = f == 0 ? ny : nx;
    for (std::size_t c = 0; c < length; ++c)
      if (u(rng) < 0.4) p.coverage[f][first + c] = u(rng);
  }
  const std::size_t n = static_cast<std::size_t>(nx) * ny;
  for (std::size_t c = 0; c < n; ++c) {  // g [[1, -1], [-1, 1]] plus a little of each diagonal
    const double g = 0.5 + u(rng), e0 = 1e-3 * u(rng), e1 = 1e-3 * u(rng);
    p.blocks[0].push_back(g + e0);
    p.blocks[1].push_back(-g);
    p.blocks[2].push_back(-g);
    p.blocks[3].push_back(g + e1);
  }
  for (std::size_t c = 0; c < 2 * n; ++c) p.r.push_back(2 * u(rng) - 1);
  return p;
}

View<const double> view(const std::vector<double>& v, std::size_t first = 0, std::size_t n = 0) {
  return View<const double>(v.data() + first, n ? n : v.size() - first, MemorySpace::host());
}

/// Host values as arrays of an executor, kept while the test reads them.
struct OnExecutor {
  std::shared_ptr<const Executor> exec;
  std::vector<Array<double>> kept;
  View<const double> operator()(const std::vector<double>& v, std::size_t first = 0, std::size_t n = 0) {
    const auto begin = v.begin() + static_cast<std::ptrdiff_t>(first);
    kept.push_back(Array<double>::from_host(exec, std::vector<double>(begin, n ? begin + n : v.end())));
    return kept.back().const_view();
  }
  std::vector<double> to_host(const Array<double>& a) const {
    std::vector<double> v(a.size());
    exec->copy(v.data(), MemorySpace::host(), a.data(), a.space(), a.size() * sizeof(double));
    return v;
  }
  Array<double> poisoned(std::size_t n) const {
    return Array<double>::from_host(exec, std::vector<double>(n, std::numeric_limits<double>::quiet_NaN()));
  }
};

PlaneSystem<double> system_of(const Plane& p, OnExecutor& on) {
  const std::size_t x = p.ny, y = p.nx;
  auto edges = [&](int f) {
    const std::vector<double>& c = p.coverage[f];
    return PlaneEdges<double>{on(c, 0, x), on(c, x, x), on(c, 2 * x, y), on(c, 2 * x + y, y)};
  };
  return PlaneSystem<double>(PlaneGrid(p.nx, p.ny, 1e-3, 1.5e-3), on.exec, {40.0, 25.0}, edges(0), edges(1),
                             {on(p.blocks[0]), on(p.blocks[1]), on(p.blocks[2]), on(p.blocks[3])});
}

PlaneSystem<double> system_of(const Plane& p, const std::shared_ptr<const Executor>& cpu) {
  OnExecutor host{cpu, {}};  // host arrays: the system copies what it keeps
  return system_of(p, host);
}

/// The rank's ghosted block of a whole field of `layers` layers.
std::vector<double> ghosted(const BlockDecomposition& cut, const std::vector<double>& whole, int layers) {
  std::vector<double> v(static_cast<std::size_t>(cut.ghosted_nx()) * cut.ghosted_ny() * layers);
  cut.slice_host(whole.data(), layers, v.data());
  return v;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

struct Case {
  int nx, ny, tile;
  PlaneMultigridOptions options;
};

PlaneMultigridOptions options(int nu1, int nu2, PlaneRestriction restriction) {
  PlaneMultigridOptions o;
  o.pre_smoothing = nu1;
  o.post_smoothing = nu2;
  o.restriction = restriction;
  return o;
}

/// Every case on `exec` (the decomposition's arrays in its memory): the cut
/// cycle's z on every rank's cells and ghosts against the whole plane's
/// PlaneMultigrid on the same executor, z poisoned before each apply.
void expect_the_whole_planes_bits(const std::shared_ptr<const Executor>& exec) {
  const Communicator world;
  std::mt19937_64 rng = shared_rng(world);
  const bool cpu = exec->backend() == Backend::cpu;
  const auto bilinear = PlaneRestriction::bilinear_transpose, sums = PlaneRestriction::cell_sum;
  int cut_levels_seen = 0;
  for (const Case& c : {Case{77, 53, 7, options(2, 2, bilinear)}, Case{150, 97, 8, options(3, 3, bilinear)},
                        Case{150, 97, 7, options(2, 2, sums)}, Case{40, 20, 8, options(2, 2, bilinear)},
                        Case{300, 9, 7, options(1, 0, bilinear)}, Case{61, 83, 5, options(0, 2, sums)}}) {
    OnExecutor on{exec, {}};
    const Plane p = random_plane(c.nx, c.ny, rng);
    const PlaneSystem<double> whole_system = system_of(p, on);
    const PlaneMultigrid<double> whole(whole_system, c.options);
    Array<double> z_whole = on.poisoned(p.r.size());
    whole.apply(on(p.r), z_whole.view());
    const std::vector<double> expected = on.to_host(z_whole);

    const auto cut = BlockDecomposition::over(world, c.nx, c.ny, c.tile, cpu ? nullptr : exec);
    CutPlaneMultigrid<double> m(whole_system, cut, c.options);
    ASSERT_EQ(m.num_levels(), whole.num_levels());
    cut_levels_seen = std::max(cut_levels_seen, m.cut_levels());
    std::array<View<const double>, 4> b;
    for (int k = 0; k < 4; ++k) b[k] = on(ghosted(*cut, p.blocks[k], 1));
    m.update(b[0], b[1], b[2], b[3]);
    const View<const double> r = on(ghosted(*cut, p.r, 2));
    for (int round = 0; round < 2; ++round) {  // a second apply finds the windows as the first left them
      Array<double> z = on.poisoned(r.size());
      m.apply(r, z.view());
      EXPECT_TRUE(same_bits(on.to_host(z), ghosted(*cut, expected, 2)))
          << c.nx << " x " << c.ny << ", tile " << c.tile << ", " << m.cut_levels() << " cut levels, round " << round
          << ", rank " << world.rank() << " of " << world.size() << " on " << exec->name();
    }
  }
  EXPECT_GE(cut_levels_seen, 2);  // the cases reach a hierarchy cut on several levels
}

TEST(CutPlaneMultigrid, EveryRanksCellsGetTheWholePlanesBits) { expect_the_whole_planes_bits(CpuExecutor::create()); }

// Up to 2 ranks: more processes time-slicing one GPU take minutes.
TEST(CutPlaneMultigrid, OnAGpuEveryRanksCellsGetTheWholePlanesBits) {
  std::shared_ptr<const Executor> gpu;
  try {
    gpu = CudaExecutor::create(0);
  } catch (const BackendUnavailable& e) {
    GTEST_SKIP() << e.what();
  }
  if (Communicator().size() > 2) GTEST_SKIP() << Communicator().size() << " ranks on one GPU: run on 1 and 2";
  expect_the_whole_planes_bits(gpu);
}

// PlaneCycle on a GPU, cut at any size against gathered (the mode below
// kCutOnDeviceCells): the same bits on every rank's cells and ghosts, after
// update() and after update_diagonal().
TEST(CutPlaneMultigrid, PlaneCycleOnAGpuCutsAsItGathers) {
  std::shared_ptr<const Executor> gpu;
  try {
    gpu = CudaExecutor::create(0);
  } catch (const BackendUnavailable& e) {
    GTEST_SKIP() << e.what();
  }
  const Communicator world;
  if (world.size() > 2) GTEST_SKIP() << world.size() << " ranks on one GPU: run on 1 and 2";
  std::mt19937_64 rng = shared_rng(world);
  OnExecutor on{gpu, {}};
  const Plane p = random_plane(150, 97, rng);
  const PlaneSystem<double> whole = system_of(p, on);
  const auto cut = BlockDecomposition::over(world, p.nx, p.ny, 8, gpu);
  const PlaneMultigridOptions o = options(3, 3, PlaneRestriction::bilinear_transpose);
  PlaneCycle cutting(whole, cut, o, 0), gathering(whole, cut, o, std::numeric_limits<std::size_t>::max());
  ASSERT_EQ(cutting.cut(), world.size() > 1);
  ASSERT_FALSE(gathering.cut());
  std::vector<double> blocks;
  for (int k = 0; k < 4; ++k) {
    const std::vector<double> b = ghosted(*cut, p.blocks[k], 1);
    blocks.insert(blocks.end(), b.begin(), b.end());
  }
  const View<const double> r = on(ghosted(*cut, p.r, 2));
  const auto expect_same_cycles = [&](const char* after) {
    Array<double> z_cut = on.poisoned(r.size()), z_gathered = on.poisoned(r.size());
    cutting.apply(r, z_cut.view());
    gathering.apply(r, z_gathered.view());
    EXPECT_TRUE(same_bits(on.to_host(z_cut), on.to_host(z_gathered)))
        << "after " << after << ", rank " << world.rank() << " of " << world.size();
  };
  cutting.update(on(blocks));
  gathering.update(on(blocks));
  expect_same_cycles("update()");
  const View<const double> d = on(ghosted(*cut, p.blocks[0], 1));
  cutting.update_diagonal(d);
  gathering.update_diagonal(d);
  expect_same_cycles("update_diagonal()");
}

TEST(CutPlaneMultigrid, RejectedBlocksAreReportedOnEveryRank) {
  const Communicator world;
  std::mt19937_64 rng = shared_rng(world);
  const auto cpu = CpuExecutor::create();
  const Plane p = random_plane(90, 70, rng);
  const PlaneSystem<double> whole_system = system_of(p, cpu);
  const auto cut = BlockDecomposition::over(world, p.nx, p.ny, 8);
  CutPlaneMultigrid<double> m(whole_system, cut);
  std::vector<double> r0(2 * m.ghosted_cells(), 1.0), z0(r0.size());
  EXPECT_THROW(m.apply(view(r0), View<double>(z0.data(), z0.size(), MemorySpace::host())), InvalidArgument)
      << "apply() before update()";
  // A cell on the last rank's block: every rank must throw, naming it.
  const PlaneBlock& last = cut->blocks().back();
  const int i = last.i_end - 1, j = last.j_end - 1;
  const std::size_t c = static_cast<std::size_t>(i) + static_cast<std::size_t>(p.nx) * j;
  const std::string cell = "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), -1e6}) {
    Plane q = p;
    q.blocks[0][c] = bad;
    std::array<std::vector<double>, 4> b;
    for (int k = 0; k < 4; ++k) b[k] = ghosted(*cut, q.blocks[k], 1);
    try {
      m.update(view(b[0]), view(b[1]), view(b[2]), view(b[3]));
      ADD_FAILURE() << "block " << bad << " at " << cell << " was accepted on rank " << world.rank();
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(cell), std::string::npos) << e.what();
    }
  }
  std::vector<double> r(10), z(10);
  EXPECT_THROW(m.apply(view(r), View<double>(z.data(), z.size(), MemorySpace::host())), SizeMismatch);
  // After a rejected update the cycle refuses to run until one succeeds.
  r.assign(2 * m.ghosted_cells(), 1.0);
  z.assign(r.size(), 0.0);
  EXPECT_THROW(m.apply(view(r), View<double>(z.data(), z.size(), MemorySpace::host())), InvalidArgument);
}

TEST(CutPlaneMultigrid, RefusesAnotherPlane) {
  const Communicator world;
  std::mt19937_64 rng = shared_rng(world);
  const auto cpu = CpuExecutor::create();
  const Plane p = random_plane(40, 30, rng);
  const auto cut = BlockDecomposition::over(world, 41, 30, 8);
  EXPECT_THROW(CutPlaneMultigrid<double>(system_of(p, cpu), cut), InvalidArgument);
}

}  // namespace
}  // namespace voltaic::mpi
