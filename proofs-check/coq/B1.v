(** * B1 — "the authors' other baselines (PBM, RQM, as configured in their repository) are
    distinct from LDPQ"

    Where: not in the paper (corbin-fl.tex names neither); the claim is the audit's question
    (CLAIMS.md, B1) about the baselines the authors' repository adds (solidlabnetwork/CorbinFL,
    REFERENCES.md, "Baselines of the authors' repository"): is each of them a mechanism of its own,
    or LDPQ (Alg. 1) under another name?

    "As configured": each baseline calibrated to the same budget ε and the same [c − r, c + r]
    as LDPQ, by the formulas of the authors' code: PBM (PBM_PLDP.py) with m = 1 and m = 2 trials
    (main.py's choices, both run by the experiment scripts), θ = tanh(ε/(2m))/2; RQM (RQM_FL.py)
    with m = 2 levels (the only configuration the scripts run) and D = 2/(e^ε − 1). Beside them,
    outside the claim's scope: RQM with m = 3 levels (main.py offers it, the scripts' m = 3
    sweeps are commented out), retention q, D = 2/((1 − q)(e^ε − 1)); and SignSGD, which the
    repository also runs but which has no privacy parameter.

    "Distinct": as measures on the decoded values (atoms with equal values merge, zero atoms do
    not count). A reading per configuration X:
      B1_claim_X : for every ε > 0, c and r > 0 there is an input w ∈ [c − r, c + r] at which
      X's law and LDPQ's law differ.
    Verdicts:
      pbm1 — fails: PBM with m = 1 IS LDPQ: its atom list equals LDPQ's at every ε > 0, c,
             r > 0 and w (pbm1_is_ldpq), so it is refuted at every ε, not only at one.
      rqm2 — fails: the same for RQM with m = 2 (rqm2_is_ldpq).
      pbm2 — holds (proved): at w = c, PBM (m = 2) puts mass 1/2 on c, LDPQ none.
      rqm3 — holds (proved) for every retention q ∈ (0, 1): at w = c, mass q on c, LDPQ none;
             at q = 0 it is LDPQ again (rqm3_q0_is_ldpq).
      signsgd — holds (proved): at w = c SignSGD is a point mass, LDPQ has two atoms of 1/2.
    Since pbm1 and rqm2 fail, so does the claim. Because pbm1_is_ldpq and rqm2_is_ldpq hold at
    every ε, the weaker reading "distinct as mechanisms" (some ε, c, r, w where they differ) fails
    too. *)

From Coq Require Import Reals Lra Lia List.
From Corbin Require Import Defs Alpha Facts.
Import ListNotations.
Open Scope R_scope.

(** ** Finite laws as measures *)

(** A finite output law: its atoms (decoded value, probability). Several atoms may share a value
    (PBM and RQM list one atom per output, whatever its value). *)
Definition law := list (R * R).

(** The probability the law gives to the value v. *)
Fixpoint mass (l : law) (v : R) : R :=
  match l with
  | [] => 0
  | (x, p) :: t => (if Req_EM_T x v then p else 0) + mass t v
  end.

(** Two laws are the same measure: equal mass at every real value. (Defs.same_law compares two
    binary quantizers level by level; the baselines have up to three outputs.) *)
