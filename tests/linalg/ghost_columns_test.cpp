// The ghost-column work of a block of a cut plane: the CPU loops against
// the layout's definition (a block sliced from a whole plane), and the CUDA
// kernels against the CPU loops bit for bit, on random blocks with every
// combination of ghost sides, outputs NaN-poisoned.
#include "voltaic/linalg/ghost_columns.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "test_support.hpp"
#include "voltaic/core/plane_partition.hpp"

using namespace voltaic;

namespace {

/// Bit for bit.
template <class T>
bool same_values(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

/// A block of a whole plane: its owned columns start at (i0, j0), a tile
/// boundary, and it has a ghost on each side the plane extends past.
struct Placed {
  int nx, ny, i0, j0, layers, tile;
  GhostedBlock block;
  int first_i() const { return i0 - block.x0(); }
  int first_j() const { return j0 - block.y0(); }
};

Placed place(int nx, int ny, int i0, int j0, int bx, int by, int layers, int tile) {
  Placed p{nx, ny, i0, j0, layers, tile, {}};
  p.block.bx = bx;
  p.block.by = by;
  p.block.ghost[0] = i0 > 0;
  p.block.ghost[1] = i0 + bx < nx;
  p.block.ghost[2] = j0 > 0;
  p.block.ghost[3] = j0 + by < ny;
  return p;
}

/// Blocks with every combination of ghost sides, odd and narrow.
std::vector<Placed> blocks() {
  return {place(40, 30, 16, 8, 16, 16, 3, 8), place(40, 30, 0, 0, 16, 16, 1, 16),  place(37, 21, 32, 16, 5, 5, 4, 16),
          place(37, 21, 0, 8, 37, 8, 2, 8),   place(9, 50, 0, 0, 9, 50, 5, 32),    place(33, 33, 8, 0, 8, 33, 25, 8),
          place(100, 3, 32, 0, 32, 3, 2, 32), place(48, 48, 16, 16, 16, 16, 7, 16)};
}

template <class T>
std::vector<T> whole_plane(const Placed& p, std::mt19937_64& rng) {
  return test::random_vector<T>(std::size_t(p.nx) * p.ny * p.layers, rng);
}

template <class T>
T at(const Placed& p, const std::vector<T>& whole, int li, int lj, int k) {
  return whole[std::size_t(p.i0 + li) + std::size_t(p.nx) * (std::size_t(p.j0 + lj) + std::size_t(p.ny) * k)];
}

/// The block's ghosted field cut from a whole plane's (ghost_columns::slice on the CPU).
std::vector<double> sliced(const Placed& p, const std::vector<double>& whole) {
  std::vector<double> field(p.block.layer() * p.layers);
  ghost_columns::slice(*CpuExecutor::create(), p.block, p.layers, p.nx, p.ny, p.first_i(), p.first_j(), whole.data(),
                       field.data());
  return field;
}

/// The whole plane's columns beside each side with a ghost (ghost = false:
/// the block's owned edge; true: the column across it), side after side,
/// layer after layer, along the side: pack()'s order, by definition.
std::vector<double> edges_of(const Placed& p, const std::vector<double>& whole, bool ghost) {
  const GhostedBlock& b = p.block;
  std::vector<double> edges;
  for (int s = 0; s < 4; ++s) {
    if (!b.ghost[s]) continue;
    const int li = s == 0 ? (ghost ? -1 : 0) : (ghost ? b.bx : b.bx - 1);
    const int lj = s == 2 ? (ghost ? -1 : 0) : (ghost ? b.by : b.by - 1);
    for (int k = 0; k < p.layers; ++k)
      for (int q = 0; q < b.side_length(s); ++q)
        edges.push_back(s < 2 ? at(p, whole, li, q, k) : at(p, whole, q, lj, k));
  }
  return edges;
}

}  // namespace

TEST(GhostColumns, PackTakesEachSidesOwnedEdgeLayerByLayer) {
  std::mt19937_64 rng(test::fresh_seed());
  const auto cpu = CpuExecutor::create();
  for (const Placed& p : blocks()) {
    const GhostedBlock& b = p.block;
    const auto whole = whole_plane<double>(p, rng);
    std::vector<double> field = sliced(p, whole);
    std::vector<double> edges(b.edge_values(p.layers), test::poison<double>());
    ghost_columns::pack(*cpu, b, p.layers, field.data(), edges.data());
    ASSERT_EQ(edges, edges_of(p, whole, false));
  }
}

TEST(GhostColumns, UnpackFillsTheGhostsWithTheNeighboursColumnsAndTheCornersWithTheOwnedCorner) {
  std::mt19937_64 rng(test::fresh_seed());
  const auto cpu = CpuExecutor::create();
  for (const Placed& p : blocks()) {
    const GhostedBlock& b = p.block;
    const auto whole = whole_plane<double>(p, rng);
    std::vector<double> field = sliced(p, whole);
    ghost_columns::fill(*cpu, b, p.layers, field.data(), test::poison<double>());
    const std::vector<double> edges = edges_of(p, whole, true);  // what the neighbours send
    ghost_columns::unpack(*cpu, b, p.layers, edges.data(), field.data());
    for (int k = 0; k < p.layers; ++k)
      for (int lj = -b.y0(); lj < b.gy() - b.y0(); ++lj)
        for (int li = -b.x0(); li < b.gx() - b.x0(); ++li) {
          const bool corner = (li < 0 || li >= b.bx) && (lj < 0 || lj >= b.by);
          const double expected =
              corner ? at(p, whole, li < 0 ? 0 : b.bx - 1, lj < 0 ? 0 : b.by - 1, k) : at(p, whole, li, lj, k);
          ASSERT_EQ(field[b.index(li, lj, k)], expected) << "column (" << li << ", " << lj << ") layer " << k;
        }
  }
}

TEST(GhostColumns, TilePartialsAreTheWholePlanesTilesCanonicalPartials) {
  std::mt19937_64 rng(test::fresh_seed());
  const auto cpu = CpuExecutor::create();
  for (const Placed& p : blocks()) {
    const GhostedBlock& b = p.block;
    const auto x = whole_plane<double>(p, rng), y = whole_plane<double>(p, rng);
    const std::vector<double> bx = sliced(p, x), by = sliced(p, y);
    const int ntx = (b.bx + p.tile - 1) / p.tile, nty = (b.by + p.tile - 1) / p.tile;
    std::vector<double> partials(std::size_t(ntx) * nty, test::poison<double>());
    ghost_columns::tile_partials(*cpu, b, p.layers, p.tile, bx.data(), by.data(), partials.data());
    const PlanePartition whole(p.nx, p.ny, 1, 1, p.tile);
    for (int tb = 0; tb < nty; ++tb)
      for (int ta = 0; ta < ntx; ++ta) {
        const std::size_t t = std::size_t(p.i0 / p.tile + ta) + whole.tiles_x() * std::size_t(p.j0 / p.tile + tb);
        const double expected = tile_partial(whole.tile_columns(t), p.layers, [&](int i, int j, int k) {
          const std::size_t c = std::size_t(i) + std::size_t(p.nx) * (std::size_t(j) + std::size_t(p.ny) * k);
          return x[c] * y[c];
        });
        ASSERT_TRUE(test::same_bits(partials[ta + std::size_t(ntx) * tb], expected)) << "tile " << t;
      }
  }
}

// A rank's partials written at its slots of the whole plane's partials
// (TileSlots): the same values as alone, and nothing else touched.
TEST(GhostColumns, TilePartialsGoToTheirSlotsOfTheWholePlane) {
  std::mt19937_64 rng(test::fresh_seed());
  const auto cpu = CpuExecutor::create();
  for (const Placed& p : blocks()) {
    const GhostedBlock& b = p.block;
    const auto x = test::random_vector<double>(b.layer() * p.layers, rng);
    const int ntx = (b.bx + p.tile - 1) / p.tile, nty = (b.by + p.tile - 1) / p.tile;
    std::vector<double> alone(std::size_t(ntx) * nty);
    ghost_columns::tile_partials(*cpu, b, p.layers, p.tile, x.data(), x.data(), alone.data());
    const std::size_t row = std::size_t(ntx) + 3, first = 5;
    std::vector<double> slots(first + row * nty, -7.0);
    ghost_columns::tile_partials(*cpu, b, p.layers, p.tile, x.data(), x.data(), slots.data(), {first, row});
    for (std::size_t s = 0; s < slots.size(); ++s) {
      const std::size_t t = s - first, ta = t % row, tb = t / row;
      const bool mine = s >= first && ta < std::size_t(ntx);
      EXPECT_TRUE(test::same_bits(slots[s], mine ? alone[ta + ntx * tb] : -7.0)) << "slot " << s;
    }
  }
  const Placed p = blocks()[0];  // 2 tiles across: a row of 1 slot would overlap them
  std::vector<double> x(p.block.layer(), 1.0), out(8);
  EXPECT_THROW(ghost_columns::tile_partials(*cpu, p.block, 1, p.tile, x.data(), x.data(), out.data(), {0, 1}),
               InvalidArgument);
}

/// Rows of one ghosted field's size, and their pointers.
template <class T>
struct RowSet {
  std::vector<T> values;
  std::vector<const T*> rows;
};

/// `count` random rows of a field of b (values in host memory).
template <class T>
RowSet<T> random_rows(const GhostedBlock& b, int layers, int count, std::mt19937_64& rng) {
  RowSet<T> set;
  const std::size_t n = b.layer() * layers;
  set.values = test::random_vector<T>(n * count, rng);
  for (int i = 0; i < count; ++i) set.rows.push_back(set.values.data() + i * n);
  return set;
}

// The rows at once give the loop's bits, each row's at its stride and slots.
TEST(GhostColumns, TilePartialsOfRowsAreTheLoopsOverTheRows) {
  std::mt19937_64 rng(test::fresh_seed());
  const auto cpu = CpuExecutor::create();
  for (const Placed& p : blocks()) {
    const GhostedBlock& b = p.block;
    const auto set = random_rows<double>(b, p.layers, 5, rng);
    const auto y = test::random_vector<double>(b.layer() * p.layers, rng);
    const std::size_t tiles = std::size_t((b.bx + p.tile - 1) / p.tile) * ((b.by + p.tile - 1) / p.tile);
    const std::size_t stride = tiles + 7;
    const TileSlots slots{3, 0};
    std::vector<double> at_once(5 * stride, -7.0), looped(5 * stride, -7.0);
    ghost_columns::tile_partials_of_rows(*cpu, b, p.layers, p.tile, set.rows.data(), 5, y.data(), at_once.data(),
                                         stride, slots);
    for (int i = 0; i < 5; ++i)
      ghost_columns::tile_partials(*cpu, b, p.layers, p.tile, set.rows[i], y.data(), looped.data() + i * stride, slots);
    EXPECT_TRUE(same_values(at_once, looped));
  }
}

// sum_partials() is sum_of_partials() of each run of partials, a root where
// asked, rounded to T; it refuses no partials and roots beyond the sums.
TEST(GhostColumns, SumPartialsIsTheCanonicalTreeOfEachRun) {
  std::mt19937_64 rng(test::fresh_seed());
  const auto cpu = CpuExecutor::create();
  for (std::size_t count : {1u, 2u, 3u, 5u, 11u, 64u, 289u, 1000u}) {
    const auto partials = test::random_vector<double>(3 * count, rng, 0.0, 1e3);
    std::vector<double> out(3, test::poison<double>());
    std::vector<float> out32(3, test::poison<float>());
    ghost_columns::sum_partials(*cpu, partials.data(), count, 3, 1, out.data());
    ghost_columns::sum_partials(*cpu, partials.data(), count, 3, 1, out32.data());
    for (int i = 0; i < 3; ++i) {
      const double s = sum_of_partials(partials.data() + i * count, count), expected = i < 1 ? std::sqrt(s) : s;
      EXPECT_TRUE(test::same_bits(out[i], expected)) << count << " partials, sum " << i;
      EXPECT_TRUE(test::same_bits(out32[i], static_cast<float>(expected))) << count << " partials, sum " << i;
    }
  }
  double out = 0.0, one = 1.0;
  EXPECT_THROW(ghost_columns::sum_partials(*cpu, &one, 0, 1, 0, &out), InvalidArgument);
  EXPECT_THROW(ghost_columns::sum_partials(*cpu, &one, 1, 1, 2, &out), InvalidArgument);
}

TEST(GhostColumns, OwnedCellsPlacedBackGiveTheWholePlanesBlock) {
  std::mt19937_64 rng(test::fresh_seed());
  const auto cpu = CpuExecutor::create();
  for (const Placed& p : blocks()) {
    const GhostedBlock& b = p.block;
    const auto whole = whole_plane<double>(p, rng);
    const std::vector<double> field = sliced(p, whole);
    std::vector<double> owned(std::size_t(b.bx) * b.by * p.layers, test::poison<double>());
    ghost_columns::owned(*cpu, b, p.layers, field.data(), owned.data());
    std::size_t m = 0;
    for (int k = 0; k < p.layers; ++k)
      for (int lj = 0; lj < b.by; ++lj)
        for (int li = 0; li < b.bx; ++li) ASSERT_EQ(owned[m++], at(p, whole, li, lj, k));
    std::vector<double> placed(whole.size(), test::poison<double>());
    ghost_columns::place(*cpu, b.bx, b.by, p.layers, p.nx, p.ny, p.i0, p.j0, owned.data(), placed.data());
    for (int k = 0; k < p.layers; ++k)
      for (int j = 0; j < p.ny; ++j)
        for (int i = 0; i < p.nx; ++i) {
          const std::size_t c = std::size_t(i) + std::size_t(p.nx) * (std::size_t(j) + std::size_t(p.ny) * k);
          const bool inside = i >= p.i0 && i < p.i0 + b.bx && j >= p.j0 && j < p.j0 + b.by;
          ASSERT_TRUE(inside ? placed[c] == whole[c] : std::isnan(placed[c]))
              << "(" << i << ", " << j << ", " << k << ")";
        }
  }
}

TEST(GhostColumns, MaxAbsIsExactAndSeesANaN) {
  std::mt19937_64 rng(test::fresh_seed());
  const auto cpu = CpuExecutor::create();
  const Placed p = blocks()[0];
  const GhostedBlock& b = p.block;
  std::vector<double> field(b.layer() * p.layers, 0.5);
  ghost_columns::fill(*cpu, b, p.layers, field.data(), -9.0);  // ghosts are not owned cells
  field[b.index(3, 2, 1)] = -0.75;
  EXPECT_EQ(ghost_columns::max_abs(*cpu, b, p.layers, field.data()), 0.75);
  field[b.index(b.bx - 1, b.by - 1, p.layers - 1)] = test::poison<double>();
  EXPECT_TRUE(std::isnan(ghost_columns::max_abs(*cpu, b, p.layers, field.data())));
}

TEST(GhostColumns, RefusesAnEmptyBlockAndASliceOffThePlane) {
  const auto cpu = CpuExecutor::create();
  GhostedBlock empty;
  double v = 0.0;
  EXPECT_THROW(ghost_columns::fill(*cpu, empty, 1, &v, 0.0), InvalidArgument);
  const Placed p = blocks()[0];
  std::vector<double> whole(std::size_t(p.nx) * p.ny), field(p.block.layer());
  EXPECT_THROW(ghost_columns::slice(*cpu, p.block, 1, p.nx, p.ny, p.nx - 2, 0, whole.data(), field.data()),
               InvalidArgument);
}

/// Every operation on both backends from the same random data, the CUDA
/// outputs poisoned first: the same bits.
template <class T>
class GhostColumnsCudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu_ = test::cuda_executor();
    if (!gpu_) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  /// run(exec, in, out) on both backends; `out` of n values poisoned first.
  template <class U, class F>
  void expect_same_bits(const std::vector<U>& in, std::size_t n, F&& run, const std::string& what) {
    std::vector<std::vector<U>> out;
    for (const std::shared_ptr<const Executor>& e : {cpu_, gpu_}) {
      const Array<U> x = Array<U>::from_host(e, in);
      Array<U> y = Array<U>::from_host(e, std::vector<U>(n, test::poison<U>()));
      run(*e, x.data(), y.data());
      out.push_back(y.to_host());
    }
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_TRUE(test::same_bits(out[0][i], out[1][i]))
          << what << " value " << i << ": cpu " << out[0][i] << " cuda " << out[1][i] << "; seed " << seed_;
  }
  std::shared_ptr<const Executor> cpu_ = CpuExecutor::create();
  std::shared_ptr<const Executor> gpu_;
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(GhostColumnsCudaVsCpu, Precisions);

TYPED_TEST(GhostColumnsCudaVsCpu, EveryOperationGivesTheCpuBits) {
  using T = TypeParam;
  for (const Placed& p : blocks()) {
    const GhostedBlock& b = p.block;
    const std::size_t n = b.layer() * p.layers, edges = b.edge_values(p.layers);
    const auto field = test::random_vector<T>(n, this->rng_);
    this->expect_same_bits(
        field, edges, [&](const Executor& e, const T* in, T* out) { ghost_columns::pack(e, b, p.layers, in, out); },
        "pack");
    // unpack and fill write into a copy of the field (the owned cells kept).
    std::vector<T> both(field);
    const auto sent = test::random_vector<T>(edges, this->rng_);
    both.insert(both.end(), sent.begin(), sent.end());
    this->expect_same_bits(
        both, n,
        [&](const Executor& e, const T* in, T* out) {
          e.copy(out, e.memory_space(), in, e.memory_space(), n * sizeof(T));
          ghost_columns::unpack(e, b, p.layers, in + n, out);
        },
        "unpack");
    this->expect_same_bits(
        field, n,
        [&](const Executor& e, const T* in, T* out) {
          e.copy(out, e.memory_space(), in, e.memory_space(), n * sizeof(T));
          ghost_columns::fill(e, b, p.layers, out, T(-3));
        },
        "fill");
    const std::size_t tiles = std::size_t((b.bx + p.tile - 1) / p.tile) * ((b.by + p.tile - 1) / p.tile);
    for (bool product : {true, false}) {
      std::vector<T> xy(field);
      const auto y = test::random_vector<T>(n, this->rng_);
      xy.insert(xy.end(), y.begin(), y.end());
      // The partials are doubles: written into the front of a T array sized for them.
      const std::size_t room = tiles * sizeof(double) / sizeof(T);
      this->expect_same_bits(
          xy, room,
          [&](const Executor& e, const T* in, T* out) {
            ghost_columns::tile_partials(e, b, p.layers, p.tile, in, product ? in + n : nullptr,
                                         reinterpret_cast<double*>(out));
          },
          product ? "tile partials of x y" : "tile partials of x");
    }
  }
}

// The device's canonical tree gives the CPU's bits for every shape of tree
// (counts that are and are not powers of two, up to kMostPartials), several
// sums a launch, roots, both precisions; outputs poisoned first.
TEST(GhostColumnsCuda, SumPartialsGivesTheCpuBits) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  const auto cpu = CpuExecutor::create();
  std::mt19937_64 rng(test::fresh_seed());
  std::vector<std::size_t> counts;
  for (std::size_t c = 1; c <= 70; ++c) counts.push_back(c);
  for (std::size_t c : {255u, 256u, 257u, 289u, 1000u, 4097u, 12345u, 16384u}) counts.push_back(c);
  for (std::size_t count : counts) {
    const int sums = count < 100 ? 5 : 2;
    const auto partials = test::random_vector<double>(sums * count, rng, -1e3, 1e3);
    const Array<double> on_gpu = Array<double>::from_host(gpu, partials);
    std::vector<double> expected(sums);
    std::vector<float> expected32(sums);
    // Roots of |sums| would need non-negative sums: roots are checked on sums of squares below.
    ghost_columns::sum_partials(*cpu, partials.data(), count, sums, 0, expected.data());
    ghost_columns::sum_partials(*cpu, partials.data(), count, sums, 0, expected32.data());
    Array<double> out = Array<double>::from_host(gpu, std::vector<double>(sums, test::poison<double>()));
    Array<float> out32 = Array<float>::from_host(gpu, std::vector<float>(sums, test::poison<float>()));
    ghost_columns::sum_partials(*gpu, on_gpu.data(), count, sums, 0, out.data());
    ghost_columns::sum_partials(*gpu, on_gpu.data(), count, sums, 0, out32.data());
    EXPECT_TRUE(same_values(out.to_host(), expected)) << count << " partials";
    EXPECT_TRUE(same_values(out32.to_host(), expected32)) << count << " partials";
  }
  const auto squares = test::random_vector<double>(2 * 300, rng, 0.0, 1e3);
  const Array<double> on_gpu = Array<double>::from_host(gpu, squares);
  std::vector<double> expected(2);
  ghost_columns::sum_partials(*cpu, squares.data(), 300, 2, 1, expected.data());
  Array<double> out = Array<double>::from_host(gpu, std::vector<double>(2, test::poison<double>()));
  ghost_columns::sum_partials(*gpu, on_gpu.data(), 300, 2, 1, out.data());
  EXPECT_TRUE(same_values(out.to_host(), expected)) << "a root and a sum";
  EXPECT_THROW(ghost_columns::sum_partials(*gpu, on_gpu.data(), ghost_columns::kMostPartials + 1, 1, 0, out.data()),
               InvalidArgument);
}

