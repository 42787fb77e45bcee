#include "language/syntax.hpp"

#include <cctype>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

#include <tree_sitter/api.h>

extern "C" const TSLanguage* tree_sitter_tlaplus(void);

namespace omnilink::language {

const std::string* intern_file_name(const std::string& file) {
  // Positions outlive the parse (errors found at load or evaluation time quote them), and a
  // process reads few files: keep each name once, for good.
  static std::mutex mutex;
  static std::set<std::string> names;
  std::lock_guard lock(mutex);
  return &*names.insert(file).first;
}

std::string SourcePos::text() const {
  return (file ? *file : std::string("?")) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::string SourcePos::excerpt() const {
  if (file == nullptr || line == 0 || column == 0) return "";
  std::ifstream in(*file);
  std::string text;
  for (std::uint32_t l = 0; l < line; ++l)
    if (!std::getline(in, text)) return "";
  if (column - 1 >= text.size()) return "";
  text.erase(0, column - 1);
  if (const auto comment = text.find("\\*"); comment != std::string::npos) text.erase(comment);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

namespace {

// tree-sitter 0.20 (Debian bookworm) has no ts_node_is_error.
bool is_error_node(TSNode n) { return std::strcmp(ts_node_type(n), "ERROR") == 0; }

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};

/// Converts one tree-sitter tree. Holds the source text and the module's file name, which every
/// SourcePos points to.
class Converter {
 public:
  Converter(const std::string& text, const std::string* file) : text_(text), file_(file) {}

  Module module(TSNode root) {
    TSNode mod = first_named(root, "module");
    if (ts_node_is_null(mod)) throw SyntaxError(*file_ + ":1:1: no MODULE in the file");
    Module m;
    m.name = text_of(ts_node_child_by_field_name(mod, "name", 4));
    for (TSNode child : named_children(mod)) {
      const std::string type = ts_node_type(child);
      if (type == "extends") {
        for (TSNode e : named_children(child)) m.extends.push_back(text_of(e));
      } else if (type == "constant_declaration") {
        for (TSNode c : named_children(child)) {
          if (std::strcmp(ts_node_type(c), "operator_declaration") == 0)
            throw SyntaxError(pos(c).text() + ": an operator CONSTANT (with parameters) is outside the fragment omnilink evaluates");
          m.constants.push_back(text_of(c));
        }
      } else if (type == "variable_declaration") {
        for (TSNode v : named_children(child)) m.variables.push_back(text_of(v));
      } else if (type == "operator_definition" || type == "function_definition") {
        m.definitions.push_back(definition(child));
      } else if (type == "local_definition") {
        for (TSNode d : named_children(child)) {
          const std::string inner = ts_node_type(d);
          if (inner == "operator_definition" || inner == "function_definition") m.definitions.push_back(definition(d));
          else m.definitions.push_back(unsupported_definition(d, "LOCAL " + inner));
        }
      } else if (type == "instance" || type == "module_definition") {
        m.definitions.push_back(unsupported_definition(child, type == "instance" ? "INSTANCE" : "a module definition (M == INSTANCE ...)"));
      } else if (type == "module") {
        throw SyntaxError(pos(child).text() + ": nested modules are outside the fragment omnilink evaluates");
      }
      // RECURSIVE declarations, ASSUME, THEOREM, proofs, comments, separators: nothing to evaluate.
    }
    return m;
  }

 private:
  std::string text_of(TSNode n) const {
    if (ts_node_is_null(n)) return "";
    return text_.substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
  }

  SourcePos pos(TSNode n) const {
    const TSPoint p = ts_node_start_point(n);
    return {file_, p.row + 1, p.column + 1};
  }

  // The named children, comments left out (the grammar puts them anywhere).
  static std::vector<TSNode> named_children(TSNode n) {
    std::vector<TSNode> out;
    const std::uint32_t count = ts_node_named_child_count(n);
    for (std::uint32_t k = 0; k < count; ++k) {
      TSNode c = ts_node_named_child(n, k);
      const char* t = ts_node_type(c);
      if (std::strcmp(t, "comment") != 0 && std::strcmp(t, "block_comment") != 0) out.push_back(c);
    }
    return out;
  }

  // The named children that are expressions (skipping tokens such as bullets, arrows, brackets).
  static std::vector<TSNode> expr_children(TSNode n) {
    static const char* const kTokens[] = {"bullet_conj", "bullet_disj", "case_arrow", "case_box", "langle_bracket", "rangle_bracket",
                                          "all_map_to", "maps_to", "set_in", "def_eq", "colon"};
    std::vector<TSNode> out;
    for (TSNode c : named_children(n)) {
      bool token = false;
      for (const char* t : kTokens) token = token || std::strcmp(ts_node_type(c), t) == 0;
      if (!token) out.push_back(c);
    }
    return out;
  }

  static TSNode first_named(TSNode n, const char* type) {
    for (TSNode c : named_children(n))
      if (std::strcmp(ts_node_type(c), type) == 0) return c;
    return TSNode{};
  }

  static std::vector<TSNode> field_children(TSNode n, const char* field) {
    std::vector<TSNode> out;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        const char* name = ts_tree_cursor_current_field_name(&cursor);
        if (name != nullptr && std::strcmp(name, field) == 0 && ts_node_is_named(ts_tree_cursor_current_node(&cursor)))
          out.push_back(ts_tree_cursor_current_node(&cursor));
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return out;
  }

  // The first named child in the field: a field may also hold tokens (EXCEPT's "!" is part of
  // update_specifier), which ts_node_child_by_field_name would return.
  static TSNode field(TSNode n, const char* name) {
    std::vector<TSNode> in_field = field_children(n, name);
    return in_field.empty() ? TSNode{} : in_field.front();
  }

  ExprPtr make(ExprKind kind, TSNode n, std::string text = "") const {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->pos = pos(n);
    e->text = std::move(text);
    return e;
  }

  ExprPtr unsupported(TSNode n, std::string what) const { return make(ExprKind::Unsupported, n, std::move(what)); }

  std::unique_ptr<Definition> unsupported_definition(TSNode n, std::string what) const {
    auto d = std::make_unique<Definition>();
    d->pos = pos(n);
    d->body = unsupported(n, std::move(what));
    return d;
  }

  std::unique_ptr<Symbol> symbol(TSNode n) const { return std::make_unique<Symbol>(Symbol{text_of(n), pos(n)}); }

  std::unique_ptr<Definition> definition(TSNode n) {
    auto d = std::make_unique<Definition>();
    d->pos = pos(n);
    TSNode name = field(n, "name");
    d->name = text_of(name);
    if (std::strcmp(ts_node_type(n), "function_definition") == 0) {
      for (TSNode c : named_children(n))
        if (std::strcmp(ts_node_type(c), "quantifier_bound") == 0) d->function_bounds.push_back(bound(c));
    } else {
      if (!ts_node_is_null(name) && std::strcmp(ts_node_type(name), "identifier") != 0) {
        d->body = unsupported(n, "a user-defined operator symbol (" + d->name + ")");
        return d;
      }
      for (TSNode p : field_children(n, "parameter")) {
        if (std::strcmp(ts_node_type(p), "operator_declaration") == 0) {
          d->body = unsupported(p, "a higher-order operator parameter (" + text_of(p) + ")");
          return d;
        }
        d->params.push_back(symbol(p));
      }
    }
    d->body = expr(field(n, "definition"));
    return d;
  }

  // The names a quantifier, CHOOSE or constructor introduces: `x, y` or `<<a, b>>`.
  void bound_names(TSNode n, Bound& b) {
    for (TSNode i : field_children(n, "intro")) {
      if (std::strcmp(ts_node_type(i), "tuple_of_identifiers") == 0) {
        b.tuple = true;
        for (TSNode id : named_children(i))
          if (std::strcmp(ts_node_type(id), "identifier") == 0) b.names.push_back(symbol(id));
      } else {
        b.names.push_back(symbol(i));
      }
    }
  }

  Bound bound(TSNode n) {
    Bound b;
    bound_names(n, b);
    b.set = expr(field(n, "set"));
    return b;
  }

  static std::int64_t parse_number(const std::string& digits, int base, SourcePos at) {
    std::int64_t v = 0;
    for (char c : digits) {
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
      if (d >= base) throw SyntaxError(at.text() + ": bad digit in the number " + digits);
      v = v * base + d;
      if (v > (std::int64_t{1} << 31)) throw SyntaxError(at.text() + ": the number " + digits + " does not fit TLC's 32-bit integers");
    }
    return v;
  }

  std::string string_literal(TSNode n) const {
    const std::string raw = text_of(n);
    std::string out;
    for (std::size_t k = 1; k + 1 < raw.size(); ++k) {
      if (raw[k] != '\\' || k + 2 >= raw.size()) {
        out += raw[k];
        continue;
      }
      const char c = raw[++k];
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c == 'f' ? '\f' : c;
    }
    return out;
  }

  ExprPtr literal(TSNode n, Value v) const {
    ExprPtr e = make(ExprKind::Literal, n);
    e->value = std::move(v);
    return e;
  }

  ExprPtr with_kids(ExprKind kind, TSNode n, const std::vector<TSNode>& kids, std::string text = "") {
    ExprPtr e = make(kind, n, std::move(text));
    for (TSNode k : kids) e->kids.push_back(expr(k));
    return e;
  }

  ExprPtr infix(TSNode n) {
    TSNode symbol_node = field(n, "symbol");
    const std::string symbol = ts_node_type(symbol_node);
    TSNode lhs = field(n, "lhs"), rhs = field(n, "rhs");
    if (symbol == "land" || symbol == "lor") {
      // Flatten chains a /\ b /\ c into one junction.
      ExprPtr e = make(symbol == "land" ? ExprKind::Conj : ExprKind::Disj, n);
      for (TSNode side : {lhs, rhs}) {
        ExprPtr part = expr(side);
        if (part->kind == e->kind && std::strcmp(ts_node_type(side), "bound_infix_op") == 0) {
          for (auto& k : part->kids) e->kids.push_back(std::move(k));
        } else {
          e->kids.push_back(std::move(part));
        }
      }
      return e;
    }
    static const std::pair<const char*, Builtin> kInfix[] = {
        {"implies", Builtin::Implies}, {"equiv", Builtin::Equiv}, {"iff", Builtin::Equiv}, {"eq", Builtin::Eq},
        {"neq", Builtin::Neq}, {"in", Builtin::In}, {"notin", Builtin::NotIn}, {"cup", Builtin::Cup}, {"cap", Builtin::Cap},
        {"setminus", Builtin::SetMinus}, {"subseteq", Builtin::Subseteq}, {"plus", Builtin::Plus}, {"minus", Builtin::Minus},
        {"mul", Builtin::Mul}, {"div", Builtin::Div}, {"mod", Builtin::Mod}, {"pow", Builtin::Pow}, {"lt", Builtin::Lt},
        {"leq", Builtin::Leq}, {"gt", Builtin::Gt}, {"geq", Builtin::Geq}, {"dots_2", Builtin::Range},
        {"circ", Builtin::Concat}, {"map_to", Builtin::MapsTo}, {"compose", Builtin::Compose}, {"times", Builtin::Times}};
    for (const auto& [name, builtin] : kInfix) {
      if (symbol != name) continue;
      ExprPtr e = make(ExprKind::RefBuiltin, n, text_of(symbol_node));
      e->builtin = builtin;
      if (builtin == Builtin::Times) {  // A \X B \X C is one product of three sets
        ExprPtr left = expr(lhs);
        if (left->kind == ExprKind::RefBuiltin && left->builtin == Builtin::Times && std::strcmp(ts_node_type(lhs), "bound_infix_op") == 0) {
          for (auto& k : left->kids) e->kids.push_back(std::move(k));
        } else {
          e->kids.push_back(std::move(left));
        }
        e->kids.push_back(expr(rhs));
        return e;
      }
      e->kids.push_back(expr(lhs));
      e->kids.push_back(expr(rhs));
      return e;
    }
    // Any other symbol: a user-defined infix operator, or outside the fragment (the loader says).
    ExprPtr e = make(ExprKind::Apply, n, text_of(symbol_node));
    e->kids.push_back(expr(lhs));
    e->kids.push_back(expr(rhs));
    return e;
  }

  ExprPtr prefix(TSNode n) {
    TSNode symbol_node = field(n, "symbol");
    const std::string symbol = ts_node_type(symbol_node);
    TSNode rhs = field(n, "rhs");
    if (symbol == "unchanged") {
      ExprPtr e = make(ExprKind::Unchanged, n);
      e->kids.push_back(expr(rhs));
      return e;
    }
    static const std::pair<const char*, Builtin> kPrefix[] = {
        {"lnot", Builtin::Not}, {"negative", Builtin::Negate}, {"powerset", Builtin::Subset}, {"union", Builtin::Union},
        {"domain", Builtin::Domain}};
    for (const auto& [name, builtin] : kPrefix) {
      if (symbol != name) continue;
      ExprPtr e = make(ExprKind::RefBuiltin, n, text_of(symbol_node));
      e->builtin = builtin;
      e->kids.push_back(expr(rhs));
      return e;
    }
    return unsupported(n, "the operator " + text_of(symbol_node));
  }

  ExprPtr junction(TSNode n, ExprKind kind) {
    ExprPtr e = make(kind, n);
    for (TSNode item : named_children(n))
      for (TSNode x : expr_children(item)) e->kids.push_back(expr(x));
    return e;
  }

  ExprPtr except(TSNode n) {
    ExprPtr e = make(ExprKind::Except, n);
    e->kids.push_back(expr(field(n, "expr_to_update")));
    for (TSNode u : named_children(n)) {
      if (std::strcmp(ts_node_type(u), "except_update") != 0) continue;
      ExceptUpdate update;
      for (TSNode step : named_children(field(u, "update_specifier"))) {
        if (std::strcmp(ts_node_type(step), "except_update_record_field") == 0) {
          update.path.push_back({nullptr, text_of(named_children(step).at(0))});
        } else {
          std::vector<TSNode> args = expr_children(step);
          ExceptUpdate::Step s;
          if (args.size() == 1) {
            s.argument = expr(args[0]);
          } else {  // ![a, b]: the tuple <<a, b>>
            s.argument = with_kids(ExprKind::Tuple, step, args);
          }
          update.path.push_back(std::move(s));
        }
      }
      update.value = expr(field(u, "new_val"));
      e->updates.push_back(std::move(update));
    }
    return e;
  }

 public:
  ExprPtr expr(TSNode n) {
    if (ts_node_is_null(n)) throw SyntaxError(*file_ + ": an expression is missing");
    const std::string type = ts_node_type(n);
    if (is_error_node(n) || ts_node_is_missing(n)) throw SyntaxError(pos(n).text() + ": syntax error");
    if (type == "parentheses") return expr(expr_children(n).at(0));
    if (type == "identifier_ref" || type == "identifier") return make(ExprKind::Name, n, text_of(n));
    if (type == "nat_number") return literal(n, Value::integer(parse_number(text_of(n), 10, pos(n))));
    if (type == "binary_number" || type == "octal_number" || type == "hex_number") {
      const int base = type == "binary_number" ? 2 : type == "octal_number" ? 8 : 16;
      return literal(n, Value::integer(parse_number(text_of(first_named(n, "value")), base, pos(n))));
    }
    if (type == "string") return literal(n, Value::string(string_literal(n)));
    if (type == "boolean") return literal(n, Value::boolean(text_of(n) == "TRUE"));
    if (type == "boolean_set") return literal(n, Value::set({Value::boolean(false), Value::boolean(true)}));
    if (type == "string_set") return literal(n, Value::strings());
    if (type == "nat_number_set") return literal(n, Value::nat());
    if (type == "int_number_set") return literal(n, Value::integers());
    if (type == "bound_op") {
      ExprPtr e = make(ExprKind::Apply, n, text_of(field(n, "name")));
      for (TSNode p : field_children(n, "parameter")) e->kids.push_back(expr(p));
      return e;
    }
    if (type == "bound_infix_op") return infix(n);
    if (type == "bound_prefix_op") return prefix(n);
    if (type == "bound_postfix_op") {
      TSNode symbol = field(n, "symbol");
      if (std::strcmp(ts_node_type(symbol), "prime") != 0) return unsupported(n, "the operator " + text_of(symbol));
      ExprPtr e = make(ExprKind::Prime, n);
      e->kids.push_back(expr(field(n, "lhs")));
      return e;
    }
    if (type == "conj_list") return junction(n, ExprKind::Conj);
    if (type == "disj_list") return junction(n, ExprKind::Disj);
    if (type == "if_then_else") {
      ExprPtr e = make(ExprKind::If, n);
      for (const char* f : {"if", "then", "else"}) e->kids.push_back(expr(field(n, f)));
      return e;
    }
    if (type == "case") {
      ExprPtr e = make(ExprKind::Case, n);
      for (TSNode arm : named_children(n)) {
        const std::string arm_type = ts_node_type(arm);
        if (arm_type == "case_arm") {
          for (TSNode x : expr_children(arm)) e->kids.push_back(expr(x));
        } else if (arm_type == "other_arm") {
          e->kids.push_back(expr(expr_children(arm).at(0)));
          e->has_other = true;
        }
      }
      return e;
    }
    if (type == "let_in") {
      ExprPtr e = make(ExprKind::Let, n);
      for (TSNode d : field_children(n, "definitions")) {
        const std::string d_type = ts_node_type(d);
        if (d_type == "operator_definition" || d_type == "function_definition") {
          e->definitions.push_back(definition(d));
        } else if (d_type != "recursive_declaration") {
          e->definitions.push_back(unsupported_definition(d, "a module definition in LET"));
        }
      }
      e->kids.push_back(expr(field(n, "expression")));
      return e;
    }
    if (type == "bounded_quantification") {
      const std::string q = ts_node_type(field(n, "quantifier"));
      ExprPtr e = make(q == "exists" ? ExprKind::Exists : ExprKind::Forall, n);
      for (TSNode b : field_children(n, "bound")) e->bounds.push_back(bound(b));
      e->kids.push_back(expr(field(n, "expression")));
      return e;
    }
    if (type == "unbounded_quantification")
      return unsupported(n, "an unbounded quantifier (" + text_of(field(n, "quantifier")) + " x : ...); bound it: \\E x \\in S : ...");
    if (type == "choose") {
      ExprPtr e = make(ExprKind::Choose, n);
      Bound b;
      bound_names(n, b);
      TSNode set = field(n, "set");
      if (ts_node_is_null(set)) return unsupported(n, "an unbounded CHOOSE (CHOOSE x : P); bound it: CHOOSE x \\in S : P");
      b.set = expr(set);
      e->bounds.push_back(std::move(b));
      e->kids.push_back(expr(field(n, "expression")));
      return e;
    }
    if (type == "finite_set_literal") return with_kids(ExprKind::SetEnum, n, expr_children(n));
    if (type == "tuple_literal") return with_kids(ExprKind::Tuple, n, expr_children(n));
    if (type == "set_filter") {
      ExprPtr e = make(ExprKind::SetFilter, n);
      e->bounds.push_back(bound(field(n, "generator")));
      e->kids.push_back(expr(field(n, "filter")));
      return e;
    }
    if (type == "set_map") {
      ExprPtr e = make(ExprKind::SetMap, n);
      for (TSNode g : field_children(n, "generator")) e->bounds.push_back(bound(g));
      e->kids.push_back(expr(field(n, "map")));
      return e;
    }
    if (type == "function_literal") {
      ExprPtr e = make(ExprKind::FcnConstruct, n);
      for (TSNode c : named_children(n)) {
        if (std::strcmp(ts_node_type(c), "quantifier_bound") == 0) e->bounds.push_back(bound(c));
      }
      std::vector<TSNode> body = expr_children(n);
      e->kids.push_back(expr(body.back()));
      return e;
    }
    if (type == "function_evaluation") return with_kids(ExprKind::FcnApply, n, expr_children(n));
    if (type == "record_literal" || type == "set_of_records") {
      ExprPtr e = make(type == "record_literal" ? ExprKind::Record : ExprKind::RecordSet, n);
      for (TSNode c : expr_children(n)) {
        if (std::strcmp(ts_node_type(c), "identifier") == 0) e->fields.push_back(text_of(c));
        else e->kids.push_back(expr(c));
      }
      return e;
    }
    if (type == "set_of_functions") return with_kids(ExprKind::FunctionSet, n, expr_children(n));
    if (type == "record_value") {
      std::vector<TSNode> parts = expr_children(n);
      ExprPtr e = make(ExprKind::Field, n, text_of(parts.at(1)));
      e->kids.push_back(expr(parts.at(0)));
      return e;
    }
    if (type == "except") return except(n);
    if (type == "prev_func_val") return make(ExprKind::At, n);
    if (type == "label") return unsupported(n, "a label (l:: e)");
    if (type == "lambda") return unsupported(n, "LAMBDA");
    if (type == "prefixed_op" || type == "subexpression") return unsupported(n, "a reference into an INSTANCE (" + text_of(n) + ")");
    if (type == "real_number" || type == "real_number_set") return unsupported(n, "real numbers");
    if (type == "step_expr_or_stutter" || type == "step_expr_no_stutter" || type == "fairness")
      return unsupported(n, "a temporal formula (" + text_of(n) + ")");
    return unsupported(n, "'" + text_of(n) + "' (" + type + ")");
  }

 private:
  const std::string& text_;
  const std::string* file_;
};

// Finds the first syntax error in the tree, for its position.
bool find_error(TSNode n, TSNode& error) {
  if (is_error_node(n) || ts_node_is_missing(n)) {
    error = n;
    return true;
  }
  if (!ts_node_has_error(n)) return false;
  const std::uint32_t count = ts_node_child_count(n);
  for (std::uint32_t k = 0; k < count; ++k)
    if (find_error(ts_node_child(n, k), error)) return true;
  error = n;
  return true;
}

}  // namespace

Module parse_module(const std::string& file, const std::string& text) {
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), tree_sitter_tlaplus()))
    throw SyntaxError(file + ": the TLA+ grammar does not match this tree-sitter runtime's version");
  std::unique_ptr<TSTree, TreeDeleter> tree(ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<std::uint32_t>(text.size())));
  TSNode root = ts_tree_root_node(tree.get());
  if (TSNode error; ts_node_has_error(root) && find_error(root, error)) {
    const TSPoint p = ts_node_start_point(error);
    std::string near = text.substr(ts_node_start_byte(error), std::min<std::uint32_t>(ts_node_end_byte(error) - ts_node_start_byte(error), 40));
    if (auto nl = near.find('\n'); nl != std::string::npos) near.resize(nl);
    throw SyntaxError(file + ":" + std::to_string(p.row + 1) + ":" + std::to_string(p.column + 1) + ": syntax error" +
                      (near.empty() ? "" : " near '" + near + "'"));
  }
  Converter converter(text, intern_file_name(file));
  Module parsed = converter.module(root);
  parsed.file = file;
  return parsed;
}

std::string grammar_description() { return "@tlaplus/tree-sitter-tlaplus " OMNILINK_TLAPLUS_GRAMMAR_VERSION; }

Module parse_module_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SyntaxError(path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_module(path, text.str());
}

}  // namespace omnilink::language
