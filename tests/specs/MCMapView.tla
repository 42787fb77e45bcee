----------------------------- MODULE MCMapView -----------------------------
(* Map.tla's constants plus a VIEW: an MC module declares the spec's variables to define one. *)
EXTENDS OmniLinkTrace
VARIABLE store
Keys == OmniLinkFieldValues("Insert", 1) \cup OmniLinkFieldValues("Erase", 1) \cup OmniLinkFieldValues("Find", 1)
\* Only which keys are present matters for ordering decisions here.
PresentKeys == {k \in DOMAIN store : store[k].present}
=============================================================================
