// BlockDecomposition made for a GPU against the same decomposition of host
// arrays, on every rank count: the same random ghosted fields through every
// operation (exchanges of both precisions, two in flight at once, canonical
// sums, maxima, ghost fills, gathers, slices) give the same bits. The device
// outputs are NaN-poisoned first. Skips where no GPU is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/mpi/block_decomposition.hpp"

namespace voltaic::mpi {
namespace {

constexpr int kNx = 37, kNy = 29, kTile = 8;

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

class BlockDecompositionOnGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      gpu_ = CudaExecutor::create(0, 3);
    } catch (const BackendUnavailable& e) {
      GTEST_SKIP() << e.what();
    }
    if (world_.size() > 2) GTEST_SKIP() << world_.size() << " ranks on one GPU: run on 1 and 2";
    const PlanePartition p = PlanePartition::for_ranks(kNx, kNy, world_.size(), kTile);
    host_ = std::make_unique<BlockDecomposition>(world_, p);
    device_ = std::make_unique<BlockDecomposition>(world_, p, gpu_);
    rng_.seed(1234 + world_.rank());  // each rank's own values
  }
  template <class T>
  std::vector<T> random(int layers) {
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    std::vector<T> v(host_->shape().layer() * layers);
    for (T& x : v) x = static_cast<T>(u(rng_));
    return v;
  }
  template <class T>
  Array<T> on_gpu(const std::vector<T>& v) const {
    return Array<T>::from_host(gpu_, v);
  }
  /// True when two ranks' device 0 is one GPU (by PCI bus id; the ranks of this test run on one node).
  bool ranks_share_a_gpu() const {
    char mine[32] = {};
    std::snprintf(mine, sizeof mine, "%s", dynamic_cast<const CudaExecutor&>(*gpu_).info().pci_bus_id.c_str());
    std::vector<char> all(sizeof mine * static_cast<std::size_t>(world_.size()));
    MPI_Allgather(mine, sizeof mine, MPI_CHAR, all.data(), sizeof mine, MPI_CHAR, world_.get());
    std::vector<std::string> ids;
    for (int r = 0; r < world_.size(); ++r) ids.emplace_back(all.data() + r * sizeof mine);
    std::sort(ids.begin(), ids.end());
    return std::adjacent_find(ids.begin(), ids.end()) != ids.end();
  }
  const Communicator world_;
  std::shared_ptr<const Executor> gpu_;
  std::unique_ptr<BlockDecomposition> host_, device_;
  std::mt19937_64 rng_;
};

TEST_F(BlockDecompositionOnGpu, ExchangesGiveTheHostsBits) {
  // Two in flight at once (25 layers of double, 3 of float), as the solvers overlap them.
  std::vector<double> a = random<double>(25);
  std::vector<float> b = random<float>(3);
  Array<double> da = on_gpu(a);
  Array<float> db = on_gpu(b);
  host_->begin(static_cast<const double*>(a.data()), 25);
  host_->begin(static_cast<const float*>(b.data()), 3);
  host_->end(b.data(), 3);
  host_->end(a.data(), 25);
  device_->begin(static_cast<const double*>(da.data()), 25);
  device_->begin(static_cast<const float*>(db.data()), 3);
  device_->end(db.data(), 3);
  device_->end(da.data(), 25);
  EXPECT_TRUE(same_bits(da.to_host(), a)) << "rank " << world_.rank();
  EXPECT_TRUE(same_bits(db.to_host(), b)) << "rank " << world_.rank();
  if (world_.size() > 1) {
    EXPECT_EQ(device_->traffic().exchange_bytes, host_->traffic().exchange_bytes);
  }
}

TEST_F(BlockDecompositionOnGpu, SumsMaximaAndGhostFillsGiveTheHostsBits) {
  for (int layers : {1, 2, 25}) {
    std::vector<double> x = random<double>(layers), y = random<double>(layers);
    const Array<double> dx = on_gpu(x), dy = on_gpu(y);
    EXPECT_TRUE(same_bits(device_->dot(dx.data(), dy.data(), layers), host_->dot(x.data(), y.data(), layers)));
    EXPECT_TRUE(same_bits(device_->dot(dx.data(), nullptr, layers), host_->dot(x.data(), nullptr, layers)));
    EXPECT_EQ(device_->max_abs(dx.data(), layers), host_->max_abs(x.data(), layers));
    // The float space's sums (GMRES-IR's inner products), through VectorSpace.
    std::vector<float> f = random<float>(layers);
    const Array<float> df = on_gpu(f);
    const double on_device = device_->space(layers, 0.0f).dot(*gpu_, df.view(), df.view());
    const double on_host = host_->space(layers, 0.0f)
                               .dot(*CpuExecutor::create(), View<const float>(f.data(), f.size(), MemorySpace::host()),
                                    View<const float>(f.data(), f.size(), MemorySpace::host()));
    EXPECT_TRUE(same_bits(on_device, on_host));
    Array<double> filled = on_gpu(x);
    device_->set_ghosts(filled.data(), layers, -7.0);
    host_->set_ghosts(x.data(), layers, -7.0);
    EXPECT_TRUE(same_bits(filled.to_host(), x));
  }
  // A NaN on one rank is every rank's maximum.
  std::vector<double> x = random<double>(2);
  if (world_.rank() == world_.size() - 1) x[device_->index(0, 0, 1)] = std::nan("");
  EXPECT_TRUE(std::isnan(device_->max_abs(on_gpu(x).data(), 2)));
}

