------------------------------- MODULE JsonRegister -------------------------------
(* A register whose Write goes through Json's ToJson: TLC evaluates it, the embedded checker    *)
(* does not implement the Json module, so `auto` has TLC decide.                                 *)
EXTENDS Integers, Sequences, Json
VARIABLE reg

Read(value) == value = reg /\ UNCHANGED reg

Write(value) == reg' = IF Len(ToJson(value)) > 0 THEN value ELSE 0

Init == reg = 0
Next == \E v \in Int : Read(v) \/ Write(v)
=============================================================================
