------------------------- MODULE MCWiredTigerOrderedCommits -------------------------
(* WiredTigerKV.tla at snapshot isolation with the OmniLink paper's WiredTiger model's rule that  *)
(* transactions commit in the order of their commit timestamps. WiredTiger 3.2.1 lets them       *)
(* commit in any order (test/suite/test_timestamp09.py commits 6, 8, 7 on purpose): real runs,   *)
(* whose threads take a timestamp and are then descheduled before commit, fail this module.     *)
EXTENDS Naturals, WiredTigerResults
Isolation == "snapshot"
CommitOrder(last, ts) == last <= ts
=============================================================================
