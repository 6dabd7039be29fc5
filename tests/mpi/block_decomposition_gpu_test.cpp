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
#include <limits>
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

// The VectorSpace's results written to device memory (where the NCCL
// transport never brings them to the host): block dots, norm and dot, nrm2,
// in both precisions, the same bits as the host decomposition's; outputs
// poisoned first.
template <class T>
void expect_device_results_of_the_host(const BlockDecomposition& host, const BlockDecomposition& device,
                                       const std::shared_ptr<const Executor>& gpu, std::vector<T> ys,
                                       const std::vector<T>& x, int layers, int rank) {
  const std::size_t n = x.size();
  const int count = static_cast<int>(ys.size() / n);
  const auto cpu = CpuExecutor::create();
  const auto on_host = [](const std::vector<T>& v) { return View<const T>(v.data(), v.size(), MemorySpace::host()); };
  std::vector<T> expected(count + 3);
  const VectorSpace<T>& hs = host.space(layers, T(0));
  hs.block_dot(*cpu, on_host(ys), n, count, on_host(x), View<T>(expected.data(), count, MemorySpace::host()));
  hs.norm_and_dot(*cpu, on_host(x), on_host(ys), View<T>(expected.data() + count, 2, MemorySpace::host()));
  hs.nrm2(*cpu, on_host(x), View<T>(expected.data() + count + 2, 1, MemorySpace::host()));
  const Array<T> dys = Array<T>::from_host(gpu, ys), dx = Array<T>::from_host(gpu, x);
  Array<T> out = Array<T>::from_host(gpu, std::vector<T>(count + 3, std::numeric_limits<T>::quiet_NaN()));
  const VectorSpace<T>& ds = device.space(layers, T(0));
  ds.block_dot(*gpu, dys.view(), n, count, dx.view(), View<T>(out.data(), count, out.view().space()));
  ds.norm_and_dot(*gpu, dx.view(), View<const T>(dys.data(), n, dys.view().space()),
                  View<T>(out.data() + count, 2, out.view().space()));
  ds.nrm2(*gpu, dx.view(), View<T>(out.data() + count + 2, 1, out.view().space()));
  EXPECT_TRUE(same_bits(out.to_host(), expected)) << "rank " << rank;
}

TEST_F(BlockDecompositionOnGpu, SpaceResultsInDeviceMemoryGiveTheHostsBits) {
  for (int layers : {1, 25}) {
    std::vector<double> ys;
    for (int i = 0; i < 5; ++i) {
      const std::vector<double> y = random<double>(layers);
      ys.insert(ys.end(), y.begin(), y.end());
    }
    expect_device_results_of_the_host(*host_, *device_, gpu_, ys, random<double>(layers), layers, world_.rank());
    const std::vector<float> ys32(ys.begin(), ys.end());
    expect_device_results_of_the_host(*host_, *device_, gpu_, ys32, random<float>(layers), layers, world_.rank());
  }
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

// Every transport of a GPU's exchanges, sums and gathers gives the host's
// bits: staged through pinned host memory, (with a CUDA-aware MPI) sent
// from device memory, and (where built, one rank a GPU) NCCL on the
// streams. An MPI that is not CUDA-aware refuses device_direct by name, and
// ranks sharing a GPU refuse nccl; the automatic choice stages through the
// host where ranks share the GPU.
TEST_F(BlockDecompositionOnGpu, EveryTransportGivesTheHostsBits) {
  const PlanePartition p = PlanePartition::for_ranks(kNx, kNy, world_.size(), kTile);
  const BlockDecomposition staged(world_, p, gpu_, GpuTransport::host_staged);
  EXPECT_EQ(staged.transport(), GpuTransport::host_staged);
  // Automatic: NCCL where built, else device memory with a CUDA-aware MPI, unless ranks share the GPU (device 0
  // of each rank: the same GPU, or each its own where CUDA_VISIBLE_DEVICES orders them so, as
  // tools/gpu_link_check.sh does).
  const bool shared = ranks_share_a_gpu();
  const GpuTransport chosen = shared                ? GpuTransport::host_staged
                              : nccl_is_built()     ? GpuTransport::nccl
                              : mpi_is_cuda_aware() ? GpuTransport::device_direct
                                                    : GpuTransport::host_staged;
  EXPECT_EQ(device_->transport(), chosen);
  std::unique_ptr<BlockDecomposition> nccl;
  try {
    nccl = std::make_unique<BlockDecomposition>(world_, p, gpu_, GpuTransport::nccl);
    EXPECT_TRUE(nccl_is_built() && !shared);
  } catch (const InvalidArgument& e) {
    EXPECT_FALSE(nccl_is_built() && !shared) << e.what();
  }
  std::unique_ptr<BlockDecomposition> direct;
  try {
    direct = std::make_unique<BlockDecomposition>(world_, p, gpu_, GpuTransport::device_direct);
    EXPECT_TRUE(mpi_is_cuda_aware());
    EXPECT_TRUE(direct->device_direct());
  } catch (const InvalidArgument& e) {
    EXPECT_FALSE(mpi_is_cuda_aware());
    EXPECT_NE(std::string(e.what()).find("CUDA-aware"), std::string::npos) << e.what();
  }
  const std::vector<double> a = random<double>(7), b = random<double>(7);
  std::vector<double> expected = a, whole(std::size_t(kNx) * kNy * 7);
  host_->exchange(expected.data(), 7);
  host_->gather(a.data(), 7, whole.data());
  for (const BlockDecomposition* d : {&staged, static_cast<const BlockDecomposition*>(direct.get()),
                                      static_cast<const BlockDecomposition*>(nccl.get())}) {
    if (!d) continue;
    const char* way = d == &staged ? "host_staged" : d == direct.get() ? "device_direct" : "nccl";
    Array<double> da = on_gpu(a);
    d->exchange(da.data(), 7);
    d->exchange(da.data(), 7);  // again: the previous edges have left the buffers
    EXPECT_TRUE(same_bits(da.to_host(), expected)) << way;
    // The whole plane gathered, twice: the second gather reuses the first's buffers.
    const Array<double> dfield = on_gpu(a);
    Array<double> dwhole = on_gpu(std::vector<double>(whole.size(), std::nan("")));
    for (int twice = 0; twice < 2; ++twice) d->gather(dfield.data(), 7, dwhole.data());
    EXPECT_TRUE(same_bits(dwhole.to_host(), whole)) << way << " gather";
    const Array<double> db = on_gpu(b);
    EXPECT_TRUE(same_bits(d->dot(da.data(), db.data(), 7), host_->dot(expected.data(), b.data(), 7))) << way;
  }
  std::printf("[ transport ] rank %d: MPI CUDA-aware %s, NCCL built %s; automatic chose %s\n", world_.rank(),
              mpi_is_cuda_aware() ? "yes" : "no", nccl_is_built() ? "yes" : "no", to_string(device_->transport()));
}

TEST_F(BlockDecompositionOnGpu, RefusesTilesWiderThanAGpuBlockSums) {
  // 40 x 40 columns a tile: more threads than a block has.
  EXPECT_THROW(BlockDecomposition(world_, PlanePartition::for_ranks(80, 80, world_.size(), 40), gpu_), InvalidArgument);
}

}  // namespace
}  // namespace voltaic::mpi
