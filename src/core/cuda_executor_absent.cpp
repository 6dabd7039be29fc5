// The CUDA executor of a build without the CUDA backend: it reports that no
// device exists, and creating one says how to get the backend.
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic {

namespace {
[[noreturn]] void unavailable(const char* where) {
  throw BackendUnavailable("CUDA backend", where,
                           "voltaic was built without CUDA; reconfigure with -DVOLTAIC_CUDA=ON on a machine with nvcc");
}
}  // namespace

int CudaExecutor::device_count() noexcept { return 0; }
std::shared_ptr<CudaExecutor> CudaExecutor::create(int, int) { unavailable("CudaExecutor::create"); }
CudaExecutor::CudaExecutor(int, int) { unavailable("CudaExecutor::CudaExecutor"); }
CudaExecutor::~CudaExecutor() = default;
std::string CudaExecutor::name() const { return "cuda (not built)"; }
void* CudaExecutor::allocate(std::size_t) const { unavailable("CudaExecutor::allocate"); }
void CudaExecutor::deallocate(void*) const noexcept {}
void* CudaExecutor::allocate_pinned(std::size_t) const { unavailable("CudaExecutor::allocate_pinned"); }
void CudaExecutor::deallocate_pinned(void*) const noexcept {}
void CudaExecutor::copy(void*, MemorySpace, const void*, MemorySpace, std::size_t) const {
  unavailable("CudaExecutor::copy");
}
void CudaExecutor::synchronize() const {}
CUstream_st* CudaExecutor::stream(int) const { unavailable("CudaExecutor::stream"); }
void CudaExecutor::activate() const { unavailable("CudaExecutor::activate"); }
void* CudaExecutor::scratch(std::size_t) const { unavailable("CudaExecutor::scratch"); }
void* CudaExecutor::host_scratch(std::size_t) const { unavailable("CudaExecutor::host_scratch"); }
unsigned* CudaExecutor::counters() const { unavailable("CudaExecutor::counters"); }
void CudaExecutor::copy_async(void*, MemorySpace, const void*, MemorySpace, std::size_t, int) const {
  unavailable("CudaExecutor::copy_async");
}

std::unique_ptr<Event> CudaExecutor::create_event() const { unavailable("CudaExecutor::create_event"); }

CudaEvent::CudaEvent(std::shared_ptr<const CudaExecutor>) { unavailable("CudaEvent::CudaEvent"); }
CudaEvent::~CudaEvent() = default;
void CudaEvent::record(int) { unavailable("CudaEvent::record"); }
void CudaEvent::wait(int) const { unavailable("CudaEvent::wait"); }
void CudaEvent::synchronize() const { unavailable("CudaEvent::synchronize"); }
float CudaEvent::elapsed_ms_since(const CudaEvent&) const { unavailable("CudaEvent::elapsed_ms_since"); }

}  // namespace voltaic
