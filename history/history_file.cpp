#include "history/history_file.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>

#include <nlohmann/json.hpp>

#include "platform/printable_text.hpp"

namespace omnilink::history {
namespace {

using nlohmann::json;

/// One line's position, for errors.
struct Where {
  std::string file;
  std::size_t line = 0;
  std::string text(const std::string& what) const { return file + ":" + std::to_string(line) + ": " + what; }
};

/// How deep a value may nest: deeper is an error, not a stack overflow in whatever recurses over
/// it later (conversion, printing, the checkers).
constexpr std::size_t kMaxNesting = 1000;

/// A line's JSON value, built through nlohmann's public SAX interface with what the format adds:
/// a key given twice in one object is an error (a DOM keeps one of them silently), and so is
/// nesting past kMaxNesting. A handler of our own rather than a parse callback, which costs a
/// std::function call and a copy of the key at every event: reading was most of a small
/// history's validation.
class LineBuilder final : public nlohmann::json_sax<json> {
 public:
  LineBuilder(json& line, const Where& at) : line_(line), at_(at) {}

  bool null() override { return put(nullptr); }
  bool boolean(bool value) override { return put(value); }
  bool number_integer(number_integer_t value) override { return put(value); }
  bool number_unsigned(number_unsigned_t value) override { return put(value); }
  bool number_float(number_float_t value, const string_t&) override { return put(value); }
  bool string(string_t& value) override { return put(std::move(value)); }
  bool binary(binary_t& value) override { return put(json::binary(std::move(value))); }

  bool start_object(std::size_t) override {
    open(json::object());
    return true;
  }
  bool key(string_t& key) override {
    // The open object holds every key given so far (each is entered as it is read).
    json& object = *open_.back();
    if (object.contains(key)) throw HistoryError(at_.text("the key \"" + key + "\" is given twice in one object"));
    element_ = &object[key];
    return true;
  }
  bool end_object() override {
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    open(json::array());
    return true;
  }
  bool end_array() override {
    open_.pop_back();
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& error) override {
    // nlohmann's message: "[json.exception.parse_error.101] parse error at line 1, column 7: ..."
    const std::string what = platform::printable_text(error.what());  // it quotes the bytes it read
    const auto column = what.find("column ");
    throw HistoryError(at_.text("invalid JSON" + (column == std::string::npos ? ": " + what : " at " + what.substr(column))));
  }

 private:
  // Where a value goes: the line itself, the end of the open array, or the open object's key.
  json* place(json&& value) {
    if (open_.empty()) {
      line_ = std::move(value);
      return &line_;
    }
    if (open_.back()->is_array()) {
      open_.back()->push_back(std::move(value));
      return &open_.back()->back();  // stable: nothing more joins this array while it is open
    }
    *element_ = std::move(value);
    return element_;
  }
  bool put(json&& value) {
    place(std::move(value));
    return true;
  }
  void open(json&& container) {
    if (open_.size() >= kMaxNesting + 2)  // the line and its fields object come first
      throw HistoryError(at_.text("a value nested more than " + std::to_string(kMaxNesting) + " deep"));
    open_.push_back(place(std::move(container)));
  }

