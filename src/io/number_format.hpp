#pragma once
/// @file number_format.hpp
/// @brief Doubles as text that reads back to the same double: the digits of
/// printf's "%.17g", but independent of the C locale (a German locale would
/// otherwise print a decimal comma into a CSV file).

#include <string>

namespace voltaic::io {

/// Appends `value` as "%.17g" would print it in the C locale; NaN (of any sign
/// or payload) as "nan", infinities as "inf" and "-inf".
void append_double(std::string& out, double value);

/// `value` formatted by append_double.
std::string format_double(double value);

}  // namespace voltaic::io
