// compile_expression: a recursive-descent parser of Python's arithmetic on
// one variable, emitting the postfix program that CustomFunction runs. Each
// grammar rule emits its operation after its operands, so the program's
// order is the text's order and nothing is reassociated.
#include "voltaic/model/expression.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <system_error>
#include <vector>

#include "voltaic/model/material_function.hpp"

namespace voltaic {

namespace {

/// Deepest nesting of parentheses, unary signs and calls the parser recurses into.
constexpr int kMaxNesting = 200;

enum class Tok { number, name, plus, minus, star, slash, power, lparen, rparen, end, bad };

struct Token {
  Tok kind;
  std::size_t begin, end;  // byte range in the text
  double number = 0.0;
};

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// End of the decimal number starting at i (digits [. digits] [e [sign] digits],
/// or . digits ...), or npos when the text there is not a whole number.
std::size_t number_end(const std::string& s, std::size_t i) {
  const std::size_t n = s.size();
  std::size_t j = i, digits = 0;
  while (j < n && is_digit(s[j])) ++j, ++digits;
  if (j < n && s[j] == '.') {
    ++j;
    while (j < n && is_digit(s[j])) ++j, ++digits;
  }
  if (digits == 0) return std::string::npos;
  if (j < n && (s[j] == 'e' || s[j] == 'E')) {
    std::size_t k = j + 1;
    if (k < n && (s[k] == '+' || s[k] == '-')) ++k;
    if (k == n || !is_digit(s[k])) return std::string::npos;
    while (k < n && is_digit(s[k])) ++k;
    j = k;
  }
  // "2x" or "1.5e3e": the number runs into a name, which Python rejects too.
  if (j < n && (is_name_char(s[j]) || s[j] == '.')) return std::string::npos;
  return j;
}

class Parser {
 public:
  Parser(const std::string& text, const ExpressionFunctions& functions) : text_(text), functions_(functions) {}

  CompiledExpression run() {
    advance();
    if (tok_.kind == Tok::end) fail(tok_, "empty expression");
    sum(0);
    if (tok_.kind != Tok::end) fail(tok_, "unexpected " + describe(tok_));
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const Token& at, const std::string& problem) const {
    throw ExpressionError(text_, static_cast<int>(at.begin) + 1, problem);
  }

  std::string describe(const Token& t) const {
    if (t.kind == Tok::end) return "end of expression";
    return "'" + text_.substr(t.begin, t.end - t.begin) + "'";
  }

  /// Reads the next token into tok_.
  void advance() {
    std::size_t i = tok_.kind == Tok::bad ? 0 : tok_.end;
    while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
    if (i == text_.size()) {
      tok_ = {Tok::end, i, i};
      return;
    }
    const char c = text_[i];
    if (is_digit(c) || (c == '.' && i + 1 < text_.size() && is_digit(text_[i + 1]))) {
      lex_number(i);
    } else if (is_name_start(c)) {
      std::size_t j = i;
      while (j < text_.size() && is_name_char(text_[j])) ++j;
      tok_ = {Tok::name, i, j};
    } else if (c == '*' && i + 1 < text_.size() && text_[i + 1] == '*') {
      tok_ = {Tok::power, i, i + 2};
    } else {
      const char* ops = "+-*/()";
      const Tok kinds[] = {Tok::plus, Tok::minus, Tok::star, Tok::slash, Tok::lparen, Tok::rparen};
      const char* p = std::char_traits<char>::find(ops, 6, c);
      if (p == nullptr) {
        // Show the whole character: a multi-byte UTF-8 one is several bytes.
        std::size_t j = i + 1;
        while (j < text_.size() && (static_cast<unsigned char>(text_[j]) & 0xC0) == 0x80) ++j;
        fail({Tok::bad, i, j}, "unexpected character '" + text_.substr(i, j - i) + "'");
      }
      tok_ = {kinds[p - ops], i, i + 1};
    }
  }

  void lex_number(std::size_t i) {
    const std::size_t j = number_end(text_, i);
    if (j == std::string::npos) {
      std::size_t k = i;
      while (k < text_.size() &&
             (is_name_char(text_[k]) || text_[k] == '.' ||
              ((text_[k] == '+' || text_[k] == '-') && (text_[k - 1] == 'e' || text_[k - 1] == 'E'))))
        ++k;
      fail({Tok::bad, i, k}, "malformed number '" + text_.substr(i, k - i) + "'");
    }
    double v = 0.0;
    const auto r = std::from_chars(text_.data() + i, text_.data() + j, v);
    if (r.ec != std::errc() || r.ptr != text_.data() + j) {
      fail({Tok::bad, i, j}, "number '" + text_.substr(i, j - i) + "' is outside the range of a double");
    }
    tok_ = {Tok::number, i, j, v};
  }

  void push(double v, bool constant, const Token& at) {
    if (constant) {
      out_.program.push_back(static_cast<double>(ExpressionOp::push_constant));
      out_.program.push_back(v);
    } else {
      out_.program.push_back(static_cast<double>(ExpressionOp::push_x));
      out_.uses_x = true;
    }
    if (++depth_ > kExpressionMaxStack) {
      fail(at, "the formula needs more than " + std::to_string(kExpressionMaxStack) +
                   " intermediate values at once (simplify or split it)");
    }
    out_.stack_depth = std::max(out_.stack_depth, depth_);
  }

