#pragma once
// The cells of a [sweep], drawn or enumerated: pure functions of their
// inputs, the same on every platform and compiler. The generator is
// std::mt19937_64, whose sequence the standard fixes; the transforms from its
// integers to numbers are ours, since those of <random>'s distributions are
// left to each library.

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace voltaic::io::detail {

/// A distribution of one swept parameter.
struct Distribution {
  enum class Kind { uniform, log_uniform, normal };
  Kind kind = Kind::uniform;
  double a = 0.0;  ///< uniform, log_uniform: low; normal: mean
  double b = 1.0;  ///< uniform, log_uniform: high; normal: std

  /// The value at probability `u` in (0, 1) (the inverse of the CDF).
  double quantile(double u) const;
};

/// A uniform number in (0, 1): (k + 0.5) / 2^52 of the top 52 bits k of one
/// draw. Every such value is a double exactly, none is 0 or 1, and u and
/// 1 - u are equally likely, so that normal draws are symmetric. (With 53
/// bits, k + 0.5 would round, up to 1 itself.)
double unit_uniform(std::mt19937_64& rng);

/// Every normal draw lies within this many standard deviations of its mean:
/// unit_uniform() is at least 2^-53, whose standard normal quantile is -8.2.
constexpr double kNormalReach = 9.0;

/// An integer in [0, n), n >= 1, unbiased (Lemire's multiply and reject).
std::uint64_t bounded_integer(std::mt19937_64& rng, std::uint64_t n);

/// The standard normal's quantile at p in (0, 1): Acklam's rational
/// approximation (relative error 1.15e-9) refined by one Halley step on
/// std::erfc, to about 1e-15.
double inverse_normal_cdf(double p);

/// Cell-major: cell i draws its parameters in the order of `d`, each from one
/// unit_uniform() through its quantile.
std::vector<double> sample_random(const std::vector<Distribution>& d, std::size_t cells, std::uint64_t seed);

/// The probabilities of a Latin hypercube, cell-major: for each parameter in
/// turn, a uniform permutation of the `cells` strata (Fisher-Yates with
/// bounded_integer, from the last position down), then for each cell an offset
/// in its stratum, u = (stratum + unit_uniform()) / cells, kept inside (0, 1).
std::vector<double> latin_hypercube_units(std::size_t parameters, std::size_t cells, std::uint64_t seed);

/// latin_hypercube_units() through each parameter's quantile.
std::vector<double> sample_latin_hypercube(const std::vector<Distribution>& d, std::size_t cells, std::uint64_t seed);

/// Cell-major rows of lists of one length: cell i takes entry i of each.
std::vector<double> zip_lists(const std::vector<std::vector<double>>& lists);

/// Cell-major full factorial of the lists, the first list varying slowest.
std::vector<double> full_factorial(const std::vector<std::vector<double>>& lists);

}  // namespace voltaic::io::detail
