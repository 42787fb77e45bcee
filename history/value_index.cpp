#include "history/value_index.hpp"

#include "trace/value.hpp"

namespace omnilink::history {

const std::vector<OpRef>& ValueIndex::users(const std::string& value) const {
  if (!built_) {
    for (std::uint32_t t = 0; t < problem_.threads.size(); ++t)
      for (std::uint32_t i = 0; i < problem_.threads[t].size(); ++i)
        for (const trace::Value* field : problem_.threads[t][i].args)
          if (field != nullptr) users_[trace::to_tla(*field)].emplace_back(t, i);
    built_ = true;
  }
  static const std::vector<OpRef> none;
  const auto found = users_.find(value);
  return found == users_.end() ? none : found->second;
}

const std::vector<OpRef>* ValueIndex::identifying(const std::string& value) const {
  if (value == "TRUE" || value == "FALSE") return nullptr;
  const std::vector<OpRef>& ops = users(value);
  return ops.empty() || ops.size() > kIdentifyingUses ? nullptr : &ops;
}

std::vector<std::string> ValueIndex::logged(const OpRef& op) const {
  std::vector<std::string> values;
  for (const trace::Value* field : problem_.threads[op.first][op.second].args)
    if (field != nullptr) values.push_back(trace::to_tla(*field));
  return values;
}

}  // namespace omnilink::history
