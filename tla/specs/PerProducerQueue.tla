-------------------------- MODULE PerProducerQueue --------------------------
(***************************************************************************)
(* moodycamel::ConcurrentQueue's ordering guarantee: items from one        *)
(* producer come out in the order that producer put them in; there is no   *)
(* order across producers (OmniLink paper, Sections 7.1.3 and 7.2.3). Not  *)
(* linearizable as one FIFO queue.                                          *)
(*                                                                          *)
(* A producer is an implicit one (a thread enqueuing without a token) or   *)
(* an explicit one (a ProducerToken); the harness names each by a number.  *)
(*                                                                          *)
(* Bulk calls, as the library (v1.0.3 to v1.0.5) performs them:            *)
(* - enqueue_bulk is one step: it writes every item into the producer's    *)
(*   blocks, then publishes them all with one release store of the         *)
(*   producer's tail index; no consumer can see some of them and not the   *)
(*   others. Hence EnqueueBulk appends all its items at once.              *)
(* - try_dequeue_bulk claims from a producer a run of consecutive indexes  *)
(*   with one fetch_add of that producer's head index, so a bulk dequeue   *)
(*   takes one contiguous, non-empty prefix of a producer's stream at a    *)
(*   time (DequeueBulk_Step, interleaved with other operations), then      *)
(*   finishes (DequeueBulk_Done); one that returned nothing is             *)
(*   DequeueBulk(<<>>, token): no step, only Done. The call without a      *)
(*   consumer token walks the producer list once, so it takes from each    *)
(*   producer at most once: two concurrent token-less bulk dequeues cannot *)
(*   split one producer's run between them item by item. The call with a  *)
(*   token (token = TRUE) goes round the list from its current producer    *)
(*   until a full round takes nothing, moving its current producer to each *)
(*   producer it takes from, so it can come back to a producer after       *)
(*   taking from another, never right after taking from it: two steps in  *)
(*   a row take from different producers. The order in which a call       *)
(*   visits producers (the list's) is not modelled.                        *)
(* Values must be unique in a trace: a bulk dequeue is identified by the   *)
(* items it returned.                                                       *)
(* try_dequeue, try_dequeue_bulk and try_dequeue_from_producer may fail    *)
(* while items are queued (the header says "likely empty": a concurrent    *)
(* failing dequeue inflates the count they check), so a failure is always  *)
(* allowed.                                                                 *)
(*                                                                          *)
(* size_approx sums, producer by producer, tail index - head index (0 if   *)
(* negative), each index read at its own moment during the call, so under  *)
(* concurrency it need not equal the queue's length at any one moment      *)
(* (an item moved from one producer to another can be counted twice). The  *)
(* spec checks what holds whatever those moments are: a call that began    *)
(* when the indexes were tail0[p], head0[p] and ended when they were       *)
(* tail[p], head[p] returns a size with                                     *)
(*   Sum_p max(0, tail0[p] - head[p])  <=  size  <=  Sum_p (tail[p] - head0[p]) *)
(* (indexes only grow). SizeApprox_Step marks when the call began (it     *)
(* snapshots the indexes, keyed by the call's unique id); SizeApprox_Done  *)
(* checks the bounds. Without a step the call is one moment, and the size  *)
(* must be exact: so it is whenever nothing changes during the call.       *)
(***************************************************************************)
EXTENDS Sequences, Integers, TLC
VARIABLES
  streams,   \* producer |-> the items it queued and nobody took yet
  enqueued,  \* producer |-> how many items it ever queued (its tail index)
  taking,    \* bulk dequeues in progress: their items |-> [taken |-> how many, from |-> producers taken from, last |-> <<the last one>> or <<>>]
  sizing     \* size_approx calls in progress: call |-> producer |-> [tail, head] when it began

AppendTo(s, p, elems) == [q \in DOMAIN s \cup {p} |-> (IF q \in DOMAIN s THEN s[q] ELSE <<>>) \o (IF q = p THEN elems ELSE <<>>)]
CountTo(c, p, n) == [q \in DOMAIN c \cup {p} |-> (IF q \in DOMAIN c THEN c[q] ELSE 0) + (IF q = p THEN n ELSE 0)]

Produce(producer, elems) ==
  /\ streams' = AppendTo(streams, producer, elems)
  /\ enqueued' = CountTo(enqueued, producer, Len(elems))
  /\ UNCHANGED <<taking, sizing>>

\* @type: (Int, Int) => Bool; @inputs: producer, elem;
Enqueue(producer, elem) == Produce(producer, <<elem>>)

\* @type: (Int, Seq(Int)) => Bool; @inputs: producer, elems;
EnqueueBulk(producer, elems) == Produce(producer, elems)

\* Takes elem from the head of producer p's stream.
TakeFrom(p, elem) ==
  /\ p \in DOMAIN streams
  /\ streams[p] # <<>>
  /\ Head(streams[p]) = elem
  /\ streams' = [streams EXCEPT ![p] = Tail(@)]

TakeHead(elem) == \E p \in DOMAIN streams : TakeFrom(p, elem)

\* @type: (Int, Bool) => Bool; @inputs: ;
Dequeue(elem, ok) ==
  /\ IF ok THEN TakeHead(elem) ELSE UNCHANGED streams
  /\ UNCHANGED <<enqueued, taking, sizing>>

\* try_dequeue_from_producer: like Dequeue, from the named producer's stream only.
\* @type: (Int, Int, Bool) => Bool; @inputs: producer;
DequeueFromProducer(producer, elem, ok) ==
  /\ IF ok THEN TakeFrom(producer, elem) ELSE UNCHANGED streams
  /\ UNCHANGED <<enqueued, taking, sizing>>

Progress(elems) == IF elems \in DOMAIN taking THEN taking[elems] ELSE [taken |-> 0, from |-> {}, last |-> <<>>]

\* Takes the next m items of elems, a prefix of producer p's stream; without a token, from a
\* producer this call has not taken from yet; with one, from another than its last step's.
\* @type: (Seq(Int), Bool) => Bool; @inputs: token;
DequeueBulk_Step(elems, token) ==
  LET done == Progress(elems) IN
  /\ done.taken < Len(elems)
  /\ \E p \in DOMAIN streams \ (IF token THEN {q \in DOMAIN streams : done.last = <<q>>} ELSE done.from) :
       /\ streams[p] # <<>>
       /\ Head(streams[p]) = elems[done.taken + 1]
       /\ \E m \in 1..Len(streams[p]) :
            /\ done.taken + m <= Len(elems)
            /\ SubSeq(streams[p], 1, m) = SubSeq(elems, done.taken + 1, done.taken + m)
            /\ streams' = [streams EXCEPT ![p] = SubSeq(@, m + 1, Len(@))]
            /\ taking' = [e \in DOMAIN taking \cup {elems} |->
                            IF e = elems THEN [taken |-> done.taken + m, from |-> done.from \cup {p}, last |-> <<p>>]
                            ELSE taking[e]]
  /\ UNCHANGED <<enqueued, sizing>>

\* @type: (Seq(Int), Bool) => Bool;
DequeueBulk_Done(elems, token) ==
  /\ Progress(elems).taken = Len(elems)
  /\ taking' = [e \in DOMAIN taking \ {elems} |-> taking[e]]
  /\ UNCHANGED <<streams, enqueued, sizing>>

\* Producer p's indexes now: [tail, head] (head = items ever taken).
Indexes(p) == [tail |-> enqueued[p], head |-> enqueued[p] - Len(streams[p])]
Snapshot == [p \in DOMAIN streams |-> Indexes(p)]

RECURSIVE Sum(_)
Sum(f) == IF DOMAIN f = {} THEN 0 ELSE LET p == CHOOSE q \in DOMAIN f : TRUE IN f[p] + Sum([q \in DOMAIN f \ {p} |-> f[q]])
Max0(n) == IF n > 0 THEN n ELSE 0

\* The bounds of the header for a call that began at snapshot `began` and ends now. A producer
\* that did not exist when the call began had indexes 0 then.
SizeBounds(began) ==
  LET Before(p) == IF p \in DOMAIN began THEN began[p] ELSE [tail |-> 0, head |-> 0]
  IN [low |-> Sum([p \in DOMAIN streams |-> Max0(Before(p).tail - Indexes(p).head)]),
      high |-> Sum([p \in DOMAIN streams |-> Indexes(p).tail - Before(p).head])]

\* @type: (Int, Int) => Bool; @inputs: call;
SizeApprox_Step(call, size) ==
  /\ call \notin DOMAIN sizing
  /\ sizing' = [c \in DOMAIN sizing \cup {call} |-> IF c = call THEN Snapshot ELSE sizing[c]]
  /\ UNCHANGED <<streams, enqueued, taking>>

\* @type: (Int, Int) => Bool;
SizeApprox_Done(call, size) ==
  /\ LET b == SizeBounds(IF call \in DOMAIN sizing THEN sizing[call] ELSE Snapshot)
     IN b.low <= size /\ size <= b.high
  /\ sizing' = [c \in DOMAIN sizing \ {call} |-> sizing[c]]
  /\ UNCHANGED <<streams, enqueued, taking>>

Init == streams = <<>> /\ enqueued = <<>> /\ taking = <<>> /\ sizing = <<>>
Next ==
  \E p, e, c, n \in Int, es \in Seq(Int), ok \in BOOLEAN :
    \/ Enqueue(p, e)
    \/ EnqueueBulk(p, es)
    \/ Dequeue(e, ok)
    \/ DequeueFromProducer(p, e, ok)
    \/ DequeueBulk_Step(es, ok)
    \/ DequeueBulk_Done(es, ok)
    \/ SizeApprox_Step(c, n)
    \/ SizeApprox_Done(c, n)
=============================================================================
