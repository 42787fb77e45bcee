---------------------------- MODULE Queue ----------------------------
(* A linearizable FIFO queue (paper Listing 1), plus a bulk dequeue. *)
EXTENDS Sequences, Naturals
CONSTANT Values
VARIABLES queue, pending

\* @type: (Int) => Bool;
\* @inputs: elem;
Enqueue(elem) == queue' = Append(queue, elem) /\ UNCHANGED pending

\* @type: (Int, Bool) => Bool;
Dequeue(elem, ok) ==
    \/ /\ ok
       /\ queue # <<>>
       /\ Head(queue) = elem
       /\ queue' = Tail(queue)
    \/ /\ ~ok /\ queue = <<>> /\ UNCHANGED queue
    /\ UNCHANGED pending

\* @type: (Seq(Int)) => Bool;
Bulk_Step(elems) == UNCHANGED <<queue, pending>>
Bulk_Done(elems) == UNCHANGED <<queue, pending>>

Init == queue = <<>> /\ pending = {}

Next ==
    \/ \E elem \in Values :
          \/ Enqueue(elem)
          \/ \E ok \in BOOLEAN : Dequeue(elem, ok)
    \/ LET S == Seq(Values) IN \E es \in S : Bulk_Step(es) \/ Bulk_Done(es)
    \/ (Enqueue(0))
=======================================================================
