(** * Worst — exact worst cases over the inputs of the MSEs behind Theorems 2 and 3 (T2b, T2c, T3m)

    Everything is in the limit d → ∞, where (Theorem 1) a CorBin-FL pair attains the best
    coupling of two LDPQ marginals with levels c ± rα. Write x_i = (w_i − c)/r ∈ [−1, 1] and
    σ = x1 + x2. The best coupling puts all its mass on the level pair (−rα, −rα) with
    probability −σ/(2α) when σ <= 0 (mirror image when σ >= 0) and on the mixed pairs otherwise
    (Appendix, Eqs. (th:1:opt_dist), (th:1:opt_dist_2)), so the pair's MSE is

      opt_pair_mse = r²(2α|σ| − σ²),

    and one LDPQ client's MSE is (c + rα − w)(w − c + rα) = r²(α² − x²) (Proposition 1).
    Here [a] stands for α(ε) > 1; the ε-versions are stated after the sections.

    Findings.
    - The worst case of the pair's MSE over inputs is r²α² for α <= 2 and 4r²(α − 1) for α >= 2;
      Theorem 2's per-pair constant r²(α² + 2α − 1) is above it by a factor at least 1 + √2/2,
      with equality only at α = 1 + √2 (e^ε = 1 + √2).
    - Input by input, LDP-FL's pair MSE is at least (α + 1)/2 = e^ε/(e^ε − 1) times CorBin-FL's,
      with equality at w1 = w2 = c + r: "a factor of two" holds for every input iff α >= 3, i.e.
      ε <= ln 2. Comparing worst cases, it holds for every ε (exactly two when α <= 2); the
      paper's own comparison, r²α²/n against Theorem 2's bound, gives 2α²/(α² + 2α − 1) < 2.
    - Theorem 3's bound holds for the exact worst case when γn clients use LDPQ exactly. With
      ⌊γn⌋ clients on LDPQ and the rest paired (an odd one out on LDPQ), it holds iff γn < n − 1 or
      γ = 1; for (n − 1)/n <= γ < 1 every client ends on LDPQ and the bound fails, e.g. n = 2,
      γ = 1/2, ε = ln 2: exact worst case 9r²/2 > printed 4r², and n = 1000, γ = 999/1000, where
      Theorem 3's precondition holds. *)

From Coq Require Import Reals Lra Lia Psatz.
From Corbin Require Import Defs Alpha Sums Facts.
Open Scope R_scope.

(** ** Definitions *)

(** The MSE of a pair with the best coupling of two LDPQ marginals (d → ∞): r²(2a|σ| − σ²). *)
Definition opt_pair_mse (a c r w1 w2 : R) : R :=
  r^2 * (2 * a * Rabs (w1 - c + (w2 - c)) / r - ((w1 - c + (w2 - c)) / r)^2).

(** LDPQ's MSE: the product of the distances to the levels c ± ra (Proposition 1's proof). *)
Definition ldpq_mse (a c r w : R) : R := (c + r*a - w) * (w - (c - r*a)).

(** The worst case of [opt_pair_mse] over the inputs, in units of r²: max over t = |σ| ∈ [0, 2]
    of 2at − t², whose vertex t = a lies in the range iff a <= 2. *)
Definition pair_sup_unit (a : R) : R := if Rle_dec a 2 then a^2 else 4 * (a - 1).
Definition pair_sup (a r : R) : R := r^2 * pair_sup_unit a.

