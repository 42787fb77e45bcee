----------------------- MODULE MCWiredTigerReadUncommitted -----------------------
(* WiredTigerKV.tla with begin_transaction's isolation=read-uncommitted. *)
EXTENDS WiredTigerResults
Isolation == "read-uncommitted"
=============================================================================
