(** * FreeLevels — Theorem 1's bound (th:1:opt), its exact-optimality reading and its uniform
    convergence, with 𝒬 as printed (every pair meeting C4–C5, its output levels free)

    Statements refuted (Thm1.v): [T1b_claim] (range as printed, [r − c, r + c]),
    [T1b_claim_range_intended] (range [c − r, c + r]), [T1c_claim] (CorBinQ has the least MSE in
    𝒬) and [T1u_claim] (CorBinQ's MSE converges uniformly to the least MSE over 𝒬 as d → ∞).

    Why they fail: C4–C5 constrain only each quantizer's marginal law (unbiased, ε-PLDP); they do
    not force the two output levels to be c ± rα. A pair with other levels can cancel the two
    clients' errors exactly.

    Inputs: c = r = 1, ε = ln 3 (e^ε = 3, α = 2), w = w' = 2 (= c + r; it lies in [c − r, c + r]
    = [0, 2] and in the printed [r − c, r + c] = [0, 2]).
    - CorBinQ (Defs.corbinq, levels −1 and 3): q1 = q2 = 3/4. For d ≥ 2, u = 3·2^d/4 and
      v = 2^d/4 are integers, and Q1 + Q2 is 2, 6 or 2 at every z: the MSE is exactly 4.
    - The competitor: levels −1 and 5, p(w) = (w + 1)/6 (unbiased; over [0, 2] p ∈ [1/6, 1/2],
      ratios 3 and 5/3 ≤ e^ε). Given Z = z, Q1 is high with probability 2p(w) when z is even and
      0 when z is odd; Q2 the other way round (the last bit of Z picks which client may go high).
      It lies in 𝒬 for every d ≥ 1. At w = w' = 2 (p = 1/2) Q1 + Q2 = 5 + (−1) = 4 always: MSE 0.
    - The bound r^2 α^2 / 2^(d − 6) is 256/2^d: 4 ≤ 0 + 256/2^d iff d ≤ 6. At d = 7 it is 2:
      4 > 0 + 2.

    Verdict: fails (refuted at concrete inputs): the bound at every d ≥ 7, exact optimality at
    every d ≥ 2, uniform convergence (the gap stays 4 for every d ≥ 2). *)

From Coq Require Import Reals Lra Lia.
From Corbin Require Import Defs Alpha Sums Facts Thm1.
Open Scope R_scope.

Lemma exp_ln3 : exp (ln 3) = 3.
Proof. apply exp_ln. lra. Qed.

(** ** Half of the z < 2^d are even (d ≥ 1) *)

Definition is_even (z : nat) : R := if Nat.even z then 1 else 0.

Lemma fsum_even (n : nat) : fsum (2 * n) is_even = INR n.
Proof.
  induction n as [|n IH]; [reflexivity|].
  replace (2 * S n)%nat with (S (S (2 * n))) by lia. cbn [fsum]. rewrite IH.
  unfold is_even. rewrite Nat.even_succ, Nat.odd_mul, Nat.even_mul. simpl orb; simpl andb. rewrite S_INR. ring.
Qed.

Lemma nZ_half (d : nat) : (1 <= d)%nat -> INR (nZ d) = 2 * INR (nZ (d - 1)).
Proof.
  intros Hd. destruct d as [|k]; [lia|]. replace (S k - 1)%nat with k by lia. apply nZ_S.
Qed.