(** Theorem 2's per-pair constant as printed: ((√2 − 1)α + 1)((√2 + 1)α − 1). *)
Definition th2_const (a : R) : R := ((sqrt 2 - 1) * a + 1) * ((sqrt 2 + 1) * a - 1).

(** How much Theorem 2's constant exceeds the worst case, in units of r². *)
Definition slack_unit (a : R) : R := a^2 + 2 * a - 1 - pair_sup_unit a.

(** ** √2 *)

Lemma sqrt2_sq : sqrt 2 * sqrt 2 = 2.
Proof. apply sqrt_sqrt. lra. Qed.

Lemma sqrt2_bounds : 1 < sqrt 2 < 3 / 2.
Proof. pose proof sqrt2_sq. pose proof (sqrt_pos 2). split; nra. Qed.

(** "((√2−1)α+1)((√2+1)α−1)" = α² + 2α − 1, the form the proof of Theorem 2 reaches first
    ("= (1/2n) r²(2α² − (α − 1)²)"). *)
Theorem th2_const_identity (a : R) : th2_const a = a^2 + 2 * a - 1.
Proof.
  unfold th2_const.
  replace (((sqrt 2 - 1) * a + 1) * ((sqrt 2 + 1) * a - 1))
    with (a^2 + 2 * a - 1 + a^2 * (sqrt 2 * sqrt 2 - 2)) by ring.
  rewrite sqrt2_sq. ring.
Qed.

(** ** The pair: worst case over inputs, Theorem 2's constant, and the comparison with LDP-FL *)

Section Pair.
Variables a c r : R.
Hypothesis Ha : 1 < a.
Hypothesis Hr : 0 < r.

Lemma opt_pair_mse_poly (w1 w2 : R) :
  opt_pair_mse a c r w1 w2 = 2 * a * r * Rabs (w1 - c + (w2 - c)) - (w1 - c + (w2 - c)) ^ 2.
Proof. unfold opt_pair_mse. field. lra. Qed.

(** In terms of t = |w1 − c + w2 − c| alone: 2art − t². *)
Lemma opt_pair_mse_abs (w1 w2 : R) :
  opt_pair_mse a c r w1 w2 = 2 * a * r * Rabs (w1 - c + (w2 - c)) - Rabs (w1 - c + (w2 - c)) ^ 2.
Proof. rewrite opt_pair_mse_poly, pow2_abs. reflexivity. Qed.

Lemma ldpq_mse_poly (w : R) : ldpq_mse a c r w = r^2 * a^2 - (w - c)^2.
Proof. unfold ldpq_mse. ring. Qed.

Lemma sum_abs_le (w1 w2 : R) :
  in_range c r w1 -> in_range c r w2 -> Rabs (w1 - c + (w2 - c)) <= 2 * r.
Proof. unfold in_range. intros [A B] [C D]. apply Rabs_le. lra. Qed.

Let range_hi : in_range c r (c + r) := in_range_top c r Hr.

(** The pair's MSE is >= 0: t(2ar − t) with t <= 2r < 2ar. *)
Lemma opt_pair_mse_nonneg (w1 w2 : R) :
  in_range c r w1 -> in_range c r w2 -> 0 <= opt_pair_mse a c r w1 w2.
Proof.
  intros H1 H2. rewrite opt_pair_mse_abs.
  pose proof (sum_abs_le w1 w2 H1 H2). pose proof (Rabs_pos (w1 - c + (w2 - c))).
  set (t := Rabs (w1 - c + (w2 - c))) in *.
  assert (0 <= 2 * a * r - t) by nra. nra.
Qed.

(** 2art − t² <= (ra)² for every t: (ra − t)² >= 0. *)
Lemma opt_pair_mse_le_a2 (w1 w2 : R) : opt_pair_mse a c r w1 w2 <= r^2 * a^2.
Proof.
  rewrite opt_pair_mse_abs. set (t := Rabs (w1 - c + (w2 - c))).
  pose proof (pow2_ge_0 (r * a - t)). nra.
Qed.

(** For a >= 2: 4r²(a − 1) − (2art − t²) = (2r − t)((2a − 2)r − t) >= 0 for t <= 2r. *)
Lemma opt_pair_mse_le_4 (w1 w2 : R) :
  2 <= a -> in_range c r w1 -> in_range c r w2 -> opt_pair_mse a c r w1 w2 <= 4 * r^2 * (a - 1).
Proof.
  intros H2 H1 H1'. rewrite opt_pair_mse_abs.
  pose proof (sum_abs_le w1 w2 H1 H1'). set (t := Rabs (w1 - c + (w2 - c))) in *.
  assert (A : 0 <= 2 * r - t) by lra. assert (B : 0 <= (2 * a - 2) * r - t) by nra.
  pose proof (Rmult_le_pos _ _ A B). nra.
Qed.

Lemma range_half : a <= 2 -> in_range c r (c + r * a / 2).
Proof. intros H. unfold in_range. split; nra. Qed.

Lemma opt_at_half : opt_pair_mse a c r (c + r * a / 2) (c + r * a / 2) = r^2 * a^2.
Proof.
  rewrite opt_pair_mse_poly.
  replace (c + r * a / 2 - c + (c + r * a / 2 - c)) with (r * a) by field.
  rewrite Rabs_pos_eq by nra. ring.
Qed.

Lemma opt_at_hi : opt_pair_mse a c r (c + r) (c + r) = 4 * r^2 * (a - 1).
Proof.
  rewrite opt_pair_mse_poly. replace (c + r - c + (c + r - c)) with (2 * r) by ring.
  rewrite Rabs_pos_eq by lra. ring.
Qed.

(** Theorem 2: "the MSE is bounded by: lim_{d→∞} E((W̄_{g,j} − (1/n)Σ_{i∈[n]} w_{i,j})²) ≤
    (r_j²/2n)((√2−1)α(ε_p)+1)((√2+1)α(ε_p)−1)". The exact worst case over inputs of one pair's
    MSE (d → ∞), by cases on a, and where it is attained: σ = a (w1 = w2 = c + ra/2) for a <= 2,
    σ = 2 (w1 = w2 = c + r) for a >= 2. *)
Theorem opt_pair_mse_bound :
  (a <= 2 ->
     (forall w1 w2, in_range c r w1 -> in_range c r w2 -> opt_pair_mse a c r w1 w2 <= r^2 * a^2) /\
     in_range c r (c + r * a / 2) /\
     opt_pair_mse a c r (c + r * a / 2) (c + r * a / 2) = r^2 * a^2) /\
  (2 <= a ->
     (forall w1 w2, in_range c r w1 -> in_range c r w2 ->
        opt_pair_mse a c r w1 w2 <= 4 * r^2 * (a - 1)) /\
     in_range c r (c + r) /\ opt_pair_mse a c r (c + r) (c + r) = 4 * r^2 * (a - 1)).
Proof.
  split; intros H.
  - split; [intros w1 w2 _ _; apply opt_pair_mse_le_a2|]. split; [apply range_half, H|apply opt_at_half].
  - split; [intros w1 w2; apply opt_pair_mse_le_4, H|]. split; [apply range_hi|apply opt_at_hi].
Qed.

(** The same, with the two cases folded into [pair_sup]: the supremum is a maximum. *)
Theorem opt_pair_mse_sup :
  (forall w1 w2, in_range c r w1 -> in_range c r w2 -> opt_pair_mse a c r w1 w2 <= pair_sup a r) /\
  (exists w1 w2, in_range c r w1 /\ in_range c r w2 /\ opt_pair_mse a c r w1 w2 = pair_sup a r).
Proof.
  destruct opt_pair_mse_bound as [L U]. unfold pair_sup, pair_sup_unit.
  destruct (Rle_dec a 2) as [H|H].
  - destruct (L H) as [B [R0 E]]. split.
    + intros w1 w2 H1 H2. rewrite <- (Rmult_comm (a^2)), Rmult_comm. apply B; assumption.
    + exists (c + r * a / 2), (c + r * a / 2). repeat split; try apply R0. exact E.
  - destruct (U ltac:(lra)) as [B [R0 E]]. split.
    + intros w1 w2 H1 H2. replace (r^2 * (4 * (a - 1))) with (4 * r^2 * (a - 1)) by ring. apply B; assumption.
    + exists (c + r), (c + r). repeat split; try apply R0. rewrite E. ring.
Qed.

(** The worst case never exceeds r²a², with equality exactly when a <= 2. *)
Lemma pair_sup_unit_le : pair_sup_unit a <= a^2.
Proof.
  unfold pair_sup_unit. destruct (Rle_dec a 2); [lra|]. pose proof (pow2_ge_0 (a - 2)). nra.
Qed.

Lemma pair_sup_unit_eq_iff : pair_sup_unit a = a^2 <-> a <= 2.
Proof.
  unfold pair_sup_unit. destruct (Rle_dec a 2) as [H|H]; split; intros E; try lra.
  exfalso. assert (0 < (a - 2)^2) by (apply pow_lt; lra). nra.
Qed.

(** Theorem 2: "the MSE is bounded by ... ≤ (r_j²/2n)((√2−1)α(ε_p)+1)((√2+1)α(ε_p)−1)". Per pair
    (n/2 pairs, divided by n²), this is the bound r²((√2−1)α+1)((√2+1)α−1) = r²(α² + 2α − 1) on
    the pair's MSE; it holds for every a > 1 and all inputs in range. *)
Theorem T2b_pair_bound (w1 w2 : R) :
  in_range c r w1 -> in_range c r w2 ->
  opt_pair_mse a c r w1 w2 <= r^2 * th2_const a /\ opt_pair_mse a c r w1 w2 <= r^2 * (a^2 + 2 * a - 1).
Proof.
  intros _ _. rewrite th2_const_identity. pose proof (opt_pair_mse_le_a2 w1 w2).
  assert (r^2 * a^2 <= r^2 * (a^2 + 2 * a - 1)) by (apply Rmult_le_compat_l; nra). lra.
Qed.

(** The exact per-input ratio: "the CorBin-FL mechanism improves the mean-square error by at
    least a factor of two compared to LDP-FL" — for a pair of clients, LDP-FL's MSE (two
    independent LDPQs) is at least (a + 1)/2 times CorBin-FL's, and (a + 1)/2 is attained at
    w1 = w2 = c + r, where CorBin-FL's MSE is > 0. With u_i = w_i − c, s = u1 + u2 >= 0:
      2r²a² − u1² − u2² − ((a+1)/2)(2ars − s²)
        = 2(r − u1)(r − u2) + ((a − 1)/2)(2r − s)(2(a + 1)r − s) >= 0,
    and the mirror identity for s <= 0. *)
Theorem T2c_exact_ratio :
  (forall w1 w2, in_range c r w1 -> in_range c r w2 ->
     (a + 1) / 2 * opt_pair_mse a c r w1 w2 <= ldpq_mse a c r w1 + ldpq_mse a c r w2) /\
  ldpq_mse a c r (c + r) + ldpq_mse a c r (c + r) = (a + 1) / 2 * opt_pair_mse a c r (c + r) (c + r) /\
  0 < opt_pair_mse a c r (c + r) (c + r).
Proof.
  split; [|split].
  - intros w1 w2 [A1 B1] [A2 B2]. rewrite opt_pair_mse_poly, !ldpq_mse_poly.
    set (u1 := w1 - c) in *. set (u2 := w2 - c) in *.
    assert (P1 : 0 <= r - u1) by (unfold u1; lra). assert (P2 : 0 <= r - u2) by (unfold u2; lra).
    assert (M1 : 0 <= r + u1) by (unfold u1; lra). assert (M2 : 0 <= r + u2) by (unfold u2; lra).
    destruct (Rle_or_lt 0 (u1 + u2)) as [S|S].
    + rewrite Rabs_pos_eq by exact S.
      assert (E : r^2 * a^2 - u1^2 + (r^2 * a^2 - u2^2) - (a + 1) / 2 * (2 * a * r * (u1 + u2) - (u1 + u2)^2)
                  = 2 * ((r - u1) * (r - u2)) + (a - 1) / 2 * ((2 * r - (u1 + u2)) * (2 * (a + 1) * r - (u1 + u2))))
        by field.
      assert (Q1 : 0 <= (r - u1) * (r - u2)) by (apply Rmult_le_pos; lra).
      assert (Q2 : 0 <= (2 * r - (u1 + u2)) * (2 * (a + 1) * r - (u1 + u2))) by (apply Rmult_le_pos; nra).
      assert (Q3 : 0 <= (a - 1) / 2 * ((2 * r - (u1 + u2)) * (2 * (a + 1) * r - (u1 + u2))))
        by (apply Rmult_le_pos; [lra|exact Q2]).
      lra.
    + rewrite Rabs_left by exact S.
      assert (E : r^2 * a^2 - u1^2 + (r^2 * a^2 - u2^2) - (a + 1) / 2 * (2 * a * r * - (u1 + u2) - (u1 + u2)^2)
                  = 2 * ((r + u1) * (r + u2)) + (a - 1) / 2 * ((2 * r + (u1 + u2)) * (2 * (a + 1) * r + (u1 + u2))))
        by field.
      assert (Q1 : 0 <= (r + u1) * (r + u2)) by (apply Rmult_le_pos; lra).
      assert (Q2 : 0 <= (2 * r + (u1 + u2)) * (2 * (a + 1) * r + (u1 + u2))) by (apply Rmult_le_pos; nra).
      assert (Q3 : 0 <= (a - 1) / 2 * ((2 * r + (u1 + u2)) * (2 * (a + 1) * r + (u1 + u2))))
        by (apply Rmult_le_pos; [lra|exact Q2]).
      lra.
  - rewrite opt_at_hi, !ldpq_mse_poly. field.
  - rewrite opt_at_hi. assert (0 < r^2) by (apply pow_lt; exact Hr). nra.
Qed.

(** "the CorBin-FL mechanism improves the mean-square error by at least a factor of two compared
    to LDP-FL", read input by input for a pair of clients: it holds for all inputs in range iff
    a >= 3. When a < 3 it fails at w1 = w2 = c + r, where the ratio is (a + 1)/2 < 2. *)
Theorem T2c_per_input :
  (forall w1 w2, in_range c r w1 -> in_range c r w2 ->
     ldpq_mse a c r w1 + ldpq_mse a c r w2 >= 2 * opt_pair_mse a c r w1 w2) <-> a >= 3.
Proof.
  destruct T2c_exact_ratio as [R0 [E P]]. split.
  - intros H. specialize (H (c + r) (c + r) range_hi range_hi). rewrite E in H.
    set (m := opt_pair_mse a c r (c + r) (c + r)) in *.
    destruct (Rlt_or_le a 3) as [L|G]; [|lra]. exfalso.
    assert ((a + 1) / 2 * m < 2 * m) by (apply Rmult_lt_compat_r; lra). lra.
  - intros H w1 w2 H1 H2. pose proof (R0 w1 w2 H1 H2). pose proof (opt_pair_mse_nonneg w1 w2 H1 H2).
    assert (2 * opt_pair_mse a c r w1 w2 <= (a + 1) / 2 * opt_pair_mse a c r w1 w2)
      by (apply Rmult_le_compat_r; lra).
    lra.
Qed.

(** The failing input for a < 3: at w1 = w2 = c + r, LDP-FL's pair MSE 2r²(a² − 1) is less than
    twice CorBin-FL's 4r²(a − 1). *)
Lemma T2c_fails_at_hi : a < 3 ->
  ldpq_mse a c r (c + r) + ldpq_mse a c r (c + r) < 2 * opt_pair_mse a c r (c + r) (c + r).
Proof.
  intros H. destruct T2c_exact_ratio as [_ [E P]]. rewrite E.
  apply Rmult_lt_compat_r; lra.
Qed.

(** The same sentence read on worst cases: the worst case over inputs of LDP-FL's pair MSE is
    2r²a² (attained at w1 = w2 = c), at least twice CorBin-FL's worst case for every a > 1, with
    equality exactly when a <= 2. *)
Theorem T2c_worst_case :
  (forall w1 w2, in_range c r w1 -> in_range c r w2 ->
     ldpq_mse a c r w1 + ldpq_mse a c r w2 <= 2 * r^2 * a^2) /\
  ldpq_mse a c r c + ldpq_mse a c r c = 2 * r^2 * a^2 /\
  2 * r^2 * a^2 >= 2 * pair_sup a r /\
  (2 * r^2 * a^2 = 2 * pair_sup a r <-> a <= 2).
Proof.
  assert (R2 : 0 < r^2) by (apply pow_lt; exact Hr).
  split; [|split; [|split]].
  - intros w1 w2 _ _. rewrite !ldpq_mse_poly.
    pose proof (pow2_ge_0 (w1 - c)). pose proof (pow2_ge_0 (w2 - c)). lra.
  - rewrite !ldpq_mse_poly. ring.
  - unfold pair_sup. pose proof pair_sup_unit_le. nra.
  - unfold pair_sup. rewrite <- pair_sup_unit_eq_iff. split; intros E.
    + apply (Rmult_eq_reg_l (2 * r^2)); [|lra]. lra.
    + rewrite E. ring.
Qed.

(** The comparison the sentence draws, LDP-FL's r²α² against Theorem 2's printed bound, cannot
    certify the factor two by itself: per pair, 2r²a² < 2 · r²(a² + 2a − 1) for every a > 1. *)
Lemma T2c_not_from_printed_bound : 2 * r^2 * a^2 < 2 * (r^2 * th2_const a).
Proof.
  rewrite th2_const_identity. assert (0 < r^2) by (apply pow_lt; exact Hr).
  assert (0 < r^2 * (2 * a - 1)) by (apply Rmult_lt_0_compat; lra). nra.
Qed.

End Pair.

(** ** Theorem 2's slack: r²(a² + 2a − 1) against the exact worst case

    The ratio is (a² + 2a − 1)/a² for a <= 2 (decreasing, 2 at a = 1, 7/4 at a = 2) and
    (a² + 2a − 1)/(4(a − 1)) = 1 + u/4 + 1/(2u) with u = a − 1 for a >= 2. Its minimum over a > 1
    is 1 + √2/2 ≈ 1.707, at u = √2, i.e. a = 1 + √2. *)

Definition T2b_ratio (a : R) : R := th2_const a / pair_sup_unit a.

Lemma pair_sup_unit_pos (a : R) : 1 < a -> 0 < pair_sup_unit a.
Proof. intros H. unfold pair_sup_unit. destruct (Rle_dec a 2); nra. Qed.

(** The ratio does not depend on r. *)
Lemma T2b_ratio_r (a r : R) : 1 < a -> 0 < r -> r^2 * th2_const a / pair_sup a r = T2b_ratio a.
Proof.
  intros Ha Hr. pose proof (pair_sup_unit_pos a Ha). unfold T2b_ratio, pair_sup.
  field. split; lra.
Qed.

Lemma T2b_ratio_cases (a : R) : 1 < a ->
  (a <= 2 -> T2b_ratio a = (a^2 + 2 * a - 1) / a^2) /\
  (2 <= a -> T2b_ratio a = (a^2 + 2 * a - 1) / (4 * (a - 1))).
Proof.
  intros Ha. unfold T2b_ratio, pair_sup_unit. rewrite th2_const_identity. split; intros H.
  - destruct (Rle_dec a 2); [reflexivity|lra].
  - destruct (Rle_dec a 2) as [H'|H']; [|reflexivity].
    assert (a = 2) by lra. subst a. field.
Qed.

(** Strictly above the minimum for a <= 2: (√2/2)a² < (3/4)a² <= 2a − 1 on [2/3, 2]. *)
Lemma T2b_ratio_low (a : R) : 1 < a -> a <= 2 -> (1 + sqrt 2 / 2) * a^2 < a^2 + 2 * a - 1.
Proof.
  intros Ha H2. pose proof sqrt2_bounds as [S1 S2].
  assert (A : 0 <= (2 - a) * (3 * a - 2)) by (apply Rmult_le_pos; lra).
  assert (B : sqrt 2 / 2 * a^2 < 3 / 4 * a^2) by (apply Rmult_lt_compat_r; [nra|lra]).
  nra.
Qed.

(** For a > 2, with u = a − 1: (a² + 2a − 1) − (1 + √2/2)·4u = (u − √2)². *)
Lemma T2b_ratio_high_gap (a : R) :
  a^2 + 2 * a - 1 - (1 + sqrt 2 / 2) * (4 * (a - 1)) = (a - 1 - sqrt 2) ^ 2.
Proof.
  replace ((a - 1 - sqrt 2) ^ 2) with ((a - 1)^2 - 2 * sqrt 2 * (a - 1) + sqrt 2 * sqrt 2) by ring.
  rewrite sqrt2_sq. field.
Qed.

(** Theorem 2's per-pair constant exceeds the exact worst case for every a > 1, by a factor at
    least 1 + √2/2; that factor is reached at a = 1 + √2 and only there. *)
Theorem T2b_slack :
  (forall a, 1 < a -> 1 < T2b_ratio a /\ 1 + sqrt 2 / 2 <= T2b_ratio a) /\
  T2b_ratio (1 + sqrt 2) = 1 + sqrt 2 / 2 /\
  (forall a, 1 < a -> T2b_ratio a = 1 + sqrt 2 / 2 -> a = 1 + sqrt 2) /\
  T2b_ratio 2 = 7 / 4.
Proof.
  pose proof sqrt2_bounds as [S1 S2].
  assert (Low : forall a, 1 < a -> a <= 2 -> 1 + sqrt 2 / 2 < T2b_ratio a).
  { intros a Ha H2. rewrite (proj1 (T2b_ratio_cases a Ha) H2).
    apply lt_div_r; [nra|]. apply T2b_ratio_low; assumption. }
  assert (High : forall a, 2 < a -> 1 + sqrt 2 / 2 <= T2b_ratio a).
  { intros a H2. rewrite (proj2 (T2b_ratio_cases a ltac:(lra)) ltac:(lra)).
    apply le_div_r; [lra|]. pose proof (T2b_ratio_high_gap a). pose proof (pow2_ge_0 (a - 1 - sqrt 2)). lra. }
  split; [|split; [|split]].
  - intros a Ha. destruct (Rle_or_lt a 2) as [H|H].
    + pose proof (Low a Ha H). lra.
    + pose proof (High a H). lra.
  - rewrite (proj2 (T2b_ratio_cases (1 + sqrt 2) ltac:(lra)) ltac:(lra)).
    apply (Rmult_eq_reg_r (4 * (1 + sqrt 2 - 1))); [|nra].
    unfold Rdiv at 1. rewrite Rmult_assoc, Rinv_l by nra.
    pose proof (T2b_ratio_high_gap (1 + sqrt 2)) as G.
    replace (1 + sqrt 2 - 1 - sqrt 2) with 0 in G by ring. lra.
  - intros a Ha E. destruct (Rle_or_lt a 2) as [H|H].
    + pose proof (Low a Ha H). lra.
    + rewrite (proj2 (T2b_ratio_cases a Ha) ltac:(lra)) in E.
      assert (E' : a^2 + 2 * a - 1 = (1 + sqrt 2 / 2) * (4 * (a - 1))).
      { rewrite <- E. field. lra. }
      pose proof (T2b_ratio_high_gap a). assert (Z : (a - 1 - sqrt 2) ^ 2 = 0) by lra.
      assert (Z' : Rsqr (a - 1 - sqrt 2) = 0) by (unfold Rsqr; lra).
      apply Rsqr_0_uniq in Z'. lra.
  - rewrite (proj1 (T2b_ratio_cases 2 ltac:(lra)) ltac:(lra)). field.
Qed.

(** ** ε-versions *)

(** a >= 3 iff e^ε <= 2 iff ε <= ln 2: the per-input "factor of two" holds exactly for ε <= ln 2. *)
Lemma alpha_ge_3_iff (e : R) : 0 < e -> (alpha e >= 3 <-> exp e <= 2).
Proof.
  intros He. pose proof (exp_gt_1 e He) as X. unfold alpha. split; intros H.
  - apply Rge_le in H. assert (H' : 3 * (exp e - 1) <= exp e + 1).
    { apply (Rmult_le_reg_r (/ (exp e - 1))); [apply Rinv_0_lt_compat; lra|].
      replace (3 * (exp e - 1) * / (exp e - 1)) with 3 by (field; lra). exact H. }
    lra.
  - apply Rle_ge. apply le_div_r; lra.
Qed.

Lemma exp_le_2_iff (e : R) : exp e <= 2 <-> e <= ln 2.
Proof.
  split; intros H.
  - destruct (Rle_or_lt e (ln 2)) as [L|L]; [exact L|]. exfalso.
    apply exp_increasing in L. rewrite exp_ln in L by lra. lra.
  - destruct (Req_dec e (ln 2)) as [E|E].
    + rewrite E, exp_ln by lra. lra.
    + assert (L : e < ln 2) by lra. apply exp_increasing in L. rewrite exp_ln in L by lra. lra.
Qed.

(** a <= 2 iff e^ε >= 3: the two regimes of the pair's worst case. *)
Lemma alpha_le_2_iff (e : R) : 0 < e -> (alpha e <= 2 <-> 3 <= exp e).
Proof.
  intros He. pose proof (exp_gt_1 e He) as X. unfold alpha. split; intros H.
  - assert (H' : exp e + 1 <= 2 * (exp e - 1)).
    { apply (Rmult_le_reg_r (/ (exp e - 1))); [apply Rinv_0_lt_compat; lra|].
      replace (2 * (exp e - 1) * / (exp e - 1)) with 2 by (field; lra). exact H. }
    lra.
  - apply div_le_l; lra.
Qed.

(** The exact per-input ratio (a + 1)/2 is e^ε/(e^ε − 1). *)
Lemma T2c_ratio_eps (e : R) : 0 < e -> (alpha e + 1) / 2 = exp e / (exp e - 1).
Proof. intros He. pose proof (exp_gt_1 e He). unfold alpha. field. lra. Qed.

(** The minimum of Theorem 2's slack is at ε = ln(1 + √2). *)
Lemma alpha_at_slack_min : alpha (ln (1 + sqrt 2)) = 1 + sqrt 2.
Proof.
  pose proof sqrt2_bounds. rewrite alpha_ln by lra.
  apply (Rmult_eq_reg_r (1 + sqrt 2 - 1)); [|lra]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra.
  pose proof sqrt2_sq. nra.
Qed.

(** "for small values of ε_p, where α(ε_p) ≫ 1 ..., the CorBin-FL mechanism improves the
    mean-square error by at least a factor of two compared to LDP-FL": input by input, for all
    inputs of a pair, exactly when ε <= ln 2. *)
Theorem T2c_per_input_eps (e c r : R) : 0 < e -> 0 < r ->
  ((forall w1 w2, in_range c r w1 -> in_range c r w2 ->
      ldpq_mse (alpha e) c r w1 + ldpq_mse (alpha e) c r w2 >= 2 * opt_pair_mse (alpha e) c r w1 w2)
   <-> e <= ln 2).
Proof.
  intros He Hr. rewrite (T2c_per_input (alpha e) c r (alpha_gt_1 e He) Hr).
  rewrite (alpha_ge_3_iff e He). apply exp_le_2_iff.
Qed.

(** ** Theorem 3: AugCorBin-FL with k LDPQ clients and p CorBin-FL pairs, n = k + 2p

    The clients' errors are independent across groups and have mean 0, so the aggregate's MSE is
    the sum of the k LDPQ MSEs and the p pairs' MSEs, over n². Inputs: [v i] for the LDPQ
    clients (i < k), [y1 j], [y2 j] for the pairs (j < p). *)

Definition aug_mse (a c r : R) (k p : nat) (v y1 y2 : nat -> R) : R :=
  (fsum k (fun i => ldpq_mse a c r (v i)) + fsum p (fun j => opt_pair_mse a c r (y1 j) (y2 j)))
  / INR (k + 2 * p) ^ 2.

Definition inputs_ok (c r : R) (k p : nat) (v y1 y2 : nat -> R) : Prop :=
  (forall i, (i < k)%nat -> in_range c r (v i)) /\
  (forall j, (j < p)%nat -> in_range c r (y1 j) /\ in_range c r (y2 j)).

(** Theorem 3's bound as printed: γr²α²/n + ((1 − γ)/(2n)) r²((√2−1)α+1)((√2+1)α−1). *)
Definition th3_bound (a r g : R) (n : nat) : R :=
  g * r^2 * a^2 / INR n + (1 - g) / (2 * INR n) * r^2 * th2_const a.

(** The exact worst case over inputs of [aug_mse]. *)
Definition aug_worst (a r : R) (k p : nat) : R :=
  (INR k * (r^2 * a^2) + INR p * pair_sup a r) / INR (k + 2 * p) ^ 2.

Section Aug.
Variables a c r : R.
Hypothesis Ha : 1 < a.
Hypothesis Hr : 0 < r.

Lemma ldpq_mse_le (w : R) : ldpq_mse a c r w <= r^2 * a^2.
Proof. rewrite ldpq_mse_poly. pose proof (pow2_ge_0 (w - c)). lra. Qed.

Lemma ldpq_mse_c : ldpq_mse a c r c = r^2 * a^2.
Proof. rewrite ldpq_mse_poly. ring. Qed.

Lemma INR_n_pos (k p : nat) : (0 < k + 2 * p)%nat -> 0 < INR (k + 2 * p) ^ 2.
Proof. intros H. apply pow_lt. apply lt_0_INR. exact H. Qed.

(** [aug_worst] is the maximum of [aug_mse] over the inputs in range. *)
Theorem T3m_worst (k p : nat) : (0 < k + 2 * p)%nat ->
  (forall v y1 y2, inputs_ok c r k p v y1 y2 -> aug_mse a c r k p v y1 y2 <= aug_worst a r k p) /\
  (exists w1 w2, in_range c r w1 /\ in_range c r w2 /\
     inputs_ok c r k p (fun _ => c) (fun _ => w1) (fun _ => w2) /\
     aug_mse a c r k p (fun _ => c) (fun _ => w1) (fun _ => w2) = aug_worst a r k p).
Proof.
  intros Hn. pose proof (INR_n_pos k p Hn) as N. destruct (opt_pair_mse_sup a c r Ha Hr) as [B [w1 [w2 [H1 [H2 E]]]]].
  split.
  - intros v y1 y2 [Hv Hy]. unfold aug_mse, aug_worst. unfold Rdiv. apply Rmult_le_compat_r.
    + left. apply Rinv_0_lt_compat. exact N.
    + rewrite <- !fsum_const. apply Rplus_le_compat.
      * apply fsum_le. intros i _. apply ldpq_mse_le.
      * apply fsum_le. intros j Hj. destruct (Hy j Hj). apply B; assumption.
  - exists w1, w2. split; [exact H1|]. split; [exact H2|]. split.
    + split; [intros; unfold in_range; lra|intros; split; assumption].
    + unfold aug_mse, aug_worst. rewrite ldpq_mse_c, E, !fsum_const. reflexivity.
Qed.

(** The proof's own route: every LDPQ client costs at most r²α² and every pair at most Theorem
    2's constant, so the aggregate's MSE is at most (k r²α² + p r²(α² + 2α − 1))/n². *)
Theorem T3m_sum_bound (k p : nat) (v y1 y2 : nat -> R) :
  (0 < k + 2 * p)%nat -> inputs_ok c r k p v y1 y2 ->
  aug_mse a c r k p v y1 y2 <= (INR k * (r^2 * a^2) + INR p * (r^2 * th2_const a)) / INR (k + 2 * p) ^ 2.
Proof.
  intros Hn Hi. apply Rle_trans with (aug_worst a r k p); [apply (T3m_worst k p Hn); exact Hi|].
  unfold aug_worst. pose proof (INR_n_pos k p Hn). unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|].
  apply Rplus_le_compat_l. apply Rmult_le_compat_l; [apply pos_INR|].
  unfold pair_sup. rewrite th2_const_identity. apply Rmult_le_compat_l; [apply pow2_ge_0|].
  pose proof (pair_sup_unit_le a). lra.
Qed.

(** The printed bound minus the exact worst case, for n = k + 2p:
      r² ((γn − k)(a − 1)²/2 + p·slack(a)) / n²,
    since one LDPQ client costs r²a² and one paired client r²(a² + 2a − 1)/2 in the bound, and
    r²a² − r²(a² + 2a − 1)/2 = r²(a − 1)²/2. *)
Lemma th3_gap (k p : nat) (g : R) : (0 < k + 2 * p)%nat ->
  th3_bound a r g (k + 2 * p) - aug_worst a r k p
  = r^2 * ((g * INR (k + 2 * p) - INR k) * (a - 1)^2 / 2 + INR p * slack_unit a) / INR (k + 2 * p) ^ 2.
Proof.
  intros Hn. pose proof (lt_0_INR _ Hn) as N.
  unfold th3_bound, aug_worst, slack_unit, pair_sup. rewrite th2_const_identity.
  assert (E : INR (k + 2 * p) = INR k + 2 * INR p) by (rewrite plus_INR, mult_INR; simpl; ring).
  rewrite E in *. field. lra.
Qed.

(** Theorem 3: "the mean square error is bounded by: lim_{d→∞} E((W̄_{g,j} − (1/n)Σ w_{i,j})²)
    ≤ γ r_j²α²(ε_p)/n + ((1−γ)/(2n)) r_j²((√2−1)α(ε_p)+1)((√2+1)α(ε_p)−1)". For any split of the
    n = k + 2p clients, the printed bound holds for all inputs in range iff
      (k − γn)(a − 1)² <= 2p·slack(a). *)
Theorem T3m_iff (k p n : nat) (g : R) : (k + 2 * p)%nat = n -> (0 < n)%nat ->
  ((forall v y1 y2, inputs_ok c r k p v y1 y2 -> aug_mse a c r k p v y1 y2 <= th3_bound a r g n)
   <-> (INR k - g * INR n) * (a - 1)^2 <= 2 * INR p * slack_unit a).
Proof.
  intros En Hn. subst n. pose proof (INR_n_pos k p Hn) as N. pose proof (th3_gap k p g Hn) as G.
  assert (R2 : 0 < r^2) by (apply pow_lt; exact Hr).
  destruct (T3m_worst k p Hn) as [W [w1 [w2 [_ [_ [Hi E]]]]]].
  assert (Key : 0 <= th3_bound a r g (k + 2 * p) - aug_worst a r k p <->
                (INR k - g * INR (k + 2 * p)) * (a - 1)^2 <= 2 * INR p * slack_unit a).
  { rewrite G. set (X := (g * INR (k + 2 * p) - INR k) * (a - 1)^2 / 2 + INR p * slack_unit a).
    assert (XE : (INR k - g * INR (k + 2 * p)) * (a - 1)^2 <= 2 * INR p * slack_unit a <-> 0 <= X)
      by (unfold X; split; intros; lra).
    rewrite XE. split; intros H.
    - destruct (Rle_or_lt 0 X) as [L|L]; [exact L|]. exfalso.
      assert (0 < r^2 * (- X) / INR (k + 2 * p) ^ 2) by (apply Rdiv_lt_0_compat; nra).
      assert (r^2 * (- X) / INR (k + 2 * p) ^ 2 = - (r^2 * X / INR (k + 2 * p) ^ 2)) by (field; lra).
      lra.
    - unfold Rdiv. apply Rmult_le_pos; [nra|left; apply Rinv_0_lt_compat; exact N]. }
  rewrite <- Key. split.
  - intros H. specialize (H _ _ _ Hi). rewrite E in H. lra.
  - intros H v y1 y2 Hv. specialize (W v y1 y2 Hv). lra.
Qed.

(** With exactly γn clients on LDPQ (so (1 − γ)n/2 pairs), the printed bound holds. *)
Theorem T3m_exact_split (k p n : nat) (g : R) : (k + 2 * p)%nat = n -> (0 < n)%nat ->
  INR k = g * INR n ->
  forall v y1 y2, inputs_ok c r k p v y1 y2 -> aug_mse a c r k p v y1 y2 <= th3_bound a r g n.
Proof.
  intros En Hn Hk. apply (proj2 (T3m_iff k p n g En Hn)). rewrite Hk.
  replace ((g * INR n - g * INR n) * (a - 1)^2) with 0 by ring.
  assert (0 <= slack_unit a).
  { unfold slack_unit. pose proof (pair_sup_unit_le a). lra. }
  pose proof (pos_INR p). nra.
Qed.

(** Theorem 2 is the case γ = 0: p pairs, n = 2p, no LDPQ client. *)
Theorem T2b_aggregate (p : nat) : (0 < p)%nat ->
  forall y1 y2, inputs_ok c r 0 p (fun _ => c) y1 y2 ->
  aug_mse a c r 0 p (fun _ => c) y1 y2 <= r^2 / (2 * INR (2 * p)) * th2_const a.
Proof.
  intros Hp y1 y2 Hi.
  replace (r^2 / (2 * INR (2 * p)) * th2_const a) with (th3_bound a r 0 (0 + 2 * p)).
  - apply (T3m_exact_split 0 p (0 + 2 * p) 0); [reflexivity|lia|simpl; ring|exact Hi].
  - unfold th3_bound. rewrite Nat.add_0_l. field.
    assert (0 < INR (2 * p)) by (apply lt_0_INR; lia). lra.
Qed.

(** The slack by cases: 2a − 1 for a <= 2, (a − 1)² + 2 for a >= 2. *)
Lemma slack_unit_cases :
  (a <= 2 -> slack_unit a = 2 * a - 1) /\ (2 <= a -> slack_unit a = (a - 1)^2 + 2).
Proof.
  unfold slack_unit, pair_sup_unit. split; intros H; destruct (Rle_dec a 2) as [H'|H']; try ring.
  - lra.
  - assert (a = 2) by lra. subst a. ring.
Qed.

(** Every pair's slack is more than (a − 1)²: one odd client moved to LDPQ is paid for by a
    single pair. *)
Lemma slack_unit_gt : (a - 1)^2 < slack_unit a.
Proof.
  unfold slack_unit, pair_sup_unit. destruct (Rle_dec a 2); nra.
Qed.

End Aug.

(** ** Theorem 3 with the rounding rule

    "consider a mechanism where, at each round, γ fraction of the clients use the LDP-FL
    mechanism to obfuscate their corresponding weights, and (1−γ) fraction use the CorBin-FL
    mechanism." When γn is not an integer, or n − γn is odd, some rounding is needed; read here:
    ⌊γn⌋ clients use LDPQ; the remaining n − ⌊γn⌋ are paired, and if their number is odd the
    one left over uses LDPQ too (it has no partner). *)

Definition rule_k0 (g : R) (n : nat) : nat := fl (g * INR n).
Definition rule_k (g : R) (n : nat) : nat := (rule_k0 g n + (n - rule_k0 g n) mod 2)%nat.
Definition rule_p (g : R) (n : nat) : nat := ((n - rule_k0 g n) / 2)%nat.

Lemma rule_k0_spec (g : R) (n : nat) : 0 <= g <= 1 ->
  INR (rule_k0 g n) <= g * INR n < INR (rule_k0 g n) + 1 /\ (rule_k0 g n <= n)%nat.
Proof.
  intros Hg. pose proof (pos_INR n). assert (0 <= g * INR n) by nra.
  pose proof (fl_spec (g * INR n) ltac:(lra)) as F. unfold rule_k0. split; [exact F|].
  apply INR_le. nra.
Qed.

Lemma rule_count (g : R) (n : nat) : 0 <= g <= 1 -> (rule_k g n + 2 * rule_p g n)%nat = n.
Proof.
  intros Hg. destruct (rule_k0_spec g n Hg) as [_ L]. unfold rule_k, rule_p.
  pose proof (Nat.div_mod_eq (n - rule_k0 g n) 2). lia.
Qed.

(** Theorem 3's MSE bound under the rounding rule: for n >= 1 and γ ∈ (0, 1], it holds for all
    inputs in range iff γn < n − 1 or γ = 1. It fails exactly for (n − 1)/n <= γ < 1, where the
    rule puts every client on LDPQ. *)
Theorem T3m_rule (a c r g : R) (n : nat) : 1 < a -> 0 < r -> 0 < g <= 1 -> (0 < n)%nat ->
  ((forall v y1 y2, inputs_ok c r (rule_k g n) (rule_p g n) v y1 y2 ->
      aug_mse a c r (rule_k g n) (rule_p g n) v y1 y2 <= th3_bound a r g n)
   <-> g * INR n < INR n - 1 \/ g = 1).
Proof.
  intros Ha Hr Hg Hn. rewrite (T3m_iff a c r Ha Hr _ _ n g (rule_count g n ltac:(lra)) Hn).
  destruct (rule_k0_spec g n ltac:(lra)) as [[F0 F1] L].
  pose proof (slack_unit_gt a Ha) as S. assert (A1 : 0 < (a - 1)^2) by (apply pow_lt; lra).
  unfold rule_k, rule_p. set (k0 := rule_k0 g n) in *.
  pose proof (Nat.div_mod_eq (n - k0) 2) as D. pose proof (Nat.mod_upper_bound (n - k0) 2 ltac:(lia)) as B.
  set (q := ((n - k0) / 2)%nat) in *. set (b := ((n - k0) mod 2)%nat) in *.
  assert (En : INR n = INR k0 + 2 * INR q + INR b).
  { replace n with (k0 + 2 * q + b)%nat at 1 by lia. rewrite !plus_INR, mult_INR. simpl. ring. }
  rewrite plus_INR. pose proof (pos_INR q).
  assert (Hb : b = 0%nat \/ b = 1%nat) by lia.
  assert (Hq : q = 0%nat \/ (1 <= q)%nat) by lia.
  destruct Hb as [Hb|Hb]; rewrite Hb in *; simpl INR in *.
  - (* even: k = ⌊γn⌋ <= γn, the condition holds; and so does the right side *)
    split; intros _.
    + destruct Hq as [Hq|Hq].
      * rewrite Hq in En. simpl INR in En. right. pose proof (lt_0_INR n Hn).
        assert (1 <= g) by nra. lra.
      * left. apply le_INR in Hq. simpl INR in Hq. lra.
    + assert (0 <= INR q * slack_unit a) by (apply Rmult_le_pos; lra). nra.
  - destruct Hq as [Hq|Hq].
    + (* odd with no pair left: every client uses LDPQ, k = n > γn; both sides fail *)
      rewrite Hq in *. simpl INR in *. split; intros HH; exfalso.
      * nra.
      * destruct HH as [HH|HH]; [lra|]. subst g. lra.
    + (* odd with a pair left: the extra LDPQ client costs less than one pair's slack *)
      apply le_INR in Hq. simpl INR in Hq. split; intros _; [left; lra|].
      assert ((INR k0 + 1 - g * INR n) * (a - 1)^2 <= 1 * (a - 1)^2) by (apply Rmult_le_compat_r; lra).
      assert (1 * slack_unit a <= 2 * INR q * slack_unit a) by (apply Rmult_le_compat_r; lra).
      lra.
Qed.

(** ** Concrete counterexamples, in exact arithmetic *)

Lemma alpha_ln2 : alpha (ln 2) = 3.
Proof. rewrite alpha_ln by lra. field. Qed.

(** n = 2, γ = 1/2, ε = ln 2 (α = 3), c = r = 1: ⌊γn⌋ = 1 client on LDPQ and the other one,
    unpaired, too. At w = c both clients' MSE is r²α² = 9: the aggregate's MSE is 18/4 = 9/2,
    while the printed bound is (1/2)(9/2) + (1/4)(14) = 4. *)
Theorem T3m_counterexample_2 :
  rule_k (1/2) 2 = 2%nat /\ rule_p (1/2) 2 = 0%nat /\
  aug_mse (alpha (ln 2)) 1 1 2 0 (fun _ => 1) (fun _ => 1) (fun _ => 1) = 9 / 2 /\
  th3_bound (alpha (ln 2)) 1 (1/2) 2 = 4 /\
  9 / 2 > 4.
Proof.
  assert (K0 : rule_k0 (1/2) 2 = 1%nat).
  { unfold rule_k0. replace (1/2 * INR 2) with (INR 1 + 0) by (simpl; field). apply fl_of_nat. lra. }
  unfold rule_k, rule_p. rewrite K0. split; [reflexivity|]. split; [reflexivity|].
  rewrite alpha_ln2. split; [|split; [|lra]].
  - unfold aug_mse, ldpq_mse. simpl. field.
  - unfold th3_bound. rewrite th2_const_identity. simpl. field.
Qed.

(** Theorem 3's precondition as printed: (nγ − 1)(1/4 − 1/(4α²)) ≥ max(23 log(m/δ), 2rα), with
    log read as the natural logarithm. *)
Definition th3_precondition (n m : nat) (g delta a r : R) : Prop :=
  (INR n * g - 1) * (1/4 - 1 / (4 * a^2)) >= Rmax (23 * ln (INR m / delta)) (2 * r * a).

Lemma INR_1000 : INR 1000 = 1000.
Proof. rewrite INR_IZR_INZ. reflexivity. Qed.

(** n = 1000, γ = 999/1000, ε = ln 2, m = 1 parameter, δ = e^(−9), c = r = 1: Theorem 3's
    precondition holds (998 · 2/9 ≈ 221.8 ≥ max(23 · 9, 6) = 207), the rule puts all 1000
    clients on LDPQ, and at w = c the aggregate's MSE is 9/1000 = 9000/10^6 while the printed
    bound is 8998/10^6. *)
Theorem T3m_counterexample_1000 :
  th3_precondition 1000 1 (999/1000) (exp (-9)) (alpha (ln 2)) 1 /\
  rule_k (999/1000) 1000 = 1000%nat /\ rule_p (999/1000) 1000 = 0%nat /\
  aug_mse (alpha (ln 2)) 1 1 1000 0 (fun _ => 1) (fun _ => 1) (fun _ => 1) = 9 / 1000 /\
  th3_bound (alpha (ln 2)) 1 (999/1000) 1000 = 8998 / 1000000 /\
  9 / 1000 > 8998 / 1000000.
Proof.
  rewrite alpha_ln2.
  assert (K0 : rule_k0 (999/1000) 1000 = 999%nat).
  { unfold rule_k0. replace (999/1000 * INR 1000) with (INR 999 + 0).
    - apply fl_of_nat. lra.
    - rewrite INR_1000, INR_IZR_INZ. simpl. field. }
  split; [|split; [|split; [|split; [|split; [|lra]]]]].
  - unfold th3_precondition. rewrite INR_1000.
    replace (INR 1 / exp (-9)) with (exp 9) by (replace (-9) with (Ropp 9) by ring; rewrite exp_Ropp; simpl; field; apply Rgt_not_eq, exp_pos).
    rewrite ln_exp. unfold Rmax. destruct (Rle_dec (23 * 9) (2 * 1 * 3)); lra.
  - unfold rule_k. rewrite K0. reflexivity.
  - unfold rule_p. rewrite K0. reflexivity.
  - unfold aug_mse. rewrite fsum_const. replace (1000 + 2 * 0)%nat with 1000%nat by reflexivity.
    rewrite INR_1000. unfold ldpq_mse. simpl fsum. field.
  - unfold th3_bound. rewrite th2_const_identity, INR_1000. field.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Worst_theorems :=
  (@th2_const_identity,
   @opt_pair_mse_bound,
   @opt_pair_mse_sup,
   @T2b_pair_bound,
   @T2c_exact_ratio,
   @T2c_per_input,
   @T2c_worst_case,
   @T2b_slack,
   @T2c_per_input_eps,
   @T3m_worst,
   @T3m_sum_bound,
   @T3m_iff,
   @T3m_exact_split,
   @T2b_aggregate,
   @T3m_rule,
   @T3m_counterexample_2,
   @T3m_counterexample_1000).
Print Assumptions Worst_theorems.
