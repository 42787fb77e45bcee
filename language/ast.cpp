#include "language/ast.hpp"

#include <span>

namespace omnilink::language {

namespace {

std::unique_ptr<Symbol> clone(const Symbol& s) { return std::make_unique<Symbol>(s); }

Bound clone(const Bound& b) {
  Bound out;
  for (const auto& n : b.names) out.names.push_back(clone(*n));
  out.tuple = b.tuple;
  if (b.set) out.set = clone(*b.set);
  return out;
}

}  // namespace

void for_each_subexpression(const Expr& e, const std::function<void(const Expr&)>& f) {
  f(e);
  for (const auto& k : e.kids) for_each_subexpression(*k, f);
  for (const auto& b : e.bounds)
    if (b.set) for_each_subexpression(*b.set, f);
  for (const auto& u : e.updates) {
    for (const auto& s : u.path)
      if (s.argument) for_each_subexpression(*s.argument, f);
    for_each_subexpression(*u.value, f);
  }
  for (const auto& d : e.definitions) {
    if (d->body) for_each_subexpression(*d->body, f);
    for (const auto& b : d->function_bounds)
      if (b.set) for_each_subexpression(*b.set, f);
  }
}

const Definition* referenced_definition(const Expr& e) {
  return e.kind == ExprKind::RefDefinition || e.kind == ExprKind::OperatorArg ? e.definition : nullptr;
}

void references(const Expr& e, std::vector<const Definition*>& out) {
  for_each_subexpression(e, [&](const Expr& x) {
    if (const Definition* d = referenced_definition(x)) out.push_back(d);
  });
}

void reach_definitions(std::vector<const Definition*> pending, std::set<const Definition*>& reached) {
  while (!pending.empty()) {
    const Definition* d = pending.back();
    pending.pop_back();
    if (!reached.insert(d).second) continue;
    if (d->body) references(*d->body, pending);
    for (const auto& b : d->function_bounds)
      if (b.set) references(*b.set, pending);
  }
}

ExprPtr clone(const Expr& e) {
  auto out = std::make_unique<Expr>();
  out->kind = e.kind;
  out->pos = e.pos;
  out->text = e.text;
  out->value = e.value;
  for (const auto& k : e.kids) out->kids.push_back(clone(*k));
  for (const auto& b : e.bounds) out->bounds.push_back(clone(b));
  out->fields = e.fields;
  for (const auto& u : e.updates) {
    ExceptUpdate copy;
    for (const auto& step : u.path) copy.path.push_back({step.argument ? clone(*step.argument) : nullptr, step.field, step.field_key});
    copy.value = clone(*u.value);
    out->updates.push_back(std::move(copy));
  }
  for (const auto& d : e.definitions) out->definitions.push_back(clone(*d));
  for (const auto& step : e.via) {
    InstanceStep copy{step.name, {}, step.pos};
    for (const auto& a : step.args) copy.args.push_back(clone(*a));
    out->via.push_back(std::move(copy));
  }
  out->has_other = e.has_other;
  out->index = e.index;
  out->builtin = e.builtin;
  out->field_keys = e.field_keys;
  out->field_slots = e.field_slots;
  return out;
}

std::unique_ptr<Definition> clone(const Definition& d) {
  auto out = std::make_unique<Definition>();
  out->name = d.name;
  out->pos = d.pos;
  for (const auto& p : d.params) out->params.push_back(clone(*p));
  if (d.body) out->body = clone(*d.body);
  for (const auto& b : d.function_bounds) out->function_bounds.push_back(clone(b));
  out->local = d.local;
  out->type_annotation = d.type_annotation;
  out->inputs_annotation = d.inputs_annotation;
  out->groups_annotation = d.groups_annotation;
  out->guarantee_annotation = d.guarantee_annotation;
  out->constant = d.constant;
  return out;
}

std::string operator_symbol_name(const std::string& token) { return "$" + token; }

Builtin builtin_of_symbol(const std::string& token, std::size_t arity) {
  static const std::pair<const char*, Builtin> kInfix[] = {
      {"implies", Builtin::Implies}, {"equiv", Builtin::Equiv}, {"iff", Builtin::Equiv}, {"eq", Builtin::Eq},
      {"neq", Builtin::Neq}, {"in", Builtin::In}, {"notin", Builtin::NotIn}, {"cup", Builtin::Cup}, {"cap", Builtin::Cap},
      {"setminus", Builtin::SetMinus}, {"subseteq", Builtin::Subseteq}, {"plus", Builtin::Plus}, {"minus", Builtin::Minus},
      {"mul", Builtin::Mul}, {"div", Builtin::Div}, {"mod", Builtin::Mod}, {"pow", Builtin::Pow}, {"lt", Builtin::Lt},
      {"leq", Builtin::Leq}, {"gt", Builtin::Gt}, {"geq", Builtin::Geq}, {"dots_2", Builtin::Range},
      {"circ", Builtin::Concat}, {"map_to", Builtin::MapsTo}, {"compose", Builtin::Compose}, {"times", Builtin::Times},
      {"land", Builtin::And}, {"lor", Builtin::Or}, {"cdot", Builtin::Cdot}};
  static const std::pair<const char*, Builtin> kPrefix[] = {
      {"lnot", Builtin::Not}, {"negative", Builtin::Negate}, {"powerset", Builtin::Subset}, {"union", Builtin::Union},
      {"domain", Builtin::Domain}};
  using Table = std::span<const std::pair<const char*, Builtin>>;
  for (const auto& [name, builtin] : arity == 1 ? Table(kPrefix) : Table(kInfix))
    if (token == name) return builtin;
  return Builtin::None;
}

}  // namespace omnilink::language
