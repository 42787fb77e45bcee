------------------------- MODULE LinearizableQueue -------------------------
(***************************************************************************)
(* A linearizable FIFO queue (OmniLink paper, Listing 1), with the empty   *)
(* case observable: a dequeue that finds the queue empty is logged as      *)
(* Dequeue(_, FALSE) and is only possible when the queue is empty.         *)
(* Used by examples/locked-queue and examples/racy-queue.                  *)
(***************************************************************************)
EXTENDS Sequences, Integers

CONSTANT Values  \* the values that may be enqueued (quantified over in Next only)

VARIABLE queue

\* @type: (Int) => Bool; @inputs: elem;
Enqueue(elem) == queue' = Append(queue, elem)

\* @type: (Int, Bool) => Bool; @inputs: ;
Dequeue(elem, ok) ==
  IF ok THEN /\ queue # <<>>
             /\ Head(queue) = elem
             /\ queue' = Tail(queue)
        ELSE /\ queue = <<>>
             /\ UNCHANGED queue

\* For omnilink's native checker: elements are only compared for equality (data independence),
\* so states that differ only in the order of elements no later operation logs are one
\* (docs/validation.md, "Data independence"). TLC ignores it.
OmniLinkDataIndependent == {"elem"}
\* And closed under projection: a queue without one element's enqueue and dequeue is a queue (docs/validation.md).
OmniLinkProjectable == TRUE

Init == queue = <<>>

Next ==
  \E elem \in Values :
    \/ Enqueue(elem)
    \/ \E ok \in BOOLEAN : Dequeue(elem, ok)
=============================================================================
