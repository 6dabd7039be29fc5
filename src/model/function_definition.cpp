// FunctionDefinition: the checks on tables and the wrapping of expressions.
#include "voltaic/model/function_definition.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic {

namespace {

constexpr const char* kWhere = "voltaic::FunctionDefinition::table";

std::string show(const char* axis, std::size_t i, double v) {
  return std::string(axis) + "[" + std::to_string(i) + "] = " + format_parameter_value(v);
}

void check_table(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) {
    throw InvalidArgument("table", kWhere,
                          "x has " + std::to_string(x.size()) + " values and y " + std::to_string(y.size()) +
                              "; they must have the same length");
  }
  if (x.size() < 2) {
    throw InvalidArgument("table", kWhere,
                          "has " + std::to_string(x.size()) + " point(s); linear interpolation needs at least 2");
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) throw InvalidArgument("table", kWhere, show("x", i, x[i]) + " is not finite");
    if (!std::isfinite(y[i])) throw InvalidArgument("table", kWhere, show("y", i, y[i]) + " is not finite");
    if (i > 0 && !(x[i] > x[i - 1])) {
      throw InvalidArgument(
          "table", kWhere,
          "x must be strictly increasing, but " + show("x", i, x[i]) + " follows " + show("x", i - 1, x[i - 1]));
    }
  }
}

}  // namespace

FunctionDefinition FunctionDefinition::constant(double v) {
  FunctionDefinition f;
  f.kind = FunctionKind::constant;
  f.value = v;
  f.description = "constant: " + format_parameter_value(v);
  return f;
}

FunctionDefinition FunctionDefinition::table(const std::vector<double>& x, const std::vector<double>& y) {
  check_table(x, y);
  FunctionDefinition f;
  f.kind = FunctionKind::table;
  f.size = static_cast<int>(x.size());
  f.data = x;
  f.data.insert(f.data.end(), y.begin(), y.end());
  f.uses_x = true;
  f.description = "table (" + std::to_string(x.size()) + " points)";
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
