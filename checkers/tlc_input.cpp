#include "checkers/tlc_input.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>

#include <omnilink/run_meta.hpp>


namespace omnilink::checkers {
namespace {

constexpr std::int64_t kTlcMax = std::numeric_limits<std::int32_t>::max();

// True if the value needs the tagged encoding: TLC's JSON reader has no sets, and its objects
// have string keys only.
bool needs_tags(const trace::Value& v) {
  return std::visit(
      [](const auto& x) -> bool {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, trace::Set>) {
          return true;
        } else if constexpr (std::is_same_v<T, trace::Tuple>) {
          return std::any_of(x.items.begin(), x.items.end(), needs_tags);
        } else if constexpr (std::is_same_v<T, trace::Map>) {
          return std::any_of(x.entries.begin(), x.entries.end(),
                             [](const trace::MapEntry& e) { return !e.key.is<std::string>() || needs_tags(e.value); });
        } else {
          return false;
        }
      },
      v.data);
}

// The first integer in `v` outside TLC's 32-bit range, if any.
std::optional<std::int64_t> wide_integer(const trace::Value& v) {
  return std::visit(
      [](const auto& x) -> std::optional<std::int64_t> {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::int64_t>) {
          if (x < std::numeric_limits<std::int32_t>::min() || x > kTlcMax) return x;
        } else if constexpr (std::is_same_v<T, trace::Tuple> || std::is_same_v<T, trace::Set>) {
          for (const auto& item : x.items)
            if (auto w = wide_integer(item)) return w;
        } else if constexpr (std::is_same_v<T, trace::Map>) {
          for (const auto& e : x.entries) {
            if (auto w = wide_integer(e.key)) return w;
            if (auto w = wide_integer(e.value)) return w;
          }
        }
        return std::nullopt;
      },
      v.data);
}

// Values as JSON. Their integers fit TLC's (write_tlc_input checked).
class JsonValueWriter {
 public:
  explicit JsonValueWriter(std::string& out) : out_(out) {}

  void plain(const trace::Value& v) {
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, bool>) {
            out_ += x ? "true" : "false";
          } else if constexpr (std::is_same_v<T, std::int64_t>) {
            out_ += std::to_string(x);
          } else if constexpr (std::is_same_v<T, std::string>) {
            out_ += json_quote(x);
          } else if constexpr (std::is_same_v<T, trace::Tuple>) {
            out_ += '[';
            for (std::size_t k = 0; k < x.items.size(); ++k) out_ += k ? "," : "", plain(x.items[k]);
            out_ += ']';
          } else if constexpr (std::is_same_v<T, trace::Map>) {  // string keys only (see needs_tags)
            out_ += '{';
            for (std::size_t k = 0; k < x.entries.size(); ++k) {
              out_ += k ? "," : "";
              out_ += json_quote(x.entries[k].key.template as<std::string>()) + ":";
              plain(x.entries[k].value);
            }
            out_ += '}';
          }
        },
        v.data);
  }

  void tagged(const trace::Value& v) {
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, bool>) {
            out_ += x ? "[\"b\",true]" : "[\"b\",false]";
          } else if constexpr (std::is_same_v<T, std::int64_t>) {
            out_ += "[\"i\"," + std::to_string(x) + "]";
          } else if constexpr (std::is_same_v<T, std::string>) {
            out_ += "[\"s\"," + json_quote(x) + "]";
          } else if constexpr (std::is_same_v<T, trace::Tuple> || std::is_same_v<T, trace::Set>) {
            out_ += std::is_same_v<T, trace::Set> ? "[\"S\",[" : "[\"t\",[";
            for (std::size_t k = 0; k < x.items.size(); ++k) out_ += k ? "," : "", tagged(x.items[k]);
            out_ += "]]";
          } else {
            out_ += "[\"m\",[";
            for (std::size_t k = 0; k < x.entries.size(); ++k) {
              out_ += k ? ",[" : "[";
              tagged(x.entries[k].key);
              out_ += ',';
              tagged(x.entries[k].value);
              out_ += ']';
            }
            out_ += "]]";
          }
        },
        v.data);
  }

 private:
  std::string& out_;
};

}  // namespace

std::optional<std::string> unrepresentable_in_tlc(const history::Problem& problem) {
  for (const auto& ops : problem.threads)
    for (const history::ProblemOp& p : ops) {
      const trace::Operation& op = *p.op;
      const std::string& file = problem.history.file;
      const std::string where = (file.empty() ? "" : file + ":" + std::to_string(op.offset) + ": ") + history::operation_name(op);
      // OmniLinkTrace.tla has no optional operations: only the native checker answers a core's question.
      if (p.optional) return where + " is optional, which TLC's encoding of a history cannot say";
      for (const auto& [name, value] : op.fields)
        if (const auto wide = wide_integer(value))
          return where + "'s field '" + name + "' holds " + std::to_string(*wide) + ", outside TLC's 32-bit integers";
    }
  return std::nullopt;
}

