// Custom material functions: compiled expressions against the same formula
// in C++ (bit for bit), parse errors with their columns, tables, and the
// storage of custom functions in a ParameterSet.
#include "voltaic/model/material_function.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "voltaic/model/expression.hpp"
#include "voltaic/model/function_definition.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"

using namespace voltaic;

namespace {

double eval(const std::string& text, double x) { return FunctionDefinition::expression(text)(x); }

/// The message of the ExpressionError `text` raises ("" if it compiles).
std::string error_of(const std::string& text, const ExpressionFunctions& f = ExpressionFunctions::all()) {
  try {
    compile_expression(text, f);
  } catch (const ExpressionError& e) {
    return e.why();
  }
  return "";
}

struct Case {
  const char* text;
  std::function<double(double)> cpp;
};

const double kXs[] = {0.0, 1e-3, 0.1234, 0.3, 0.5, 0.7, 0.999, 1.0, 2.5, 1000.0};

}  // namespace

// The same formula written the same way in C++ and as text gives the same
// double: the compiler keeps the text's order (no folding, no reassociation)
// and precedence is Python's.
TEST(MaterialFunctionExpression, MatchesTheSameFormulaInCppBitForBit) {
  const std::vector<Case> cases = {
      {"x", [](double x) { return x; }},
      {"1 + 2 * x", [](double x) { return 1 + 2 * x; }},
      {"x - 1 - 2", [](double x) { return (x - 1) - 2; }},
      {"x - (1 - 2)", [](double x) { return x - (1.0 - 2.0); }},
      {"0.1 + 0.2 + x", [](double x) { return (0.1 + 0.2) + x; }},
      {"0.1 + (0.2 + x)", [](double x) { return 0.1 + (0.2 + x); }},
      {"x / 3 / 7", [](double x) { return (x / 3) / 7; }},
      {"x / (3 * 7)", [](double x) { return x / (3.0 * 7.0); }},
      {"x * 3 / 7", [](double x) { return (x * 3) / 7; }},
      {"2 ** 3 ** 2", [](double) { return std::pow(2.0, std::pow(3.0, 2.0)); }},
      {"(2 ** 3) ** 2", [](double) { return std::pow(std::pow(2.0, 3.0), 2.0); }},
      {"x ** 1.5", [](double x) { return std::pow(x, 1.5); }},
      {"-x ** 2", [](double x) { return -std::pow(x, 2.0); }},
      {"(-x) ** 2", [](double x) { return std::pow(-x, 2.0); }},
      {"2 ** -x", [](double x) { return std::pow(2.0, -x); }},
      {"2 ** -x ** 2", [](double x) { return std::pow(2.0, -std::pow(x, 2.0)); }},
      {"x * -2 ** 2", [](double x) { return x * -std::pow(2.0, 2.0); }},
      {"2 * -x", [](double x) { return 2 * -x; }},
      {"- - x", [](double x) { return x; }},
      {"-+-x + +x", [](double x) { return x + x; }},
      {"-x * 3", [](double x) { return -x * 3; }},
      {"1e-3 * x + .5 + 5. + 2.5E+2 - 1E3", [](double x) { return (((1e-3 * x + .5) + 5.) + 2.5E+2) - 1E3; }},
      {"((((x))))", [](double x) { return x; }},
      {"exp(-39.3631 * x)", [](double x) { return pmath::exp(-39.3631 * x); }},
      {"tanh(29.8538 * (x - 0.1234))", [](double x) { return fast_tanh(29.8538 * (x - 0.1234)); }},
      {"cosh(x) ** -2", [](double x) { return std::pow(std::cosh(x), -2.0); }},
      {"log(x + 1)", [](double x) { return std::log(x + 1); }},
      {"sqrt(x)", [](double x) { return std::sqrt(x); }},
      {"sinh(x / 10)", [](double x) { return std::sinh(x / 10); }},
      {"abs(x - 0.5)", [](double x) { return std::fabs(x - 0.5); }},
      {"exp(tanh(cosh(x / 1000)))", [](double x) { return pmath::exp(fast_tanh(std::cosh(x / 1000))); }},
      {"0.1297 * ((x / 1000) * (x / 1000) * (x / 1000)) - 2.51 * ((x / 1000) * (x / 1000) ** 0.5)",
       [](double x) {
         const double y = x / 1000;
         return 0.1297 * (y * y * y) - 2.51 * (y * std::pow(y, 0.5));
       }},
      {" \t3\n*x ", [](double x) { return 3 * x; }},
  };
  for (const Case& c : cases) {
    for (const double x : kXs) {
      const double expected = c.cpp(x), got = eval(c.text, x);
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(got)) << c.text << " at x = " << x;
      } else {
        EXPECT_EQ(got, expected) << c.text << " at x = " << x;
      }
    }
  }
}

