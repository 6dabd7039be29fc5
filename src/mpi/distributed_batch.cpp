// A sweep over ranks: contiguous shares of the cells, each rank's results
// packed into bytes and gathered on rank 0.
#include "voltaic/mpi/distributed_batch.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>

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

/// Forwards stop_reason() only: on_cell comes on rank 0 after the gather.
class StopOnly : public BatchObserver {
 public:
  explicit StopOnly(BatchObserver* o) : o_(o) {}
  std::string stop_reason() override { return o_ ? o_->stop_reason() : std::string(); }

 private:
  BatchObserver* o_;
};

}  // namespace

std::pair<std::size_t, std::size_t> cell_range(std::size_t cells, int rank, int ranks) {
  const std::size_t p = static_cast<std::size_t>(ranks), r = static_cast<std::size_t>(rank);
  const std::size_t base = cells / p, extra = cells % p;
  const std::size_t first = r * base + std::min(r, extra);
  return {first, first + base + (r < extra ? 1 : 0)};
}

std::vector<BatchCellResult> run_batch(const Communicator& comm, const ParameterSet& base, const CellParameters& cells,
                                       const SimulationOptions& options, std::shared_ptr<const Executor> exec,
                                       const BatchOptions& batch, const Experiment& experiment,
                                       BatchObserver* observer) {
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

  StopOnly stop(observer);
  std::vector<BatchCellResult> mine;
  if (local) mine = local->run(experiment, &stop);
  Writer w;
  for (const BatchCellResult& r : mine) pack(w, r);

  // Gather the packed results on rank 0, in rank order (= cell order).
  if (w.bytes.size() > static_cast<std::size_t>(INT_MAX))
    throw MpiError("results of rank " + std::to_string(comm.rank()), "voltaic::mpi::run_batch",
                   "hold " + std::to_string(w.bytes.size()) +
                       " bytes, more than one MPI message carries (2^31 - 1); "
                       "allowed: fewer cells or rows per rank (more ranks, a longer output period)");
  const int size = static_cast<int>(w.bytes.size());
  std::vector<int> sizes(comm.rank() == 0 ? comm.size() : 0), offsets;
  check(MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm.get()), "MPI_Gather");
  std::vector<char> all;
  if (comm.rank() == 0) {
    offsets.resize(sizes.size());
    std::size_t total = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      offsets[r] = static_cast<int>(total);
      total += static_cast<std::size_t>(sizes[r]);
    }
    all.resize(total);
  }
  check(MPI_Gatherv(w.bytes.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0, comm.get()),
        "MPI_Gatherv");
  if (comm.rank() != 0) return {};
  std::vector<BatchCellResult> results;
  results.reserve(cells.num_cells());
  Reader in(all.data(), all.data() + all.size());
  for (std::size_t i = 0; i < cells.num_cells(); ++i) {
    results.push_back(unpack(in));
    if (observer && results.back().status != BatchCellResult::Status::not_run) observer->on_cell(i, results.back());
  }
  return results;
}

}  // namespace voltaic::mpi
