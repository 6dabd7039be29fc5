#pragma once
// Suggestions for misspelt names: "unknown key 'negative_cell'; did you mean
// 'negative_cells'?".

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace voltaic::io::detail {

/// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into
/// `b`, ignoring ASCII case: a key typed with the wrong case is one cheap fix
/// away, not many.
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The candidate nearest to `word` when it is near enough to be a likely typo
/// (at most a third of the word's length in edits, at least one edit);
/// the first of equally near ones. nullopt when none is.
std::optional<std::string> nearest_name(const std::string& word, const std::vector<std::string>& candidates);

/// "a, b, c".
std::string join(const std::vector<std::string>& items, const std::string& separator = ", ");

}  // namespace voltaic::io::detail
