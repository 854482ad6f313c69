(** * X8 — Experiment 8: "There is a larger gap in variance between CorBinQ and LDPQ methods as
    ε_p decreases."

    Where. Appendix, "Experiment 8 - MSE comparison of LDPQ and CorBinQ": "We plot the resulting
    MSE when feeding a pair of quantziers with two input weights w1, w2 ∈ [c − r, c + r], where we
    have taken c = 0 and r = 0.5. ... The figure demonstrates the MSE gains of CorBinQ,
    particularly at smaller values of the privacy budget ε_p. There is a larger gap in variance
    between CorBinQ and LDPQ methods as ε_p decreases."

    The two MSEs, for a pair of inputs (w1, w2), with a = α(ε_p) > 1:
    - LDPQ pair (two independent LDPQs, LDP-FL): E((Q1 + Q2 − w1 − w2)²) = ldpq_mse w1 + ldpq_mse w2,
      computed here from the joint law Defs.ldpq_pair_joint (ldp_pair_mse_from_joint);
    - CorBinQ pair as d → ∞: Worst.opt_pair_mse = r²(2a|σ| − σ²), σ = (w1 − c + w2 − c)/r (the
      optimum over 𝒬 of Theorem 1, which CorBinQ attains in the limit).
    gap(a, w1, w2) = LDPQ pair MSE − CorBinQ pair MSE = 2r²a² − 2ar|s| + 2u1u2 (u_i = w_i − c,
    s = u1 + u2). Since α(ε) is strictly decreasing in ε (alpha_decreasing), "the gap grows as ε_p
    decreases" is "the gap grows with a".

    Readings and verdicts (all at d → ∞; c, r > 0, inputs in [c − r, c + r], 0 < ε1 < ε2):
    - X8_claim_per_input: for every pair of inputs, gap at ε1 > gap at ε2. Holds (proved):
      gap(b) − gap(a) = 2r(b − a)(r(a + b) − |s|) > 0 for 1 < a < b, since |s| <= 2r.
    - X8_claim_sup: the largest gap over the input square, 2r²a² (at w1 = w2 = c), is strictly
      decreasing in ε. Holds (proved).
    - X8_claim_avg: any weighted average of the gap over finitely many inputs (positive total
      weight), e.g. the figure's grid, is strictly decreasing in ε. Holds (proved).
    - X8_claim_ratio: the relative gap, LDPQ pair MSE / CorBinQ pair MSE, for inputs with
      w1 + w2 ≠ 2c (elsewhere CorBinQ's MSE is 0), is strictly decreasing in ε. Holds (proved).
    At the paper's finite d = 5 (CorBinQ's exact MSE with 2^5 values of Z), nothing is proved here:
    the C++ audit checks it on a grid. *)

From Coq Require Import Reals Lra Lia Psatz.
From Corbin Require Import Defs Alpha Sums Worst.
Open Scope R_scope.

(** ** Definitions *)

Definition ldp_pair_mse (a c r w1 w2 : R) : R := ldpq_mse a c r w1 + ldpq_mse a c r w2.

(** The gap in MSE between a pair of LDPQs and a CorBinQ pair at d → ∞. *)
Definition gap (a c r w1 w2 : R) : R := ldp_pair_mse a c r w1 w2 - opt_pair_mse a c r w1 w2.

(** The LDPQ pair's MSE from its joint law (Defs.ldpq_pair_joint): E((Q1 + Q2 − w1 − w2)²). *)
Definition ldp_pair_mse_joint (e c r w1 w2 : R) : R :=
  let L := LDPQ e c r in
  let lv (s : bool) := if s then hi L else lo L in
  let term s1 s2 := ldpq_pair_joint e c r w1 w2 s1 s2 * (lv s1 + lv s2 - w1 - w2) ^ 2 in
  term true true + term true false + term false true + term false false.

Lemma ldp_pair_mse_from_joint (e c r w1 w2 : R) : 0 < e -> 0 < r ->
  ldp_pair_mse_joint e c r w1 w2 = ldp_pair_mse (alpha e) c r w1 w2.
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He).
  unfold ldp_pair_mse_joint, ldp_pair_mse, ldpq_pair_joint, ldpq_mse, sgn_prob, ldpq_q, LDPQ. simpl.
  field. split; lra.
Qed.

(** ** α(ε) is strictly decreasing *)