Definition same_measure (l l' : law) : Prop := forall v, mass l v = mass l' v.

(** LDPQ's law at w (Alg. 1), from Defs' LDPQ: c − rα with 1 − q, c + rα with q. *)
Definition ldpq_law (e c r w : R) : law :=
  [(lo (LDPQ e c r), 1 - p_hi (LDPQ e c r) w); (hi (LDPQ e c r), p_hi (LDPQ e c r) w)].

(** ** PBM as the authors run it (PBM_PLDP.py; REFERENCES.md)

    θ = tanh(ε/(2m))/2, written (s − 1)/(2(s + 1)) with s = e^(ε/m) (line 33);
    p = 1/2 + (θ/r)(w − c) (line 63); Z ~ Binomial(m, p); the server gets ŵ = c + (r/θ)(Z/m − 1/2)
    (line 70). *)
Definition pbm_theta (m : nat) (e : R) : R := (exp (e / INR m) - 1) / (2 * (exp (e / INR m) + 1)).
Definition pbm_p (m : nat) (e c r w : R) : R := 1 / 2 + pbm_theta m e / r * (w - c).
Definition pbm_level (m : nat) (e c r : R) (k : nat) : R := c + r / pbm_theta m e * (INR k / INR m - 1 / 2).
Definition pbm_law (m : nat) (e c r w : R) : law :=
  map (fun k => (pbm_level m e c r k, C m k * pbm_p m e c r w ^ k * (1 - pbm_p m e c r w) ^ (m - k)))
      (seq 0 (S m)).

(** ** RQM as the authors run it (RQM_FL.py with RQM.py; REFERENCES.md)

    x = w − c, X = r(1 + D). m = 2: levels c ± X, up with (X + x)/(2X), D = 2/(e^ε − 1).
    m = 3: the middle level c is kept with probability q; out, round between c ± X as for m = 2;
    kept, between c and c + X (x ≥ 0) or c − X and c (x < 0); D = 2/((1 − q)(e^ε − 1)), the root
    the code's brentq finds (rqm3_calibration below). *)
Definition rqm_X (keep_out e r : R) : R := r * (1 + 2 / (keep_out * (exp e - 1))).

Definition rqm2_law (e c r w : R) : law :=
  let X := rqm_X 1 e r in let x := w - c in
  [(c - X, (X - x) / (2 * X)); (c + X, (X + x) / (2 * X))].

Definition rqm3_law (q e c r w : R) : law :=
  let X := rqm_X (1 - q) e r in let x := w - c in
  if Rle_dec 0 x then
    [(c - X, (1 - q) * (X - x) / (2 * X)); (c, q * (X - x) / X);
     (c + X, (1 - q) * (X + x) / (2 * X) + q * x / X)]
  else
    [(c - X, (1 - q) * (X - x) / (2 * X) + q * (- x) / X); (c, q * (X + x) / X);
     (c + X, (1 - q) * (X + x) / (2 * X))].

(** ** SignSGD (signsgd.py): sign(v) of the momentum coordinate, no randomisation, no ε. *)
Definition signsgd_law (v : R) : law :=
  [(-1, if Rlt_dec v 0 then 1 else 0); (0, if Req_EM_T v 0 then 1 else 0); (1, if Rlt_dec 0 v then 1 else 0)].

(** ** The readings *)

Definition B1_claim_pbm1 : Prop := forall e c r, 0 < e -> 0 < r ->
  exists w, in_range c r w /\ ~ same_measure (pbm_law 1 e c r w) (ldpq_law e c r w).
Definition B1_claim_pbm2 : Prop := forall e c r, 0 < e -> 0 < r ->
  exists w, in_range c r w /\ ~ same_measure (pbm_law 2 e c r w) (ldpq_law e c r w).
Definition B1_claim_rqm2 : Prop := forall e c r, 0 < e -> 0 < r ->
  exists w, in_range c r w /\ ~ same_measure (rqm2_law e c r w) (ldpq_law e c r w).
Definition B1_claim_rqm3 : Prop := forall q, 0 < q < 1 -> forall e c r, 0 < e -> 0 < r ->
  exists w, in_range c r w /\ ~ same_measure (rqm3_law q e c r w) (ldpq_law e c r w).
Definition B1_claim_signsgd : Prop := forall e c r, 0 < e -> 0 < r ->
  exists w, in_range c r w /\ ~ same_measure (signsgd_law w) (ldpq_law e c r w).

(** ** Lemmas *)

Lemma mass_eq_refl (l : law) : same_measure l l.
Proof. intros v. reflexivity. Qed.

(** At w = c, LDPQ puts 1/2 on each of two distinct levels: no value has mass 0 < m ≠ 1/2,
    and c itself has none. *)
Lemma ldpq_mass_at_center (e c r v : R) : 0 < e -> 0 < r ->
  mass (ldpq_law e c r c) v = 0 \/ mass (ldpq_law e c r c) v = 1 / 2.
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He) as Ha.
  unfold ldpq_law, LDPQ, ldpq_q. simpl.
  replace (c - c) with 0 by ring.
  destruct (Req_EM_T (c - r * alpha e) v) as [E1|E1];
  destruct (Req_EM_T (c + r * alpha e) v) as [E2|E2].
  - exfalso. nra.
  - right. field. nra.
  - right. field. nra.
  - left. ring.
Qed.

Lemma ldpq_mass_center (e c r : R) : 0 < e -> 0 < r -> mass (ldpq_law e c r c) c = 0.
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He) as Ha.
  unfold ldpq_law, LDPQ. simpl.
  destruct (Req_EM_T (c - r * alpha e) c) as [E1|E1]; [exfalso; nra|].
  destruct (Req_EM_T (c + r * alpha e) c) as [E2|E2]; [exfalso; nra|].
  ring.
