-------------------------------- MODULE MCKV --------------------------------
(* KV.tla's constants, and its history checked key by key: operations on    *)
(* different keys never constrain each other (P-compositionality).          *)
EXTENDS OmniLinkTrace
Keys == OmniLinkFieldValues("Get", 1) \cup OmniLinkFieldValues("Put", 1) \cup OmniLinkFieldValues("AppendValue", 1)
OmniLinkPartitionBy == "key"
=============================================================================