Lemma alpha_decreasing (e1 e2 : R) : 0 < e1 -> e1 < e2 -> alpha e2 < alpha e1.
Proof.
  intros H1 H12. pose proof (exp_gt_1 e1 H1) as X1. pose proof (exp_increasing e1 e2 H12) as X.
  unfold alpha. apply div_lt_l; [lra|].
  replace ((exp e1 + 1) / (exp e1 - 1) * (exp e2 - 1))
    with ((exp e1 + 1) * (exp e2 - 1) / (exp e1 - 1)) by (field; lra).
  apply lt_div_r; [lra|]. nra.
Qed.

(** ** The gap as a polynomial, and its growth in a *)

Lemma gap_poly (a c r w1 w2 : R) : 0 < r ->
  gap a c r w1 w2 = 2 * r^2 * a^2 - 2 * a * r * Rabs (w1 - c + (w2 - c)) + 2 * (w1 - c) * (w2 - c).
Proof.
  intros Hr. unfold gap, ldp_pair_mse. rewrite opt_pair_mse_poly by exact Hr. rewrite !ldpq_mse_poly. ring.
Qed.

Lemma gap_diff (a b c r w1 w2 : R) : 0 < r ->
  gap b c r w1 w2 - gap a c r w1 w2 = 2 * r * (b - a) * (r * (a + b) - Rabs (w1 - c + (w2 - c))).
Proof. intros Hr. rewrite !gap_poly by exact Hr. ring. Qed.

(** The gain from a to b is at least 2r²(b − a)(a + b − 2) > 0. *)
Lemma gap_gain (a b c r w1 w2 : R) : 1 < a -> a < b -> 0 < r -> in_range c r w1 -> in_range c r w2 ->
  2 * r^2 * (b - a) * (a + b - 2) <= gap b c r w1 w2 - gap a c r w1 w2 /\
  0 < 2 * r^2 * (b - a) * (a + b - 2).
Proof.
  intros Ha Hab Hr H1 H2. rewrite gap_diff by exact Hr.
  pose proof (sum_abs_le c r w1 w2 H1 H2). set (t := Rabs (w1 - c + (w2 - c))) in *.
  assert (0 < 2 * r * (b - a)) by nra. split.
  - replace (2 * r^2 * (b - a) * (a + b - 2)) with (2 * r * (b - a) * (r * (a + b) - 2 * r)) by ring.
    apply Rmult_le_compat_l; lra.
  - assert (0 < r^2) by nra. assert (0 < 2 * r^2 * (b - a)) by nra. nra.
Qed.

Theorem gap_increasing (a b c r w1 w2 : R) : 1 < a -> a < b -> 0 < r ->
  in_range c r w1 -> in_range c r w2 -> gap a c r w1 w2 < gap b c r w1 w2.
Proof. intros Ha Hab Hr H1 H2. destruct (gap_gain a b c r w1 w2 Ha Hab Hr H1 H2). lra. Qed.

(** ** Reading 1: per input *)

Definition X8_claim_per_input : Prop :=
  forall c r w1 w2 e1 e2, 0 < r -> in_range c r w1 -> in_range c r w2 -> 0 < e1 -> e1 < e2 ->
    gap (alpha e2) c r w1 w2 < gap (alpha e1) c r w1 w2.

Theorem X8_per_input : X8_claim_per_input.
Proof.
  intros c r w1 w2 e1 e2 Hr H1 H2 He1 H12.
  apply gap_increasing; try assumption.
  - apply alpha_gt_1. lra.
  - apply alpha_decreasing; assumption.
Qed.

(** ** Reading 2: the largest gap over the input square *)

Definition gap_sup (a r : R) : R := 2 * r^2 * a^2.

Lemma gap_sup_spec (a c r : R) : 1 < a -> 0 < r ->
  (forall w1 w2, in_range c r w1 -> in_range c r w2 -> gap a c r w1 w2 <= gap_sup a r) /\
  in_range c r c /\ gap a c r c c = gap_sup a r.
