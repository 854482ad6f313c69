(** * Thm23 — Theorem 2's and Theorem 3's MSE claims (T2b, T2c, T3m), stated about the mechanism
      as printed and decided from Worst.v and Optimal.v

    Where. Theorem 2 (Sec. "Privacy-Utility Guarantees", label prop:util): "the MSE is bounded by:
    lim_{d→∞} E((W̄_{g,j} − (1/n)Σ_{i∈[n]} w_{i,j})²) ≤ (r_j²/2n)((√2−1)α(ε_p)+1)((√2+1)α(ε_p)−1)".
    The sentence after it: "for small values of ε_p, where α(ε_p) ≫ 1 and large values of n, the
    CorBin-FL mechanism improves the mean-square error by at least a factor of two compared to
    LDP-FL". Theorem 3 (label th:3): "Let ε_p, δ > 0, and γ ∈ (0,1]. [...] assume that n is large
    enough that (nγ−1)(1/4 − 1/(4α²)) ≥ max(23 log(m/δ), 2rα). [...] the mean square error is
    bounded by: lim_{d→∞} E(...) ≤ γ r_j²α²/n + ((1−γ)/(2n)) r_j²((√2−1)α+1)((√2+1)α−1)".

    Model. One coordinate j (center c, radius r = r_j). A CorBin-FL pair at d shared bits is
    Defs.corbinq (Algorithm 2 as intended); its MSE E((Q1 + Q2 − w − w')²) is Defs.pair_mse. The
    average's error is (1/n)·Σ of the groups' errors; groups (LDP-FL clients, pairs) randomise
    independently and each error has mean 0, so the MSE of the average is Σ (groups' MSEs)/n²
    (aug_mse_d; why: pair_err_mean_zero and indep_sq_sum). Each pair's MSE converges as d → ∞ to
    Worst.opt_pair_mse = r²(2α|σ| − σ²) (pair_limit, from Optimal.corbinq_uniform_limit and
    m_inf_eq_opt), so the limit of the aggregate's MSE is Worst.aug_mse (aug_limit). "lim ≤ B" is
    stated as: the limit exists and is ≤ B.

    Readings and verdicts.
    - T2b_claim (n = 2p clients in p pairs, all inputs in range): holds (proved), T2b_holds.
      T2b_tight: the exact maximum over inputs is pair_sup/(2n) (pair_sup = r²α² for α ≤ 2,
      4r²(α − 1) for α ≥ 2), attained; the printed bound is T2b_ratio(α) ≥ 1 + √2/2 times it,
      equality only at e^ε = 1 + √2 (T2b_tight_holds).
    - T2c (one pair, d → ∞, LDP-FL's pair MSE = the two LDPQ clients' MSEs):
      T2c_claim_per_input_every_eps (factor two for every ε > 0 and every input pair): fails,
      e^ε = 3, c = r = 1, w1 = w2 = 2: LDP-FL 6, CorBin-FL's limit 4 (T2c_per_input_every_eps_fails).
      T2c_claim_per_input_regime (every ε ∈ (0, ln 2], every input pair): holds (proved).
      T2c_threshold: the per-input factor two holds at ε iff ε ≤ ln 2 (proved).
      T2c_claim_worst_case (sup over inputs of LDP-FL's ≥ 2 · sup of CorBin-FL's, for every ε > 0):
      holds (proved); equality iff α ≤ 2, i.e. e^ε ≥ 3 (T2c_worst_case_equality).
    - T3m: T3m_claim_floor (⌊γn⌋ clients on LDPQ, the rest paired, an odd one out on LDPQ; the
      paper prints no rounding rule): fails under Theorem 3's precondition, n = 1000, γ = 999/1000,
      ε = ln 2, m = 1, δ = e^(−9), c = r = 1: limit 9/1000 > bound 8998/10^6 (T3m_floor_fails).
      T3m_claim_exact_split (γn an integer k, n − k even): holds (proved). *)

From Coq Require Import Reals Lra Lia Psatz.
From Corbin Require Import Defs Alpha Sums Facts T1a Thm1 Optimal Worst.
Open Scope R_scope.

(** ** (1) The link: a CorBin-FL pair's MSE tends to [opt_pair_mse] as d → ∞ *)

Theorem m_inf_eq_opt (e c r w w' : R) : 0 < e -> 0 < r ->
  m_inf e c r w w' = opt_pair_mse (alpha e) c r w w'.
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He) as Ha.
  unfold m_inf, mse_base, opt_pair_mse, ldpq_q. set (a := alpha e) in *.
  set (s := w - c + (w' - c)).
  assert (Q : 1 / 2 + (w - c) / (2 * r * a) + (1 / 2 + (w' - c) / (2 * r * a)) - 1 = s / (2 * r * a))
    by (unfold s; field; lra).
  assert (Ew : w' = s - (w - c) + c) by (unfold s; ring).
  rewrite Q. clearbody s. subst w'.
  assert (I : 0 < / (2 * r * a)) by (apply Rinv_0_lt_compat; nra).
  destruct (Rle_or_lt 0 s) as [S|S].
  - rewrite Rabs_pos_eq by exact S.
    rewrite Rmax_right by (unfold Rdiv; apply Rmult_le_pos; lra).
    field. lra.
  - rewrite Rabs_left by exact S.
    rewrite Rmax_left by (unfold Rdiv; nra).
    field. lra.
Qed.

(** From Optimal.corbinq_uniform_limit: 0 ≤ MSE_d − m_inf ≤ η for all d ≥ D. *)
Theorem pair_limit (e c r w w' : R) : 0 < e -> 0 < r -> in_range c r w -> in_range c r w' ->
  Un_cv (fun d => pair_mse d (corbinq d e c r) w w') (opt_pair_mse (alpha e) c r w w').
Proof.
  intros He Hr Hw Hw' eps Heps. rewrite <- m_inf_eq_opt by assumption.
  destruct (corbinq_uniform_limit e c r He Hr (eps / 2) ltac:(lra)) as [D HD].
  exists D. intros d Hd. specialize (HD d ltac:(lia) w w' Hw Hw'). unfold R_dist.
  rewrite Rabs_pos_eq by lra. lra.
Qed.


(** ** (2) The aggregate's MSE at d shared bits, and its limit *)

(** One LDP-FL client's MSE E((Q(w) − w)²) is [Worst.ldpq_mse]. *)
Lemma ldpq_mse_is_mse (e c r w : R) : 0 < e -> 0 < r ->
  mse (LDPQ e c r) w = ldpq_mse (alpha e) c r w.
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He).
  unfold mse, LDPQ, ldpq_mse, ldpq_q. simpl. field. lra.
Qed.

(** A CorBin-FL pair's error Q1 + Q2 − w − w' has mean 0 (from C4, T1a.corbinq_C4). *)
Definition pair_err_mean (d : nat) (P : pair) (w w' : R) : R :=
  avgZ d (fun z => (p1 P w z * phi P + (1 - p1 P w z) * plo P) +
                   (p2 P w' z * phi P + (1 - p2 P w' z) * plo P) - w - w').

Lemma pair_err_mean_zero (d : nat) (e c r w w' : R) : 0 < e -> 0 < r ->
  in_range c r w -> in_range c r w' -> pair_err_mean d (corbinq d e c r) w w' = 0.
Proof.
  intros He Hr Hw Hw'. pose proof (nZ_pos d).
  destruct (corbinq_C4 d e c r He Hr w Hw) as [_ [E1 _]].
  destruct (corbinq_C4 d e c r He Hr w' Hw') as [_ [_ E2]].
  unfold marg1, marg2, avgZ in E1, E2. unfold pair_err_mean, avgZ.
  set (P := corbinq d e c r) in *.
  rewrite (fsum_ext _ _ (fun z => (phi P - plo P) * p1 P w z + ((phi P - plo P) * p2 P w' z +
                                   (2 * plo P - w - w')))) by (intros; ring).
  rewrite !fsum_plus, !fsum_scal, fsum_const.
  set (N := INR (nZ d)) in *. set (S1 := fsum (nZ d) (p1 P w)) in *.
  set (S2 := fsum (nZ d) (p2 P w')) in *.
  apply (Rmult_eq_reg_r N); [|lra]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra.
  assert (E1' : S1 * phi P + (N - S1) * plo P = w * N).
  { rewrite <- E1. field. lra. }
  assert (E2' : S2 * phi P + (N - S2) * plo P = w' * N).
  { rewrite <- E2. field. lra. }
  nra.
Qed.

(** Why the cross terms vanish: for independent X (values x i, probabilities pX i, i < n) and Y
    (y j, pY j, j < m) with E(X) = 0, E((X + Y)²) = E(X²) + E(Y²). Applied to X = the error of
    the first j groups (mean 0) and Y = the next group's, it gives, by induction, that the
    aggregate's error variance is the sum of the groups' (clients and pairs quantize with
    independent randomness: pairs use their own Z and private coins). *)
Lemma indep_sq_sum (n m : nat) (pX x pY y : nat -> R) :
  fsum n pX = 1 -> fsum m pY = 1 -> fsum n (fun i => pX i * x i) = 0 ->
  fsum n (fun i => fsum m (fun j => pX i * pY j * (x i + y j) ^ 2)) =
  fsum n (fun i => pX i * x i ^ 2) + fsum m (fun j => pY j * y j ^ 2).
Proof.
  intros HX HY M.
  rewrite (fsum_ext n _ (fun i => (pX i * x i ^ 2) + ((2 * fsum m (fun j => pY j * y j)) * (pX i * x i) +
                                   fsum m (fun j => pY j * y j ^ 2) * pX i))).
  - rewrite !fsum_plus, !fsum_scal, M, HX. ring.
  - intros i _.
    rewrite (fsum_ext m _ (fun j => (pX i * x i ^ 2) * pY j + ((2 * pX i * x i) * (pY j * y j) +
                                     pX i * (pY j * y j ^ 2)))) by (intros; ring).
    rewrite !fsum_plus, !fsum_scal, HY. ring.
Qed.

(** The aggregate's error is (1/n)·Σ (errors of the groups): k LDP-FL clients with inputs v i and
    p CorBin-FL pairs with inputs y1 j, y2 j, n = k + 2p. The groups quantize independently and
    each error has mean 0 (Alg. 1; [pair_err_mean_zero]), so (modelling choice, justified by
    [indep_sq_sum]) the MSE of the average is the sum of the groups' MSEs over n². *)
Definition aug_mse_d (d : nat) (e c r : R) (k p : nat) (v y1 y2 : nat -> R) : R :=
  (fsum k (fun i => ldpq_mse (alpha e) c r (v i)) +
   fsum p (fun j => pair_mse d (corbinq d e c r) (y1 j) (y2 j))) / INR (k + 2 * p) ^ 2.

(** CorBin-FL (Theorem 2): n = 2p clients in p pairs (a pairing needs n even). *)
Definition cbfl_mse_d (d : nat) (e c r : R) (p : nat) (y1 y2 : nat -> R) : R :=
  fsum p (fun j => pair_mse d (corbinq d e c r) (y1 j) (y2 j)) / INR (2 * p) ^ 2.

Lemma cbfl_is_aug (d : nat) (e c r : R) (p : nat) (y1 y2 : nat -> R) :
  cbfl_mse_d d e c r p y1 y2 = aug_mse_d d e c r 0 p (fun _ => c) y1 y2.
Proof. unfold cbfl_mse_d, aug_mse_d. simpl fsum. rewrite Rplus_0_l. reflexivity. Qed.

Lemma cv_const (x : R) : Un_cv (fun _ => x) x.
Proof. intros eps H. exists 0%nat. intros. unfold R_dist. rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. exact H. Qed.

Lemma fsum_cv (k : nat) (g : nat -> nat -> R) (l : nat -> R) :
  (forall j, (j < k)%nat -> Un_cv (fun d => g d j) (l j)) ->
  Un_cv (fun d => fsum k (g d)) (fsum k l).
Proof.
  induction k as [|k IH]; intros H; simpl.
  - apply cv_const.
  - apply CV_plus; [apply IH; intros; apply H; lia | apply H; lia].
Qed.

Lemma cv_div (X : nat -> R) (L K : R) : Un_cv X L -> Un_cv (fun d => X d / K) (L / K).
Proof. intros H. unfold Rdiv. apply (CV_mult X (fun _ => / K)); [exact H|apply cv_const]. Qed.

(** The limit of the aggregate's MSE is [Worst.aug_mse]. *)
Theorem aug_limit (e c r : R) (k p : nat) (v y1 y2 : nat -> R) : 0 < e -> 0 < r ->
  inputs_ok c r k p v y1 y2 ->
  Un_cv (fun d => aug_mse_d d e c r k p v y1 y2) (aug_mse (alpha e) c r k p v y1 y2).
Proof.
  intros He Hr [_ Hy]. unfold aug_mse_d, aug_mse. apply cv_div. apply CV_plus.
  - apply cv_const.
  - apply (fsum_cv p (fun d j => pair_mse d (corbinq d e c r) (y1 j) (y2 j))).
    intros j Hj. destruct (Hy j Hj). apply pair_limit; assumption.
Qed.

Theorem cbfl_limit (e c r : R) (p : nat) (y1 y2 : nat -> R) : 0 < e -> 0 < r ->
  (forall j, (j < p)%nat -> in_range c r (y1 j) /\ in_range c r (y2 j)) ->
  Un_cv (fun d => cbfl_mse_d d e c r p y1 y2) (aug_mse (alpha e) c r 0 p (fun _ => c) y1 y2).
Proof.
  intros He Hr Hy. apply (Un_cv_ext (fun d => aug_mse_d d e c r 0 p (fun _ => c) y1 y2)).
  - intros d. symmetry. apply cbfl_is_aug.
  - apply aug_limit; [exact He|exact Hr|split; [intros; lia|exact Hy]].
Qed.


(** ** (3) T2b — Theorem 2's MSE bound *)

(** As printed: for n clients in n/2 CorBin-FL pairs, the limit as d → ∞ of the MSE of the
    average (one coordinate j, radius r = r_j, center c = c_j) exists and is at most
    (r²/2n)((√2−1)α+1)((√2+1)α−1). *)
Definition T2b_claim : Prop :=
  forall (e c r : R) (n p : nat), 0 < e -> 0 < c -> 0 < r -> n = (2 * p)%nat -> (1 <= p)%nat ->
  forall y1 y2 : nat -> R, (forall j, (j < p)%nat -> in_range c r (y1 j) /\ in_range c r (y2 j)) ->
  exists l, Un_cv (fun d => cbfl_mse_d d e c r p y1 y2) l /\
    l <= r ^ 2 / (2 * INR n) * (((sqrt 2 - 1) * alpha e + 1) * ((sqrt 2 + 1) * alpha e - 1)).

Theorem T2b_holds : T2b_claim.
Proof.
  intros e c r n p He Hc Hr En Hp y1 y2 Hy. subst n.
  exists (aug_mse (alpha e) c r 0 p (fun _ => c) y1 y2). split.
  - apply cbfl_limit; assumption.
  - fold (th2_const (alpha e)). apply (T2b_aggregate (alpha e) c r (alpha_gt_1 e He) Hr p).
    + lia.
    + split; [intros; lia|exact Hy].
Qed.

(** The exact worst case and the slack: over the inputs in range, the limit's maximum is
    [aug_worst] with k = 0, i.e. pair_sup/(4p) (pair_sup = r²α² for α ≤ 2, 4r²(α − 1) for
    α ≥ 2), attained; the printed bound is T2b_ratio(α) times it, and T2b_ratio(α) ≥ 1 + √2/2,
    with equality at e^ε = 1 + √2 only. *)
Definition T2b_tight : Prop :=
  forall (e c r : R) (n p : nat), 0 < e -> 0 < c -> 0 < r -> n = (2 * p)%nat -> (1 <= p)%nat ->
  (forall y1 y2 : nat -> R, (forall j, (j < p)%nat -> in_range c r (y1 j) /\ in_range c r (y2 j)) ->
     exists l, Un_cv (fun d => cbfl_mse_d d e c r p y1 y2) l /\ l <= aug_worst (alpha e) r 0 p) /\
  (exists y1 y2 : nat -> R, (forall j, (j < p)%nat -> in_range c r (y1 j) /\ in_range c r (y2 j)) /\
     Un_cv (fun d => cbfl_mse_d d e c r p y1 y2) (aug_worst (alpha e) r 0 p)) /\
  aug_worst (alpha e) r 0 p = pair_sup (alpha e) r / (2 * INR n) /\
  r ^ 2 / (2 * INR n) * th2_const (alpha e) = T2b_ratio (alpha e) * aug_worst (alpha e) r 0 p /\
  1 + sqrt 2 / 2 <= T2b_ratio (alpha e) /\
  T2b_ratio (alpha (ln (1 + sqrt 2))) = 1 + sqrt 2 / 2.

Theorem T2b_tight_holds : T2b_tight.
Proof.
  intros e c r n p He Hc Hr En Hp. subst n. pose proof (alpha_gt_1 e He) as Ha.
  set (a := alpha e) in *.
  assert (Hn : (0 < 0 + 2 * p)%nat) by lia.
  destruct (T3m_worst a c r Ha Hr 0 p Hn) as [W [w1 [w2 [H1 [H2 [Hi E]]]]]].
  pose proof (lt_0_INR p ltac:(lia)) as P.
  assert (E2 : INR (0 + 2 * p) = 2 * INR p) by (rewrite Nat.add_0_l, mult_INR; simpl; ring).
  assert (E3 : INR (2 * p) = 2 * INR p) by (rewrite mult_INR; simpl; ring).
  pose proof (pair_sup_unit_pos a Ha) as U.
  split; [|split; [|split; [|split; [|split]]]].
  - intros y1 y2 Hy. exists (aug_mse a c r 0 p (fun _ => c) y1 y2). split.
    + apply cbfl_limit; assumption.
    + apply W. split; [intros; lia|exact Hy].
  - exists (fun _ => w1), (fun _ => w2). split; [intros; split; assumption|].
    rewrite <- E. apply (Un_cv_ext (fun d => cbfl_mse_d d e c r p (fun _ => w1) (fun _ => w2))).
    + reflexivity.
    + apply cbfl_limit; [exact He|exact Hr|intros; split; assumption].
  - unfold aug_worst. rewrite E2, E3. simpl INR. field. lra.
  - unfold aug_worst, T2b_ratio, pair_sup. rewrite E2, E3. simpl INR. field. split; lra.
  - apply (proj1 T2b_slack a Ha).
  - rewrite alpha_at_slack_min. apply (proj1 (proj2 T2b_slack)).
Qed.

(** ** (4) T2c — "improves the mean-square error by at least a factor of two compared to LDP-FL"

    One pair of clients, d → ∞. LDP-FL quantizes the two inputs with independent LDPQs, so its
    pair MSE is the sum of the two clients' MSEs E((Q(w) − w)²) ([indep_sq_sum]); CorBin-FL's is
    the limit of the pair's MSE. *)

Definition ldpfl_pair_mse (e c r w1 w2 : R) : R := mse (LDPQ e c r) w1 + mse (LDPQ e c r) w2.

(** The factor of two at one (ε, c, r), input by input. *)
Definition T2c_per_input_at (e c r : R) : Prop :=
  forall w1 w2, in_range c r w1 -> in_range c r w2 ->
  exists l, Un_cv (fun d => pair_mse d (corbinq d e c r) w1 w2) l /\ ldpfl_pair_mse e c r w1 w2 >= 2 * l.

Lemma per_input_at_iff (e c r : R) : 0 < e -> 0 < r ->
  (T2c_per_input_at e c r <->
   forall w1 w2, in_range c r w1 -> in_range c r w2 ->
     ldpq_mse (alpha e) c r w1 + ldpq_mse (alpha e) c r w2 >= 2 * opt_pair_mse (alpha e) c r w1 w2).
Proof.
  intros He Hr. unfold T2c_per_input_at.
  split; intros H w1 w2 H1 H2.
  - destruct (H w1 w2 H1 H2) as [l [L G]]. unfold ldpfl_pair_mse in G. rewrite !ldpq_mse_is_mse in G by assumption.
    rewrite (UL_sequence _ _ _ L (pair_limit e c r w1 w2 He Hr H1 H2)) in G. exact G.
  - exists (opt_pair_mse (alpha e) c r w1 w2). split; [apply pair_limit; assumption|].
    unfold ldpfl_pair_mse. rewrite !ldpq_mse_is_mse by assumption. apply H; assumption.
Qed.

(** Reading 1: for every ε > 0 and every pair of inputs. *)
Definition T2c_claim_per_input_every_eps : Prop :=
  forall e c r : R, 0 < e -> 0 < c -> 0 < r -> T2c_per_input_at e c r.

(** The witness: e^ε = 3 (α = 2), c = r = 1, w1 = w2 = 2 = c + r: LDP-FL's pair MSE is 6,
    CorBin-FL's limit 4, a factor 3/2 < 2. *)
Theorem T2c_witness :
  ldpfl_pair_mse (ln 3) 1 1 2 2 = 6 /\
  Un_cv (fun d => pair_mse d (corbinq d (ln 3) 1 1) 2 2) 4 /\
  6 < 2 * 4.
Proof.
  assert (He : 0 < ln 3) by (apply ln_pos_gt; lra).
  assert (R2 : in_range 1 1 2) by (unfold in_range; lra).
  split; [|split; [|lra]].
  - unfold ldpfl_pair_mse. rewrite ldpq_mse_is_mse by lra. rewrite alpha_ln3. unfold ldpq_mse. ring.
  - replace 4 with (opt_pair_mse (alpha (ln 3)) 1 1 2 2).
    + apply pair_limit; [exact He|lra|exact R2|exact R2].
    + rewrite alpha_ln3. unfold opt_pair_mse. replace (2 - 1 + (2 - 1)) with 2 by ring.
      rewrite Rabs_pos_eq by lra. field.
Qed.

Theorem T2c_per_input_every_eps_fails : ~ T2c_claim_per_input_every_eps.
Proof.
  intros H. assert (He : 0 < ln 3) by (apply ln_pos_gt; lra).
  destruct T2c_witness as [E [L G]].
  destruct (H (ln 3) 1 1 He ltac:(lra) ltac:(lra) 2 2 ltac:(unfold in_range; lra) ltac:(unfold in_range; lra))
    as [l [L' G']].
  rewrite (UL_sequence _ _ _ L' L), E in G'. lra.
Qed.

(** Reading 2: "for small values of ε_p, where α(ε_p) ≫ 1": the per-input factor of two for every
    ε ∈ (0, ln 2] (α ≥ 3). *)
Definition T2c_claim_per_input_regime : Prop :=
  forall e c r : R, 0 < e -> e <= ln 2 -> 0 < c -> 0 < r -> T2c_per_input_at e c r.

Theorem T2c_per_input_regime_holds : T2c_claim_per_input_regime.
Proof.
  intros e c r He Hl _ Hr. apply per_input_at_iff; [exact He|exact Hr|].
  apply (proj2 (T2c_per_input_eps e c r He Hr)). exact Hl.
Qed.

(** The threshold: the per-input factor of two holds at ε iff ε ≤ ln 2. *)
Definition T2c_threshold : Prop :=
  forall e c r : R, 0 < e -> 0 < c -> 0 < r -> (T2c_per_input_at e c r <-> e <= ln 2).

Theorem T2c_threshold_holds : T2c_threshold.
Proof.
  intros e c r He _ Hr. rewrite (per_input_at_iff e c r He Hr). apply T2c_per_input_eps; assumption.
Qed.

(** Reading 3: worst cases. The supremum over inputs of LDP-FL's pair MSE is at least twice the
    supremum of CorBin-FL's (both suprema exist). *)
Definition ldpfl_set (e c r : R) (x : R) : Prop :=
  exists w1 w2, in_range c r w1 /\ in_range c r w2 /\ x = ldpfl_pair_mse e c r w1 w2.
Definition cbfl_pair_set (e c r : R) (x : R) : Prop :=
  exists w1 w2, in_range c r w1 /\ in_range c r w2 /\
    Un_cv (fun d => pair_mse d (corbinq d e c r) w1 w2) x.

Definition T2c_claim_worst_case : Prop :=
  forall e c r : R, 0 < e -> 0 < c -> 0 < r ->
  (exists SL, is_lub (ldpfl_set e c r) SL) /\ (exists SC, is_lub (cbfl_pair_set e c r) SC) /\
  forall SL SC, is_lub (ldpfl_set e c r) SL -> is_lub (cbfl_pair_set e c r) SC -> SL >= 2 * SC.

(** The two suprema: 2r²α² (at w1 = w2 = c) and [pair_sup]. *)
Lemma lub_ldpfl (e c r : R) : 0 < e -> 0 < r -> is_lub (ldpfl_set e c r) (2 * r ^ 2 * alpha e ^ 2).
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He) as Ha.
  destruct (T2c_worst_case (alpha e) c r Hr) as [B [E _]]. split.
  - intros x [w1 [w2 [H1 [H2 Ex]]]]. subst x. unfold ldpfl_pair_mse. rewrite !ldpq_mse_is_mse by assumption.
    apply B; assumption.
  - intros b Hb. rewrite <- E. rewrite <- !ldpq_mse_is_mse by assumption. apply Hb.
    exists c, c. split; [unfold in_range; lra|split; [unfold in_range; lra|reflexivity]].
Qed.

Lemma lub_cbfl (e c r : R) : 0 < e -> 0 < r -> is_lub (cbfl_pair_set e c r) (pair_sup (alpha e) r).
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He) as Ha.
  destruct (opt_pair_mse_sup (alpha e) c r Ha Hr) as [B [w1 [w2 [H1 [H2 E]]]]]. split.
  - intros x [v1 [v2 [H1' [H2' L]]]].
    rewrite (UL_sequence _ _ _ L (pair_limit e c r v1 v2 He Hr H1' H2')). apply B; assumption.
  - intros b Hb. apply Hb. exists w1, w2. split; [exact H1|split; [exact H2|]].
    rewrite <- E. apply pair_limit; assumption.
Qed.

Lemma lub_unique (E : R -> Prop) (x y : R) : is_lub E x -> is_lub E y -> x = y.
Proof. intros [Ux Lx] [Uy Ly]. apply Rle_antisym; [apply Lx, Uy|apply Ly, Ux]. Qed.

Theorem T2c_worst_case_holds : T2c_claim_worst_case.
Proof.
  intros e c r He _ Hr. pose proof (alpha_gt_1 e He) as Ha.
  split; [eexists; apply lub_ldpfl; assumption|split; [eexists; apply lub_cbfl; assumption|]].
  intros SL SC HL HC.
  rewrite (lub_unique _ _ _ HL (lub_ldpfl e c r He Hr)), (lub_unique _ _ _ HC (lub_cbfl e c r He Hr)).
  apply (T2c_worst_case (alpha e) c r Hr).
Qed.

(** Equality of the worst cases (exactly a factor two) iff α ≤ 2, i.e. e^ε ≥ 3. *)
Definition T2c_worst_case_equality : Prop :=
  forall e c r : R, 0 < e -> 0 < c -> 0 < r ->
  forall SL SC, is_lub (ldpfl_set e c r) SL -> is_lub (cbfl_pair_set e c r) SC ->
  (SL = 2 * SC <-> alpha e <= 2) /\ (alpha e <= 2 <-> 3 <= exp e).

Theorem T2c_worst_case_equality_holds : T2c_worst_case_equality.
Proof.
  intros e c r He _ Hr SL SC HL HC. pose proof (alpha_gt_1 e He) as Ha.
  rewrite (lub_unique _ _ _ HL (lub_ldpfl e c r He Hr)), (lub_unique _ _ _ HC (lub_cbfl e c r He Hr)).
  split; [|apply alpha_le_2_iff; exact He].
  destruct (T2c_worst_case (alpha e) c r Hr) as [_ [_ [_ I]]]. exact I.
Qed.

(** ** (5) T3m — Theorem 3's MSE bound for AugCorBin-FL

    "consider a mechanism where, at each round, γ fraction of the clients use the LDP-FL
    mechanism ..., and (1−γ) fraction use the CorBin-FL mechanism." The paper prints no rule for
    when γn is not an integer or n − γn is odd (its proof of Theorem 3 uses Binomial(γn − 1, p),
    i.e. treats γn as an integer). Two readings:
    - floor: ⌊γn⌋ clients on LDPQ, the others paired, an odd one out on LDPQ too (Worst.rule_k,
      Worst.rule_p) — the rule any implementation for every n and γ must pick in some form;
    - exact split: γn is an integer k and n − k is even (p = (n − k)/2 pairs).
    Theorem 3's hypotheses as printed: ε_p, δ > 0, γ ∈ (0, 1], r = max_j r_j (here one coordinate
    with radius r_j ≤ r), m ≥ 1 parameters, and (nγ − 1)(1/4 − 1/(4α²)) ≥ max(23 log(m/δ), 2rα)
    (Worst.th3_precondition, log = ln). *)

Definition T3m_claim_floor : Prop :=
  forall (n m : nat) (g delta e c rj r : R),
  0 < e -> 0 < delta -> 0 < g <= 1 -> (1 <= m)%nat -> 0 < c -> 0 < rj <= r ->
  th3_precondition n m g delta (alpha e) r ->
  forall v y1 y2 : nat -> R, inputs_ok c rj (rule_k g n) (rule_p g n) v y1 y2 ->
  exists l, Un_cv (fun d => aug_mse_d d e c rj (rule_k g n) (rule_p g n) v y1 y2) l /\
    l <= g * rj ^ 2 * alpha e ^ 2 / INR n +
         (1 - g) / (2 * INR n) * rj ^ 2 * (((sqrt 2 - 1) * alpha e + 1) * ((sqrt 2 + 1) * alpha e - 1)).

(** Refuted with Worst.T3m_counterexample_1000: n = 1000, γ = 999/1000, ε = ln 2 (α = 3), m = 1,
    δ = e^(−9), c = r_j = r = 1, every input 1. The precondition holds (998·2/9 ≥ 207); the rule
    puts all 1000 clients on LDPQ; the limit is 9/1000 > 8998/10^6, the printed bound. *)
Theorem T3m_floor_fails : ~ T3m_claim_floor.
Proof.
  intros H. destruct T3m_counterexample_1000 as [Pre [K [P [E [B G]]]]].
  assert (He : 0 < ln 2) by (apply ln_pos_gt; lra).
  assert (Hi : inputs_ok 1 1 (rule_k (999/1000) 1000) (rule_p (999/1000) 1000) (fun _ => 1) (fun _ => 1) (fun _ => 1)).
  { rewrite K, P. split; intros; [|split]; unfold in_range; lra. }
  destruct (H 1000%nat 1%nat (999/1000) (exp (-9)) (ln 2) 1 1 1 He (exp_pos _) ltac:(lra) ltac:(lia)
              ltac:(lra) ltac:(lra) Pre _ _ _ Hi) as [l [L Lb]].
  change (l <= th3_bound (alpha (ln 2)) 1 (999/1000) 1000) in Lb.
  rewrite K, P in L.
  pose proof (aug_limit (ln 2) 1 1 1000 0 (fun _ => 1) (fun _ => 1) (fun _ => 1) He ltac:(lra)
                ltac:(split; intros; [|split]; unfold in_range; lra)) as L'.
  rewrite (UL_sequence _ _ _ L L'), E, B in Lb. lra.
Qed.

(** Theorem 3's precondition forces nγ > 1, so n ≥ 1. *)
Lemma precond_n_pos (n m : nat) (g delta a r : R) : 1 < a -> 0 < r -> 0 < g ->
  th3_precondition n m g delta a r -> (0 < n)%nat.
Proof.
  intros Ha Hr Hg Pre. unfold th3_precondition in Pre.
  pose proof (Rmax_r (23 * ln (INR m / delta)) (2 * r * a)) as M.
  assert (Q : 0 < 1 / 4 - 1 / (4 * a ^ 2)).
  { assert (1 < a ^ 2) by nra. assert (1 / (4 * a ^ 2) < 1 / 4) by (apply Rmult_lt_reg_r with (4 * a ^ 2); [nra|]; field_simplify; [lra|nra]). lra. }
  destruct n as [|n]; [|lia]. exfalso. simpl INR in Pre. nra.
Qed.

Definition T3m_claim_exact_split : Prop :=
  forall (n m k p : nat) (g delta e c rj r : R),
  0 < e -> 0 < delta -> 0 < g <= 1 -> (1 <= m)%nat -> 0 < c -> 0 < rj <= r ->
  th3_precondition n m g delta (alpha e) r ->
  (k + 2 * p)%nat = n -> INR k = g * INR n ->
  forall v y1 y2 : nat -> R, inputs_ok c rj k p v y1 y2 ->
  exists l, Un_cv (fun d => aug_mse_d d e c rj k p v y1 y2) l /\
    l <= g * rj ^ 2 * alpha e ^ 2 / INR n +
         (1 - g) / (2 * INR n) * rj ^ 2 * (((sqrt 2 - 1) * alpha e + 1) * ((sqrt 2 + 1) * alpha e - 1)).

Theorem T3m_exact_split_holds : T3m_claim_exact_split.
Proof.
  intros n m k p g delta e c rj r He Hd Hg Hm Hc Hr Pre En Ek v y1 y2 Hi.
  pose proof (alpha_gt_1 e He) as Ha.
  pose proof (precond_n_pos n m g delta (alpha e) r Ha ltac:(lra) ltac:(lra) Pre) as Hn.
  exists (aug_mse (alpha e) c rj k p v y1 y2). split.
  - apply aug_limit; [exact He|lra|exact Hi].
  - change (aug_mse (alpha e) c rj k p v y1 y2 <= th3_bound (alpha e) rj g n).
    apply (T3m_exact_split (alpha e) c rj Ha ltac:(lra) k p n g En Hn Ek v y1 y2 Hi).
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Thm23_theorems :=
  (@m_inf_eq_opt,
   @pair_limit,
   @aug_limit,
   @cbfl_limit,
   @T2b_holds,
   @T2b_tight_holds,
   @T2c_witness,
   @T2c_per_input_every_eps_fails,
   @T2c_per_input_regime_holds,
   @T2c_threshold_holds,
   @T2c_worst_case_holds,
   @T2c_worst_case_equality_holds,
   @T3m_floor_fails,
   @T3m_exact_split_holds).
Print Assumptions Thm23_theorems.