// The rows at once on the GPU (more than one launch's worth, both
// precisions, with and without the second factor) give the CPU's bits;
// outputs poisoned first.
TEST(GhostColumnsCuda, TilePartialsOfRowsGiveTheCpuBits) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  const auto cpu = CpuExecutor::create();
  std::mt19937_64 rng(test::fresh_seed());
  const int count = ghost_columns::kRowsPerLaunch + 9;
  for (const Placed& p : blocks()) {
    const GhostedBlock& b = p.block;
    const std::size_t n = b.layer() * p.layers;
    const std::size_t tiles = std::size_t((b.bx + p.tile - 1) / p.tile) * ((b.by + p.tile - 1) / p.tile);
    const std::size_t row = std::size_t((b.bx + p.tile - 1) / p.tile) + 2, stride = row * (tiles + 1) + 4;
    const TileSlots slots{1, row};
    const auto run = [&](auto zero) {
      using T = decltype(zero);
      const auto set = random_rows<T>(b, p.layers, count, rng);
      const auto y = test::random_vector<T>(n, rng);
      for (bool product : {true, false}) {
        std::vector<double> expected(count * stride, test::poison<double>());
        ghost_columns::tile_partials_of_rows(*cpu, b, p.layers, p.tile, set.rows.data(), count,
                                             product ? y.data() : nullptr, expected.data(), stride, slots);
        const Array<T> rows = Array<T>::from_host(gpu, set.values), dy = Array<T>::from_host(gpu, y);
        std::vector<const T*> on_gpu;
        for (int i = 0; i < count; ++i) on_gpu.push_back(rows.data() + i * n);
        Array<double> out = Array<double>::from_host(gpu, std::vector<double>(count * stride, test::poison<double>()));
        ghost_columns::tile_partials_of_rows(*gpu, b, p.layers, p.tile, on_gpu.data(), count,
                                             product ? dy.data() : nullptr, out.data(), stride, slots);
        EXPECT_TRUE(same_values(out.to_host(), expected)) << (product ? "x y" : "x") << ", " << sizeof(T) << " bytes";
      }
    };
    run(0.0);
    run(0.0f);
  }
}

