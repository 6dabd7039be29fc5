// Parser of experiment steps in PyBaMM's wording (see experiment.hpp): a small
// recursive descent over words, each remembered with its column for errors.
#include "voltaic/solver/experiment.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "voltaic/model/parameter_table.hpp"

namespace voltaic {

namespace {

struct Word {
  std::string text;      ///< lower case
  std::size_t column;    ///< from 1
  std::string original;  ///< as written (a drive cycle's name keeps its case)
};

std::vector<Word> split(const std::string& s) {
  std::vector<Word> words;
  for (std::size_t i = 0; i < s.size();) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    Word w{"", i + 1, ""};
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) {
      w.original += s[i];
      w.text += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i++])));
    }
    words.push_back(w);
  }
  return words;
}

enum class Unit { c_rate, ampere, milliampere, watt, milliwatt, volt, millivolt, second, minute, hour, none };

Unit unit_of(const std::string& u) {
  if (u == "c") return Unit::c_rate;
  if (u == "a") return Unit::ampere;
  if (u == "ma") return Unit::milliampere;
  if (u == "w") return Unit::watt;
  if (u == "mw") return Unit::milliwatt;
  if (u == "v") return Unit::volt;
  if (u == "mv") return Unit::millivolt;
  if (u == "s" || u == "sec" || u == "second" || u == "seconds") return Unit::second;
  if (u == "min" || u == "minute" || u == "minutes") return Unit::minute;
  if (u == "h" || u == "hr" || u == "hour" || u == "hours") return Unit::hour;
  return Unit::none;
}

struct Quantity {
  double value;
  Unit unit;
  std::size_t column;
};

class Parser {
 public:
  Parser(const std::string& text, std::size_t index, const DriveCycles& drive_cycles)
      : text_(text), index_(index), drive_cycles_(drive_cycles), words_(split(text)) {}

  ExperimentStep parse() {
    ExperimentStep step;
    step.text = text_;
    const Word verb = next("a step: Discharge, Charge, Hold, Rest or Run");
    if (verb.text == "rest") {
      step.mode = StepMode::rest;
      expect("for");
      step.duration_s = duration();
    } else if (verb.text == "discharge" || verb.text == "charge") {
      expect("at");
      const double sign = verb.text == "discharge" ? 1.0 : -1.0;
      const Quantity q = quantity();
      if (q.unit == Unit::watt || q.unit == Unit::milliwatt) {
        step.mode = StepMode::power;
        step.power_w = sign * power(q);
      } else {
        step.mode = StepMode::current;
        step.current = current(q);
        step.current.value *= sign;
      }
      limits(step, false);
    } else if (verb.text == "hold") {
      expect("at");
      step.mode = StepMode::voltage;
      step.voltage_v = voltage(quantity());
      limits(step, true);
    } else if (verb.text == "run") {
      run(step);
    } else {
      fail(verb, "'" + verb.text + "' is not a step; expected Discharge, Charge, Hold, Rest or Run");
    }
    if (pos_ < words_.size()) fail(words_[pos_], "unexpected '" + words_[pos_].text + "' after a complete step");
    if (!step.duration_s) {
      step.duration_s = default_step_duration(step);
      step.default_duration = true;
    }
    return step;
  }

 private:
  [[noreturn]] void fail(const Word& at, const std::string& why) const {
    throw ExperimentError(index_, text_, at.column, why);
  }
  [[noreturn]] void fail_at_end(const std::string& why) const {
    throw ExperimentError(index_, text_, text_.size() + 1, why);
  }
  Word next(const std::string& expected) {
    if (pos_ >= words_.size()) fail_at_end("the step ends where " + expected + " was expected");
    return words_[pos_++];
  }
  void expect(const std::string& keyword) {
    const Word w = next("'" + keyword + "'");
    if (w.text != keyword) fail(w, "expected '" + keyword + "', got '" + w.text + "'");
  }
  bool accept(const std::string& keyword) {
    if (pos_ < words_.size() && words_[pos_].text == keyword) {
      ++pos_;
      return true;
    }
    return false;
  }

