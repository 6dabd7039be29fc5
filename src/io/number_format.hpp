#pragma once
/// @file number_format.hpp
/// @brief Doubles as text that reads back to the same double: the digits of
/// printf's "%.17g", or the shortest digits that do, independent of the C
/// locale (a German locale would otherwise print a decimal comma into a CSV file).

#include <string>

namespace voltaic::io {

/// Appends `value` as "%.17g" would print it in the C locale; NaN (of any sign
/// or payload) as "nan", infinities as "inf" and "-inf".
void append_double(std::string& out, double value);

/// `value` formatted by append_double.
std::string format_double(double value);

/// Appends `value` in its shortest form that reads back to the same double
/// ("0.1", "3", "1e-05", std::to_chars without a precision), C locale;
/// NaN, infinities as append_double writes them.
void append_shortest(std::string& out, double value);

}  // namespace voltaic::io
