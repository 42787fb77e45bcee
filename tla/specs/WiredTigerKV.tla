------------------------------ MODULE WiredTigerKV ------------------------------
(***************************************************************************)
(* WiredTiger's transactions on one table (release 3.2.1, as Debian ships *)
(* it), as examples/wiredtiger logs them: Begin, Search, Put (a cursor's   *)
(* insert, overwrite=true), Remove (a cursor's remove, overwrite=false),   *)
(* Commit and Rollback. docs/storage.md says where in WiredTiger's source  *)
(* and documentation each rule below comes from.                           *)
(*                                                                          *)
(* Each key has a chain of updates, newest first, as WiredTiger keeps it: *)
(* the updates of running transactions, then the newest committed one.    *)
(* Nothing older is kept: no reader can reach an update older than a      *)
(* committed one (every isolation level reads the first update in the     *)
(* chain it may see, and a committed update is visible to all but         *)
(* snapshots taken before it, which keep their own copy here). So the     *)
(* state never grows with the run: a running transaction's updates and    *)
(* one committed value per key.                                            *)
(*                                                                          *)
(* Isolation (begin_transaction's isolation=):                            *)
(*   "snapshot"          reads see the values committed when the           *)
(*                       transaction began, and its own writes; a write    *)
(*                       whose key's newest update it cannot see (another  *)
(*                       running transaction's, or one committed since it  *)
(*                       began) is refused WT_ROLLBACK at once, without    *)
(*                       waiting: the first updater wins.                  *)
(*   "read-committed"    reads see the newest committed update, or its own *)
(*                       newer one; writes are never refused.              *)
(*   "read-uncommitted"  reads see the newest update, committed or not.    *)
(* Values and transaction ids are unique in a trace (the harness makes    *)
(* them so): a read's value names the write it saw.                        *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC
CONSTANT Isolation  \* "snapshot", "read-committed" or "read-uncommitted"
VARIABLES
  chain,  \* key |-> its updates, newest first: [by |-> txn, v |-> <<value>>, or <<>> for a
          \* removal]; by = 0 marks the committed one, the last. A key without updates is absent.
  txns    \* a running transaction |-> [snap |-> key |-> <<value>> as committed when it began
          \* (snapshot isolation only), stale |-> the keys others committed since, wrote |-> an
          \* update of it succeeded, failed |-> one of its writes was refused]

Running(txn) == txn \in DOMAIN txns

\* The updates of key that txn may read, newest first: its own; under read-committed the
\* committed one too; under read-uncommitted every one. (Under snapshot isolation it reads its
\* snapshot where it wrote nothing.)
Readable(txn, key) ==
  IF key \notin DOMAIN chain THEN <<>>
  ELSE SelectSeq(chain[key], LAMBDA u : \/ u.by = txn
                                        \/ u.by = 0 /\ Isolation = "read-committed"
                                        \/ Isolation = "read-uncommitted")

\* What txn reads for key: <<value>>, or <<>> when it is not found.
Visible(txn, key) ==
  LET readable == Readable(txn, key) IN
  IF readable # <<>> THEN Head(readable).v
  ELSE IF key \in DOMAIN txns[txn].snap THEN txns[txn].snap[key] ELSE <<>>

\* The committed value of key, <<>> when it has none (absent or removed).
Committed(key) ==
  IF key \in DOMAIN chain /\ chain[key][Len(chain[key])].by = 0 THEN chain[key][Len(chain[key])].v ELSE <<>>

\* A search's result: "ok" with the value, or "not_found" (its value is not looked at). Named for
\* what a refusal means: a value the transaction may not see (a dirty read, or under snapshot
\* isolation a read of a later commit), or one nobody wrote.
ReadsWhatItMaySee(txn, key, value, status) == Visible(txn, key) = IF status = "ok" THEN <<value>> ELSE <<>>

\* A write conflicts when the key's newest update is one txn may not see under snapshot isolation:
\* another running transaction's, or one committed since txn began.
WriteConflict(txn, key) ==
  \/ key \in DOMAIN chain /\ chain[key][1].by \notin {0, txn}
  \/ key \in txns[txn].stale
\* Under snapshot isolation a write is refused (WT_ROLLBACK) exactly when it conflicts, at once and
\* without waiting. Named for what a write that succeeds then would be: a dirty write over an
\* uncommitted update, or a lost update.
FirstUpdaterWins(txn, key, status) == (status = "rollback") = WriteConflict(txn, key)
\* Outside snapshot isolation WiredTiger checks no conflict: every write goes on the chain.
WritesUnchecked(status) == status # "rollback"

\* @type: (Int) => Bool;
Begin(txn) ==
  /\ ~Running(txn)
  /\ txns' = (txn :> [snap |-> IF Isolation = "snapshot"
                                 THEN [k \in {k \in DOMAIN chain : Committed(k) # <<>>} |-> Committed(k)]
                                 ELSE <<>>,
                      stale |-> {}, wrote |-> FALSE, failed |-> FALSE]) @@ txns
  /\ UNCHANGED chain

\* @type: (Int, Int, Int, Str) => Bool;
Search(txn, key, value, status) ==
  /\ Running(txn)
  /\ status \in {"ok", "not_found"}
  /\ ReadsWhatItMaySee(txn, key, value, status)
  /\ UNCHANGED <<chain, txns>>

\* key's chain with update u on top.
Pushed(key, u) == [k \in DOMAIN chain \cup {key} |-> IF k = key THEN <<u>> \o (IF key \in DOMAIN chain THEN chain[key] ELSE <<>>) ELSE chain[k]]

\* A write's outcome in txn's record: an update made, or a refusal that marks it failed.
Noted(txn, status) ==
  txns' = CASE status = "ok" -> [txns EXCEPT ![txn].wrote = TRUE]
            [] status = "rollback" -> [txns EXCEPT ![txn].failed = TRUE]
            [] OTHER -> txns

\* @type: (Int, Int, Int, Str) => Bool;
Put(txn, key, value, status) ==
  /\ Running(txn)
  /\ status \in {"ok", "rollback"}
  /\ Isolation = "snapshot" => FirstUpdaterWins(txn, key, status)
  /\ Isolation # "snapshot" => WritesUnchecked(status)
  /\ chain' = IF status = "ok" THEN Pushed(key, [by |-> txn, v |-> <<value>>]) ELSE chain
  /\ Noted(txn, status)

\* The conflict is found before the key is looked for: a refused removal of a key that is not
\* there is "rollback", not "not_found".
\* @type: (Int, Int, Str) => Bool;
Remove(txn, key, status) ==
  /\ Running(txn)
  /\ status \in {"ok", "not_found", "rollback"}
  /\ Isolation = "snapshot" => FirstUpdaterWins(txn, key, status)
  /\ Isolation # "snapshot" => WritesUnchecked(status)
  /\ status # "rollback" => ((status = "not_found") = (Visible(txn, key) = <<>>))
  /\ chain' = IF status = "ok" THEN Pushed(key, [by |-> txn, v |-> <<>>]) ELSE chain
  /\ Noted(txn, status)

\* updates cut after the first committed one: nothing older can be read.
Cut(updates) ==
  LET committed == {i \in 1..Len(updates) : updates[i].by = 0}
  IN IF committed = {} THEN updates ELSE SubSeq(updates, 1, CHOOSE i \in committed : \A j \in committed : i <= j)
Without(txn, updates) == SelectSeq(updates, LAMBDA u : u.by # txn)
\* updates with txn's committed, and cut.
Resolved(txn, updates) == Cut([i \in 1..Len(updates) |-> IF updates[i].by = txn THEN [updates[i] EXCEPT !.by = 0] ELSE updates[i]])

Written(txn) == {k \in DOMAIN chain : \E i \in 1..Len(chain[k]) : chain[k][i].by = txn}

\* A transaction a write of which was refused cannot commit once it has updated anything: commit
\* says EINVAL ("failed transaction requires rollback") and the transaction goes on running, to be
\* rolled back. One that updated nothing commits (the OmniLink paper's first WiredTiger finding).
FailedTransactionRequiresRollback(txn, status) == (status = "invalid") = (txns[txn].failed /\ txns[txn].wrote)

\* Commit: txn's updates become committed (its newest per key the key's committed value), and the
\* keys it wrote are stale for every transaction still running.
\* @type: (Int, Str) => Bool;
Commit(txn, status) ==
  /\ Running(txn)
  /\ status \in {"ok", "invalid"}
  /\ FailedTransactionRequiresRollback(txn, status)
  /\ IF status = "ok"
       THEN LET written == Written(txn) IN
            /\ chain' = [k \in DOMAIN chain |-> IF k \in written THEN Resolved(txn, chain[k]) ELSE chain[k]]
            /\ txns' = [t \in DOMAIN txns \ {txn} |-> [txns[t] EXCEPT !.stale = @ \cup written]]
       ELSE UNCHANGED <<chain, txns>>

\* @type: (Int) => Bool;
Rollback(txn) ==
  /\ Running(txn)
  /\ chain' = [k \in {k \in DOMAIN chain : Without(txn, chain[k]) # <<>>} |-> Without(txn, chain[k])]
  /\ txns' = [t \in DOMAIN txns \ {txn} |-> txns[t]]

Init == chain = <<>> /\ txns = <<>>
\* @groups: txn;
Next ==
  \E txn, key, value \in Int, status \in STRING :
    \/ Begin(txn)
    \/ Search(txn, key, value, status)
    \/ Put(txn, key, value, status)
    \/ Remove(txn, key, status)
    \/ Commit(txn, status)
    \/ Rollback(txn)
=============================================================================
