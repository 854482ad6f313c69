(** * P1 — Proposition 1, as printed

    "Let c, r, ε_p > 0. The binary-output quantizer Q(w) = LDPQ(ε_p, c, r, w), w ∈ [c − r, c + r]
    in Algorithm 1 is the unique quantizer satisfying conditions C1–C3."

    Reading: C1–C3 as in Defs.v (C3: minimal MSE at every w among the quantizers satisfying C1
    and C2); "unique" up to the naming of the two levels (same_law). Verdict: holds (proved). *)

From Coq Require Import Reals Lra.
From Corbin Require Import Defs Alpha Facts.
Open Scope R_scope.

Section Proposition1.
Variables e c r : R.
Hypothesis He : 0 < e.
Hypothesis Hc : 0 < c.
Hypothesis Hr : 0 < r.

Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.
Let Hexp : exp e = (a + 1) / (a - 1) := exp_of_alpha e He.

Let range_lo : in_range c r (c - r) := in_range_bottom c r Hr.
Let range_hi : in_range c r (c + r) := in_range_top c r Hr.
Let range_c : in_range c r c := in_range_center c r Hr.

(** ** LDPQ satisfies C1 and C2 *)

Lemma ldpq_C1 : C1 c r (LDPQ e c r).
Proof.
  intros w Hw. pose proof (ldpq_q_prob a c r w Ha Hr Hw). simpl. fold a. split; [unfold is_prob; lra|].
  unfold ldpq_q. field. lra.
Qed.

Lemma ldpq_C2 : C2 c r e (LDPQ e c r).
Proof. intros w w' Hw Hw'. apply ldpq_pldp; assumption. Qed.

(** ** Any quantizer satisfying C1 and C2 *)

(** C1 fixes the law from the levels: P(Q(w) = hi) = (w − lo)/(hi − lo), and the levels differ. *)
Lemma C1_levels_differ (Q : binary) : C1 c r Q -> lo Q <> hi Q.
Proof.
  intros H1 Heq. destruct (H1 _ range_lo) as [_ E1]. destruct (H1 _ range_hi) as [_ E2].
  rewrite Heq in E1, E2. lra.
Qed.

Lemma C1_prob (Q : binary) w : C1 c r Q -> in_range c r w -> p_hi Q w = (w - lo Q) / (hi Q - lo Q).
Proof.
  intros H1 Hw. pose proof (C1_levels_differ Q H1) as D. destruct (H1 w Hw) as [_ E].
  apply (Rmult_eq_reg_r (hi Q - lo Q)); [|intro; apply D; lra].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by (intro; apply D; lra). lra.
Qed.

