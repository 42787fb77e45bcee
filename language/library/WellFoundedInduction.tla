---- MODULE WellFoundedInduction ----
(* Proof-only: theorems and proof rules for the TLA+ proof system, nothing to evaluate. omnilink  *)
(* keeps only what the module extends, which a spec that extends it may use.                   *)
EXTENDS NaturalsInduction
====
