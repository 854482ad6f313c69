(** * Facts about α(ε) = (e^ε + 1)/(e^ε − 1) used by several claims. *)

From Coq Require Import Reals Lra.
From Corbin Require Import Defs.
Open Scope R_scope.

(** Division against a positive denominator (Coq 8.16's Reals has no direct lemma). *)
Lemma lt_div_r (a b c : R) : 0 < c -> a * c < b -> a < b / c.
Proof. intros Hc H. apply (Rmult_lt_reg_r c); [exact Hc|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l; lra. Qed.
Lemma div_lt_l (a b c : R) : 0 < c -> a < b * c -> a / c < b.
Proof. intros Hc H. apply (Rmult_lt_reg_r c); [exact Hc|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l; lra. Qed.
Lemma le_div_r (a b c : R) : 0 < c -> a * c <= b -> a <= b / c.
Proof. intros Hc H. apply (Rmult_le_reg_r c); [exact Hc|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l; lra. Qed.
Lemma div_le_l (a b c : R) : 0 < c -> a <= b * c -> a / c <= b.
Proof. intros Hc H. apply (Rmult_le_reg_r c); [exact Hc|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l; lra. Qed.

Lemma exp_gt_1 (e : R) : 0 < e -> 1 < exp e.
Proof. intros H. rewrite <- exp_0. apply exp_increasing. exact H. Qed.

Lemma alpha_gt_1 (e : R) : 0 < e -> 1 < alpha e.
Proof.
  intros H. pose proof (exp_gt_1 e H) as X. unfold alpha.
  apply lt_div_r; lra.
Qed.

(** e^ε = (α + 1)/(α − 1): the two ways of giving the budget agree. *)
Lemma exp_of_alpha (e : R) : 0 < e -> exp e = (alpha e + 1) / (alpha e - 1).
Proof.
  intros H. pose proof (exp_gt_1 e H) as X. unfold alpha. field. split; lra.
Qed.

(** The LDPQ probability stays in (0, 1), and its extremes are (α ∓ 1)/(2α). *)
Lemma ldpq_q_bounds (a c r w : R) :
  1 < a -> 0 < r -> in_range c r w ->
  (a - 1) / (2 * a) <= ldpq_q a c r w <= (a + 1) / (2 * a).
Proof.
  intros Ha Hr [Hl Hh]. unfold ldpq_q.
  assert (0 < 2 * r * a) by nra. assert (0 < 2 * a) by lra.
  split.
  - apply (Rmult_le_reg_r (2 * r * a)); [lra|].
    replace ((a - 1) / (2 * a) * (2 * r * a)) with (r * (a - 1)) by (field; lra).
    replace ((1 / 2 + (w - c) / (2 * r * a)) * (2 * r * a)) with (r * a + (w - c)) by (field; lra).
    nra.
  - apply (Rmult_le_reg_r (2 * r * a)); [lra|].
    replace ((a + 1) / (2 * a) * (2 * r * a)) with (r * (a + 1)) by (field; lra).
    replace ((1 / 2 + (w - c) / (2 * r * a)) * (2 * r * a)) with (r * a + (w - c)) by (field; lra).
    nra.
Qed.

Lemma ldpq_q_prob (a c r w : R) : 1 < a -> 0 < r -> in_range c r w -> 0 < ldpq_q a c r w < 1.
Proof.
  intros Ha Hr Hw. pose proof (ldpq_q_bounds a c r w Ha Hr Hw) as [L U].
  assert (0 < (a - 1) / (2 * a)) by (apply Rdiv_lt_0_compat; lra).
  assert ((a + 1) / (2 * a) < 1) by (apply div_lt_l; lra).
  lra.
Qed.

(** LDPQ's probabilities are within a factor e^ε of each other over the range (C2 for LDPQ). *)
Lemma ldpq_pldp (e c r x y : R) : 0 < e -> 0 < r -> in_range c r x -> in_range c r y ->
  ldpq_q (alpha e) c r x <= exp e * ldpq_q (alpha e) c r y /\
  1 - ldpq_q (alpha e) c r x <= exp e * (1 - ldpq_q (alpha e) c r y).
Proof.
  intros He Hr Hx Hy. pose proof (alpha_gt_1 e He) as Ha. rewrite (exp_of_alpha e He).
  set (a := alpha e) in *.
  pose proof (ldpq_q_bounds a c r x Ha Hr Hx) as [L U]. pose proof (ldpq_q_bounds a c r y Ha Hr Hy) as [L' U'].
  assert (Hk : (a + 1) / (a - 1) * ((a - 1) / (2 * a)) = (a + 1) / (2 * a)) by (field; lra).
  assert (0 < (a + 1) / (a - 1)) by (apply Rdiv_lt_0_compat; lra).
  split.
  - apply Rle_trans with ((a + 1) / (2 * a)); [exact U|]. rewrite <- Hk. apply Rmult_le_compat_l; lra.
  - apply Rle_trans with (1 - (a - 1) / (2 * a)); [lra|].
    replace (1 - (a - 1) / (2 * a)) with ((a + 1) / (2 * a)) by (field; lra). rewrite <- Hk.
    apply Rmult_le_compat_l; [lra|].
    replace ((a - 1) / (2 * a)) with (1 - (a + 1) / (2 * a)) by (field; lra). lra.
Qed.

(** The assumptions of this file's lemmas, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Alpha_lemmas :=
  (@lt_div_r,
   @div_lt_l,
   @le_div_r,
   @div_le_l,
   @exp_gt_1,
   @alpha_gt_1,
   @exp_of_alpha,
   @ldpq_q_bounds,
   @ldpq_q_prob,
   @ldpq_pldp).
Print Assumptions Alpha_lemmas.