TEST_F(BlockDecompositionOnGpu, GathersAndSlicesGiveTheHostsBits) {
  const std::size_t whole_values = std::size_t(kNx) * kNy * 2;
  std::vector<double> field = random<double>(2), whole(whole_values), sliced(field.size(), std::nan(""));
  const Array<double> dfield = on_gpu(field);
  Array<double> dwhole = on_gpu(std::vector<double>(whole_values, std::nan("")));
  host_->gather(field.data(), 2, whole.data());
  device_->gather(dfield.data(), 2, dwhole.data());
  EXPECT_TRUE(same_bits(dwhole.to_host(), whole));
  Array<double> dsliced = on_gpu(sliced);
  host_->slice(whole.data(), 2, sliced.data());
  device_->slice(dwhole.data(), 2, dsliced.data());
  EXPECT_TRUE(same_bits(dsliced.to_host(), sliced));
}

// Both transports of a GPU's exchanges and gathers give the host's bits:
// staged through pinned host memory, and (with a CUDA-aware MPI) sent from
// device memory. An MPI that is not CUDA-aware refuses device_direct by name; the
// automatic choice stages through the host where ranks share the GPU.
TEST_F(BlockDecompositionOnGpu, EveryTransportGivesTheHostsBits) {
  const PlanePartition p = PlanePartition::for_ranks(kNx, kNy, world_.size(), kTile);
  const BlockDecomposition staged(world_, p, gpu_, GpuTransport::host_staged);
  EXPECT_FALSE(staged.device_direct());
  // Automatic: device memory with a CUDA-aware MPI, unless ranks share the GPU (device 0 of each rank: the
  // same GPU, or each its own where CUDA_VISIBLE_DEVICES orders them so, as tools/gpu_link_check.sh does).
  EXPECT_EQ(device_->device_direct(), mpi_is_cuda_aware() && !ranks_share_a_gpu());
  std::unique_ptr<BlockDecomposition> direct;
  try {
    direct = std::make_unique<BlockDecomposition>(world_, p, gpu_, GpuTransport::device_direct);
    EXPECT_TRUE(mpi_is_cuda_aware());
    EXPECT_TRUE(direct->device_direct());
  } catch (const InvalidArgument& e) {
    EXPECT_FALSE(mpi_is_cuda_aware());
    EXPECT_NE(std::string(e.what()).find("CUDA-aware"), std::string::npos) << e.what();
  }
  const std::vector<double> a = random<double>(7);
  std::vector<double> expected = a, whole(std::size_t(kNx) * kNy * 7);
  host_->exchange(expected.data(), 7);
  host_->gather(a.data(), 7, whole.data());
  for (const BlockDecomposition* d : {&staged, static_cast<const BlockDecomposition*>(direct.get())}) {
    if (!d) continue;
    const char* way = d == &staged ? "host_staged" : "device_direct";
    Array<double> da = on_gpu(a);
    d->exchange(da.data(), 7);
    d->exchange(da.data(), 7);  // again: the previous edges have left the buffers
    EXPECT_TRUE(same_bits(da.to_host(), expected)) << way;
    // The whole plane gathered, twice: the second gather reuses the first's buffers.
    const Array<double> dfield = on_gpu(a);
    Array<double> dwhole = on_gpu(std::vector<double>(whole.size(), std::nan("")));
    for (int twice = 0; twice < 2; ++twice) d->gather(dfield.data(), 7, dwhole.data());
    EXPECT_TRUE(same_bits(dwhole.to_host(), whole)) << way << " gather";
  }
  std::printf("[ transport ] rank %d: MPI CUDA-aware %s; automatic sends %s\n", world_.rank(),
              mpi_is_cuda_aware() ? "yes" : "no", device_->device_direct() ? "device memory" : "pinned host memory");
}

TEST_F(BlockDecompositionOnGpu, RefusesTilesWiderThanAGpuBlockSums) {
  // 40 x 40 columns a tile: more threads than a block has.
  EXPECT_THROW(BlockDecomposition(world_, PlanePartition::for_ranks(80, 80, world_.size(), 40), gpu_), InvalidArgument);
}

}  // namespace
}  // namespace voltaic::mpi
