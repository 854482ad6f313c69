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
        weaker than the true one. Verdict: erratum (safe direction). Proved from a model of the
        mechanism, not only as arithmetic on a number S: the n = 2p clients' outputs are drawn
        pair by pair, each pair with CorBinQ's joint law (Defs.joint), the joint law of all
        outputs being the product of the pairs' laws (Sums.pexp). From the product law alone,
        clients of different pairs are uncorrelated, Σ_{i≠i'} Cov = Σ_i Cov(W̄_i, W̄_{p_i}) and
        Var(W̄) = (Σ_i Var W̄_i + Σ_i Cov(W̄_i, W̄_{p_i}))/n² ([E7_cov_other_pairs],
        [E7_cross_cov_partners], [E7_variance], for any pairing and any finite pair laws); from
        CorBinQ's law, every partner covariance is ≤ 0 for every d ([corbinq_pair_cov_nonpos],
        Chebyshev's sum inequality over Z); hence for CorBin-FL's aggregate the true term is
        S/n², the printed S/(2n²) differs whenever S ≠ 0 and is never below it ([E7_cbfl]), and
        S ≠ 0 occurs: d = 1, every input at c, S = −n r²α² ([E7_cbfl_center]). Roles fixed: client 2j
        plays Q1 (Aggregate.v also reads the roles as drawn by Alg. 3's coins Y; not modelled
        here); the pairing is given (Alg. 3 draws it, the analysis conditions on it, and any
        pairing is a relabelling of the clients).
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

From Coq Require Import Reals Lra Lia.
From Interval Require Import Tactic.
From Corbin Require Import Defs Alpha Sums Facts T1a.
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
    First the two sides of the printed equation as functions of n and S; then (from "The
    aggregate as a product of pair laws" on) S is the mechanism's: the first display is derived
    from a model of Algorithm 3's outputs, and S ≤ 0 from CorBinQ's law ([E7_cbfl],
    [E7_cbfl_center]). *)

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

(** Safe direction: the covariances are ≤ 0 (S ≤ 0; for CorBinQ proved below,
    [corbinq_pair_cov_nonpos]), and then printed ≥ intended. *)
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

(** *** The aggregate as a product of pair laws

    A model of Algorithm 3's outputs for one coordinate: [pm_pairs] pairs, each drawing one of
    finitely many outcomes (k < pm_nout j, probability pm_law j k) independently of the other
    pairs (the joint law of all outputs is the product of the pairs' laws: Sums.pexp); client
    i < pm_clients belongs to pair pm_grp i, its partner is pm_ptn i, and its output W̄_i is
    pm_val i applied to its pair's outcome. *)
Record pairs_model := {
  pm_pairs : nat; pm_clients : nat; pm_nout : nat -> nat; pm_law : nat -> nat -> R;
  pm_val : nat -> nat -> R; pm_grp : nat -> nat; pm_ptn : nat -> nat }.

(** A pairing: every client's pair is one of the p pairs and holds exactly the client and its
    partner, another client. *)
Definition pairing (n p : nat) (grp pt : nat -> nat) : Prop :=
  forall i, (i < n)%nat -> (grp i < p)%nat /\ (pt i < n)%nat /\ pt i <> i /\
    forall i', (i' < n)%nat -> (grp i' = grp i <-> i' = i \/ i' = pt i).

(** Each pair's law is a probability law on its outcomes. *)
Definition pm_ok (M : pairs_model) : Prop :=
  pairing (pm_clients M) (pm_pairs M) (pm_grp M) (pm_ptn M) /\
  (forall j, (j < pm_pairs M)%nat -> (forall k, (k < pm_nout M j)%nat -> 0 <= pm_law M j k)) /\
  laws_sum_1 (pm_pairs M) (pm_nout M) (pm_law M).

Definition pm_W (M : pairs_model) (i : nat) : (nat -> nat) -> R := fun o => pm_val M i (o (pm_grp M i)).
Definition pm_cov (M : pairs_model) (X Y : (nat -> nat) -> R) : R := pcov (pm_pairs M) (pm_nout M) (pm_law M) X Y.
(** W̄ = (1/n) Σ_i W̄_i, the server's average (Alg. 3, line 23). *)
Definition pm_avg (M : pairs_model) : (nat -> nat) -> R :=
  fun o => / INR (pm_clients M) * fsum (pm_clients M) (fun i => pm_W M i o).
(** Σ_{i≠i'} Cov(W̄_i, W̄_i'), Σ_i Cov(W̄_i, W̄_{p_i}) and Σ_i Var(W̄_i). *)
Definition pm_cross_cov (M : pairs_model) : R :=
  fsum (pm_clients M) (fun i => fsum (pm_clients M) (fun i' =>
    if (i =? i')%nat then 0 else pm_cov M (pm_W M i) (pm_W M i'))).
Definition pm_partner_cov (M : pairs_model) : R :=
  fsum (pm_clients M) (fun i => pm_cov M (pm_W M i) (pm_W M (pm_ptn M i))).
Definition pm_var_sum (M : pairs_model) : R :=
  fsum (pm_clients M) (fun i => pm_cov M (pm_W M i) (pm_W M i)).

(** (a) Clients of different pairs are uncorrelated: from the product law. *)
Theorem E7_cov_other_pairs (M : pairs_model) (i i' : nat) : pm_ok M ->
  (i < pm_clients M)%nat -> (i' < pm_clients M)%nat -> pm_grp M i <> pm_grp M i' ->
  pm_cov M (pm_W M i) (pm_W M i') = 0.
Proof.
  intros [P [_ L]] Hi Hi' D. destruct (P i Hi) as [Gi _]. destruct (P i' Hi') as [Gi' _].
  apply pcov_groups; assumption.
Qed.

(** (b) Only partners are correlated and each client has one: Σ_{i≠i'} Cov = Σ_i Cov(W̄_i, W̄_{p_i}). *)
Theorem E7_cross_cov_partners (M : pairs_model) : pm_ok M -> pm_cross_cov M = pm_partner_cov M.
Proof.
  intros Hok. pose proof Hok as [P _]. unfold pm_cross_cov, pm_partner_cov. apply fsum_ext. intros i Hi.
  destruct (P i Hi) as [_ [Hpt [Dpt G]]].
  assert (Z : forall i', (i' < pm_clients M)%nat -> i' <> pm_ptn M i ->
    (if (i =? i')%nat then 0 else pm_cov M (pm_W M i) (pm_W M i')) = 0).
  { intros i' Hi' Ne. destruct (Nat.eqb_spec i i') as [E|E]; [reflexivity|].
    apply E7_cov_other_pairs; try assumption. intros Eg. symmetry in Eg.
    destruct (proj1 (G i' Hi') Eg) as [F|F]; [apply E; symmetry; exact F|exact (Ne F)]. }
  rewrite (fsum_single _ (pm_ptn M i) _ Hpt Z).
  destruct (Nat.eqb_spec i (pm_ptn M i)) as [E|E]; [exfalso; apply Dpt; symmetry; exact E|reflexivity].
Qed.

(** ... hence Var((1/n) Σ_i W̄_i) = (1/n²)(Σ_i Var(W̄_i) + Σ_i Cov(W̄_i, W̄_{p_i})). *)
Theorem E7_variance (M : pairs_model) : pm_ok M -> (0 < pm_clients M)%nat ->
  pm_cov M (pm_avg M) (pm_avg M) = (pm_var_sum M + pm_partner_cov M) / INR (pm_clients M) ^ 2.
Proof.
  intros Hok Hn. pose proof (lt_0_INR _ Hn) as N.
  unfold pm_cov, pm_avg. rewrite pcov_scal, pcov_fsum, fsum_diag_split.
  fold (pm_var_sum M). unfold pm_var_sum, pm_cov.
  rewrite <- (E7_cross_cov_partners M Hok). unfold pm_cross_cov, pm_cov.
  field. lra.
Qed.

(** A partner's covariance, from the pair's law alone. *)
Lemma E7_partner_cov_pair (M : pairs_model) (i : nat) : pm_ok M -> (i < pm_clients M)%nat ->
  let j := pm_grp M i in
  pm_cov M (pm_W M i) (pm_W M (pm_ptn M i)) =
  fsum (pm_nout M j) (fun k => pm_law M j k * (pm_val M i k * pm_val M (pm_ptn M i) k)) -
  fsum (pm_nout M j) (fun k => pm_law M j k * pm_val M i k) *
  fsum (pm_nout M j) (fun k => pm_law M j k * pm_val M (pm_ptn M i) k).
Proof.
  intros [P [_ L]] Hi j. destruct (P i Hi) as [Gi [Hpt [_ G]]].
  assert (E : pm_grp M (pm_ptn M i) = j) by (apply (G _ Hpt); right; reflexivity).
  unfold pm_cov, pm_W. rewrite E. apply pcov_same_group; assumption.
Qed.

(** *** CorBin-FL's aggregate (Algorithm 3) at d shared bits

    n = 2p clients; pair j is clients 2j (Q1 of Algorithm 2, input y1 j) and 2j + 1 (Q2, input
    y2 j): any other pairing is a relabelling of the clients, which leaves every sum over i
    unchanged. Pair j's outcome k < 4 is its sign pair (s1, s2) = (k ≤ 1, k even), with CorBinQ's
    joint law [Defs.joint] (over the pair's own Z and both members' private coins); the pairs draw
    these independently: [cbfl_model]'s expectations are under the product of the pairs' laws. *)
Definition s1_of (k : nat) : bool := (k <=? 1)%nat.
Definition s2_of (k : nat) : bool := Nat.even k.

Definition cbfl_model (d : nat) (e c r : R) (p : nat) (y1 y2 : nat -> R) : pairs_model :=
  {| pm_pairs := p; pm_clients := 2 * p; pm_nout := fun _ => 4%nat;
     pm_law := fun j k => joint d (corbinq d e c r) (y1 j) (y2 j) (s1_of k) (s2_of k);
     pm_val := fun i k => level (corbinq d e c r) (if (i mod 2 =? 0)%nat then s1_of k else s2_of k);
     pm_grp := fun i => (i / 2)%nat;
     pm_ptn := fun i => if (i mod 2 =? 0)%nat then S i else pred i |}.

Lemma half (i : nat) : i = (2 * (i / 2) + i mod 2)%nat /\ (i mod 2 < 2)%nat.
Proof. split; [apply Nat.div_mod_eq|apply Nat.mod_upper_bound; lia]. Qed.

Lemma cbfl_pairing (p : nat) :
  pairing (2 * p) p (fun i => (i / 2)%nat) (fun i => if (i mod 2 =? 0)%nat then S i else pred i).
Proof.
  intros i Hi. pose proof (half i) as [Ei Bi].
  destruct (Nat.eqb_spec (i mod 2) 0) as [Z|Z].
  - split; [lia|split; [lia|split; [lia|]]].
    intros i' Hi'. pose proof (half i') as [Ei' Bi']. split; intros H; lia.
  - split; [lia|split; [lia|split; [lia|]]].
    intros i' Hi'. pose proof (half i') as [Ei' Bi']. split; intros H; lia.
Qed.

Lemma cbfl_laws_sum_1 (d : nat) (e c r : R) (p : nat) (y1 y2 : nat -> R) :
  laws_sum_1 p (fun _ => 4%nat) (fun j k => joint d (corbinq d e c r) (y1 j) (y2 j) (s1_of k) (s2_of k)).
Proof.
  intros j _. simpl. destruct (joint_cells d (corbinq d e c r) (y1 j) (y2 j)) as [A [B [C D]]].
  unfold s1_of, s2_of. simpl. rewrite A, B, C, D. ring.
Qed.

Definition inputs_in_range (c r : R) (p : nat) (y1 y2 : nat -> R) : Prop :=
  forall j, (j < p)%nat -> in_range c r (y1 j) /\ in_range c r (y2 j).

Theorem cbfl_model_ok (d : nat) (e c r : R) (p : nat) (y1 y2 : nat -> R) :
  0 < e -> 0 < r -> inputs_in_range c r p y1 y2 -> pm_ok (cbfl_model d e c r p y1 y2).
Proof.
  intros He Hr Hy. split; [apply cbfl_pairing|split; [|apply cbfl_laws_sum_1]].
  intros j Hj k _. simpl. destruct (Hy j Hj) as [H1 H2]. apply joint_nonneg. intros z Hz. split.
  - exact (proj1 (proj1 (corbinq_C4 d e c r He Hr (y1 j) H1) z Hz)).
  - exact (proj2 (proj1 (corbinq_C4 d e c r He Hr (y2 j) H2) z Hz)).
Qed.

(** Cov(Q1, Q2) of a pair: (γ2 − γ1)² (E_Z(p1 p2) − E_Z(p1) E_Z(p2)) (Q1 and Q2 are independent
    given Z). *)
Definition pair_cov (d : nat) (P : pair) (w w' : R) : R :=
  (phi P - plo P) ^ 2 * (avgZ d (fun z => p1 P w z * p2 P w' z) - avgZ d (p1 P w) * avgZ d (p2 P w')).

Lemma pair_cov_cells (d : nat) (P : pair) (w w' : R) :
  let f := fun k => joint d P w w' (s1_of k) (s2_of k) in
  fsum 4 (fun k => f k * (level P (s1_of k) * level P (s2_of k))) -
  fsum 4 (fun k => f k * level P (s1_of k)) * fsum 4 (fun k => f k * level P (s2_of k)) =
  pair_cov d P w w'.
Proof.
  intros f. unfold f, pair_cov, s1_of, s2_of. simpl.
  destruct (joint_cells d P w w') as [A [B [C D]]]. rewrite A, B, C, D. ring.
Qed.

(** Each client's covariance with its partner is its pair's Cov(Q1, Q2). *)
Theorem cbfl_partner_cov (d : nat) (e c r : R) (p : nat) (y1 y2 : nat -> R) (i : nat) :
  0 < e -> 0 < r -> inputs_in_range c r p y1 y2 -> (i < 2 * p)%nat ->
  let M := cbfl_model d e c r p y1 y2 in
  pm_cov M (pm_W M i) (pm_W M (pm_ptn M i)) =
  pair_cov d (corbinq d e c r) (y1 (i / 2)%nat) (y2 (i / 2)%nat).
Proof.
  intros He Hr Hy Hi M. rewrite (E7_partner_cov_pair M i (cbfl_model_ok d e c r p y1 y2 He Hr Hy) Hi).
  rewrite <- pair_cov_cells. unfold M, cbfl_model. cbn [pm_nout pm_law pm_val pm_ptn pm_grp].
  pose proof (half i) as [Ei Bi]. pose proof (half (S i)) as [Es Bs].
  pose proof (half (pred i)) as [Ep Bp].
  destruct (Nat.lt_ge_cases (i mod 2) 1) as [Z|Z].
  - assert (B1 : (i mod 2 =? 0)%nat = true) by (apply Nat.eqb_eq; lia).
    assert (B2 : (S i mod 2 =? 0)%nat = false) by (apply Nat.eqb_neq; lia).
    rewrite B1. cbv beta iota. rewrite B2. reflexivity.
  - assert (B1 : (i mod 2 =? 0)%nat = false) by (apply Nat.eqb_neq; lia).
    assert (B2 : (pred i mod 2 =? 0)%nat = true) by (apply Nat.eqb_eq; lia).
    rewrite B1. cbv beta iota. rewrite B2.
    rewrite (fsum_ext 4 (fun k => _ * (level _ (s2_of k) * level _ (s1_of k)))
               (fun k => joint d (corbinq d e c r) (y1 (i / 2)%nat) (y2 (i / 2)%nat) (s1_of k) (s2_of k) *
                         (level (corbinq d e c r) (s1_of k) * level (corbinq d e c r) (s2_of k))))
      by (intros; ring).
    ring.
Qed.

(** CorBinQ's partners are never positively correlated: given Z the two are independent,
    P(Q1 = c + rα | Z = z) = step(u, z) falls and P(Q2 = c + rα | Z = z) = 1 − step(v, z) rises
    with z, and Chebyshev's sum inequality gives E_Z(p1 p2) ≤ E_Z(p1) E_Z(p2). For every d. *)
Theorem corbinq_pair_cov_nonpos (d : nat) (e c r w w' : R) : 0 < e -> 0 < r ->
  in_range c r w -> in_range c r w' -> pair_cov d (corbinq d e c r) w w' <= 0.
Proof.
  intros He Hr Hw Hw'. unfold pair_cov. simpl p1. simpl p2.
  pose proof (u_range d e c r He Hr w Hw) as [U _]. pose proof (v_range d e c r He Hr w' Hw') as [V _].
  pose proof (avgZ_chebyshev d (fun z => step (u_of d (alpha e) c r w) z)
                (fun z => 1 - step (v_of d (alpha e) c r w') z)
                (fun i j H => step_antitone _ i j U (proj1 H))
                (fun i j H => ltac:(pose proof (step_antitone _ i j V (proj1 H)); lra))) as Ch.
  cbv beta in Ch. pose proof (pow2_ge_0 (phi (corbinq d e c r) - plo (corbinq d e c r))). nra.
Qed.

(** At d = 1 with both inputs at c, Q1 = c + rα iff Z = 0 and Q2 = c + rα iff Z = 1: the partners
    are exactly opposite, Cov(Q1, Q2) = −r²α². *)
Lemma corbinq_pair_cov_center (e c r : R) : 0 < e -> 0 < r ->
  pair_cov 1 (corbinq 1 e c r) c c = - (r * alpha e) ^ 2.
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He) as Ha.
  assert (U : u_of 1 (alpha e) c r c = 1) by (unfold u_of, ldpq_q, nZ; simpl; field; lra).
  assert (V : v_of 1 (alpha e) c r c = 1) by (unfold v_of, ldpq_q, nZ; simpl; field; lra).
  assert (F : fl 1 = 1%nat) by (unfold fl; rewrite (Int_part_spec 1 1) by lra; reflexivity).
  assert (S0 : step 1 0 = 1) by (unfold step; rewrite F; reflexivity).
  assert (S1 : step 1 1 = 0) by (unfold step, fr; rewrite F; simpl; ring).
  unfold pair_cov, avgZ. simpl p1. simpl p2. simpl phi. simpl plo. rewrite U, V.
  change (nZ 1) with 2%nat. simpl fsum. rewrite S0, S1. simpl INR. field.
Qed.

(** *** E7 for CorBin-FL's aggregate

    From the product law: clients of different pairs are uncorrelated, so
    (1/n²) Σ_{i≠i'} Cov(W̄_i, W̄_i') = S/n² (cov_term_intended) with S = Σ_i Cov(W̄_i, W̄_{p_i}),
    and Var(W̄) = (Σ_i Var W̄_i + S)/n²; S ≤ 0 from CorBinQ's law, so the printed S/(2n²) is
    never below the true term and differs from it whenever S ≠ 0. *)
Theorem E7_cbfl (d p : nat) (e c r : R) (y1 y2 : nat -> R) :
  0 < e -> 0 < r -> (1 <= p)%nat -> inputs_in_range c r p y1 y2 ->
  let M := cbfl_model d e c r p y1 y2 in
  let n := INR (2 * p) in
  let S := pm_partner_cov M in
  (forall i i', (i < 2 * p)%nat -> (i' < 2 * p)%nat -> (i / 2 <> i' / 2)%nat ->
     pm_cov M (pm_W M i) (pm_W M i') = 0) /\
  pm_cross_cov M = S /\
  pm_cov M (pm_avg M) (pm_avg M) = (pm_var_sum M + S) / n ^ 2 /\
  S = fsum (2 * p) (fun i => pair_cov d (corbinq d e c r) (y1 (i / 2)%nat) (y2 (i / 2)%nat)) /\
  S <= 0 /\
  pm_cross_cov M / n ^ 2 = cov_term_intended n S /\
  (S <> 0 -> pm_cross_cov M / n ^ 2 <> cov_term_as_printed n S) /\
  pm_cross_cov M / n ^ 2 <= cov_term_as_printed n S.
Proof.
  intros He Hr Hp Hy M n S.
  pose proof (cbfl_model_ok d e c r p y1 y2 He Hr Hy) as Hok. fold M in Hok.
  assert (Hn : 0 < n) by (apply lt_0_INR; lia).
  assert (C : pm_cross_cov M = S) by apply (E7_cross_cov_partners M Hok).
  assert (SE : S = fsum (2 * p) (fun i => pair_cov d (corbinq d e c r) (y1 (i / 2)%nat) (y2 (i / 2)%nat))).
  { unfold S, pm_partner_cov. apply fsum_ext. intros i Hi. apply cbfl_partner_cov; assumption. }
  assert (SN : S <= 0).
  { rewrite SE, <- (Rmult_0_r (INR (2 * p))), <- fsum_const. apply fsum_le. intros i Hi.
    assert (Hj : (i / 2 < p)%nat) by (pose proof (half i); lia).
    destruct (Hy _ Hj). apply corbinq_pair_cov_nonpos; assumption. }
  assert (I : pm_cross_cov M / n ^ 2 = cov_term_intended n S) by (rewrite C; reflexivity).
  split; [|split; [exact C|split; [|split; [exact SE|split; [exact SN|split; [exact I|split]]]]]].
  - intros i i' Hi Hi' D. apply E7_cov_other_pairs; assumption.
  - apply E7_variance; [exact Hok|simpl; lia].
  - intros HS. rewrite I. intros E. apply (E7_differs n S Hn HS). symmetry. exact E.
  - rewrite I. apply E7_safe; assumption.
Qed.

(** The sum is not 0: at d = 1 with every input at c, S = −n r²α² < 0, and the printed step's
    value is strictly above the true one. *)
Theorem E7_cbfl_center (p : nat) (e c r : R) : 0 < e -> 0 < r -> (1 <= p)%nat ->
  let M := cbfl_model 1 e c r p (fun _ => c) (fun _ => c) in
  let n := INR (2 * p) in
  pm_partner_cov M = - n * (r * alpha e) ^ 2 /\ pm_partner_cov M < 0 /\
  pm_cross_cov M / n ^ 2 <> cov_term_as_printed n (pm_partner_cov M) /\
  pm_cross_cov M / n ^ 2 < cov_term_as_printed n (pm_partner_cov M).
Proof.
  intros He Hr Hp M n. pose proof (alpha_gt_1 e He) as Ha.
  assert (Hy : inputs_in_range c r p (fun _ => c) (fun _ => c))
    by (intros j _; split; apply in_range_center; exact Hr).
  destruct (E7_cbfl 1 p e c r (fun _ => c) (fun _ => c) He Hr Hp Hy)
    as [_ [_ [_ [SE [_ [_ [D L]]]]]]].
  fold M n in SE, D, L.
  assert (V : pm_partner_cov M = - n * (r * alpha e) ^ 2).
  { rewrite SE. rewrite (fsum_ext _ _ (fun _ => - (r * alpha e) ^ 2))
      by (intros; apply corbinq_pair_cov_center; assumption).
    rewrite fsum_const. fold n. ring. }
  assert (Hn : 0 < n) by (apply lt_0_INR; lia).
  assert (N : pm_partner_cov M < 0).
  { rewrite V. pose proof (pow_lt (r * alpha e) 2 (Rmult_lt_0_compat r (alpha e) Hr ltac:(lra))).
    pose proof (Rmult_lt_0_compat _ _ Hn H). lra. }
  split; [exact V|split; [exact N|]].
  assert (D' : pm_cross_cov M / n ^ 2 <> cov_term_as_printed n (pm_partner_cov M)) by (apply D; lra).
  split; [exact D'|]. destruct L as [L|L]; [exact L|contradiction].
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
   @E7_cov_other_pairs,
   @E7_cross_cov_partners,
   @E7_variance,
   @cbfl_model_ok,
   @cbfl_partner_cov,
   @corbinq_pair_cov_nonpos,
   @corbinq_pair_cov_center,
   @E7_cbfl,
   @E7_cbfl_center,
   @E8_printed_is_half,
   @E9_theta_centre_below,
   @E9_survive_prob_differs).
Print Assumptions Errata_theorems.
