(** * The paper's definitions, written once for every claim.

    Each claim's file (P1.v, T1a.v, ...) states the claim exactly as printed, in terms of these
    definitions, and proves or refutes it. Where the paper's text admits more than one reading,
    the reading is a parameter or a separate definition here, named for what it reads.

    Conventions. [e] is the PLDP budget ε_p (a real > 0), [c] the center, [r] the radius (> 0),
    [w] a weight in [c − r, c + r]. Probabilities are reals in [0, 1]. The shared vector Z of d
    bits (Alg. 2) is the number z ∈ {0, …, 2^d − 1} whose binary expansion it is: the
    lexicographic order ≺ on {0,1}^d is the order of these numbers. *)

From Coq Require Import Reals Lra Lia.
Open Scope R_scope.

(** ** α(ε) (Alg. 1, line 1 and Alg. 2, line 1)

    The paper's Section 2.3 prints α(ε) = (1 + e^ε)/(1 − e^ε), which is negative: an erratum
    (Errata.v). Algorithm 1, Algorithm 2 and every proof use (e^ε + 1)/(e^ε − 1). *)
Definition alpha (e : R) : R := (exp e + 1) / (exp e - 1).
Definition alpha_as_printed_in_section_2_3 (e : R) : R := (1 + exp e) / (1 - exp e).

(** q of Alg. 1, line 2: P(U = 1) for LDPQ. *)
Definition ldpq_q (a c r w : R) : R := 1 / 2 + (w - c) / (2 * r * a).

Definition in_range (c r w : R) : Prop := c - r <= w <= c + r.
Definition is_prob (p : R) : Prop := 0 <= p <= 1.

(** ** Binary-output stochastic quantizers (Section 3.1)

    A quantizer Q : [c − r, c + r] → {γ1, γ2} is given by its two levels and the probability of
    each: [p_hi Q w] = P(Q(w) = hi Q), so P(Q(w) = lo Q) = 1 − p_hi Q w. Which level is called γ1
    is immaterial; nothing below assumes lo < hi. *)
Record binary := { lo : R; hi : R; p_hi : R -> R }.

(** C1, unbiasedness: E(Q(w)) = w for all w ∈ [c − r, c + r] (and Q(w) is a distribution). *)
Definition C1 (c r : R) (Q : binary) : Prop :=
  forall w, in_range c r w -> is_prob (p_hi Q w) /\ p_hi Q w * hi Q + (1 - p_hi Q w) * lo Q = w.

