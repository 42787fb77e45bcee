---------------------------- MODULE SequencesExt ----------------------------
(***************************************************************************)
(* omnilink's own text of the community module SequencesExt: conversions   *)
(* between sets and sequences, searching, editing, prefixes/suffixes,      *)
(* folds and sub-sequence replacement.  Same operator names, arities and   *)
(* values as the community module; where TLC overrides an operator in      *)
(* Java the value is the one the Java override returns.  Like the          *)
(* community module it also gives what FiniteSetsExt, Folds, Functions,    *)
(* Bags, Sequences, FiniteSets, Naturals and TLC define.                   *)
(* Skipped: nothing.                                                       *)
(*                                                                         *)
(* Where the value follows TLC's Java override rather than the TLA+ text   *)
(* of the community module (evaluated without the override):               *)
(*  - SetToSeq lists the set in CHOOSE order (TLC: its normalized order,   *)
(*    e.g. ascending integers), as the override does; the TLA+ text        *)
(*    picks the first injective function of [1..n -> S] instead.           *)
(*    (TLC orders strings by when it first read them, not alphabetically,  *)
(*    so an order over strings is TLC's own.)                              *)
(*  - FoldSeq is FoldFunction: op(s[n], ... op(s[1], base)).               *)
(*  - SelectInSubSeq and SelectLastInSubSeq give the index in seq (the     *)
(*    TLA+ text gives the index in SubSeq(seq, from, to)), 0 when from >   *)
(*    to, and fail when from or to lies outside 1..Len(seq).               *)
(*  - AllSubSeqs keeps the elements in their order in s (the TLA+ text,    *)
(*    through its FoldFunction, reverses them).                            *)
(*  - ReplaceAllSubSeqs and ReplaceFirstSubSeq also work on strings.       *)
(* Strings: Len, SubSeq and \o accept strings in TLC; the operators built  *)
(* only from them (IsPrefix, Prefixes, FlattenSeq, IndexFirstSubSeq,       *)
(* ReplaceSubSeqAt, ReplaceFirstSubSeq, ReplaceAllSubSeqs,                 *)
(* LongestCommonPrefix, ...) do too.                                       *)
(***************************************************************************)
EXTENDS Sequences, Naturals, FiniteSets, FiniteSetsExt, Folds, Functions, Bags, TLC

\* start with Step applied until Done holds (at most 250 steps per nested call, so that the
\* recursion stays shallow: omnilink's checker allows 2000 nested calls).
LOCAL Iterate(Step(_), Done(_), start) ==
  LET RECURSIVE Burst(_, _), Loop(_)
      Burst(s, k) == IF k = 0 \/ Done(s) THEN s ELSE Burst(Step(s), k - 1)
      Loop(s) == IF Done(s) THEN s ELSE Loop(Burst(s, 250))
  IN  Loop(start)

\* The first i in lo..hi with P(i) (searched by halving, P tried in order up to that i), else 0.
LOCAL FirstIn(lo, hi, P(_)) ==
  LET RECURSIVE Find(_, _), OrRight(_, _, _)
      Find(a, b) ==
        IF a > b THEN 0
        ELSE IF a = b THEN (IF P(a) THEN a ELSE 0)
        ELSE LET mid == (a + b) \div 2 IN OrRight(Find(a, mid), mid + 1, b)
      OrRight(left, c, b) == IF left # 0 THEN left ELSE Find(c, b)
  IN  Find(lo, hi)

\* The last i in lo..hi with P(i) (searched by halving, P tried from hi down to that i), else 0.
LOCAL LastIn(lo, hi, P(_)) ==
  LET RECURSIVE Find(_, _), OrLeft(_, _, _)
      Find(a, b) ==
        IF a > b THEN 0
        ELSE IF a = b THEN (IF P(a) THEN a ELSE 0)
        ELSE LET mid == (a + b) \div 2 IN OrLeft(Find(mid + 1, b), a, mid)
      OrLeft(right, a, c) == IF right # 0 THEN right ELSE Find(a, c)
  IN  Find(lo, hi)


\* The set of the elements of s.
ToSet(s) == Range(s)

\* The bag of the elements of s (each with its number of occurrences).
ToBag(s) == [e \in ToSet(s) |-> Cardinality({i \in DOMAIN s : s[i] = e})]

\* The elements of the finite set S, each once, as a sequence in CHOOSE order.
SetToSeq(S) == FoldSet(LAMBDA x, seq : Append(seq, x), << >>, S)

\* The set of all sequences that hold every element of S exactly once.
SetToSeqs(S) ==
  LET RECURSIVE Orders(_)
      Orders(D) ==
        IF D = {} THEN {<< >>}
        ELSE UNION { {<<x>> \o rest : rest \in Orders(D \ {x})} : x \in D }
  IN  Orders(S)

\* SetToSeq(S) sorted with the order op (TLC's SortSeq).
SetToSortSeq(S, op(_, _)) == SortSeq(SetToSeq(S), op)

\* The set of all sequences of distinct elements of S (of every length 0..Cardinality(S)).
SetToAllKPermutations(S) ==
  LET RECURSIVE Arrangements(_)
      Arrangements(D) ==
        {<< >>} \cup UNION { {<<x>> \o rest : rest \in Arrangements(D \ {x})} : x \in D }
  IN  Arrangements(S)

\* The set of all sequences of length n over set.
TupleOf(set, n) == [1..n -> set]

\* The set of all sequences of length at most n over set.
SeqOf(set, n) == UNION {TupleOf(set, len) : len \in 0..n}

\* The same as SeqOf(S, n).
BoundedSeq(S, n) == SeqOf(S, n)

-----------------------------------------------------------------------------

\* TRUE iff e occurs in s.
Contains(s, e) == \E i \in DOMAIN s : s[i] = e

\* TRUE iff op(s[i], s[j]) for all positions i < j of s.
IsSorted(s, op(_, _)) ==
  \A i \in 1..Len(s) : \A j \in (i + 1)..Len(s) : op(s[i], s[j])

\* s backwards.
Reverse(s) == [i \in 1..Len(s) |-> s[Len(s) + 1 - i]]

\* s without any occurrence of e.
Remove(s, e) == SelectSeq(s, LAMBDA x : x # e)

\* s with every occurrence of old replaced by new.
ReplaceAll(s, old, new) == [i \in 1..Len(s) |-> IF s[i] = old THEN new ELSE s[i]]

-----------------------------------------------------------------------------

\* The first index i in from..to with Test(seq[i]) (an index of seq), else 0.
SelectInSubSeq(seq, from, to, Test(_)) ==
  IF from > to THEN 0
  ELSE IF from \in 1..Len(seq) /\ to \in 1..Len(seq) THEN FirstIn(from, to, LAMBDA i : Test(seq[i]))
  ELSE Assert(FALSE, "SelectInSubSeq: from..to is not within the indices of the sequence")

\* The first index i of seq with Test(seq[i]), else 0.
SelectInSeq(seq, Test(_)) == SelectInSubSeq(seq, 1, Len(seq), Test)

\* The last index i in from..to with Test(seq[i]) (an index of seq), else 0.
SelectLastInSubSeq(seq, from, to, Test(_)) ==
  IF from > to THEN 0
  ELSE IF from \in 1..Len(seq) /\ to \in 1..Len(seq) THEN LastIn(from, to, LAMBDA i : Test(seq[i]))
  ELSE Assert(FALSE, "SelectLastInSubSeq: from..to is not within the indices of the sequence")

\* The last index i of seq with Test(seq[i]), else 0.
SelectLastInSeq(seq, Test(_)) == SelectLastInSubSeq(seq, 1, Len(seq), Test)

-----------------------------------------------------------------------------

\* s with e inserted at position i (1 <= i <= Len(s) + 1), later elements moved up by one.
InsertAt(s, i, e) ==
  [k \in 1..(Len(s) + 1) |-> IF k < i THEN s[k] ELSE IF k = i THEN e ELSE s[k - 1]]

\* s with the element at position i replaced by e.
ReplaceAt(s, i, e) == [k \in DOMAIN s |-> IF k = i THEN e ELSE s[k]]

\* s without its element at position i (s itself for i = 0 or i = Len(s) + 1, as SubSeq gives).
RemoveAt(s, i) ==
  LET before == SubSeq(s, 1, i - 1)
      after  == SubSeq(s, i + 1, Len(s))
  IN  before \o after

\* s without the first occurrence of e (s itself when e does not occur).
RemoveFirst(s, e) ==
  LET Without(at) == IF at = 0 THEN s ELSE RemoveAt(s, at)
  IN  Without(SelectInSeq(s, LAMBDA x : x = e))

\* s without its first element that passes Test (s itself when none does).
RemoveFirstMatch(s, Test(_)) ==
  LET Without(at) == IF at = 0 THEN s ELSE RemoveAt(s, at)
  IN  Without(SelectInSeq(s, Test))

-----------------------------------------------------------------------------

\* seq with elt put in front.
Cons(elt, seq) == <<elt>> \o seq

\* seq with elt put at the end (Append with its arguments swapped).
Snoc(elt, seq) == Append(seq, elt)

\* s without its last element (<< >> for << >>).
Front(s) == LET n == Len(s) IN SubSeq(s, 1, n - 1)

\* The last element of s.
Last(s) == s[Len(s)]

-----------------------------------------------------------------------------

\* TRUE iff t starts with s.
IsPrefix(s, t) == Len(s) <= Len(t) /\ SubSeq(t, 1, Len(s)) = s

\* TRUE iff t starts with s and is longer.
IsStrictPrefix(s, t) == IsPrefix(s, t) /\ Len(s) < Len(t)

\* TRUE iff t ends with s.
IsSuffix(s, t) == Len(s) <= Len(t) /\ SubSeq(t, Len(t) - Len(s) + 1, Len(t)) = s

\* TRUE iff t ends with s and is longer.
IsStrictSuffix(s, t) == IsSuffix(s, t) /\ Len(s) < Len(t)

-----------------------------------------------------------------------------

\* The set of all prefixes of s, the empty one included.
Prefixes(s) == {SubSeq(s, 1, n) : n \in 0..Len(s)}

\* The set of the sequences that are prefixes of every sequence in S ({} for S = {}).
CommonPrefixes(S) ==
  IF S = {} THEN {}
  ELSE LET some == CHOOSE x \in S : TRUE
       IN  {p \in Prefixes(some) : \A t \in S : IsPrefix(p, t)}

\* The longest sequence that is a prefix of every sequence in the non-empty set S.
LongestCommonPrefix(S) ==
  LET some == CHOOSE x \in S : TRUE
      Common(n) == \A t \in S : IsPrefix(SubSeq(some, 1, n), t)
      RECURSIVE Longest(_, _)
      Longest(a, b) ==   \* the largest n in a..b with Common(n), knowing Common(a) (binary search)
        IF a = b THEN a
        ELSE LET mid == (a + b + 1) \div 2
             IN  IF Common(mid) THEN Longest(mid, b) ELSE Longest(a, mid - 1)
  IN  SubSeq(some, 1, Longest(0, Len(some)))

\* The set of all suffixes of s, the empty one included.
Suffixes(s) == {SubSeq(s, k, Len(s)) : k \in 1..(Len(s) + 1)}

-----------------------------------------------------------------------------

\* a % b, but b instead of 0 (for indexing sequences 1..b cyclically).
SeqMod(a, b) == LET r == a % b IN IF r = 0 THEN b ELSE r

\* FoldFunction over seq: op(seq[n], ... op(seq[2], op(seq[1], base))).
FoldSeq(op(_, _), base, seq) == FoldFunction(op, base, seq)

\* acc combined, from the left, with At(1), ..., At(n): op(...op(op(acc, At(1)), At(2))..., At(n)).
LOCAL LeftFold(op(_, _), acc, n, At(_)) ==
  LET RECURSIVE Go(_, _, _)
      Go(a, lo, hi) ==   \* halves the range, so the recursion depth is logarithmic
        IF lo > hi THEN a
        ELSE IF lo = hi THEN op(a, At(lo))
        ELSE LET mid == (lo + hi) \div 2 IN Go(TLCEval(Go(a, lo, mid)), mid + 1, hi)
  IN  Go(acc, 1, n)

\* acc combined, from the right, with At(n), ..., At(1): op(At(1), op(At(2), ... op(At(n), acc))).
LOCAL RightFold(op(_, _), acc, n, At(_)) ==
  LET RECURSIVE Go(_, _, _)
      Go(a, lo, hi) ==
        IF lo > hi THEN a
        ELSE IF lo = hi THEN op(At(lo), a)
        ELSE LET mid == (lo + hi) \div 2 IN Go(TLCEval(Go(a, mid + 1, hi)), lo, mid)
  IN  Go(acc, 1, n)

\* op(...op(op(base, seq[1]), seq[2])..., seq[n]).
FoldLeft(op(_, _), base, seq) == LeftFold(op, base, Len(seq), LAMBDA i : seq[i])

\* op(seq[1], op(seq[2], ... op(seq[n], base))).
FoldRight(op(_, _), seq, base) == RightFold(op, base, Len(seq), LAMBDA i : seq[i])

\* op(...op(op(base, 1), 2)..., Len(seq)): FoldLeft over the indices of seq.
FoldLeftDomain(op(_, _), base, seq) == LeftFold(op, base, Len(seq), LAMBDA i : i)

\* op(1, op(2, ... op(Len(seq), base))): FoldRight over the indices of seq.
FoldRightDomain(op(_, _), seq, base) == RightFold(op, base, Len(seq), LAMBDA i : i)

-----------------------------------------------------------------------------

\* seqs[1] \o seqs[2] \o ... \o seqs[n] (seqs itself when it is empty).
FlattenSeq(seqs) ==
  LET RECURSIVE Join(_, _)
      Join(lo, hi) ==
        IF lo = hi THEN seqs[lo]
        ELSE LET mid == (lo + hi) \div 2 IN Join(lo, mid) \o Join(mid + 1, hi)
  IN  IF Len(seqs) = 0 THEN seqs ELSE Join(1, Len(seqs))

\* The sequence of pairs <<s[i], t[i]>>, as long as the shorter of s and t.
Zip(s, t) ==
  LET n == IF Len(s) < Len(t) THEN Len(s) ELSE Len(t)
  IN  [i \in 1..n |-> <<s[i], t[i]>>]

\* <<<<s[1]>>, <<t[1]>>, <<s[2]>>, <<t[2]>>, ...>> for s and t of equal length; << <<>>, <<>> >> when both are empty.
Interleave(s, t) ==
  IF Len(s) # Len(t) THEN Assert(FALSE, "Interleave: the sequences differ in length")
  ELSE IF Len(s) = 0 THEN << << >>, << >> >>
  ELSE [k \in 1..(2 * Len(s)) |-> IF k % 2 = 1 THEN <<s[(k + 1) \div 2]>> ELSE <<t[k \div 2]>>]

\* The set of the contiguous pieces SubSeq(s, i, j) of s, the empty one included.
SubSeqs(s) == {SubSeq(s, i, j) : i \in 1..(Len(s) + 1), j \in 0..Len(s)}

\* The set of all sequences obtained by deleting any elements of s (order kept).
AllSubSeqs(s) ==
  LET WithOrWithout(x, later) == later \cup {<<x>> \o rest : rest \in later}
      RECURSIVE From(_)
      From(i) ==   \* the subsequences of s[i..Len(s)]
        IF i > Len(s) THEN {<< >>}
        ELSE WithOrWithout(s[i], From(i + 1))
  IN  From(1)

\* The first k with SubSeq(t, k, k + Len(s) - 1) = s, else 0.
LOCAL FirstMatchAt(s, t) ==
  FirstIn(1, Len(t) - Len(s) + 1, LAMBDA k : SubSeq(t, k, k + Len(s) - 1) = s)

\* The position in t where the first occurrence of s as a contiguous piece begins (an error when there is none).
IndexFirstSubSeq(s, t) ==
  LET Found(at) == IF at = 0 THEN Assert(FALSE, "IndexFirstSubSeq: the sequence does not occur") ELSE at
  IN  Found(FirstMatchAt(s, t))

\* t with the Len(s) elements starting at position i replaced by r.
ReplaceSubSeqAt(i, r, s, t) ==
  LET before == SubSeq(t, 1, i - 1)
      after  == SubSeq(t, i + Len(s), Len(t))
  IN  before \o r \o after

\* t with the first occurrence of s replaced by r (t itself when s does not occur).
ReplaceFirstSubSeq(r, s, t) ==
  LET Replaced(at) == IF at = 0 THEN t ELSE ReplaceSubSeqAt(at, r, s, t)
  IN  Replaced(FirstMatchAt(s, t))

\* t with every occurrence of s, scanning left to right without overlaps, replaced by r;
\* r when s = t; for an empty s (s # t), r is put before every element of t.
ReplaceAllSubSeqs(r, s, t) ==
  LET n == Len(s)
      Matches(at) == n > 0 /\ at + n - 1 <= Len(t) /\ SubSeq(t, at, at + n - 1) = s
      Step(st) ==   \* st = <<the result for t[1..k-1], k>>
        LET k == st[2]
        IN  IF n = 0 THEN <<st[1] \o r \o SubSeq(t, k, k), k + 1>>
            ELSE IF Matches(k) THEN <<st[1] \o r, k + n>>
            ELSE <<st[1] \o SubSeq(t, k, k), k + 1>>
  IN  IF s = t THEN r
      ELSE Iterate(Step, LAMBDA st : st[2] > Len(t), <<SubSeq(t, 1, 0), 1>>)[1]

=============================================================================
