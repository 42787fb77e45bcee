--------------------------- MODULE MCWiredTigerSnapshot ---------------------------
(* WiredTigerKV.tla with begin_transaction's isolation=snapshot (WiredTiger's default). *)
Isolation == "snapshot"
=============================================================================
