(** * G1 — "the Gaussian baseline is ε_p-PLDP in the sense of Eq. (3)"

    Where. Abstract: the mechanisms "outperform existing differentially private FL mechanisms,
    including Gaussian and Laplacian mechanisms, in terms of model accuracy under equal PLDP
    privacy budgets"; conclusion: "improved model accuracy compared to existing methods under
    equal PLDP privacy budgets"; Experiment 1: "with a PLDP budget of ε_p = 5 using the Gaussian,
    Laplacian, LPD-FL, CorBin-FL, and AugCorBin-FL mechanisms. For the Gaussian mechanism, we find
    the noise variance using the bound in [Balle and Wang 2018]".

    Eq. (3) (label eq:LDP, Section 2.2): "a mechanism M is said to achieve ε_p-PLDP if:
      max_{j∈[m]} P(W̄_{i,j} ∈ 𝒯) / P(W̄'_{i,j} ∈ 𝒯) ≤ e^{ε_p},
    for all i ∈ [n], where 𝒯 ⊆ ℝ^m, W̄_i = M(w_i, Z^{d×m}) and W̄'_i = M(w'_i, Z^{d×m}), and
    w_i, w'_i ∈ ℝ^m". Each coordinate W̄_{i,j} is a real, so the events are W̄_{i,j} ∈ 𝒯 for sets
    𝒯 of reals. As in Defs.C2 the ratio is read multiplicatively, P(W ∈ 𝒯) ≤ e^ε P(W' ∈ 𝒯).

    The Gaussian baseline (REFERENCES.md, analytic Gaussian mechanism): per coordinate, the client
    sends W = w + N(0, σ²), with σ calibrated (Balle–Wang) to (ε_p, δ = 1e-5) for sensitivity
    Δ = 2r, inputs w ∈ [c − r, c + r]. Nothing below depends on how σ is chosen: every σ > 0 fails.
    W has density f_w(y) = exp(−(y − w)²/(2σ²))/(σ√(2π)); P(W ∈ [a, b]) = ∫_a^b f_w (coquelicot's
    RInt).

    Readings and verdicts (for every ε > 0, r > 0, σ > 0, c):
    - G1_claim_intervals: Eq. (3) restricted to the events W ∈ [t, t + 1] (a necessary condition of
      Eq. (3), which quantifies over all 𝒯). Verdict: fails. Witness: w = c + r, w' = c − r,
      t = c + (ε + 1)σ²/(2r); there f_w(y)/f_{w'}(y) = exp(2r(y − c)/σ²) ≥ e^{ε+1} on the whole
      interval, so P(W ∈ [t, t+1]) ≥ e^{ε+1} P(W' ∈ [t, t+1]) > e^ε P(W' ∈ [t, t+1]) (Theorem G1).
    - G1_claim_density: the density form f_w(y) ≤ e^ε f_{w'}(y) for all y. Verdict: fails, at
      the same w, w' and y = t (Theorem G1_density).
    More generally, for any in-range w ≠ w' the density ratio
      exp(((y − w')² − (y − w)²)/(2σ²)) = exp((w − w')(2y − w − w')/(2σ²))
    equals exp(E + 1) at y = (w + w')/2 + (E + 1)σ²/(w − w'), for every real E: it is unbounded
    in y (gauss_ratio_at, gauss_ratio_unbounded). Gaussian noise is never ε-PLDP for any finite ε;
    it is only (ε, δ)-DP, so "equal PLDP budgets" does not hold for the Gaussian baseline. *)

From Coq Require Import Reals Lra.
From Coquelicot Require Import Coquelicot.
From Corbin Require Import Defs.
Open Scope R_scope.

(** ** The Gaussian baseline's law, per coordinate *)

(** Density of W = mu + N(0, s²). *)
Definition gauss_pdf (s mu y : R) : R := exp (- (y - mu)^2 / (2 * s^2)) / (s * sqrt (2 * PI)).

(** P(W ∈ [a, b]). *)
Definition gauss_prob (s mu a b : R) : R := RInt (gauss_pdf s mu) a b.

(** The density ratio f_w(y)/f_{w'}(y), in the form given in the brief. *)
Definition gauss_ratio (s w w' y : R) : R := exp (((y - w')^2 - (y - w)^2) / (2 * s^2)).

(** ** The two readings of Eq. (3) for the Gaussian baseline with noise s, inputs in [c − r, c + r] *)

Definition G1_claim_intervals (e c r s : R) : Prop :=
  forall w w' t, in_range c r w -> in_range c r w' ->
    gauss_prob s w t (t + 1) <= exp e * gauss_prob s w' t (t + 1).

Definition G1_claim_density (e c r s : R) : Prop :=
  forall w w' y, in_range c r w -> in_range c r w' ->
    gauss_pdf s w y <= exp e * gauss_pdf s w' y.

(** ** Facts about the density *)

Lemma sqrt_2PI_pos : 0 < sqrt (2 * PI).
Proof. apply sqrt_lt_R0. pose proof PI_RGT_0. lra. Qed.

Lemma gauss_pdf_pos (s mu y : R) : 0 < s -> 0 < gauss_pdf s mu y.
Proof.
  intros Hs. unfold gauss_pdf. apply Rdiv_lt_0_compat; [apply exp_pos|].
  pose proof sqrt_2PI_pos. nra.
Qed.

Lemma gauss_pdf_cont (s mu y : R) : 0 < s -> continuous (gauss_pdf s mu) y.
Proof.
  intros Hs. apply (ex_derive_continuous (gauss_pdf s mu)). unfold gauss_pdf. auto_derive.
  pose proof sqrt_2PI_pos. repeat split; nra.
Qed.

Lemma gauss_ex_RInt (s mu a b : R) : 0 < s -> ex_RInt (gauss_pdf s mu) a b.
Proof. intros Hs. apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _. apply gauss_pdf_cont, Hs. Qed.

Lemma exp_mono (x y : R) : x <= y -> exp x <= exp y.
Proof. intros [H|H]; [left; apply exp_increasing, H|right; rewrite H; reflexivity]. Qed.

(** f_w(y) = exp((w − w')(2y − w − w')/(2s²)) f_{w'}(y), and the ratio's two forms agree. *)
Lemma gauss_pdf_ratio (s w w' y : R) : 0 < s ->
  gauss_pdf s w y = exp ((w - w') * (2 * y - w - w') / (2 * s^2)) * gauss_pdf s w' y.
Proof.
  intros Hs. unfold gauss_pdf. pose proof sqrt_2PI_pos.
  replace (- (y - w)^2 / (2 * s^2))
    with ((w - w') * (2 * y - w - w') / (2 * s^2) + - (y - w')^2 / (2 * s^2)) by (field; lra).
  rewrite exp_plus. field. split; lra.
Qed.

Lemma gauss_ratio_eq (s w w' y : R) : 0 < s ->
  gauss_ratio s w w' y = exp ((w - w') * (2 * y - w - w') / (2 * s^2)) /\
  gauss_pdf s w y = gauss_ratio s w w' y * gauss_pdf s w' y.
Proof.
  intros Hs. assert (E : gauss_ratio s w w' y = exp ((w - w') * (2 * y - w - w') / (2 * s^2))).
  { unfold gauss_ratio. f_equal. field. lra. }
  split; [exact E|]. rewrite E. apply gauss_pdf_ratio, Hs.
Qed.

(** ** The density ratio is unbounded: the failing y for a given budget, explicitly *)

Definition y_fail (E s w w' : R) : R := (w + w') / 2 + (E + 1) * s^2 / (w - w').

(** For every real E and w ≠ w': the ratio at y_fail is e^{E+1} > e^E. *)
Theorem gauss_ratio_at (E s w w' : R) : 0 < s -> w <> w' ->
  gauss_ratio s w w' (y_fail E s w w') = exp (E + 1) /\ exp E < gauss_ratio s w w' (y_fail E s w w').
Proof.
  intros Hs Hw. destruct (gauss_ratio_eq s w w' (y_fail E s w w') Hs) as [R0 _].
  assert (X : (w - w') * (2 * y_fail E s w w' - w - w') / (2 * s^2) = E + 1).
  { unfold y_fail. field. split; [lra|]. intros H. apply Hw. lra. }
  rewrite R0, X. split; [reflexivity|]. apply exp_increasing. lra.
Qed.

(** Unbounded: above any K > 0 (take E = ln K). *)
Theorem gauss_ratio_unbounded (s w w' : R) : 0 < s -> w <> w' ->
  forall K, 0 < K -> exists y, K < gauss_ratio s w w' y.
Proof.
  intros Hs Hw K HK. exists (y_fail (ln K) s w w').
  destruct (gauss_ratio_at (ln K) s w w' Hs Hw) as [_ L]. rewrite exp_ln in L by exact HK. exact L.
Qed.

(** ** The interval [t, t + 1] with t = y_fail: the probability ratio exceeds e^E *)

Lemma interval_ratio (E s w w' : R) : 0 < s -> w' < w ->
  let t := y_fail E s w w' in
  exp (E + 1) * gauss_prob s w' t (t + 1) <= gauss_prob s w t (t + 1) /\
  0 < gauss_prob s w' t (t + 1).
Proof.
  intros Hs Hw t. split.
  - unfold gauss_prob.
    assert (S : RInt (fun x => exp (E + 1) * gauss_pdf s w' x) t (t + 1)
                = exp (E + 1) * RInt (gauss_pdf s w') t (t + 1)).
    { apply (RInt_scal (V := R_CompleteNormedModule)). apply gauss_ex_RInt, Hs. }
    rewrite <- S. apply RInt_le; [lra| |apply gauss_ex_RInt, Hs|].
    + apply (ex_RInt_scal (V := R_NormedModule)). apply gauss_ex_RInt, Hs.
    + intros x [Hx _]. rewrite (gauss_pdf_ratio s w w' x Hs).
      apply Rmult_le_compat_r; [left; apply gauss_pdf_pos, Hs|].
      (* the exponent increases in x, and equals E + 1 at x = t *)
      assert (X : (w - w') * (2 * t - w - w') / (2 * s^2) = E + 1).
      { unfold t, y_fail. field. split; lra. }
      rewrite <- X. apply exp_mono. unfold Rdiv.
      apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; nra|].
      apply Rmult_le_compat_l; lra.
  - unfold gauss_prob. apply RInt_gt_0; [lra| |].
    + intros x _. apply gauss_pdf_pos, Hs.
    + intros x _. apply gauss_pdf_cont, Hs.
Qed.

(** ** Verdicts *)

(** The interval reading fails for every budget ε and every noise level σ: w = c + r, w' = c − r,
    t = c + (ε + 1)σ²/(2r). *)
Theorem G1_witness (e c r s : R) : 0 < r -> 0 < s ->
  let t := c + (e + 1) * s^2 / (2 * r) in
  in_range c r (c + r) /\ in_range c r (c - r) /\
  exp e * gauss_prob s (c - r) t (t + 1) < gauss_prob s (c + r) t (t + 1).
Proof.
  intros Hr Hs t. split; [unfold in_range; lra|]. split; [unfold in_range; lra|].
  destruct (interval_ratio e s (c + r) (c - r) Hs ltac:(lra)) as [L P].
  assert (T : y_fail e s (c + r) (c - r) = t) by (unfold y_fail, t; field; lra).
  rewrite T in L, P.
  assert (exp e < exp (e + 1)) by (apply exp_increasing; lra).
  assert (exp e * gauss_prob s (c - r) t (t + 1) < exp (e + 1) * gauss_prob s (c - r) t (t + 1))
    by (apply Rmult_lt_compat_r; assumption).
  lra.
Qed.

Theorem G1 (e c r s : R) : 0 < e -> 0 < r -> 0 < s -> ~ G1_claim_intervals e c r s.
Proof.
  intros _ Hr Hs H. destruct (G1_witness e c r s Hr Hs) as [A [B C]].
  specialize (H (c + r) (c - r) (c + (e + 1) * s^2 / (2 * r)) A B). lra.
Qed.

(** The density reading fails at the same inputs, at y = t. *)
Theorem G1_density (e c r s : R) : 0 < e -> 0 < r -> 0 < s -> ~ G1_claim_density e c r s.
Proof.
  intros _ Hr Hs H.
  assert (A : in_range c r (c + r)) by (unfold in_range; lra).
  assert (B : in_range c r (c - r)) by (unfold in_range; lra).
  specialize (H (c + r) (c - r) (y_fail e s (c + r) (c - r)) A B).
  destruct (gauss_ratio_at e s (c + r) (c - r) Hs ltac:(lra)) as [_ L].
  destruct (gauss_ratio_eq s (c + r) (c - r) (y_fail e s (c + r) (c - r)) Hs) as [_ E].
  rewrite E in H. pose proof (gauss_pdf_pos s (c - r) (y_fail e s (c + r) (c - r)) Hs).
  nra.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Gauss_theorems :=
  (@gauss_ratio_at,
   @gauss_ratio_unbounded,
   @G1_witness,
   @G1,
   @G1_density).
Print Assumptions Gauss_theorems.
