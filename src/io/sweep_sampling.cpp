#include "io/sweep_sampling.hpp"

#include <cmath>
#include <numeric>
#include <utility>

namespace voltaic::io::detail {

namespace {

constexpr double kTwoToMinus52 = 1.0 / 4503599627370496.0;  // 2^-52
constexpr double kSqrtTwoPi = 2.50662827463100050242;
constexpr double kSqrtHalf = 0.70710678118654752440;

/// Acklam's approximation for p in (0, 0.5]: the central and the lower region.
double acklam_lower_half(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  if (p < 0.02425) {
    const double q = std::sqrt(-2.0 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  }
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

}  // namespace

double Distribution::quantile(double u) const {
  switch (kind) {
    case Kind::uniform: return a + u * (b - a);
    case Kind::log_uniform: return std::exp(std::log(a) + u * (std::log(b) - std::log(a)));
    case Kind::normal: return a + b * inverse_normal_cdf(u);
  }
  return a;
}

double unit_uniform(std::mt19937_64& rng) {
  const std::uint64_t k = rng() >> 12;
  return (static_cast<double>(k) + 0.5) * kTwoToMinus52;
}

std::uint64_t bounded_integer(std::mt19937_64& rng, std::uint64_t n) {
  // 2^64 mod n draws are refused at the bottom, so that the ones kept are a
  // whole number of copies of [0, n).
  const std::uint64_t refused = (0 - n) % n;
  for (;;) {
    const std::uint64_t x = rng();
    if (x >= refused) return x % n;
  }
}

double inverse_normal_cdf(double p) {
  // The upper half by symmetry (1 - p is exact there), so that the Halley step
  // below always works with erfc of a non-negative argument, accurate in the tail.
  if (p > 0.5) return -inverse_normal_cdf(1.0 - p);
  const double x = acklam_lower_half(p);
  const double e = 0.5 * std::erfc(-x * kSqrtHalf) - p;
  const double u = e * kSqrtTwoPi * std::exp(0.5 * x * x);
  return x - u / (1.0 + 0.5 * x * u);
}

std::vector<double> sample_random(const std::vector<Distribution>& d, std::size_t cells, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> values(cells * d.size());
  for (std::size_t i = 0; i < cells; ++i)
    for (std::size_t k = 0; k < d.size(); ++k) values[i * d.size() + k] = d[k].quantile(unit_uniform(rng));
  return values;
}

std::vector<double> latin_hypercube_units(std::size_t parameters, std::size_t cells, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> units(cells * parameters);
  std::vector<std::size_t> strata(cells);
  const double below_one = std::nextafter(1.0, 0.0);
  for (std::size_t k = 0; k < parameters; ++k) {
    std::iota(strata.begin(), strata.end(), std::size_t(0));
    for (std::size_t i = cells; i-- > 1;) std::swap(strata[i], strata[bounded_integer(rng, i + 1)]);
    for (std::size_t i = 0; i < cells; ++i) {
      // stratum + U rounds up to the next whole number when U is within an ulp of 1.
      const double u = (static_cast<double>(strata[i]) + unit_uniform(rng)) / static_cast<double>(cells);
      units[i * parameters + k] = std::fmin(u, below_one);
    }
  }
  return units;
}

std::vector<double> sample_latin_hypercube(const std::vector<Distribution>& d, std::size_t cells, std::uint64_t seed) {
  std::vector<double> values = latin_hypercube_units(d.size(), cells, seed);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = d[i % d.size()].quantile(values[i]);
  return values;
}

std::vector<double> zip_lists(const std::vector<std::vector<double>>& lists) {
  const std::size_t cells = lists.empty() ? 0 : lists[0].size();
  std::vector<double> values(cells * lists.size());
  for (std::size_t i = 0; i < cells; ++i)
    for (std::size_t k = 0; k < lists.size(); ++k) values[i * lists.size() + k] = lists[k][i];
  return values;
}

std::vector<double> full_factorial(const std::vector<std::vector<double>>& lists) {
  std::size_t cells = lists.empty() ? 0 : 1;
  for (const auto& l : lists) cells *= l.size();
  std::vector<double> values(cells * lists.size());
  for (std::size_t i = 0; i < cells; ++i) {
    std::size_t rest = i;  // the last list's index is the lowest digit
    for (std::size_t k = lists.size(); k-- > 0;) {
      values[i * lists.size() + k] = lists[k][rest % lists[k].size()];
      rest /= lists[k].size();
    }
  }
  return values;
}

}  // namespace voltaic::io::detail
