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

json tied_to_json(const std::vector<CoreRefusal::Tie>& ops) {
  json out = json::array();
  for (const CoreRefusal::Tie& t : ops) out.push_back({{"op", t.op}, {"linearized", t.linearized}});
  return out;
}

std::vector<CoreRefusal::Tie> read_tied(const Fields& f, const std::string& field) {
  std::vector<CoreRefusal::Tie> out;
  for (const Fields& t : f.objects(field, true)) out.push_back({t.text("op"), t.flag("linearized")});
  return out;
}

json location_to_json(const CodeLocation& l) { return {{"function", l.function}, {"file", l.file}, {"line", l.line}}; }

CodeLocation read_location(const Fields& f) { return {f.text("function"), f.text("file"), f.int32("line")}; }

json locations_to_json(const std::vector<CodeLocation>& list) {
  json out = json::array();
  for (const CodeLocation& l : list) out.push_back(location_to_json(l));
  return out;
}

std::vector<CodeLocation> read_locations(const Fields& f, const std::string& field) {
  std::vector<CodeLocation> out;
  for (const Fields& l : f.objects(field, true)) out.push_back(read_location(l));
  return out;
}

const char* step_kind(ScheduleStep::Kind kind) {
  switch (kind) {
    case ScheduleStep::Kind::start: return "start";
    case ScheduleStep::Kind::end: return "end";
    case ScheduleStep::Kind::switched_out: return "switched_out";
  }
  return "start";
}

json interleaving_to_json(const Interleaving& in) {
  json steps = json::array();
  for (const ScheduleStep& s : in.steps) {
    json step{{"kind", step_kind(s.kind)}, {"thread", s.thread}, {"op", s.op}, {"event", s.event}};
    if (s.kind == ScheduleStep::Kind::switched_out) {
      step["stopped_at"] = s.stopped_at;
      step["call"] = s.call;
      if (s.where) step["where"] = location_to_json(*s.where);
      step["callers"] = locations_to_json(s.callers);
      if (s.next_thread) step["next_thread"] = *s.next_thread;
    }
    steps.push_back(std::move(step));
  }
  json hints = json::array();
  for (const AtomicityHint& h : in.hints)
    hints.push_back({{"op", h.op}, {"op_name", h.op_name}, {"at", location_to_json(h.at)}, {"callers", locations_to_json(h.callers)},
                     {"between", h.between}, {"between_names", h.between_names}, {"switches", h.switches}});
  return {{"first_event", in.first_event}, {"last_event", in.last_event}, {"switches", in.switches}, {"located", in.located},
          {"steps", steps}, {"hints", hints}, {"note", in.note}};
}

Interleaving read_interleaving(const Fields& f) {
  Interleaving in;
  in.first_event = f.uint64("first_event");
  in.last_event = f.uint64("last_event");
  in.switches = f.uint64("switches");
  in.located = f.uint64("located");
  in.note = f.text("note");
  for (const Fields& s : f.objects("steps")) {
    ScheduleStep step;
    const std::string kind = s.text("kind");
    if (kind == "start") step.kind = ScheduleStep::Kind::start;
    else if (kind == "end") step.kind = ScheduleStep::Kind::end;
    else if (kind == "switched_out") step.kind = ScheduleStep::Kind::switched_out;
    else s.fail("kind", "'" + kind + "' is not start, end or switched_out");
    step.thread = s.uint32("thread");
    step.op = s.text("op");
    step.event = s.uint64("event");
    if (step.kind == ScheduleStep::Kind::switched_out) {
      step.stopped_at = s.text("stopped_at");
      step.call = s.text("call");
      if (s.has("where")) step.where = read_location(s.object("where"));
      step.callers = read_locations(s, "callers");
      step.next_thread = s.optional("next_thread", &Fields::uint32);
    }
    in.steps.push_back(std::move(step));
  }
  for (const Fields& h : f.objects("hints"))
    in.hints.push_back({h.text("op"), h.text("op_name"), read_location(h.object("at")), read_locations(h, "callers"), h.texts("between"),
                        h.texts("between_names"), h.value_or("switches", &Fields::uint64, std::uint64_t{1})});
  return in;
}

}  // namespace

const results::StoredOperation* Explanation::find(const std::string& id) const {
  for (const auto* list : {&core, &context})
    for (const results::StoredOperation& op : *list)
      if (op.id() == id) return &op;
  return nullptr;
}

bool Explanation::explains_validation_against(const std::string& validated_spec) const {
  return !spec.empty() && std::filesystem::path(spec).lexically_normal() == std::filesystem::absolute(validated_spec).lexically_normal();
}