Qed.

(** θ = 1/(2α) at m = 1: the PBM levels c ± r/(2θ) are LDPQ's c ± rα. *)
Lemma pbm_theta_1 (e : R) : 0 < e -> pbm_theta 1 e = 1 / (2 * alpha e).
Proof.
  intros He. pose proof (exp_gt_1 e He) as X.
  unfold pbm_theta, alpha. replace (e / INR 1) with e by (simpl; field).
  field. split; lra.
Qed.

Lemma pbm_theta_pos (m : nat) (e : R) : (0 < m)%nat -> 0 < e -> 0 < pbm_theta m e.
Proof.
  intros Hm He. assert (0 < INR m) by (apply lt_0_INR; exact Hm).
  assert (1 < exp (e / INR m)) by (apply exp_gt_1; apply Rdiv_lt_0_compat; lra).
  unfold pbm_theta. apply Rdiv_lt_0_compat; lra.
Qed.

(** PBM with one trial is LDPQ: the two atom lists are equal, at every ε > 0, c, r > 0, w. *)
Theorem pbm1_is_ldpq (e c r w : R) : 0 < e -> 0 < r -> pbm_law 1 e c r w = ldpq_law e c r w.
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He) as Ha.
  unfold pbm_law, pbm_p, pbm_level, ldpq_law, LDPQ, ldpq_q. simpl.
  rewrite pbm_theta_1 by exact He. unfold C. simpl.
  apply (f_equal2 cons); [apply (f_equal2 (@Datatypes.pair R R))|apply (f_equal2 cons); [apply (f_equal2 (@Datatypes.pair R R))|reflexivity]];
    field; nra.
Qed.

(** RQM with two levels is LDPQ: X = r(1 + 2/(e^ε − 1)) = rα. *)
Lemma rqm_X_2 (e r : R) : 0 < e -> rqm_X 1 e r = r * alpha e.
Proof.
  intros He. pose proof (exp_gt_1 e He) as X. unfold rqm_X, alpha. field. lra.
Qed.

Theorem rqm2_is_ldpq (e c r w : R) : 0 < e -> 0 < r -> rqm2_law e c r w = ldpq_law e c r w.
Proof.
  intros He Hr. pose proof (alpha_gt_1 e He) as Ha.
  unfold rqm2_law, ldpq_law, LDPQ, ldpq_q. simpl. rewrite rqm_X_2 by exact He.
  apply (f_equal2 cons); [apply (f_equal2 (@Datatypes.pair R R))|apply (f_equal2 cons); [apply (f_equal2 (@Datatypes.pair R R))|reflexivity]];
    field; nra.
Qed.

(** PBM with two trials at w = c: p = 1/2, so Z = 1 (decoded as c) has probability 1/2. *)
Lemma pbm2_mass_center (e c r : R) : 0 < e -> 0 < r -> mass (pbm_law 2 e c r c) c = 1 / 2.
Proof.
  intros He Hr. pose proof (pbm_theta_pos 2 e ltac:(lia) He) as Ht.
  assert (L0 : pbm_level 2 e c r 0 <> c).
  { unfold pbm_level. simpl. intros E.
    assert (r / pbm_theta 2 e * (0 / (1 + 1) - 1 / 2) = 0) by lra.
    assert (0 < r / pbm_theta 2 e) by (apply Rdiv_lt_0_compat; lra). nra. }
  assert (L2 : pbm_level 2 e c r 2 <> c).
  { unfold pbm_level. simpl. intros E.
    assert (r / pbm_theta 2 e * ((1 + 1) / (1 + 1) - 1 / 2) = 0) by lra.
    assert (0 < r / pbm_theta 2 e) by (apply Rdiv_lt_0_compat; lra).
    replace ((1 + 1) / (1 + 1) - 1 / 2) with (1 / 2) in H by field. nra. }
  assert (L1 : pbm_level 2 e c r 1 = c) by (unfold pbm_level; simpl; field; lra).
  assert (P : pbm_p 2 e c r c = 1 / 2) by (unfold pbm_p; field; lra).
  unfold pbm_law. simpl map. unfold mass.
  destruct (Req_EM_T (pbm_level 2 e c r 0) c) as [E|_]; [contradiction|].
  destruct (Req_EM_T (pbm_level 2 e c r 1) c) as [_|E]; [|contradiction].
  destruct (Req_EM_T (pbm_level 2 e c r 2) c) as [E|_]; [contradiction|].
  rewrite P. unfold C. simpl. field.
