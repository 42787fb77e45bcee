-------------------------- MODULE HigherOrderRegister --------------------------
(* A register whose Write goes through an operator taking an operator, F(_): outside the        *)
(* embedded checker's fragment, inside TLC's.                                                    *)
EXTENDS Integers
VARIABLE reg

Same(x) == x
Twice(F(_), x) == F(F(x))

Read(value) == value = reg /\ UNCHANGED reg

Write(value) == reg' = Twice(Same, value)

Init == reg = 0
Next == \E v \in Int : Read(v) \/ Write(v)
=============================================================================
