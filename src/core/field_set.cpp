#include "voltaic/core/field_set.hpp"

#include "voltaic/core/error.hpp"

namespace voltaic {

template <class T>
FieldSet<T>::FieldSet(std::shared_ptr<const Grid3D> grid, std::shared_ptr<const Executor> exec)
    : grid_(std::move(grid)), exec_(std::move(exec)) {
  if (!grid_ || !exec_) throw InvalidArgument("FieldSet", "FieldSet::FieldSet", "grid and executor must not be null");
}

template <class T>
Array<T>& FieldSet<T>::add(const std::string& name, int components) {
  if (name.empty()) throw InvalidArgument("field name", "FieldSet::add", "a field name must not be empty");
  if (components < 1) {
    throw InvalidArgument("field '" + name + "' components", "FieldSet::add",
                          "components = " + std::to_string(components) + " must be at least 1");
  }
  if (contains(name)) throw InvalidArgument("field '" + name + "'", "FieldSet::add", "a field of that name exists");
  Array<T> data(exec_, grid_->num_cells() * static_cast<std::size_t>(components));
  auto it = fields_.emplace(name, Entry{std::move(data), components}).first;
  order_.push_back(name);
  return it->second.data;
}

template <class T>
const typename FieldSet<T>::Entry& FieldSet<T>::entry(const std::string& name) const {
  auto it = fields_.find(name);
  if (it == fields_.end()) {
    std::string names;
    for (const std::string& n : order_) names += (names.empty() ? "" : ", ") + n;
    throw InvalidArgument("field '" + name + "'", "FieldSet",
                          "no such field; the set holds: " + (names.empty() ? std::string("(none)") : names));
  }
  return it->second;
}

template <class T>
Array<T>& FieldSet<T>::operator[](const std::string& name) {
  return const_cast<Array<T>&>(entry(name).data);
}

template <class T>
const Array<T>& FieldSet<T>::operator[](const std::string& name) const {
  return entry(name).data;
}

template <class T>
int FieldSet<T>::components(const std::string& name) const {
  return entry(name).components;
}

template class FieldSet<float>;
template class FieldSet<double>;

}  // namespace voltaic