Qed.

Theorem pbm2_differs_at_center (e c r : R) : 0 < e -> 0 < r ->
  ~ same_measure (pbm_law 2 e c r c) (ldpq_law e c r c).
Proof.
  intros He Hr S. specialize (S c).
  rewrite pbm2_mass_center, ldpq_mass_center in S by assumption. lra.
Qed.

Lemma rqm_X_pos (k e r : R) : 0 < k -> 0 < e -> 0 < r -> r < rqm_X k e r.
Proof.
  intros Hk He Hr. pose proof (exp_gt_1 e He) as X. unfold rqm_X.
  assert (0 < 2 / (k * (exp e - 1))) by (apply Rdiv_lt_0_compat; nra). nra.
Qed.

(** RQM with three levels at w = c (x = 0): the middle level has probability q. *)
Lemma rqm3_mass_center (q e c r : R) : 0 <= q < 1 -> 0 < e -> 0 < r -> mass (rqm3_law q e c r c) c = q.
Proof.
  intros Hq He Hr. pose proof (rqm_X_pos (1 - q) e r ltac:(lra) He Hr) as HX.
  unfold rqm3_law. replace (c - c) with 0 by ring.
  destruct (Rle_dec 0 0) as [_|N]; [|lra]. unfold mass.
  destruct (Req_EM_T (c - rqm_X (1 - q) e r) c) as [E|_]; [lra|].
  destruct (Req_EM_T c c) as [_|E]; [|contradiction].
  destruct (Req_EM_T (c + rqm_X (1 - q) e r) c) as [E|_]; [lra|].
  field. lra.
Qed.

Theorem rqm3_differs_at_center (q e c r : R) : 0 < q < 1 -> 0 < e -> 0 < r ->
  ~ same_measure (rqm3_law q e c r c) (ldpq_law e c r c).
Proof.
  intros Hq He Hr S. specialize (S c).
  rewrite rqm3_mass_center, ldpq_mass_center in S by (assumption || lra). lra.
Qed.

(** At q = 0 the middle level is never kept and D = 2/(e^ε − 1): RQM with three levels is LDPQ
    (as a measure: its middle atom has probability 0). *)
Theorem rqm3_q0_is_ldpq (e c r w : R) : 0 < e -> 0 < r -> same_measure (rqm3_law 0 e c r w) (ldpq_law e c r w).
Proof.
  intros He Hr v. pose proof (alpha_gt_1 e He) as Ha.
  assert (HX : rqm_X (1 - 0) e r = r * alpha e) by (replace (1 - 0) with 1 by ring; apply rqm_X_2; exact He).
  unfold rqm3_law, ldpq_law, LDPQ, ldpq_q. rewrite HX.
  destruct (Rle_dec 0 (w - c)); simpl;
    destruct (Req_EM_T (c - r * alpha e) v); destruct (Req_EM_T c v); destruct (Req_EM_T (c + r * alpha e) v);
    field; nra.
Qed.

(** SignSGD at any v is a point mass: some value has mass 1. *)
Lemma signsgd_point_mass (v : R) : exists y, mass (signsgd_law v) y = 1.
Proof.
  unfold signsgd_law, mass.
  destruct (Rlt_dec v 0) as [N|N].
  - exists (-1).
    destruct (Req_EM_T (-1) (-1)) as [_|E]; [|lra]. destruct (Req_EM_T v 0) as [E|_]; [lra|].
    destruct (Req_EM_T 0 (-1)) as [E|_]; [lra|]. destruct (Req_EM_T 1 (-1)) as [E|_]; [lra|]. ring.
  - destruct (Req_EM_T v 0) as [Z|Z].
    + exists 0. destruct (Req_EM_T (-1) 0) as [E|_]; [lra|]. destruct (Req_EM_T 0 0) as [_|E]; [|lra].
      destruct (Req_EM_T 1 0) as [E|_]; [lra|]. ring.
    + exists 1. destruct (Rlt_dec 0 v) as [_|P]; [|lra].
      destruct (Req_EM_T (-1) 1) as [E|_]; [lra|]. destruct (Req_EM_T 0 1) as [E|_]; [lra|].
      destruct (Req_EM_T 1 1) as [_|E]; [|lra]. ring.
Qed.

