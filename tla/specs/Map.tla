-------------------------------- MODULE Map --------------------------------
(* A linearizable map (a set when values are ignored): insert-if-absent,   *)
(* erase, find. Keys is a constant: its MC module (MCMap.tla) computes it  *)
(* from the keys the trace mentions, as the paper advises (Section 4.4.3). *)
EXTENDS Integers
CONSTANT Keys
VARIABLE store  \* key |-> [present, value]

\* @type: (Int, Int, Bool) => Bool; @inputs: key, value;
Insert(key, value, inserted) ==
  /\ inserted = ~store[key].present
  /\ store' = IF inserted THEN [store EXCEPT ![key] = [present |-> TRUE, value |-> value]] ELSE store

\* @type: (Int, Bool) => Bool; @inputs: key;
Erase(key, erased) ==
  /\ erased = store[key].present
  /\ store' = [store EXCEPT ![key].present = FALSE]

\* @type: (Int, Int, Bool) => Bool; @inputs: key;
Find(key, value, found) ==
  /\ found = store[key].present
  /\ found => value = store[key].value
  /\ UNCHANGED store

Init == store = [k \in Keys |-> [present |-> FALSE, value |-> 0]]
Next == \E k \in Keys, v \in Int, b \in BOOLEAN : Insert(k, v, b) \/ Erase(k, b) \/ Find(k, v, b)
=============================================================================
