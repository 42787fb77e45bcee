-------------------------------- MODULE Bags --------------------------------
(***************************************************************************)
(* omnilink's own text of the standard module Bags.  A bag (multiset) is   *)
(* a function from its elements to their (positive integer) numbers of     *)
(* copies.  Same operator names, arities and values as the standard        *)
(* module, whose operators (all but SubBag) TLC evaluates in Java, with    *)
(* one exception: IsABag of a function with a value that is not an         *)
(* integer fails here (a value's type cannot be tested in TLA+), where     *)
(* TLC's Java says FALSE.  Skipped: nothing.                               *)
(***************************************************************************)
EXTENDS TLC
LOCAL INSTANCE Naturals

\* start with Step applied until Done holds (at most 250 steps per nested call, so that the
\* recursion stays shallow: omnilink's checker allows 2000 nested calls).
LOCAL Iterate(Step(_), Done(_), start) ==
  LET RECURSIVE Burst(_, _), Loop(_)
      Burst(s, k) == IF k = 0 \/ Done(s) THEN s ELSE Burst(Step(s), k - 1)
      Loop(s) == IF Done(s) THEN s ELSE Loop(Burst(s, 250))
  IN  Loop(start)

\* The sum of f[x] over the x in the finite set D.
LOCAL SumOver(f, D) ==
  LET Take(st, x) == <<st[1] + f[x], st[2] \ {x}>>
  IN  Iterate(LAMBDA st : Take(st, CHOOSE y \in st[2] : TRUE), LAMBDA st : st[2] = {}, <<0, D>>)[1]

\* TRUE iff B is a function whose values are all positive integers.
IsABag(B) == \A e \in DOMAIN B : B[e] \in Nat /\ B[e] > 0

\* The set of the elements of B.
BagToSet(B) == DOMAIN B

\* The bag with one copy of each element of S.
SetToBag(S) == [e \in S |-> 1]

\* TRUE iff B holds at least one copy of e.
BagIn(e, B) == e \in DOMAIN B

\* The bag with no elements.
EmptyBag == [e \in {} |-> 1]

\* The number of copies of e in B (0 when e is not in B).
CopiesIn(e, B) == IF e \in DOMAIN B THEN B[e] ELSE 0

\* The bag with the copies of both B1 and B2.
B1 (+) B2 ==
  [e \in DOMAIN B1 \cup DOMAIN B2 |-> CopiesIn(e, B1) + CopiesIn(e, B2)]

\* B1 with one copy of e removed for each copy of e in B2 (elements left with no copies drop out).
B1 (-) B2 ==
  LET left(e) == B1[e] - CopiesIn(e, B2)
  IN  [e \in {d \in DOMAIN B1 : left(d) > 0} |-> left(e)]

\* The bag sum of all the bags in the set S.
BagUnion(S) ==
  [e \in UNION {DOMAIN B : B \in S} |-> SumOver([B \in S |-> CopiesIn(e, B)], S)]

\* TRUE iff B2 has at least as many copies of every element as B1.
B1 \sqsubseteq B2 == \A e \in DOMAIN B1 : B1[e] <= CopiesIn(e, B2)

\* The set of all bags contained in B (B itself and EmptyBag included).
SubBag(B) ==
  LET Take(st, x) ==   \* st[1]: the sub-bags of B over the elements taken so far; x: the next element
        << st[1] \cup { [y \in DOMAIN b \cup {x} |-> IF y = x THEN n ELSE b[y]] : b \in st[1], n \in 1..B[x] },
           st[2] \ {x} >>
  IN  Iterate(LAMBDA st : Take(st, CHOOSE y \in st[2] : TRUE), LAMBDA st : st[2] = {}, << {EmptyBag}, DOMAIN B >>)[1]

\* The bag of the F(e), one copy of F(e) per copy of e in B.
BagOfAll(F(_), B) ==
  LET Collect(image) ==   \* image[d] = F(d), computed once per element
        [v \in {image[d] : d \in DOMAIN B} |-> SumOver(B, {d \in DOMAIN B : image[d] = v})]
  IN  Collect([d \in DOMAIN B |-> F(d)])

\* The total number of copies in the finite bag B.
BagCardinality(B) == SumOver(B, DOMAIN B)

=============================================================================
