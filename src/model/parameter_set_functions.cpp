// ParameterSet's custom functions: the store their handles point into. A
// new function builds a new store holding every slot's data (the old store
// stays with the copies that share it), so handles are rebased, never left
// pointing at memory this set no longer holds.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "voltaic/model/function_definition.hpp"
#include "voltaic/model/parameter_set.hpp"

namespace voltaic {

namespace {

bool inside(const std::vector<double>& pool, const CustomFunction& f) {
  const int n = f.data_size();
  if (n <= 0 || f.data == nullptr || pool.empty()) return false;
  const double* begin = pool.data();
  const double* end = begin + pool.size();
  // Compare as integers: pointers into different arrays are not ordered.
  const auto at = reinterpret_cast<std::uintptr_t>(f.data);
  return at >= reinterpret_cast<std::uintptr_t>(begin) &&
         at + n * sizeof(double) <= reinterpret_cast<std::uintptr_t>(end);
}

}  // namespace

CustomFunction& ParameterSet::handle(FunctionSlot slot) {
  switch (slot) {
    case FunctionSlot::negative_ocp: return negative_electrode.ocp_function;
    case FunctionSlot::negative_entropic: return negative_electrode.entropic_function;
    case FunctionSlot::positive_ocp: return positive_electrode.ocp_function;
    case FunctionSlot::positive_entropic: return positive_electrode.entropic_function;
    case FunctionSlot::electrolyte_conductivity: return electrolyte.conductivity_function;
    case FunctionSlot::electrolyte_diffusivity: return electrolyte.diffusivity_function;
  }
  return negative_electrode.ocp_function;  // not reached for a valid slot
}

const CustomFunction& ParameterSet::custom_function(FunctionSlot slot) const {
  return const_cast<ParameterSet&>(*this).handle(slot);
}

const std::vector<double>& ParameterSet::custom_function_data() const {
  static const std::vector<double> none;
  return functions_ ? functions_->data : none;
}

std::string ParameterSet::custom_function_description(FunctionSlot slot) const {
  const CustomFunction& f = custom_function(slot);
  if (f.kind == FunctionKind::none) return "none";
  const std::string& d = functions_ ? functions_->description[static_cast<int>(slot)] : std::string();
  return d.empty() ? (f.kind == FunctionKind::constant ? "constant" : "custom") : d;
}

void ParameterSet::set_custom_function(FunctionSlot slot, const FunctionDefinition& f) {
  auto store = std::make_shared<FunctionStore>();
  const std::vector<double>& old = custom_function_data();
  std::array<std::ptrdiff_t, kFunctionSlots> offset;
  offset.fill(-1);
  for (int s = 0; s < kFunctionSlots; ++s) {
    const CustomFunction& h = custom_function(static_cast<FunctionSlot>(s));
    if (s == static_cast<int>(slot)) {
      offset[s] = static_cast<std::ptrdiff_t>(store->data.size());
      store->data.insert(store->data.end(), f.data.begin(), f.data.end());
      store->description[s] = f.description;
    } else if (inside(old, h)) {
      offset[s] = static_cast<std::ptrdiff_t>(store->data.size());
      store->data.insert(store->data.end(), h.data, h.data + h.data_size());
      store->description[s] = functions_->description[s];
    } else if (functions_) {
      store->description[s] = functions_->description[s];  // a constant, or a handle validate() will reject
    }
  }
  // Only now is the data where it stays: point the handles at it.
  for (int s = 0; s < kFunctionSlots; ++s) {
    CustomFunction& h = handle(static_cast<FunctionSlot>(s));
    if (s == static_cast<int>(slot)) h = {f.kind, f.size, nullptr, f.value};
    if (offset[s] >= 0 && h.data_size() > 0) h.data = store->data.data() + offset[s];
  }
  functions_ = std::move(store);
  switch (slot) {
    case FunctionSlot::negative_ocp: negative_electrode.ocp = OcpModel::custom; break;
    case FunctionSlot::negative_entropic: negative_electrode.entropic = EntropicModel::custom; break;
    case FunctionSlot::positive_ocp: positive_electrode.ocp = OcpModel::custom; break;
    case FunctionSlot::positive_entropic: positive_electrode.entropic = EntropicModel::custom; break;
    case FunctionSlot::electrolyte_conductivity: electrolyte.conductivity_model = ElectrolyteModel::custom; break;
    case FunctionSlot::electrolyte_diffusivity: electrolyte.diffusivity_model = ElectrolyteModel::custom; break;
  }
}

bool ParameterSet::holds_custom_function(FunctionSlot slot) const {
  const CustomFunction& f = custom_function(slot);
  switch (f.kind) {
    case FunctionKind::constant: return true;
    case FunctionKind::table: return f.size >= 2 && inside(custom_function_data(), f);
    case FunctionKind::cubic_table: return f.size >= 4 && inside(custom_function_data(), f);
    case FunctionKind::expression: return f.size >= 1 && inside(custom_function_data(), f);
    case FunctionKind::none: return false;
  }
  return false;
}

}  // namespace voltaic