// Left to right, not reassociated: the two groupings give different doubles here.
TEST(FastTanh, WithinAFewUlpOfOneOfStdTanh) {
  // Absolute error near 0 (1 - e cancels there), relative elsewhere; odd,
  // saturating at +-1, NaN through.
  for (double x = -40.0; x <= 40.0; x += 0.0137) {
    EXPECT_NEAR(fast_tanh(x), std::tanh(x), 4e-16 * std::max(1.0, std::fabs(x))) << x;
    EXPECT_EQ(fast_tanh(-x), -fast_tanh(x)) << x;
  }
  EXPECT_EQ(fast_tanh(800.0), 1.0);
  EXPECT_EQ(fast_tanh(-800.0), -1.0);
  EXPECT_TRUE(std::isnan(fast_tanh(NAN)));
}

TEST(MaterialFunctionExpression, KeepsTheGroupingOfTheText) {
  EXPECT_EQ(eval("0.1 + 0.2 + x", 0.3), 0.6000000000000001);
  EXPECT_EQ(eval("0.1 + (0.2 + x)", 0.3), 0.6);
}

TEST(MaterialFunctionExpression, ReportsDepthAndWhetherItUsesX) {
  const CompiledExpression c = compile_expression("1 + 2 * (3 + x)");
  EXPECT_EQ(c.stack_depth, 4);
  EXPECT_TRUE(c.uses_x);
  EXPECT_FALSE(compile_expression("2 * exp(-1)").uses_x);
}

TEST(MaterialFunctionExpression, ParseErrorsNameTheTokenAndItsColumn) {
  const auto bpx = ExpressionFunctions::bpx();
  EXPECT_EQ(error_of("(x + 1))"), "unexpected ')' at column 8 in '(x + 1))'");
  EXPECT_EQ(error_of("x +"), "unexpected end of expression at column 4 in 'x +'");
  EXPECT_EQ(error_of("2 * y"), "unknown name 'y' (the variable is x) at column 5 in '2 * y'");
  EXPECT_EQ(error_of("1 + sqrt(x)", bpx),
            "unknown function 'sqrt' (allowed: exp, tanh, cosh) at column 5 in '1 + sqrt(x)'");
  EXPECT_EQ(error_of("1.5e * x"), "malformed number '1.5e' at column 1 in '1.5e * x'");
  EXPECT_EQ(error_of("2x"), "malformed number '2x' at column 1 in '2x'");
  EXPECT_EQ(error_of("1..2"), "malformed number '1..2' at column 1 in '1..2'");
  EXPECT_EQ(error_of("x $ 2"), "unexpected character '$' at column 3 in 'x $ 2'");
  EXPECT_EQ(error_of(""), "empty expression at column 1 in ''");
  EXPECT_EQ(error_of("   "), "empty expression at column 4 in '   '");
  EXPECT_EQ(error_of("3 * (x + 1"), "unclosed '(' at column 5 in '3 * (x + 1'");
  EXPECT_EQ(error_of("exp(x, 2)"), "unexpected character ',' at column 6 in 'exp(x, 2)'");
  EXPECT_EQ(error_of("exp x"), "expected '(' after the function name 'exp' at column 5 in 'exp x'");
  EXPECT_EQ(error_of("exp()"), "unexpected ')' (exp takes one argument) at column 5 in 'exp()'");
  EXPECT_EQ(error_of("x // 2"), "unexpected '/' at column 4 in 'x // 2'");
  EXPECT_EQ(error_of("x * * 2"), "unexpected '*' at column 5 in 'x * * 2'");
  EXPECT_EQ(error_of("()"), "unexpected ')' at column 2 in '()'");
  EXPECT_EQ(error_of("x (2)"), "unexpected '(' at column 3 in 'x (2)'");
  EXPECT_EQ(error_of("1e999"), "number '1e999' is outside the range of a double at column 1 in '1e999'");
}

