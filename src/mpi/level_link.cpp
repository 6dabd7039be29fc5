// LevelLink: a cut plane hierarchy level's exchanges over MPI (host memory).
#include "mpi/level_link.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

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

/// Copies the cells of `part` between a window's layers and a packed buffer.
template <class T, bool Pack>
void move(const PlaneBlock& w, const PlaneBlock& part, int layers, T* window, T* packed) {
  const std::size_t wn = w.columns(), row = static_cast<std::size_t>(part.nx());
  for (int k = 0; k < layers; ++k) {
    for (int j = part.j_begin; j < part.j_end; ++j) {
      T* cells = window + k * wn + static_cast<std::size_t>(part.i_begin - w.i_begin) +
                 static_cast<std::size_t>(w.nx()) * (j - w.j_begin);
      if (Pack) {
        std::copy(cells, cells + row, packed);
      } else {
        std::copy(packed, packed + row, cells);
      }
      packed += row;
    }
  }
}

}  // namespace

LevelLink::LevelLink(const Communicator& comm, PlaneLevelLayout layout) : comm_(comm), layout_(std::move(layout)) {
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

template <class T>
void LevelLink::exchange_as(T* window, int layers) const {
  std::size_t sent = 0, received = 0;
  for (const Part& p : sends_) sent += p.cells.columns();
  for (const Part& p : receives_) received += p.cells.columns();
  send_buffer_.resize(sent * layers * sizeof(T));
  receive_buffer_.resize(received * layers * sizeof(T));
  const MPI_Datatype type = std::is_same_v<T, double> ? MPI_DOUBLE : MPI_FLOAT;
  const int tag = 2000 + 2 * layers + (std::is_same_v<T, double> ? 1 : 0);  // BlockDecomposition's are 1000 + ..
  std::vector<MPI_Request> requests(sends_.size() + receives_.size());
  T* in = reinterpret_cast<T*>(receive_buffer_.data());
  std::size_t q = 0;
  for (const Part& p : receives_) {
    const int count = static_cast<int>(p.cells.columns()) * layers;
    check(MPI_Irecv(in, count, type, p.rank, tag, comm_.get(), &requests[q++]), "MPI_Irecv");
    in += count;
  }
  T* out = reinterpret_cast<T*>(send_buffer_.data());
  for (const Part& p : sends_) {
    const int count = static_cast<int>(p.cells.columns()) * layers;
    move<T, true>(layout_.window, p.cells, layers, window, out);
    check(MPI_Isend(out, count, type, p.rank, tag, comm_.get(), &requests[q++]), "MPI_Isend");
    out += count;
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  in = reinterpret_cast<T*>(receive_buffer_.data());
  for (const Part& p : receives_) {
    move<T, false>(layout_.window, p.cells, layers, window, in);
    in += p.cells.columns() * layers;
  }
}

template <class T>
void LevelLink::gather_as(const T* window, int layers, T* whole) const {
  const int ranks = comm_.size();
  std::vector<int> counts(ranks), offsets(ranks);
  std::size_t total = 0;
  for (int r = 0; r < ranks; ++r) {
    counts[r] = static_cast<int>(layout_.owned[r].columns()) * layers;
    offsets[r] = static_cast<int>(total);
    total += static_cast<std::size_t>(counts[r]);
  }
  std::vector<T> all(total);
  const PlaneBlock& own = layout_.owned[comm_.rank()];
  if (own.columns() != 0) {
    move<T, true>(layout_.window, own, layers, const_cast<T*>(window), all.data() + offsets[comm_.rank()]);
  }
  const MPI_Datatype type = std::is_same_v<T, double> ? MPI_DOUBLE : MPI_FLOAT;
  check(
      MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all.data(), counts.data(), offsets.data(), type, comm_.get()),
      "MPI_Allgatherv");
  const PlaneBlock level{0, layout_.nx, 0, layout_.ny};
  for (int r = 0; r < ranks; ++r) {
    if (layout_.owned[r].columns() != 0) {
      move<T, false>(level, layout_.owned[r], layers, whole, all.data() + offsets[r]);
    }
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