Proof.
  intros Ha Hr. split; [|split].
  - intros w1 w2 H1 H2. rewrite gap_poly by exact Hr. unfold gap_sup.
    pose proof (sum_abs_le c r w1 w2 H1 H2) as S. pose proof (Rabs_pos (w1 - c + (w2 - c))) as P.
    pose proof (pow2_abs (w1 - c + (w2 - c))) as Q.
    set (u1 := w1 - c) in *. set (u2 := w2 - c) in *. set (t := Rabs (u1 + u2)) in *.
    (* 2u1u2 <= (u1 + u2)²/2 = t²/2 <= r t <= 2 a r t *)
    assert (A : 2 * u1 * u2 <= t^2 / 2) by (rewrite Q; pose proof (pow2_ge_0 (u1 - u2)); nra).
    assert (B : t^2 / 2 <= r * t) by nra.
    assert (C : r * t <= 2 * a * r * t) by nra.
    lra.
  - unfold in_range. lra.
  - rewrite gap_poly by exact Hr. unfold gap_sup.
    replace (c - c + (c - c)) with 0 by ring. rewrite Rabs_R0. ring.
Qed.

Definition X8_claim_sup : Prop :=
  forall c r e1 e2, 0 < r -> 0 < e1 -> e1 < e2 ->
    (forall w1 w2, in_range c r w1 -> in_range c r w2 -> gap (alpha e2) c r w1 w2 <= gap_sup (alpha e2) r) /\
    (exists w1 w2, in_range c r w1 /\ in_range c r w2 /\ gap (alpha e2) c r w1 w2 = gap_sup (alpha e2) r) /\
    gap_sup (alpha e2) r < gap_sup (alpha e1) r.

Theorem X8_sup : X8_claim_sup.
Proof.
  intros c r e1 e2 Hr He1 H12.
  assert (A2 : 1 < alpha e2) by (apply alpha_gt_1; lra).
  pose proof (alpha_decreasing e1 e2 He1 H12) as D.
  destruct (gap_sup_spec (alpha e2) c r A2 Hr) as [B [R0 E]].
  split; [exact B|]. split; [exists c, c; repeat split; try apply R0; exact E|].
  unfold gap_sup. assert (0 < r^2) by nra.
  assert (alpha e2 ^ 2 < alpha e1 ^ 2) by nra. nra.
Qed.

