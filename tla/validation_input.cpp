#include "tla/validation_input.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>

#include <omnilink/run_meta.hpp>

namespace omnilink::tla {
namespace {

constexpr std::int64_t kTlcMin = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kTlcMax = std::numeric_limits<std::int32_t>::max();

std::string op_id(const trace::Operation& op) {
  return "T" + std::to_string(op.thread) + "." + std::to_string(op.index) + " " + op.name;
}

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

class JsonValueWriter {
 public:
  JsonValueWriter(std::string& out, const std::string& where) : out_(out), where_(where) {}

  void plain(const trace::Value& v) {
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, bool>) {
            out_ += x ? "true" : "false";
          } else if constexpr (std::is_same_v<T, std::int64_t>) {
            integer(x);
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
            out_ += "[\"i\",";
            integer(x);
            out_ += ']';
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
  void integer(std::int64_t x) {
    if (x < kTlcMin || x > kTlcMax)
      throw ValidationError(where_ + ": the integer " + std::to_string(x) +
                            " does not fit TLC's 32-bit integers (TLC would wrap it silently)");
    out_ += std::to_string(x);
  }

  std::string& out_;
  const std::string& where_;
};

const OperationSpec* find_operation(const Spec& spec, const std::string& name) {
  for (const auto& op : spec.operations)
    if (op.name == name) return &op;
  return nullptr;
}

std::string known_operations(const Spec& spec) {
  std::string names;
  for (const auto& op : spec.operations) names += (names.empty() ? "" : ", ") + op.name;
  return names;
}

}  // namespace

ValidationInput write_validation_input(const trace::RunDir& run, const Spec& spec, const std::filesystem::path& data_file) {
  ValidationInput input;
  for (const auto& file : run.thread_files) {
    trace::ThreadTraceReader reader(file);
    std::vector<trace::Operation> ops;
    while (auto op = reader.next()) {
      if (op->failed) {
        ++input.dropped_failed;
        continue;
      }
      ops.push_back(std::move(*op));
    }
    if (const auto& err = reader.error()) {
      if (reader.header() && !reader.end() && err->message.starts_with("no end record")) {
        input.caveats.push_back(err->describe() + "; validated the operations before it");
      } else {
        throw CorruptTraceError("corrupt trace: " + err->describe());
      }
    }
    input.threads.push_back(std::move(ops));
  }
  if (input.threads.empty()) throw ValidationError(run.root.string() + ": the run has no thread files");

  // Dense ranks: only the order of timestamps matters, and ranks fit TLC's integers.
  std::vector<std::uint64_t> stamps;
  for (const auto& ops : input.threads)
    for (const auto& op : ops) {
      stamps.push_back(op.start);
      if (op.kind == trace::RecordKind::op) stamps.push_back(op.end);
    }
  std::sort(stamps.begin(), stamps.end());
  stamps.erase(std::unique(stamps.begin(), stamps.end()), stamps.end());
  if (stamps.size() + 1 > static_cast<std::size_t>(kTlcMax)) throw ValidationError("too many distinct timestamps for TLC");
  auto rank = [&](std::uint64_t t) { return std::lower_bound(stamps.begin(), stamps.end(), t) - stamps.begin() + 1; };
  const auto after_everything = static_cast<std::int64_t>(stamps.size()) + 1;

  std::map<std::string, std::vector<std::string>> schema;
  for (const auto& op : spec.operations) schema[op.name] = op.params;

  std::ofstream out(data_file, std::ios::trunc);
  if (!out) throw ValidationError("cannot write " + data_file.string());
  std::string header = "{\"format\":\"omnilink-validation-data\",\"version\":1,\"threads\":" +
                       std::to_string(input.threads.size()) + ",\"operations\":{";
  bool first = true;
  for (const auto& [name, params] : schema) {
    header += (first ? "" : ",") + json_quote(name) + ":[";
    for (std::size_t k = 0; k < params.size(); ++k) header += (k ? "," : "") + json_quote(params[k]);
    header += "]";
    first = false;
  }
  out << header << "}}\n";

  std::string line;
  for (const auto& ops : input.threads) {
    line = "[";
    for (std::size_t k = 0; k < ops.size(); ++k) {
      const trace::Operation& op = ops[k];
      const std::string where = op_id(op);
      const OperationSpec* spec_op = find_operation(spec, op.name);
      if (spec_op == nullptr)
        throw ValidationError(where + ": the spec (" + spec.file + ") has no operation '" + op.name + "' (it has: " +
                              known_operations(spec) + ")");
      line += k ? ",{" : "{";
      line += "\"n\":" + json_quote(op.name) + ",\"i\":" + std::to_string(op.index) + ",\"s\":" + std::to_string(rank(op.start));
      if (op.kind == trace::RecordKind::abort) {
        ++input.aborted;
        line += ",\"e\":" + std::to_string(after_everything) + ",\"x\":2,\"a\":[]}";
        continue;
      }
      line += ",\"e\":" + std::to_string(rank(op.end)) + ",\"x\":0";
      for (const auto& [name, value] : op.fields)
        if (std::find(spec_op->params.begin(), spec_op->params.end(), name) == spec_op->params.end())
          throw ValidationError(where + ": field '" + name + "' is not a parameter of the spec's " + op.name);
      std::vector<const trace::Value*> args;
      for (const auto& param : spec_op->params) {
        const trace::Value* v = op.field(param);
        if (v == nullptr) throw ValidationError(where + ": no field '" + param + "' (a parameter of the spec's " + op.name + ")");
        args.push_back(v);
      }
      const bool tags = std::any_of(args.begin(), args.end(), [](const trace::Value* v) { return needs_tags(*v); });
      line += tags ? ",\"d\":true,\"a\":[" : ",\"a\":[";
      for (std::size_t a = 0; a < args.size(); ++a) {
        const std::string field_where = where + " field '" + spec_op->params[a] + "'";
        JsonValueWriter writer(line, field_where);
        if (a) line += ',';
        tags ? writer.tagged(*args[a]) : writer.plain(*args[a]);
      }
      line += "]}";
    }
    line += "]\n";
    out << line;
    input.operations += ops.size();
  }
  if (!out.flush()) throw ValidationError("cannot write " + data_file.string());
  if (input.aborted > 0)
    input.caveats.push_back(std::to_string(input.aborted) +
                            " aborted operation(s) (in flight when the harness died) may or may not have taken effect; "
                            "validation lets each be skipped, never performed (their results are unknown)");
  return input;
}

}  // namespace omnilink::tla
