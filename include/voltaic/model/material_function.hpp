#pragma once
/// @file material_function.hpp
/// @brief CustomFunction: a material function given as data (a constant, a
/// table interpolated linearly or by a cubic spline, or a compiled expression
/// in x), as a trivially copyable handle that CPU loops and CUDA kernels
/// evaluate alike.
///
/// The handle does not own its data: `data` points into storage that the
/// ParameterSet holds (host) or that a CellLayout copied to the device. Build
/// the data with function_definition.hpp; ParameterSet::set_custom_function
/// stores it and points a handle at it.

#include <cmath>
#include <type_traits>

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"
#include "voltaic/model/portable_exp.hpp"
#include "voltaic/model/portable_log.hpp"

namespace voltaic {

/// tanh x from one exp (pmath::exp: the same bits on every backend). glibc's tanh goes through expm1 at the cost of
/// about three exps, and the OCP fits call it in the innermost loop (each
/// particle's reaction solve). The error is within a few ulp of 1 in
/// absolute terms (relative near 0, where 1 - e cancels); the fits add
/// terms of order 1 and so lose nothing.
VOLTAIC_HD inline double fast_tanh(double x) {
  const double e = pmath::exp(-2.0 * fabs(x));
  return copysign((1.0 - e) / (1.0 + e), x);
}

#if VOLTAIC_HAS_LANES4
/// fast_tanh of four lanes (each the scalar's bits).
inline lanes::D4 fast_tanh(lanes::D4 x) {
  const lanes::D4 e = pmath::exp(-2.0 * lanes::fabs(x));
  return lanes::copysign((1.0 - e) / (1.0 + e), x);
}
#endif

/// A function's value and its derivative by the argument: the implicit
/// Butler-Volmer solve takes its Newton derivative from these, not from a
/// second evaluation. D: double, or lanes::D4 (four of them, on the CPU).
template <class D>
struct ValueSlopeOf {
  D value;
  D slope;
};
using ValueSlope = ValueSlopeOf<double>;

/// tanh x and its derivative k (1 - tanh^2 x) for an argument k (s - s0):
/// the OCP fits' terms, each from one exp.
template <class D>
VOLTAIC_HD inline ValueSlopeOf<D> fast_tanh_slope(D x, double k) {
  const D t = fast_tanh(x);
  return {t, k * (1.0 - t * t)};
}

/// What a CustomFunction holds.
enum class FunctionKind : int {
  none,        ///< no function: evaluates to NaN (validate() rejects a selected one)
  constant,    ///< `value`, whatever x
  table,       ///< `size` points (x_i, y_i), interpolated linearly; data = x_0..x_{n-1}, y_0..y_{n-1}
  expression,  ///< a postfix program of `size` doubles (ExpressionOp codes and constants)
  /// `size` points (x_i, y_i), interpolated by the not-a-knot cubic spline
  /// (PyBaMM's "cubic" Interpolant); data = x_0..x_{n-1}, y_0..y_{n-1}, then
  /// the spline's second derivatives M_0..M_{n-1}
  cubic_table,
  // Both tables' data end with their segment index (detail::table_buckets).
};

/// Instructions of a compiled expression. Each is one double in the program
/// holding the code; push_constant is followed by the constant.
enum class ExpressionOp : int {
  push_constant = 1,
  push_x,
  add,
  subtract,
  multiply,
  divide,
  power,  ///< pow(a, b), as Python's float ** float
  negate,
  exp,
  log,
  sqrt,
  tanh,
  cosh,
  sinh,
  abs,
};

/// Deepest operand stack a compiled expression may need; compile_expression
/// refuses deeper ones, so the evaluator's fixed stack cannot overflow.
inline constexpr int kExpressionMaxStack = 32;

namespace detail {

/// Index i of the segment [x_i, x_{i+1}] used for x: the one containing it,
/// the first below x_0 and the last above x_{n-1} (n >= 2, x increasing).
/// Branch-free: the halving picks its side by a select, not a jump, so a
/// CPU does not mispredict half its steps (the OCP tables are the ageing
/// run's hottest lookups). The same segment as plain bisection, NaN's too (the last).
VOLTAIC_HD inline int table_segment(const double* xs, int n, double x) {
  int lo = 0, candidates = n - 1;  // the segment is one of lo .. lo + candidates - 1
  while (candidates > 1) {
    const int half = candidates / 2;
    lo = x < xs[lo + half] ? lo : lo + half;
    candidates -= half;
  }
  return lo;
}

/// A table's segment index: uniform buckets over [x_0, x_{n-1}], two per
/// segment, so that a bucket of a near-uniform table (OKane2022's graphite
/// OCP: 248 points, all but two 0.0037 apart) holds at most one node, and
/// the search is a load and one select instead of log2(n) dependent loads.
/// Stored after the table's columns: the scale buckets / (x_{n-1} - x_0),
/// then each bucket's guess (a segment index, as a double).
VOLTAIC_HD inline int table_buckets(int n) { return n >= 2 ? 2 * (n - 1) : 0; }

/// Doubles of the index of an n-point table.
VOLTAIC_HD inline int table_index_size(int n) { return 1 + table_buckets(n); }

/// table_segment's segment, walked to from any guess i in 0 .. n - 2: the
/// same segment whatever the guess (NaN's too: no comparison holds for it,
/// so it walks up to the last), in as many steps as the guess is off.
VOLTAIC_HD inline int table_segment_from(const double* xs, int n, double x, int i) {
  i += i < n - 2 && !(x < xs[i + 1]);  // a select: the usual step of one
  while (i > 0 && x < xs[i]) --i;
  while (i < n - 2 && !(x < xs[i + 1])) ++i;
  return i;
}

/// table_segment through the index (table_index_size(n) doubles).
VOLTAIC_HD inline int table_segment(const double* xs, int n, const double* index, double x) {
  const int buckets = table_buckets(n);
  const double t = (x - xs[0]) * index[0];
  const int b = t > 0.0 ? (t < buckets ? static_cast<int>(t) : buckets - 1) : 0;
  return table_segment_from(xs, n, x, static_cast<int>(index[1 + b]));
}

/// Linear interpolation in a table; outside [x_0, x_{n-1}] the end segment
/// is extended (linear extrapolation, as PyBaMM's default Interpolant does for
/// BPX tables). Exact at the nodes. The fp:: operations keep nvcc from fusing
/// the sum into an FMA in kernels built without --fmad=false (a fifth of the
/// points of a 248-point table differed in the last bit on an H200).
VOLTAIC_HD inline ValueSlope interpolate_table_slope(const double* data, int n, double x) {
  if (n < 2) return {n == 1 ? data[1] : NAN, 0.0};
  const double* xs = data;
  const double* ys = data + n;
  const int i = table_segment(xs, n, data + 2 * n, x);
  const double h = xs[i + 1] - xs[i];
  const double t = (x - xs[i]) / h;
  return {fp::add(fp::mul(1.0 - t, ys[i]), fp::mul(t, ys[i + 1])), (ys[i + 1] - ys[i]) / h};
}

VOLTAIC_HD inline double interpolate_table(const double* data, int n, double x) {
  return interpolate_table_slope(data, n, x).value;
}

/// The cubic spline through (x_i, y_i) with second derivatives M_i at the
/// nodes (data = x, y, M; n >= 2, x increasing), in the classic form
///   y = A y_i + B y_{i+1} + ((A^3 - A) M_i + (B^3 - B) M_{i+1}) h^2 / 6,
/// h = x_{i+1} - x_i, A = (x_{i+1} - x) / h, B = (x - x_i) / h. Outside
/// [x_0, x_{n-1}] the end segment's cubic goes on (scipy's CubicSpline with
/// extrapolate=True). Exact at the nodes (A or B is 0 there). Every operation
/// is an fp:: one, so no backend fuses a multiply into an add. The slope:
///   y' = (y_{i+1} - y_i) / h + ((3 B^2 - 1) M_{i+1} - (3 A^2 - 1) M_i) h / 6.
VOLTAIC_HD inline ValueSlope interpolate_cubic_table_slope(const double* data, int n, double x) {
  if (n < 2) return {n == 1 ? data[1] : NAN, 0.0};
  const double* xs = data;
  const double* ys = data + n;
  const double* ms = data + 2 * n;
  const int i = table_segment(xs, n, data + 3 * n, x);
  const double h = fp::sub(xs[i + 1], xs[i]);
  const double a = fp::sub(xs[i + 1], x) / h;
  const double b = fp::sub(x, xs[i]) / h;
  const double linear = fp::add(fp::mul(a, ys[i]), fp::mul(b, ys[i + 1]));
  const double ca = fp::sub(fp::mul(fp::mul(a, a), a), a);  // A^3 - A
  const double cb = fp::sub(fp::mul(fp::mul(b, b), b), b);  // B^3 - B
  const double curvature = fp::add(fp::mul(ca, ms[i]), fp::mul(cb, ms[i + 1]));
  const double sa = fp::sub(fp::mul(fp::mul(3.0, a), a), 1.0);  // 3 A^2 - 1
  const double sb = fp::sub(fp::mul(fp::mul(3.0, b), b), 1.0);  // 3 B^2 - 1
  const double bend = fp::sub(fp::mul(sb, ms[i + 1]), fp::mul(sa, ms[i]));
  const double slope = fp::add(fp::sub(ys[i + 1], ys[i]) / h, fp::mul(bend, h) / 6.0);
  return {fp::add(linear, fp::mul(curvature, fp::mul(h, h)) / 6.0), slope};
}

VOLTAIC_HD inline double interpolate_cubic_table(const double* data, int n, double x) {
  return interpolate_cubic_table_slope(data, n, x).value;
}

/// a op b for the binary instructions.
VOLTAIC_HD inline double apply_binary(ExpressionOp op, double a, double b) {
  switch (op) {
    case ExpressionOp::add: return a + b;
    case ExpressionOp::subtract: return a - b;
    case ExpressionOp::multiply: return a * b;
    case ExpressionOp::divide: return a / b;
    case ExpressionOp::power: return pow(a, b);
    default: return NAN;
  }
}

/// f(a) for the unary instructions.
VOLTAIC_HD inline double apply_unary(ExpressionOp op, double a) {
  switch (op) {
    case ExpressionOp::negate: return -a;
    case ExpressionOp::exp: return pmath::exp(a);
    case ExpressionOp::log: return pmath::log(a);
    case ExpressionOp::sqrt: return sqrt(a);
    case ExpressionOp::tanh: return fast_tanh(a);
    case ExpressionOp::cosh: return cosh(a);
    case ExpressionOp::sinh: return sinh(a);
    case ExpressionOp::abs: return fabs(a);
    default: return NAN;
  }
}

/// Runs a compiled program at x. Operations happen in the order the text
/// gave them (the compiler neither folds nor reassociates), so a formula
/// written like a C++ one gives the same doubles. A program the compiler did
/// not make (unknown code, stack under- or overflow) gives NaN.
VOLTAIC_HD inline double evaluate_expression(const double* program, int size, double x) {
  double stack[kExpressionMaxStack];
  int top = 0;  // number of values on the stack
  for (int i = 0; i < size; ++i) {
    const ExpressionOp op = static_cast<ExpressionOp>(static_cast<int>(program[i]));
    if (op == ExpressionOp::push_constant || op == ExpressionOp::push_x) {
      if (top == kExpressionMaxStack || (op == ExpressionOp::push_constant && i + 1 >= size)) return NAN;
      stack[top++] = op == ExpressionOp::push_x ? x : program[++i];
    } else if (op >= ExpressionOp::add && op <= ExpressionOp::power) {
      if (top < 2) return NAN;
      --top;
      stack[top - 1] = apply_binary(op, stack[top - 1], stack[top]);
    } else {
      if (top < 1) return NAN;
      stack[top - 1] = apply_unary(op, stack[top - 1]);
    }
  }
  return top == 1 ? stack[0] : NAN;
}

}  // namespace detail

/// A material function of one variable x (stoichiometry, or concentration
/// [mol/m^3] for the electrolyte) as data. Trivially copyable, so it travels
/// inside the parameter structs that kernels take by value.
struct CustomFunction {
  FunctionKind kind = FunctionKind::none;
  int size = 0;                  ///< table, cubic_table: points; expression: program length in doubles
  const double* data = nullptr;  ///< table or program, in the memory of whoever evaluates it
  double value = 0.0;            ///< the constant (kind == constant)

