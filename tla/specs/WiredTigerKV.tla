------------------------------ MODULE WiredTigerKV ------------------------------
(***************************************************************************)
(* WiredTiger's transactions on one table (release 3.2.1, as Debian ships *)
(* it), as examples/wiredtiger logs them: Begin, Search, Put (a cursor's   *)
(* insert, overwrite=true), Remove (a cursor's remove, overwrite=false),   *)
(* Commit and Rollback; with timestamps, BeginAt (read_timestamp=),        *)
(* CommitAt (commit_timestamp=) and SetTimestamps (the connection's        *)
(* oldest and stable timestamps). docs/storage.md says where in            *)
(* WiredTiger's source and documentation each rule below comes from.       *)
(*                                                                          *)
(* Each key has a chain of updates, newest first, as WiredTiger keeps it, *)
(* and a reader reads the first update in it that it may see: one its    *)
(* snapshot has (by transaction id) and its read timestamp allows (an     *)
(* update's commit timestamp at most the read timestamp: <=). Both are    *)
(* fixed when a transaction begins, so a snapshot is copied then (what    *)
(* each key holds for it), and the chain serves transactions without one  *)
(* and those yet to begin, whose read timestamp is at least the oldest    *)
(* timestamp: it is cut below the first committed update whose timestamp  *)
(* is at most the oldest. So the state grows with what the oldest         *)
(* timestamp pins and what running transactions hold, not with the run.  *)
(*                                                                          *)
(* No rule orders commit timestamps: WiredTiger 3.2.1 lets two            *)
(* transactions commit one key at the same timestamp, and commit out of   *)
(* timestamp order (only an opt-in table assertion checks a key's         *)
(* order). MCWiredTigerStrictTimestamps.tla and                           *)
(* MCWiredTigerOrderedCommits.tla add those two rules, as the OmniLink    *)
(* paper's WiredTiger model had them: real runs refute both.              *)
(*                                                                          *)
(* Isolation (begin_transaction's isolation=; a read timestamp makes the  *)
(* transaction snapshot isolation whatever was asked):                    *)
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
  chain,    \* key |-> its updates, newest first: [by |-> the running transaction that made it, or
            \* 0 once committed; from |-> the transaction that made it; v |-> <<value>>, or <<>> for a
            \* removal; ts |-> its commit timestamp, 0 for none]. A key without updates is absent.
  txns,     \* a running transaction |-> [snapshot |-> it reads the snapshot taken when it began;
            \* snap |-> key |-> <<value>> in that snapshot (snapshot isolation only); unseen |-> the
            \* transactions that wrote and committed since; saw |-> those prepared then; read |-> its read
            \* timestamp, 0 for none; prepared |-> its prepare timestamp, 0 unless prepared;
            \* wrote |-> an update of it succeeded; failed |-> a call of it was refused; found |-> its
            \* removal in progress found its key (Remove_Step);
            \* oldest, stable |-> the connection's timestamps when it began (UnlockedCheck)]
  newest,   \* the latest commit timestamp so far, 0 before the first
  oldest,   \* the connection's oldest timestamp, 0 until set
  stable    \* the connection's stable timestamp, 0 until set

Running(txn) == txn \in DOMAIN txns
Max(a, b) == IF a >= b THEN a ELSE b

\* The updates of key that txn may read in the chain, newest first: its own; outside snapshot
\* isolation the committed ones too, and under read-uncommitted every one. (A transaction with a
\* snapshot reads the snapshot where it wrote nothing.)
Readable(txn, key) ==
  IF key \notin DOMAIN chain THEN <<>>
  ELSE SelectSeq(chain[key], LAMBDA u : \/ u.by = txn
                                        \/ ~txns[txn].snapshot /\ (u.by = 0 \/ Isolation = "read-uncommitted"))

\* What txn reads for key: <<value>>, or <<>> when it is not found.
Visible(txn, key) ==
  LET readable == Readable(txn, key) IN
  IF readable # <<>> THEN Head(readable).v
  ELSE IF key \in DOMAIN txns[txn].snap THEN txns[txn].snap[key] ELSE <<>>

\* The committed updates of a chain that a reader at timestamp read_ts (0: none) may see, newest
\* first: those without a timestamp, and those whose timestamp is not later than read_ts (<=).
AtTimestamp(updates, read_ts) == SelectSeq(updates, LAMBDA u : u.by = 0 /\ (u.ts = 0 \/ read_ts = 0 \/ u.ts <= read_ts))

\* The snapshot of a transaction that begins now, reading at read_ts: what each key's first update
\* it may see holds, where that is a value. It never changes: later commits are not in it. (What
\* each key's reader sees is a function bound once: a LET definition without parameters is
\* evaluated once per evaluation of its LET, by TLC and the embedded checker alike; one with a
\* parameter, at each use.)
Snapshot(read_ts) ==
  LET seen == [k \in DOMAIN chain |-> AtTimestamp(chain[k], read_ts)]
  IN [k \in {k \in DOMAIN chain : seen[k] # <<>> /\ Head(seen[k]).v # <<>>} |-> Head(seen[k]).v]

\* A search's result: "ok" with the value, or "not_found" (its value is not looked at). Named for
\* what a refusal means: a value the transaction may not see (a dirty read, under snapshot
\* isolation a read of a later commit or of one after the read timestamp), or one nobody wrote.
\* A facet of the visibility guarantee, as RemovesWhatItMaySee is: a run that breaks either signs
\* as breaking Visibility (docs/campaign.md, "Failure signatures").
\* @guarantee: Visibility;
ReadsWhatItMaySee(txn, key, value, status) == Visible(txn, key) = IF status = "ok" THEN <<value>> ELSE <<>>

\* A write conflicts when txn, reading a snapshot, may not see the key's newest update: another
\* running (or prepared) transaction's, one committed since txn began (unless prepared before: a
\* prepared transaction's id leaves the snapshots taken after), or one committed after its read
\* timestamp.
WriteConflict(txn, key) ==
  /\ key \in DOMAIN chain
  /\ LET u == chain[key][1] IN
       \/ u.by \notin {0, txn}
       \/ u.by = 0 /\ (u.from \in txns[txn].unseen \ txns[txn].saw \/ (u.ts # 0 /\ txns[txn].read # 0 /\ u.ts > txns[txn].read))
\* Under snapshot isolation a write is refused (WT_ROLLBACK) exactly when it conflicts, at once and
\* without waiting. Named for what a write that succeeds then would be: a dirty write over an
\* uncommitted update, or a lost update.
FirstUpdaterWins(txn, key, status) == (status = "rollback") = WriteConflict(txn, key)
\* Outside snapshot isolation WiredTiger checks no conflict: every write goes on the chain.
WritesUnchecked(status) == status # "rollback"

\* Update u hides everything older from every reader, running or yet to begin: it is committed,
\* and a reader at a timestamp sees it, since a new read timestamp is at least the oldest timestamp
\* old. (A running transaction with a snapshot reads its snapshot; one without sees every commit.)
SeenByAll(u, old) == u.by = 0 /\ u.ts <= old
\* updates cut below the first that every reader sees.
Cut(updates, old) ==
  LET covering == {i \in 1..Len(updates) : SeenByAll(updates[i], old)}
  IN IF covering = {} THEN updates ELSE SubSeq(updates, 1, CHOOSE i \in covering : \A j \in covering : i <= j)
\* Chains ch with those of keys ks cut for oldest timestamp old; a key left with no update is
\* absent. (A committed removal stays: a transaction that began before it conflicts with it.)
Pruned(ch, ks, old) ==
  LET cut == [k \in DOMAIN ch |-> IF k \in ks THEN Cut(ch[k], old) ELSE ch[k]]
  IN [k \in {k \in DOMAIN ch : cut[k] # <<>>} |-> cut[k]]

\* txn begins, reading at timestamp read_ts (0: none).
Started(txn, read_ts) ==
  LET snapshot == Isolation = "snapshot" \/ read_ts # 0
  IN txns' = (txn :> [snapshot |-> snapshot, snap |-> IF snapshot THEN Snapshot(read_ts) ELSE <<>>, unseen |-> {},
                      saw |-> {t \in DOMAIN txns : txns[t].prepared # 0}, read |-> read_ts, prepared |-> 0,
                      wrote |-> FALSE, failed |-> FALSE, found |-> FALSE, oldest |-> oldest, stable |-> stable]) @@ txns

\* @type: (Int) => Bool;
\* @inputs: txn;
Begin(txn) ==
  /\ ~Running(txn)
  /\ Started(txn, 0)
  /\ UNCHANGED <<chain, newest, oldest, stable>>

\* begin_transaction with read_timestamp=read_ts is refused (EINVAL, and no transaction runs) exactly
\* when read_ts is older than the oldest timestamp (equal is allowed).
ReadTimestampNotBeforeOldest(read_ts, status) == (status = "invalid") = (read_ts < oldest)

\* @type: (Int, Int, Str) => Bool;
\* @inputs: txn, read_ts;
BeginAt(txn, read_ts, status) ==
  /\ ~Running(txn)
  /\ status \in {"ok", "invalid"}
  /\ ReadTimestampNotBeforeOldest(read_ts, status)
  /\ IF status = "ok" THEN Started(txn, read_ts) ELSE UNCHANGED txns
  /\ UNCHANGED <<chain, newest, oldest, stable>>

\* A transaction that may read or write: running and not prepared.
Active(txn) == Running(txn) /\ txns[txn].prepared = 0

\* txn would read a prepared transaction's update of key: one prepared before txn began (so
\* visible by id), at a prepare timestamp its read timestamp does not exclude (<=).
PreparedInTheWay(txn, key) ==
  /\ key \in DOMAIN chain
  /\ \E i \in 1..Len(chain[key]) :
       LET by == chain[key][i].by IN
       by \in txns[txn].saw /\ by \in DOMAIN txns /\ txns[by].prepared # 0 /\ (txns[txn].read = 0 \/ txns[by].prepared <= txns[txn].read)
\* A search returns WT_PREPARE_CONFLICT exactly then, and otherwise what txn may see.
\* @type: (Int, Int, Int, Str) => Bool;
\* @inputs: txn, key;
Search(txn, key, value, status) ==
  /\ Active(txn)
  /\ IF PreparedInTheWay(txn, key)
       THEN status = "prepare_conflict"
       ELSE status \in {"ok", "not_found"} /\ ReadsWhatItMaySee(txn, key, value, status)
  /\ UNCHANGED <<chain, txns, newest, oldest, stable>>

\* key's chain with update u on top.
Pushed(key, u) == [k \in DOMAIN chain \cup {key} |-> IF k = key THEN <<u>> \o (IF key \in DOMAIN chain THEN chain[key] ELSE <<>>) ELSE chain[k]]

\* A write's outcome in txn's record: an update made, or a refusal that marks it failed.
Noted(txn, status) ==
  txns' = CASE status = "ok" -> [txns EXCEPT ![txn].wrote = TRUE, ![txn].found = FALSE]
            [] status = "rollback" -> [txns EXCEPT ![txn].failed = TRUE]
            [] OTHER -> txns

\* @type: (Int, Int, Int, Str) => Bool;
\* @inputs: txn, key, value;
Put(txn, key, value, status) ==
  /\ Active(txn)
  /\ status \in {"ok", "rollback"}
  /\ txns[txn].snapshot => FirstUpdaterWins(txn, key, status)
  /\ ~txns[txn].snapshot => WritesUnchecked(status)
  /\ chain' = IF status = "ok" THEN Pushed(key, [by |-> txn, from |-> txn, v |-> <<value>>, ts |-> 0]) ELSE chain
  /\ Noted(txn, status)
  /\ UNCHANGED <<newest, oldest, stable>>

\* The conflict is found before the key is looked for: a refused removal of a key that is not
\* there is "rollback", not "not_found". The key is looked for, and the removal then installed,
\* with no lock between (src/btree/bt_cursor.c, __wt_btcur_remove: __wt_cursor_valid, then
\* __cursor_row_modify; src/include/serial.i, __wt_update_serial re-checks only a write conflict
\* when another update came first). Under snapshot isolation that check refuses whatever changed
\* the key since; outside it a removal succeeds over whatever came between, so two transactions
\* both remove a key they both found (seen under read-uncommitted, once in about 150 runs of
\* 4 threads x 500 calls; later releases look again when the install loses the race). So
\* Remove is a multi-step operation outside snapshot isolation: a Remove_Step is the look-up
\* finding the key, and Remove_Done succeeds if the key is there then or a step found it.
\* @type: (Int, Int, Str) => Bool;
\* @inputs: txn, key;
Remove_Step(txn, key, status) ==
  /\ Active(txn)
  /\ status = "ok"
  /\ ~txns[txn].snapshot
  /\ Visible(txn, key) # <<>>
  /\ txns' = [txns EXCEPT ![txn].found = TRUE]
  /\ UNCHANGED <<chain, newest, oldest, stable>>

\* A removal's result: "not_found" exactly when txn may see no value at key and no look-up step
\* of it found one. Named for what a refusal means: a removal of a value the transaction may not
\* see (committed after its snapshot, or uncommitted), or one that missed a value it sees.
\* @guarantee: Visibility;
RemovesWhatItMaySee(txn, key, status) == (status = "not_found") = (Visible(txn, key) = <<>> /\ ~txns[txn].found)

\* @type: (Int, Int, Str) => Bool;
\* @inputs: txn, key;
Remove_Done(txn, key, status) ==
  /\ Active(txn)
  /\ status \in {"ok", "not_found", "rollback"}
  /\ txns[txn].snapshot => FirstUpdaterWins(txn, key, status)
  /\ ~txns[txn].snapshot => WritesUnchecked(status)
  /\ status # "rollback" => RemovesWhatItMaySee(txn, key, status)
  /\ chain' = IF status = "ok" THEN Pushed(key, [by |-> txn, from |-> txn, v |-> <<>>, ts |-> 0]) ELSE chain
  /\ Noted(txn, status)
  /\ UNCHANGED <<newest, oldest, stable>>

\* The keys txn updated.
Written(txn) == {k \in DOMAIN chain : \E i \in 1..Len(chain[k]) : chain[k][i].by = txn}

\* The transactions running once txn has ended.
Others(txn) == [t \in DOMAIN txns \ {txn} |-> txns[t]]

\* What txn's updates of keys ks (some it wrote) leave, key by key: its newest update's <<value>>,
\* or <<>> for a removal.
Leaves(txn, ks) == [k \in ks |-> Head(SelectSeq(chain[k], LAMBDA u : u.by = txn)).v]
\* Snapshot s with the values vals over it (a removal takes the key out).
Over(s, vals) ==
  [k \in {k \in DOMAIN s \cup DOMAIN vals : k \in DOMAIN vals => vals[k] # <<>>} |-> IF k \in DOMAIN vals THEN vals[k] ELSE s[k]]

\* txn's updates of keys ks become committed at timestamp ts (0: none), and txn ends if ends: the
\* commit is made, and if txn wrote, a write of a transaction running conflicts with its updates
\* (unseen). A transaction that began while txn was prepared sees the commit by id: where its
\* read timestamp allows, txn's values join its snapshot. (Who committed since a transaction
\* began is a set of ids, not a count of commits compared with one taken at its begin: a count
\* would tell apart states that differ only in how many commits were made before, and leaving an
\* optional transaction out (a failing core's question) would then never meet a state reached
\* with it taken.)
Resolved(txn, ts, ks, ends) ==
  LET resolved == [k \in DOMAIN chain |-> IF k \notin ks THEN chain[k] ELSE [i \in 1..Len(chain[k]) |->
                     IF chain[k][i].by = txn THEN [chain[k][i] EXCEPT !.by = 0, !.ts = ts] ELSE chain[k][i]]]
      sees(t) == t # txn /\ txn \in txns[t].saw /\ (txns[t].read = 0 \/ ts <= txns[t].read)
      joined(t) == IF sees(t) THEN [txns[t] EXCEPT !.snap = Over(@, Leaves(txn, ks))] ELSE txns[t]
  IN /\ chain' = Pruned(resolved, ks, oldest)
     /\ txns' = IF ends THEN [t \in DOMAIN txns \ {txn} |-> [joined(t) EXCEPT !.unseen = IF txns[txn].wrote THEN @ \cup {txn} ELSE @]]
                ELSE [t \in DOMAIN txns |-> joined(t)]
\* txn's updates become committed at timestamp ts, and it ends.
Committed(txn, ts) ==
  /\ Resolved(txn, ts, Written(txn), TRUE)
  /\ newest' = Max(newest, ts)

\* txn's updates of keys ks are undone.
Undone(txn, ks) == chain' = Pruned([k \in DOMAIN chain |-> IF k \in ks THEN SelectSeq(chain[k], LAMBDA u : u.by # txn) ELSE chain[k]], ks, oldest)
\* txn's updates are undone, and it ends.
RolledBack(txn) ==
  /\ Undone(txn, Written(txn))
  /\ txns' = Others(txn)
  /\ UNCHANGED newest

\* WiredTiger ends a transaction key by key: rollback_transaction marks each update aborted in
\* turn (src/txn/txn.c, __wt_txn_rollback), and so does a commit refused for its timestamps,
\* which rolls back; a prepared transaction's commit resolves each update in turn
\* (__wt_txn_resolve_prepared_op) before the transaction ends (__wt_txn_release). In between,
\* a write of a key already undone succeeds where one of a key not yet undone still conflicts,
\* and a search of a key resolved reads it where one not yet resolved meets a prepare conflict
\* (both seen under rr chaos). So Rollback, CommitAt and CommitPrepared are multi-step
\* operations: each _Step undoes (or resolves) txn's updates of one key, and _Done does the rest
\* and ends txn. One key of txn undone:
UndoStep(txn) == \E key \in Written(txn) : Undone(txn, {key})

\* A transaction a write of which was refused cannot commit once it has updated anything: commit
\* says EINVAL ("failed transaction requires rollback") and the transaction goes on running, to be
\* rolled back. One that updated nothing commits (the OmniLink paper's first WiredTiger finding).
FailedTransactionRequiresRollback(txn) == txns[txn].failed /\ txns[txn].wrote
\* A call of txn that checks a timestamp against the connection's oldest and stable timestamps
\* does so when it starts, reading them without a lock, and takes effect later (commit makes the
\* updates visible at its end, src/txn/txn.c, __wt_txn_release), so a set_timestamp may come
\* between the check and the effect: the call is refused (status "invalid") only if refused
\* is true of the timestamps now (they only move forward, so they were at most these at the
\* check), and accepted only if refused is false of those txn began with (at least those at the
\* check). A timestamp between the two may go either way, as real runs under rr chaos show
\* (a commit at a timestamp behind a stable timestamp set while it was committing).
UnlockedCheck(txn, status, refused(_, _)) ==
  /\ status = "invalid" => refused(oldest, stable)
  /\ status # "invalid" => ~refused(txns[txn].oldest, txns[txn].stable)

\* A commit timestamp WiredTiger refuses (EINVAL, and the transaction is rolled back): outside
\* snapshot isolation, or before the oldest or the stable timestamp old and stab (equal is
\* allowed). Nothing compares it with other commits' timestamps. A prepared transaction's commit
\* needs a durable timestamp too (CommitPrepared): without one it is refused.
CommitTimestampRefused(txn, ts, old, stab) == txns[txn].prepared # 0 \/ (ts # 0 /\ (~txns[txn].snapshot \/ ts < old \/ ts < stab))
\* WiredTiger orders no commit timestamps (src/txn/txn_timestamp.c checks them against the oldest
\* and stable timestamps only): two transactions may commit one key at one timestamp, and
\* transactions commit in any order of their timestamps. These two rules stand for the ones the
\* OmniLink paper's WiredTiger model had, which real runs refute: MCWiredTigerStrictTimestamps.tla
\* asks a key's commit timestamps to grow strictly (KeyTimestampOrder(prev, ts) == prev < ts), and
\* MCWiredTigerOrderedCommits.tla asks commits to come in timestamp order (CommitOrder(last, ts)
\* == last <= ts). A commit at timestamp ts of a key whose newest committed timestamp is prev:
KeyTimestampOrder(prev, ts) == TRUE
\* A commit at timestamp ts after commits the latest of whose timestamps is last:
CommitOrder(last, ts) == TRUE
\* The newest commit timestamp of key, 0 for none.
KeyTimestamp(key) == LET stamped == SelectSeq(chain[key], LAMBDA u : u.by = 0 /\ u.ts # 0) IN IF stamped = <<>> THEN 0 ELSE Head(stamped).ts
\* A commit at timestamp ts (0: none) keeps the orders the rules above ask for.
TimestampsInOrder(txn, ts) == ts # 0 => (CommitOrder(newest, ts) /\ \A k \in Written(txn) : KeyTimestampOrder(KeyTimestamp(k), ts))

\* Commit is refused for those two reasons, the timestamps as UnlockedCheck says.
CommitRefusedAsChecked(txn, ts, status) ==
  UnlockedCheck(txn, status, LAMBDA old, stab : FailedTransactionRequiresRollback(txn) \/ CommitTimestampRefused(txn, ts, old, stab))

\* A commit refused for its timestamp, rolling txn back a key at a time (UndoStep).
\* @type: (Int, Int, Str) => Bool;
\* @inputs: txn, commit_ts;
CommitAt_Step(txn, commit_ts, status) ==
  /\ Running(txn)
  /\ status = "invalid"
  /\ ~FailedTransactionRequiresRollback(txn)
  /\ UndoStep(txn)
  /\ UNCHANGED <<txns, newest, oldest, stable>>

\* Commit at timestamp commit_ts (0: none): txn's updates become committed, and it ends; refused, it goes on
\* running (a failed transaction) or is rolled back (a refused timestamp).
\* @type: (Int, Int, Str) => Bool;
\* @inputs: txn, commit_ts;
CommitAt_Done(txn, commit_ts, status) ==
  /\ Running(txn)
  /\ status \in {"ok", "invalid"}
  /\ CommitRefusedAsChecked(txn, commit_ts, status)
  /\ status = "ok" => TimestampsInOrder(txn, commit_ts)
  /\ CASE status = "ok" -> Committed(txn, commit_ts)
       [] FailedTransactionRequiresRollback(txn) -> UNCHANGED <<chain, txns, newest>>
       [] OTHER -> RolledBack(txn)
  /\ UNCHANGED <<oldest, stable>>

\* Without a timestamp a commit is refused only for a failed transaction, which it leaves running
\* (a prepared one is committed with CommitPrepared): one step.
\* @type: (Int, Str) => Bool;
\* @inputs: txn;
Commit(txn, status) == CommitAt_Done(txn, 0, status)

\* prepare_transaction(prepare_timestamp=prepare_ts) is refused (EINVAL) for a failed
\* transaction that updated something, or a prepare timestamp older than the oldest (equal is
\* allowed; nothing compares it with stable), checked as UnlockedCheck says. A refused call
\* marks the transaction failed (src/include/api.h, API_END) and leaves it running.
PrepareRefusedAsChecked(txn, prepare_ts, status) ==
  UnlockedCheck(txn, status, LAMBDA old, stab : FailedTransactionRequiresRollback(txn) \/ prepare_ts < old)

\* Prepared, txn's updates stay where they are, and readers whose snapshots were taken since see
\* them by id: a search that would read one gets WT_PREPARE_CONFLICT (Search), a write
\* conflicts. Modelled at snapshot isolation only, where every reader has a snapshot (the
\* harness prepares only there).
\* @type: (Int, Int, Str) => Bool;
\* @inputs: txn, prepare_ts;
Prepare(txn, prepare_ts, status) ==
  /\ Active(txn)
  /\ Isolation = "snapshot"
  /\ status \in {"ok", "invalid"}
  /\ PrepareRefusedAsChecked(txn, prepare_ts, status)
  /\ txns' = IF status = "ok" THEN [txns EXCEPT ![txn].prepared = prepare_ts] ELSE [txns EXCEPT ![txn].failed = TRUE]
  /\ UNCHANGED <<chain, newest, oldest, stable>>

\* A prepared transaction's commit (commit_timestamp= and durable_timestamp=, both required) is
\* refused (EINVAL, and the transaction rolled back) when the commit timestamp is before the
\* prepare timestamp, or the durable one before the commit, the oldest or the stable timestamp
\* (checked as UnlockedCheck says); the commit timestamp itself is not compared with oldest or
\* stable.
PreparedCommitRefused(txn, commit_ts, durable_ts, old, stab) ==
  commit_ts < txns[txn].prepared \/ durable_ts < commit_ts \/ durable_ts < old \/ durable_ts < stab
PreparedCommitRefusedAsChecked(txn, commit_ts, durable_ts, status) ==
  UnlockedCheck(txn, status, LAMBDA old, stab : PreparedCommitRefused(txn, commit_ts, durable_ts, old, stab))

\* One key of a prepared commit resolved (committed, its timestamp order kept), or undone if the
\* commit is refused.
\* @type: (Int, Int, Int, Str) => Bool;
\* @inputs: txn, commit_ts, durable_ts;
CommitPrepared_Step(txn, commit_ts, durable_ts, status) ==
  /\ Running(txn)
  /\ txns[txn].prepared # 0
  /\ IF status = "ok"
       THEN /\ ~PreparedCommitRefused(txn, commit_ts, durable_ts, txns[txn].oldest, txns[txn].stable)
            /\ \E key \in Written(txn) : KeyTimestampOrder(KeyTimestamp(key), commit_ts) /\ Resolved(txn, commit_ts, {key}, FALSE)
       ELSE status = "invalid" /\ UndoStep(txn) /\ UNCHANGED txns
  /\ UNCHANGED <<newest, oldest, stable>>

\* @type: (Int, Int, Int, Str) => Bool;
\* @inputs: txn, commit_ts, durable_ts;
CommitPrepared_Done(txn, commit_ts, durable_ts, status) ==
  /\ Running(txn)
  /\ txns[txn].prepared # 0
  /\ status \in {"ok", "invalid"}
  /\ PreparedCommitRefusedAsChecked(txn, commit_ts, durable_ts, status)
  /\ status = "ok" => TimestampsInOrder(txn, commit_ts)
  /\ IF status = "ok" THEN Committed(txn, commit_ts) ELSE RolledBack(txn)
  /\ UNCHANGED <<oldest, stable>>

\* @type: (Int) => Bool;
\* @inputs: txn;
Rollback_Step(txn) ==
  /\ Running(txn)
  /\ UndoStep(txn)
  /\ UNCHANGED <<txns, newest, oldest, stable>>

\* @type: (Int) => Bool;
\* @inputs: txn;
Rollback_Done(txn) ==
  /\ Running(txn)
  /\ RolledBack(txn)
  /\ UNCHANGED <<oldest, stable>>

\* set_timestamp(oldest_timestamp=oldest_ts,stable_timestamp=stable_ts) is refused (EINVAL) exactly
\* when oldest_ts is later than stable_ts; a timestamp that would move back stays where it is.
OldestNotAfterStable(oldest_ts, stable_ts, status) == (status = "invalid") = (oldest_ts > stable_ts)

\* @type: (Int, Int, Str) => Bool;
\* @inputs: oldest_ts, stable_ts;
SetTimestamps(oldest_ts, stable_ts, status) ==
  /\ status \in {"ok", "invalid"}
  /\ OldestNotAfterStable(oldest_ts, stable_ts, status)
  /\ IF status = "ok"
       THEN /\ oldest' = Max(oldest, oldest_ts)
            /\ stable' = Max(stable, stable_ts)
            /\ chain' = Pruned(chain, DOMAIN chain, Max(oldest, oldest_ts))
       ELSE UNCHANGED <<chain, oldest, stable>>
  /\ UNCHANGED <<txns, newest>>

Init == chain = <<>> /\ txns = <<>> /\ newest = 0 /\ oldest = 0 /\ stable = 0
\* @groups: txn;
Next ==
  \E txn, key, value, ts, ts2 \in Int, status \in STRING :
    \/ Begin(txn)
    \/ BeginAt(txn, ts, status)
    \/ Search(txn, key, value, status)
    \/ Put(txn, key, value, status)
    \/ Remove_Step(txn, key, status)
    \/ Remove_Done(txn, key, status)
    \/ Commit(txn, status)
    \/ CommitAt_Step(txn, ts, status)
    \/ CommitAt_Done(txn, ts, status)
    \/ Prepare(txn, ts, status)
    \/ CommitPrepared_Step(txn, ts, ts2, status)
    \/ CommitPrepared_Done(txn, ts, ts2, status)
    \/ Rollback_Step(txn)
    \/ Rollback_Done(txn)
    \/ SetTimestamps(ts, ts2, status)
=============================================================================
