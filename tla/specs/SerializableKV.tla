----------------------------- MODULE SerializableKV -----------------------------
(***************************************************************************)
(* The API of SnapshotKV.tla, serializable: the committed transactions     *)
(* appear to run one at a time. Every operation is SnapshotKV's, with its  *)
(* results and errors; in addition a transaction that wrote something may  *)
(* commit only if nothing it read from the database was committed by       *)
(* another transaction since its snapshot: its reads are then still the    *)
(* database's values when it commits, so it runs, as a whole, at its       *)
(* commit. A transaction that wrote nothing runs at its snapshot.          *)
(*                                                                          *)
(* So write skew, legal under SnapshotKV, is refused here: T1 and T2 both  *)
(* read x and y, T1 writes x and T2 writes y, both commit; whichever       *)
(* commits second read a key the first changed.                            *)
(*                                                                          *)
(* This is serializability in commit order, what strict two-phase locking  *)
(* gives (RocksDB's GetForUpdate locks what it reads until the commit).    *)
(* It is stronger than serializability in general: a history whose only   *)
(* serial order puts a writer before one that committed earlier (T1 reads  *)
(* y, T2 writes y and commits, T1 writes x and commits: T1 then T2) is     *)
(* refused too. docs/storage.md says why that is the property to check.    *)
(***************************************************************************)
EXTENDS Integers, TLC
CONSTANT Locking
VARIABLES
  db, txns, unreleased,  \* as in SnapshotKV
  reads      \* an active transaction's id |-> the keys it read from the database

SI == INSTANCE SnapshotKV

\* A read of key by txn that did not come from its own writes.
ReadFromDatabase(txn, key) == (txn :> reads[txn] \cup (IF key \in DOMAIN txns[txn].writes THEN {} ELSE {key})) @@ reads

\* @type: (Int, Int) => Bool;
Begin(txn, previous) == SI!Begin(txn, previous) /\ reads' = (txn :> {}) @@ reads

\* @type: (Int, Int, Int, Str) => Bool;
Get(txn, key, value, status) == SI!Get(txn, key, value, status) /\ reads' = ReadFromDatabase(txn, key)

\* @type: (Int, Int, Int, Str) => Bool;
GetForUpdate(txn, key, value, status) ==
  /\ SI!GetForUpdate(txn, key, value, status)
  /\ reads' = IF status \in {"ok", "not_found"} THEN ReadFromDatabase(txn, key) ELSE reads

\* @type: (Int, Int, Int, Str) => Bool;
Put(txn, key, value, status) == SI!Put(txn, key, value, status) /\ UNCHANGED reads

\* @type: (Int, Int, Str) => Bool;
Delete(txn, key, status) == SI!Delete(txn, key, status) /\ UNCHANGED reads

\* A transaction that wrote nothing runs at its snapshot; one that wrote, at its commit, where what
\* it read must still be the database's: none of it committed by another since its snapshot.
RunsAtItsCommit(txn) == DOMAIN txns[txn].writes = {} \/ reads[txn] \cap txns[txn].stale = {}

\* @type: (Int, Str) => Bool;
Commit(txn, status) ==
  /\ SI!Commit(txn, status)
  /\ status = "ok" => RunsAtItsCommit(txn)
  /\ reads' = IF status = "ok" THEN [t \in DOMAIN reads \ {txn} |-> reads[t]] ELSE reads

\* @type: (Int) => Bool;
Rollback(txn) == SI!Rollback(txn) /\ reads' = [t \in DOMAIN reads \ {txn} |-> reads[t]]

Init == SI!Init /\ reads = <<>>
\* @groups: txn;
Next ==
  \E txn, key, value \in Int, status \in STRING :
    \/ Begin(txn, value)
    \/ Get(txn, key, value, status)
    \/ GetForUpdate(txn, key, value, status)
    \/ Put(txn, key, value, status)
    \/ Delete(txn, key, status)
    \/ Commit(txn, status)
    \/ Rollback(txn)
=============================================================================
