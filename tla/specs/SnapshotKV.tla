------------------------------- MODULE SnapshotKV -------------------------------
(***************************************************************************)
(* A transactional key-value store under snapshot isolation, as RocksDB's  *)
(* transactions provide it (docs/storage.md says what is modelled, what is *)
(* left out, and why).                                                      *)
(*                                                                          *)
(* A transaction reads the database as it was when it began (its snapshot),*)
(* plus its own writes, and its writes become visible to others all at     *)
(* once when it commits. A write to a key that another transaction         *)
(* committed after this one's snapshot is a write-write conflict: the      *)
(* first committer wins, and this one is refused with status "busy".       *)
(* Where the conflict is found depends on the database:                    *)
(*   Locking = TRUE   TransactionDB (pessimistic): a write locks its key   *)
(*                    first (waiting while another transaction holds it;   *)
(*                    "timed_out" when the wait ends first), then checks   *)
(*                    the snapshot: "busy" refuses the write (releasing    *)
(*                    the lock it held meanwhile), the transaction goes    *)
(*                    on; its commit cannot fail.                          *)
(*   Locking = FALSE  OptimisticTransactionDB: writes take no locks and     *)
(*                    always succeed; the commit checks every key the      *)
(*                    transaction wrote or read for update, and fails      *)
(*                    "busy" (applying nothing; the transaction is then    *)
(*                    rolled back) if one was committed by another after   *)
(*                    the snapshot.                                        *)
(* Error results are parameters of the actions: an operation that returned *)
(* "busy" is a step the spec must allow in that state, never skipped.      *)
(*                                                                          *)
(* Nothing in the state grows with the run: instead of a log of commits    *)
(* and a snapshot timestamp per transaction, each active transaction keeps *)
(* its snapshot and the keys committed by others since it (stale); a      *)
(* finished transaction leaves nothing behind but the keys it may not     *)
(* have unlocked yet, until its thread begins another (Begin's previous). *)
(* So no VIEW is needed: every part of the state can still change a later *)
(* result (docs/storage.md).                                               *)
(*                                                                          *)
(* Values and transaction ids must be unique in a trace (the harness makes *)
(* them so): a read's value then names the write it saw.                   *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC
CONSTANT Locking  \* TRUE: TransactionDB (row locks); FALSE: OptimisticTransactionDB
VARIABLES
  db,         \* key |-> the committed value (a key not in DOMAIN db is not found)
  txns,       \* an active transaction's id |-> its state, a Txn record below
  unreleased  \* a committed transaction's id |-> the keys it may not have unlocked yet (Locking)

\* A transaction's own writes map a key to <<value>>, or to <<>> for a delete.
NewTxn == [snap |-> db,       \* the database when it began
           writes |-> <<>>,   \* key |-> <<value>> or <<>> (deleted)
           stale |-> {},      \* keys committed by others since it began
           locks |-> {},      \* keys it holds locks on (Locking only)
           checked |-> {}]    \* keys its commit checks (not Locking): written or read for update

Active(txn) == txn \in DOMAIN txns
LockedByOther(txn, key) == \E t \in DOMAIN txns : t # txn /\ key \in txns[t].locks

\* What txn reads for key: <<value>>, or <<>> when not found.
Visible(txn, key) ==
  LET t == txns[txn] IN
  IF key \in DOMAIN t.writes THEN t.writes[key]
  ELSE IF key \in DOMAIN t.snap THEN <<t.snap[key]>> ELSE <<>>

\* A read's result: "ok" with the value, or "not_found" (its value is not looked at). Named for
\* what a refusal means: a read that saw a commit made after its snapshot (a non-repeatable read,
\* read committed) or a value nobody wrote.
ReadsItsSnapshot(txn, key, value, status) == Visible(txn, key) = IF status = "ok" THEN <<value>> ELSE <<>>

\* unreleased once key's lock is had by another: whoever held it before has let it go.
KeyReleased(key) ==
  LET left == [t \in DOMAIN unreleased |-> unreleased[t] \ {key}]
  IN [t \in {t \in DOMAIN left : left[t] # {}} |-> left[t]]
Unreleased(key) == \E t \in DOMAIN unreleased : key \in unreleased[t]

\* `previous` is the transaction the same thread ran before (0 for its first): whatever it did,
\* its call returned before this one began, and with it every lock it held.
\* @type: (Int, Int) => Bool;
\* @inputs: txn, previous;
Begin(txn, previous) ==
  /\ ~Active(txn)
  /\ txns' = (txn :> NewTxn) @@ txns
  /\ unreleased' = [t \in DOMAIN unreleased \ {previous} |-> unreleased[t]]
  /\ UNCHANGED db

\* @type: (Int, Int, Int, Str) => Bool;
\* @inputs: txn, key;
Get(txn, key, value, status) ==
  /\ Active(txn)
  /\ status \in {"ok", "not_found"}
  /\ ReadsItsSnapshot(txn, key, value, status)
  /\ UNCHANGED <<db, txns, unreleased>>

\* Under Locking, what a write (or a read for update) of key may return, each rule named for what
\* its refusal means. A key txn has locked was checked then: its writes go on.
HeldBy(txn, key) == key \in txns[txn].locks
\* Whether another transaction may hold key's lock for a moment the state does not show: a write
\* locks its key before it checks the snapshot, and a write refused "busy" releases the lock only
\* then (RocksDB 7.8's PessimisticTransaction::TryLock), so a waiter may time out on it. Such a
\* write is possible while another transaction has the key stale and unlocked. (Seen under rr
\* chaos, which can starve the thread between its lock and its check for longer than the timeout.)
MayBeLockedForARefusal(txn, key) ==
  \E t \in DOMAIN txns : t # txn /\ key \in txns[t].stale /\ key \notin txns[t].locks
\* A write that needs the lock waits while another transaction holds it, and times out only while
\* one holds it or may: for a refusal above, or after its commit (unreleased, at Commit) ...
WaitsOnlyForAHeldLock(txn, key, status) ==
  /\ ~HeldBy(txn, key) /\ LockedByOther(txn, key) => status = "timed_out"
  /\ status = "timed_out" =>
       /\ ~HeldBy(txn, key)
       /\ LockedByOther(txn, key) \/ MayBeLockedForARefusal(txn, key) \/ Unreleased(key)
\* ... else "busy" exactly when the key was committed by another since the snapshot: a write that
\* succeeds then would overwrite a value the transaction never saw (a lost update).
FirstCommitterWins(txn, key, status) ==
  status # "timed_out" => (status = "busy") = (~HeldBy(txn, key) /\ key \in txns[txn].stale)

\* Locks key (Locking) or marks it for the commit's check; `written` is the write to record, if
\* any: <<<<value>>>>, <<<<>>>> (a delete) or <<>> (GetForUpdate records none).
Claim(txn, key, status, written) ==
  LET t == txns[txn]
      Record == [t EXCEPT !.writes = IF written = <<>> THEN @ ELSE (key :> written[1]) @@ @,
                          !.locks = IF Locking THEN @ \cup {key} ELSE @,
                          !.checked = IF Locking THEN @ ELSE @ \cup {key}]
  IN
  /\ Active(txn)
  /\ status \in IF Locking THEN {"ok", "busy", "timed_out"} ELSE {"ok"}
  /\ Locking => WaitsOnlyForAHeldLock(txn, key, status)
  /\ Locking => FirstCommitterWins(txn, key, status)
  /\ txns' = IF status = "ok" THEN [txns EXCEPT ![txn] = Record] ELSE txns
  /\ unreleased' = IF status = "ok" THEN KeyReleased(key) ELSE unreleased
  /\ UNCHANGED db

\* @type: (Int, Int, Int, Str) => Bool;
\* @inputs: txn, key, value;
Put(txn, key, value, status) == Claim(txn, key, status, <<<<value>>>>)

\* @type: (Int, Int, Str) => Bool;
\* @inputs: txn, key;
Delete(txn, key, status) == Claim(txn, key, status, <<<<>>>>)

\* Reads key and claims it as a write would: under Locking no other transaction can commit it
\* before this one ends. A refused claim reads nothing (its value is not looked at).
\* @type: (Int, Int, Int, Str) => Bool;
\* @inputs: txn, key;
GetForUpdate(txn, key, value, status) ==
  /\ Active(txn)
  /\ \/ /\ status \in {"ok", "not_found"}
        /\ ReadsItsSnapshot(txn, key, value, status)
        /\ Claim(txn, key, "ok", <<>>)
     \/ /\ status \in {"busy", "timed_out"}
        /\ Claim(txn, key, status, <<>>)

\* The database after txn's writes.
Applied(t) ==
  LET deleted == {k \in DOMAIN t.writes : t.writes[k] = <<>>}
      kept == (DOMAIN db \cup DOMAIN t.writes) \ deleted
  IN [k \in kept |-> IF k \in DOMAIN t.writes THEN t.writes[k][1] ELSE db[k]]

Conflicted(txn) == ~Locking /\ txns[txn].checked \cap txns[txn].stale # {}

\* Commit: "ok" applies the writes, makes them stale for every other active transaction and ends
\* the transaction; "busy" (not Locking: a checked key was committed by another since the
\* snapshot) changes nothing: the transaction stays, to be rolled back.
\* An "ok" commit's locks are released after its writes are visible, and a rollback's one key
\* after another (RocksDB 7.8's PessimisticTransaction::Commit writes, then Clear() unlocks key by
\* key), so a transaction that began after the writes, or that had one of the keys, may still time
\* out on another: they stay unreleased until another transaction locks the key or the thread
\* begins its next transaction. (Seen under rr chaos: the ending thread starved in between for
\* longer than the timeout. When each lock went is not in the trace: this allows more timeouts
\* than happen, never fewer.)
Unlocking(txn) == IF txns[txn].locks = {} THEN unreleased ELSE (txn :> txns[txn].locks) @@ unreleased
\* @type: (Int, Str) => Bool;
\* @inputs: txn;
Commit(txn, status) ==
  /\ Active(txn)
  /\ status = IF Conflicted(txn) THEN "busy" ELSE "ok"
  /\ IF status = "ok"
       THEN LET written == DOMAIN txns[txn].writes IN
            /\ db' = Applied(txns[txn])
            /\ txns' = [t \in DOMAIN txns \ {txn} |-> [txns[t] EXCEPT !.stale = @ \cup written]]
            /\ unreleased' = Unlocking(txn)
       ELSE UNCHANGED <<db, txns, unreleased>>

\* @type: (Int) => Bool;
\* @inputs: txn;
Rollback(txn) ==
  /\ Active(txn)
  /\ txns' = [t \in DOMAIN txns \ {txn} |-> txns[t]]
  /\ unreleased' = Unlocking(txn)
  /\ UNCHANGED db

Init == db = <<>> /\ txns = <<>> /\ unreleased = <<>>
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
