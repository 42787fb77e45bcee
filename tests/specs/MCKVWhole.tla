------------------------------ MODULE MCKVWhole ------------------------------
(* KV.tla's keys, the history checked whole (not key by key, as MCKV.tla does): *)
(* for comparing the native checker's depth with TLC's on the same search.      *)
EXTENDS OmniLinkTrace
Keys == OmniLinkFieldValues("Get", 1) \cup OmniLinkFieldValues("Put", 1) \cup OmniLinkFieldValues("AppendValue", 1)
=============================================================================
