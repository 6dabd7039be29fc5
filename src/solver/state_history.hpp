#pragma once
// StateHistory: the one registry of the integrator's state arrays. Each entry
// is a live array and the values it had at the last accepted times (level 0
// at t_n, level 1 at t_{n-1}, ...), which drive the multistep formulas, the
// restore of a rejected step and the checkpoint, all from this one list.

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

class StateHistory {
 public:
  struct Entry {
    std::string name;
    Array<double>* live;
    std::vector<Array<double>> levels;  ///< at t_n, t_{n-1}, ...
  };

  explicit StateHistory(std::shared_ptr<const Executor> exec) : exec_(std::move(exec)) {}

  /// Registers `live` under `name` with `levels` past values (>= 1).
  void add(std::string name, Array<double>& live, int levels) {
    Entry e{std::move(name), &live, {}};
    for (int i = 0; i < levels; ++i) e.levels.emplace_back(exec_, live.size());
    entries_.push_back(std::move(e));
  }

  /// Level 0 <- live: the start of a step attempt.
  void save() {
    for (Entry& e : entries_) copy(*exec_, e.live->const_view(), e.levels[0].view());
  }
  /// live <- level 0: a rejected attempt taken back.
  void restore() {
    for (Entry& e : entries_) copy(*exec_, e.levels[0].const_view(), e.live->view());
  }
  /// After an accepted step: every level moves one back (level 0 is free
  /// until the next save()).
  void rotate() {
    for (Entry& e : entries_)
      for (std::size_t i = e.levels.size(); i-- > 1;) std::swap(e.levels[i], e.levels[i - 1]);
  }

  const Array<double>& level(const std::string& name, std::size_t i) const { return find(name).levels.at(i); }

  /// Every live array and level as "name" and "name@i" (checkpoints).
  std::map<std::string, std::vector<double>> to_host() const {
    std::map<std::string, std::vector<double>> out;
    for (const Entry& e : entries_) {
      out[e.name] = e.live->to_host();
      for (std::size_t i = 0; i < e.levels.size(); ++i) out[e.name + "@" + std::to_string(i)] = e.levels[i].to_host();
    }
    return out;
  }
  /// The inverse of to_host(); names a missing or mis-sized array.
  void from_host(const std::map<std::string, std::vector<double>>& arrays, const char* where) {
    for (Entry& e : entries_) {
      load(arrays, e.name, *e.live, where);
      for (std::size_t i = 0; i < e.levels.size(); ++i)
        load(arrays, e.name + "@" + std::to_string(i), e.levels[i], where);
    }
  }

 private:
  const Entry& find(const std::string& name) const {
    for (const Entry& e : entries_)
      if (e.name == name) return e;
    throw InvalidArgument(name, "StateHistory", "is not a registered state array");
  }
  void load(const std::map<std::string, std::vector<double>>& arrays, const std::string& name, Array<double>& a,
            const char* where) const {
    const auto it = arrays.find(name);
    if (it == arrays.end()) throw InvalidArgument("checkpoint", where, "has no array '" + name + "'");
    if (it->second.size() != a.size())
      throw InvalidArgument("checkpoint", where, "array '" + name + "' has the wrong size");
    exec_->copy(a.data(), a.space(), it->second.data(), MemorySpace::host(), a.size() * sizeof(double));
  }

  std::shared_ptr<const Executor> exec_;
  std::vector<Entry> entries_;
};

}  // namespace voltaic
