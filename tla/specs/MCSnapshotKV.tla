------------------------------ MODULE MCSnapshotKV ------------------------------
(* SnapshotKV.tla (and SerializableKV.tla) for RocksDB's TransactionDB: writes lock their keys. *)
Locking == TRUE
=============================================================================