Theorem signsgd_differs_at_center (e c r : R) : 0 < e -> 0 < r ->
  ~ same_measure (signsgd_law c) (ldpq_law e c r c).
Proof.
  intros He Hr S. destruct (signsgd_point_mass c) as [y Y]. specialize (S y). rewrite Y in S.
  destruct (ldpq_mass_at_center e c r y He Hr) as [M|M]; lra.
Qed.

(** ** The calibrations are the code's: the extreme outputs' likelihood ratio between w = c + r
    and w = c − r is exactly e^ε (PBM, m = 1 and 2: outputs Z = m and Z = 0; RQM: c − X). *)
Lemma exp_half_sq (e : R) : exp (e / 2) * exp (e / 2) = exp e.
Proof. rewrite <- exp_plus. f_equal. field. Qed.

Lemma pbm1_calibration (e c r : R) : 0 < e -> 0 < r ->
  pbm_p 1 e c r (c + r) = exp e * pbm_p 1 e c r (c - r).
Proof.
  intros He Hr. pose proof (exp_gt_1 e He) as X. unfold pbm_p, pbm_theta.
  replace (e / INR 1) with e by (simpl; field). field. split; lra.
Qed.

Lemma pbm2_calibration (e c r : R) : 0 < e -> 0 < r ->
  pbm_p 2 e c r (c + r) ^ 2 = exp e * pbm_p 2 e c r (c - r) ^ 2.
Proof.
  intros He Hr. assert (X : 1 < exp (e / 2)) by (apply exp_gt_1; lra).
  rewrite <- exp_half_sq. unfold pbm_p, pbm_theta.
  replace (e / INR 2) with (e / 2) by (simpl; field). field. split; lra.
Qed.

(** RQM m = 3 (m = 2 is q = 0): P(c − X) at x = −r against x = r. *)
Lemma rqm3_calibration (q e c r : R) : 0 <= q < 1 -> 0 < e -> 0 < r ->
  match rqm3_law q e c r (c - r), rqm3_law q e c r (c + r) with
  | (_, p_lo) :: _, (_, p_hi) :: _ => p_lo = exp e * p_hi
  | _, _ => False
  end.
Proof.
  intros Hq He Hr. pose proof (exp_gt_1 e He) as X.
  pose proof (rqm_X_pos (1 - q) e r ltac:(lra) He Hr) as HX.
  unfold rqm3_law. replace (c - r - c) with (- r) by ring. replace (c + r - c) with r by ring.
  destruct (Rle_dec 0 (- r)) as [N|_]; [lra|]. destruct (Rle_dec 0 r) as [_|N]; [|lra].
  unfold rqm_X in *. field. repeat split; nra.
Qed.

(** ** The verdicts *)

Theorem B1_pbm1 : ~ B1_claim_pbm1.
Proof.
  intros H. destruct (H 1 0 1 ltac:(lra) ltac:(lra)) as [w [_ N]].
  apply N. rewrite pbm1_is_ldpq by lra. apply mass_eq_refl.
Qed.

Theorem B1_rqm2 : ~ B1_claim_rqm2.
Proof.
  intros H. destruct (H 1 0 1 ltac:(lra) ltac:(lra)) as [w [_ N]].
  apply N. rewrite rqm2_is_ldpq by lra. apply mass_eq_refl.
Qed.

Theorem B1_pbm2 : B1_claim_pbm2.
Proof.
  intros e c r He Hr. exists c. split; [apply in_range_center; exact Hr|].
  apply pbm2_differs_at_center; assumption.
Qed.

Theorem B1_rqm3 : B1_claim_rqm3.
Proof.
  intros q Hq e c r He Hr. exists c. split; [apply in_range_center; exact Hr|].
  apply rqm3_differs_at_center; assumption.
Qed.

Theorem B1_signsgd : B1_claim_signsgd.
Proof.
  intros e c r He Hr. exists c. split; [apply in_range_center; exact Hr|].
  apply signsgd_differs_at_center; assumption.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms may appear). *)
Definition B1_theorems :=
  (@pbm1_is_ldpq, @rqm2_is_ldpq, @pbm2_differs_at_center, @rqm3_differs_at_center, @rqm3_q0_is_ldpq,
   @signsgd_differs_at_center, @pbm1_calibration, @pbm2_calibration, @rqm3_calibration,
   B1_pbm1, B1_rqm2, B1_pbm2, B1_rqm3, B1_signsgd).
Print Assumptions B1_theorems.
