// A sweep over ranks: contiguous shares of the cells, each rank's results
// packed into bytes and gathered on rank 0.
#include "voltaic/mpi/distributed_batch.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>

#include "spread_stop.hpp"

namespace voltaic::mpi {

namespace {

class Writer {
 public:
  template <class T>
  void put(const T& v) {
    const auto* p = reinterpret_cast<const char*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof v);
  }
  void put(const std::string& s) {
    put(static_cast<std::uint64_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  void put(const std::vector<double>& v) {
    put(static_cast<std::uint64_t>(v.size()));
    if (v.empty()) return;
    const auto* p = reinterpret_cast<const char*>(v.data());
    bytes.insert(bytes.end(), p, p + v.size() * sizeof(double));
  }
  std::vector<char> bytes;
};

class Reader {
 public:
  Reader(const char* p, const char* end) : p_(p), end_(end) {}
  template <class T>
  void get(T& v) {
    take(&v, sizeof v);
  }
  void get(std::string& s) {
    std::uint64_t n = 0;
    get(n);
    s.assign(n, '\0');
    take(s.data(), n);
  }
  void get(std::vector<double>& v) {
    std::uint64_t n = 0;
    get(n);
    v.resize(n);
    take(v.data(), n * sizeof(double));
  }

 private:
  void take(void* out, std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n)
      throw MpiError("gathered results", "voltaic::mpi::run_batch", "a rank's results are truncated");
    if (n == 0) return;  // an empty curve's data() may be null, which memcpy must not see
    std::memcpy(out, p_, n);
    p_ += n;
  }
  const char* p_;
  const char* end_;
};

void pack(Writer& w, const BatchCellResult& r) {
  w.put(static_cast<int>(r.status));
  w.put(r.termination);
  for (double v :
       {r.discharge_capacity_ah, r.discharge_energy_wh, r.final_voltage, r.max_temperature, r.simulated_time})
    w.put(v);
  w.put(r.steps_taken);
  w.put(r.steps_rejected);
  for (const std::vector<double>* c : {&r.time, &r.voltage, &r.current, &r.temperature}) w.put(*c);
}

BatchCellResult unpack(Reader& in) {
  BatchCellResult r;
  int status = 0;
  in.get(status);
  r.status = static_cast<BatchCellResult::Status>(status);
  in.get(r.termination);
  for (double* v :
       {&r.discharge_capacity_ah, &r.discharge_energy_wh, &r.final_voltage, &r.max_temperature, &r.simulated_time})
    in.get(*v);
  in.get(r.steps_taken);
  in.get(r.steps_rejected);
  for (std::vector<double>* c : {&r.time, &r.voltage, &r.current, &r.temperature}) in.get(*c);
  return r;
}

CellParameters share(const CellParameters& cells, std::pair<std::size_t, std::size_t> range) {
  CellParameters s;
  s.names = cells.names;
  const std::size_t k = cells.names.size();
  s.values.assign(cells.values.begin() + static_cast<std::ptrdiff_t>(range.first * k),
                  cells.values.begin() + static_cast<std::ptrdiff_t>(range.second * k));
  return s;
}

constexpr int kSizeTag = 4301, kBytesTag = 4302;

/// A rank's packed results to rank 0: their length, then messages of at
/// most chunk bytes (one MPI message counts in int).
void send_bytes(const Communicator& comm, const std::vector<char>& bytes, std::size_t chunk) {
  const std::uint64_t size = bytes.size();
  check(MPI_Send(&size, 1, MPI_UINT64_T, 0, kSizeTag, comm.get()), "MPI_Send");
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    const int n = static_cast<int>(std::min(chunk, bytes.size() - at));
    check(MPI_Send(bytes.data() + at, n, MPI_CHAR, 0, kBytesTag, comm.get()), "MPI_Send");
  }
}

std::vector<char> receive_bytes(const Communicator& comm, int rank, std::size_t chunk) {
  std::uint64_t size = 0;
  check(MPI_Recv(&size, 1, MPI_UINT64_T, rank, kSizeTag, comm.get(), MPI_STATUS_IGNORE), "MPI_Recv");
  std::vector<char> bytes(static_cast<std::size_t>(size));
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    const int n = static_cast<int>(std::min(chunk, bytes.size() - at));
    check(MPI_Recv(bytes.data() + at, n, MPI_CHAR, rank, kBytesTag, comm.get(), MPI_STATUS_IGNORE), "MPI_Recv");
  }
  return bytes;
}

}  // namespace

