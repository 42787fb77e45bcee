------------------------------ MODULE Relation ------------------------------
(***************************************************************************)
(* omnilink's own text of the community module Relation: properties and    *)
(* closures of binary relations on a set S, given as Boolean functions     *)
(* R[x, y] on S \X S (or, for the ...Under operators, as an operator       *)
(* op(x, y)).  Same operator names, arities and values as the community    *)
(* module.  The closures are computed by repeated squaring until nothing   *)
(* changes.  Skipped: nothing.                                             *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

\* The relation given by the operator op, as a function on S \X S.
LOCAL AsRelation(op(_, _), S) == [x, y \in S |-> op(x, y)]

\* TRUE iff every x in S is related to itself.
IsReflexive(R, S) == \A x \in S : R[x, x]

\* IsReflexive for the relation op.
IsReflexiveUnder(op(_, _), S) == IsReflexive(AsRelation(op, S), S)

\* TRUE iff no x in S is related to itself.
IsIrreflexive(R, S) == \A x \in S : ~R[x, x]

\* IsIrreflexive for the relation op.
IsIrreflexiveUnder(op(_, _), S) == IsIrreflexive(AsRelation(op, S), S)

\* TRUE iff x is related to y exactly when y is related to x.
IsSymmetric(R, S) == \A x, y \in S : R[x, y] <=> R[y, x]

\* IsSymmetric for the relation op.
IsSymmetricUnder(op(_, _), S) == IsSymmetric(AsRelation(op, S), S)

\* TRUE iff elements related both ways are equal.
IsAntiSymmetric(R, S) == \A x, y \in S : (R[x, y] /\ R[y, x]) => x = y

\* IsAntiSymmetric for the relation op.
IsAntiSymmetricUnder(op(_, _), S) == IsAntiSymmetric(AsRelation(op, S), S)

\* TRUE iff no two elements (nor one with itself) are related both ways.
IsAsymmetric(R, S) == \A x, y \in S : ~R[x, y] \/ ~R[y, x]

\* IsAsymmetric for the relation op.
IsAsymmetricUnder(op(_, _), S) == IsAsymmetric(AsRelation(op, S), S)

\* TRUE iff x related to y and y related to z imply x related to z.
IsTransitive(R, S) == \A x, y, z \in S : (R[x, y] /\ R[y, z]) => R[x, z]

\* IsTransitive for the relation op.
IsTransitiveUnder(op(_, _), S) == IsTransitive(AsRelation(op, S), S)

\* TRUE iff R is irreflexive, antisymmetric and transitive on S.
IsStrictlyPartiallyOrdered(R, S) ==
  IsIrreflexive(R, S) /\ IsAntiSymmetric(R, S) /\ IsTransitive(R, S)

\* IsStrictlyPartiallyOrdered for the relation op.
IsStrictlyPartiallyOrderedUnder(op(_, _), S) ==
  IsStrictlyPartiallyOrdered(AsRelation(op, S), S)

\* TRUE iff R is reflexive, antisymmetric and transitive on S.
IsPartiallyOrdered(R, S) ==
  IsReflexive(R, S) /\ IsAntiSymmetric(R, S) /\ IsTransitive(R, S)

\* IsPartiallyOrdered for the relation op.
IsPartiallyOrderedUnder(op(_, _), S) == IsPartiallyOrdered(AsRelation(op, S), S)

\* TRUE iff R is a strict partial order on S relating any two distinct elements one way or the other.
IsStrictlyTotallyOrdered(R, S) ==
  IsStrictlyPartiallyOrdered(R, S) /\ \A x, y \in S : x = y \/ R[x, y] \/ R[y, x]

\* IsStrictlyTotallyOrdered for the relation op.
IsStrictlyTotallyOrderedUnder(op(_, _), S) ==
  IsStrictlyTotallyOrdered(AsRelation(op, S), S)

\* TRUE iff R is a partial order on S relating any two elements one way or the other.
IsTotallyOrdered(R, S) ==
  IsPartiallyOrdered(R, S) /\ \A x, y \in S : R[x, y] \/ R[y, x]

\* IsTotallyOrdered for the relation op.
IsTotallyOrderedUnder(op(_, _), S) == IsTotallyOrdered(AsRelation(op, S), S)

\* The transitive closure of R on S, as a function on S \X S.
TransitiveClosure(R, S) ==
  LET Square(T) == [x, y \in S |-> T[x, y] \/ \E z \in S : T[x, z] /\ T[z, y]]
      RECURSIVE Close(_), Settle(_, _)
      Close(T) == Settle(T, Square(T))   \* T composed with itself and added to T, until that changes nothing
      Settle(T, next) == IF next = T THEN T ELSE Close(next)
  IN  Close([x, y \in S |-> R[x, y]])

\* C with every element of S related to itself.
LOCAL WithIdentity(C, S) == [x, y \in S |-> x = y \/ C[x, y]]

\* The reflexive transitive closure of R on S.
ReflexiveTransitiveClosure(R, S) == WithIdentity(TransitiveClosure(R, S), S)

\* TRUE iff every element of S reaches every element of S through R.
IsConnected(R, S) ==
  LET AllRelated(C) == \A x, y \in S : C[x, y]
  IN  AllRelated(ReflexiveTransitiveClosure(R, S))

=============================================================================
