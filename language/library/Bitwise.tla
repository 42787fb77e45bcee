------------------------------- MODULE Bitwise -------------------------------
(***************************************************************************)
(* omnilink's own text of the community module Bitwise: bitwise and, or,   *)
(* xor, not and logical right shift on integers.  Same operator names,     *)
(* arities and values as the community module with TLC's Java override,    *)
(* which computes on 32-bit two's-complement ints.  On natural numbers     *)
(* (and shifts by 0..31) that is also the value of the community module's  *)
(* TLA+ text.  Beyond them the TLA+ text does not terminate or differs,    *)
(* and the value here is the override's:                                   *)
(*  - x & y, x | y, x ^^ y on negative operands: two's complement.         *)
(*  - Not(a): a with the bits below its highest set bit flipped; 0 when    *)
(*    a <= 0 (and for a = 2^31 - 1), as the override gives.                *)
(*  - shiftR(n, pos): Java's n >>> pos, i.e. by pos % 32 positions, zeros  *)
(*    shifted in (so a negative n gives a large positive result).          *)
(* Skipped: nothing.                                                       *)
(***************************************************************************)
LOCAL INSTANCE Integers

\* The bit (0 or 1) that the operation kind gives for bits a and b.
LOCAL BitOf(kind, a, b) ==
  IF kind = "and" THEN a * b
  ELSE IF kind = "or" THEN (IF a + b > 0 THEN 1 ELSE 0)
  ELSE (a + b) % 2

\* x and y combined bit by bit by kind, as two's-complement integers (floor division keeps the sign).
RECURSIVE Combine(_, _, _)
LOCAL Combine(kind, x, y) ==
  IF x \in {0, -1} /\ y \in {0, -1}
  THEN 0 - BitOf(kind, x % 2, y % 2)   \* every remaining bit is the same: 0 or all ones (-1)
  ELSE 2 * Combine(kind, x \div 2, y \div 2) + BitOf(kind, x % 2, y % 2)

\* Bitwise AND.
x & y == Combine("and", x, y)

\* Bitwise OR.
x | y == Combine("or", x, y)

\* Bitwise XOR.
x ^^ y == Combine("xor", x, y)

\* 2^k - 1 for the number k of binary digits of a >= 0.
RECURSIVE AllOnes(_)
LOCAL AllOnes(a) == IF a = 0 THEN 0 ELSE 2 * AllOnes(a \div 2) + 1

\* Bitwise NOT of a > 0 within its binary digits; 0 for a <= 0.
Not(a) == IF a <= 0 THEN 0 ELSE AllOnes(a) - a

\* v \div 2^k for v >= 0.
RECURSIVE Halve(_, _)
LOCAL Halve(v, k) == IF k = 0 THEN v ELSE Halve(v \div 2, k - 1)

\* n shifted right by pos % 32 bits, zeros shifted in (Java's n >>> pos).
shiftR(n, pos) ==
  LET p == pos % 32
  IN  IF p = 0 \/ n >= 0 THEN Halve(n, p)
      ELSE Halve((n \div 2) + 2^30 + 2^30, p - 1)   \* first step: the sign bit becomes an ordinary bit

=============================================================================
