------------------------------- MODULE MCMap -------------------------------
(* Constants of Map.tla for validation: every key the trace mentions. *)
EXTENDS OmniLinkTrace
Keys == OmniLinkFieldValues("Insert", 1) \cup OmniLinkFieldValues("Erase", 1) \cup OmniLinkFieldValues("Find", 1)
=============================================================================
