------------------------------- MODULE Stack -------------------------------
(* A linearizable LIFO stack; a pop that finds it empty is Pop(_, FALSE). *)
EXTENDS Sequences, Integers
VARIABLE stack  \* top at the end

\* @type: (Int) => Bool; @inputs: elem;
Push(elem) == stack' = Append(stack, elem)

\* @type: (Int, Bool) => Bool; @inputs: ;
Pop(elem, ok) ==
  IF ok THEN /\ stack # <<>>
             /\ stack[Len(stack)] = elem
             /\ stack' = SubSeq(stack, 1, Len(stack) - 1)
        ELSE /\ stack = <<>>
             /\ UNCHANGED stack

\* For omnilink's native checker: elements are only compared for equality (data independence),
\* so states that differ only in the order of elements no later operation logs are one
\* (docs/validation.md, "Data independence"). TLC ignores it.
OmniLinkDataIndependent == {"elem"}
\* And closed under projection: a stack without one element's push and pop is a stack (docs/validation.md).
OmniLinkProjectable == TRUE

Init == stack = <<>>
Next == \E elem \in Int, ok \in BOOLEAN : Push(elem) \/ Pop(elem, ok)
=============================================================================