(** C2, ε-PLDP: P(Q(w) = v)/P(Q(w') = v) ≤ e^ε for both outputs v and all w, w'. Read
    multiplicatively, P(Q(w) = v) ≤ e^ε P(Q(w') = v), the usual reading (it differs from the
    quotient only when both probabilities are 0). *)
Definition C2 (c r e : R) (Q : binary) : Prop :=
  forall w w', in_range c r w -> in_range c r w' ->
    p_hi Q w <= exp e * p_hi Q w' /\ 1 - p_hi Q w <= exp e * (1 - p_hi Q w').

Definition mse (Q : binary) (w : R) : R := p_hi Q w * (hi Q - w) ^ 2 + (1 - p_hi Q w) * (lo Q - w) ^ 2.

(** C3, minimal MSE: E((Q(w) − w)^2) is minimal for all w, among the quantizers that satisfy C1
    and C2 (the conditions C3 is listed with). *)
Definition C3 (c r e : R) (Q : binary) : Prop :=
  forall Q', C1 c r Q' -> C2 c r e Q' -> forall w, in_range c r w -> mse Q w <= mse Q' w.

(** LDPQ (Alg. 1): Q(w) = c + U r α with P(U = 1) = q. *)
Definition LDPQ (e c r : R) : binary :=
  {| lo := c - r * alpha e; hi := c + r * alpha e; p_hi := ldpq_q (alpha e) c r |}.

(** Two quantizers have the same law at every input (up to the naming of the levels). *)
Definition same_law (c r : R) (Q Q' : binary) : Prop :=
  forall w, in_range c r w ->
    (lo Q = lo Q' /\ hi Q = hi Q' /\ p_hi Q w = p_hi Q' w) \/
    (lo Q = hi Q' /\ hi Q = lo Q' /\ p_hi Q w = 1 - p_hi Q' w).

(** ** Finite sums and the shared vector Z *)

Fixpoint fsum (n : nat) (f : nat -> R) : R :=
  match n with O => 0 | S k => fsum k f + f k end.

(** 2^d values of Z, each with probability 1/2^d. *)
Definition nZ (d : nat) : nat := (2 ^ d)%nat.
Definition avgZ (d : nat) (f : nat -> R) : R := fsum (nZ d) f / INR (nZ d).

(** ** Pairs of quantizers driven by d shared bits (Section 3.2, conditions C4–C6)

    Q_i : [c − r, c + r] × {0,1}^d → {γ1, γ2}, stochastic: given Z = z each client uses its own
    private randomness, independent of the other's, so given z the two outputs are independent.
    A pair is its two levels and P(Q_i(w, z) = hi | Z = z) for each client. *)
Record pair := { plo : R; phi : R; p1 : R -> nat -> R; p2 : R -> nat -> R }.

Definition marg1 (d : nat) (P : pair) (w : R) : R := avgZ d (p1 P w).
Definition marg2 (d : nat) (P : pair) (w : R) : R := avgZ d (p2 P w).

(** C4: E(Q1(w, Z)) = w and E(Q2(w', Z)) = w' (and every conditional law is a distribution). *)
Definition C4 (d : nat) (c r : R) (P : pair) : Prop :=
  forall w, in_range c r w ->
    (forall z, (z < nZ d)%nat -> is_prob (p1 P w z) /\ is_prob (p2 P w z)) /\
    marg1 d P w * phi P + (1 - marg1 d P w) * plo P = w /\
    marg2 d P w * phi P + (1 - marg2 d P w) * plo P = w.

(** C5: each quantizer's output law (over Z and its private randomness) is ε-PLDP. *)
Definition C5 (d : nat) (c r e : R) (P : pair) : Prop :=
  forall w w', in_range c r w -> in_range c r w' ->
    marg1 d P w <= exp e * marg1 d P w' /\ 1 - marg1 d P w <= exp e * (1 - marg1 d P w') /\
    marg2 d P w <= exp e * marg2 d P w' /\ 1 - marg2 d P w <= exp e * (1 - marg2 d P w').

(** The pair's MSE m(Q1, Q2, w, w') = E((Q1(w, Z) + Q2(w', Z) − w − w')^2) (Theorem 1). *)
Definition pair_mse_given (P : pair) (w w' : R) (z : nat) : R :=
  let a := p1 P w z in let b := p2 P w' z in
  a * b * (phi P + phi P - w - w') ^ 2 + a * (1 - b) * (phi P + plo P - w - w') ^ 2 +
  (1 - a) * b * (plo P + phi P - w - w') ^ 2 + (1 - a) * (1 - b) * (plo P + plo P - w - w') ^ 2.
Definition pair_mse (d : nat) (P : pair) (w w' : R) : R := avgZ d (pair_mse_given P w w').

(** 𝒬 of Theorem 1: all pairs satisfying C4–C5 (with d shared bits). *)
Definition in_Q (d : nat) (c r e : R) (P : pair) : Prop := C4 d c r P /\ C5 d c r e P.

(** ** CorBinQ (Alg. 2)

    With u = 2^d q1 and v = 2^d (1 − q2), T1 = B_d(⌊u⌋), T2 = B_d(⌊v⌋). Q1 = c + rα iff Z ≺ T1,
    c − rα iff T1 ≺ Z, and on a tie c + U rα with P(U = 1) = u − ⌊u⌋. Q2 = c − rα iff Z ≺ T2;
    otherwise line 14 decides. As printed it reads "ELSIF T1 ≺ Z"; the evident intent (the
    mirror of lines 4–7, which the proof of Theorem 1 uses) is "ELSIF T2 ≺ Z". Both are defined.
    The tie of Q2 gives c − U' rα with P(U' = 1) = v − ⌊v⌋. *)

Definition fl (x : R) : nat := Z.to_nat (Int_part x).   (** ⌊x⌋ for x ≥ 0 *)
Definition fr (x : R) : R := x - INR (fl x).              (** x − ⌊x⌋ for x ≥ 0 *)

(** P(output = the "below" sign | Z = z) for a threshold at ⌊x⌋ with tie probability x − ⌊x⌋. *)
Definition step (x : R) (z : nat) : R :=
  if (z <? fl x)%nat then 1 else if (z =? fl x)%nat then fr x else 0.

Definition u_of (d : nat) (a c r w : R) : R := INR (nZ d) * ldpq_q a c r w.
Definition v_of (d : nat) (a c r w' : R) : R := INR (nZ d) * (1 - ldpq_q a c r w').

(** The intended Algorithm 2 (line 14 compares with T2). *)
Definition corbinq (d : nat) (e c r : R) : pair :=
  let a := alpha e in
  {| plo := c - r * a; phi := c + r * a;
     p1 := fun w z => step (u_of d a c r w) z;
     p2 := fun w' z => 1 - step (v_of d a c r w') z |}.

(** Algorithm 2 exactly as printed: Q2's ELSIF compares T1 ≺ Z, so Q2 = c + rα iff ⌊u⌋ < z, and
    for ⌊v⌋ ≤ z ≤ ⌊u⌋ (not below T2 and not above T1) the tie rule gives c − rα with probability
    v − ⌊v⌋. Q2 depends on w, the other client's input: the pair's second quantizer takes both. *)
Definition q2_minus_as_printed (d : nat) (a c r w w' : R) (z : nat) : R :=
  let v := v_of d a c r w' in let u := u_of d a c r w in
  if (z <? fl v)%nat then 1 else if (fl u <? z)%nat then 0 else fr v.

(** ** The joint law of a pair and its expectations

    P(Q1 = s1, Q2 = s2) for s = true (the level hi) or false (lo), over Z and both clients'
    private randomness (independent given Z). *)
Definition sgn_prob (s : bool) (p : R) : R := if s then p else 1 - p.
Definition level (P : pair) (s : bool) : R := if s then phi P else plo P.
Definition joint (d : nat) (P : pair) (w w' : R) (s1 s2 : bool) : R :=
  avgZ d (fun z => sgn_prob s1 (p1 P w z) * sgn_prob s2 (p2 P w' z)).

(** Two independent LDPQs (LDP-FL's pair): the product of their laws. *)
Definition ldpq_pair_joint (e c r w w' : R) (s1 s2 : bool) : R :=
  sgn_prob s1 (ldpq_q (alpha e) c r w) * sgn_prob s2 (ldpq_q (alpha e) c r w').
