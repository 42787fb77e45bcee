--------------------------- MODULE MCWiredTigerSnapshot ---------------------------
(* WiredTigerKV.tla with begin_transaction's isolation=snapshot (a session's default is read-committed). *)
EXTENDS WiredTigerResults
Isolation == "snapshot"
=============================================================================
