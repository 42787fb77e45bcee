------------------------ MODULE MCWiredTigerStrictTimestamps ------------------------
(* WiredTigerKV.tla at snapshot isolation with the OmniLink paper's WiredTiger model's rule that  *)
(* a key's commit timestamps grow strictly. WiredTiger 3.2.1 allows two transactions to commit   *)
(* one key at one timestamp (and, without the table's assert=(commit_timestamp=key_consistent),  *)
(* even at an earlier one): real runs with commits_per_ts=2 fail this module (issue 43).        *)
EXTENDS Naturals, WiredTigerResults
Isolation == "snapshot"
KeyTimestampOrder(prev, ts) == prev < ts
=============================================================================
