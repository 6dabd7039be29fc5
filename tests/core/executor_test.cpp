#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "test_support.hpp"

using namespace voltaic;

TEST(CpuExecutor, AllocatesAlignedHostMemory) {
  auto cpu = CpuExecutor::create();
  EXPECT_EQ(cpu->backend(), Backend::cpu);
  EXPECT_EQ(cpu->memory_space(), MemorySpace::host());
  void* p = cpu->allocate(1000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 256, 0u);
  cpu->deallocate(p);
  EXPECT_EQ(cpu->allocate(0), nullptr);
}

TEST(CpuExecutor, RefusesDeviceMemory) {
  auto cpu = CpuExecutor::create();
  double a = 1, b = 0;
  EXPECT_THROW(cpu->copy(&b, MemorySpace::host(), &a, MemorySpace::cuda(0), sizeof(double)), ExecutorMismatch);
}

TEST(CudaExecutor, DeviceCountNeverThrows) {
  const int n = CudaExecutor::device_count();
  EXPECT_GE(n, 0);
  if (!cuda_backend_built()) {
    EXPECT_EQ(n, 0);
  }
}

TEST(CudaExecutor, CreatingWithoutADeviceSaysWhy) {
  if (CudaExecutor::device_count() > 0) GTEST_SKIP() << "a CUDA device is visible";
  try {
    CudaExecutor::create(0);
    FAIL() << "created a CUDA executor without a device";
  } catch (const BackendUnavailable& e) {
    EXPECT_FALSE(e.why().empty());
  }
}

TEST(CudaExecutor, DescribesItsDeviceAndStreams) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  auto exec = test::cuda_executor();
  EXPECT_EQ(exec->backend(), Backend::cuda);
  EXPECT_EQ(exec->memory_space(), MemorySpace::cuda(0));
  EXPECT_FALSE(exec->info().name.empty());
  EXPECT_GT(exec->info().multiprocessors, 0);
  EXPECT_EQ(exec->num_streams(), 2);
  EXPECT_NE(exec->stream(0), exec->stream(1));
  EXPECT_THROW(exec->stream(2), InvalidArgument);
  EXPECT_THROW(CudaExecutor::create(CudaExecutor::device_count()), InvalidArgument);
  EXPECT_THROW(CudaExecutor::create(0, 0), InvalidArgument);
}

TEST(CudaExecutor, FailingAllocationIsATypedError) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  auto exec = test::cuda_executor();
  try {
    exec->allocate(std::size_t(1) << 60);
    FAIL() << "allocated an exbibyte";
  } catch (const CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("out of device memory"), std::string::npos);
    EXPECT_FALSE(e.sticky());
  }
  // The context is still usable afterwards.
  Array<double> a(exec, 10);
  fill(*exec, a.view(), 1.0);
  EXPECT_EQ(a.to_host()[9], 1.0);
}

TEST(CudaEvent, OrdersWorkBetweenStreamsAndTimes) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  auto exec = test::cuda_executor();
  CudaEvent start(exec), stop(exec);
  Array<float> a(exec, 1 << 20);
  start.record(0);
  fill(*exec, a.view(), 2.0f);
  stop.record(0);
  stop.wait(1);  // stream 1 now waits for the fill
  stop.synchronize();
  EXPECT_GE(stop.elapsed_ms_since(start), 0.0f);
  EXPECT_THROW(start.record(5), InvalidArgument);
}

// The CPU runs work in order as it is issued: one stream, events that order
// nothing, copy_async that copies at once.
TEST(CpuExecutor, HasOneStreamAndEventsThatAreNoOps) {
  auto cpu = CpuExecutor::create();
  EXPECT_EQ(cpu->num_streams(), 1);
  std::unique_ptr<Event> e = cpu->create_event();
  ASSERT_NE(e, nullptr);
  e->record(0);
  e->wait(0);
  e->synchronize();
  const double src[3] = {1.0, 2.0, 3.0};
  double dst[3] = {0.0, 0.0, 0.0};
  cpu->copy_async(dst, MemorySpace::host(), src, MemorySpace::host(), sizeof src, 0);
  EXPECT_EQ(dst[2], 3.0);  // already there: no synchronize needed
}

// Through the Executor interface, as the solver uses it.
TEST(CudaExecutor, EventsAndAsyncCopiesThroughTheInterface) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  std::shared_ptr<const Executor> exec = test::cuda_executor();
  ASSERT_GE(exec->num_streams(), 2);
  Array<double> a(exec, 1 << 16);
  std::vector<double> host(a.size(), 0.0);
  std::unique_ptr<Event> filled = exec->create_event(), copied = exec->create_event();
  fill(*exec, a.view(), 3.5);
  filled->record(0);
  filled->wait(1);
  exec->copy_async(host.data(), MemorySpace::host(), a.data(), a.space(), a.bytes(), 1);
  copied->record(1);
  copied->synchronize();
  EXPECT_EQ(host.front(), 3.5);
  EXPECT_EQ(host.back(), 3.5);
}

TEST(DebugSync, CanBeSwitchedAtRunTime) {
  const bool before = debug_sync();
  set_debug_sync(!before);
  EXPECT_EQ(debug_sync(), !before);
  set_debug_sync(before);
  EXPECT_EQ(debug_sync(), before);
}
