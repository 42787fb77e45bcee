----------------------- MODULE MCWiredTigerReadUncommitted -----------------------
(* WiredTigerKV.tla with begin_transaction's isolation=read-uncommitted. *)
Isolation == "read-uncommitted"
=============================================================================
