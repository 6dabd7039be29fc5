#include "solver/plane_cycle.hpp"

#include <vector>

#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

bool PlaneCycle::cuts(const PlaneDecomposition& cut, std::size_t plane_cells, std::size_t cut_on_device_cells) {
  // One rank holds the whole plane: the gathered cycle is the same bits with
  // no window copies (1.25x faster at 130 x 130, docs/performance.md). On
  // GPUs each of the cut cycle's exchanges waits for the stream and crosses
  // host memory, where the gather is one exchange a cycle: the cut pays
  // there only on planes too large to hold whole.
  if (cut.blocks().size() < 2) return false;
  return cut.memory_space() == MemorySpace::host() || plane_cells >= cut_on_device_cells;
}

PlaneCycle::PlaneCycle(const PlaneSystem<double>& whole, std::shared_ptr<const PlaneDecomposition> cut,
                       PlaneMultigridOptions options, std::size_t cut_on_device_cells)
    : cut_(std::move(cut)), exec_(whole.executor()), plane_(whole.grid().num_cells()) {
  zeros_ = Array<double>::from_host(exec_, std::vector<double>(field(), 0.0));
  if (cut_ && cuts(*cut_, plane_, cut_on_device_cells)) {
    split_ = std::make_unique<CutPlaneMultigrid<double>>(whole, cut_, options);
    return;
  }
  whole_ = std::make_unique<PlaneMultigrid<double>>(whole, options);
  if (cut_) {
    blocks_ = Array<double>(exec_, 4 * plane_);
    r_ = Array<double>(exec_, 2 * plane_);
    z_ = Array<double>(exec_, 2 * plane_);
  }
}

std::size_t PlaneCycle::field() const {
  return cut_ ? static_cast<std::size_t>(cut_->ghosted_nx()) * static_cast<std::size_t>(cut_->ghosted_ny()) : plane_;
}

void PlaneCycle::update_blocks(View<const double> b00, View<const double> b01, View<const double> b10,
                               View<const double> b11) {
  if (split_) return split_->update(b00, b01, b10, b11);
  whole_->update(b00, b01, b10, b11);
}

void PlaneCycle::update(View<const double> blocks) {
  const std::size_t n = field();
  if (cut_ && whole_) {  // the whole plane's blocks, on every rank
    cut_->gather(blocks.data(), 4, blocks_.data());
    const View<const double> all = blocks_.const_view();
    return whole_->update(all.subview(0, plane_), all.subview(plane_, plane_), all.subview(2 * plane_, plane_),
                          all.subview(3 * plane_, plane_));
  }
  update_blocks(blocks.subview(0, n), blocks.subview(n, n), blocks.subview(2 * n, n), blocks.subview(3 * n, n));
}

void PlaneCycle::update_diagonal(View<const double> d) {
  if (cut_ && whole_) {
    cut_->gather(d.data(), 1, blocks_.data());
    const View<const double> all = blocks_.const_view().subview(0, plane_);
    const View<const double> zero = blocks_.const_view().subview(plane_, plane_);
    fill(*exec_, blocks_.view().subview(plane_, plane_), 0.0);
    return whole_->update(all, zero, zero, all);
  }
  update_blocks(d, zeros_.const_view(), zeros_.const_view(), d);
}

void PlaneCycle::apply(View<const double> r, View<double> z) const {
  if (split_) return split_->apply(r, z);
  if (!cut_) return whole_->apply(r, z);
  cut_->gather(r.data(), 2, r_.data());  // the whole plane's V-cycle on every rank, then this block's part
  whole_->apply(r_.const_view(), z_.view());
  cut_->slice(z_.data(), 2, z.data());
}

bool PlaneCycle::stream_ordered() const {
  return whole_ && whole_->stream_ordered() && (!cut_ || cut_->stream_ordered());
}

}  // namespace voltaic