  /// "<number><unit>", "<number> <unit>" or "C/<number>".
  Quantity quantity() {
    const Word w = next("a quantity such as 1C, 5 A, 4.2 V or 1 hour");
    if (w.text.rfind("c/", 0) == 0) {
      const double n = number(w, w.text.substr(2));
      if (!(n > 0)) fail(w, "the divisor of '" + w.text + "' must be positive");
      if (!std::isfinite(1.0 / n)) fail(w, "the divisor of '" + w.text + "' is too small");
      return {1.0 / n, Unit::c_rate, w.column};
    }
    std::size_t end = 0;
    while (end < w.text.size() &&
           (std::isdigit(static_cast<unsigned char>(w.text[end])) || w.text[end] == '.' ||
            ((w.text[end] == 'e') && end > 0) ||
            ((w.text[end] == '-' || w.text[end] == '+') && (end == 0 || w.text[end - 1] == 'e')))) {
      ++end;
    }
    const double value = number(w, w.text.substr(0, end));
    std::string unit = w.text.substr(end);
    std::size_t unit_column = w.column + end;
    if (unit.empty()) {
      const Word u = next("a unit after " + w.text);
      unit = u.text;
      unit_column = u.column;
    }
    const Unit k = unit_of(unit);
    if (k == Unit::none) {
      throw ExperimentError(index_, text_, unit_column,
                            "'" + unit + "' is not a unit; use C, A, mA, W, mW, V, mV, s, minutes or hours");
    }
    return {value, k, w.column};
  }
  /// A decimal number, finite: strtod alone would also take "inf", "nan",
  /// hexadecimal and 1e999 (as infinity), none of which PyBaMM reads.
  double number(const Word& w, const std::string& s) {
    const bool decimal = !s.empty() && s.find_first_not_of("0123456789.eE+-") == std::string::npos;
    char* end = nullptr;
    const double v = decimal ? std::strtod(s.c_str(), &end) : 0.0;
    if (!decimal || end != s.c_str() + s.size()) fail(w, "'" + w.text + "' does not start with a number");
    if (!std::isfinite(v)) fail(w, "'" + s + "' is not a finite number (a double holds at most 1.8e308)");
    return v;
  }
  /// The value times `scale` (the unit's), which must stay a positive finite
  /// number: 1e-320 mA and 1e306 hours do not.
  double positive(const Quantity& q, double scale = 1.0) {
    if (!(q.value > 0)) throw ExperimentError(index_, text_, q.column, "the value must be positive");
    const double v = q.value * scale;
    if (!(v > 0) || !std::isfinite(v)) {
      throw ExperimentError(index_, text_, q.column, "the value is outside the range of a double in SI units");
    }
    return v;
  }
  /// `si`, the quantity in SI units (or C), when it is at most `limit`.
  double at_most(const Quantity& q, double si, const StepLimit& limit) {
    if (si < limit.min) {
      throw ExperimentError(index_, text_, q.column,
                            "the " + std::string(limit.what) + " " + format_parameter_value(si) + " " + limit.unit +
                                " is out of range: at least " + format_parameter_value(limit.min) + " " + limit.unit);
    }
    if (!(si <= limit.max)) {
      throw ExperimentError(index_, text_, q.column,
                            "the " + std::string(limit.what) + " " + format_parameter_value(si) + " " + limit.unit +
                                " is out of range: at most " + format_parameter_value(limit.max) + " " + limit.unit);
    }
    return si;
  }
  CurrentValue current(const Quantity& q) {
    if (q.unit == Unit::c_rate) return {at_most(q, positive(q), kStepLimits.c_rate), true};
    if (q.unit == Unit::ampere) return {at_most(q, positive(q), kStepLimits.current), false};
    if (q.unit == Unit::milliampere) return {at_most(q, positive(q, 1e-3), kStepLimits.current), false};
    throw ExperimentError(index_, text_, q.column, "expected a current (C-rate, A or mA) or a power (W, mW)");
  }
  double power(const Quantity& q) {
    return at_most(q, positive(q, q.unit == Unit::milliwatt ? 1e-3 : 1.0), kStepLimits.power);
  }
  double voltage(const Quantity& q) {
    if (q.unit == Unit::volt) return at_most(q, positive(q), kStepLimits.voltage);
    if (q.unit == Unit::millivolt) return at_most(q, positive(q, 1e-3), kStepLimits.voltage);
    throw ExperimentError(index_, text_, q.column, "expected a voltage (V or mV)");
  }
  double duration() {
    const Quantity q = quantity();
    const double scale = q.unit == Unit::second   ? 1.0
                         : q.unit == Unit::minute ? 60.0
                         : q.unit == Unit::hour   ? 3600.0
                                                  : 0.0;
    if (scale == 0.0) throw ExperimentError(index_, text_, q.column, "expected a duration (seconds, minutes, hours)");
    return at_most(q, positive(q, scale), kStepLimits.duration);
  }
  /// "Run <NAME> (A|W) [for <duration>] [or] [until <x> V]": the table's
  /// duration unless "for" is shorter; a longer one is refused rather than
  /// looped as PyBaMM does, which would hide a table that is too short.
  void run(ExperimentStep& step) {
    const Word name = next("a drive cycle's name, as in 'Run US06 (A)'");
    step.drive_cycle = drive_cycle(name);
    const Word kind = next("'(A)' (a current table) or '(W)' (a power table) after '" + name.original + "'");
    if (kind.text == "(a)") {
      step.mode = StepMode::current;
    } else if (kind.text == "(w)") {
      step.mode = StepMode::power;
    } else if (kind.text == "(v)") {
      fail(kind,
           "voltage drive cycles '(V)' are not supported; write '(A)' (a current table) or '(W)' (a power table)");
    } else {
      fail(kind, "expected '(A)' (a current table) or '(W)' (a power table), got '" + kind.original + "'");
    }
    within_limits(*step.drive_cycle, kind, step.mode == StepMode::current ? kStepLimits.current : kStepLimits.power);
    const double table = step.drive_cycle->duration();
    step.duration_s = table;
    if (pos_ >= words_.size()) return;
    const std::size_t duration_at = pos_ + 1;  // the quantity after "for", when the limits start with it
    limits(step, false);
    if (*step.duration_s > table * (1.0 + 1e-12)) {
      throw ExperimentError(index_, text_, words_[duration_at].column,
                            "the duration " + format_parameter_value(*step.duration_s) +
                                " s is longer than drive cycle '" + name.original + "' (" +
                                format_parameter_value(table) + " s), which is not repeated");
    }
    step.duration_s = std::min(*step.duration_s, table);
  }
  /// A table's rows obey the limits of a step's own numbers: its last time
  /// the duration's, every value (either sign) the current's or the power's.
  void within_limits(const DriveCycle& table, const Word& at, const StepLimit& value_limit) const {
    const auto out_of_range = [&](std::size_t row, const char* what, double v, const StepLimit& limit,
                                  const char* sign) {
      fail(at, "drive cycle '" + table.name() + "' row " + std::to_string(row + 1) + ": the " + what + " " +
                   format_parameter_value(v) + " " + limit.unit + " is out of range: at most " +
                   format_parameter_value(limit.max) + " " + limit.unit + sign);
    };
    if (!(table.duration() <= kStepLimits.duration.max))
      out_of_range(table.rows() - 1, "time", table.duration(), kStepLimits.duration, "");
    for (std::size_t i = 0; i < table.rows(); ++i)
      if (!(std::fabs(table.values()[i]) <= value_limit.max))
        out_of_range(i, "value", table.values()[i], value_limit, " either way");
  }
  std::shared_ptr<const DriveCycle> drive_cycle(const Word& name) const {
    const auto found = drive_cycles_.find(name.original);
    if (found != drive_cycles_.end()) {
      if (!found->second) fail(name, "drive cycle '" + name.original + "' is given as a null table");
      return found->second;
    }
    if (drive_cycles_.empty()) fail(name, "unknown drive cycle '" + name.original + "': no tables are given");
    std::string known, same_but_case;
    for (const auto& entry : drive_cycles_) {
      known += (known.empty() ? "'" : ", '") + entry.first + "'";
      if (same_but_case.empty() && lower(entry.first) == name.text) same_but_case = entry.first;
    }
    const std::string hint =
        same_but_case.empty() ? "" : "; did you mean '" + same_but_case + "'? (names are case-sensitive)";
    fail(name, "unknown drive cycle '" + name.original + "'" + hint + "; known: " + known);
  }
  static std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  /// "for <duration> [or until <limit>]" or "until <limit>"; a hold stops on a
  /// current, the others on a voltage.
  void limits(ExperimentStep& step, bool hold) {
    if (accept("for")) {
      step.duration_s = duration();
      if (!accept("or")) return;
    }
    if (pos_ >= words_.size() && step.duration_s) return;
    expect("until");
    if (!hold && accept("any")) {  // "until any cell reaches <x> V"
      expect("cell");
      expect("reaches");
      step.until_cell_voltage_v = voltage(quantity());
      return;
    }
    const Quantity q = quantity();
    if (hold) {
      step.until_current = current(q);
    } else {
      step.until_voltage_v = voltage(q);
    }
  }

