------------------------------- MODULE Steps -------------------------------
(* The spec of tests/helpers/crashing_harness: every thread's Step(n) is its n-th operation, *)
(* any interleaving is allowed. Campaign tests validate crashed runs' trace prefixes with it. *)
EXTENDS Integers
VARIABLE steps

\* @type: (Int) => Bool;
Step(n) == steps' = steps + 1

Init == steps = 0
Next == \E n \in Int : Step(n)
=============================================================================
