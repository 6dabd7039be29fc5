// voltaic-peer-bench: GPU-to-GPU copy time between devices 0 and 1 (NVLink
// where there is one), by cudaMemcpyPeerAsync, for the message sizes of the
// halo-exchange cost model (docs/performance.md): each size's median of 50
// copies, as latency + bytes / bandwidth. One JSON line.
//   voltaic-peer-bench
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "voltaic-peer-bench: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

}  // namespace

int main() {
  int devices = 0;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  if (devices < 2) {
    std::printf("{\"benchmark\":\"peer_bandwidth\",\"skipped\":\"%d device(s); two are needed\"}\n", devices);
    return 0;
  }
  int access = 0;
  check(cudaDeviceCanAccessPeer(&access, 0, 1), "cudaDeviceCanAccessPeer");
  const std::size_t largest = std::size_t(64) << 20;
  void *src = nullptr, *dst = nullptr;
  check(cudaSetDevice(1), "cudaSetDevice");
  check(cudaMalloc(&dst, largest), "cudaMalloc");
  if (access) check(cudaDeviceEnablePeerAccess(0, 0), "cudaDeviceEnablePeerAccess");
  check(cudaSetDevice(0), "cudaSetDevice");
  check(cudaMalloc(&src, largest), "cudaMalloc");
  if (access) check(cudaDeviceEnablePeerAccess(1, 0), "cudaDeviceEnablePeerAccess");
  cudaStream_t stream;
  cudaEvent_t start, stop;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("{\"benchmark\":\"peer_bandwidth\",\"device\":\"%s\",\"peer_access\":%d,\"copies\":[", prop.name, access);
  bool first = true;
  for (std::size_t bytes = 1024; bytes <= largest; bytes *= 4) {
    std::vector<float> ms;
    for (int r = 0; r < 55; ++r) {
      check(cudaEventRecord(start, stream), "cudaEventRecord");
      check(cudaMemcpyPeerAsync(dst, 1, src, 0, bytes, stream), "cudaMemcpyPeerAsync");
      check(cudaEventRecord(stop, stream), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      float t = 0.0f;
      check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
      if (r >= 5) ms.push_back(t);  // the first few warm the path up
    }
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    const double s = ms[ms.size() / 2] * 1e-3;
    std::printf("%s{\"bytes\":%zu,\"us\":%.3f,\"GB_per_s\":%.2f}", first ? "" : ",", bytes, s * 1e6, bytes / s / 1e9);
    first = false;
  }
  std::printf("]}\n");
  return 0;
}
