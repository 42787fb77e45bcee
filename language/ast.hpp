// The abstract syntax of the TLA+ that omnilink evaluates: modules, definitions, instances and
// expressions, built from the tree-sitter parse (syntax.hpp) and bound to their meaning by the
// loader (modules.hpp). A parsed module stays as it was read: the loader binds copies of its
// definitions (clone()), one per scope it is used in (the module itself, each INSTANCE of it).
// Constructs the embedded checker does not evaluate (docs/validation.md, "What the embedded
// checker does not evaluate") become `Unsupported` nodes naming the construct, so a spec that never
// evaluates them still loads, and one that does is refused when it is loaded, at file:line:col.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "language/value.hpp"

namespace omnilink::language {

struct SourcePos {
  const std::string* file = nullptr;  // interned: see intern_file_name
  std::uint32_t line = 0, column = 0;  // 1-based
  std::string text() const;           // file:line:col
  /// The source from here to the end of its line, without a `\*` comment, trimmed ("" if the file
  /// cannot be read): how a report quotes the construct.
  std::string excerpt() const;
};

/// The file name a SourcePos points to, kept for the life of the process.
const std::string* intern_file_name(const std::string& file);

/// Operators with a fixed meaning in the fragment: TLA+'s own, and the standard modules'
/// (Naturals, Integers, Sequences, FiniteSets, TLC) when the module extends them.
enum class Builtin : std::uint8_t {
  None,
  // Logic and sets.
  And, Or, Not, Implies, Equiv, Eq, Neq, In, NotIn, Cup, Cap, SetMinus, Subseteq, Subset, Union, Domain, Times,
  // Integers.
  Plus, Minus, Negate, Mul, Div, Mod, Pow, Lt, Leq, Gt, Geq, Range, Nat, Int,
  // Sequences.
  Seq, Len, Append, Head, Tail, Concat, SubSeq, SelectSeq,
  // FiniteSets.
  Cardinality, IsFiniteSet,
  // TLC.
  MapsTo, Compose, Assert, ToString, Print, PrintT, Permutations, SortSeq, TLCEval,
  // OmniLinkTrace, for MC modules: every value logged for an operation's field.
  OmniLinkFieldValues,
  // Actions: A \cdot B, action composition.
  Cdot,
};

struct Expr;
struct Definition;
using ExprPtr = std::unique_ptr<Expr>;

/// A bound name (quantifier variable, operator parameter, function-constructor argument). Each
/// binder is unique, so an environment is searched by identity, not by spelling.
struct Symbol {
  std::string name;
  SourcePos pos;
  std::size_t arity = 0;  // an operator parameter F(_, _) takes operators of this many arguments
};

/// `x \in S` or `<<a, b>> \in S` in a quantifier, set constructor, CHOOSE or function constructor.
struct Bound {
  std::vector<std::unique_ptr<Symbol>> names;
  bool tuple = false;  // <<a, b>> \in S
  ExprPtr set;         // null for an unbounded CHOOSE x : P
};

enum class ExprKind : std::uint8_t {
  Literal,      // value
  Name,         // text: an identifier, resolved by the loader into one of the Ref* kinds below
  RefVariable,  // index: a state variable (unprimed)
  RefPrimed,    // index: a state variable, primed (x')
  RefBound,     // symbol
  RefDefinition,  // definition, kids: arguments
  RefBuiltin,     // builtin, kids: arguments
  Apply,        // text: name applied to kids (resolved into RefDefinition, RefBuiltin or RefOperatorParam);
                // `via` non-empty: I!Op(kids) through instances
  RefOperatorParam,  // symbol (an operator parameter), kids: arguments
  Lambda,       // definitions[0]: LAMBDA x, y : e as an anonymous definition
  OperatorArg,  // an operator passed as an argument (text: its name); resolved into definition,
                // symbol or builtin; kids: the instance parameters given through `via`
  Conj, Disj,   // kids (junction lists and /\, \/ chains)
  If,           // kids: condition, then, else
  Case,         // kids: guard, arm, guard, arm, ... [, other when has_other]
  Let,          // definitions: local ones; kids[0]: the body
  Exists, Forall,  // bounds, kids[0]: the body
  Choose,       // bounds (one), kids[0]: the predicate
  SetEnum,      // kids
  SetFilter,    // bounds (one), kids[0]: the predicate
  SetMap,       // bounds, kids[0]: the expression
  FcnConstruct,  // bounds, kids[0]: the body
  FcnApply,     // kids[0]: the function, kids[1..]: the arguments (several make a tuple)
  Tuple,        // kids
  Record,       // fields, kids: the values
  RecordSet,    // fields, kids: the sets
  FunctionSet,  // kids: domain, range
  Field,        // kids[0].text
  Except,       // kids[0]: the function; updates
  At,           // @ inside EXCEPT
  Unchanged,    // kids[0]: a variable or a tuple of them
  Prime,        // kids[0]: an expression other than a variable, evaluated in the next state
  Enabled,      // kids[0]: an action; whether it has a successor from the current state
  Unsupported,  // text: what the construct is
};

/// `I!` or `J(1, 2)!` in a reference through a named instance.
struct InstanceStep {
  std::string name;
  std::vector<std::unique_ptr<struct Expr>> args;
  SourcePos pos;
};

/// `![a][b].f = v` in an EXCEPT: a path of function arguments (expressions) and fields.
struct ExceptUpdate {
  struct Step {
    ExprPtr argument;   // ![a]
    std::string field;  // !.f (when argument is null)
    Value field_key;    // field as a string value, set by the loader (not built at every step)
  };
  std::vector<Step> path;
  ExprPtr value;
};

struct Expr {
  ExprKind kind = ExprKind::Unsupported;
  SourcePos pos;
  std::string text;
  Value value;                 // Literal; Field: text as a string value, set by the loader
  std::vector<ExprPtr> kids;
  std::vector<Bound> bounds;
  std::vector<std::string> fields;
  std::vector<ExceptUpdate> updates;
  std::vector<std::unique_ptr<Definition>> definitions;  // Let, Lambda
  std::vector<InstanceStep> via;  // Apply, OperatorArg: I!J(2)!Op
  bool has_other = false;      // Case

