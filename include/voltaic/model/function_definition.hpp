#pragma once
/// @file function_definition.hpp
/// @brief FunctionDefinition: a custom material function on the host, built
/// and checked from a number, a table (linear or cubic) or an expression, before
/// ParameterSet::set_custom_function stores its data and points a
/// CustomFunction handle at it.

#include <string>
#include <vector>

#include "voltaic/model/expression.hpp"
#include "voltaic/model/material_function.hpp"

namespace voltaic {

/// A custom material function with its own data.
struct FunctionDefinition {
  FunctionKind kind = FunctionKind::none;
  double value = 0.0;        ///< the constant
  int size = 0;              ///< as CustomFunction::size: points of a table, length of a program
  std::vector<double> data;  ///< table: x, y, its index; cubic_table: x, y, M, its index; expression: the program
  bool uses_x = false;       ///< false: the same value everywhere (a constant, or an expression without x)
  /// How function_table() reports it: "constant: 3.3e-14", "table (12
  /// points)", "expression: 1.5 * x + 2".
  std::string description;

  /// f(x) = v.
  static FunctionDefinition constant(double v);

  /// Linear interpolation through (x_i, y_i), extended linearly beyond the
  /// first and last points (see CustomFunction).
  /// @throws InvalidArgument unless x and y have the same length >= 2, every
  ///         value is finite and x is strictly increasing (naming the index)
  static FunctionDefinition table(const std::vector<double>& x, const std::vector<double>& y);

  /// The not-a-knot cubic spline through (x_i, y_i) (PyBaMM's "cubic"
  /// Interpolant: scipy's CubicSpline with its default end conditions),
  /// extended beyond the first and last points by the end segments' cubics.
  /// Its second derivatives at the nodes are solved for here, once.
  /// @throws InvalidArgument unless x and y have the same length >= 4, every
  ///         value is finite and x is strictly increasing (naming the index)
  static FunctionDefinition cubic_table(const std::vector<double>& x, const std::vector<double>& y);

  /// A formula in x (expression.hpp gives the grammar).
  /// @throws ExpressionError naming the column of what cannot be compiled
  static FunctionDefinition expression(const std::string& text,
                                       const ExpressionFunctions& functions = ExpressionFunctions::all());

  /// This function times `factor`: a constant or a table scaled (a cubic
  /// table's second derivatives with its values), an
  /// expression followed by one multiplication (its own operations untouched).
  FunctionDefinition scaled(double factor) const;

  /// A handle on this definition's own data (valid while it lives; for
  /// evaluating it on the host before it is stored).
  CustomFunction handle() const& { return {kind, size, data.empty() ? nullptr : data.data(), value}; }
  /// Not on a temporary: the handle would outlive the data it points at.
  CustomFunction handle() && = delete;
  /// f(x), on the host.
  double operator()(double x) const { return handle()(x); }
};

}  // namespace voltaic
