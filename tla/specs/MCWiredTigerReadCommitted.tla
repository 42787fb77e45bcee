------------------------ MODULE MCWiredTigerReadCommitted ------------------------
(* WiredTigerKV.tla with begin_transaction's isolation=read-committed. *)
Isolation == "read-committed"
=============================================================================
