#include "language/syntax.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

#include <tree_sitter/api.h>

#include "language/grammar_parse.hpp"
#include "language/parse_cache.hpp"
#include "platform/printable_text.hpp"
#include "platform/special_file.hpp"

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

// The children of `n` in order (only the named ones if asked), read with a cursor:
// ts_node_child(n, k) walks the (balanced) list of children from its start at each call, which
// made reading a set of a million elements quadratic.
std::vector<TSNode> children_of(TSNode n, bool named_only) {
  std::vector<TSNode> out;
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      const TSNode child = ts_tree_cursor_current_node(&cursor);
      if (!named_only || ts_node_is_named(child)) out.push_back(child);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

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

  /// The first module of the file; the modules after it in the file become its inner modules.
  Module file_modules(TSNode root) {
    std::vector<TSNode> mods;
    for (TSNode c : named_children(root))
      if (std::strcmp(ts_node_type(c), "module") == 0) mods.push_back(c);
    if (mods.empty()) throw SyntaxError(*file_ + ":1:1: no MODULE in the file");
    Module first = module(mods[0]);
    for (std::size_t k = 1; k < mods.size(); ++k) first.inner.push_back(std::make_unique<Module>(module(mods[k])));
    return first;
  }

  Module module(TSNode mod) {
    Module m;
    m.file = *file_;
    m.pos = pos(mod);
    m.name = text_of(ts_node_child_by_field_name(mod, "name", 4));
    // Comments are units of their own in the tree: an `@type:`, `@inputs:`, `@groups:` or
    // `@guarantee:` one belongs to the definition after it.
    std::optional<std::string> type, inputs, groups, guarantee;
    const auto read_annotations = [&](TSNode comment) {
      if (auto a = annotation(text_of(comment), "@type:")) type = a;
      if (auto a = annotation(text_of(comment), "@inputs:")) inputs = a;
      if (auto a = annotation(text_of(comment), "@groups:")) groups = a;
      if (auto a = annotation(text_of(comment), "@guarantee:")) guarantee = a;
    };
    for (TSNode child : children_of(mod, true)) {
      if (is_comment(child)) {
        read_annotations(child);
        continue;
      }
      const std::size_t before = m.definitions.size();
      unit(child, m, false);
      if (m.definitions.size() == before + 1) {
        m.definitions.back()->type_annotation = type;
        m.definitions.back()->inputs_annotation = inputs;
        m.definitions.back()->groups_annotation = groups;
        m.definitions.back()->guarantee_annotation = guarantee;
      }
      type.reset();
      inputs.reset();
      groups.reset();
      guarantee.reset();
      // The grammar puts a comment that follows a junction list (`/\ UNCHANGED x` and then
      // `\* @type: ...;` before the next definition) inside that list: it still belongs to what
      // comes next.
      std::vector<TSNode> after;
      trailing_comments(child, after);
      for (TSNode comment : after) read_annotations(comment);
    }
    return m;
  }

  static bool is_comment(TSNode node) {
    const char* kind = ts_node_type(node);
    return std::strcmp(kind, "comment") == 0 || std::strcmp(kind, "block_comment") == 0;
  }

  // The comments a node's text ends with, nested at any depth, in the order they are written.
  // Every child counts, tokens too: a comment before a closing `)` does not end the text.
  static void trailing_comments(TSNode node, std::vector<TSNode>& out) {
    const std::vector<TSNode> children = children_of(node, false);
    std::size_t last = children.size();  // the last child that is not a comment
    while (last > 0 && is_comment(children[last - 1])) --last;
    if (last > 0) trailing_comments(children[last - 1], out);
    out.insert(out.end(), children.begin() + static_cast<std::ptrdiff_t>(last), children.end());
  }

  // What follows `tag` (`@type:`, `@inputs:`) in a comment, up to the `;` that ends it.
  static std::optional<std::string> annotation(const std::string& comment, const std::string& tag) {
    const auto at = comment.find(tag);
    if (at == std::string::npos) return std::nullopt;
    const auto end = comment.find(';', at);
    const std::size_t from = at + tag.size();
    std::string text;
    for (char c : comment.substr(from, end == std::string::npos ? std::string::npos : end - from)) {
      if (c == '\n' || c == '\r' || c == '\t') c = ' ';
      if (c == ' ' && (text.empty() || text.back() == ' ')) continue;
      text += c;
    }
    // A continuation line of a `\*` comment starts with `\*` again.
    for (std::size_t p; (p = text.find(" \\* ")) != std::string::npos;) text.erase(p, 3);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    if (text.empty() && tag != "@inputs:") return std::nullopt;  // `@inputs: ;` declares none
    return text;
  }

  // One unit of a module: a declaration, a definition, an instance or a nested module.
  void unit(TSNode child, Module& m, bool local) {
    const std::string type = ts_node_type(child);
    if (type == "extends") {
      for (TSNode e : named_children(child)) m.extends.emplace_back(text_of(e), pos(e));
    } else if (type == "constant_declaration") {
      for (TSNode c : named_children(child)) {
        if (std::strcmp(ts_node_type(c), "operator_declaration") == 0) m.constants.push_back(declared_operator(c));
        else m.constants.push_back({text_of(c), pos(c), 0});
      }
    } else if (type == "variable_declaration") {
      for (TSNode v : named_children(child)) m.variables.push_back({text_of(v), pos(v), 0});
    } else if (type == "operator_definition" || type == "function_definition") {
      m.definitions.push_back(definition(child));
      m.definitions.back()->local = local;
    } else if (type == "local_definition") {
      for (TSNode d : named_children(child)) unit(d, m, true);
    } else if (type == "instance") {
      m.instances.push_back(instance(child, child));
      m.instances.back().local = local;
    } else if (type == "module_definition") {
      InstanceDecl decl = instance(field(child, "definition"), child);
      decl.name = text_of(field(child, "name"));
      for (TSNode p : field_children(child, "parameter")) {
        if (std::strcmp(ts_node_type(p), "operator_declaration") == 0)
          throw SyntaxError(pos(p).text() + ": an operator parameter of an instance (" + text_of(p) +
                            ") is outside what the embedded checker evaluates");
        decl.params.push_back(symbol(p));
      }
      decl.local = local;
      m.instances.push_back(std::move(decl));
    } else if (type == "module") {
      m.inner.push_back(std::make_unique<Module>(module(child)));
    }
    // RECURSIVE declarations, ASSUME, THEOREM, proofs, comments, separators: nothing to evaluate.
  }

  Declared declared_operator(TSNode n) const {
    Declared d{text_of(field(n, "name")), pos(n), field_children(n, "parameter").size()};
    TSNode name = field(n, "name");
    if (std::strcmp(ts_node_type(name), "identifier") != 0) {  // CONSTANT _ ++ _
      d.name = operator_symbol_name(ts_node_type(named_children(name).at(0)));
      d.arity = std::strcmp(ts_node_type(name), "infix_op_symbol") == 0 ? 2 : 1;
    }
    return d;
  }

  InstanceDecl instance(TSNode n, TSNode at) {
    InstanceDecl decl;
    decl.pos = pos(at);
    for (TSNode c : named_children(n)) {
      const std::string type = ts_node_type(c);
      if (type == "identifier_ref") {
        decl.module = text_of(c);
      } else if (type == "substitution") {
        std::vector<TSNode> parts = named_children(c);  // target, gets, expression
        TSNode target = parts.at(0);
        std::string name = std::strcmp(ts_node_type(target), "identifier_ref") == 0
                               ? text_of(target)
                               : operator_symbol_name(ts_node_type(named_children(target).at(0)));
        decl.substitutions.emplace_back(std::move(name), argument(parts.at(2)));
      }
    }
    return decl;
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
    std::vector<TSNode> out = children_of(n, true);
    std::erase_if(out, is_comment);
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
    const std::string name_type = ts_node_is_null(name) ? "" : ts_node_type(name);
    d->name = name_type.ends_with("_op_symbol") ? operator_symbol_name(ts_node_type(named_children(name).at(0))) : text_of(name);
    if (std::strcmp(ts_node_type(n), "function_definition") == 0) {
      for (TSNode c : named_children(n))
        if (std::strcmp(ts_node_type(c), "quantifier_bound") == 0) d->function_bounds.push_back(bound(c));
    } else {
      for (TSNode p : field_children(n, "parameter")) d->params.push_back(parameter(p));
    }
    d->body = expr(field(n, "definition"));
    return d;
  }

  // A parameter: a name, or an operator declaration F(_, _) (an operator parameter).
  std::unique_ptr<Symbol> parameter(TSNode p) const {
    if (std::strcmp(ts_node_type(p), "operator_declaration") != 0) return symbol(p);
    const Declared d = declared_operator(p);
    return std::make_unique<Symbol>(Symbol{d.name, d.pos, d.arity});
  }

  // An argument of an operator call or a substitution: an expression, a LAMBDA, or an operator
  // symbol passed as an operator (Op(+, 1)).
  ExprPtr argument(TSNode n) {
    const std::string type = ts_node_type(n);
    if (type == "lambda") {
      ExprPtr e = make(ExprKind::Lambda, n);
      auto d = std::make_unique<Definition>();
      d->name = "LAMBDA";
      d->pos = pos(n);
      std::vector<TSNode> parts = named_children(n);
      for (std::size_t k = 0; k + 1 < parts.size(); ++k)
        if (std::strcmp(ts_node_type(parts[k]), "identifier") == 0) d->params.push_back(symbol(parts[k]));
      d->body = expr(parts.back());
      e->definitions.push_back(std::move(d));
      return e;
    }
    if (type.ends_with("_op_symbol")) {
      ExprPtr e = make(ExprKind::OperatorArg, n, operator_symbol_name(ts_node_type(named_children(n).at(0))));
      e->index = type == "infix_op_symbol" ? 2 : 1;  // the symbol's arity, for a standard operator
      return e;
    }
    return expr(n);
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
      if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v))
        throw SyntaxError(at.text() + ": the number " + digits + " does not fit 64-bit integers");
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
    if (const Builtin builtin = builtin_of_symbol(symbol, 2); builtin != Builtin::None) {
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
    // Any other symbol: an operator the module (or one it extends) defines, a \prec b.
    ExprPtr e = make(ExprKind::Apply, n, operator_symbol_name(symbol));
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
    if (symbol == "enabled") {
      ExprPtr e = make(ExprKind::Enabled, n);
      e->kids.push_back(expr(rhs));
      return e;
    }
    if (symbol == "always" || symbol == "eventually") return unsupported(n, "a temporal formula (" + text_of(n) + ")");
    if (const Builtin builtin = builtin_of_symbol(symbol, 1); builtin != Builtin::None) {
      ExprPtr e = make(ExprKind::RefBuiltin, n, text_of(symbol_node));
      e->builtin = builtin;
      e->kids.push_back(expr(rhs));
      return e;
    }
    ExprPtr e = make(ExprKind::Apply, n, operator_symbol_name(symbol));
    e->kids.push_back(expr(rhs));
    return e;
  }

  // I!Op, J(2)!Op(x), I!N!+(a, b): a reference through named instances.
  ExprPtr prefixed(TSNode n) {
    std::vector<InstanceStep> via;
    for (TSNode c : named_children(field(n, "prefix"))) {
      std::vector<TSNode> parts = named_children(c);
      TSNode step = parts.empty() ? c : parts[0];
      const std::string type = ts_node_type(step);
      if (type == "identifier_ref") {
        via.push_back({text_of(step), {}, pos(step)});
      } else if (type == "bound_op") {
        InstanceStep s{text_of(field(step, "name")), {}, pos(step)};
        for (TSNode a : field_children(step, "parameter")) s.args.push_back(argument(a));
        via.push_back(std::move(s));
      } else {
        return unsupported(n, "a subexpression reference (" + text_of(n) + ")");
      }
    }
    TSNode op = field(n, "op");
    ExprPtr e;
    const std::string type = ts_node_type(op);
    if (type == "bound_op") {
      e = make(ExprKind::Apply, n, text_of(field(op, "name")));
      for (TSNode a : field_children(op, "parameter")) e->kids.push_back(argument(a));
    } else if (type == "bound_nonfix_op") {
      e = nonfix(op);
      if (e->kind != ExprKind::Apply) {  // I!+(a, b) where + is standard: the instance adds nothing
        e->pos = pos(n);
        return e;
      }
    } else {
      e = make(ExprKind::Apply, n, text_of(op));
    }
    e->pos = pos(n);
    e->via = std::move(via);
    return e;
  }

  // +(a, b), -.(a), a symbol applied in prefix form.
  ExprPtr nonfix(TSNode n) {
    TSNode symbol_node = field(n, "symbol");
    const std::string token = ts_node_type(named_children(symbol_node).at(0));
    std::vector<TSNode> args;
    for (TSNode c : expr_children(n))
      if (!ts_node_eq(c, symbol_node)) args.push_back(c);
    const Builtin builtin = builtin_of_symbol(token, args.size());
    ExprPtr e = builtin != Builtin::None ? make(ExprKind::RefBuiltin, n, text_of(symbol_node))
                                         : make(ExprKind::Apply, n, operator_symbol_name(token));
    e->builtin = builtin;
    if (builtin == Builtin::And || builtin == Builtin::Or) e->kind = builtin == Builtin::And ? ExprKind::Conj : ExprKind::Disj;
    for (TSNode a : args) e->kids.push_back(expr(a));
    return e;
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
          update.path.push_back({nullptr, text_of(named_children(step).at(0)), {}});
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
    // Converting, binding and evaluating each recurse once per level: a file must not drive them
    // past the stack.
    const ExpressionLevel level(depth_);
    if (level.too_deep())
      throw SyntaxError(pos(n).text() + ": expressions nested more than " + std::to_string(kMaxExpressionNesting) + " deep");
    return expr_node(n);
  }

 private:
  ExprPtr expr_node(TSNode n) {
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
    if (type == "string") return literal(n, Value::interned(string_literal(n)));
    if (type == "boolean") return literal(n, Value::boolean(text_of(n) == "TRUE"));
    if (type == "boolean_set") return literal(n, Value::set({Value::boolean(false), Value::boolean(true)}));
    if (type == "string_set") return literal(n, Value::strings());
    // Names, not values: Naturals' and Integers' definitions, which a configuration's Nat <- Other replaces.
    if (type == "nat_number_set") return make(ExprKind::Name, n, "Nat");
    if (type == "int_number_set") return make(ExprKind::Name, n, "Int");
    if (type == "bound_op") {
      ExprPtr e = make(ExprKind::Apply, n, text_of(field(n, "name")));
      for (TSNode p : field_children(n, "parameter")) e->kids.push_back(argument(p));
      return e;
    }
    if (type == "bound_infix_op") return infix(n);
    if (type == "bound_prefix_op") return prefix(n);
    if (type == "bound_postfix_op") {
      TSNode symbol = field(n, "symbol");
      const bool prime = std::strcmp(ts_node_type(symbol), "prime") == 0;
      ExprPtr e = prime ? make(ExprKind::Prime, n) : make(ExprKind::Apply, n, operator_symbol_name(ts_node_type(symbol)));
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
    if (type == "unbounded_quantification") {  // TLA+, which TLC refuses only when it evaluates one
      const std::string q = ts_node_type(field(n, "quantifier"));
      if (q != "exists" && q != "forall") return unsupported(n, "a temporal quantifier (" + text_of(field(n, "quantifier")) + ")");
      ExprPtr e = make(q == "exists" ? ExprKind::Exists : ExprKind::Forall, n);
      Bound b;
      bound_names(n, b);
      e->bounds.push_back(std::move(b));
      e->kids.push_back(expr(field(n, "expression")));
      return e;
    }
    if (type == "choose") {
      ExprPtr e = make(ExprKind::Choose, n);
      Bound b;
      bound_names(n, b);
      if (TSNode set = field(n, "set"); !ts_node_is_null(set)) b.set = expr(set);  // else CHOOSE x : P
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
    if (type == "label") return expr(field(n, "expression"));  // a name for proofs: no meaning to evaluate
    if (type == "lambda") return unsupported(n, "LAMBDA outside an operator's argument");
    if (type == "prefixed_op") return prefixed(n);
    if (type == "bound_nonfix_op") return nonfix(n);
    if (type == "subexpression") return unsupported(n, "a subexpression reference (" + text_of(n) + ")");
    if (type == "real_number" || type == "real_number_set") return unsupported(n, "real numbers");
    if (type == "step_expr_or_stutter" || type == "step_expr_no_stutter" || type == "fairness")
      return unsupported(n, "a temporal formula (" + text_of(n) + ")");
    return unsupported(n, "'" + text_of(n) + "' (" + type + ")");
  }

  const std::string& text_;
  const std::string* file_;
  int depth_ = 0;
};

// Finds the first innermost syntax error in the tree, for its position: an ERROR node that
// contains another is where the parser gave up recovering, often the whole module, so the inner
// one is nearer what is wrong. Iterative: a file can nest deeper than the stack.
bool find_error(TSNode root, TSNode& error) {
  if (!ts_node_has_error(root)) return false;
  TSNode n = root;
  for (;;) {
    if (ts_node_is_missing(n)) break;
    bool descended = false;
    for (TSNode child : children_of(n, false)) {
      if (ts_node_has_error(child) || is_error_node(child) || ts_node_is_missing(child)) {
        n = child;
        descended = true;
        break;
      }
    }
    if (!descended) break;
  }
  // An ERROR holding a whole module (its header, then the units that parsed): what is wrong starts
  // at the first child that is not a complete unit.
  static const char* const kUnits[] = {"extends", "constant_declaration", "variable_declaration", "operator_definition",
                                       "function_definition", "local_definition", "instance", "module_definition",
                                       "recursive_declaration", "assumption", "theorem", "comment", "block_comment",
                                       "single_line", "double_line", "module", "header_line"};
  if (const std::vector<TSNode> named = is_error_node(n) ? children_of(n, true) : std::vector<TSNode>{}; named.size() > 3) {
    for (std::size_t k = 2; k < named.size(); ++k) {  // after ---- and the module's name
      TSNode child = named[k];
      const char* type = ts_node_type(child);
      if (std::none_of(std::begin(kUnits), std::end(kUnits), [&](const char* u) { return std::strcmp(type, u) == 0; })) {
        n = child;
        break;
      }
    }
  }
  error = n;
  return true;
}

}  // namespace

