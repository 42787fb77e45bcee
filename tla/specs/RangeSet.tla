------------------------------ MODULE RangeSet ------------------------------
(* A linearizable ordered set with range queries: the API of the OmniLink  *)
(* paper's Fig. 4 workload (contains, insert, insertIfAbsent, erase and    *)
(* rangeQuery on small integer keys), whose histories bench/porcupine_     *)
(* comparison generates. A range query sees one instant: it cannot be      *)
(* checked key by key, so the set is one object.                           *)
EXTENDS Integers
VARIABLE present  \* the keys in the set

\* @type: (Int, Bool) => Bool;
Contains(key, found) == found = (key \in present) /\ UNCHANGED present

\* @type: (Int) => Bool;
Insert(key) == present' = present \cup {key}

\* @type: (Int, Bool) => Bool;
InsertIfAbsent(key, inserted) ==
  /\ inserted = (key \notin present)
  /\ present' = present \cup {key}

\* @type: (Int, Bool) => Bool;
Erase(key, erased) ==
  /\ erased = (key \in present)
  /\ present' = present \ {key}

\* @type: (Int, Int, Set(Int)) => Bool;
RangeQuery(low, high, found) ==
  /\ found = {k \in present : low <= k /\ k <= high}
  /\ UNCHANGED present

Init == present = {}
Next == \E k, h \in Int, b \in BOOLEAN, s \in SUBSET Int :
          Contains(k, b) \/ Insert(k) \/ InsertIfAbsent(k, b) \/ Erase(k, b) \/ RangeQuery(k, h, s)
=============================================================================
