------------------------ MODULE MCWiredTigerReadCommitted ------------------------
(* WiredTigerKV.tla with begin_transaction's isolation=read-committed. *)
EXTENDS WiredTigerResults
Isolation == "read-committed"
=============================================================================