namespace {

Module parse_text(const std::string& file, const std::string& text) {
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), tree_sitter_tlaplus()))
    throw SyntaxError(file + ": the TLA+ grammar does not match this tree-sitter runtime's version");
  if (const std::size_t bad = platform::invalid_utf8_at(text); bad != std::string::npos) {
    const std::size_t newline = bad == 0 ? std::string::npos : text.rfind('\n', bad - 1);
    const std::size_t column = newline == std::string::npos ? bad : bad - newline - 1;
    throw SyntaxError(file + ":" + std::to_string(1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n')) + ":" +
                      std::to_string(column + 1) + ": not UTF-8 text (byte " + platform::printable_text(text.substr(bad, 1)) + ")");
  }
  const GrammarParse parse = parse_with_columns(parser.get(), text);
  std::unique_ptr<TSTree, TreeDeleter> tree(parse.tree);
  if (tree == nullptr) throw SyntaxError(file + ": the parser stopped without a tree");
  TSNode root = ts_tree_root_node(tree.get());
  if (TSNode error; ts_node_has_error(root) && find_error(root, error)) {
    const TSPoint p = ts_node_start_point(error);
    std::string near = text.substr(ts_node_start_byte(error), std::min<std::uint32_t>(ts_node_end_byte(error) - ts_node_start_byte(error), 40));
    if (auto nl = near.find('\n'); nl != std::string::npos) near.resize(nl);
    throw SyntaxError(file + ":" + std::to_string(p.row + 1) + ":" + std::to_string(p.column + 1) + ": syntax error" +
                      (near.empty() ? "" : " near '" + near + "'"));
  }
  if (parse.cut_at != 0) {  // recovery ran away, and the text before it reads without error
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + parse.cut_at, '\n'));
    throw SyntaxError(file + ":" + std::to_string(line) + ":1: syntax error");
  }
  Converter converter(text, intern_file_name(file));
  return converter.file_modules(root);
}

}  // namespace

