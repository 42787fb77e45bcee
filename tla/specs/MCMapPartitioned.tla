-------------------------- MODULE MCMapPartitioned --------------------------
(* Map.tla's constants, and its history checked key by key: operations on different keys never *)
(* constrain each other, so the map is linearizable when each key's operations are.            *)
EXTENDS OmniLinkTrace
Keys == OmniLinkFieldValues("Insert", 1) \cup OmniLinkFieldValues("Erase", 1) \cup OmniLinkFieldValues("Find", 1)
OmniLinkPartitionBy == "key"
(* Values are only stored and compared for equality: states that differ only in values no later *)
(* operation logs are one (docs/validation.md, "Data independence").                            *)
OmniLinkDataIndependent == {"value"}
=============================================================================
