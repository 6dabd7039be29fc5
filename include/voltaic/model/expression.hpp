#pragma once
/// @file expression.hpp
/// @brief compile_expression: a formula in x, in Python's syntax (as BPX
/// writes material functions), compiled to the postfix program that
/// CustomFunction evaluates on the host and on the device.
///
/// Grammar (Python's, restricted to one variable):
///
///     sum     := product (('+' | '-') product)*            left-associative
///     product := unary (('*' | '/') unary)*                left-associative
///     unary   := ('+' | '-') unary | power
///     power   := primary ['**' unary]                      right-associative
///     primary := number | 'x' | name '(' sum ')' | '(' sum ')'
///
/// so `-x**2` is `-(x**2)`, `2**-x` is `2**(-x)` and `2**3**2` is `2**9`, as in
/// Python. Numbers are decimal (`3`, `0.5`, `.5`, `5.`, `1e-3`, `2.5E+4`),
/// read as the nearest double like Python's float(). The program keeps the
/// text's order of operations: nothing is folded or reassociated.

#include <string>
#include <vector>

#include "voltaic/core/error.hpp"

namespace voltaic {

/// A formula that cannot be compiled. why() is one line: the problem, the
/// 1-based column of the offending token and the formula ("unexpected ')' at
/// column 14 in '(x + 1))'").
class ExpressionError : public InvalidArgument {
 public:
  ExpressionError(const std::string& expression, int column, const std::string& problem);
  /// 1-based column of the offending token (one past the end for a missing one).
  int column() const noexcept { return column_; }

 private:
  int column_;
};

/// The functions a formula may call.
struct ExpressionFunctions {
  std::vector<std::string> names;

  /// exp, log, sqrt, tanh, cosh, sinh, abs: every function the evaluator has.
  static ExpressionFunctions all();
  /// exp, tanh, cosh: what BPX 1.x's expressions may call (its Function
  /// evaluates them with `from math import exp, tanh, cosh`; PyBaMM's BPX
  /// reader the same with pybamm's).
  static ExpressionFunctions bpx();
};

/// A compiled formula.
struct CompiledExpression {
  std::vector<double> program;  ///< ExpressionOp codes and constants, for CustomFunction
  int stack_depth = 0;          ///< deepest operand stack it needs (<= kExpressionMaxStack)
  bool uses_x = false;          ///< false: the formula is a constant
};

/// Compiles `text`.
/// @throws ExpressionError for a syntax error, an unknown name or function, a
///         function not in `functions`, or a formula needing more than
///         kExpressionMaxStack operands at once
CompiledExpression compile_expression(const std::string& text,
                                      const ExpressionFunctions& functions = ExpressionFunctions::all());

}  // namespace voltaic
