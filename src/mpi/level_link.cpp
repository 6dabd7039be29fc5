// LevelLink: a cut plane hierarchy level's exchanges over MPI (host memory,
// or a GPU's staged through pinned host memory).
#include "mpi/level_link.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "voltaic/core/box_copy.hpp"

namespace voltaic::mpi {

namespace {

constexpr const char* kWhere = "LevelLink";

PlaneBlock intersection(const PlaneBlock& a, const PlaneBlock& b) {
  PlaneBlock c{std::max(a.i_begin, b.i_begin), std::min(a.i_end, b.i_end), std::max(a.j_begin, b.j_begin),
               std::min(a.j_end, b.j_end)};
  if (c.i_end <= c.i_begin || c.j_end <= c.j_begin) return {};
  return c;
}

/// The cells within `band` of an owned rectangle, within the level (empty for an empty one).
PlaneBlock band_of(const PlaneBlock& o, int band, int nx, int ny) {
  if (o.columns() == 0) return {};
  return {std::max(0, o.i_begin - band), std::min(nx, o.i_end + band), std::max(0, o.j_begin - band),
          std::min(ny, o.j_end + band)};
}

bool contains(const PlaneBlock& outer, const PlaneBlock& inner) {
  return inner.columns() == 0 || (outer.i_begin <= inner.i_begin && inner.i_end <= outer.i_end &&
                                  outer.j_begin <= inner.j_begin && inner.j_end <= outer.j_end);
}

std::string show(const PlaneBlock& b) {
  return "[" + std::to_string(b.i_begin) + ", " + std::to_string(b.i_end) + ") x [" + std::to_string(b.j_begin) + ", " +
         std::to_string(b.j_end) + ")";
}

/// Queues the copy of the cells of `part` between a layered array of the
/// cells `w` (in `space`) and a packed host buffer (part.nx() x part.ny()
/// values a layer).
template <class T, bool Pack>
void move(const Executor& e, const PlaneBlock& w, MemorySpace space, const PlaneBlock& part, int layers, T* array,
          T* packed) {
  const BoxSize size{part.nx(), part.ny(), layers};
  const BoxEnd<T*> in_array{array, space, w.nx(), w.ny(), part.i_begin - w.i_begin, part.j_begin - w.j_begin};
  const BoxEnd<T*> in_buffer{packed, MemorySpace::host(), part.nx(), part.ny(), 0, 0};
  const auto source = [](const BoxEnd<T*>& b) { return BoxEnd<const T*>{b.data, b.space, b.nx, b.ny, b.i, b.j}; };
  if (Pack) {
    copy_box<T>(e, size, source(in_array), in_buffer);
  } else {
    copy_box<T>(e, size, source(in_buffer), in_array);
  }
}

}  // namespace

LevelLink::LevelLink(const Communicator& comm, PlaneLevelLayout layout, std::shared_ptr<const Executor> exec)
    : comm_(comm), layout_(std::move(layout)), exec_(std::move(exec)) {
  if (!exec_) throw InvalidArgument("exec", kWhere, "the executor is null");
  const PlaneLevelLayout& l = layout_;
  if (static_cast<int>(l.owned.size()) != comm_.size()) {
    throw InvalidArgument(
        "layout.owned", kWhere,
        std::to_string(l.owned.size()) + " owned rectangles for " + std::to_string(comm_.size()) + " ranks");
  }
  std::size_t cells = 0;
  const PlaneBlock level{0, l.nx, 0, l.ny};
  for (const PlaneBlock& o : l.owned) {
    if (!contains(level, o) || o.nx() < 0 || o.ny() < 0) {
      throw InvalidArgument("layout.owned", kWhere, "the rectangle " + show(o) + " leaves the level " + show(level));
    }
    cells += o.columns();
  }
  for (std::size_t a = 0; a < l.owned.size(); ++a)
    for (std::size_t b = a + 1; b < l.owned.size(); ++b)
      if (intersection(l.owned[a], l.owned[b]).columns() != 0) {
        throw InvalidArgument("layout.owned", kWhere,
                              "ranks " + std::to_string(a) + " and " + std::to_string(b) + " both own cells of " +
                                  show(intersection(l.owned[a], l.owned[b])));
      }
  if (cells != level.columns()) {
    throw InvalidArgument("layout.owned", kWhere,
                          "the owned rectangles hold " + std::to_string(cells) + " cells of the level's " +
                              std::to_string(level.columns()));
  }
  const int me = comm_.rank();
  const PlaneBlock mine = band_of(l.owned[me], l.band, l.nx, l.ny);
  if (!contains(l.window, mine) || !contains(level, l.window)) {
    throw InvalidArgument(
        "layout.window", kWhere,
        "the window " + show(l.window) + " does not hold the band " + show(mine) + " or leaves the level");
  }
  for (int r = 0; r < comm_.size(); ++r) {
    if (r == me) continue;
    const PlaneBlock in = intersection(l.owned[r], mine);
    const PlaneBlock out = intersection(l.owned[me], band_of(l.owned[r], l.band, l.nx, l.ny));
    if (in.columns() != 0) receives_.push_back({r, in});
    if (out.columns() != 0) sends_.push_back({r, out});
  }
}

char* LevelLink::room(Array<char>& buffer, std::size_t bytes) const {
  if (buffer.size() < bytes) {
    exec_->synchronize();  // no queued copy reads the old buffer
    buffer = Array<char>::pinned(exec_, bytes);
  }
  return buffer.data();
}

template <class T>
void LevelLink::exchange_as(T* window, int layers) const {
  if (sends_.empty() && receives_.empty()) return;  // alone on this level: no wait for the stream
  const Executor& e = *exec_;
  const MemorySpace space = e.memory_space();
  std::size_t sent = 0, received = 0;
  for (const Part& p : sends_) sent += p.cells.columns();
  for (const Part& p : receives_) received += p.cells.columns();
  T* const out_first = reinterpret_cast<T*>(room(send_buffer_, sent * layers * sizeof(T)));
  T* const in_first = reinterpret_cast<T*>(room(receive_buffer_, received * layers * sizeof(T)));
  T* out = out_first;
  for (const Part& p : sends_) {
    move<T, true>(e, layout_.window, space, p.cells, layers, window, out);
    out += p.cells.columns() * layers;
  }
  e.synchronize();  // the packed sends are in host memory (and the last exchange's unpacking is done)
  const MPI_Datatype type = std::is_same_v<T, double> ? MPI_DOUBLE : MPI_FLOAT;
  const int tag = 2000 + 2 * layers + (std::is_same_v<T, double> ? 1 : 0);  // BlockDecomposition's are 1000 + ..
  std::vector<MPI_Request> requests(sends_.size() + receives_.size());
  std::size_t q = 0;
  T* in = in_first;
  for (const Part& p : receives_) {
    const int count = static_cast<int>(p.cells.columns()) * layers;
    check(MPI_Irecv(in, count, type, p.rank, tag, comm_.get(), &requests[q++]), "MPI_Irecv");
    in += count;
  }
  out = out_first;
  for (const Part& p : sends_) {
    const int count = static_cast<int>(p.cells.columns()) * layers;
    check(MPI_Isend(out, count, type, p.rank, tag, comm_.get(), &requests[q++]), "MPI_Isend");
    out += count;
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  in = in_first;
  for (const Part& p : receives_) {
    move<T, false>(e, layout_.window, space, p.cells, layers, window, in);
    in += p.cells.columns() * layers;
  }
}

template <class T>
void LevelLink::gather_as(const T* window, int layers, T* whole) const {
  const Executor& e = *exec_;
  const MemorySpace space = e.memory_space();
  const int ranks = comm_.size();
  std::vector<int> counts(ranks), offsets(ranks);
  std::size_t total = 0;
  for (int r = 0; r < ranks; ++r) {
    counts[r] = static_cast<int>(layout_.owned[r].columns()) * layers;
    offsets[r] = static_cast<int>(total);
    total += static_cast<std::size_t>(counts[r]);
  }
  T* all = reinterpret_cast<T*>(room(gather_buffer_, total * sizeof(T)));
  const PlaneBlock& own = layout_.owned[comm_.rank()];
  if (own.columns() != 0) {
    move<T, true>(e, layout_.window, space, own, layers, const_cast<T*>(window), all + offsets[comm_.rank()]);
  }
  e.synchronize();
  const MPI_Datatype type = std::is_same_v<T, double> ? MPI_DOUBLE : MPI_FLOAT;
  check(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts.data(), offsets.data(), type, comm_.get()),
        "MPI_Allgatherv");
  const PlaneBlock level{0, layout_.nx, 0, layout_.ny};
  for (int r = 0; r < ranks; ++r) {
    if (layout_.owned[r].columns() != 0)
      move<T, false>(e, level, space, layout_.owned[r], layers, whole, all + offsets[r]);
  }
}

void LevelLink::exchange(double* window, int layers) const { exchange_as(window, layers); }
void LevelLink::exchange(float* window, int layers) const { exchange_as(window, layers); }
void LevelLink::gather(const double* window, int layers, double* whole) const { gather_as(window, layers, whole); }
void LevelLink::gather(const float* window, int layers, float* whole) const { gather_as(window, layers, whole); }

long long LevelLink::min(long long value) const {
  long long all = value;
  check(MPI_Allreduce(&value, &all, 1, MPI_LONG_LONG, MPI_MIN, comm_.get()), "MPI_Allreduce");
  return all;
}

}  // namespace voltaic::mpi
