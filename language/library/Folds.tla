------------------------------- MODULE Folds -------------------------------
(***************************************************************************)
(* omnilink's own text of the community module Folds: the general fold     *)
(* over a finite set that FiniteSetsExt, Functions, SequencesExt and       *)
(* BagsExt build on.  Same operator, arity and value as the community      *)
(* module.  Skipped: nothing.                                              *)
(*                                                                         *)
(* Recursion is kept shallow (omnilink's checker allows 2000 nested        *)
(* calls): elements are taken out in bursts of at most 250 per nested      *)
(* call, and the result is combined by halving.                            *)
(***************************************************************************)
LOCAL INSTANCE Naturals
LOCAL INSTANCE Sequences
LOCAL INSTANCE TLC

\* start with Step applied until Done holds (at most 250 steps per nested call).
LOCAL Iterate(Step(_), Done(_), start) ==
  LET RECURSIVE Burst(_, _), Loop(_)
      Burst(s, k) == IF k = 0 \/ Done(s) THEN s ELSE Burst(Step(s), k - 1)
      Loop(s) == IF Done(s) THEN s ELSE Loop(Burst(s, 250))
  IN  Loop(start)

\* op(f(x1), op(f(x2), ... op(f(xn), base))), where x1 = choose(S), x2 = choose(S \ {x1}), ...
\* (the value depends on choose unless op is associative and commutative).
MapThenFoldSet(op(_, _), base, f(_), choose(_), S) ==
  LET Take(st, x) == <<Append(st[1], x), st[2] \ {x}>>   \* x: the element chosen next
      RECURSIVE Fold(_, _, _, _)
      Fold(xs, acc, lo, hi) ==   \* op(f(xs[lo]), ... op(f(xs[hi]), acc))
        IF lo > hi THEN acc
        ELSE IF lo = hi THEN op(f(xs[lo]), acc)
        ELSE LET mid == (lo + hi) \div 2
             IN  Fold(xs, TLCEval(Fold(xs, acc, mid + 1, hi)), lo, mid)
      FoldAll(xs) == Fold(xs, base, 1, Len(xs))
  IN  FoldAll(Iterate(LAMBDA st : Take(st, choose(st[2])), LAMBDA st : st[2] = {}, << << >>, S >>)[1])

=============================================================================
