#pragma once
/// @file error.hpp
/// @brief The typed exceptions voltaic throws. Each names what failed, where
/// (a function or file:line) and why (the value, the allowed range, the cause).

#include <stdexcept>
#include <string>

namespace voltaic {

/// `text` on one line, for error messages: newline, carriage return and tab
/// as \\n, \\r, \\t, other control characters and every byte that is not
/// part of well-formed UTF-8 (a file name or CSV cell of another encoding)
/// as \\xNN; valid UTF-8 characters as they are.
std::string one_line(const std::string& text);

/// Base of every exception voltaic throws.
class Error : public std::runtime_error {
 public:
  /// @param what the operation or item that failed ("axpy", "grid.nx")
  /// @param where the function or source location where it was detected
  /// @param why the reason, with the offending value and the allowed range
  Error(std::string what, std::string where, std::string why);

  const std::string& what_failed() const noexcept { return what_; }
  const std::string& where() const noexcept { return where_; }
  const std::string& why() const noexcept { return why_; }

 private:
  std::string what_;
  std::string where_;
  std::string why_;
};

/// A caller passed a value outside its allowed range.
class InvalidArgument : public Error {
  using Error::Error;
};

/// Two arrays (or an array and a grid) that must agree in size do not.
class SizeMismatch : public InvalidArgument {
  using InvalidArgument::InvalidArgument;
};

/// Memory handed to an executor lives in another memory space.
class ExecutorMismatch : public InvalidArgument {
  using InvalidArgument::InvalidArgument;
};

/// An index outside a view's extent (debug builds only).
class OutOfRange : public Error {
  using Error::Error;
};

/// A backend or device that is not built or not present was requested.
class BackendUnavailable : public Error {
  using Error::Error;
};

/// A CUDA runtime, cuBLAS or cuSPARSE call returned an error.
class CudaError : public Error {
 public:
  /// @param code the library's status code
  /// @param sticky true when the error corrupts the CUDA context, so that
  ///        every later CUDA call of this process fails as well
  CudaError(std::string what, std::string where, std::string why, int code, bool sticky);
  int code() const noexcept { return code_; }
  bool sticky() const noexcept { return sticky_; }

 private:
  int code_;
  bool sticky_;
};

}  // namespace voltaic
