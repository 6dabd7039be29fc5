#pragma once
// The device side of twisted_column_solve_test.cpp: one column a warp,
// lanes 0 and 1 running the twisted solve's halves as the cell program's
// column solves do (twisted_column_ops.hpp).
#include <vector>

namespace voltaic::test::twisted {

/// z (and inverse_pivot) from twisted_column_half on lanes 0 and 1 of a
/// warp; z and inverse_pivot come in poisoned and go out as the device left
/// them. True where the pair reported a solve.
bool scalar_on_device(const std::vector<double>& diag, const std::vector<double>& tz, const std::vector<double>& r,
                      std::vector<double>& inverse_pivot, std::vector<double>& z);

/// The same for twisted_block_column_half (inputs field by field, r and z
/// field-major, factors kBlockFactors * nz).
bool block_on_device(const std::vector<std::vector<double>>& inputs, const std::vector<double>& r,
                     std::vector<double>& factors, std::vector<double>& z);

}  // namespace voltaic::test::twisted