  void emit(ExpressionOp op) {
    out_.program.push_back(static_cast<double>(op));
    if (op >= ExpressionOp::add && op <= ExpressionOp::power) --depth_;
  }

  void enter(int nesting, const Token& at) const {
    if (nesting > kMaxNesting) fail(at, "nested more than " + std::to_string(kMaxNesting) + " levels deep");
  }

  void sum(int nesting) {
    product(nesting);
    while (tok_.kind == Tok::plus || tok_.kind == Tok::minus) {
      const ExpressionOp op = tok_.kind == Tok::plus ? ExpressionOp::add : ExpressionOp::subtract;
      advance();
      product(nesting);
      emit(op);
    }
  }

  void product(int nesting) {
    unary(nesting);
    while (tok_.kind == Tok::star || tok_.kind == Tok::slash) {
      const ExpressionOp op = tok_.kind == Tok::star ? ExpressionOp::multiply : ExpressionOp::divide;
      advance();
      unary(nesting);
      emit(op);
    }
  }

  void unary(int nesting) {
    if (tok_.kind == Tok::plus || tok_.kind == Tok::minus) {
      enter(nesting + 1, tok_);
      const bool minus = tok_.kind == Tok::minus;
      advance();
      unary(nesting + 1);
      if (minus) emit(ExpressionOp::negate);  // unary plus is the identity on doubles
      return;
    }
    power(nesting);
  }

  void power(int nesting) {
    primary(nesting);
    if (tok_.kind == Tok::power) {
      enter(nesting + 1, tok_);
      advance();
      unary(nesting + 1);  // right-associative: the exponent is a whole unary expression
      emit(ExpressionOp::power);
    }
  }

  void primary(int nesting) {
    const Token t = tok_;
    switch (t.kind) {
      case Tok::number:
        push(t.number, true, t);
        advance();
        return;
      case Tok::lparen:
        enter(nesting + 1, t);
        advance();
        if (tok_.kind == Tok::rparen) fail(tok_, "unexpected ')'");
        sum(nesting + 1);
        close(t);
        return;
      case Tok::name: name(t, nesting); return;
      default: fail(t, "unexpected " + describe(t));
    }
  }

  void close(const Token& open) {
    if (tok_.kind == Tok::rparen) {
      advance();
      return;
    }
    if (tok_.kind == Tok::end) fail(open, "unclosed '('");
    fail(tok_, "unexpected " + describe(tok_) + " (expected ')')");
  }

  void name(const Token& t, int nesting) {
    const std::string id = text_.substr(t.begin, t.end - t.begin);
    advance();
    if (tok_.kind != Tok::lparen) {
      if (id == "x") {
        push(0.0, false, t);
        return;
      }
      const auto& allowed = functions_.names;
      if (std::find(allowed.begin(), allowed.end(), id) != allowed.end()) {
        fail(tok_, "expected '(' after the function name '" + id + "'");
      }
      fail(t, "unknown name '" + id + "' (the variable is x)");
    }
    if (id == "x") fail(tok_, "unexpected '('");  // the variable is not a function
    const ExpressionOp op = function_of(id, t);
    const Token open = tok_;
    enter(nesting + 1, open);
    advance();
    if (tok_.kind == Tok::rparen) fail(tok_, "unexpected ')' (" + id + " takes one argument)");
    sum(nesting + 1);
    close(open);
    emit(op);
  }

  ExpressionOp function_of(const std::string& id, const Token& at) const {
    static const std::pair<const char*, ExpressionOp> known[] = {
        {"exp", ExpressionOp::exp},   {"log", ExpressionOp::log},   {"sqrt", ExpressionOp::sqrt},
        {"tanh", ExpressionOp::tanh}, {"cosh", ExpressionOp::cosh}, {"sinh", ExpressionOp::sinh},
        {"abs", ExpressionOp::abs}};
    const auto& allowed = functions_.names;
    if (std::find(allowed.begin(), allowed.end(), id) != allowed.end()) {
      for (const auto& [n, op] : known)
        if (id == n) return op;
    }
    std::string list;
    for (const std::string& n : allowed) list += (list.empty() ? "" : ", ") + n;
    fail(at, "unknown function '" + id + "' (allowed: " + list + ")");
  }

  const std::string& text_;
  const ExpressionFunctions& functions_;
  Token tok_{Tok::bad, 0, 0};
  CompiledExpression out_;
  int depth_ = 0;
};

}  // namespace

ExpressionError::ExpressionError(const std::string& expression, int column, const std::string& problem)
    : InvalidArgument("expression", "voltaic::compile_expression",
                      problem + " at column " + std::to_string(column) + " in '" + one_line(expression) + "'"),
      column_(column) {}

ExpressionFunctions ExpressionFunctions::all() { return {{"exp", "log", "sqrt", "tanh", "cosh", "sinh", "abs"}}; }

ExpressionFunctions ExpressionFunctions::bpx() { return {{"exp", "tanh", "cosh"}}; }

CompiledExpression compile_expression(const std::string& text, const ExpressionFunctions& functions) {
  return Parser(text, functions).run();
}

}  // namespace voltaic
