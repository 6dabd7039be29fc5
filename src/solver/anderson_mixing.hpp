#pragma once
// AndersonMixing: Anderson acceleration of a fixed-point iteration x = G(x)
// (Walker & Ni, SIAM J. Numer. Anal. 49 (2011) 1715). The next iterate is
// g_k - dG gamma, gamma minimising |f_k - dF gamma| over the last `depth`
// differences of f = G(x) - x and g = G(x). Where plain iteration diverges
// through a few stiff modes (the electrolyte's coupling to the potential near
// depletion), this converges like GMRES on the linearised map; its cost is
// depth + 1 deterministic dot products per iteration and 2 depth + 2 vectors.

#include <cstddef>
#include <memory>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/linalg/vector_space.hpp"

namespace voltaic {

class AndersonMixing {
 public:
  /// @param space the inner product of the iterates (a cut plane's sums its owned cells over every rank)
  AndersonMixing(std::shared_ptr<const Executor> exec, std::size_t n, int depth,
                 const VectorSpace<double>& space = VectorSpace<double>::local());

  /// Forgets the history: the next mix() is a plain fixed-point step.
  void reset() { count_ = 0; }
  /// From x (the last input) and g = G(x), writes the next input to `next`
  /// (which may alias neither x nor g).
  void mix(View<const double> x, View<const double> g, View<double> next);

 private:
  std::shared_ptr<const Executor> exec_;
  const VectorSpace<double>& space_;
  int depth_;
  int count_ = 0;  // mix() calls since reset()
  Array<double> f_, f_last_, g_last_;
  std::vector<Array<double>> df_, dg_;  // ring buffers of differences, newest at (count_ - 1) % depth_
};

}  // namespace voltaic
