--------------------------- MODULE Combinatorics ---------------------------
(***************************************************************************)
(* omnilink's own text of the community module Combinatorics.  Same        *)
(* names, arities and values as the community module with TLC's Java       *)
(* override: factorial is a function on Nat (an overflow error from 13 on, *)
(* 13! exceeding TLC's 32-bit integers), and choose(n, k) is the binomial  *)
(* coefficient computed without factorials, so it is defined whenever the  *)
(* result fits in 32 bits (the community module's TLA+ text overflows from *)
(* n = 13 on); like the override it is 0 for k > n and fails for a         *)
(* negative n or k.                                                        *)
(* Skipped: nothing.                                                       *)
(***************************************************************************)
EXTENDS Naturals
LOCAL INSTANCE TLC

\* n! for n in Nat.
factorial[n \in Nat] == IF n <= 1 THEN 1 ELSE n * factorial[n - 1]

\* The greatest common divisor of a >= 0 and b >= 0.
RECURSIVE Gcd(_, _)
LOCAL Gcd(a, b) == IF b = 0 THEN a ELSE Gcd(b, a % b)

\* The number of k-element subsets of an n-element set (0 when k > n; n, k must not be negative).
choose(n, k) ==
  LET j == IF k > n - k THEN n - k ELSE k
      RECURSIVE Step(_, _)
      Step(c, i) ==   \* c = choose(n - j + i - 1, i - 1); every intermediate value is <= the result
        IF i > j THEN c
        ELSE LET g == Gcd(c, i)
             IN  Step((c \div g) * ((n - j + i) \div (i \div g)), i + 1)
  IN  IF n < 0 \/ k < 0 THEN Assert(FALSE, "choose(n, k) needs n >= 0 and k >= 0")
      ELSE IF k > n THEN 0
      ELSE Step(1, 1)

=============================================================================
