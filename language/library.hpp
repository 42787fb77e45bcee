// The modules built into omnilink, which no file beside a spec needs to provide: the standard
// modules (their operators evaluated natively, as TLC evaluates them in Java), and the community
// modules specs use (SequencesExt, Functions, FiniteSetsExt, Folds, Bags, Bitwise, ...) and the
// proof-only ones (TLAPS, the *Theorems modules: only what they extend), written in TLA+ in
// language/library/ and embedded at build time.
#pragma once

#include <string>
#include <vector>

#include "language/ast.hpp"

namespace omnilink::language {

/// An operator of a standard module. `refusal` non-null: the embedded checker knows the
/// operator and refuses it, saying why (RandomElement: a verdict must not depend on a draw).
struct StandardOperator {
  const char* module;
  const char* name;
  Builtin builtin;
  int arity;
  const char* refusal = nullptr;
};

/// A standard module whose operators are built in (Naturals, Integers, Sequences, FiniteSets,
/// TLC, OmniLinkTrace): no file is read.
bool is_standard_module(const std::string& name);

/// A module of theorems or proofs (*Theorems, *_proofs) that neither a file nor the library has:
/// read as empty, since a proof has nothing to evaluate.
bool proof_only_module(const std::string& name);

/// The operators a standard module defines, with those of the standard modules it extends.
std::vector<const StandardOperator*> standard_operators(const std::string& module);

/// The standard module that defines a built-in operator (Naturals for +), or null for TLA+'s own
/// (\in, \cup, DOMAIN, ...), which every module has.
const char* module_of_builtin(Builtin builtin);

/// The TLA+ text of a community module built into omnilink, or null.
const std::string* library_module_text(const std::string& name);

/// A standard module TLC has and the embedded checker does not (Reals, Json, IOUtils, ...): null,
/// or why it is not evaluated.
const char* unimplemented_module(const std::string& name);

}  // namespace omnilink::language
