(** * Theorem 1's second and third sentences, stated as printed, and the readings audited beside them

    Theorem 1 (paper, Section 3.2): "Let d ∈ ℕ and r, c, ε_p > 0. [...] let 𝒬 consist of all
    pairs of quantizers (Q'1, Q'2) satisfying conditions C4–C5, and let the MSE of (Q'1, Q'2) for
    inputs (w, w') be defined as m(Q'1, Q'2, w, w') = E((Q'1(w, Z) + Q'2(w', Z) − w − w')^2) for
    all (Q'1, Q'2) ∈ 𝒬. Then, the MSE associated with (Q1, Q2) is bounded from above as follows:
        m(Q1, Q2, w, w') ≤ min_{(Q'1, Q'2) ∈ 𝒬} m(Q'1, Q'2, w, w') + r^2 α^2(ε_p) / 2^(d − 6),   (th:1:opt)
    for all w, w' ∈ [r − c, r + c]. Particularly, m(Q1, Q2, w, w') converges uniformly to the
    minimum MSE over 𝒬 as d → ∞."

    Readings, each its own statement below:
    - 𝒬 as printed: every pair driven by the d shared bits that meets C4–C5 (Defs.in_Q), its two
      output levels free. C4–C5 do not force the levels to c ± rα.
    - 𝒬 restricted to pairs whose levels are LDPQ's, c − rα and c + rα (in_Q_levels), the class
      Appendix B's argument works in.
    - The inputs' range as printed, [r − c, r + c] (an erratum: the quantizers are defined on
      [c − r, c + r]), and as intended.
    - "min" is read as: m(Q1, Q2) ≤ m(Q') + bound for every Q' ∈ 𝒬 (the same statement when the
      minimum exists, and the only sensible one when it is an infimum).
    - Algorithm 2 as intended (Defs.corbinq); as printed it already fails C4–C5 (A2.v).

    r^2 α^2 / 2^(d − 6) is written 64 r^2 α^2 / 2^d, which is the same real for every d ∈ ℕ. *)

From Coq Require Import Reals Lra Lia.
From Corbin Require Import Defs.
Open Scope R_scope.

Definition in_range_as_printed (c r w : R) : Prop := r - c <= w <= r + c.

Definition thm1_bound (d : nat) (e r : R) : R := 64 * r ^ 2 * alpha e ^ 2 / INR (nZ d).

(** Pairs of 𝒬 whose levels are LDPQ's (naming the lower level [plo] loses nothing: a pair with
    the names swapped is this one with each p replaced by 1 − p). *)
Definition in_Q_levels (d : nat) (c r e : R) (P : pair) : Prop :=
  in_Q d c r e P /\ plo P = c - r * alpha e /\ phi P = c + r * alpha e.

(** ** T1b: the bound (th:1:opt) *)

Definition T1b_claim_with (range : R -> R -> R -> Prop) (Qd : nat -> R -> R -> R -> pair -> Prop) : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r ->
    forall w w', range c r w -> range c r w' ->
    forall P, Qd d c r e P -> pair_mse d (corbinq d e c r) w w' <= pair_mse d P w w' + thm1_bound d e r.

(** As printed: 𝒬 all of C4–C5, inputs in [r − c, r + c]. *)
Definition T1b_claim : Prop := T1b_claim_with in_range_as_printed in_Q.
(** As printed but with the range corrected to [c − r, c + r]. *)
Definition T1b_claim_range_intended : Prop := T1b_claim_with in_range in_Q.
(** The restricted reading: levels c ± rα, range [c − r, c + r]. *)
Definition T1b_claim_levels : Prop := T1b_claim_with in_range in_Q_levels.

(** ** T1c: CorBinQ minimises the MSE among the pairs driven by d shared bits (implicit in
    "optimize the privacy-utility tradeoff described by conditions C4–C6"; C6 asks for the
    minimum at every (w, w')). *)

Definition T1c_claim_with (Qd : nat -> R -> R -> R -> pair -> Prop) : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r ->
    forall w w', in_range c r w -> in_range c r w' ->
    forall P, Qd d c r e P -> pair_mse d (corbinq d e c r) w w' <= pair_mse d P w w'.

Definition T1c_claim : Prop := T1c_claim_with in_Q.
Definition T1c_claim_levels : Prop := T1c_claim_with in_Q_levels.

(** ** T1u: "m(Q1, Q2, w, w') converges uniformly to the minimum MSE over 𝒬 as d → ∞"

    CorBinQ is itself in 𝒬 (T1a), so its MSE is never below the minimum; uniform convergence is
    then: for every η > 0 there is D such that for all d ≥ D and all inputs, m(Q1, Q2) is within η
    of every pair of 𝒬 (for that d) from above. *)

Definition T1u_claim_with (Qd : nat -> R -> R -> R -> pair -> Prop) : Prop :=
  forall (e c r : R), 0 < e -> 0 < c -> 0 < r ->
    forall eta, 0 < eta -> exists D : nat, forall d, (D <= d)%nat ->
    forall w w', in_range c r w -> in_range c r w' ->
    forall P, Qd d c r e P -> pair_mse d (corbinq d e c r) w w' <= pair_mse d P w w' + eta.

Definition T1u_claim : Prop := T1u_claim_with in_Q.
Definition T1u_claim_levels : Prop := T1u_claim_with in_Q_levels.