TEST(GhostColumnsCuda, MaxAbsSliceOwnedAndPlaceGiveTheCpuResults) {
  const auto gpu = test::cuda_executor();
  if (!gpu) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  const auto cpu = CpuExecutor::create();
  std::mt19937_64 rng(test::fresh_seed());
  for (const Placed& p : blocks()) {
    const GhostedBlock& b = p.block;
    auto field = test::random_vector<double>(b.layer() * p.layers, rng, -4.0, 4.0);
    const Array<double> on_gpu = Array<double>::from_host(gpu, field);
    EXPECT_EQ(ghost_columns::max_abs(*gpu, b, p.layers, on_gpu.data()),
              ghost_columns::max_abs(*cpu, b, p.layers, field.data()));
    field[b.index(b.bx / 2, b.by - 1, p.layers - 1)] = test::poison<double>();
    const Array<double> with_nan = Array<double>::from_host(gpu, field);
    EXPECT_TRUE(std::isnan(ghost_columns::max_abs(*gpu, b, p.layers, with_nan.data())));

    const auto whole = whole_plane<double>(p, rng);
    const Array<double> whole_gpu = Array<double>::from_host(gpu, whole);
    Array<double> sliced = Array<double>::from_host(gpu, std::vector<double>(field.size(), test::poison<double>()));
    std::vector<double> expected(field.size());
    ghost_columns::slice(*gpu, b, p.layers, p.nx, p.ny, p.first_i(), p.first_j(), whole_gpu.data(), sliced.data());
    ghost_columns::slice(*cpu, b, p.layers, p.nx, p.ny, p.first_i(), p.first_j(), whole.data(), expected.data());
    EXPECT_EQ(sliced.to_host(), expected);

    const std::size_t owned_values = std::size_t(b.bx) * b.by * p.layers;
    Array<double> owned = Array<double>::from_host(gpu, std::vector<double>(owned_values, test::poison<double>()));
    std::vector<double> owned_cpu(owned_values);
    ghost_columns::owned(*gpu, b, p.layers, sliced.data(), owned.data());
    ghost_columns::owned(*cpu, b, p.layers, expected.data(), owned_cpu.data());
    EXPECT_EQ(owned.to_host(), owned_cpu);
    Array<double> placed = Array<double>::from_host(gpu, std::vector<double>(whole.size(), -1.0));
    std::vector<double> placed_cpu(whole.size(), -1.0);
    ghost_columns::place(*gpu, b.bx, b.by, p.layers, p.nx, p.ny, p.i0, p.j0, owned.data(), placed.data());
    ghost_columns::place(*cpu, b.bx, b.by, p.layers, p.nx, p.ny, p.i0, p.j0, owned_cpu.data(), placed_cpu.data());
    EXPECT_EQ(placed.to_host(), placed_cpu);
  }
  const Placed p = blocks()[0];
  const Array<double> x = Array<double>::from_host(gpu, std::vector<double>(p.block.layer(), 1.0));
  Array<double> partials(gpu, 1);
  EXPECT_THROW(ghost_columns::tile_partials(*gpu, p.block, 1, 33, x.data(), x.data(), partials.data()),
               InvalidArgument);
}