  // Set by the loader.
  std::size_t index = 0;               // RefVariable, RefPrimed
  const Symbol* symbol = nullptr;      // RefBound
  const Definition* definition = nullptr;  // RefDefinition
  // Record: its field names as string values, sorted, and where each field (in kids' order) goes
  // among them, so that an evaluation neither builds the names nor sorts them.
  std::vector<Value> field_keys;
  std::vector<std::size_t> field_slots;
  Builtin builtin = Builtin::None;     // RefBuiltin
};

/// `Name(params) == body`, `f[x \in S] == body` (a function definition), or a CONSTANT.
/// RECURSIVE declarations need no mark: binding allows any definition to refer to any other.
/// An operator written as a symbol (`a ++ b == ...`) is named by the symbol's token, as
/// operator_symbol_name gives it, so that its synonyms (`\oplus`, `(+)`) name it too.
struct Definition {
  std::string name;
  SourcePos pos;
  std::vector<std::unique_ptr<Symbol>> params;
  ExprPtr body;
  std::vector<Bound> function_bounds;  // a function definition f[x \in S] == ...
  bool local = false;                  // LOCAL: not seen by a module that extends or instantiates this one
  /// The Apalache-style `@type:` comment just before the definition ("(Int, Str) => Bool"), which
  /// gen-hpp and the pending-operation domains read.
  std::optional<std::string> type_annotation;
  /// The `@inputs:` comment just before it ("elem, key"): the parameters a harness sets before the
  /// call, which gen-hpp declares as the operation's omnilink_inputs.
  std::optional<std::string> inputs_annotation;
  /// The `@groups:` comment just before the next-state relation ("txn"): the parameter whose value
  /// makes operations one unit, a transaction, which explanations keep whole.
  std::optional<std::string> groups_annotation;
  /// The `@guarantee:` comment just before a rule ("isolation"): the guarantee of the spec the rule
  /// is one facet of, by which a run that breaks it is signed (explain/broken_rules.hpp, findings/).
  std::optional<std::string> guarantee_annotation;

