#pragma once
/// @file plane_decomposition.hpp
/// @brief What the single-block code asks of a plane cut over several
/// processes: ghost exchanges and reductions over the owned cells. The core
/// library defines the interface; voltaic::mpi implements it, so that the
/// stencil operators, the Krylov solvers and the Simulation run on a rank's
/// block unchanged.

#include <cstddef>
#include <memory>
#include <vector>

#include "voltaic/core/memory_space.hpp"
#include "voltaic/core/plane_partition.hpp"
#include "voltaic/linalg/plane_level_link.hpp"
#include "voltaic/linalg/stencil_point.hpp"
#include "voltaic/linalg/vector_space.hpp"

namespace voltaic {

/// One rank's block of an x-y plane cut into blocks. Every array of the
/// block is stored ghosted: the owned columns and one ghost column on each
/// side that has a neighbour, x fastest, then y, then `layers` layers (the
/// block's local grid has ghosted_nx() x ghosted_ny() columns). A ghost
/// holds the neighbour's value after an exchange; the boundary conditions of
/// the plane's outer faces act on the owned columns there. Reductions cover
/// the owned cells only, in an order that does not depend on how the plane
/// is cut, so a run gives the same bits on every partition. Every call is
/// collective over the ranks. The arrays are in memory_space() (the
/// executor's the decomposition was made for).
class PlaneDecomposition {
 public:
  virtual ~PlaneDecomposition() = default;

  /// Where the arrays passed to this decomposition live.
  virtual MemorySpace memory_space() const = 0;

  /// Columns of the ghosted block in x and y.
  virtual int ghosted_nx() const = 0;
  virtual int ghosted_ny() const = 0;
  /// Columns of the whole plane in x and y.
  virtual int plane_nx() const = 0;
  virtual int plane_ny() const = 0;
  /// The whole plane's column of the ghosted block's first column, in x and y.
  virtual int first_i() const = 0;
  virtual int first_j() const = 0;

  /// This rank's number and every rank's owned block, in rank order: where
  /// the pieces of a field or checkpoint written per rank lie in the plane.
  virtual int rank() const = 0;
  virtual const std::vector<PlaneBlock>& blocks() const = 0;

  /// Posts the exchange of the owned edge columns of a ghosted field of
  /// `layers` layers; end() waits and fills its ghosts, so that interior
  /// work can run between them. One exchange per layer count in flight.
  virtual void begin(const double* field, int layers) const = 0;
  virtual void end(double* field, int layers) const = 0;
  virtual void begin(const float* field, int layers) const = 0;
  virtual void end(float* field, int layers) const = 0;
  template <class T>
  void exchange(T* field, int layers) const {
    begin(static_cast<const T*>(field), layers);
    end(field, layers);
  }

  /// The ghost columns and the owned columns beside them: the rows of a
  /// stencil that read ghosts, redone once they have arrived.
  virtual stencil::ColumnFrame frame() const = 0;
  /// Sets the ghost columns of a field of `layers` layers to `value`.
  virtual void set_ghosts(double* field, int layers, double value) const = 0;
  virtual void set_ghosts(float* field, int layers, float value) const = 0;

  /// sum of x[c] y[c] over the owned cells of every rank (y null: of x[c]),
  /// as the canonical sum: the same bits on every rank and every partition.
  virtual double dot(const double* x, const double* y, int layers) const = 0;
  /// The largest |x| over the owned cells of every rank (NaN if one is NaN).
  virtual double max_abs(const double* x, int layers) const = 0;
  /// The whole plane's values of a ghosted field of `layers` layers, on
  /// every rank (x fastest, plane_nx plane_ny values a layer): the small 2D
  /// problems (the foils' Schur complement) are solved whole on every rank.
  virtual void gather(const double* field, int layers, double* whole) const = 0;
  /// The owned cells of a ghosted field of `layers` layers (blocks()[rank()]'s
  /// columns, x fastest, then y, then layers); no communication.
  virtual void owned(const double* field, int layers, double* out) const = 0;
  /// The ghosted block (ghosts included) of a whole-plane field; no communication.
  virtual void slice(const double* whole, int layers, double* field) const = 0;
  /// The same for arrays in host memory, whatever memory_space() is.
  template <class T>
  void slice_host(const T* whole, int layers, T* field) const {
    const std::size_t gx = static_cast<std::size_t>(ghosted_nx()), gy = static_cast<std::size_t>(ghosted_ny());
    const std::size_t nx = static_cast<std::size_t>(plane_nx()), plane = nx * static_cast<std::size_t>(plane_ny());
    for (std::size_t k = 0; k < static_cast<std::size_t>(layers); ++k)
      for (std::size_t j = 0; j < gy; ++j)
        for (std::size_t i = 0; i < gx; ++i)
          field[i + gx * (j + gy * k)] = whole[(first_i() + i) + nx * (first_j() + j) + plane * k];
  }

  /// The exchanges of one level of a plane hierarchy cut over the same
  /// ranks (CutPlaneMultigrid); layout.owned holds a rectangle per rank.
  /// @throws InvalidArgument when this decomposition cannot link such a
  ///         level (its arrays are in device memory, or the layout does not
  ///         tile the level)
  virtual std::unique_ptr<PlaneLevelLink> level_link(const PlaneLevelLayout& layout) const = 0;

  /// Whether begin(), end(), gather(), slice() and space()'s reductions into
  /// device memory only queue work on the executor's streams, the host never
  /// waiting (LinearOperator::stream_ordered()'s terms): a solver may then
  /// capture them. False unless the decomposition says so.
  virtual bool stream_ordered() const { return false; }

  /// The inner products of ghosted vectors of `layers` layers (dot()'s order).
  virtual const VectorSpace<double>& space(int layers, double) const = 0;
  virtual const VectorSpace<float>& space(int layers, float) const = 0;
  template <class T>
  const VectorSpace<T>& space(int layers) const {
    return space(layers, T(0));
  }
};

}  // namespace voltaic