std::pair<std::size_t, std::size_t> cell_range(std::size_t cells, int rank, int ranks) {
  const std::size_t p = static_cast<std::size_t>(ranks), r = static_cast<std::size_t>(rank);
  const std::size_t base = cells / p, extra = cells % p;
  const std::size_t first = r * base + std::min(r, extra);
  return {first, first + base + (r < extra ? 1 : 0)};
}

std::vector<BatchCellResult> run_batch(const Communicator& comm, const ParameterSet& base, const CellParameters& cells,
                                       const SimulationOptions& options, std::shared_ptr<const Executor> exec,
                                       const BatchOptions& batch, const Experiment& experiment, BatchObserver* observer,
                                       std::size_t chunk_bytes) {
  if (chunk_bytes < 1 || chunk_bytes > static_cast<std::size_t>(INT_MAX))
    throw InvalidArgument("chunk_bytes", "voltaic::mpi::run_batch",
                          "is " + std::to_string(chunk_bytes) + "; allowed: 1 to 2^31 - 1");
  const auto range = cell_range(cells.num_cells(), comm.rank(), comm.size());
  std::unique_ptr<BatchSimulation> local;
  std::exception_ptr error;
  try {
    if (range.second > range.first)
      local = std::make_unique<BatchSimulation>(base, share(cells, range), options, exec, batch);
  } catch (...) {
    error = std::current_exception();
  }
  // Every rank learns whether some rank cannot run its share.
  const int failed = comm.max(error ? comm.rank() + 1 : 0);
  if (error) std::rethrow_exception(error);
  if (failed)
    throw InvalidArgument("rank " + std::to_string(failed - 1), "voltaic::mpi::run_batch",
                          "could not build its share of the batch (its error is on that rank)");

  // on_cell comes on rank 0 after the gather; a stop on any rank stops every rank's share.
  SpreadStop stop(comm, observer);
  std::vector<BatchCellResult> mine;
  try {
    if (local) mine = local->run(experiment, &stop);
  } catch (...) {
    error = std::current_exception();
  }
  // Every rank settles and learns of a failed share before any waits for another's bytes.
  stop.settle();
  const int run_failed = comm.max(error ? comm.rank() + 1 : 0);
  if (error) std::rethrow_exception(error);
  if (run_failed)
    throw MpiError("rank " + std::to_string(run_failed - 1), "voltaic::mpi::run_batch",
                   "failed while running its share of the batch (its error is on that rank)");
  Writer w;
  for (const BatchCellResult& r : mine) pack(w, r);
  mine.clear();
  if (comm.rank() != 0) {
    send_bytes(comm, w.bytes, chunk_bytes);
    return {};
  }
  // Rank 0: its own cells, then each rank's in rank order (= cell order),
  // each unpacked as it arrives.
  std::vector<BatchCellResult> results;
  results.reserve(cells.num_cells());
  for (int r = 0; r < comm.size(); ++r) {
    const std::vector<char> bytes = r == 0 ? std::move(w.bytes) : receive_bytes(comm, r, chunk_bytes);
    const auto share_of = cell_range(cells.num_cells(), r, comm.size());
    Reader in(bytes.data(), bytes.data() + bytes.size());
    for (std::size_t i = share_of.first; i < share_of.second; ++i) {
      results.push_back(unpack(in));
      if (observer && results.back().status != BatchCellResult::Status::not_run) observer->on_cell(i, results.back());
    }
  }
  return results;
}

}  // namespace voltaic::mpi