void write_tlc_input(const history::Problem& problem, const std::filesystem::path& data_file) {
  if (const auto what = unrepresentable_in_tlc(problem)) throw history::ValidationError("TLC cannot check this history: " + *what);
  const history::History& history = problem.history;

  // Dense ranks: only the order of timestamps matters, and ranks fit TLC's integers.
  std::vector<std::uint64_t> stamps;
  for (const auto& ops : history.threads)
    for (const auto& op : ops) {
      stamps.push_back(op.start);
      if (!op.pending()) stamps.push_back(op.end);
    }
  std::sort(stamps.begin(), stamps.end());
  stamps.erase(std::unique(stamps.begin(), stamps.end()), stamps.end());
  if (stamps.size() + 1 > static_cast<std::size_t>(kTlcMax)) throw history::ValidationError("too many distinct timestamps for TLC");
  auto rank = [&](std::uint64_t t) { return std::lower_bound(stamps.begin(), stamps.end(), t) - stamps.begin() + 1; };
  const auto after_everything = static_cast<std::int64_t>(stamps.size()) + 1;

  std::ofstream out(data_file, std::ios::trunc);
  if (!out) throw history::ValidationError("cannot write " + data_file.string());
  std::string header = "{\"format\":\"omnilink-validation-data\",\"version\":2,\"threads\":" +
                       std::to_string(history.threads.size()) + ",\"operations\":{";
  bool first = true;
  for (const auto& [name, p] : problem.params) {
    header += (first ? "" : ",") + json_quote(name) + ":[";
    for (std::size_t k = 0; k < p.names.size(); ++k) header += (k ? "," : "") + json_quote(p.names[k]);
    header += "]";
    first = false;
  }
  header += "},\"domains\":{";
  first = true;
  for (const auto& [name, slots] : problem.domains) {
    header += (first ? "" : ",") + json_quote(name) + ":[";
    for (std::size_t k = 0; k < slots.size(); ++k) {
      header += k ? ",[" : "[";
      if (slots[k] && slots[k]->boolean) {
        header += "[\"b\",true],[\"b\",false]";
      } else if (slots[k] && !slots[k]->defined) {
        JsonValueWriter writer(header);
        for (std::size_t v = 0; v < slots[k]->values.size(); ++v) {
          if (v) header += ',';
          writer.tagged(slots[k]->values[v]);
        }
      }
      header += "]";
    }
    header += "]";
    first = false;
  }
  out << header << "}}\n";

  std::string line;
  for (const auto& ops : problem.threads) {
    line = "[";
    for (std::size_t k = 0; k < ops.size(); ++k) {
      const trace::Operation& op = *ops[k].op;
      line += k ? ",{" : "{";
      line += "\"n\":" + json_quote(op.name) + ",\"i\":" + std::to_string(op.index) + ",\"s\":" + std::to_string(rank(op.start));
      line += ",\"e\":" + std::to_string(op.pending() ? after_everything : rank(op.end)) + ",\"x\":" + (op.pending() ? "1" : "0");
      // Arguments in parameter order; a pending operation's unknown ones are placeholders (FALSE)
      // that the search never reads, and "k" lists the known positions.
      static const trace::Value placeholder = false;
      std::vector<const trace::Value*> args;
      std::string known;
      for (std::size_t a = 0; a < ops[k].args.size(); ++a) {
        if (op.pending() && ops[k].args[a] != nullptr) known += (known.empty() ? "" : ",") + std::to_string(a + 1);
        args.push_back(ops[k].args[a] != nullptr ? ops[k].args[a] : &placeholder);
      }
      if (op.pending()) line += ",\"k\":[" + known + "]";
      const bool tags = std::any_of(args.begin(), args.end(), [](const trace::Value* v) { return needs_tags(*v); });
      line += tags ? ",\"d\":true,\"a\":[" : ",\"a\":[";
      for (std::size_t a = 0; a < args.size(); ++a) {
        JsonValueWriter writer(line);
        if (a) line += ',';
        tags ? writer.tagged(*args[a]) : writer.plain(*args[a]);
      }
      line += "]}";
    }
    line += "]\n";
    out << line;
  }
  if (!out.flush()) throw history::ValidationError("cannot write " + data_file.string());
}

}  // namespace omnilink::checkers
