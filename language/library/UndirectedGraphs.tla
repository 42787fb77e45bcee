-------------------------- MODULE UndirectedGraphs --------------------------
(***************************************************************************)
(* omnilink's own text of the community module UndirectedGraphs.  A graph  *)
(* G is a record [node |-> N, edge |-> E] whose edges are sets {a, b} of   *)
(* nodes ({a} is a loop at a).  Same operator names, arities and values as *)
(* the community module with TLC's Java overrides (SimplePath,             *)
(* AreConnectedIn, ConnectedComponents), which, like the TLA+ text, only   *)
(* use the edges that are sets of one or two nodes of G.node.              *)
(* Skipped: Path(G), the set of all paths: it is infinite whenever G has   *)
(* an edge, and nothing evaluates it (nor TLC).  SimplePath,               *)
(* AreConnectedIn and ConnectedComponents are computed directly, not from  *)
(* Path, as TLC's Java overrides do.                                       *)
(***************************************************************************)
LOCAL INSTANCE Naturals
LOCAL INSTANCE Sequences
LOCAL INSTANCE SequencesExt
LOCAL INSTANCE FiniteSets
LOCAL INSTANCE Folds
LOCAL INSTANCE Functions

\* TRUE iff G is a record with fields node and edge only, each edge being a set of one or two nodes.
IsUndirectedGraph(G) ==
  /\ DOMAIN G = {"node", "edge"}
  /\ \A e \in G.edge : e \subseteq G.node /\ Cardinality(e) \in {1, 2}

\* IsUndirectedGraph, and no edge is a loop.
IsLoopFreeUndirectedGraph(G) ==
  /\ DOMAIN G = {"node", "edge"}
  /\ \A e \in G.edge : e \subseteq G.node /\ Cardinality(e) = 2

\* The set of the undirected graphs made of some nodes and some edges of G.
UndirectedSubgraph(G) ==
  UNION { { [node |-> N, edge |-> E]
            : E \in SUBSET {e \in G.edge : e \subseteq N /\ Cardinality(e) \in {1, 2}} }
          : N \in SUBSET G.node }

-----------------------------------------------------------------------------

\* The edges of G that join nodes of G.
LOCAL Edges(G) == {e \in G.edge : e \subseteq G.node /\ Cardinality(e) \in {1, 2}}

\* start with Step applied until Done holds (at most 250 steps per nested call, so that the
\* recursion stays shallow: omnilink's checker allows 2000 nested calls).
LOCAL Iterate(Step(_), Done(_), start) ==
  LET RECURSIVE Burst(_, _), Loop(_)
      Burst(s, k) == IF k = 0 \/ Done(s) THEN s ELSE Burst(Step(s), k - 1)
      Loop(s) == IF Done(s) THEN s ELSE Loop(Burst(s, 250))
  IN  Loop(start)

\* The set of the nodes reachable from the nodes in From through the edges in usable (From included).
LOCAL Reachable(From, usable) ==
  LET Grow(st) ==   \* st = <<the nodes reached so far, the nodes reached last>>
        LET Next(new) == <<st[1] \cup new, new>>
        IN  Next(UNION {e \in usable : e \cap st[2] # {}} \ st[1])
  IN  Iterate(Grow, LAMBDA st : st[2] = {}, <<From, From>>)[1]

\* The set of the non-empty sequences of distinct nodes of G, each consecutive pair joined by an edge.
SimplePath(G) ==
  LET RECURSIVE Extend(_)
      Extend(p) ==   \* p and every simple path that continues p
        LET next == {m \in G.node \ ToSet(p) : {p[Len(p)], m} \in G.edge}
        IN  {p} \cup UNION {Extend(Append(p, m)) : m \in next}
  IN  UNION {Extend(<<n>>) : n \in G.node}

\* TRUE iff m and n are nodes of G and a path of G leads from m to n.
AreConnectedIn(m, n, G) ==
  m \in G.node /\ n \in G.node /\ n \in Reachable({m}, Edges(G))

\* The set of the connected components of G (each a set of nodes).
ConnectedComponents(G) ==
  LET Take(st, n, usable) ==   \* st = <<the components found so far, the nodes not in any of them>>
        LET Found(c) == <<st[1] \cup {c}, st[2] \ c>>
        IN  Found(Reachable({n}, usable))
      Split(usable) ==
        Iterate(LAMBDA st : Take(st, CHOOSE x \in st[2] : TRUE, usable), LAMBDA st : st[2] = {}, <<{}, G.node>>)[1]
  IN  Split(Edges(G))

\* TRUE iff all nodes of G form one connected component (FALSE for a graph without nodes).
IsStronglyConnected(G) ==
  LET Single(components) == Cardinality(components) = 1 /\ \A c \in components : c = G.node
  IN  Single(ConnectedComponents(G))

-----------------------------------------------------------------------------

\* The set of all undirected graphs whose set of nodes is S.
UndirectedGraphs(S) == [node : {S}, edge : SUBSET {{a, b} : a \in S, b \in S}]

=============================================================================