  /// Number of doubles `data` points at.
  VOLTAIC_HD int data_size() const {
    switch (kind) {
      case FunctionKind::table: return 2 * size + detail::table_index_size(size);
      case FunctionKind::cubic_table: return 3 * size + detail::table_index_size(size);
      case FunctionKind::expression: return size;
      default: return 0;
    }
  }

  /// f(x) and f'(x): the tables' own slope, a forward difference (1e-7,
  /// towards 0.5) for an expression; NaN for kind none.
  VOLTAIC_HD ValueSlope with_slope(double x) const {
    switch (kind) {
      case FunctionKind::constant: return {value, 0.0};
      case FunctionKind::table: return detail::interpolate_table_slope(data, size, x);
      case FunctionKind::cubic_table: return detail::interpolate_cubic_table_slope(data, size, x);
      case FunctionKind::expression: {
        const double y = detail::evaluate_expression(data, size, x);
        const double h = x > 0.5 ? -1e-7 : 1e-7;
        return {y, (detail::evaluate_expression(data, size, x + h) - y) / h};
      }
      default: return {NAN, NAN};
    }
  }

  /// f(x); NaN for kind none.
  VOLTAIC_HD double operator()(double x) const {
    switch (kind) {
      case FunctionKind::constant: return value;
      case FunctionKind::table: return detail::interpolate_table(data, size, x);
      case FunctionKind::cubic_table: return detail::interpolate_cubic_table(data, size, x);
      case FunctionKind::expression: return detail::evaluate_expression(data, size, x);
      default: return NAN;
    }
  }
};

static_assert(std::is_trivially_copyable_v<CustomFunction>, "kernels take functions by value");

}  // namespace voltaic
