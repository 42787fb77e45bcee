#include "checkers/dead_values.hpp"

#include <algorithm>
#include <string>

namespace omnilink::checkers {

using language::Fingerprint;
using language::Fingerprinter;
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

std::optional<Fingerprint> DeadValues::renamed_hash(const Value& v, const std::vector<std::uint32_t>& linearized) const {
  // A container's parts are renamed first; only if one changed is it hashed again, from its parts'
  // hashes (a part that did not change by its own hash): a sequence's in order, a set's elements
  // and a function's pairs summed, so that two equal ones hash alike whatever order their renamed
  // parts would sort in, with no sorting. Its kind and size seed a lane of its own.
  auto renamed_parts = [&](const std::vector<Value>& items, const std::vector<Value>* values, std::uint64_t kind, bool ordered) {
    const std::size_t mark = parts_.size();
    bool changed = false;
    // Keys first, then values: the order the placeholders are numbered in.
    for (const Value& item : items) {
      parts_.emplace_back(renamed_hash(item, linearized), std::nullopt);
      changed |= parts_.back().first.has_value();
    }
    for (std::size_t k = 0; values != nullptr && k < values->size(); ++k) {
      parts_[mark + k].second = renamed_hash((*values)[k], linearized);
      changed |= parts_[mark + k].second.has_value();
    }
    std::optional<Fingerprint> out;
    if (changed) {
      Fingerprint sum{0, 0};
      for (std::size_t k = 0; k < items.size(); ++k) {
        const auto& [item, value] = parts_[mark + k];
        const Fingerprint part = language::mixed_pair(item ? *item : own_hash(items[k]), values == nullptr ? Fingerprint{} : value ? *value : own_hash((*values)[k]));
        if (ordered) sum = {sum.high * 0x100000001b3ULL, sum.low * 0x9e3779b97f4a7c15ULL};
        sum = {sum.high + part.high, sum.low + part.low};
      }
      Fingerprinter f({0xdead0000 + kind, 0x5eed});
      f.add(sum);
      f.add(items.size());
      out = f.result();
    }
    parts_.resize(mark);
    return out;
  };
  switch (v.kind()) {
    case Value::Kind::Int: case Value::Kind::String: {
      const std::uint32_t a = atom(v);
      if (a == kNotAtom) return std::nullopt;  // not a declared field's value: never renamed
      if (stamp_[a] != call_) {
        const auto& ops = users_[a];
        if (!std::all_of(ops.begin(), ops.end(), [&](const OpRef& op) { return linearized[op.first] > op.second; })) return std::nullopt;
        stamp_[a] = call_;
        number_[a] = assigned_++;
      }
      Fingerprinter f({0xdeadd, 0xa7011});
      f.add(number_[a]);
      return f.result();
    }
    case Value::Kind::Seq: return renamed_parts(v.items(), nullptr, 1, true);
    case Value::Kind::Fcn: return renamed_parts(v.keys(), &v.values(), 2, false);
    case Value::Kind::Set: return renamed_parts(v.members(), nullptr, 3, false);
    default:  // booleans, model values; an infinite set is hashed as it is (nothing merged)
      return std::nullopt;
  }
}

Fingerprint DeadValues::fingerprint(const std::vector<Value>& state, const std::vector<std::uint32_t>& linearized, Fingerprint seed) const {
  ++call_;
  assigned_ = 0;
  Fingerprinter f(seed);
  for (const Value& v : state) {
    if (const auto renamed = renamed_hash(v, linearized)) f.add(*renamed);
    else f.add(v);
  }
  return f.result();
}

}  // namespace omnilink::checkers