  json& line_;
  const Where& at_;
  std::vector<json*> open_;  // the open arrays and objects, outermost first
  json* element_ = nullptr;  // the open object's value for its last key
};

/// One line as a JSON object: invalid JSON names its column, and LineBuilder's errors.
json parse_line(const std::string& text, const Where& at) {
  json line;
  LineBuilder builder(line, at);
  json::sax_parse(text, &builder);
  if (!line.is_object()) throw HistoryError(at.text("not a JSON object: each line is one {...}"));
  return line;
}

/// No control characters (a NUL would cut the name short wherever it is printed).
bool printable(const std::string& name) {
  return std::none_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// A set's elements or a function's keys are of one kind: TLC cannot compare an integer with a
// string (or a set with a sequence), so such a value is an error of the file, said where it is,
// not later of the spec.
void check_one_kind(const std::vector<trace::Value>& values, const Where& at, const std::string& path, const char* what) {
  static constexpr const char* kKinds[] = {"a boolean", "an integer", "a string", "a sequence", "a set", "a function"};
  for (const trace::Value& value : values)
    if (value.data.index() != values.front().data.index())
      throw HistoryError(at.text(path + ": " + what + " of different kinds (" + kKinds[values.front().data.index()] + ", " +
                                 trace::to_tla(values.front()) + ", and " + kKinds[value.data.index()] + ", " + trace::to_tla(value) +
                                 "), which TLC cannot compare"));
}

trace::Value to_trace_value(const json& v, const Where& at, const std::string& path) {
  if (v.is_boolean()) return trace::Value(v.get<bool>());
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw HistoryError(at.text(path + ": the integer " + v.dump() + " is too large"));
    return trace::Value(v.get<std::int64_t>());
  }
  if (v.is_string()) return trace::Value(v.get<std::string>());
  if (v.is_array()) {
    trace::Tuple t;
    for (std::size_t k = 0; k < v.size(); ++k) t.items.push_back(to_trace_value(v[k], at, path + "[" + std::to_string(k) + "]"));
    return trace::Value(std::move(t));
  }
  if (v.is_object()) {
    // {"$set": [...]} is a set; {"$map": [[k, v], ...]} a function with any keys; other objects
    // are records (functions on strings), whose keys never start with $: a misspelt or misshapen
    // tag is an error, not a record.
    for (const auto& [key, value] : v.items()) {
      if (!key.starts_with("$")) continue;
      if (key != "$set" && key != "$map")
        throw HistoryError(at.text(path + "." + key + ": a key starting with $ is {\"$set\": [...]} or {\"$map\": [[key, value], ...]}"));
      if (v.size() != 1) throw HistoryError(at.text(path + ": " + key + " is the object's only key"));
      if (!value.is_array())
        throw HistoryError(at.text(path + "." + key + ": " + (key == "$set" ? "a list of elements" : "a list of [key, value] pairs") +
                                   ", not " + std::string(value.type_name())));
    }
    if (v.contains("$set")) {
      trace::Set s;
      for (const auto& item : v["$set"]) s.items.push_back(to_trace_value(item, at, path + ".$set"));
      check_one_kind(s.items, at, path + ".$set", "elements");
      return trace::Value(std::move(s));
    }
    trace::Map m;
    if (v.contains("$map")) {
      std::vector<trace::Value> keys;
      for (const auto& pair : v["$map"]) {
        if (!pair.is_array() || pair.size() != 2) throw HistoryError(at.text(path + ".$map: each entry is [key, value]"));
        m.entries.push_back({to_trace_value(pair[0], at, path + ".$map"), to_trace_value(pair[1], at, path + ".$map")});
        keys.push_back(m.entries.back().key);
      }
      check_one_kind(keys, at, path + ".$map", "keys");
      std::sort(keys.begin(), keys.end());
      if (const auto twice = std::adjacent_find(keys.begin(), keys.end()); twice != keys.end())
        throw HistoryError(at.text(path + ".$map: the key " + trace::to_tla(*twice) + " is given twice (a function maps each key once)"));
      return trace::Value(std::move(m));
    }
    for (const auto& [key, value] : v.items()) m.entries.push_back({trace::Value(key), to_trace_value(value, at, path + "." + key)});
    return trace::Value(std::move(m));
  }
  throw HistoryError(at.text(path + ": " + std::string(v.type_name()) + " is not a value (booleans, integers, strings, arrays, objects)"));
}

std::uint64_t timestamp(const json& v, const char* key, const Where& at) {
  if (!v.is_number_unsigned()) throw HistoryError(at.text(std::string(key) + ": a non-negative integer, not " + v.dump()));
  return v.get<std::uint64_t>();
}

json to_json_value(const trace::Value& v) {
  return std::visit(
      [](const auto& x) -> json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, trace::Tuple>) {
          json items = json::array();
          for (const auto& i : x.items) items.push_back(to_json_value(i));
          return items;
        } else if constexpr (std::is_same_v<T, trace::Set>) {
          json items = json::array();
          for (const auto& i : x.items) items.push_back(to_json_value(i));
          return json{{"$set", items}};
        } else if constexpr (std::is_same_v<T, trace::Map>) {
          // A record where every key is a string that cannot be read as a tag; else {"$map": ...}.
          const bool record = std::all_of(x.entries.begin(), x.entries.end(), [](const auto& e) {
            return e.key.template is<std::string>() && !e.key.template as<std::string>().starts_with("$");
          });
          if (record) {
            json fields = json::object();
            for (const auto& e : x.entries) fields[e.key.template as<std::string>()] = to_json_value(e.value);
            return fields;
          }
          json pairs = json::array();
          for (const auto& e : x.entries) pairs.push_back(json::array({to_json_value(e.key), to_json_value(e.value)}));
          return json{{"$map", pairs}};
        } else {
          return json(x);
        }
      },
      v.data);
}

}  // namespace