json to_json(const Explanation& e) {
  const auto ops = [](const std::vector<results::StoredOperation>& list) {
    json out = json::array();
    for (const results::StoredOperation& op : list)
      out.push_back({{"thread", op.thread}, {"index", op.index}, {"name", op.name}, {"fields", pairs_to_json(op.fields)},
                     {"start", op.start.value()}, {"end", op.end.value()}});
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
  if (e.given) j["given"] = {{"before", e.given->before}, {"operations", e.given->operations}};
  if (e.refused) {
    const CoreRefusal& r = *e.refused;
    j["refused"] = {{"op", r.op}, {"action", r.action}, {"at", r.at}, {"conjunct", r.conjunct},
                    {"related", tied_to_json(r.related)}, {"unmatched", r.unmatched}};
    if (r.lost) j["refused"]["lost"] = {{"value", r.lost->value}, {"logged_by", tied_to_json(r.lost->logged_by)}};
    if (r.in_place) j["refused"]["in_place"] = {{"value", r.in_place->value}, {"logged_by", tied_to_json(r.in_place->logged_by)}};
  }
  j["broken_rules"] = json::array();
  for (const BrokenRule& rule : e.broken_rules) {
    json r{{"module", rule.module}, {"name", rule.name}, {"at", rule.at}};
    if (!rule.guarantee.empty()) r["guarantee"] = rule.guarantee;
    j["broken_rules"].push_back(std::move(r));
  }
  j["rules_ms"] = e.rules_ms;
  j["rules_unnamed"] = e.rules_unnamed;
  if (e.interleaving) j["interleaving"] = interleaving_to_json(*e.interleaving);
  if (!e.no_interleaving.empty()) j["no_interleaving"] = e.no_interleaving;
  return j;
}

Explanation parse_explanation(const json& j, const std::string& origin) {
  const Fields f(j, origin);
  if (f.text("format") != kExplanationFormat) f.fail("format", "not " + std::string(kExplanationFormat));
  Explanation e;
  e.version = f.int32("version");
  if (e.version < 1 || e.version > kExplanationVersion)
    f.fail("version", "version " + std::to_string(e.version) + "; this omnilink reads versions 1 to " + std::to_string(kExplanationVersion));
  e.run = f.text("run");
  e.spec = f.text("spec");
  e.mc = f.text("mc");
  e.spec_digest = f.text("spec_digest");
  e.clock = f.text("clock");
  e.run_operations = f.uint64("run_operations");
  e.part = f.text("part");
  const auto ops = [&](const std::string& field) {
    std::vector<results::StoredOperation> out;
    for (const Fields& op : f.objects(field))
      out.push_back({op.uint32("thread"), op.uint64("index"), op.text("name"), read_pairs(op, "fields"), op.uint64("start"), op.uint64("end"), false, false});
    return out;
  };
  e.core = ops("core");
  e.context = ops("context");
  e.core_file = f.text("core_file");
  e.minimal = f.flag("minimal");
  e.not_minimal = f.text("not_minimal");
  e.seed = f.text("seed");
  if (f.has("given")) {
    const Fields given = f.object("given");
    e.given = GivenPast{given.uint64("before"), given.uint64("operations")};
  }
  e.questions = f.uint64("questions");
  e.core_ms = f.int64("core_ms");
  e.linearized = f.int64("linearized");
  e.spec_variables = read_pairs(f, "spec_variables");
  if (f.has("refused")) {
    const Fields r = f.object("refused");
    CoreRefusal refused{r.text("op"), r.text("action"), r.text("at"), r.text("conjunct"), read_tied(r, "related"), r.texts("unmatched"), {}, {}};
    for (auto [field, value] : {std::pair{"lost", &refused.lost}, std::pair{"in_place", &refused.in_place}})
      if (r.has(field)) {
        const Fields held = r.object(field);
        *value = CoreRefusal::Held{held.text("value"), read_tied(held, "logged_by")};
      }
    e.refused = std::move(refused);
  }
  if (e.version >= 3)
    for (const Fields& rule : f.objects("broken_rules"))
      e.broken_rules.push_back({rule.text("module"), rule.text("name"), rule.text("at"), rule.has("guarantee") ? rule.text("guarantee") : ""});
  if (e.version >= 4) e.rules_ms = f.int64("rules_ms");
  if (e.version >= 5) e.rules_unnamed = f.text("rules_unnamed");
  if (f.has("interleaving")) e.interleaving = read_interleaving(f.object("interleaving"));
  if (f.has("no_interleaving")) e.no_interleaving = f.text("no_interleaving");
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