Module parse_module(const std::string& file, const std::string& text) {
  if (std::optional<Module> kept = cached_parse(file, text)) return std::move(*kept);
  Module parsed = parse_text(file, text);
  keep_parse(text, parsed);
  return parsed;
}

std::string grammar_description() { return "@tlaplus/tree-sitter-tlaplus " OMNILINK_TLAPLUS_GRAMMAR_VERSION; }

namespace {

std::uint64_t max_spec_bytes() {
  const char* env = std::getenv("OMNILINK_MAX_SPEC_BYTES");
  if (env == nullptr || *env == '\0') return kDefaultMaxSpecBytes;
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(env, env + std::strlen(env), n);
  if (ec != std::errc() || *end != '\0' || n == 0)
    throw SyntaxError(std::string("OMNILINK_MAX_SPEC_BYTES=") + env + ": not a positive number of bytes");
  return n;
}

}  // namespace

Module parse_module_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw SyntaxError(path + ": cannot read the file" + (ec ? ": " + ec.message() : ""));
  if (const auto special = platform::not_a_regular_file(path, "a spec file")) throw SyntaxError(path + ": " + *special);
  const std::uint64_t limit = max_spec_bytes();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SyntaxError(path + ": cannot read the file");
  // Read to one byte past the limit, whatever the file's size said (it may grow meanwhile).
  std::string text(static_cast<std::size_t>(std::min<std::uint64_t>(limit + 1, std::filesystem::file_size(path, ec) + 1)), '\0');
  std::size_t got = 0;
  while (in && got <= limit) {
    if (got == text.size()) text.resize(std::min<std::uint64_t>(limit + 1, text.size() * 2 + 4096));
    in.read(text.data() + got, static_cast<std::streamsize>(text.size() - got));
    got += static_cast<std::size_t>(in.gcount());
  }
  if (got > limit)
    throw SyntaxError(path + ": larger than " + std::to_string(limit) + " bytes, the most a spec file may be (OMNILINK_MAX_SPEC_BYTES raises it)");
  text.resize(got);
  return parse_module(path, text);
}

}  // namespace omnilink::language
