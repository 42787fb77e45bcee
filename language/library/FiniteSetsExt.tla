--------------------------- MODULE FiniteSetsExt ---------------------------
(***************************************************************************)
(* omnilink's own text of the community module FiniteSetsExt: folds,       *)
(* sums, products, k-subsets, Max/Min and other operators on finite sets.  *)
(* Same operator names, arities and values as the community module; where  *)
(* TLC overrides an operator in Java (FoldSet, Quantify, kSubset) the      *)
(* value is the one the Java override returns.  Skipped: nothing.          *)
(*                                                                         *)
(* Order: FoldSet (and ReduceSet) visit the elements in the order CHOOSE   *)
(* enumerates them (for TLC: its normalized order, e.g. ascending          *)
(* integers) and compute op(xn, ... op(x2, op(x1, base))), the first       *)
(* element combined first, as TLC's Java override does.  (The community    *)
(* module's TLA+ text, evaluated without the override, nests the other     *)
(* way round; the two agree only when op is associative and commutative.)  *)
(* TLC orders strings by when it first read them, not alphabetically, so   *)
(* an order over strings is TLC's own.                                     *)
(***************************************************************************)
EXTENDS Integers, FiniteSets, Folds, Functions

\* start with Step applied until Done holds (at most 250 steps per nested call, so that the
\* recursion stays shallow: omnilink's checker allows 2000 nested calls).
LOCAL Iterate(Step(_), Done(_), start) ==
  LET RECURSIVE Burst(_, _), Loop(_)
      Burst(s, k) == IF k = 0 \/ Done(s) THEN s ELSE Burst(Step(s), k - 1)
      Loop(s) == IF Done(s) THEN s ELSE Loop(Burst(s, 250))
  IN  Loop(start)

\* op(xn, ... op(x2, op(x1, base))) for the elements x1, x2, ... of set in CHOOSE order.
FoldSet(op(_, _), base, set) ==
  LET Take(st, x) == <<op(x, st[1]), st[2] \ {x}>>   \* x: the next element
  IN  Iterate(LAMBDA st : Take(st, CHOOSE y \in st[2] : TRUE), LAMBDA st : st[2] = {}, <<base, set>>)[1]

\* The sum of the elements of set.
SumSet(set) == FoldSet(LAMBDA x, y : x + y, 0, set)

\* The product of the elements of set.
ProductSet(set) == FoldSet(LAMBDA x, y : x * y, 1, set)

\* FoldSet with its last two arguments swapped (an older name).
ReduceSet(op(_, _), set, acc) == FoldSet(op, acc, set)

\* The sum of op(x) over the elements x of set.
MapThenSumSet(op(_), set) == FoldSet(LAMBDA x, total : total + op(x), 0, set)

\* The union of a set of sets (same as UNION S).
FlattenSet(S) == UNION S

\* The elements in exactly one of A and B.
SymDiff(A, B) == (A \cup B) \ (A \cap B)

-----------------------------------------------------------------------------

\* The number of elements of S that satisfy P.
Quantify(S, P(_)) == Cardinality({e \in S : P(e)})

-----------------------------------------------------------------------------

\* The set of the subsets of S that have exactly k elements ({} when k < 0 or k > Cardinality(S)).
kSubset(k, S) ==
  LET n == Cardinality(S)
      RECURSIVE Level(_)
      Level(j) ==   \* the j-element subsets of S, each grown from a (j-1)-element one
        IF j = 0 THEN {{}}
        ELSE UNION { {T \cup {x} : x \in S \ T} : T \in Level(j - 1) }
  IN  IF k < 0 \/ k > n THEN {}
      ELSE IF 2 * k > n THEN {S \ T : T \in Level(n - k)}   \* fewer levels through the complements
      ELSE Level(k)

-----------------------------------------------------------------------------

\* The largest element of a non-empty finite set of integers.
Max(S) == FoldSet(LAMBDA x, m : IF x > m THEN x ELSE m, CHOOSE x \in S : TRUE, S)

\* The smallest element of a non-empty finite set of integers.
Min(S) == FoldSet(LAMBDA x, m : IF x < m THEN x ELSE m, CHOOSE x \in S : TRUE, S)

-----------------------------------------------------------------------------

\* The set of all sets made by taking one element from each set in Sets ({{}} for Sets = {}).
Choices(Sets) ==
  LET Take(st, T) ==   \* st[1]: the choices from the sets taken so far; T: the next set
        << UNION { {C \cup {t} : t \in T} : C \in st[1] }, st[2] \ {T} >>
  IN  Iterate(LAMBDA st : Take(st, CHOOSE X \in st[2] : TRUE), LAMBDA st : st[2] = {}, << {{}}, Sets >>)[1]

-----------------------------------------------------------------------------

\* The one element of S that satisfies P (an error when none or more than one does).
ChooseUnique(S, P(_)) ==
  LET Only(matching) == CHOOSE e \in matching : Cardinality(matching) = 1
  IN  Only({e \in S : P(e)})

=============================================================================
