#include "checkers/dead_values.hpp"

#include <algorithm>
#include <string>

namespace omnilink::checkers {

using language::Value;

void DeadValues::add_use(OpRef op, const Value& value) {
  switch (value.kind()) {
    case Value::Kind::Int: case Value::Kind::String: {
      const auto next = static_cast<std::uint32_t>(users_.size());
      const std::uint32_t index = value.is_int() ? integers_.try_emplace(value.as_int(), next).first->second
                                                 : strings_.try_emplace(value.as_string(), next).first->second;
      if (index == next) users_.emplace_back(), stamp_.push_back(0), number_.push_back(0);
      auto& ops = users_[index];
      if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
      return;
    }
    case Value::Kind::Seq:
      for (const Value& item : value.items()) add_use(op, item);
      return;
    case Value::Kind::Fcn:
      for (const Value& key : value.keys()) add_use(op, key);
      for (const Value& item : value.values()) add_use(op, item);
      return;
    case Value::Kind::Set:
      for (const Value& item : value.elements()) add_use(op, item);
      return;
    default:  // booleans identify nothing; model values and infinite sets are not logged
      return;
  }
}

std::uint32_t DeadValues::atom(const Value& v) const {
  if (v.is_int()) {
    const auto it = integers_.find(v.as_int());
    return it == integers_.end() ? kNotAtom : it->second;
  }
  const auto it = strings_.find(v.as_string());
  return it == strings_.end() ? kNotAtom : it->second;
}

std::optional<std::pair<Value, DeadValues::OpRef>> DeadValues::shared_atom(const Value& v) const {
  auto first = [&](const std::vector<Value>& items) -> std::optional<std::pair<Value, OpRef>> {
    for (const Value& item : items)
      if (auto found = shared_atom(item)) return found;
    return std::nullopt;
  };
  switch (v.kind()) {
    case Value::Kind::Int: case Value::Kind::String: {
      const std::uint32_t a = atom(v);
      if (a == kNotAtom) return std::nullopt;
      return std::make_pair(v, users_[a].front());
    }
    case Value::Kind::Seq: return first(v.items());
    case Value::Kind::Fcn: {
      if (auto found = first(v.keys())) return found;
      return first(v.values());
    }
    case Value::Kind::Set: return first(v.elements());
    default: return std::nullopt;
  }
}

Value DeadValues::rename(const Value& v, const std::vector<std::uint32_t>& linearized) const {
  // Each container is rebuilt only if something inside it changed; the rest is shared.
  auto all = [&](const std::vector<Value>& items, std::vector<Value>& out) {
    bool changed = false;
    out.reserve(items.size());
    for (const Value& item : items) {
      out.push_back(rename(item, linearized));
      changed |= out.back().node() != item.node() || out.back().kind() != item.kind();
    }
    return changed;
  };
  switch (v.kind()) {
    case Value::Kind::Int: case Value::Kind::String: {
      const std::uint32_t a = atom(v);
      if (a == kNotAtom) return v;  // not a declared field's value: never renamed
      if (stamp_[a] != call_) {
        const auto& ops = users_[a];
        if (!std::all_of(ops.begin(), ops.end(), [&](const OpRef& op) { return linearized[op.first] > op.second; })) return v;
        stamp_[a] = call_;
        number_[a] = assigned_++;
        // A model value's name no TLA+ identifier has: it equals nothing in any spec.
        while (placeholders_.size() <= number_[a])
          placeholders_.push_back(Value::model("omnilink dead value " + std::to_string(placeholders_.size() + 1)));
      }
      return placeholders_[number_[a]];
    }
    case Value::Kind::Seq: {
      std::vector<Value> items;
      return all(v.items(), items) ? Value::seq(std::move(items)) : v;
    }
    case Value::Kind::Fcn: {
      std::vector<Value> keys, values;
      const bool keys_changed = all(v.keys(), keys);
      return all(v.values(), values) || keys_changed ? Value::function(std::move(keys), std::move(values)) : v;
    }
    case Value::Kind::Set: {
      std::vector<Value> items;
      return all(v.elements(), items) ? Value::set(std::move(items)) : v;
    }
    default:  // booleans, model values; an infinite set is fingerprinted as it is (nothing merged)
      return v;
  }
}

std::vector<Value> DeadValues::renamed(const std::vector<Value>& state, const std::vector<std::uint32_t>& linearized) const {
  ++call_;
  assigned_ = 0;
  std::vector<Value> out;
  out.reserve(state.size());
  for (const Value& v : state) out.push_back(rename(v, linearized));
  return out;
}

}  // namespace omnilink::checkers
