(** * Errata — typos in the paper's definitions that a reader would trip on

    Each entry: where it is, what is printed, what is evidently meant, why the intent is clear,
    a pair of Definitions (as printed / as intended) and a lemma that they differ. The claims
    that rest on these definitions are judged in their own files; here only the typo is shown.

    E1  Section 2.3 (LDP-FL summary): "α(ε_p) = (1 + e^ε_p)/(1 − e^ε_p)". Intended
        (e^ε + 1)/(e^ε − 1), as Algorithm 1 line 1, Algorithm 2 line 1 and every proof write it.
        The printed value is negative for ε > 0 (a negative α would flip LDPQ's levels and make
        q leave [0, 1]). Verdict: erratum.
    E2  Section 2.3: "E(U) = w_{i,j}/(2 r_j α(ε_p)), so that E(W̄_{i,j}) = w_{i,j}". With
        P(U = 1) = 1/2 + (w − c)/(2rα) and U ∈ {−1, 1}, E(U) = (w − c)/(rα), the only value for
        which E(c + U r α) = w as the same sentence says. Verdict: erratum.
    E3  Theorem 1, after Eq. (th:1:opt): "for all w, w' ∈ [r − c, r + c]". Intended
        [c − r, c + r], the domain of Q_i stated two paragraphs earlier and used in C4–C6.
        Verdict: erratum.
    E4  Algorithm 2, line 14: "ELSIF T1 ≺ Z"; intended "ELSIF T2 ≺ Z" (the text: "Q2 outputs
        c + rα if T2 ≺ Z"). Both are in Defs.v (q2_minus_as_printed / corbinq); A2.v proves the
        printed line breaks C4 and C5, T1a.v that the intended one satisfies them. Verdict: erratum.
    (E5, withdrawn: Eq. (th:3:1)'s second term. The braces after \log do not render and its
        parentheses balance, so the printed formula already groups as cpSGD's Theorem 1,
        log(1.25/δ) + log(20m/δ)·log(10/δ). No erratum; the numbering of the others is kept.)
    E6  Eq. (th:3:1): "e_p = (1 + 1/α²)" in the denominators (n γ − 1) e_p. With cpSGD's
        N p(1 − p) and the proof's N = nγ − 1, p = 1/2 − 1/(2α), s = 2, Δ2 = 2√m rα, the first
        term is rα √(8 m log(1.25/δ)/((nγ − 1)(1 − 1/α²))): the factor is 1 − 1/α² (the
        precondition itself prints (nγ − 1)(1/4 − 1/(4α²)) = N p(1 − p)). b_p = e_p/3 + 1/α is
        cpSGD's b_p only with e_p = 1 + 1/α² (proved below), so the sign slip is in the
        denominators' e_p. Printed > intended, so the printed ε_u is smaller: unsafe direction.
        Verdict: erratum.
    E7  Appendix C (proof of Theorem 2): "(1/n²) Σ_{i≠i'} Cov(W̄_i, W̄_i') = (1/(2n²)) Σ_i
        Cov(W̄_i, W̄_{p_i})". Only partners are correlated and each i has exactly one partner,
        so Σ_{i≠i'} Cov = Σ_i Cov(W̄_i, W̄_{p_i}): the factor 1/2 is too many. The covariances are
        ≤ 0 (the proof's next lines), so the printed sum is the larger: the bound it leads to is
        weaker than the true one. Verdict: erratum (safe direction).
    E8  Appendix E (proof of Theorem 4) and Theorem 4's γ, γ': the half-width
        √(p(1−p)(1−2p(1−p))/(4(δ−δ1)n)) is half of what Chebyshev's inequality gives for
        Var(Σ E_i) = np(1−p)(1−2p(1−p)) and failure probability δ − δ1, namely
        √(p(1−p)(1−2p(1−p))/((δ−δ1)n)). Thm4.v shows the printed width fails at inputs meeting
        Theorem 4's preconditions. Verdict: erratum (the T4 proof step is invalid as printed).
    E9  Appendix E: "P(F_i = 1) = p", F_i "the indicator that the ith client does not drop
        out" with dropout probability p: P(F_i = 1) = 1 − p. And θ = p(1 − p) − √(p(1−p)/((δ−δ1)n))
        centres N/n at p(1 − p), while E(N)/n is 1 − p (and p by the proof's own P(F_i = 1) = p).
        The width is Chebyshev's for Var(N) = np(1−p); the centre is evidently 1 − p.
        Verdict: erratum (θ is below 1 − p, so this slip alone loosens the MSE bound; Thm4.v
        judges the bound itself).

    Checked and dropped: Eq. (1) (UCDP) divides both aggregates by n, W̄'_g = (1/n)Σ_{i≥2}; the
    proof of Theorem 3 uses the same normalisation, so it is a definition, not a typo. *)

From Coq Require Import Reals Lra.
From Interval Require Import Tactic.
From Corbin Require Import Defs Alpha Facts.
Open Scope R_scope.

(** ** E1: α(ε) in Section 2.3 *)

(** The two are exact negatives of each other. *)
Lemma E1_alpha_as_printed_is_minus_alpha (e : R) : 0 < e -> alpha_as_printed_in_section_2_3 e = - alpha e.
Proof.
  intros He. pose proof (exp_gt_1 e He). unfold alpha, alpha_as_printed_in_section_2_3. field. lra.
Qed.

Theorem E1_alpha_as_printed_negative (e : R) : 0 < e -> alpha_as_printed_in_section_2_3 e < 0.
Proof.
  intros He. rewrite E1_alpha_as_printed_is_minus_alpha by exact He. pose proof (alpha_gt_1 e He). lra.
Qed.

Theorem E1_alpha_differs (e : R) : 0 < e -> alpha_as_printed_in_section_2_3 e <> alpha e.
Proof.
  intros He. pose proof (E1_alpha_as_printed_negative e He). pose proof (alpha_gt_1 e He). lra.
Qed.


(** ** E2: E(U) in Section 2.3 (U ∈ {−1, 1}, P(U = 1) = ldpq_q) *)

Definition EU_as_printed (a c r w : R) : R := w / (2 * r * a).
Definition EU_intended (a c r w : R) : R := (w - c) / (r * a).

(** The intended value is E(U) = 1·q + (−1)(1 − q). *)
Lemma E2_intended_is_mean (a c r w : R) : 0 < r -> 0 < a ->
  ldpq_q a c r w * 1 + (1 - ldpq_q a c r w) * (-1) = EU_intended a c r w.
Proof. intros Hr Ha. unfold ldpq_q, EU_intended. field. lra. Qed.

(** At c = r = 1, α = 2, w = 1: printed 1/4, true 0. *)
Theorem E2_differs : EU_as_printed 2 1 1 1 <> EU_intended 2 1 1 1.
Proof. unfold EU_as_printed, EU_intended. lra. Qed.


(** ** E3: the input range after Eq. (th:1:opt) *)

Definition in_range_as_printed_thm1 (c r w : R) : Prop := r - c <= w <= r + c.

(** c = 2, r = 1: w = −1 is in the printed range [−1, 3] but not in [c − r, c + r] = [1, 3]
    (at w = −1 LDPQ's q would be 1/2 − 3/(2α) < 0 for α < 3: not a probability). *)
Theorem E3_differs : in_range_as_printed_thm1 2 1 (-1) /\ ~ in_range 2 1 (-1).
Proof. unfold in_range_as_printed_thm1, in_range. split; lra. Qed.


(** ** E4: Algorithm 2 line 14 — see A2.v (refutation of the printed line) and T1a.v. *)

(** ** E0 (not an erratum): the values of LDPQ's U

    Algorithm 1 line 3 says BinRand "generates binary U with P_U(1) = q" and line 4 outputs
    c + U rα. Section 2.3 defines the same U with P(U = 1) = 1 − P(U = −1), so U ∈ {−1, 1}: the
    text fixes it. The other reading, U ∈ {0, 1}, would make LDPQ biased, which no claim intends. *)

Definition ldpq_mean_pm (c r a w : R) : R :=
  c + (2 * (1/2 + (w - c) / (2 * r * a)) - 1) * r * a.
Definition ldpq_mean_01 (c r a w : R) : R := c + (1/2 + (w - c) / (2 * r * a)) * r * a.

Theorem E0_pm_unbiased (c r a w : R) : 0 < r -> 0 < a -> ldpq_mean_pm c r a w = w.
Proof. intros Hr Ha. unfold ldpq_mean_pm. field. lra. Qed.

(** c = r = 1, e^ε = 3 (α = 2), w = 2: the {0, 1} reading's mean is 5/2. *)
Theorem E0_01_biased : ldpq_mean_01 1 1 2 2 = 5/2.
Proof. unfold ldpq_mean_01. field. Qed.

(** ** E6: e_p in Eq. (th:3:1) against cpSGD Thm 1 (REFERENCES.md) *)

Definition ep_as_printed (a : R) : R := 1 + 1 / a^2.
Definition ep_intended (a : R) : R := 1 - 1 / a^2.
Definition bp_as_printed (a : R) : R := ep_as_printed a / 3 + 1 / a.

(** cpSGD's b_p and N p (1 − p), at the proof's p = 1/2 − 1/(2α). *)
Definition cpsgd_bp (p : R) : R := 2/3 * (p^2 + (1 - p)^2) + 1 - 2 * p.
Definition cpsgd_p (a : R) : R := 1/2 - 1 / (2 * a).

(** b_p as printed is cpSGD's b_p (so e_p = 1 + 1/α² is right inside b_p) ... *)
Lemma E6_bp_matches (a : R) : 1 < a -> cpsgd_bp (cpsgd_p a) = bp_as_printed a.
Proof. intros Ha. unfold cpsgd_bp, cpsgd_p, bp_as_printed, ep_as_printed. field. lra. Qed.

(** ... while cpSGD's N p (1 − p) is N (1 − 1/α²)/4: the first term's square,
    (Δ2 √(2L) / (s √(N p(1−p))))² with Δ2 = 2√m rα, s = 2, equals (rα)² · 8mL/(N(1 − 1/α²)). *)
Lemma E6_npq (a N : R) : 1 < a -> N * cpsgd_p a * (1 - cpsgd_p a) = N * ep_intended a / 4.
Proof. intros Ha. unfold cpsgd_p, ep_intended. field. lra. Qed.

Lemma E6_first_term_sq (a m r L N : R) : 1 < a -> 0 < N -> 0 <= m -> 0 < r ->
  (2 * sqrt m * r * a) ^ 2 * (2 * L) / (2 ^ 2 * (N * cpsgd_p a * (1 - cpsgd_p a)))
  = (r * a) ^ 2 * (8 * m * L / (N * ep_intended a)).
Proof.
  intros Ha HN Hm Hr. rewrite E6_npq by lra.
  assert (S : sqrt m ^ 2 = m) by (simpl; rewrite Rmult_1_r; apply sqrt_sqrt; lra).
  assert (0 < ep_intended a).
  { unfold ep_intended. assert (1 < a^2) by nra. assert (1 / a^2 < 1) by (apply div_lt_l; lra). lra. }
  replace ((2 * sqrt m * r * a) ^ 2) with (4 * sqrt m ^ 2 * r^2 * a^2) by ring. rewrite S.
  field. split; lra.
Qed.

Theorem E6_differs (a : R) : 1 < a -> ep_intended a < ep_as_printed a.
Proof.
  intros Ha. unfold ep_intended, ep_as_printed.
  assert (0 < 1 / a^2) by (apply Rdiv_lt_0_compat; [lra|]; nra). lra.
Qed.


(** ** E7: the covariance sum in Appendix C

    With the pairing {(i, p_i)}, Cov(W̄_i, W̄_i') = 0 unless i' = p_i, so
    Σ_{i≠i'} Cov(W̄_i, W̄_i') = Σ_i Cov(W̄_i, W̄_{p_i}) =: S (each unordered pair twice in both).
    The two sides of the printed equation, as functions of n and S: *)

Definition cov_term_as_printed (n S : R) : R := S / (2 * n^2).
Definition cov_term_intended (n S : R) : R := S / n^2.

(** n = 2 clients in one pair with Cov = κ: Σ_{i≠i'} = 2κ, Σ_i Cov(W̄_i, W̄_{p_i}) = 2κ. *)
Theorem E7_differs (n S : R) : 0 < n -> S <> 0 -> cov_term_as_printed n S <> cov_term_intended n S.
Proof.
  intros Hn HS E. unfold cov_term_as_printed, cov_term_intended in E.
  assert (0 < n^2) by nra.
  replace (S / (2 * n^2)) with ((S / n^2) / 2) in E by (field; lra).
  assert (Z : S / n^2 = 0) by lra.
  apply HS. replace S with ((S / n^2) * n^2) by (field; lra). rewrite Z. ring.
Qed.

(** Safe direction: the covariances are ≤ 0 (S ≤ 0), and then printed ≥ intended. *)
Theorem E7_safe (n S : R) : 0 < n -> S <= 0 -> cov_term_intended n S <= cov_term_as_printed n S.
Proof.
  intros Hn HS. unfold cov_term_as_printed, cov_term_intended.
  assert (0 < n^2) by nra.
  replace (S / (2 * n^2)) with ((S / n^2) / 2) by (field; lra).
  assert (S / n^2 <= 0).
  { unfold Rdiv. pose proof (Rinv_0_lt_compat _ H).
    pose proof (Rmult_le_compat_r (/ n^2) S 0 ltac:(lra) HS). lra. }
  lra.
Qed.


(** ** E8: Theorem 4's half-width of γ, γ' against Chebyshev's

    Chebyshev: P(|X − EX| ≥ k) ≤ Var X / k². With Var(Σ E_i) = n v, v = p(1−p)(1−2p(1−p)),
    and failure probability x = δ − δ1, k = √(n v / x), i.e. a width k/n = √(v/(x n)). *)

Definition gamma_width_as_printed (p x n : R) : R :=
  sqrt (p * (1 - p) * (1 - 2 * p * (1 - p)) / (4 * x * n)).
Definition gamma_width_chebyshev (p x n : R) : R :=
  sqrt (p * (1 - p) * (1 - 2 * p * (1 - p)) / (x * n)).

Theorem E8_printed_is_half (p x n : R) : 0 < x -> 0 < n ->
  gamma_width_as_printed p x n = gamma_width_chebyshev p x n / 2.
Proof.
  intros Hx Hn. unfold gamma_width_as_printed, gamma_width_chebyshev.
  set (V := p * (1 - p) * (1 - 2 * p * (1 - p))).
  replace (V / (4 * x * n)) with (V / (x * n) * / 4) by (field; lra).
  destruct (Rle_dec 0 (V / (x * n))) as [H|H].
  - rewrite sqrt_mult_alt by exact H.
    replace (/ 4) with ((/ 2) * (/ 2)) by field. rewrite sqrt_square by lra. unfold Rdiv. ring.
  - rewrite !sqrt_neg_0 by lra. lra.
Qed.


(** ** E9: θ's centre and P(F_i = 1) in Appendix E

    F_i = 1 iff client i does not drop out, with dropout probability p. *)

Definition survive_prob_as_printed (p : R) : R := p.
Definition survive_prob_intended (p : R) : R := 1 - p.
Definition theta_centre_as_printed (p : R) : R := p * (1 - p).
Definition theta_centre_intended (p : R) : R := 1 - p.

(** For every dropout probability p ∈ (0, 1) the printed centre is below the survivors' mean
    fraction 1 − p (by the factor p), and P(F_i = 1) is misprinted unless p = 1/2. *)
Theorem E9_theta_centre_below (p : R) : 0 < p -> p < 1 ->
  theta_centre_as_printed p < theta_centre_intended p.
Proof. intros H0 H1. unfold theta_centre_as_printed, theta_centre_intended. nra. Qed.

Theorem E9_survive_prob_differs (p : R) : p <> 1/2 ->
  survive_prob_as_printed p <> survive_prob_intended p.
Proof.
  intros H E. unfold survive_prob_as_printed, survive_prob_intended in E. apply H. lra.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Errata_theorems :=
  (@E0_pm_unbiased,
   @E0_01_biased,
   @E1_alpha_as_printed_negative,
   @E1_alpha_differs,
   @E2_differs,
   @E3_differs,
   @E6_differs,
   @E7_differs,
   @E7_safe,
   @E8_printed_is_half,
   @E9_theta_centre_below,
   @E9_survive_prob_differs).
Print Assumptions Errata_theorems.
