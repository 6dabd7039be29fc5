#pragma once
/// @file field_set.hpp
/// @brief FieldSet: named structure-of-arrays fields on one grid and executor.

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/core/grid.hpp"

namespace voltaic {

/// Named fields, one contiguous Array per variable (c_e, phi_e, T, ...).
/// A field of `components` values per cell is stored component-outer,
/// value (c, cell) at c * num_cells + cell, so one-thread-per-cell kernels
/// coalesce (particle shells: c_s[r][cell]).
template <class T>
class FieldSet {
 public:
  FieldSet(std::shared_ptr<const Grid3D> grid, std::shared_ptr<const Executor> exec);

  /// Adds an uninitialised field; throws InvalidArgument if the name is taken,
  /// empty, or components < 1.
  Array<T>& add(const std::string& name, int components = 1);
  /// The field `name`; throws InvalidArgument listing the fields there are.
  Array<T>& operator[](const std::string& name);
  const Array<T>& operator[](const std::string& name) const;
  bool contains(const std::string& name) const { return fields_.count(name) != 0; }
  /// Components per cell of field `name`.
  int components(const std::string& name) const;
  /// Field names in the order they were added.
  const std::vector<std::string>& names() const { return order_; }

  const Grid3D& grid() const { return *grid_; }
  const std::shared_ptr<const Executor>& executor() const { return exec_; }

 private:
  struct Entry {
    Array<T> data;
    int components;
  };
  const Entry& entry(const std::string& name) const;

  std::shared_ptr<const Grid3D> grid_;
  std::shared_ptr<const Executor> exec_;
  std::map<std::string, Entry> fields_;
  std::vector<std::string> order_;
};

extern template class FieldSet<float>;
extern template class FieldSet<double>;

}  // namespace voltaic
