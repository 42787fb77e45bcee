------------------------------ MODULE WiredTigerResults ------------------------------
(* Every result a WiredTigerKV.tla call in flight could have returned, for a run that died  *)
(* during one (docs/validation.md, Pending operations): the statuses each action allows, and *)
(* for a search any value a Put wrote (0 when not found). With these, validation needs no    *)
(* certification of a failing run with a pending call. Each MC module EXTENDS this one.      *)
EXTENDS OmniLinkTrace
OmniLinkDomain_BeginAt_status == {"ok", "invalid"}
OmniLinkDomain_Search_status == {"ok", "not_found", "prepare_conflict"}
OmniLinkDomain_Search_value == OmniLinkFieldValues("Put", 3) \cup {0}
OmniLinkDomain_Put_status == {"ok", "rollback"}
OmniLinkDomain_Remove_status == {"ok", "not_found", "rollback"}
OmniLinkDomain_Commit_status == {"ok", "invalid"}
OmniLinkDomain_CommitAt_status == {"ok", "invalid"}
OmniLinkDomain_Prepare_status == {"ok", "invalid"}
OmniLinkDomain_CommitPrepared_status == {"ok", "invalid"}
OmniLinkDomain_SetTimestamps_status == {"ok", "invalid"}
=============================================================================
