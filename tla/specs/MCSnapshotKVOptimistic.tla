------------------------- MODULE MCSnapshotKVOptimistic -------------------------
(* SnapshotKV.tla (and SerializableKV.tla) for RocksDB's OptimisticTransactionDB: no locks, *)
(* conflicts found at commit.                                                                *)
Locking == FALSE
=============================================================================
