#include <cstdlib>
#include <cstring>
#include <new>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic {

namespace {
// Cache-line and 16-byte-vector friendly, and matches what cudaMalloc gives.
constexpr std::size_t kHostAlignment = 256;
}  // namespace

std::shared_ptr<CpuExecutor> CpuExecutor::create() { return std::shared_ptr<CpuExecutor>(new CpuExecutor()); }

void* CpuExecutor::allocate(std::size_t bytes) const {
  if (bytes == 0) return nullptr;
  const std::size_t rounded = (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  void* p = std::aligned_alloc(kHostAlignment, rounded);
  if (!p) {
    throw Error("host allocation", "CpuExecutor::allocate",
                "out of host memory allocating " + std::to_string(bytes) + " bytes");
  }
  return p;
}

void CpuExecutor::deallocate(void* ptr) const noexcept { std::free(ptr); }

void CpuExecutor::copy(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space,
                       std::size_t bytes) const {
  if (dst_space != MemorySpace::host() || src_space != MemorySpace::host()) {
    throw ExecutorMismatch("copy", "CpuExecutor::copy",
                           "the CPU executor cannot copy from " + to_string(src_space) + " to " + to_string(dst_space) +
                               "; copy through a CUDA executor");
  }
  if (bytes > 0) std::memmove(dst, src, bytes);
}

namespace {

/// The CPU's work runs in order as it is issued: nothing to order or wait for.
class CpuEvent final : public Event {
 public:
  void record(int /*stream*/) override {}
  void wait(int /*stream*/) const override {}
  void synchronize() const override {}
};

}  // namespace

std::unique_ptr<Event> CpuExecutor::create_event() const { return std::make_unique<CpuEvent>(); }

}  // namespace voltaic
