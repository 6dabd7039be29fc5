#pragma once
// The MPI side of a cut plane hierarchy's level (PlaneLevelLink, made by
// BlockDecomposition::level_link): point-to-point messages between the
// ranks whose owned cells and bands meet, from host memory or staged
// through pinned host memory from a GPU's.

#include <memory>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/plane_level_link.hpp"
#include "voltaic/mpi/communicator.hpp"

namespace voltaic::mpi {

/// Each rank's window band (its owned cells grown by `band`, within the
/// level) is filled from the ranks that own its cells: a rank sends every
/// other rank the part of its owned cells in that rank's band, all messages
/// of an exchange in flight at once. A gather is one MPI_Allgatherv of the
/// owned cells; min one MPI_Allreduce. Windows live in `exec`'s memory: on a
/// GPU each message is packed by a box copy into pinned host memory after
/// the stream's work, and unpacked by one queued on the stream.
class LevelLink final : public PlaneLevelLink {
 public:
  /// @throws InvalidArgument when the owned rectangles are not one per rank,
  ///         leave the level, or do not tile it, or the window does not hold
  ///         this rank's band
  LevelLink(const Communicator& comm, PlaneLevelLayout layout, std::shared_ptr<const Executor> exec);

  void exchange(double* window, int layers) const override;
  void exchange(float* window, int layers) const override;
  void gather(const double* window, int layers, double* whole) const override;
  void gather(const float* window, int layers, float* whole) const override;
  long long min(long long value) const override;

 private:
  struct Part {
    int rank = 0;
    PlaneBlock cells;
  };
  template <class T>
  void exchange_as(T* window, int layers) const;
  template <class T>
  void gather_as(const T* window, int layers, T* whole) const;

  /// A pinned host buffer of at least `bytes`.
  char* room(Array<char>& buffer, std::size_t bytes) const;

  Communicator comm_;
  PlaneLevelLayout layout_;
  std::shared_ptr<const Executor> exec_;
  std::vector<Part> sends_, receives_;  ///< by rank, non-empty only
  mutable Array<char> send_buffer_, receive_buffer_, gather_buffer_;
};

}  // namespace voltaic::mpi