(** The MSE of an unbiased binary quantizer is (hi − w)(w − lo): the product of the distances to
    the two levels (the proof's E(Q^2) − w^2 = −γ1γ2 + (γ1 + γ2)w − w^2). *)
Lemma C1_mse (Q : binary) w : C1 c r Q -> in_range c r w -> mse Q w = (hi Q - w) * (w - lo Q).
Proof.
  intros H1 Hw. pose proof (C1_levels_differ Q H1) as D. unfold mse. rewrite (C1_prob Q w H1 Hw).
  field. intro; apply D; lra.
Qed.

(** Swapping the names of the levels changes nothing. *)
Definition swap (Q : binary) : binary := {| lo := hi Q; hi := lo Q; p_hi := fun w => 1 - p_hi Q w |}.

Lemma swap_C1 Q : C1 c r Q -> C1 c r (swap Q).
Proof. intros H w Hw. destruct (H w Hw) as [[P0 P1] E]. simpl. split; [unfold is_prob; lra | lra]. Qed.
Lemma swap_C2 Q : C2 c r e Q -> C2 c r e (swap Q).
Proof. intros H w w' Hw Hw'. destruct (H w w' Hw Hw') as [A B]. simpl. split; lra. Qed.
Lemma swap_mse Q w : mse (swap Q) w = mse Q w.
Proof. unfold mse. simpl. ring. Qed.

(** With lo < hi, C2 at the ends of the range forces lo <= c − rα and hi >= c + rα (the proof's
    Eqs. (cst:1) and (cst:2)). *)
Lemma C2_levels (Q : binary) :
  C1 c r Q -> C2 c r e Q -> lo Q < hi Q -> lo Q <= c - r * a /\ c + r * a <= hi Q.
Proof.
  intros H1 H2 Lt. destruct (H2 (c + r) (c - r) range_hi range_lo) as [A _].
  destruct (H2 (c - r) (c + r) range_lo range_hi) as [_ B].
  rewrite (C1_prob Q _ H1 range_hi), (C1_prob Q _ H1 range_lo), Hexp in A.
  rewrite (C1_prob Q _ H1 range_hi), (C1_prob Q _ H1 range_lo), Hexp in B.
  set (g := hi Q - lo Q) in *. assert (G : 0 < g) by (unfold g; lra).
  assert (K : 0 < a - 1) by lra.
  assert (A' : (c + r - lo Q) * (a - 1) <= (a + 1) * (c - r - lo Q)).
  { apply (Rmult_le_reg_r (/ g)); [apply Rinv_0_lt_compat; lra|].
    apply (Rmult_le_reg_r (/ (a - 1))); [apply Rinv_0_lt_compat; lra|].
    replace ((c + r - lo Q) * (a - 1) * / g * / (a - 1)) with ((c + r - lo Q) / g) by (field; lra).
    replace ((a + 1) * (c - r - lo Q) * / g * / (a - 1)) with ((a + 1) / (a - 1) * ((c - r - lo Q) / g))
      by (field; lra). exact A. }
  assert (B' : (hi Q - (c - r)) * (a - 1) <= (a + 1) * (hi Q - (c + r))).
  { replace (1 - (c - r - lo Q) / g) with ((hi Q - (c - r)) / g) in B by (unfold g; field; lra).
    replace (1 - (c + r - lo Q) / g) with ((hi Q - (c + r)) / g) in B by (unfold g; field; lra).
    apply (Rmult_le_reg_r (/ g)); [apply Rinv_0_lt_compat; lra|].
    apply (Rmult_le_reg_r (/ (a - 1))); [apply Rinv_0_lt_compat; lra|].
    replace ((hi Q - (c - r)) * (a - 1) * / g * / (a - 1)) with ((hi Q - (c - r)) / g) by (field; lra).
    replace ((a + 1) * (hi Q - (c + r)) * / g * / (a - 1)) with ((a + 1) / (a - 1) * ((hi Q - (c + r)) / g))
      by (field; lra). exact B. }
  split; nra.
Qed.

(** Every quantizer satisfying C1 and C2 has at least LDPQ's MSE at every w. *)
Lemma ldpq_mse w : in_range c r w -> mse (LDPQ e c r) w = (c + r * a - w) * (w - (c - r * a)).
Proof. intros Hw. rewrite (C1_mse _ w ldpq_C1 Hw). reflexivity. Qed.

Lemma mse_at_least_ldpq_ordered (Q : binary) w :
  C1 c r Q -> C2 c r e Q -> lo Q < hi Q -> in_range c r w -> mse (LDPQ e c r) w <= mse Q w.
Proof.
  intros H1 H2 Lt Hw. rewrite (ldpq_mse w Hw), (C1_mse Q w H1 Hw).
  destruct (C2_levels Q H1 H2 Lt) as [L U]. destruct Hw as [W1 W2].
  assert (0 < r * a) by nra. apply Rmult_le_compat; nra.
Qed.

Lemma mse_at_least_ldpq (Q : binary) w :
  C1 c r Q -> C2 c r e Q -> in_range c r w -> mse (LDPQ e c r) w <= mse Q w.
Proof.
  intros H1 H2 Hw. destruct (Rlt_or_le (lo Q) (hi Q)) as [Lt|Ge].
  - apply mse_at_least_ldpq_ordered; assumption.
  - assert (Lt : lo (swap Q) < hi (swap Q)).
    { simpl. pose proof (C1_levels_differ Q H1). lra. }
    rewrite <- (swap_mse Q w). apply mse_at_least_ldpq_ordered; [apply swap_C1 | apply swap_C2 | |]; assumption.
Qed.

Lemma ldpq_C3 : C3 c r e (LDPQ e c r).
Proof. intros Q' H1 H2 w Hw. apply mse_at_least_ldpq; assumption. Qed.

(** ** Uniqueness: a quantizer meeting C1–C3 has LDPQ's levels, hence its law. *)

Lemma unique_ordered (Q : binary) :
  C1 c r Q -> C2 c r e Q -> C3 c r e Q -> lo Q < hi Q -> lo Q = c - r * a /\ hi Q = c + r * a.
Proof.
  intros H1 H2 H3 Lt.
  pose proof (H3 (LDPQ e c r) ldpq_C1 ldpq_C2 c range_c) as Le.
  rewrite (C1_mse Q c H1 range_c), (ldpq_mse c range_c) in Le.
  destruct (C2_levels Q H1 H2 Lt) as [L U]. assert (0 < r * a) by nra.
  (* (hi − c)(c − lo) <= (rα)^2 with both factors >= rα: both are rα. *)
  split; nra.
Qed.

Theorem P1_uniqueness (Q : binary) : C1 c r Q -> C2 c r e Q -> C3 c r e Q -> same_law c r Q (LDPQ e c r).
Proof.
  intros H1 H2 H3 w Hw. simpl. fold a.
  destruct (Rlt_or_le (lo Q) (hi Q)) as [Lt|Ge].
  - left. destruct (unique_ordered Q H1 H2 H3 Lt) as [L U]. repeat split; try assumption.
    rewrite (C1_prob Q w H1 Hw), L, U. unfold ldpq_q. field. nra.
  - right. pose proof (C1_levels_differ Q H1) as D.
    assert (Lt : lo (swap Q) < hi (swap Q)) by (simpl; lra).
    assert (H3' : C3 c r e (swap Q)).
    { intros Q' A B v Hv. rewrite swap_mse. apply H3; assumption. }
    destruct (unique_ordered (swap Q) (swap_C1 Q H1) (swap_C2 Q H2) H3' Lt) as [L U]. simpl in L, U.
    repeat split; try assumption.
    rewrite (C1_prob Q w H1 Hw), L, U. unfold ldpq_q. field. nra.
Qed.

End Proposition1.

(** Proposition 1 as printed. *)
Theorem P1 : forall e c r, 0 < e -> 0 < c -> 0 < r ->
  C1 c r (LDPQ e c r) /\ C2 c r e (LDPQ e c r) /\ C3 c r e (LDPQ e c r) /\
  (forall Q, C1 c r Q -> C2 c r e Q -> C3 c r e Q -> same_law c r Q (LDPQ e c r)).
Proof.
  intros e c r He Hc Hr. repeat split.
  - apply ldpq_C1; assumption.
  - apply ldpq_C1; assumption.
  - apply ldpq_C1; assumption.
  - apply ldpq_C2; assumption.
  - apply ldpq_C2; assumption.
  - apply ldpq_C3; assumption.
  - intros Q. apply P1_uniqueness; assumption.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition P1_theorems :=
  (@P1_uniqueness,
   @P1).
Print Assumptions P1_theorems.