(** ** Reading 3: weighted averages over finitely many inputs (e.g. the figure's grid) *)

Definition gap_avg (n : nat) (wt : nat -> R) (x y : nat -> R) (a c r : R) : R :=
  fsum n (fun i => wt i * gap a c r (x i) (y i)) / fsum n wt.

Definition X8_claim_avg : Prop :=
  forall (n : nat) (wt x y : nat -> R) c r e1 e2, 0 < r ->
    (forall i, (i < n)%nat -> 0 <= wt i /\ in_range c r (x i) /\ in_range c r (y i)) ->
    0 < fsum n wt -> 0 < e1 -> e1 < e2 ->
    gap_avg n wt x y (alpha e2) c r < gap_avg n wt x y (alpha e1) c r.

Theorem X8_avg : X8_claim_avg.
Proof.
  intros n wt x y c r e1 e2 Hr Hi W He1 H12.
  set (a := alpha e2). set (b := alpha e1).
  assert (Ha : 1 < a) by (apply alpha_gt_1; lra).
  assert (Hab : a < b) by (apply alpha_decreasing; assumption).
  set (g0 := 2 * r^2 * (b - a) * (a + b - 2)).
  assert (G : fsum n (fun i => wt i * g0) <= fsum n (fun i => wt i * gap b c r (x i) (y i)) -
                                               fsum n (fun i => wt i * gap a c r (x i) (y i))).
  { rewrite <- fsum_minus. apply fsum_le. intros i Hlt. destruct (Hi i Hlt) as [Wi [X Y]].
    destruct (gap_gain a b c r (x i) (y i) Ha Hab Hr X Y) as [L _].
    assert (wt i * g0 <= wt i * (gap b c r (x i) (y i) - gap a c r (x i) (y i)))
      by (apply Rmult_le_compat_l; assumption).
    lra. }
  rewrite (fsum_ext n (fun i => wt i * g0) (fun i => g0 * wt i)) in G by (intros; ring).
  rewrite fsum_scal in G.
  assert (P : 0 < g0).
  { destruct (Hi O) as [_ [X _]].
    - destruct n; [simpl in W; lra|lia].
    - exact (proj2 (gap_gain a b c r (x O) (x O) Ha Hab Hr X X)). }
  unfold gap_avg. apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat, W|].
  assert (0 < g0 * fsum n wt) by (apply Rmult_lt_0_compat; assumption). lra.
Qed.

(** ** Reading 4: the relative gap (ratio of the two MSEs), where CorBinQ's MSE is positive *)

Lemma opt_pos (a c r w1 w2 : R) : 1 < a -> 0 < r -> in_range c r w1 -> in_range c r w2 ->
  w1 + w2 <> 2 * c -> 0 < opt_pair_mse a c r w1 w2.
Proof.
  intros Ha Hr H1 H2 Hs. rewrite opt_pair_mse_poly by exact Hr.
  rewrite <- pow2_abs. pose proof (sum_abs_le c r w1 w2 H1 H2).
  assert (T : 0 < Rabs (w1 - c + (w2 - c))) by (apply Rabs_pos_lt; intros E; apply Hs; lra).
  set (t := Rabs (w1 - c + (w2 - c))) in *.
  assert (0 < 2 * a * r - t) by nra.
  replace (2 * a * r * t - t^2) with (t * (2 * a * r - t)) by ring.
  apply Rmult_lt_0_compat; assumption.
Qed.

Definition X8_claim_ratio : Prop :=
  forall c r w1 w2 e1 e2, 0 < r -> in_range c r w1 -> in_range c r w2 -> w1 + w2 <> 2 * c ->
    0 < e1 -> e1 < e2 ->
    ldp_pair_mse (alpha e2) c r w1 w2 / opt_pair_mse (alpha e2) c r w1 w2 <
    ldp_pair_mse (alpha e1) c r w1 w2 / opt_pair_mse (alpha e1) c r w1 w2.

Theorem X8_ratio : X8_claim_ratio.
Proof.
  intros c r w1 w2 e1 e2 Hr H1 H2 Hs He1 H12.
  set (a := alpha e2). set (b := alpha e1).
  assert (Ha : 1 < a) by (apply alpha_gt_1; lra).
  assert (Hab : a < b) by (apply alpha_decreasing; assumption).
  pose proof (opt_pos a c r w1 w2 Ha Hr H1 H2 Hs) as Da.
  pose proof (opt_pos b c r w1 w2 ltac:(lra) Hr H1 H2 Hs) as Db.
  apply div_lt_l; [exact Da|].
  replace (ldp_pair_mse b c r w1 w2 / opt_pair_mse b c r w1 w2 * opt_pair_mse a c r w1 w2)
    with (ldp_pair_mse b c r w1 w2 * opt_pair_mse a c r w1 w2 / opt_pair_mse b c r w1 w2) by (field; lra).
  apply lt_div_r; [exact Db|].
  unfold ldp_pair_mse. rewrite !opt_pair_mse_poly by exact Hr. rewrite !ldpq_mse_poly.
  pose proof (sum_abs_le c r w1 w2 H1 H2).
  assert (T : 0 < Rabs (w1 - c + (w2 - c))) by (apply Rabs_pos_lt; intros E; apply Hs; lra).
  pose proof (pow2_abs (w1 - c + (w2 - c))) as Q.
  set (u1 := w1 - c) in *. set (u2 := w2 - c) in *. set (t := Rabs (u1 + u2)) in *.
  rewrite <- Q. set (q := u1^2 + u2^2).
  (* N(b)D(a) − N(a)D(b) = 2rt(b − a)(2r²ab − rt(a + b) + q), and q >= t²/2 *)
  assert (E : (r^2 * b^2 - u1^2 + (r^2 * b^2 - u2^2)) * (2 * a * r * t - t^2)
              - (r^2 * a^2 - u1^2 + (r^2 * a^2 - u2^2)) * (2 * b * r * t - t^2)
              = 2 * r * t * (b - a) * (2 * r^2 * a * b - r * t * (a + b) + q)) by (unfold q; ring).
  assert (Qh : t^2 / 2 <= q) by (unfold q; rewrite Q; pose proof (pow2_ge_0 (u1 - u2)); nra).
  assert (F1 : 0 < 2 * r * a - t) by nra. assert (F2 : 0 < 2 * r * b - t) by nra.
  assert (K : 0 < 2 * r^2 * a * b - r * t * (a + b) + q).
  { assert (0 < (2 * r * a - t) * (2 * r * b - t)) by (apply Rmult_lt_0_compat; assumption). nra. }
  assert (0 < 2 * r * t * (b - a)) by (apply Rmult_lt_0_compat; [nra|lra]).
  assert (0 < 2 * r * t * (b - a) * (2 * r^2 * a * b - r * t * (a + b) + q)) by (apply Rmult_lt_0_compat; assumption).
  lra.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition X8_theorems :=
  (@gap_increasing,
   @X8_per_input,
   @X8_sup,
   @X8_avg,
   @X8_ratio).
Print Assumptions X8_theorems.
