------------------------------ MODULE BagsExt ------------------------------
(***************************************************************************)
(* omnilink's own text of the community module BagsExt: adding and         *)
(* removing elements of bags, and folds over bags.  Same operator names,   *)
(* arities and values as the community module; FoldBag (which TLC          *)
(* overrides in Java) and SumBag/ProductBag built on it give the Java      *)
(* override's value.  Skipped: nothing.                                    *)
(*                                                                         *)
(* Order: FoldBag visits the elements of B in CHOOSE order (TLC: its       *)
(* normalized order) and folds from the left, base first, each element as  *)
(* many times as it has copies: op(...op(op(base, x1), x1)..., xn).        *)
(* TLC's Java override walks the bag's domain in its internal order, which *)
(* is the normalized order for most bags (e.g. ones built with SetToBag,   *)
(* :> and @@ on ascending keys); the TLA+ text of the community module     *)
(* (no override) instead uses base once per element and nests the other    *)
(* way; with a commutative op and base an identity of op all agree.        *)
(* MapThenFoldBag has no Java override: its value here is the TLA+ text's, *)
(* quirks included (its choose argument is not used, and base is folded    *)
(* in once per distinct element and once more at the end).                 *)
(***************************************************************************)
LOCAL INSTANCE Bags
LOCAL INSTANCE Integers
LOCAL INSTANCE Folds
LOCAL INSTANCE TLC

\* start with Step applied until Done holds (at most 250 steps per nested call, so that the
\* recursion stays shallow: omnilink's checker allows 2000 nested calls).
LOCAL Iterate(Step(_), Done(_), start) ==
  LET RECURSIVE Burst(_, _), Loop(_)
      Burst(s, k) == IF k = 0 \/ Done(s) THEN s ELSE Burst(Step(s), k - 1)
      Loop(s) == IF Done(s) THEN s ELSE Loop(Burst(s, 250))
  IN  Loop(start)

\* B with one more copy of x.
BagAdd(B, x) ==
  [e \in DOMAIN B \cup {x} |-> IF e = x THEN CopiesIn(x, B) + 1 ELSE B[e]]

\* B with one copy of x fewer (B itself when x is not in B).
BagRemove(B, x) ==
  [e \in {d \in DOMAIN B : d # x \/ B[d] > 1} |-> IF e = x THEN B[e] - 1 ELSE B[e]]

\* B without any copy of x.
BagRemoveAll(B, x) == [e \in DOMAIN B \ {x} |-> B[e]]

\* op(h(x1), op(h(x2), ... op(h(xn), base))) with x1, x2, ... the elements of B in CHOOSE order
\* and h(x) == op(... op(op(base, f(x)), f(x)) ..., f(x)) with B[x] applications; choose is unused.
MapThenFoldBag(op(_, _), base, f(_), choose(_), B) ==
  LET Copies(x) == IF B[x] > 0 THEN B[x]
                   ELSE Assert(FALSE, "MapThenFoldBag: the last argument is not a bag")
      Repeat(x) ==   \* op(... op(op(base, f(x)), f(x)) ..., f(x)), B[x] times
        Iterate(LAMBDA st : <<op(st[1], f(x)), st[2] - 1>>, LAMBDA st : st[2] = 0, <<base, Copies(x)>>)[1]
  IN  MapThenFoldSet(op, base, Repeat, LAMBDA D : CHOOSE y \in D : TRUE, DOMAIN B)

\* op(...op(op(base, x1), x1)..., xn): base combined with each copy of each element, elements in CHOOSE order.
FoldBag(op(_, _), base, B) ==
  LET AddCopies(acc, x) ==   \* acc combined with each copy of x
        IF B[x] > 0
        THEN Iterate(LAMBDA st : <<op(st[1], x), st[2] - 1>>, LAMBDA st : st[2] = 0, <<acc, B[x]>>)[1]
        ELSE Assert(FALSE, "FoldBag: the last argument is not a bag")
      Take(st, x) == <<AddCopies(st[1], x), st[2] \ {x}>>
  IN  Iterate(LAMBDA st : Take(st, CHOOSE y \in st[2] : TRUE), LAMBDA st : st[2] = {}, <<base, DOMAIN B>>)[1]

\* The sum of the elements of B, each counted as often as it occurs.
SumBag(B) == FoldBag(LAMBDA x, y : x + y, 0, B)

\* The product of the elements of B, each counted as often as it occurs.
ProductBag(B) == FoldBag(LAMBDA x, y : x * y, 1, B)

=============================================================================