  const std::string& text_;
  std::size_t index_;
  const DriveCycles& drive_cycles_;
  std::vector<Word> words_;
  std::size_t pos_ = 0;
};

}  // namespace

ExperimentError::ExperimentError(std::size_t step_index, const std::string& step, std::size_t column,
                                 const std::string& why)
    : InvalidArgument("experiment step " + std::to_string(step_index), "Experiment",
                      "'" + step + "', column " + std::to_string(column) + ": " + why),
      step_index_(step_index),
      column_(column) {}

double default_step_duration(const ExperimentStep& step) {
  constexpr double kDay = 24.0 * 3600.0;
  const bool c_rate = step.mode == StepMode::current && step.current.c_rate;
  const double d = c_rate ? 2.0 * 3600.0 / std::fabs(step.current.value) : kDay;
  return std::min(d, kStepLimits.duration.max);
}

std::string describe_step(const ExperimentStep& step, std::size_t index) {
  return "experiment step " + std::to_string(index + 1) + " (\"" + step.text + "\")";
}

ExperimentStep parse_experiment_step(const std::string& text, std::size_t index, const DriveCycles& drive_cycles) {
  return Parser(text, index, drive_cycles).parse();
}

Experiment::Experiment(const std::vector<std::string>& steps, int cycles, const DriveCycles& drive_cycles)
    : cycles_(cycles) {
  if (steps.empty()) throw InvalidArgument("experiment", "Experiment", "an experiment needs at least one step");
  if (cycles < 1) {
    throw InvalidArgument("experiment cycles", "Experiment", "cycles = " + std::to_string(cycles) + " must be >= 1");
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    cycle_.push_back(parse_experiment_step(steps[i], i + 1, drive_cycles));
  }
}

std::string Experiment::fingerprint() const {
  std::string text = "[";
  std::map<std::string, const DriveCycle*> tables;  // by name: each once, in order
  for (const ExperimentStep& step : cycle_) {
    text += "\"" + step.text + "\", ";
    if (step.drive_cycle) tables[step.drive_cycle->name()] = step.drive_cycle.get();
  }
  text += "] x " + std::to_string(cycles_);
  if (termination_.any()) text += ", until " + termination_.text();
  // A drive cycle's rows shape the run as much as the steps' words: an edited
  // table must not continue a checkpoint of the old one. One line per table,
  // so that a refusal names the first line that differs (first_difference).
  for (const auto& [name, table] : tables) {
    char digest[17];
    std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(table->digest()));
    text += "\ntable \"" + name + "\": " + std::to_string(table->rows()) + " rows, digest " + digest;
  }
  return text;
}

}  // namespace voltaic
