------------------------------ MODULE Functions -----------------------------
(***************************************************************************)
(* omnilink's own text of the community module Functions: restriction,     *)
(* range, inverse, injections/surjections/bijections and folds over        *)
(* functions.  Same operator names, arities and values as the community    *)
(* module; where TLC overrides an operator in Java (IsInjective,           *)
(* AntiFunction, FoldFunction, FoldFunctionOnSet) the value is the one     *)
(* the Java override returns, except where the override fails and the      *)
(* TLA+ text has a value: IsInjective of a record (e.g. [a |-> 1]) and     *)
(* AntiFunction of a non-injective function (here: the first preimage in   *)
(* CHOOSE order, as the TLA+ text gives).  Skipped: nothing.               *)
(*                                                                         *)
(* Order: FoldFunctionOnSet and FoldFunction visit the indices in the      *)
(* order CHOOSE enumerates them (for TLC: its normalized order, e.g.       *)
(* ascending integers) and compute op(fun[in], ... op(fun[i1], base)),     *)
(* i.e. the first index is combined first, innermost, as TLC's Java        *)
(* override does.  (The community module's TLA+ text, evaluated without    *)
(* the override, nests the other way round; the two agree only when op is  *)
(* associative and commutative.)                                           *)
(***************************************************************************)
EXTENDS Integers, Folds
LOCAL INSTANCE FiniteSets

\* start with Step applied until Done holds (at most 250 steps per nested call, so that the
\* recursion stays shallow: omnilink's checker allows 2000 nested calls).
LOCAL Iterate(Step(_), Done(_), start) ==
  LET RECURSIVE Burst(_, _), Loop(_)
      Burst(s, k) == IF k = 0 \/ Done(s) THEN s ELSE Burst(Step(s), k - 1)
      Loop(s) == IF Done(s) THEN s ELSE Loop(Burst(s, 250))
  IN  Loop(start)

\* f with its domain cut down to S.
Restrict(f, S) == [x \in S |-> f[x]]

\* f restricted to the domain elements that pass Test.
RestrictDomain(f, Test(_)) == [x \in {d \in DOMAIN f : Test(d)} |-> f[x]]

\* f restricted to the domain elements whose value passes Test.
RestrictValues(f, Test(_)) == [x \in {d \in DOMAIN f : Test(f[d])} |-> f[x]]

\* TRUE iff narrow is wide cut down to a part of wide's domain.
IsRestriction(narrow, wide) ==
  /\ DOMAIN narrow \subseteq DOMAIN wide
  /\ \A x \in DOMAIN narrow : narrow[x] = wide[x]

\* The set of values f takes.
Range(f) == {f[x] : x \in DOMAIN f}

\* The function on DOMAIN f whose value at x is T(f[x], g[x]).
Pointwise(f, g, T(_, _)) == [x \in DOMAIN f |-> T(f[x], g[x])]

\* For each t in T: the first s in S (CHOOSE order) with f[s] = t; for a t that f never takes, the first s in S.
Inverse(f, S, T) ==
  LET Over(values) == [t \in T |-> IF t \in values THEN CHOOSE s \in S : f[s] = t
                                                   ELSE CHOOSE s \in S : TRUE]
  IN  Over(Range(f))

\* The inverse of f on its range (for a non-injective f: the first preimage in CHOOSE order).
AntiFunction(f) == Inverse(f, DOMAIN f, Range(f))

\* TRUE iff no two domain elements of f have the same value.
IsInjective(f) == Cardinality(Range(f)) = Cardinality(DOMAIN f)

\* The set of injective functions from S to T.
Injection(S, T) ==
  LET Extend(g, d, D) ==   \* the injections on D that agree with g (an injection on D \ {d})
        { [x \in D |-> IF x = d THEN t ELSE g[x]] : t \in T \ Range(g) }
      Grow(G, d, D) == UNION {Extend(g, d, D) : g \in G}
      RECURSIVE Build(_)
      Build(D) ==   \* the injections from D into T
        IF D = {} THEN {<< >>}
        ELSE LET d == CHOOSE x \in D : TRUE IN Grow(Build(D \ {d}), d, D)
  IN  IF Cardinality(S) > Cardinality(T) THEN {} ELSE Build(S)

\* The set of functions from S onto T.
Surjection(S, T) ==
  IF Cardinality(S) < Cardinality(T) THEN {}
  ELSE {M \in [S -> T] : Range(M) = T}

\* The set of bijections between S and T.
Bijection(S, T) ==
  IF Cardinality(S) = Cardinality(T) THEN Injection(S, T) ELSE {}

\* TRUE iff some injection from S to T exists.
ExistsInjection(S, T) == Cardinality(S) <= Cardinality(T)

\* TRUE iff some surjection from S onto T exists.
ExistsSurjection(S, T) ==
  IF T = {} THEN S = {} ELSE Cardinality(S) >= Cardinality(T)

\* TRUE iff some bijection between S and T exists.
ExistsBijection(S, T) == Cardinality(S) = Cardinality(T)

-----------------------------------------------------------------------------

\* op(fun[in], ... op(fun[i2], op(fun[i1], base))) for the indices i1, i2, ... of the set indices in CHOOSE order.
FoldFunctionOnSet(op(_, _), base, fun, indices) ==
  LET Take(st, i) == <<op(fun[i], st[1]), st[2] \ {i}>>   \* i: the next index
  IN  Iterate(LAMBDA st : Take(st, CHOOSE j \in st[2] : TRUE), LAMBDA st : st[2] = {}, <<base, indices>>)[1]

\* FoldFunctionOnSet over the whole domain of fun.
FoldFunction(op(_, _), base, fun) == FoldFunctionOnSet(op, base, fun, DOMAIN fun)

\* The sum of fun[i] for i in indices.
SumFunctionOnSet(fun, indices) == FoldFunctionOnSet(LAMBDA x, y : x + y, 0, fun, indices)

\* The sum of all values of fun.
SumFunction(fun) == SumFunctionOnSet(fun, DOMAIN fun)

=============================================================================