TEST(MaterialFunctionExpression, ErrorsAreOneLineWithTheColumn) {
  try {
    compile_expression("1 +\n)");
    FAIL() << "compiled";
  } catch (const ExpressionError& e) {
    EXPECT_EQ(e.column(), 5);
    EXPECT_EQ(e.why(), "unexpected ')' at column 5 in '1 +\\n)'");
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

TEST(MaterialFunctionExpression, RefusesFormulasDeeperThanTheEvaluatorsStack) {
  // "1 + (1 + (1 + ... x))": every "1 +" waits for its right operand.
  std::string fits, too_deep;
  for (int i = 0; i < kExpressionMaxStack - 1; ++i) fits += "1 + (";
  fits += "x" + std::string(kExpressionMaxStack - 1, ')');
  EXPECT_EQ(compile_expression(fits).stack_depth, kExpressionMaxStack);
  EXPECT_EQ(eval(fits, 1.0), kExpressionMaxStack);
  for (int i = 0; i < kExpressionMaxStack; ++i) too_deep += "1 + (";
  too_deep += "x" + std::string(kExpressionMaxStack, ')');
  const std::string e = error_of(too_deep);
  EXPECT_EQ(e.rfind("the formula needs more than 32 intermediate values at once", 0), 0u) << e;
  EXPECT_NE(e.find("at column " + std::to_string(5 * kExpressionMaxStack + 1)), std::string::npos) << e;

  const std::string nested = std::string(300, '(') + "x" + std::string(300, ')');
  EXPECT_EQ(error_of(nested).rfind("nested more than 200 levels deep at column 201", 0), 0u);
}

TEST(MaterialFunctionExpression, ProgramsTheCompilerDidNotMakeGiveNaN) {
  const double underflow[] = {static_cast<double>(ExpressionOp::add)};
  EXPECT_TRUE(std::isnan(detail::evaluate_expression(underflow, 1, 1.0)));
  const double two_left[] = {static_cast<double>(ExpressionOp::push_x), static_cast<double>(ExpressionOp::push_x)};
  EXPECT_TRUE(std::isnan(detail::evaluate_expression(two_left, 2, 1.0)));
  const double truncated[] = {static_cast<double>(ExpressionOp::push_constant)};
  EXPECT_TRUE(std::isnan(detail::evaluate_expression(truncated, 1, 1.0)));
  const double unknown[] = {static_cast<double>(ExpressionOp::push_x), 99.0};
  EXPECT_TRUE(std::isnan(detail::evaluate_expression(unknown, 2, 1.0)));
}

TEST(MaterialFunctionTable, InterpolatesLinearlyAndIsExactAtTheNodes) {
  const FunctionDefinition t = FunctionDefinition::table({0.0, 0.1, 0.5, 1.0}, {1.72, 1.2, 0.4, 0.06});
  const CustomFunction f = t.handle();
  EXPECT_EQ(f.kind, FunctionKind::table);
  EXPECT_EQ(f.size, 4);
  EXPECT_EQ(f(0.0), 1.72);
  EXPECT_EQ(f(0.1), 1.2);
  EXPECT_EQ(f(0.5), 0.4);
  EXPECT_EQ(f(1.0), 0.06);
  EXPECT_DOUBLE_EQ(f(0.05), 0.5 * (1.72 + 1.2));
  EXPECT_DOUBLE_EQ(f(0.3), 0.8);
  EXPECT_DOUBLE_EQ(f(0.75), 0.23);
}

// Outside the table the end segments go on (PyBaMM's Interpolant extrapolates
// linearly by default, which is how it reads BPX tables).
TEST(MaterialFunctionTable, ExtrapolatesLinearlyBeyondBothEnds) {
  const FunctionDefinition t = FunctionDefinition::table({0.0, 0.1, 0.5, 1.0}, {1.72, 1.2, 0.4, 0.06});
  const CustomFunction f = t.handle();
  EXPECT_DOUBLE_EQ(f(-0.1), 1.72 + (1.72 - 1.2));
  EXPECT_DOUBLE_EQ(f(1.5), 0.06 - 0.5 * (0.4 - 0.06) / 0.5);
  const FunctionDefinition t2 = FunctionDefinition::table({1.0, 3.0}, {10.0, 30.0});
  const CustomFunction two = t2.handle();
  EXPECT_DOUBLE_EQ(two(0.0), 0.0);
  EXPECT_DOUBLE_EQ(two(2.0), 20.0);
  EXPECT_DOUBLE_EQ(two(5.0), 50.0);
  EXPECT_TRUE(std::isnan(two(NAN)));
}

TEST(MaterialFunctionTable, BadTablesAreRefusedWithTheIndex) {
  auto why = [](const std::vector<double>& x, const std::vector<double>& y) -> std::string {
    try {
      FunctionDefinition::table(x, y);
    } catch (const InvalidArgument& e) {
      return e.why();
    }
    return "";
  };
  EXPECT_EQ(why({0, 1, 2}, {0, 1}), "x has 3 values and y 2; they must have the same length");
  EXPECT_EQ(why({0}, {1}), "has 1 point(s); linear interpolation needs at least 2");
  EXPECT_EQ(why({0, 0.5, 0.4}, {0, 1, 2}), "x must be strictly increasing, but x[2] = 0.4 follows x[1] = 0.5");
  EXPECT_EQ(why({0, 0.5, 0.5}, {0, 1, 2}), "x must be strictly increasing, but x[2] = 0.5 follows x[1] = 0.5");
  EXPECT_EQ(why({0, NAN}, {0, 1}), "x[1] = nan is not finite");
  EXPECT_EQ(why({0, 1}, {0, INFINITY}), "y[1] = inf is not finite");
}

TEST(MaterialFunctionCustom, ScaledMultipliesEveryKind) {
  EXPECT_EQ(FunctionDefinition::constant(2.0).scaled(1.5)(7.0), 3.0);
  EXPECT_EQ(FunctionDefinition::table({0, 1}, {2, 4}).scaled(0.5)(0.5), 1.5);
  const FunctionDefinition e = FunctionDefinition::expression("x + 0.1").scaled(3.0);
  EXPECT_EQ(e(0.2), (0.2 + 0.1) * 3.0);
  EXPECT_EQ(e.description, "expression: x + 0.1 (times 3)");
}

// The built-in Chen2020 OCPs written as BPX writes functions, with the same
// grouping as material_functions.hpp: the same doubles at every stoichiometry.
TEST(MaterialFunctionCustom, ExpressionsReproduceTheChen2020OcpsBitForBit) {
  ParameterSet p = parameter_sets::chen2020();
  const ParameterSet builtin = p;
  p.set_custom_function(
      FunctionSlot::negative_ocp,
      FunctionDefinition::expression("1.9793 * exp(-39.3631 * x) + 0.2482 - 0.0909 * tanh(29.8538 * (x - 0.1234)) - "
                                     "0.04478 * tanh(14.9159 * (x - 0.2769)) - 0.0205 * tanh(30.4444 * (x - 0.6103))",
                                     ExpressionFunctions::bpx()));
  p.set_custom_function(FunctionSlot::positive_ocp,
                        FunctionDefinition::expression(
                            "-0.8090 * x + 4.4875 - 0.0428 * tanh(18.5138 * (x - 0.5542)) - 17.7326 * tanh(15.7890 * "
                            "(x - 0.3117)) + 17.5842 * tanh(15.9308 * (x - 0.3120))",
                            ExpressionFunctions::bpx()));
  p.validate();
  EXPECT_EQ(p.negative_electrode.ocp, OcpModel::custom);
  EXPECT_EQ(p.positive_electrode.ocp, OcpModel::custom);
  for (int i = 0; i <= 1000; ++i) {
    const double sto = i / 1000.0;
    EXPECT_EQ(material::reference_open_circuit_potential(p.negative_electrode, sto),
              material::graphite_siox_ocp_chen2020(sto))
        << sto;
    EXPECT_EQ(material::open_circuit_potential(p.positive_electrode, sto, 310.0, 298.15),
              material::open_circuit_potential(builtin.positive_electrode, sto, 310.0, 298.15))
        << sto;
  }
}

TEST(MaterialFunctionCustom, ElectrolyteAndEntropicDispatchCallTheHandles) {
  ParameterSet p = parameter_sets::chen2020();
  p.set_custom_function(FunctionSlot::electrolyte_conductivity, FunctionDefinition::expression("x / 1000"));
  p.set_custom_function(FunctionSlot::electrolyte_diffusivity, FunctionDefinition::constant(3e-10));
  p.set_custom_function(FunctionSlot::positive_entropic, FunctionDefinition::constant(-1e-4));
  p.electrolyte.conductivity_activation_energy = 17100.0;
  p.validate();
  const double T = 318.15;
  EXPECT_EQ(material::electrolyte_conductivity(p.electrolyte, 1200.0, T), 1.2 * material::arrhenius(17100.0, T));
  EXPECT_EQ(material::electrolyte_diffusivity(p.electrolyte, 1200.0, 298.15), 3e-10);
  EXPECT_EQ(material::entropic_change(p.positive_electrode, 0.4), -1e-4);
  EXPECT_TRUE(std::isnan(material::entropic_change(p.positive_electrode.entropic, 0.4)));  // no handle
}

// Copies share the data; a new function in one copy leaves the others alone
// and keeps every handle of the changed copy valid.
TEST(MaterialFunctionCustom, ParameterSetCopiesShareDataAndCopyOnWrite) {
  ParameterSet a = parameter_sets::chen2020();
  a.set_custom_function(FunctionSlot::negative_ocp, FunctionDefinition::table({0, 1}, {1.0, 0.1}));
  a.set_custom_function(FunctionSlot::positive_ocp, FunctionDefinition::expression("4.2 - x"));
  ParameterSet b = a;
  EXPECT_EQ(&a.custom_function_data(), &b.custom_function_data());
  b.set_custom_function(FunctionSlot::negative_ocp, FunctionDefinition::expression("0.5 - 0.4 * x"));
  EXPECT_NE(&a.custom_function_data(), &b.custom_function_data());
  EXPECT_DOUBLE_EQ(material::reference_open_circuit_potential(a.negative_electrode, 0.5), 0.55);
  EXPECT_DOUBLE_EQ(material::reference_open_circuit_potential(b.negative_electrode, 0.5), 0.3);
  {
    ParameterSet c = b;
    b = parameter_sets::chen2020();  // c alone keeps the store alive
    EXPECT_DOUBLE_EQ(material::reference_open_circuit_potential(c.positive_electrode, 0.2), 4.0);
    c.validate();
  }
  a.validate();
  EXPECT_DOUBLE_EQ(material::reference_open_circuit_potential(a.positive_electrode, 0.2), 4.0);
}

TEST(MaterialFunctionCustom, ValidateWantsAHandleThisSetHolds) {
  auto rejects = [](const ParameterSet& p, const std::string& name, const std::string& why) {
    try {
      p.validate();
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.what_failed(), name);
      EXPECT_NE(e.why().find(why), std::string::npos) << e.why();
      return;
    }
    ADD_FAILURE() << "validated";
  };
  ParameterSet p = parameter_sets::chen2020();
  p.positive_electrode.ocp = OcpModel::custom;
  rejects(p, "Positive electrode OCP [V]", "the custom function is selected but none is set");

  ParameterSet q = parameter_sets::chen2020();
  q.set_custom_function(FunctionSlot::electrolyte_diffusivity, FunctionDefinition::constant(NAN));
  rejects(q, "Electrolyte diffusivity [m2.s-1]", "a constant function must be finite");

  ParameterSet donor = parameter_sets::chen2020();
  donor.set_custom_function(FunctionSlot::negative_ocp, FunctionDefinition::expression("0.1 + x"));
  ParameterSet r = parameter_sets::chen2020();
  r.negative_electrode = donor.negative_electrode;  // its handle points into donor's store
  rejects(r, "Negative electrode OCP [V]", "not held by this parameter set");
}

TEST(MaterialFunctionCustom, FunctionTableSaysWhatACustomFunctionIs) {
  ParameterSet p = parameter_sets::chen2020();
  p.set_custom_function(FunctionSlot::negative_ocp, FunctionDefinition::expression("1.5 - x"));
  p.set_custom_function(FunctionSlot::positive_ocp, FunctionDefinition::table({0, 0.5, 1}, {4.2, 3.7, 3.0}));
  p.set_custom_function(FunctionSlot::electrolyte_diffusivity, FunctionDefinition::constant(3e-10));
  std::map<std::string, std::string> selected;
  for (const FunctionInfo& f : function_table()) selected[f.name] = f.selected(p);
  EXPECT_EQ(selected["Negative electrode OCP [V]"], "expression: 1.5 - x");
  EXPECT_EQ(selected["Positive electrode OCP [V]"], "table (3 points)");
  EXPECT_EQ(selected["Electrolyte diffusivity [m2.s-1]"], "constant: 3e-10");
  EXPECT_EQ(selected["Electrolyte conductivity [S.m-1]"], "nyman2008");
  EXPECT_EQ(to_string(OcpModel::custom), "custom");
}
