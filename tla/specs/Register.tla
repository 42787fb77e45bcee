------------------------------ MODULE Register ------------------------------
(* A linearizable read/write register with compare-and-swap; starts at 0. *)
EXTENDS Integers
VARIABLE reg

\* @type: (Int) => Bool;
Read(value) == value = reg /\ UNCHANGED reg

\* @type: (Int) => Bool;
Write(value) == reg' = value

\* @type: (Int, Int, Bool) => Bool;
CAS(expected, new, ok) ==
  /\ ok = (reg = expected)
  /\ reg' = IF ok THEN new ELSE reg

Init == reg = 0
Next == \E v, w \in Int, ok \in BOOLEAN : Read(v) \/ Write(v) \/ CAS(v, w, ok)
=============================================================================