void write_history_file(const std::filesystem::path& path, const History& history) {
  std::vector<const trace::Operation*> ops;
  bool any_optional = false, any_group = false;
  for (const auto& thread : history.threads)
    for (const auto& op : thread) {
      ops.push_back(&op);
      any_optional = any_optional || op.optional;
      any_group = any_group || (op.optional && op.optional_group != 0);
    }
  // The earliest version that says all: a file without optional operations stays readable by an
  // omnilink from before version 2, one without groups by one from before version 3.
  json header{{"format", kHistoryFormat}, {"version", any_group ? 3 : any_optional ? 2 : 1}};
  if (!history.inputs.empty()) header["inputs"] = history.inputs;
  // By start: each thread's operations stay in its order (they are sequential), and processes are
  // numbered as the reader numbers them, by first appearance.
  std::stable_sort(ops.begin(), ops.end(), [](const trace::Operation* a, const trace::Operation* b) { return a->start < b->start; });
  std::ofstream out(path, std::ios::trunc);
  out << header.dump() << "\n";
  for (const trace::Operation* op : ops) {
    json fields = json::object();
    for (const auto& [name, value] : op->fields) fields[name] = to_json_value(value);
    json line{{"process", op->thread}, {"op", op->name}, {"fields", fields}, {"start", op->start}};
    if (!op->pending()) line["end"] = op->end;
    line["outcome"] = op->pending() ? "pending" : op->optional ? "optional" : "ok";
    if (op->optional && op->optional_group != 0) line["group"] = op->optional_group;
    out << line.dump() << "\n";
  }
  out.flush();
  if (!out) throw HistoryError(path.string() + ": cannot write the history file");
}

bool is_history_file(const std::filesystem::path& path) { return std::filesystem::is_regular_file(path); }

History read_run_or_history_file(const std::filesystem::path& path) {
  return is_history_file(path) ? read_history_file(path) : read_history(trace::RunDir::open(path));
}

