// Fuzz target: compile_expression (the formulas of BPX files and custom
// material functions). A formula either fails with ExpressionError or
// compiles to a program that check_program below proves well formed, and
// that evaluates without touching memory outside it.
#include <cmath>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "voltaic/model/expression.hpp"
#include "voltaic/model/function_definition.hpp"
#include "voltaic/model/material_function.hpp"

namespace {

using voltaic::ExpressionOp;
using voltaic::fuzz::require;

/// Replays the program's stack effect: every code known, no underflow, the
/// depth compile_expression reports, one value at the end, x used as said.
void check_program(const voltaic::CompiledExpression& c) {
  const auto& p = c.program;
  int depth = 0, deepest = 0;
  bool uses_x = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double code = p[i];
    require(code == std::floor(code) && code >= 1 && code <= static_cast<double>(ExpressionOp::abs),
            "an unknown code in the program");
    const auto op = static_cast<ExpressionOp>(static_cast<int>(code));
    if (op == ExpressionOp::push_constant || op == ExpressionOp::push_x) {
      if (op == ExpressionOp::push_constant) {
        require(i + 1 < p.size() && std::isfinite(p[i + 1]), "push_constant without a finite constant");
        ++i;
      }
      uses_x = uses_x || op == ExpressionOp::push_x;
      deepest = std::max(deepest, ++depth);
    } else if (op >= ExpressionOp::add && op <= ExpressionOp::power) {
      require(depth >= 2, "a binary operation on fewer than two values");
      --depth;
    } else {
      require(depth >= 1, "a function of no value");
    }
  }
  require(depth == 1, "the program leaves " + std::to_string(depth) + " values, not one");
  require(deepest == c.stack_depth && deepest <= voltaic::kExpressionMaxStack, "stack_depth is not the deepest stack");
  require(uses_x == c.uses_x, "uses_x disagrees with the program");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = voltaic::fuzz::text_of(data, size);
  try {
    check_program(voltaic::compile_expression(text));
    const voltaic::FunctionDefinition f = voltaic::FunctionDefinition::expression(text);
    const voltaic::FunctionDefinition scaled = f.scaled(2.0);
    // NaN and inf are fine values; a read outside the program is not.
    for (const double x : {0.0, 0.5, 1.0, -1.0, 1e3}) (void)(f(x) + scaled(x));
  } catch (const voltaic::ExpressionError&) {
    // the documented refusal
  }
  return 0;
}
