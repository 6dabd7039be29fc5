// FunctionDefinition: the checks on tables, the cubic spline's second
// derivatives, and the wrapping of expressions.
#include "voltaic/model/function_definition.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic {

namespace {

std::string show(const char* axis, std::size_t i, double v) {
  return std::string(axis) + "[" + std::to_string(i) + "] = " + format_parameter_value(v);
}

/// What a table needs: `least` points or more (`why` says what needs them).
struct TableRule {
  const char* name;  ///< "table", "cubic table"
  const char* where;
  std::size_t least;
  const char* why;
};

constexpr TableRule kLinear{"table", "voltaic::FunctionDefinition::table", 2, "linear interpolation needs at least 2"};
constexpr TableRule kCubic{"cubic table", "voltaic::FunctionDefinition::cubic_table", 4,
                           "the not-a-knot cubic spline needs at least 4"};

void check_table(const TableRule& rule, const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) {
    throw InvalidArgument(rule.name, rule.where,
                          "x has " + std::to_string(x.size()) + " values and y " + std::to_string(y.size()) +
                              "; they must have the same length");
  }
  if (x.size() < rule.least) {
    throw InvalidArgument(rule.name, rule.where, "has " + std::to_string(x.size()) + " point(s); " + rule.why);
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) throw InvalidArgument(rule.name, rule.where, show("x", i, x[i]) + " is not finite");
    if (!std::isfinite(y[i])) throw InvalidArgument(rule.name, rule.where, show("y", i, y[i]) + " is not finite");
    if (i > 0 && !(x[i] > x[i - 1])) {
      throw InvalidArgument(
          rule.name, rule.where,
          "x must be strictly increasing, but " + show("x", i, x[i]) + " follows " + show("x", i - 1, x[i - 1]));
    }
  }
}

/// Second derivatives M_0..M_{n-1} of the not-a-knot cubic spline (n >= 4).
/// Interior nodes: h_{k-1} M_{k-1} + 2 (h_{k-1} + h_k) M_k + h_k M_{k+1} =
/// 6 (d_k - d_{k-1}), d_k the slope of segment k. Not-a-knot (the third
/// derivative continuous at x_1 and x_{n-2}) gives M_0 from M_1, M_2 and
/// M_{n-1} from M_{n-2}, M_{n-3}; put into the first and last interior rows,
/// they leave a tridiagonal system in M_1..M_{n-2} that is strictly
/// diagonally dominant, so Thomas' algorithm needs no pivoting.
std::vector<double> not_a_knot_second_derivatives(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  std::vector<double> h(n - 1), d(n - 1);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    h[k] = x[k + 1] - x[k];
    d[k] = (y[k + 1] - y[k]) / h[k];
  }
  // Rows 1..n-2 (index k): sub M_{k-1} + diag M_k + sup M_{k+1} = rhs.
  std::vector<double> sub(n), diag(n), sup(n), rhs(n);
  for (std::size_t k = 1; k + 1 < n; ++k) {
    sub[k] = h[k - 1];
    diag[k] = 2.0 * (h[k - 1] + h[k]);
    sup[k] = h[k];
    rhs[k] = 6.0 * (d[k] - d[k - 1]);
  }
  // M_0 = ((h_0 + h_1) M_1 - h_0 M_2) / h_1 into row 1.
  diag[1] += h[0] * (h[0] + h[1]) / h[1];
  sup[1] -= h[0] * h[0] / h[1];
  // M_{n-1} = ((h_{n-3} + h_{n-2}) M_{n-2} - h_{n-2} M_{n-3}) / h_{n-3} into row n-2.
  const std::size_t l = n - 2;
  diag[l] += h[l] * (h[l - 1] + h[l]) / h[l - 1];
  sub[l] -= h[l] * h[l] / h[l - 1];
  // Thomas: forward elimination, then back substitution.
  for (std::size_t k = 2; k <= l; ++k) {
    const double w = sub[k] / diag[k - 1];
    diag[k] -= w * sup[k - 1];
    rhs[k] -= w * rhs[k - 1];
  }
  std::vector<double> m(n);
  m[l] = rhs[l] / diag[l];
  for (std::size_t k = l - 1; k >= 1; --k) m[k] = (rhs[k] - sup[k] * m[k + 1]) / diag[k];
  m[0] = ((h[0] + h[1]) * m[1] - h[0] * m[2]) / h[1];
  m[n - 1] = ((h[l - 1] + h[l]) * m[l] - h[l] * m[l - 1]) / h[l - 1];
  return m;
}

}  // namespace