History read_history_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw HistoryError(path.string() + ": cannot read the history file");
  Where at{path.string(), 0};
  History history;
  history.clock = "history file";
  history.file = path.string();
  std::map<std::string, std::string> rename;
  std::map<std::string, std::uint32_t> threads;  // process -> thread, by first appearance
  std::map<std::uint64_t, std::uint32_t> group_process;  // optional group -> its thread
  std::string text;
  bool header = false;
  int file_version = 0;
  while (std::getline(in, text)) {
    ++at.line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json line = parse_line(text, at);
    if (!header) {
      if (!line.contains("format") || line["format"] != kHistoryFormat)
        throw HistoryError(at.text("the first line must be the header {\"format\": \"" + std::string(kHistoryFormat) + "\", \"version\": 1}"));
      // Exactly the integer: true, 1.0 and "1" are not versions.
      const json version = line.value("version", json());
      if (!version.is_number_integer() || version.get<std::int64_t>() < 1 || version.get<std::int64_t>() > kHistoryVersion)
        throw HistoryError(at.text("history format version " + version.dump() + " is not supported (this omnilink reads 1 to " +
                                   std::to_string(kHistoryVersion) + ", an integer)"));
      file_version = version.get<int>();
      for (const auto& [key, value] : line.items())
        if (key != "format" && key != "version" && key != "rename" && key != "inputs")
          throw HistoryError(at.text("unknown header field '" + key + "' (format, version, rename, inputs)"));
      if (line.contains("rename")) {
        if (!line["rename"].is_object()) throw HistoryError(at.text("rename: an object {\"logged name\": \"SpecAction\"}"));
        for (const auto& [from, to] : line["rename"].items()) {
          if (!to.is_string() || !printable(from) || !printable(to.get<std::string>()))
            throw HistoryError(at.text("rename: a logged name and a spec action's name (printable characters)"));
          rename[from] = to.get<std::string>();
        }
      }
      if (line.contains("inputs")) {
        if (!line["inputs"].is_object()) throw HistoryError(at.text("inputs: an object {\"Op\": [\"field\", ...]}"));
        for (const auto& [op, fields] : line["inputs"].items()) {
          if (!fields.is_array()) throw HistoryError(at.text("inputs." + op + ": a list of field names"));
          auto& declared = history.inputs[rename.count(op) ? rename[op] : op];
          for (const auto& f : fields) {
            if (!f.is_string()) throw HistoryError(at.text("inputs." + op + ": a list of field names"));
            declared.push_back(f.get<std::string>());
          }
        }
      }
      header = true;
      continue;
    }
    // The line's fields in one pass: each lookup in the object's map would compare strings again.
    const json *process_field = nullptr, *op_field = nullptr, *start = nullptr, *end = nullptr, *outcome_field = nullptr,
               *group = nullptr, *fields = nullptr;
    for (const auto& [key, value] : line.items()) {
      const json** slot = key == "process"   ? &process_field
                          : key == "op"      ? &op_field
                          : key == "start"   ? &start
                          : key == "end"     ? &end
                          : key == "outcome" ? &outcome_field
                          : key == "fields"  ? &fields
                          : key == "group" && file_version >= 3 ? &group
                                                                : nullptr;
      if (slot == nullptr)
        throw HistoryError(at.text("unknown field '" + key + "' (process, op, fields, start, end, outcome" + (file_version < 3 ? "; group needs version 3)" : ", group)")));
      *slot = &value;
    }
    for (const auto& [key, field] : {std::pair{"process", process_field}, {"op", op_field}, {"start", start}, {"outcome", outcome_field}})
      if (field == nullptr) throw HistoryError(at.text(std::string("'") + key + "' is missing"));
    const json& process = *process_field;
    if (!process.is_string() && !process.is_number_integer()) throw HistoryError(at.text("process: a string or an integer"));
    if (!op_field->is_string() || !printable(op_field->get_ref<const std::string&>()))
      throw HistoryError(at.text("op: the operation's name (printable characters)"));
    if (process.is_string() && !printable(process.get_ref<const std::string&>())) throw HistoryError(at.text("process: printable characters"));
    const std::string outcome = outcome_field->is_string() ? outcome_field->get<std::string>() : "";
    if (outcome != "ok" && outcome != "failed" && outcome != "pending" && (outcome != "optional" || file_version < 2))
      throw HistoryError(at.text(std::string("outcome: \"ok\", \"failed\" (failed without effect)") +
                                 (file_version < 2 ? " or \"pending\" (outcome unknown); \"optional\" needs version 2"
                                                   : ", \"pending\" (outcome unknown) or \"optional\" (completed if it took effect at all)")));

    trace::Operation op;
    const std::string& logged = op_field->get_ref<const std::string&>();
    const auto renamed = rename.find(logged);
    op.name = renamed != rename.end() ? renamed->second : logged;
    op.start = timestamp(*start, "start", at);
    op.offset = at.line;
    if (outcome == "pending") {
      if (end != nullptr && !end->is_null()) throw HistoryError(at.text("a pending operation has no end"));
      op.kind = trace::RecordKind::pending;
      op.inputs_known = true;
    } else {
      if (end == nullptr) throw HistoryError(at.text("'end' is missing"));
      op.end = timestamp(*end, "end", at);
      if (op.end < op.start) throw HistoryError(at.text("end " + std::to_string(op.end) + " is before start " + std::to_string(op.start)));
      op.failed = outcome == "failed";
      op.optional = outcome == "optional";
    }
    if (group != nullptr) {
      if (!op.optional || !group->is_number_unsigned() || group->get<std::uint64_t>() == 0)
        throw HistoryError(at.text("group: a positive integer, on an \"optional\" operation (those of one group are taken all or none)"));
      op.optional_group = group->get<std::uint64_t>();
    }
    if (fields != nullptr) {
      if (!fields->is_object()) throw HistoryError(at.text("fields: an object {\"name\": value}"));
      for (const auto& [name, value] : fields->items()) op.fields.emplace_back(name, to_trace_value(value, at, "fields." + name));
    }
    const std::string process_key = process.is_string() ? "s" + process.get<std::string>() : "i" + process.dump();
    const auto [it, added] = threads.emplace(process_key, static_cast<std::uint32_t>(threads.size()));
    if (added) history.threads.emplace_back();
    auto& ops = history.threads[it->second];
    op.thread = it->second;
    op.index = ops.size();
    if (!ops.empty()) {
      const trace::Operation& previous = ops.back();
      if (previous.pending())
        throw HistoryError(at.text("process " + process.dump() + " has an operation after its pending one (a pending operation is its process's last)"));
      if (op.start <= previous.end)
        throw HistoryError(at.text("process " + process.dump() + ": this operation starts at " + std::to_string(op.start) +
                                   ", not after its previous one ended (" + std::to_string(previous.end) + "); a process's operations are sequential, in order"));
    }
    // A group is one run of lines of one process: taken all or none, it is left out in one step
    // where its first operation could be taken (checkers/search_space.hpp).
    if (op.optional_group != 0) {
      const auto [first, added_group] = group_process.emplace(op.optional_group, it->second);
      const bool continues = !ops.empty() && ops.back().optional_group == op.optional_group;
      if (first->second != it->second || (!added_group && !continues))
        throw HistoryError(at.text("group " + std::to_string(op.optional_group) +
                                   ": its operations must be consecutive lines of one process (taken all or none)"));
    }
    if (op.failed) ++history.dropped_failed;
    ops.push_back(std::move(op));  // a failed one too, for now: its process's order is checked against it
  }
  if (!header) throw HistoryError(path.string() + ": empty: no header line");
  // Failed operations changed nothing: left out, as in a run (indexes keep counting them, so an
  // operation's id is its place among its process's lines).
  for (auto& ops : history.threads) std::erase_if(ops, [](const trace::Operation& o) { return o.failed; });
  add_pending_caveat(history);
  return history;
}

}  // namespace omnilink::history
