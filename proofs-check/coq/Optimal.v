(** * Optimal — Theorem 1 in the class with LDPQ's levels: CorBinQ is exactly optimal; the
      d → ∞ optimum and the true constant

    Claims (Thm1.v), read with 𝒬 restricted to the pairs whose levels are c ± rα (in_Q_levels)
    and inputs in [c − r, c + r]: T1c_claim_levels (CorBinQ minimises the MSE), T1b_claim_levels
    (the bound (th:1:opt)) and T1u_claim_levels (uniform convergence). Verdict: all three hold for
    every d ∈ ℕ. T1c is the strong statement; T1b and T1u follow from it with a gap of 0.

    Why. Given Z = z the two outputs are independent, so the MSE given z is a quadratic in
    a = p1(z), b = p2(z) whose only cross term is 2L²ab (L = 2rα, the distance between the
    levels). C4 pins each marginal to LDPQ's q (the levels differ), so over the whole class
    m = K − (2L²/N)·Σ_z p1 (1 − p2), with K the same for every pair and N = 2^d. Minimising m
    is maximising S = Σ_z p q over p = p1, q = 1 − p2 with values in [0, 1], Σ p = u = N q1,
    Σ q = v = N (1 − q2) (Alg. 2's thresholds). A finite inequality, by induction on the number
    of terms (no sorting), gives S ≤ u, S ≤ v, and S ≤ j + (u − j)(v − j) for every integer
    j ≤ u, v. CorBinQ's nested thresholds reach min(u, v) when ⌊u⌋ ≠ ⌊v⌋, and ⌊u⌋ + {u}{v} (the
    third bound at j = ⌊u⌋) when the floors agree: the maximum either way.

    The limit. Dropping the integer constraint, the best S is min(u, v), giving
    m_inf = K + 2L² max(0, q1 + q2 − 1), which is below every pair of the class at every d
    (limit_lower_bound). CorBinQ's excess over it is exactly (2L²/N)·min({u}(1 − {v}), {v}(1 − {u}))
    when ⌊u⌋ = ⌊v⌋, and 0 otherwise (corbinq_gap_exact). Since u and v range over
    N/2 ± N/(2α), the largest excess over the inputs (sup_gap) is 2r²α²/2^d when d = 0 or
    2^d ≥ α (reached at {u} = {v} = 1/2), and 2r²(2α − 2^d) when d ≥ 1 and 2^d < α (then u, v
    stay within N/(2α) < 1/2 of the integer N/2; worst at w = c + r, w' = c − r). Both are
    reached (sup_gap_attained), so sup_gap is the exact maximum. It is at most the paper's
    r²α²/2^(d−6) divided by 32, with equality when 2^d ≥ α: the paper's 64 is 32 times the
    true constant 2. So CorBinQ's MSE converges to m_inf uniformly in the inputs
    (corbinq_uniform_limit). The hypothesis c > 0 of the claims is never used. *)

From Coq Require Import Reals Lra Lia.
From Corbin Require Import Defs Alpha Sums T1a Thm1.
Open Scope R_scope.

(** ** (1) The finite inequality behind the optimum

    For p, q with values in [0, 1], S = Σ p q is at most each of u = Σ p and v = Σ q, and at most
    j + (u − j)(v − j) for every integer j ≤ u, v. Adding one term (x, y) to the sums: when j stays
    below both old sums the old bound at j carries over; when j passes both, the old bound at j − 1
    does; when it passes one only, the old S ≤ (that sum) does. *)

(** j ≤ both old sums. *)
Lemma grow_both_below (J u0 v0 S0 x y : R) :
  0 <= x <= 1 -> 0 <= y <= 1 -> J <= u0 -> J <= v0 ->
  S0 <= J + (u0 - J) * (v0 - J) -> S0 + x * y <= J + (u0 + x - J) * (v0 + y - J).
Proof.
  intros Hx Hy Hu Hv IH.
  assert (0 <= x * (v0 - J)) by (apply Rmult_le_pos; lra).
  assert (0 <= y * (u0 - J)) by (apply Rmult_le_pos; lra).
  nra.
Qed.

(** j above both old sums (so j ≥ 1): the bound at j − 1. *)
Lemma grow_both_cross (J u0 v0 S0 x y : R) :
  0 <= x <= 1 -> 0 <= y <= 1 -> u0 < J <= u0 + x -> v0 < J <= v0 + y ->
  S0 <= (J - 1) + (u0 - (J - 1)) * (v0 - (J - 1)) ->
  S0 + x * y <= J + (u0 + x - J) * (v0 + y - J).
Proof.
  intros Hx Hy Hu Hv IH.
  assert (0 <= (J - u0) * (1 - y)) by (apply Rmult_le_pos; lra).
  assert (0 <= (J - v0) * (1 - x)) by (apply Rmult_le_pos; lra).
  nra.
Qed.

(** j above the old Σ p only: S ≤ Σ p (the symmetric case swaps p and q). *)
Lemma grow_one_cross (J u0 v0 S0 x y : R) :
  0 <= x <= 1 -> 0 <= y <= 1 -> u0 < J <= u0 + x -> J <= v0 ->
  S0 <= u0 -> S0 + x * y <= J + (u0 + x - J) * (v0 + y - J).
Proof.
  intros Hx Hy Hu Hv IH.
  destruct (Rle_lt_dec 1 (v0 + y - J)) as [V1|V1].
  - assert (0 <= (u0 + x - J) * (v0 + y - J - 1)) by (apply Rmult_le_pos; lra).
    assert (0 <= x * (1 - y)) by (apply Rmult_le_pos; lra).
    nra.
  - assert (0 <= x * (v0 - J)) by (apply Rmult_le_pos; lra).
    assert (0 <= (J - u0) * (1 - (v0 + y - J))) by (apply Rmult_le_pos; lra).
    nra.
Qed.

Lemma fsum_prod_bounds (n : nat) (p q : nat -> R) :
  (forall z, (z < n)%nat -> 0 <= p z <= 1 /\ 0 <= q z <= 1) ->
  fsum n (fun z => p z * q z) <= fsum n p /\
  fsum n (fun z => p z * q z) <= fsum n q /\
  (forall j : nat, INR j <= fsum n p -> INR j <= fsum n q ->
     fsum n (fun z => p z * q z) <= INR j + (fsum n p - INR j) * (fsum n q - INR j)).
Proof.
  induction n as [|n IH]; intros H.
  - simpl. split; [lra|split; [lra|]]. intros j _ _. pose proof (pos_INR j). nra.
  - destruct (IH (fun z Hz => H z ltac:(lia))) as [IHp [IHq IHj]].
    destruct (H n ltac:(lia)) as [Hx Hy]. simpl fsum.
    set (u0 := fsum n p) in *. set (v0 := fsum n q) in *.
    set (S0 := fsum n (fun z => p z * q z)) in *.
    set (x := p n) in *. set (y := q n) in *.
    assert (0 <= u0) by (apply fsum_nonneg; intros; apply H; lia).
    assert (0 <= v0) by (apply fsum_nonneg; intros; apply H; lia).
    split; [nra|split; [nra|]].
    intros j Hju Hjv.
    destruct (Rle_lt_dec (INR j) u0) as [Ju|Ju]; destruct (Rle_lt_dec (INR j) v0) as [Jv|Jv].
    + apply grow_both_below; auto.
    + replace (INR j + (u0 + x - INR j) * (v0 + y - INR j))
        with (INR j + (v0 + y - INR j) * (u0 + x - INR j)) by ring.
      rewrite (Rmult_comm x y). apply grow_one_cross; lra.
    + apply grow_one_cross; lra.
    + destruct j as [|j]; [simpl in Ju; lra|].
      rewrite S_INR in *. apply grow_both_cross; try lra.
      replace (INR j + 1 - 1) with (INR j) by ring. apply IHj; lra.
Qed.

(** ** (2) CorBinQ's value of Σ_z P(Q1 hi | z) P(Q2 lo | z)

    Both thresholds run up from z = 0, so the product of the steps at ⌊u⌋ and ⌊v⌋ is again a step:
    the lower one when the floors differ, and the step with mass ⌊u⌋ + {u}{v} when they agree. *)

Definition corr_value (u v : R) : R :=
  if (fl u =? fl v)%nat then INR (fl u) + fr u * fr v else Rmin u v.

(** How far corr_value falls short of min(u, v): min({u}(1 − {v}), {v}(1 − {u})) on equal floors. *)
Definition gap_term (u v : R) : R :=
  if (fl u =? fl v)%nat then Rmin (fr u * (1 - fr v)) (fr v * (1 - fr u)) else 0.

Lemma step_mul_below (u v : R) (z : nat) : (fl u < fl v)%nat -> step u z * step v z = step u z.
Proof.
  intros H. unfold step.
  destruct (Nat.ltb_spec z (fl u)); destruct (Nat.eqb_spec z (fl u));
    destruct (Nat.ltb_spec z (fl v)); destruct (Nat.eqb_spec z (fl v)); try lia; ring.
Qed.

Lemma fl_fr_tie (k : nat) (f : R) : 0 <= f < 1 -> fl (INR k + f) = k /\ fr (INR k + f) = f.
Proof. intros H. pose proof (fl_of_nat k f H) as E. split; [exact E|]. unfold fr. rewrite E. ring. Qed.

Lemma step_mul_tie (u v : R) (z : nat) : 0 <= u -> 0 <= v -> fl u = fl v ->
  step u z * step v z = step (INR (fl u) + fr u * fr v) z.
Proof.
  intros Hu Hv E. pose proof (fr_spec u Hu). pose proof (fr_spec v Hv).
  destruct (fl_fr_tie (fl u) (fr u * fr v)) as [F R']; [split; nra|].
  unfold step at 3. rewrite F, R'. unfold step. rewrite <- E.
  destruct (Nat.ltb_spec z (fl u)); destruct (Nat.eqb_spec z (fl u)); try lia; ring.
Qed.

Lemma fsum_step_mul (n : nat) (u v : R) : 0 <= u < INR n -> 0 <= v < INR n ->
  fsum n (fun z => step u z * step v z) = corr_value u v.
Proof.
  intros Hu Hv. pose proof (fl_spec u (proj1 Hu)). pose proof (fl_spec v (proj1 Hv)).
  pose proof (fr_spec u (proj1 Hu)). pose proof (fr_spec v (proj1 Hv)).
  unfold corr_value. destruct (Nat.eqb_spec (fl u) (fl v)) as [E|E].
  - rewrite (fsum_ext _ _ _ (fun z _ => step_mul_tie u v z (proj1 Hu) (proj1 Hv) E)).
    apply fsum_step. split; [pose proof (pos_INR (fl u)); nra|].
    unfold fr at 1. nra.
  - assert (Lt : (fl u < fl v \/ fl v < fl u)%nat) by lia. destruct Lt as [L|L].
    + rewrite (fsum_ext _ _ _ (fun z _ => step_mul_below u v z L)), fsum_step by exact Hu.
      apply le_INR in L. rewrite S_INR in L. rewrite Rmin_left by lra. reflexivity.
    + rewrite (fsum_ext _ _ (fun z => step v z * step u z)) by (intros; ring).
      rewrite (fsum_ext _ _ _ (fun z _ => step_mul_below v u z L)), fsum_step by exact Hv.
      apply le_INR in L. rewrite S_INR in L. rewrite Rmin_right by lra. reflexivity.
Qed.

(** No p, q in [0, 1] with the same sums do better: (1) with j = ⌊u⌋ = ⌊v⌋, or min(u, v). *)
Lemma fsum_prod_le_corr (n : nat) (p q : nat -> R) :
  (forall z, (z < n)%nat -> 0 <= p z <= 1 /\ 0 <= q z <= 1) ->
  fsum n (fun z => p z * q z) <= corr_value (fsum n p) (fsum n q).
Proof.
  intros H. destruct (fsum_prod_bounds n p q H) as [Bp [Bq Bj]].
  set (u := fsum n p) in *. set (v := fsum n q) in *.
  assert (0 <= u) by (apply fsum_nonneg; intros; apply H; lia).
  assert (0 <= v) by (apply fsum_nonneg; intros; apply H; lia).
  unfold corr_value. destruct (Nat.eqb_spec (fl u) (fl v)) as [E|E].
  - pose proof (fl_spec u ltac:(lra)). pose proof (fl_spec v ltac:(lra)).
    unfold fr. rewrite <- E in *. apply Bj; lra.
  - apply Rmin_glb; assumption.
Qed.

Lemma min_minus_corr (u v : R) : 0 <= u -> 0 <= v -> Rmin u v - corr_value u v = gap_term u v.
Proof.
  intros Hu Hv. unfold corr_value, gap_term. destruct (Nat.eqb_spec (fl u) (fl v)) as [E|E]; [|ring].
  assert (Eu : u = INR (fl u) + fr u) by (unfold fr; ring).
  assert (Ev : v = INR (fl u) + fr v) by (unfold fr; rewrite E; ring).
  set (f := fr u) in *. set (g := fr v) in *. set (k := INR (fl u)) in *.
  rewrite Eu, Ev. destruct (Rle_lt_dec f g).
  - rewrite Rmin_left, Rmin_left by nra. ring.
  - rewrite Rmin_right, Rmin_right by nra. ring.
Qed.

Lemma gap_term_nonneg (u v : R) : 0 <= u -> 0 <= v -> 0 <= gap_term u v.
Proof.
  intros Hu Hv. pose proof (fr_spec u Hu). pose proof (fr_spec v Hv).
  unfold gap_term. destruct (fl u =? fl v)%nat; [|lra]. apply Rmin_glb; nra.
Qed.

(** min(f(1 − g), g(1 − f)) ≤ 1/4: with f ≤ g it is f(1 − g) ≤ g(1 − g). *)
Lemma min_cross_le_quarter (f g : R) : 0 <= f <= 1 -> 0 <= g <= 1 ->
  Rmin (f * (1 - g)) (g * (1 - f)) <= 1 / 4.
Proof.
  intros Hf Hg. destruct (Rle_lt_dec f g).
  - apply Rle_trans with (f * (1 - g)); [apply Rmin_l|].
    assert (0 <= (g - f) * (1 - g)) by (apply Rmult_le_pos; lra).
    pose proof (pow2_ge_0 (g - 1 / 2)). nra.
  - apply Rle_trans with (g * (1 - f)); [apply Rmin_r|].
    assert (0 <= (f - g) * (1 - f)) by (apply Rmult_le_pos; lra).
    pose proof (pow2_ge_0 (f - 1 / 2)). nra.
Qed.

(** Near 0 or near 1 (within δ ≤ 1/2) the bound is δ(1 − δ). *)
Lemma min_cross_le_edge (f g dl : R) : 0 <= f <= 1 -> 0 <= g <= 1 -> 0 <= dl <= 1 / 2 ->
  (f <= dl /\ g <= dl) \/ (1 - dl <= f /\ 1 - dl <= g) ->
  Rmin (f * (1 - g)) (g * (1 - f)) <= dl * (1 - dl).
Proof.
  intros Hf Hg Hd Hfg. destruct (Rle_lt_dec f g).
  - apply Rle_trans with (f * (1 - g)); [apply Rmin_l|].
    destruct Hfg as [[A B]|[A B]].
    + assert (0 <= (dl - g) * (1 - g - dl)) by (apply Rmult_le_pos; lra). nra.
    + assert (0 <= (f - dl) * (f + dl - 1)) by (apply Rmult_le_pos; lra). nra.
  - apply Rle_trans with (g * (1 - f)); [apply Rmin_r|].
    destruct Hfg as [[A B]|[A B]].
    + assert (0 <= (dl - f) * (1 - f - dl)) by (apply Rmult_le_pos; lra). nra.
    + assert (0 <= (g - dl) * (g + dl - 1)) by (apply Rmult_le_pos; lra). nra.
Qed.

(** ** (3) The MSE of a pair of the class

    mse_base is K, the part of the MSE that every pair of the class shares
    (L = 2rα, t = 2(c − rα) − w − w'). *)
Definition mse_base (e c r w w' : R) : R :=
  let a := alpha e in let L := 2 * r * a in let t := 2 * (c - r * a) - w - w' in
  t ^ 2 + (2 * t * L + L ^ 2) * (ldpq_q a c r w + ldpq_q a c r w').

(** The optimum as d → ∞: Σ p q replaced by its bound min(u, v). *)
Definition m_inf (e c r w w' : R) : R :=
  mse_base e c r w w' +
  2 * (2 * r * alpha e) ^ 2 * Rmax 0 (ldpq_q (alpha e) c r w + ldpq_q (alpha e) c r w' - 1).

(** Given z, with L = hi − lo: the outcomes are t, t + L, t + 2L with t = 2 lo − w − w'. *)
Lemma pair_mse_given_split (P : pair) (w w' : R) (z : nat) :
  pair_mse_given P w w' z =
  (2 * plo P - w - w') ^ 2 +
  (2 * (2 * plo P - w - w') * (phi P - plo P) + (phi P - plo P) ^ 2) * (p1 P w z + p2 P w' z) +
  2 * (phi P - plo P) ^ 2 * (p1 P w z * p2 P w' z).
Proof. unfold pair_mse_given. ring. Qed.

Lemma fsum_avg (d : nat) (f : nat -> R) : fsum (nZ d) f = INR (nZ d) * avgZ d f.
Proof. unfold avgZ. pose proof (nZ_pos d). field. lra. Qed.

Lemma pair_mse_split (d : nat) (P : pair) (w w' : R) :
  pair_mse d P w w' =
  (2 * plo P - w - w') ^ 2 +
  (2 * (2 * plo P - w - w') * (phi P - plo P) + (phi P - plo P) ^ 2) * (marg1 d P w + marg2 d P w') +
  2 * (phi P - plo P) ^ 2 / INR (nZ d) * fsum (nZ d) (fun z => p1 P w z * p2 P w' z).
Proof.
  pose proof (nZ_pos d). unfold pair_mse, marg1, marg2, avgZ.
  rewrite (fsum_ext _ _ _ (fun z _ => pair_mse_given_split P w w' z)).
  rewrite !fsum_plus, fsum_const, !fsum_scal, fsum_plus. field. lra.
Qed.

Section Class.
Variables (d : nat) (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.

Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.
Let N := INR (nZ d).
Let HN : 0 < N := nZ_pos d.

(** C4 with levels c ± rα determines the marginal: it is LDPQ's q. *)
Lemma class_marg (P : pair) (m x : R) : plo P = c - r * a -> phi P = c + r * a ->
  m * phi P + (1 - m) * plo P = x -> m = ldpq_q a c r x.
Proof. intros Hlo Hhi E. rewrite <- E, Hlo, Hhi. unfold ldpq_q. field. split; lra. Qed.

Lemma class_probs (P : pair) (w w' : R) : in_Q_levels d c r e P -> in_range c r w -> in_range c r w' ->
  forall z, (z < nZ d)%nat -> 0 <= p1 P w z <= 1 /\ 0 <= 1 - p2 P w' z <= 1.
Proof.
  intros [[H4 _] _] Hw Hw' z Hz.
  destruct (H4 w Hw) as [Pw _]. destruct (H4 w' Hw') as [Pw' _].
  destruct (Pw z Hz) as [A _]. destruct (Pw' z Hz) as [_ B]. unfold is_prob in *. lra.
Qed.

Lemma class_sum1 (P : pair) (w : R) : in_Q_levels d c r e P -> in_range c r w ->
  fsum (nZ d) (p1 P w) = u_of d a c r w.
Proof.
  intros [[H4 _] [Hlo Hhi]] Hw. destruct (H4 w Hw) as [_ [E _]].
  rewrite fsum_avg. fold (marg1 d P w). rewrite (class_marg P _ w Hlo Hhi E). reflexivity.
Qed.

Lemma class_sum2 (P : pair) (w' : R) : in_Q_levels d c r e P -> in_range c r w' ->
  fsum (nZ d) (fun z => 1 - p2 P w' z) = v_of d a c r w'.
Proof.
  intros [[H4 _] [Hlo Hhi]] Hw'. destruct (H4 w' Hw') as [_ [_ E]].
  rewrite fsum_avg, avgZ_one_minus. fold (marg2 d P w'). rewrite (class_marg P _ w' Hlo Hhi E). reflexivity.
Qed.

(** Within the class, the MSE depends on the pair only through Σ_z p1 (1 − p2). *)
Lemma class_mse (P : pair) (w w' : R) : in_Q_levels d c r e P -> in_range c r w -> in_range c r w' ->
  pair_mse d P w w' =
  mse_base e c r w w' + 2 * (2 * r * a) ^ 2 * ldpq_q a c r w -
  2 * (2 * r * a) ^ 2 / N * fsum (nZ d) (fun z => p1 P w z * (1 - p2 P w' z)).
Proof.
  intros HP Hw Hw'. pose proof HP as [[H4 _] [Hlo Hhi]].
  destruct (H4 w Hw) as [_ [E1 _]]. destruct (H4 w' Hw') as [_ [_ E2]].
  rewrite pair_mse_split, (class_marg P _ w Hlo Hhi E1), (class_marg P _ w' Hlo Hhi E2).
  rewrite (fsum_ext _ _ (fun z => p1 P w z + (-1) * (p1 P w z * (1 - p2 P w' z)))) by (intros; ring).
  rewrite fsum_plus, fsum_scal. change (fsum (nZ d) (fun z => p1 P w z)) with (fsum (nZ d) (p1 P w)).
  rewrite (class_sum1 P w HP Hw). rewrite Hlo, Hhi. unfold mse_base, u_of. fold a N. field. lra.
Qed.
End Class.

(** ** (4) CorBinQ is optimal in the class; (5a, 5b) the limit and the exact gap to it *)

Section Optimum.
Variables (d : nat) (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.

Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.
Let N := INR (nZ d).
Let HN : 0 < N := nZ_pos d.
Let K w w' := mse_base e c r w w' + 2 * (2 * r * a) ^ 2 * ldpq_q a c r w.
Let B := 2 * (2 * r * a) ^ 2 / N.
Let HB : 0 < B.
Proof. unfold B. apply Rdiv_lt_0_compat; [|exact HN]. apply Rmult_lt_0_compat; [lra|]. apply pow_lt. nra. Qed.

Lemma corbinq_in_class : in_Q_levels d c r e (corbinq d e c r).
Proof. split; [split; [apply corbinq_C4 | apply corbinq_C5]; assumption | split; reflexivity]. Qed.

(** CorBinQ: p1 (1 − p2) = step u · step v, whose sum is corr_value u v by (2). *)
Lemma corbinq_mse (w w' : R) : in_range c r w -> in_range c r w' ->
  pair_mse d (corbinq d e c r) w w' = K w w' - B * corr_value (u_of d a c r w) (v_of d a c r w').
Proof.
  intros Hw Hw'. rewrite (class_mse d e c r He Hr _ w w' corbinq_in_class Hw Hw'). simpl. fold a N.
  rewrite (fsum_ext _ _ (fun z => step (u_of d a c r w) z * step (v_of d a c r w') z)) by (intros; ring).
  rewrite fsum_step_mul by (apply u_range || apply v_range; assumption). reflexivity.
Qed.

(** Any pair of the class: its Σ p1 (1 − p2) is at most corr_value u v by (1). *)
Lemma class_mse_ge (P : pair) (w w' : R) : in_Q_levels d c r e P -> in_range c r w -> in_range c r w' ->
  K w w' - B * corr_value (u_of d a c r w) (v_of d a c r w') <= pair_mse d P w w'.
Proof.
  intros HP Hw Hw'. rewrite (class_mse d e c r He Hr P w w' HP Hw Hw'). fold a N B K.
  pose proof (fsum_prod_le_corr (nZ d) (p1 P w) (fun z => 1 - p2 P w' z) (class_probs d e c r P w w' HP Hw Hw')) as S.
  rewrite (class_sum1 d e c r He Hr P w HP Hw), (class_sum2 d e c r He Hr P w' HP Hw') in S. fold a in S.
  apply Rplus_le_compat_l, Ropp_le_contravar, Rmult_le_compat_l; [apply Rlt_le, HB | exact S].
Qed.

(** q1 − min(q1, 1 − q2) = max(0, q1 + q2 − 1). *)
Lemma m_inf_alt (w w' : R) : in_range c r w -> in_range c r w' ->
  m_inf e c r w w' = K w w' - B * Rmin (u_of d a c r w) (v_of d a c r w').
Proof.
  intros Hw Hw'. unfold m_inf, K, B, u_of, v_of. fold a N.
  set (q1 := ldpq_q a c r w). set (q2 := ldpq_q a c r w').
  destruct (Rle_lt_dec q1 (1 - q2)).
  - rewrite Rmin_left by (apply Rmult_le_compat_l; lra). rewrite Rmax_left by lra. field. lra.
  - rewrite Rmin_right by (apply Rmult_le_compat_l; lra). rewrite Rmax_right by lra. field. lra.
Qed.

Lemma corbinq_gap (w w' : R) : in_range c r w -> in_range c r w' ->
  pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' = B * gap_term (u_of d a c r w) (v_of d a c r w').
Proof.
  intros Hw Hw'. rewrite corbinq_mse, m_inf_alt by assumption.
  rewrite <- min_minus_corr by (apply u_range || apply v_range; assumption). ring.
Qed.

Lemma lower_bound (P : pair) (w w' : R) : in_Q_levels d c r e P -> in_range c r w -> in_range c r w' ->
  m_inf e c r w w' <= pair_mse d P w w'.
Proof.
  intros HP Hw Hw'. eapply Rle_trans; [|apply (class_mse_ge P w w' HP Hw Hw')].
  rewrite m_inf_alt by assumption.
  pose proof (min_minus_corr (u_of d a c r w) (v_of d a c r w') ltac:(apply u_range; assumption) ltac:(apply v_range; assumption)).
  pose proof (gap_term_nonneg (u_of d a c r w) (v_of d a c r w') ltac:(apply u_range; assumption) ltac:(apply v_range; assumption)).
  nra.
Qed.

End Optimum.

(** The claims of Thm1.v in the restricted class. *)
Theorem T1c_levels : T1c_claim_levels.
Proof.
  intros d e c r He _ Hr w w' Hw Hw' P HP.
  rewrite corbinq_mse by assumption. apply class_mse_ge; assumption.
Qed.

(** The gap to any pair is ≤ 0 ≤ the paper's bound. *)
Theorem T1b_levels : T1b_claim_levels.
Proof.
  intros d e c r He Hc Hr w w' Hw Hw' P HP.
  pose proof (T1c_levels d e c r He Hc Hr w w' Hw Hw' P HP).
  assert (0 <= thm1_bound d e r).
  { unfold thm1_bound. pose proof (nZ_pos d). apply Rle_mult_inv_pos; [|lra].
    pose proof (pow2_ge_0 r). pose proof (pow2_ge_0 (alpha e)). nra. }
  lra.
Qed.

(** Already D = 0 works, for every η > 0: CorBinQ is never worse than a pair of the class. *)
Theorem T1u_levels : T1u_claim_levels.
Proof.
  intros e c r He Hc Hr eta Heta. exists 0%nat. intros d _ w w' Hw Hw' P HP.
  pose proof (T1c_levels d e c r He Hc Hr w w' Hw Hw' P HP). lra.
Qed.

(** (5a) m_inf is below every pair of the class, at every d. *)
Theorem limit_lower_bound : forall (d : nat) (e c r : R), 0 < e -> 0 < r ->
  forall w w', in_range c r w -> in_range c r w' ->
  forall P, in_Q_levels d c r e P -> m_inf e c r w w' <= pair_mse d P w w'.
Proof. intros. apply lower_bound; assumption. Qed.

(** (5b) CorBinQ's exact excess over m_inf. *)
Theorem corbinq_gap_exact : forall (d : nat) (e c r : R), 0 < e -> 0 < r ->
  forall w w', in_range c r w -> in_range c r w' ->
  pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' =
  2 * (2 * r * alpha e) ^ 2 / INR (nZ d) * gap_term (u_of d (alpha e) c r w) (v_of d (alpha e) c r w').
Proof. intros. apply corbinq_gap; assumption. Qed.

(** ** (5c) The largest excess over the inputs *)

Definition sup_gap (d : nat) (e r : R) : R :=
  match d with
  | O => 2 * r ^ 2 * alpha e ^ 2 / INR (nZ d)
  | S _ => if Rlt_dec (INR (nZ d)) (alpha e) then 2 * r ^ 2 * (2 * alpha e - INR (nZ d))
           else 2 * r ^ 2 * alpha e ^ 2 / INR (nZ d)
  end.

(** The quarter bound, for any inputs: with {u} ≤ {v}, {u}(1 − {v}) ≤ {v}(1 − {v}) ≤ 1/4. *)
Lemma gap_term_le_quarter (u v : R) : 0 <= u -> 0 <= v -> gap_term u v <= 1 / 4.
Proof.
  intros Hu Hv. pose proof (fr_spec u Hu). pose proof (fr_spec v Hv).
  unfold gap_term. destruct (fl u =? fl v)%nat; [apply min_cross_le_quarter; lra | lra].
Qed.

(** Inputs within δ ≤ 1/2 of an integer M: a common floor is M (both fractions ≤ δ) or M − 1
    (both ≥ 1 − δ). *)
Lemma gap_term_le_edge (m : nat) (u v dl : R) : 0 <= u -> 0 <= v -> 0 <= dl <= 1 / 2 ->
  INR m - dl <= u <= INR m + dl -> INR m - dl <= v <= INR m + dl -> gap_term u v <= dl * (1 - dl).
Proof.
  intros Hu Hv Hd Ru Rv. pose proof (fl_spec u Hu). pose proof (fl_spec v Hv).
  unfold gap_term. destruct (Nat.eqb_spec (fl u) (fl v)) as [E|E]; [|nra].
  unfold fr. rewrite <- E in *. apply min_cross_le_edge; try lra.
  destruct (Nat.le_gt_cases m (fl u)) as [L|L].
  - apply le_INR in L. left. lra.
  - apply lt_INR in L. assert (INR (fl u) + 1 <= INR m).
    { rewrite <- S_INR. apply le_INR. apply INR_lt in L. lia. }
    right. lra.
Qed.

Section SupGap.
Variables (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.

Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.

(** u and v range over N/2 ± N/(2α). *)
Lemma u_window (d : nat) (w : R) : in_range c r w ->
  INR (nZ d) / 2 - INR (nZ d) / (2 * a) <= u_of d a c r w <= INR (nZ d) / 2 + INR (nZ d) / (2 * a).
Proof.
  intros Hw. pose proof (ldpq_q_bounds a c r w Ha Hr Hw) as [L U]. pose proof (nZ_pos d).
  unfold u_of. replace (INR (nZ d) / 2 - INR (nZ d) / (2 * a)) with (INR (nZ d) * ((a - 1) / (2 * a))) by (field; lra).
  replace (INR (nZ d) / 2 + INR (nZ d) / (2 * a)) with (INR (nZ d) * ((a + 1) / (2 * a))) by (field; lra).
  split; apply Rmult_le_compat_l; lra.
Qed.

Lemma v_window (d : nat) (w : R) : in_range c r w ->
  INR (nZ d) / 2 - INR (nZ d) / (2 * a) <= v_of d a c r w <= INR (nZ d) / 2 + INR (nZ d) / (2 * a).
Proof.
  intros Hw. pose proof (ldpq_q_bounds a c r w Ha Hr Hw) as [L U]. pose proof (nZ_pos d).
  unfold v_of. replace (INR (nZ d) / 2 - INR (nZ d) / (2 * a)) with (INR (nZ d) * (1 - (a + 1) / (2 * a))) by (field; lra).
  replace (INR (nZ d) / 2 + INR (nZ d) / (2 * a)) with (INR (nZ d) * (1 - (a - 1) / (2 * a))) by (field; lra).
  split; apply Rmult_le_compat_l; lra.
Qed.

Lemma gap_le_quarter_bound (d : nat) (w w' : R) : in_range c r w -> in_range c r w' ->
  pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' <= 2 * r ^ 2 * a ^ 2 / INR (nZ d).
Proof.
  intros Hw Hw'. rewrite corbinq_gap_exact by assumption. fold a. pose proof (nZ_pos d).
  pose proof (gap_term_le_quarter (u_of d a c r w) (v_of d a c r w') ltac:(apply u_range; assumption) ltac:(apply v_range; assumption)) as G.
  apply Rle_trans with (2 * (2 * r * a) ^ 2 / INR (nZ d) * (1 / 4)).
  - apply Rmult_le_compat_l; [|exact G]. apply Rle_mult_inv_pos; [|lra]. pose proof (pow2_ge_0 (2 * r * a)). lra.
  - right. field. lra.
Qed.

Lemma gap_le_edge_bound (d : nat) (w w' : R) : in_range c r w -> in_range c r w' ->
  INR (nZ (S d)) < a ->
  pair_mse (S d) (corbinq (S d) e c r) w w' - m_inf e c r w w' <= 2 * r ^ 2 * (2 * a - INR (nZ (S d))).
Proof.
  intros Hw Hw' Hsmall. rewrite corbinq_gap_exact by assumption. fold a.
  pose proof (nZ_pos d). rewrite nZ_S in *. set (M := INR (nZ d)) in *.
  assert (Hdl : 0 <= M / a <= 1 / 2).
  { split; [apply Rlt_le, Rdiv_lt_0_compat; lra|]. apply div_le_l; lra. }
  pose proof (u_window (S d) w Hw) as Wu. pose proof (v_window (S d) w' Hw') as Wv. rewrite nZ_S in Wu, Wv. fold M in Wu, Wv.
  replace (2 * M / 2 - 2 * M / (2 * a)) with (M - M / a) in * by (field; lra).
  replace (2 * M / 2 + 2 * M / (2 * a)) with (M + M / a) in * by (field; lra).
  pose proof (gap_term_le_edge (nZ d) (u_of (S d) a c r w) (v_of (S d) a c r w') (M / a)
    ltac:(apply u_range; assumption) ltac:(apply v_range; assumption) Hdl Wu Wv) as G.
  apply Rle_trans with (2 * (2 * r * a) ^ 2 / (2 * M) * (M / a * (1 - M / a))).
  - apply Rmult_le_compat_l; [|exact G]. apply Rle_mult_inv_pos; [|lra]. pose proof (pow2_ge_0 (2 * r * a)). lra.
  - right. field. lra.
Qed.

Lemma gap_le_sup (d : nat) (w w' : R) : in_range c r w -> in_range c r w' ->
  pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' <= sup_gap d e r.
Proof.
  intros Hw Hw'. destruct d as [|d].
  - apply gap_le_quarter_bound; assumption.
  - simpl sup_gap. destruct (Rlt_dec (INR (nZ (S d))) (alpha e)).
    + apply gap_le_edge_bound; assumption.
    + apply gap_le_quarter_bound; assumption.
Qed.

End SupGap.

(** Equal inputs u = v = k + f: the excess term is f(1 − f). *)
Lemma gap_term_diag (k : nat) (f : R) : 0 <= f < 1 -> gap_term (INR k + f) (INR k + f) = f * (1 - f).
Proof.
  intros H. destruct (fl_fr_tie k f H) as [F R']. unfold gap_term. rewrite F, R', Nat.eqb_refl.
  apply Rmin_left, Rle_refl.
Qed.

Section Attained.
Variables (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.

Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.

Lemma gap_at_diag (d k : nat) (f w w' : R) : in_range c r w -> in_range c r w' -> 0 <= f < 1 ->
  u_of d a c r w = INR k + f -> v_of d a c r w' = INR k + f ->
  pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' = 2 * (2 * r * a) ^ 2 / INR (nZ d) * (f * (1 - f)).
Proof.
  intros Hw Hw' Hf Eu Ev. rewrite corbinq_gap_exact by assumption. fold a. rewrite Eu, Ev, gap_term_diag by exact Hf.
  reflexivity.
Qed.

(** d = 0: one value of Z, and w = w' = c puts u = v = 1/2. *)
Lemma attained_d0 : pair_mse 0 (corbinq 0 e c r) c c - m_inf e c r c c = sup_gap 0 e r.
Proof.
  assert (Hc : in_range c r c) by (unfold in_range; lra).
  assert (E : INR (nZ 0) = 1) by reflexivity.
  rewrite (gap_at_diag 0 0 (1 / 2) c c Hc Hc).
  - unfold sup_gap. rewrite E. fold a. field.
  - lra.
  - unfold u_of, ldpq_q. rewrite E. simpl INR. field. split; lra.
  - unfold v_of, ldpq_q. rewrite E. simpl INR. field. split; lra.
Qed.

(** d ≥ 1 and 2^d ≥ α: u = v = 2^(d−1) + 1/2, fractions 1/2. *)
Lemma attained_large (d : nat) : a <= INR (nZ (S d)) ->
  let w := c + r * a / INR (nZ (S d)) in let w' := c - r * a / INR (nZ (S d)) in
  in_range c r w /\ in_range c r w' /\
  pair_mse (S d) (corbinq (S d) e c r) w w' - m_inf e c r w w' = sup_gap (S d) e r.
Proof.
  intros Hbig w w'. pose proof (nZ_pos (S d)) as HN. pose proof (nZ_S d) as E2.
  assert (0 <= r * a / INR (nZ (S d)) <= r).
  { split; [apply Rlt_le, Rdiv_lt_0_compat; nra|]. apply div_le_l; nra. }
  assert (Hw : in_range c r w) by (unfold in_range, w; lra).
  assert (Hw' : in_range c r w') by (unfold in_range, w'; lra).
  split; [exact Hw|split; [exact Hw'|]].
  rewrite (gap_at_diag (S d) (nZ d) (1 / 2) w w' Hw Hw').
  - unfold sup_gap. fold a. destruct (Rlt_dec (INR (nZ (S d))) a); [lra|]. field. lra.
  - lra.
  - unfold u_of, ldpq_q, w. rewrite E2 in *. field. split; lra.
  - unfold v_of, ldpq_q, w'. rewrite E2 in *. field. split; lra.
Qed.

(** d ≥ 1 and 2^d < α: the window N/2 ± N/(2α) is narrower than 1, and its top corner
    u = v = N/2 + N/(2α), i.e. w = c + r, w' = c − r, is the worst case. *)
Lemma attained_small (d : nat) : INR (nZ (S d)) < a ->
  pair_mse (S d) (corbinq (S d) e c r) (c + r) (c - r) - m_inf e c r (c + r) (c - r) = sup_gap (S d) e r.
Proof.
  intros Hsmall. pose proof (nZ_pos d) as HM. pose proof (nZ_S d) as E2.
  assert (Hw : in_range c r (c + r)) by (unfold in_range; lra).
  assert (Hw' : in_range c r (c - r)) by (unfold in_range; lra).
  assert (Hf : 0 <= INR (nZ d) / a < 1).
  { split; [apply Rlt_le, Rdiv_lt_0_compat; lra|]. apply div_lt_l; lra. }
  rewrite (gap_at_diag (S d) (nZ d) (INR (nZ d) / a) (c + r) (c - r) Hw Hw' Hf).
  - unfold sup_gap. fold a. destruct (Rlt_dec (INR (nZ (S d))) a); [|lra]. rewrite E2. field. lra.
  - unfold u_of, ldpq_q. rewrite E2. field. split; lra.
  - unfold v_of, ldpq_q. rewrite E2. field. split; lra.
Qed.

Lemma attained (d : nat) : exists w w', in_range c r w /\ in_range c r w' /\
  pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' = sup_gap d e r.
Proof.
  destruct d as [|d].
  - exists c, c. split; [unfold in_range; lra|split; [unfold in_range; lra|]]. apply attained_d0.
  - destruct (Rlt_dec (INR (nZ (S d))) a) as [L|L].
    + exists (c + r), (c - r). split; [unfold in_range; lra|split; [unfold in_range; lra|]].
      apply attained_small; exact L.
    + destruct (attained_large d ltac:(lra)) as [A [B C]]. eexists _, _. split; [exact A|split; [exact B|exact C]].
Qed.

End Attained.

(** The exact maximum, as top-level statements. *)
Theorem corbinq_gap_le_sup_gap : forall (d : nat) (e c r : R), 0 < e -> 0 < r ->
  forall w w', in_range c r w -> in_range c r w' ->
  pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' <= sup_gap d e r.
Proof. intros. apply gap_le_sup; assumption. Qed.

Theorem sup_gap_attained : forall (d : nat) (e c r : R), 0 < e -> 0 < r ->
  exists w w', in_range c r w /\ in_range c r w' /\
  pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' = sup_gap d e r.
Proof. intros. apply attained; assumption. Qed.

(** ** (6) The paper's constant: 64 where 2 is exact *)

(** 2r²(2α − N) ≤ 2r²α²/N since the difference is 2r²(α − N)²/N. *)
Lemma sup_gap_le (d : nat) (e r : R) : sup_gap d e r <= 2 * r ^ 2 * alpha e ^ 2 / INR (nZ d).
Proof.
  pose proof (nZ_pos d) as HN. destruct d as [|d]; [simpl; lra|]. simpl sup_gap.
  destruct (Rlt_dec (INR (nZ (S d))) (alpha e)); [|lra].
  assert (D : 2 * r ^ 2 * alpha e ^ 2 / INR (nZ (S d)) - 2 * r ^ 2 * (2 * alpha e - INR (nZ (S d))) =
              2 * (r * (alpha e - INR (nZ (S d)))) ^ 2 / INR (nZ (S d))) by (field; lra).
  assert (0 <= 2 * (r * (alpha e - INR (nZ (S d)))) ^ 2 / INR (nZ (S d))).
  { apply Rle_mult_inv_pos; [|lra]. pose proof (pow2_ge_0 (r * (alpha e - INR (nZ (S d))))). lra. }
  lra.
Qed.

Theorem sup_gap_vs_paper (d : nat) (e r : R) : sup_gap d e r <= thm1_bound d e r / 32.
Proof.
  pose proof (nZ_pos d). replace (thm1_bound d e r / 32) with (2 * r ^ 2 * alpha e ^ 2 / INR (nZ d))
    by (unfold thm1_bound; field; lra).
  apply sup_gap_le.
Qed.

(** Equality, i.e. slack exactly 32, whenever 2^d ≥ α (and at d = 0). *)
Theorem sup_gap_eq_paper (d : nat) (e r : R) : (d = 0%nat \/ alpha e <= INR (nZ d)) ->
  sup_gap d e r = thm1_bound d e r / 32.
Proof.
  intros H. pose proof (nZ_pos d) as HN. unfold thm1_bound.
  destruct d as [|d]; [simpl; field|]. simpl sup_gap. destruct H as [H|H]; [discriminate|].
  destruct (Rlt_dec (INR (nZ (S d))) (alpha e)); [lra|]. field. lra.
Qed.

(** ** (5d) Uniform convergence to the restricted optimum *)

Lemma eventually_small (X eta : R) : 0 < X -> 0 < eta ->
  exists D : nat, forall d, (D <= d)%nat -> X / INR (nZ d) <= eta.
Proof.
  intros HX Heta. destruct (archimed_cor1 (eta / X) ltac:(apply Rdiv_lt_0_compat; lra)) as [n [Hn Hn0]].
  exists n. intros d Hd.
  assert (Hle : (n <= nZ d)%nat).
  { unfold nZ. apply Nat.le_trans with (2 ^ n)%nat.
    - apply Nat.lt_le_incl, Nat.pow_gt_lin_r. lia.
    - apply Nat.pow_le_mono_r; lia. }
  apply le_INR in Hle. assert (0 < INR n) by (apply lt_0_INR; exact Hn0).
  unfold Rdiv. apply Rle_trans with (X * / INR n).
  - apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; lra.
  - replace eta with (X * (eta / X)) by (field; lra). apply Rmult_le_compat_l; lra.
Qed.

Theorem corbinq_uniform_limit : forall (e c r : R), 0 < e -> 0 < r ->
  forall eta, 0 < eta -> exists D : nat, forall d, (D <= d)%nat ->
  forall w w', in_range c r w -> in_range c r w' ->
  0 <= pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' <= eta.
Proof.
  intros e c r He Hr eta Heta.
  assert (HX : 0 < 2 * r ^ 2 * alpha e ^ 2).
  { pose proof (alpha_gt_1 e He).
    apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat; [lra|apply pow_lt; lra]|apply pow_lt; lra]. }
  destruct (eventually_small _ eta HX Heta) as [D HD]. exists D. intros d Hd w w' Hw Hw'. split.
  - pose proof (limit_lower_bound d e c r He Hr w w' Hw Hw' _ (corbinq_in_class d e c r He Hr)). lra.
  - eapply Rle_trans; [apply corbinq_gap_le_sup_gap; assumption|].
    eapply Rle_trans; [apply sup_gap_le|]. apply HD; exact Hd.
Qed.

(** Theorem 1's bound with levels c ± rα, read against the d → ∞ optimum m_inf (what
    `corbin gap --sup` computes): CorBinQ's excess over m_inf is at most the paper's
    r²α²/2^(d−6) divided by 32, at every d and every pair of inputs. Unlike [T1b_levels] (the
    excess over the same-d class, which is 0), this bound is not met by every bound >= 0. *)
Theorem T1b_gap_to_limit : forall (d : nat) (e c r : R), 0 < e -> 0 < r ->
  forall w w', in_range c r w -> in_range c r w' ->
  pair_mse d (corbinq d e c r) w w' - m_inf e c r w w' <= thm1_bound d e r / 32.
Proof.
  intros d e c r He Hr w w' Hw Hw'.
  eapply Rle_trans; [apply corbinq_gap_le_sup_gap; assumption|]. apply sup_gap_vs_paper.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Optimal_theorems :=
  (@T1c_levels,
   @T1b_gap_to_limit,
   @T1b_levels,
   @T1u_levels,
   @limit_lower_bound,
   @corbinq_gap_exact,
   @corbinq_gap_le_sup_gap,
   @sup_gap_attained,
   @sup_gap_vs_paper,
   @sup_gap_eq_paper,
   @corbinq_uniform_limit).
Print Assumptions Optimal_theorems.
