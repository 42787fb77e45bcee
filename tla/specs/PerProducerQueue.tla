-------------------------- MODULE PerProducerQueue --------------------------
(***************************************************************************)
(* moodycamel::ConcurrentQueue's ordering guarantee: items from one        *)
(* producer come out in the order that producer put them in; there is no   *)
(* order across producers (OmniLink paper, Sections 7.1.3 and 7.2.3). Not  *)
(* linearizable as one FIFO queue.                                          *)
(*                                                                          *)
(* A bulk dequeue takes its items one at a time (DequeueBulk_Step, each    *)
(* the head of some producer's stream), interleaved with other operations, *)
(* then finishes (DequeueBulk_Done). Values must be unique in a trace: a   *)
(* bulk dequeue is identified by the items it returned.                    *)
(* try_dequeue may fail while items are queued (it says "likely empty"),   *)
(* so a failed dequeue is always allowed.                                   *)
(***************************************************************************)
EXTENDS Sequences, Integers, TLC
VARIABLES
  streams,   \* producer |-> the items it queued and nobody took yet
  taking     \* the items of bulk dequeues in progress |-> how many are taken

AppendTo(s, p, elems) == [q \in DOMAIN s \cup {p} |-> (IF q \in DOMAIN s THEN s[q] ELSE <<>>) \o (IF q = p THEN elems ELSE <<>>)]

\* @type: (Int, Int) => Bool;
Enqueue(producer, elem) == streams' = AppendTo(streams, producer, <<elem>>) /\ UNCHANGED taking

\* @type: (Int, Seq(Int)) => Bool;
EnqueueBulk(producer, elems) == streams' = AppendTo(streams, producer, elems) /\ UNCHANGED taking

TakeHead(elem) ==
  \E p \in DOMAIN streams :
    /\ streams[p] # <<>>
    /\ Head(streams[p]) = elem
    /\ streams' = [streams EXCEPT ![p] = Tail(@)]

\* @type: (Int, Bool) => Bool;
Dequeue(elem, ok) == IF ok THEN TakeHead(elem) /\ UNCHANGED taking ELSE UNCHANGED <<streams, taking>>

Taken(elems) == IF elems \in DOMAIN taking THEN taking[elems] ELSE 0

\* @type: (Seq(Int)) => Bool;
DequeueBulk_Step(elems) ==
  /\ Taken(elems) < Len(elems)
  /\ TakeHead(elems[Taken(elems) + 1])
  /\ taking' = [e \in DOMAIN taking \cup {elems} |-> IF e = elems THEN Taken(elems) + 1 ELSE taking[e]]

\* @type: (Seq(Int)) => Bool;
DequeueBulk_Done(elems) ==
  /\ Taken(elems) = Len(elems)
  /\ taking' = [e \in DOMAIN taking \ {elems} |-> taking[e]]
  /\ UNCHANGED streams

Init == streams = <<>> /\ taking = <<>>
Next ==
  \E p, e \in Int, es \in Seq(Int), ok \in BOOLEAN :
    \/ Enqueue(p, e)
    \/ EnqueueBulk(p, es)
    \/ Dequeue(e, ok)
    \/ DequeueBulk_Step(es)
    \/ DequeueBulk_Done(es)
=============================================================================
