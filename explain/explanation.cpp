#include "explain/explanation.hpp"

#include "platform/json_fields.hpp"
#include "platform/json_file.hpp"
#include "trace/reader.hpp"

namespace omnilink::explain {
namespace {

using nlohmann::json;
using Fields = platform::JsonFields<ExplanationFileError>;

// Name/value pairs keep their order as a list of [name, value]: a JSON object's would be lost.
json pairs_to_json(const std::vector<std::pair<std::string, std::string>>& pairs) {
  json out = json::array();
  for (const auto& [name, value] : pairs) out.push_back(json::array({name, value}));
  return out;
}

std::vector<std::pair<std::string, std::string>> read_pairs(const Fields& f, const std::string& field) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!f.has(field)) return out;
  const json& list = f.at(field);
  if (!list.is_array()) f.fail(field, "not a list of [name, value]");
  for (std::size_t k = 0; k < list.size(); ++k) {
    const json& pair = list[k];
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string())
      f.fail(field + "[" + std::to_string(k) + "]", "not [name, value] (two strings)");
    out.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
  }
  return out;
}

json tied_to_json(const std::vector<TiedOp>& ops) {
  json out = json::array();
  for (const TiedOp& t : ops) out.push_back({{"op", t.id}, {"linearized", t.linearized}});
  return out;
}

std::vector<TiedOp> read_tied(const Fields& f, const std::string& field) {
  std::vector<TiedOp> out;
  for (const Fields& t : f.objects(field, true)) out.push_back({t.text("op"), t.flag("linearized")});
  return out;
}

}  // namespace

std::string ExplainedOp::id() const { return trace::operation_id(thread, index); }

std::string ExplainedOp::call() const {
  std::string args;
  for (const auto& [field, value] : fields) args += (args.empty() ? "" : ", ") + field + " = " + value;
  return name + "(" + args + ")";
}

const ExplainedOp* Explanation::find(const std::string& id) const {
  for (const auto* list : {&core, &context})
    for (const ExplainedOp& op : *list)
      if (op.id() == id) return &op;
  return nullptr;
}

json to_json(const Explanation& e) {
  const auto ops = [](const std::vector<ExplainedOp>& list) {
    json out = json::array();
    for (const ExplainedOp& op : list)
      out.push_back({{"thread", op.thread}, {"index", op.index}, {"name", op.name}, {"fields", pairs_to_json(op.fields)},
                     {"start", op.start}, {"end", op.end}});
    return out;
  };
  json j{{"format", kExplanationFormat},
         {"version", kExplanationVersion},
         {"run", e.run},
         {"spec", e.spec},
         {"mc", e.mc},
         {"spec_digest", e.spec_digest},
         {"clock", e.clock},
         {"run_operations", e.run_operations},
         {"part", e.part},
         {"core", ops(e.core)},
         {"context", ops(e.context)},
         {"core_file", e.core_file},
         {"minimal", e.minimal},
         {"not_minimal", e.not_minimal},
         {"seed", e.seed},
         {"questions", e.questions},
         {"core_ms", e.core_ms},
         {"linearized", e.linearized},
         {"spec_variables", pairs_to_json(e.spec_variables)}};
  if (e.refused) {
    const CoreRefusal& r = *e.refused;
    j["refused"] = {{"op", r.op}, {"action", r.action}, {"at", r.at}, {"conjunct", r.conjunct},
                    {"related", tied_to_json(r.related)}, {"unmatched", r.unmatched}};
    if (r.lost) j["refused"]["lost"] = {{"value", *r.lost}, {"logged_by", tied_to_json(r.lost_logged_by)}};
    if (r.in_place) j["refused"]["in_place"] = {{"value", *r.in_place}, {"logged_by", tied_to_json(r.in_place_logged_by)}};
  }
  return j;
}

Explanation parse_explanation(const json& j, const std::string& origin) {
  const Fields f(j, origin);
  if (f.text("format") != kExplanationFormat) f.fail("format", "not " + std::string(kExplanationFormat));
  if (const int version = f.int32("version"); version != kExplanationVersion)
    f.fail("version", "version " + std::to_string(version) + "; this omnilink reads version " + std::to_string(kExplanationVersion));
  Explanation e;
  e.run = f.text("run");
  e.spec = f.text("spec");
  e.mc = f.text("mc");
  e.spec_digest = f.text("spec_digest");
  e.clock = f.text("clock");
  e.run_operations = f.uint64("run_operations");
  e.part = f.text("part");
  const auto ops = [&](const std::string& field) {
    std::vector<ExplainedOp> out;
    for (const Fields& op : f.objects(field))
      out.push_back({op.uint32("thread"), op.uint64("index"), op.text("name"), read_pairs(op, "fields"), op.uint64("start"), op.uint64("end")});
    return out;
  };
  e.core = ops("core");
  e.context = ops("context");
  e.core_file = f.text("core_file");
  e.minimal = f.flag("minimal");
  e.not_minimal = f.text("not_minimal");
  e.seed = f.text("seed");
  e.questions = f.uint64("questions");
  e.core_ms = f.int64("core_ms");
  e.linearized = f.int64("linearized");
  e.spec_variables = read_pairs(f, "spec_variables");
  if (f.has("refused")) {
    const Fields r = f.object("refused");
    CoreRefusal refused{r.text("op"), r.text("action"), r.text("at"), r.text("conjunct"), read_tied(r, "related"), r.texts("unmatched"), {}, {}, {}, {}};
    if (r.has("lost")) {
      const Fields lost = r.object("lost");
      refused.lost = lost.text("value");
      refused.lost_logged_by = read_tied(lost, "logged_by");
    }
    if (r.has("in_place")) {
      const Fields held = r.object("in_place");
      refused.in_place = held.text("value");
      refused.in_place_logged_by = read_tied(held, "logged_by");
    }
    e.refused = std::move(refused);
  }
  return e;
}

void write_explanation(const std::filesystem::path& dir, const Explanation& e) {
  platform::write_json_file<ExplanationFileError>(dir / "explanation.json", to_json(e));
}

std::optional<Explanation> read_explanation(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "explanation.json";
  const auto j = platform::read_json_file<ExplanationFileError>(file);
  if (!j) return std::nullopt;
  return parse_explanation(*j, file.string());
}

}  // namespace omnilink::explain