Lemma avgZ_even (d : nat) : (1 <= d)%nat -> avgZ d is_even = 1 / 2.
Proof.
  intros Hd. unfold avgZ. pose proof (nZ_pos (d - 1)) as Pos. rewrite (nZ_half d Hd).
  assert (E : nZ d = (2 * nZ (d - 1))%nat)
    by (destruct d as [|k]; [lia|]; unfold nZ; replace (S k - 1)%nat with k by lia; apply Nat.pow_succ_r').
  rewrite E, fsum_even. field. lra.
Qed.

(** ** The competitor *)

(** P(Q = 5) of a single unbiased quantizer with levels −1 and 5. *)
Definition cp (w : R) : R := (w + 1) / 6.

Definition competitor : pair :=
  {| plo := -1; phi := 5;
     p1 := fun w z => if Nat.even z then 2 * cp w else 0;
     p2 := fun w z => if Nat.even z then 0 else 2 * cp w |}.

(** Both marginals are p(w). *)
Lemma competitor_marg1 d w : (1 <= d)%nat -> marg1 d competitor w = cp w.
Proof.
  intros Hd. unfold marg1, avgZ. simpl p1.
  rewrite (fsum_ext _ _ (fun z => 2 * cp w * is_even z))
    by (intros z _; unfold is_even; destruct (Nat.even z); ring).
  rewrite fsum_scal. pose proof (avgZ_even d Hd) as A. unfold avgZ in A.
  pose proof (nZ_pos d).
  replace (2 * cp w * fsum (nZ d) is_even / INR (nZ d)) with (2 * cp w * (fsum (nZ d) is_even / INR (nZ d)))
    by (field; lra).
  rewrite A. field.
Qed.

Lemma competitor_marg2 d w : (1 <= d)%nat -> marg2 d competitor w = cp w.
Proof.
  intros Hd. unfold marg2, avgZ. simpl p2.
  rewrite (fsum_ext _ _ (fun z => 2 * cp w + (- (2 * cp w)) * is_even z))
    by (intros z _; unfold is_even; destruct (Nat.even z); ring).
  rewrite fsum_plus, fsum_const, fsum_scal. pose proof (avgZ_even d Hd) as A. unfold avgZ in A.
  pose proof (nZ_pos d).
  replace ((INR (nZ d) * (2 * cp w) + - (2 * cp w) * fsum (nZ d) is_even) / INR (nZ d))
    with (2 * cp w - 2 * cp w * (fsum (nZ d) is_even / INR (nZ d))) by (field; lra).
  rewrite A. field.
Qed.

(** C4 and C5 for all w, w' in [0, 2], for every d ≥ 1. *)
Theorem competitor_in_Q : forall d, (1 <= d)%nat -> in_Q d 1 1 (ln 3) competitor.
Proof.
  intros d Hd. split.
  - intros w [Hl Hh]. split; [|split].
    + intros z _. simpl p1; simpl p2. unfold cp, is_prob.
      destruct (Nat.even z); split; split; lra.
    + rewrite competitor_marg1 by exact Hd. simpl. unfold cp. field.
    + rewrite competitor_marg2 by exact Hd. simpl. unfold cp. field.
  - intros w w' [Hl Hh] [Hl' Hh']. rewrite !competitor_marg1, !competitor_marg2 by exact Hd.
    rewrite exp_ln3. unfold cp. repeat split; lra.
Qed.

(** Its MSE at w = w' = 2 is 0, for every d (given z one client says 5, the other −1). *)
Theorem competitor_mse : forall d, (1 <= d)%nat -> pair_mse d competitor 2 2 = 0.
Proof.
  intros d _. unfold pair_mse, avgZ.
  rewrite (fsum_ext _ _ (fun _ => 0)).
  - rewrite fsum_const. pose proof (nZ_pos d). field. lra.
  - intros z _. unfold pair_mse_given. simpl. unfold cp. destruct (Nat.even z); field.
Qed.

(** ** CorBinQ at these inputs *)

(** u = 2^d q1 = 3·2^(d−2) and v = 2^d (1 − q2) = 2^(d−2), both integers (d = k + 2). *)
Lemma u_is (k : nat) : u_of (S (S k)) (alpha (ln 3)) 1 1 2 = INR (3 * 2 ^ k) + 0.
Proof.
  rewrite alpha_ln3. unfold u_of, ldpq_q, nZ. rewrite !Nat.pow_succ_r', !mult_INR. simpl INR. field.
Qed.

Lemma v_is (k : nat) : v_of (S (S k)) (alpha (ln 3)) 1 1 2 = INR (2 ^ k) + 0.
Proof.
  rewrite alpha_ln3. unfold v_of, ldpq_q, nZ. rewrite !Nat.pow_succ_r', !mult_INR. simpl INR. field.
Qed.

(** Given any z, Q1 = 3 (z < 3·2^(d−2)) or Q2 = 3 (z ≥ 2^(d−2)), never both −1: the sum is 2
    or 6, the error ±2, and the MSE exactly 4, for every d ≥ 2. *)
Theorem corbinq_mse : forall d, (2 <= d)%nat -> pair_mse d (corbinq d (ln 3) 1 1) 2 2 = 4.
Proof.
  intros d Hd. destruct d as [|[|k]]; [lia|lia|].
  unfold pair_mse, avgZ.
  rewrite (fsum_ext _ _ (fun _ => 4)).
  - rewrite fsum_const. pose proof (nZ_pos (S (S k))). field. lra.
  - intros z _. unfold pair_mse_given. cbn [corbinq p1 p2 plo phi].
    rewrite u_is, v_is. unfold step, fr. rewrite !fl_of_nat by lra. rewrite alpha_ln3.
    assert (L : (2 ^ k <= 3 * 2 ^ k)%nat) by lia.
    destruct (Nat.ltb_spec z (3 * 2 ^ k)); destruct (Nat.eqb_spec z (3 * 2 ^ k));
    destruct (Nat.ltb_spec z (2 ^ k)); destruct (Nat.eqb_spec z (2 ^ k)); try lia; ring.
Qed.

(** ** Where the bound fails: 4 ≤ 0 + 256/2^d iff d ≤ 6 *)

Lemma bound_is (d : nat) : thm1_bound d (ln 3) 1 = 256 / INR (nZ d).
Proof. unfold thm1_bound. rewrite alpha_ln3. field. pose proof (nZ_pos d). lra. Qed.

Theorem bound_threshold : forall d, 4 <= 0 + thm1_bound d (ln 3) 1 <-> (d <= 6)%nat.
Proof.
  intros d. rewrite bound_is. pose proof (nZ_pos d) as Pos.
  assert (Iff : 4 <= 0 + 256 / INR (nZ d) <-> (nZ d <= 64)%nat).
  { rewrite Rplus_0_l. split.
    - intros H. apply INR_le. simpl INR.
      assert (H' : 4 * INR (nZ d) <= 256).
      { replace 256 with (256 / INR (nZ d) * INR (nZ d)) by (field; lra).
        apply Rmult_le_compat_r; lra. }
      lra.
    - intros H. apply le_INR in H. simpl INR in H. apply le_div_r; lra. }
  rewrite Iff. unfold nZ. split.
  - intros H. destruct (Nat.le_gt_cases d 6) as [L|L]; [exact L|].
    assert (M : (2 ^ 7 <= 2 ^ d)%nat) by (apply Nat.pow_le_mono_r; lia). simpl in M. lia.
  - intros H. assert (M : (2 ^ d <= 2 ^ 6)%nat) by (apply Nat.pow_le_mono_r; lia). simpl in M. lia.
Qed.

(** ** The refutations *)

Lemma range2_printed : in_range_as_printed 1 1 2. Proof. unfold in_range_as_printed; lra. Qed.

(** At d = 7: 4 = m(CorBinQ) > m(competitor) + bound = 0 + 2. *)
Theorem T1b_fails : ~ T1b_claim.
Proof.
  intros H.
  pose proof (H 7%nat (ln 3) 1 1 (ln_pos_gt 3 ltac:(lra)) ltac:(lra) ltac:(lra) 2 2
                range2_printed range2_printed competitor (competitor_in_Q 7 ltac:(lia))) as B.
  rewrite corbinq_mse, competitor_mse in B by lia.
  apply (bound_threshold 7) in B. lia.
Qed.

Theorem T1b_range_intended_fails : ~ T1b_claim_range_intended.
Proof.
  intros H.
  pose proof (H 7%nat (ln 3) 1 1 (ln_pos_gt 3 ltac:(lra)) ltac:(lra) ltac:(lra) 2 2
                in_range_2 in_range_2 competitor (competitor_in_Q 7 ltac:(lia))) as B.
  rewrite corbinq_mse, competitor_mse in B by lia.
  apply (bound_threshold 7) in B. lia.
Qed.

(** At d = 2 (and every d ≥ 2): 4 > 0. *)
Theorem T1c_fails : ~ T1c_claim.
Proof.
  intros H.
  pose proof (H 2%nat (ln 3) 1 1 (ln_pos_gt 3 ltac:(lra)) ltac:(lra) ltac:(lra) 2 2
                in_range_2 in_range_2 competitor (competitor_in_Q 2 ltac:(lia))) as B.
  rewrite corbinq_mse, competitor_mse in B by lia. lra.
Qed.

(** η = 1: whatever D, at d = max D 2 the gap is 4 > 1. *)
Theorem T1u_fails : ~ T1u_claim.
Proof.
  intros H.
  destruct (H (ln 3) 1 1 (ln_pos_gt 3 ltac:(lra)) ltac:(lra) ltac:(lra) 1 ltac:(lra)) as [D HD].
  pose proof (HD (Nat.max D 2) (Nat.le_max_l D 2) 2 2 in_range_2 in_range_2 competitor
                (competitor_in_Q (Nat.max D 2) ltac:(lia))) as B.
  rewrite corbinq_mse, competitor_mse in B by lia. lra.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition FreeLevels_theorems :=
  (@competitor_in_Q,
   @competitor_mse,
   @corbinq_mse,
   @bound_threshold,
   @T1b_fails,
   @T1b_range_intended_fails,
   @T1c_fails,
   @T1u_fails).
Print Assumptions FreeLevels_theorems.
