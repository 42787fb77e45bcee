------------------------------ MODULE MCSnapshotKV ------------------------------
(* SnapshotKV.tla (and SerializableKV.tla) for RocksDB's TransactionDB: writes lock their keys. *)
Locking == TRUE
(* Transaction ids and written values are only compared for equality and kept in sets and   *)
(* functions: states that differ only in ids and values no later operation logs are one       *)
(* (docs/validation.md, "Data independence"). examples/rocksdb keeps them apart from the keys; *)
(* 0 (a first Begin's previous, a read's value when not found) never enters the state.          *)
OmniLinkDataIndependent == {"txn", "previous", "value"}
=============================================================================