FunctionDefinition FunctionDefinition::constant(double v) {
  FunctionDefinition f;
  f.kind = FunctionKind::constant;
  f.value = v;
  f.description = "constant: " + format_parameter_value(v);
  return f;
}

namespace {

/// Appends the segment index of a table with nodes x (detail::table_buckets):
/// each bucket's guess the segment of its lower edge.
void append_table_index(std::vector<double>& data, const std::vector<double>& x) {
  const int n = static_cast<int>(x.size());
  const int buckets = detail::table_buckets(n);
  const double scale = buckets / (x.back() - x.front());
  data.push_back(scale);
  for (int b = 0; b < buckets; ++b)
    data.push_back(static_cast<double>(detail::table_segment(x.data(), n, x.front() + b / scale)));
}

}  // namespace

FunctionDefinition FunctionDefinition::table(const std::vector<double>& x, const std::vector<double>& y) {
  check_table(kLinear, x, y);
  FunctionDefinition f;
  f.kind = FunctionKind::table;
  f.size = static_cast<int>(x.size());
  f.data = x;
  f.data.insert(f.data.end(), y.begin(), y.end());
  append_table_index(f.data, x);
  f.uses_x = true;
  f.description = "table (" + std::to_string(x.size()) + " points)";
  return f;
}

FunctionDefinition FunctionDefinition::cubic_table(const std::vector<double>& x, const std::vector<double>& y) {
  check_table(kCubic, x, y);
  const std::vector<double> m = not_a_knot_second_derivatives(x, y);
  for (std::size_t i = 0; i < m.size(); ++i) {
    // Finite data can still overflow (y of 1e308 over a step of 1e-10).
    if (!std::isfinite(m[i])) {
      throw InvalidArgument(kCubic.name, kCubic.where,
                            "the spline's second derivative at " + show("x", i, x[i]) + " is not finite (" +
                                format_parameter_value(m[i]) + "): the data overflow a double");
    }
  }
  FunctionDefinition f;
  f.kind = FunctionKind::cubic_table;
  f.size = static_cast<int>(x.size());
  f.data = x;
  f.data.insert(f.data.end(), y.begin(), y.end());
  f.data.insert(f.data.end(), m.begin(), m.end());
  append_table_index(f.data, x);
  f.uses_x = true;
  f.description = "cubic table (" + std::to_string(x.size()) + " points)";
  return f;
}

FunctionDefinition FunctionDefinition::expression(const std::string& text, const ExpressionFunctions& functions) {
  CompiledExpression c = compile_expression(text, functions);
  FunctionDefinition f;
  f.kind = FunctionKind::expression;
  f.uses_x = c.uses_x;
  f.data = std::move(c.program);
  f.size = static_cast<int>(f.data.size());
  f.description = "expression: " + text;
  return f;
}

FunctionDefinition FunctionDefinition::scaled(double factor) const {
  FunctionDefinition f = *this;
  const std::string times = " (times " + format_parameter_value(factor) + ")";
  switch (kind) {
    case FunctionKind::constant:
      f.value = value * factor;
      f.description = "constant: " + format_parameter_value(f.value);
      break;
    case FunctionKind::table:
      for (int i = 0; i < size; ++i) f.data[size + i] *= factor;
      f.description += times;
      break;
    case FunctionKind::cubic_table:
      // The spline of factor y has second derivatives factor M: no new solve.
      for (int i = size; i < 3 * size; ++i) f.data[i] *= factor;
      f.description += times;
      break;
    case FunctionKind::expression:
      // A program ends with one value on the stack, so the factor needs only
      // a second slot: the depth limit still holds.
      f.data.push_back(static_cast<double>(ExpressionOp::push_constant));
      f.data.push_back(factor);
      f.data.push_back(static_cast<double>(ExpressionOp::multiply));
      f.size = static_cast<int>(f.data.size());
      f.description += times;
      break;
    case FunctionKind::none: break;
  }
  return f;
}

}  // namespace voltaic
