--------------------------------- MODULE KV ---------------------------------
(* A linearizable key-value store of strings, as Porcupine's kv model and its *)
(* test histories have it (test_data/kv: Get, Put, Append on string keys; an  *)
(* absent key reads as the empty string). Keys is a constant: MCKV.tla takes  *)
(* it from the keys the history mentions, and checks the history key by key. *)
(* An action cannot be called Append in a module that EXTENDS Sequences (\o  *)
(* concatenates strings there): history files rename it ("rename" header).    *)
EXTENDS Sequences
CONSTANT Keys
VARIABLE store  \* key |-> its string

\* @type: (Str, Str) => Bool;
Get(key, value) == value = store[key] /\ UNCHANGED store

\* @type: (Str, Str) => Bool;
Put(key, value) == store' = [store EXCEPT ![key] = value]

\* @type: (Str, Str) => Bool;
AppendValue(key, value) == store' = [store EXCEPT ![key] = @ \o value]

Init == store = [k \in Keys |-> ""]
Next == \E k \in Keys, v \in STRING : Get(k, v) \/ Put(k, v) \/ AppendValue(k, v)
=============================================================================
