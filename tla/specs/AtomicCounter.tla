--------------------------- MODULE AtomicCounter ---------------------------
(* A linearizable counter: fetch_add returns the old value, load the current one. *)
(* Used by examples/atomic-counter. *)
EXTENDS Integers
VARIABLE count

\* @type: (Int, Int) => Bool; @inputs: by;
Increment(by, old) == old = count /\ count' = count + by

\* @type: (Int) => Bool; @inputs: ;
Read(value) == value = count /\ UNCHANGED count

Init == count = 0
Next == \E by, old, value \in Int : Increment(by, old) \/ Read(value)
=============================================================================
