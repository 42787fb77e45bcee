// The abstract syntax of the TLA+ that omnilink evaluates: modules, definitions and expressions,
// built from the tree-sitter parse (syntax.hpp) and bound to their meaning by the loader
// (modules.hpp). Constructs outside the fragment (docs/validation.md, "The embedded checker")
// become `Unsupported` nodes naming the construct, so a spec that never evaluates them still loads,
// and one that does is refused when it is loaded, at the construct's file:line:col.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
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
  MapsTo, Compose, Assert, ToString, Print, PrintT, Permutations, SortSeq,
  // OmniLinkTrace, for MC modules: every value logged for an operation's field.
  OmniLinkFieldValues,
};

struct Expr;
struct Definition;
using ExprPtr = std::unique_ptr<Expr>;

/// A bound name (quantifier variable, operator parameter, function-constructor argument). Each
/// binder is unique, so an environment is searched by identity, not by spelling.
struct Symbol {
  std::string name;
  SourcePos pos;
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
  Apply,        // text: name applied to kids (resolved into RefDefinition or RefBuiltin)
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
  Prime,        // kids[0]: an expression other than a variable (outside the fragment unless a variable)
  Unsupported,  // text: what the construct is
};

/// `![a][b].f = v` in an EXCEPT: a path of function arguments (expressions) and fields.
struct ExceptUpdate {
  struct Step {
    ExprPtr argument;   // ![a]
    std::string field;  // !.f (when argument is null)
  };
  std::vector<Step> path;
  ExprPtr value;
};

struct Expr {
  ExprKind kind = ExprKind::Unsupported;
  SourcePos pos;
  std::string text;
  Value value;                 // Literal
  std::vector<ExprPtr> kids;
  std::vector<Bound> bounds;
  std::vector<std::string> fields;
  std::vector<ExceptUpdate> updates;
  std::vector<std::unique_ptr<Definition>> definitions;  // Let
  bool has_other = false;      // Case

  // Set by the loader.
  std::size_t index = 0;               // RefVariable, RefPrimed
  const Symbol* symbol = nullptr;      // RefBound
  const Definition* definition = nullptr;  // RefDefinition
  Builtin builtin = Builtin::None;     // RefBuiltin
};

/// `Name(params) == body`, `f[x \in S] == body` (a function definition), or a CONSTANT.
/// RECURSIVE declarations need no mark: binding allows any definition to refer to any other.
struct Definition {
  std::string name;
  SourcePos pos;
  std::vector<std::unique_ptr<Symbol>> params;
  ExprPtr body;
  std::vector<Bound> function_bounds;  // a function definition f[x \in S] == ...

  // Set by the loader.
  bool resolved = false;
  bool uses_state = false;  // refers to a variable, directly or through another definition
  bool in_let = false;      // a LET definition: may use the enclosing bound names, so never cached
  bool constant = false;    // a CONSTANT of the module (its value is substituted or a model value)
};

struct Module {
  std::string file;  // the path it was read from
  std::string name;
  std::vector<std::string> extends;
  std::vector<std::string> constants;
  std::vector<std::string> variables;
  std::vector<std::unique_ptr<Definition>> definitions;  // in order
};

}  // namespace omnilink::language