  // Set by the loader.
  /// A definition of an instance `I(p, q) == INSTANCE M`: its first parameters are p, q, which
  /// the loader puts before the definition's own (I(1, 2)!Op(x) calls Op with 1, 2, x).
  std::size_t instance_params = 0;
  bool resolved = false;
  bool uses_state = false;  // refers to a variable, directly or through another definition
  bool in_let = false;      // a LET definition: may use the enclosing bound names, so never cached
  /// A LET definition without parameters whose value is fixed by the names bound where it is
  /// written and the current state: it reads no primed variable (nor UNCHANGED, ENABLED) and calls
  /// no operator parameter, here or through what it refers to. The evaluator then evaluates it at
  /// most once per evaluation of its LET, as TLC does, instead of at every reference.
  bool once_per_let = false;
  bool constant = false;    // a CONSTANT of the module (its value is substituted or a model value)
  /// The first construct its evaluation would need that the embedded checker does not evaluate
  /// (file:line:col: what), here or in a definition it uses; empty if none. Such a definition is
  /// refused when something asks to evaluate it, and can still be read for its structure.
  std::string unsupported;
};

/// `I(p) == INSTANCE M WITH c <- e, ...`, or an unnamed `INSTANCE M ...` (name empty).
struct InstanceDecl {
  std::string name;
  std::vector<std::unique_ptr<Symbol>> params;
  std::string module;
  std::vector<std::pair<std::string, ExprPtr>> substitutions;  // c <- e
  bool local = false;
  SourcePos pos;
};

struct Declared {
  std::string name;
  SourcePos pos;
  std::size_t arity = 0;  // CONSTANT F(_, _)
};

struct Module {
  std::string file;  // the path it was read from (or the name of a module built into omnilink)
  std::string name;
  SourcePos pos;     // the module header
  std::vector<std::pair<std::string, SourcePos>> extends;
  std::vector<Declared> constants;
  std::vector<Declared> variables;
  std::vector<std::unique_ptr<Definition>> definitions;  // in order
  std::vector<InstanceDecl> instances;
  /// Modules nested in this one, and those that follow it in its file: each visible to this
  /// module by name, before a file of that name.
  std::vector<std::unique_ptr<Module>> inner;
};

/// Calls `f` on `e` and on every expression within it, in the order written: its kids, bound
/// sets, EXCEPT paths and values, and its local definitions' (LET, LAMBDA) bodies and bound sets.
/// Not into the definitions it refers to: a caller that follows them keeps its own visited set.
void for_each_subexpression(const Expr& e, const std::function<void(const Expr&)>& f);

/// The definition (or constant) a bound expression node names itself, if it is such a reference;
/// not those within it.
const Definition* referenced_definition(const Expr& e);

/// The definitions (and constants) a bound expression refers to, into `out` in the order written,
/// with those of its LETs, LAMBDAs, bound sets and EXCEPT paths.
void references(const Expr& e, std::vector<const Definition*>& out);

/// Adds to `reached` every definition `pending` holds and every one they reach through what their
/// bodies and bound sets refer to. Those already in `reached` are not followed again, so a caller
/// can grow one set over several calls.
void reach_definitions(std::vector<const Definition*> pending, std::set<const Definition*>& reached);

/// Deep copies, for binding one parsed definition in several scopes. Only unbound trees are
/// copied (the loader binds copies, never the parse).
ExprPtr clone(const Expr& e);
std::unique_ptr<Definition> clone(const Definition& d);

/// The name a definition of an operator symbol has: `$` and the grammar's token for it
/// ("$plusplus" for ++), so that it never meets an identifier.
std::string operator_symbol_name(const std::string& token);

/// The standard operator an infix (arity 2) or prefix (arity 1) symbol token stands for
/// ("plus": Plus), or None for a symbol only a module can define.
Builtin builtin_of_symbol(const std::string& token, std::size_t arity);

}  // namespace omnilink::language
