(** * R1, D0 (reference code) and X1 — the authors' published implementation

    Source: GitHub solidlabnetwork/CorbinFL, methods/corbin_fl.py, [_perturb_weight], as restated
    in shared/REFERENCES.md ("The authors' public implementation"). Per parameter, with
    N = 2^d: P = q(w) = 1/2 + (w − c)/(2αr) for the leader, P = 1 − q(w') for the follower
    (whose output sign is flipped); idx = ⌊P·N⌋ clamped to [0, N − 1]; the client outputs its own
    sign if Z < idx, the opposite sign if Z > idx, and at Z = idx its own sign if a private uniform
    U ∈ [0, 1) is below t = (P − idx'/N)·N, where idx' = idx except idx' = N − 2 when
    idx + 1 ≥ N. Levels c ± rα. The code clamps w to [c − r, c + r] first (inactive for the
    in-range inputs every claim is about) and computes P in float32 (modelled exactly here; at
    ε = 5 and 10, d = 5, the top input gives P·N ≈ 31.79 and ≈ 32.00 − 0.0015, well inside the last
    cell [31, 32), so float rounding does not change the X1 verdict; only the boundary case
    e^ε = 2^d − 1 itself is a statement about the exact law). The C++ model (src/corbin/quantizer/corbinq.hpp, [tie_probability]) has the same
    law: at index N − 1 the tie gives the own sign with probability 1.

    Law derived here: P(own sign) = P when P·N < N − 1 (then the code is exactly Alg. 2 as
    intended, [ref_eq_corbinq_p1/p2]), and P(own sign) = 1 when P·N ≥ N − 1 (the index is N − 1,
    t = P·N − N + 2 ≥ 1). Since max over the range of q is q(c + r) = e^ε/(e^ε + 1), and
    e^ε/(e^ε + 1) ≥ 1 − 1/N ⟺ e^ε ≥ N − 1, the threshold is e^ε < 2^d − 1.

    ** R1 — "the reference code's quantizer is unbiased and ε-PLDP" (CLAIMS.md, R1: the
    implementation is offered as the code of Algorithm 2, of which Theorem 1 says: "Let d ∈ ℕ and
    r, c, ε_p > 0. The pair ... in Algorithm 2 satisfy conditions C4–C5").
    - [R1_claim] (universal: every d ∈ ℕ, every ε, c, r > 0): fails. Witness d = 5,
      ε = ln 31, c = r = 1: at w = c + r = 2 the leader outputs c + rα with probability 1
      (mean c + rα = 31/15 ≠ 2: biased), while at w = 0 it outputs c − rα with probability
      31/32 > 0 = 31 · 0 (C5's ratio is infinite). Theorem [R1 : ~ R1_claim].
    - [R1_claim_under_threshold] (the same with the precondition e^ε < 2^d − 1): holds (proved),
      every d. Theorem [R1_under].
    - [R1_claim_exact_threshold] (C4 ∧ C5 ⟺ e^ε < 2^d − 1, every d ∈ ℕ, ε, c, r > 0): holds
      (proved). The failing side holds with equality e^ε = 2^d − 1, and for d ≥ 1 the likelihood
      ratio is unbounded (an output has probability 0 at w = c + r and > 0 at w = c − r):
      [ref_fail_unbounded]. For d = 0 the output is constant (biased, ratio 1).
    Verdict for R1: holds only under e^ε < 2^d − 1 (for d = 5: ε < ln 31 ≈ 3.434).

    ** D0 for the reference code — "if d = 0, then the CorBin-FL mechanism reduces to the LDP-FL
    mechanism" (Section 4, after Theorem 1), read for the reference code.
    At d = 0, idx = 0, idx' = 2^0 − 2 = −1 and t = P + 1 > 1: every client outputs its own sign
    with probability 1 whatever its input ([D0_reference]); the law is not LDP-FL's and is biased.
    [D0_claim_reference]: fails ([D0_reference_not_LDPFL], witness ε = ln 3, c = r = 1,
    w = w' = 1, outcome (Q1, Q2) = (c + rα, c − rα): probability 1 vs 1/4).

    ** X1 — "the PLDP budgets of Experiments 1, 4, 5 and 6 (ε_p = 5 and 10, d = 5) are met by the
    authors' published implementation" (Exp. 1: "PLDP budget of ε_p = 5", line 402; Exp. 4:
    ε_p = 5, line 409; Exp. 5: ε_p = 10, d = 5, line 867; Exp. 6: ε_p ∈ {1, 3, 5}, line 870).
    [X1_claim]: fails ([X1]); at ε = 5 and ε = 10 (e^5 ≥ 32 > 31, since e^5 = (e^1)^5 and
    e^1 ≥ 2: [exp5_ge_32]) with c = r = 1 the leader's output c − rα has probability 0 at w = 2 and > 0 at w = 0 ([X1_eps5], [X1_eps10]).
    Of the authors' grids (REFERENCES.md), MNIST {0.1, 0.3, 1, 3} and CIFAR-10 {1, 3} are below
    ln 31 (the reference code is then exactly Alg. 2, C4–C5 hold: [grid_below_ok]); CIFAR-10 {5, 7}
    (and Exps 1, 4, 5, 6's ε_p = 5, 10) are above it ([grid_above_fails]). *)

From Coq Require Import Reals Lra Lia.
From Interval Require Import Tactic.
From Corbin Require Import Defs Alpha Sums Facts T1a.
Open Scope R_scope.

(** ** The model of the reference code *)

(** P(U < t) for a uniform U on [0, 1). *)
Definition clip01 (t : R) : R := Rmax 0 (Rmin 1 t).

(** P(the client outputs its own sign | Z = z), for its probability P (corbin_fl.py,
    [_find_index_batch] and [_perturb_weight], line by line). *)
Definition ref_own (d : nat) (P : R) (z : nat) : R :=
  let n := nZ d in
  let idx := Nat.min (fl (P * INR n)) (n - 1) in
  let idx' := if (idx + 1 <? n)%nat then INR idx else INR n - 2 in
  if (z <? idx)%nat then 1
  else if (z =? idx)%nat then clip01 ((P - idx' / INR n) * INR n)
  else 0.

(** The pair: the leader's own sign is c + rα, the follower's (UP = −1) is c − rα. *)
Definition reference (d : nat) (e c r : R) : pair :=
  let a := alpha e in
  {| plo := c - r * a; phi := c + r * a;
     p1 := fun w z => ref_own d (ldpq_q a c r w) z;
     p2 := fun w' z => 1 - ref_own d (1 - ldpq_q a c r w') z |}.

(** ** Its law *)

Lemma nZ_ge_1 (d : nat) : (1 <= nZ d)%nat.
Proof. unfold nZ. pose proof (Nat.pow_nonzero 2 d ltac:(lia)). lia. Qed.

Lemma INR_nZ_minus_1 (d : nat) : INR (nZ d - 1) = INR (nZ d) - 1.
Proof. rewrite minus_INR by apply nZ_ge_1. reflexivity. Qed.

(** Below the last cell the code is the threshold step of Alg. 2. *)
Lemma ref_own_below (d : nat) (P : R) (z : nat) :
  0 <= P -> P * INR (nZ d) < INR (nZ d) - 1 -> ref_own d P z = step (INR (nZ d) * P) z.
Proof.
  intros H0 H1. pose proof (nZ_pos d) as HN.
  set (x := INR (nZ d) * P).
  assert (Hx : 0 <= x) by (unfold x; nra).
  pose proof (fl_spec x Hx) as [F0 F1].
  assert (Hlt : (fl x + 1 < nZ d)%nat).
  { apply INR_lt. rewrite plus_INR. simpl. unfold x in *. lra. }
  unfold ref_own. rewrite (Rmult_comm P (INR (nZ d))). fold x.
  rewrite Nat.min_l by lia.
  replace ((fl x + 1 <? nZ d)%nat) with true by (symmetry; apply Nat.ltb_lt; exact Hlt).
  replace ((P - INR (fl x) / INR (nZ d)) * INR (nZ d)) with (fr x) by (unfold fr, x; field; lra).
  unfold step. destruct (z <? fl x)%nat; [reflexivity|]. destruct (z =? fl x)%nat; [|reflexivity].
  pose proof (fr_spec x Hx). unfold clip01. rewrite Rmin_right by lra. rewrite Rmax_right by lra.
  reflexivity.
Qed.

(** In the last cell (P·N ≥ N − 1) the code always outputs its own sign. *)
Lemma ref_own_top (d : nat) (P : R) (z : nat) :
  P < 1 -> INR (nZ d) - 1 <= P * INR (nZ d) -> (z < nZ d)%nat -> ref_own d P z = 1.
Proof.
  intros H0 H1 Hz. pose proof (nZ_pos d) as HN. pose proof (nZ_ge_1 d) as HN1.
  assert (Fl : fl (P * INR (nZ d)) = (nZ d - 1)%nat).
  { replace (P * INR (nZ d)) with (INR (nZ d - 1) + (P * INR (nZ d) - INR (nZ d - 1))) by ring.
    apply fl_of_nat. rewrite INR_nZ_minus_1. nra. }
  unfold ref_own. rewrite Fl, Nat.min_id.
  replace ((nZ d - 1 + 1 <? nZ d)%nat) with false by (symmetry; apply Nat.ltb_ge; lia).
  destruct (Nat.ltb_spec z (nZ d - 1)); [reflexivity|].
  replace ((z =? nZ d - 1)%nat) with true by (symmetry; apply Nat.eqb_eq; lia).
  unfold clip01. replace ((P - (INR (nZ d) - 2) / INR (nZ d)) * INR (nZ d)) with (P * INR (nZ d) - INR (nZ d) + 2)
    by (field; lra).
  rewrite Rmin_left by lra. rewrite Rmax_right by lra. reflexivity.
Qed.

Lemma avgZ_const1 (d : nat) (f : nat -> R) : (forall z, (z < nZ d)%nat -> f z = 1) -> avgZ d f = 1.
Proof.
  intros H. unfold avgZ. rewrite (fsum_ext _ f (fun _ => 1)) by exact H. rewrite fsum_const.
  pose proof (nZ_pos d). field. lra.
Qed.

(** ** The threshold in terms of ε *)

Section Law.
Variables (d : nat) (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.
Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.
Let N := INR (nZ d).
Let HN : 0 < N := nZ_pos d.

(** The largest LDPQ probability, q(c + r) = (α + 1)/(2α) = e^ε/(e^ε + 1). *)
Lemma q_top : ldpq_q a c r (c + r) = exp e / (exp e + 1).
Proof.
  unfold ldpq_q, a. rewrite (exp_of_alpha e He). pose proof (alpha_gt_1 e He).
  field. lra.
Qed.

Lemma q_bottom : 1 - ldpq_q a c r (c - r) = exp e / (exp e + 1).
Proof.
  rewrite <- q_top. unfold ldpq_q. field. split; lra.
Qed.

Lemma q_le_top w : in_range c r w -> ldpq_q a c r w <= exp e / (exp e + 1).
Proof. intros Hw. rewrite <- q_top. destruct Hw. unfold ldpq_q. apply Rplus_le_compat_l.
  unfold Rdiv. apply Rmult_le_compat_r; [|lra]. left. apply Rinv_0_lt_compat. nra. Qed.

Lemma one_minus_q_le_top w : in_range c r w -> 1 - ldpq_q a c r w <= exp e / (exp e + 1).
Proof.
  intros Hw. rewrite <- q_bottom. destruct Hw. unfold ldpq_q.
  assert (0 < / (2 * r * a)) by (apply Rinv_0_lt_compat; nra). unfold Rdiv.
  enough ((c - r - c) * / (2 * r * a) <= (w - c) * / (2 * r * a)) by lra.
  apply Rmult_le_compat_r; lra.
Qed.

(** P·N < N − 1 for every in-range P when e^ε < N − 1. *)
Lemma below_of_threshold (P : R) : exp e < N - 1 -> P <= exp e / (exp e + 1) -> P * N < N - 1.
Proof.
  intros Hth HP. pose proof (exp_pos e) as E0.
  apply Rle_lt_trans with (exp e / (exp e + 1) * N); [apply Rmult_le_compat_r; lra|].
  replace (exp e / (exp e + 1) * N) with (exp e * N / (exp e + 1)) by (field; lra).
  apply div_lt_l; nra.
Qed.

(** And P·N ≥ N − 1 at P = e^ε/(e^ε + 1) when e^ε ≥ N − 1. *)
Lemma top_of_threshold : N - 1 <= exp e -> N - 1 <= exp e / (exp e + 1) * N.
Proof.
  intros Hth. pose proof (exp_pos e) as E0.
  replace (exp e / (exp e + 1) * N) with (exp e * N / (exp e + 1)) by (field; lra).
  apply le_div_r; nra.
Qed.

(** ** Below the threshold the reference code is Algorithm 2 (as intended), conditional law and
    all; in the last cell it always outputs its own sign. *)

Lemma ref_eq_corbinq_p1 w z : exp e < N - 1 -> in_range c r w ->
  p1 (reference d e c r) w z = p1 (corbinq d e c r) w z.
Proof.
  intros Hth Hw. simpl. fold a. pose proof (ldpq_q_prob a c r w Ha Hr Hw).
  rewrite ref_own_below; [reflexivity|lra|]. fold N.
  apply below_of_threshold; [exact Hth|apply q_le_top; exact Hw].
Qed.

Lemma ref_eq_corbinq_p2 w z : exp e < N - 1 -> in_range c r w ->
  p2 (reference d e c r) w z = p2 (corbinq d e c r) w z.
Proof.
  intros Hth Hw. simpl. fold a. pose proof (ldpq_q_prob a c r w Ha Hr Hw).
  rewrite ref_own_below; [reflexivity|lra|]. fold N.
  apply below_of_threshold; [exact Hth|apply one_minus_q_le_top; exact Hw].
Qed.

Lemma ref_marg1_eq w : exp e < N - 1 -> in_range c r w ->
  marg1 d (reference d e c r) w = marg1 d (corbinq d e c r) w.
Proof.
  intros Hth Hw. unfold marg1, avgZ. f_equal. apply fsum_ext. intros z _.
  apply ref_eq_corbinq_p1; assumption.
Qed.

Lemma ref_marg2_eq w : exp e < N - 1 -> in_range c r w ->
  marg2 d (reference d e c r) w = marg2 d (corbinq d e c r) w.
Proof.
  intros Hth Hw. unfold marg2, avgZ. f_equal. apply fsum_ext. intros z _.
  apply ref_eq_corbinq_p2; assumption.
Qed.

(** The whole joint law of the pair is Algorithm 2's. *)
Lemma ref_joint_eq w w' s1 s2 : exp e < N - 1 -> in_range c r w -> in_range c r w' ->
  joint d (reference d e c r) w w' s1 s2 = joint d (corbinq d e c r) w w' s1 s2.
Proof.
  intros Hth Hw Hw'. unfold joint, avgZ. f_equal. apply fsum_ext. intros z _.
  rewrite ref_eq_corbinq_p1, ref_eq_corbinq_p2 by assumption. reflexivity.
Qed.

Lemma ref_marg1 w : exp e < N - 1 -> in_range c r w -> marg1 d (reference d e c r) w = ldpq_q a c r w.
Proof. intros Hth Hw. rewrite ref_marg1_eq by assumption. apply corbinq_marg1; assumption. Qed.

Lemma ref_marg2 w : exp e < N - 1 -> in_range c r w -> marg2 d (reference d e c r) w = ldpq_q a c r w.
Proof. intros Hth Hw. rewrite ref_marg2_eq by assumption. apply corbinq_marg2; assumption. Qed.

Theorem ref_C4 : exp e < N - 1 -> C4 d c r (reference d e c r).
Proof.
  intros Hth w Hw. destruct (corbinq_C4 d e c r He Hr w Hw) as [P [M1 M2]].
  split; [|split].
  - intros z Hz. rewrite ref_eq_corbinq_p1, ref_eq_corbinq_p2 by assumption. apply P; exact Hz.
  - rewrite ref_marg1_eq by assumption. exact M1.
  - rewrite ref_marg2_eq by assumption. exact M2.
Qed.

Theorem ref_C5 : exp e < N - 1 -> C5 d c r e (reference d e c r).
Proof.
  intros Hth w w' Hw Hw'. rewrite !ref_marg1_eq, !ref_marg2_eq by assumption.
  apply corbinq_C5; assumption.
Qed.

(** The own sign with probability 1, whenever P·N ≥ N − 1. *)
Lemma ref_marg1_top w : in_range c r w -> N - 1 <= ldpq_q a c r w * N ->
  marg1 d (reference d e c r) w = 1.
Proof.
  intros Hw Htop. pose proof (ldpq_q_prob a c r w Ha Hr Hw). unfold marg1.
  apply avgZ_const1. intros z Hz. simpl. fold a. apply ref_own_top; [lra|exact Htop|exact Hz].
Qed.

Lemma ref_marg2_top w : in_range c r w -> N - 1 <= (1 - ldpq_q a c r w) * N ->
  marg2 d (reference d e c r) w = 0.
Proof.
  intros Hw Htop. pose proof (ldpq_q_prob a c r w Ha Hr Hw). unfold marg2. simpl. fold a.
  rewrite avgZ_one_minus, avgZ_const1; [ring|]. intros z Hz. apply ref_own_top; [lra|exact Htop|exact Hz].
Qed.

Lemma ref_marg1_below w : in_range c r w -> ldpq_q a c r w * N < N - 1 ->
  marg1 d (reference d e c r) w = ldpq_q a c r w.
Proof.
  intros Hw Hb. pose proof (ldpq_q_prob a c r w Ha Hr Hw). unfold marg1, avgZ. simpl. fold a.
  rewrite (fsum_ext _ _ (step (INR (nZ d) * ldpq_q a c r w))) by (intros; apply ref_own_below; [lra|exact Hb]).
  rewrite fsum_step by (fold N; split; nra). fold N. field. lra.
Qed.

(** At or above the threshold: the leader at w = c + r always sends c + rα, the follower at
    w = c − r always sends c − rα. *)
Lemma ref_marg_at_ends : N - 1 <= exp e ->
  marg1 d (reference d e c r) (c + r) = 1 /\ marg2 d (reference d e c r) (c - r) = 0.
Proof.
  intros Hth. split.
  - apply ref_marg1_top; [apply in_range_top; exact Hr|]. fold a. rewrite q_top. apply top_of_threshold; exact Hth.
  - apply ref_marg2_top; [apply in_range_bottom; exact Hr|]. fold a. rewrite q_bottom. apply top_of_threshold; exact Hth.
Qed.

Theorem ref_not_C4 : N - 1 <= exp e -> ~ C4 d c r (reference d e c r).
Proof.
  intros Hth H. destruct (H (c + r) (in_range_top c r Hr)) as [_ [M _]].
  rewrite (proj1 (ref_marg_at_ends Hth)) in M. simpl in M. fold a in M. nra.
Qed.

Lemma nZ_ge_2 : (1 <= d)%nat -> 2 <= N.
Proof.
  intros Hd. unfold N, nZ. replace 2 with (INR 2) by reflexivity. apply le_INR.
  destruct d as [|d']; [lia|]. simpl. pose proof (Nat.pow_nonzero 2 d' ltac:(lia)). lia.
Qed.

(** For d ≥ 1, the leader's output c − rα has probability 0 at w = c + r but
    e^ε/(e^ε + 1) > 0 at w = c − r: no finite ε bounds the likelihood ratio. *)
Theorem ref_fail_unbounded : (1 <= d)%nat -> N - 1 <= exp e ->
  1 - marg1 d (reference d e c r) (c + r) = 0 /\
  1 - marg1 d (reference d e c r) (c - r) = exp e / (exp e + 1) /\ 0 < exp e / (exp e + 1).
Proof.
  intros Hd Hth. pose proof (exp_pos e) as E0. pose proof (exp_gt_1 e He) as E1. pose proof (nZ_ge_2 Hd).
  split; [rewrite (proj1 (ref_marg_at_ends Hth)); ring|]. split; [|apply Rdiv_lt_0_compat; lra].
  assert (Hq : ldpq_q a c r (c - r) = 1 / (exp e + 1)).
  { pose proof q_bottom as B. replace (1 / (exp e + 1)) with (1 - exp e / (exp e + 1)) by (field; lra). lra. }
  rewrite ref_marg1_below; [rewrite Hq; field; lra|apply in_range_bottom; exact Hr|].
  rewrite Hq. replace (1 / (exp e + 1) * N) with (N / (exp e + 1)) by (field; lra).
  apply div_lt_l; nra.
Qed.

End Law.

(** For d ≥ 1 at or above the threshold, C5 fails (the ratio for the output c − rα between
    w = c − r and w' = c + r is e^ε/(e^ε + 1) over 0). *)
Theorem ref_not_C5 (d : nat) (e c r : R) : 0 < e -> 0 < r -> (1 <= d)%nat ->
  INR (nZ d) - 1 <= exp e -> ~ C5 d c r e (reference d e c r).
Proof.
  intros He Hr Hd Hth H.
  destruct (ref_fail_unbounded d e c r He Hr Hd Hth) as [Z [P Pos]].
  destruct (H (c - r) (c + r) (in_range_bottom c r Hr) (in_range_top c r Hr)) as [_ [L _]].
  rewrite Z, P in L. lra.
Qed.

(** ** R1 *)

(** As Theorem 1 states it for Algorithm 2, read for the reference code: every d ∈ ℕ and
    ε, c, r > 0. *)
Definition R1_claim : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r -> in_Q d c r e (reference d e c r).

(** With the precondition e^ε < 2^d − 1. *)
Definition R1_claim_under_threshold : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r -> exp e < INR (nZ d) - 1 ->
    in_Q d c r e (reference d e c r).

(** The exact threshold: C4 ∧ C5 hold iff e^ε < 2^d − 1. *)
Definition R1_claim_exact_threshold : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r ->
    (in_Q d c r e (reference d e c r) <-> exp e < INR (nZ d) - 1).

(** The same threshold for "the marginals are LDPQ's at every input". *)
Definition R1_claim_marginals_threshold : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r ->
    ((forall w, in_range c r w -> marg1 d (reference d e c r) w = ldpq_q (alpha e) c r w /\
                                  marg2 d (reference d e c r) w = ldpq_q (alpha e) c r w)
     <-> exp e < INR (nZ d) - 1).

Theorem R1_under : R1_claim_under_threshold.
Proof. intros d e c r He _ Hr Hth. split; [apply ref_C4 | apply ref_C5]; assumption. Qed.


Theorem R1_exact : R1_claim_exact_threshold.
Proof.
  intros d e c r He Hc Hr. split.
  - intros [H4 _]. destruct (Rlt_or_le (exp e) (INR (nZ d) - 1)) as [L|G]; [exact L|].
    exfalso. exact (ref_not_C4 d e c r He Hr G H4).
  - intros Hth. apply R1_under; assumption.
Qed.


Theorem R1_marginals_exact : R1_claim_marginals_threshold.
Proof.
  intros d e c r He Hc Hr. split.
  - intros H. destruct (Rlt_or_le (exp e) (INR (nZ d) - 1)) as [L|G]; [exact L|]. exfalso.
    destruct (H (c + r) (in_range_top c r Hr)) as [M _].
    rewrite (proj1 (ref_marg_at_ends d e c r He Hr G)) in M.
    pose proof (ldpq_q_prob (alpha e) c r (c + r) (alpha_gt_1 e He) Hr (in_range_top c r Hr)). lra.
  - intros Hth w Hw. split; [apply ref_marg1 | apply ref_marg2]; assumption.
Qed.


(** The witness d = 5, ε = ln 31 (e^ε = 31 = 2^5 − 1, the first failing ε), c = r = 1. *)
Lemma N5 : INR (nZ 5) = 32.
Proof. unfold nZ. rewrite INR_IZR_INZ. reflexivity. Qed.

Lemma ln31_pos : 0 < ln 31. Proof. apply ln_pos_gt. lra. Qed.

Theorem R1_witness_values :
  marg1 5 (reference 5 (ln 31) 1 1) 2 = 1 /\ 1 - marg1 5 (reference 5 (ln 31) 1 1) 0 = 31 / 32 /\
  marg2 5 (reference 5 (ln 31) 1 1) 0 = 0.
Proof.
  assert (Hth : INR (nZ 5) - 1 <= exp (ln 31)) by (rewrite N5, exp_ln; lra).
  destruct (ref_marg_at_ends 5 (ln 31) 1 1 ln31_pos ltac:(lra) Hth) as [A B].
  destruct (ref_fail_unbounded 5 (ln 31) 1 1 ln31_pos ltac:(lra) ltac:(lia) Hth) as [_ [C _]].
  replace (1 + 1) with 2 in A by lra. replace (1 - 1) with 0 in B, C by lra.
  rewrite exp_ln in C by lra. split; [exact A|split; [rewrite C; field|exact B]].
Qed.

Theorem R1 : ~ R1_claim.
Proof.
  intros H. destruct (H 5%nat (ln 31) 1 1 ln31_pos ltac:(lra) ltac:(lra)) as [H4 _].
  apply (ref_not_C4 5 (ln 31) 1 1 ln31_pos ltac:(lra)); [|exact H4].
  rewrite N5, exp_ln; lra.
Qed.


(** ** D0 for the reference code *)

Lemma N0 : INR (nZ 0) = 1. Proof. reflexivity. Qed.

(** At d = 0 each client sends its own sign with probability 1 (leader c + rα, follower c − rα),
    whatever its input. *)
Theorem D0_reference (e c r w : R) : 0 < e -> 0 < r -> in_range c r w ->
  p1 (reference 0 e c r) w 0 = 1 /\ p2 (reference 0 e c r) w 0 = 0 /\
  marg1 0 (reference 0 e c r) w = 1 /\ marg2 0 (reference 0 e c r) w = 0.
Proof.
  intros He Hr Hw. pose proof (ldpq_q_prob (alpha e) c r w (alpha_gt_1 e He) Hr Hw).
  assert (A : ref_own 0 (ldpq_q (alpha e) c r w) 0 = 1) by (apply ref_own_top; [lra|rewrite N0; lra|unfold nZ; simpl; lia]).
  assert (B : ref_own 0 (1 - ldpq_q (alpha e) c r w) 0 = 1) by (apply ref_own_top; [lra|rewrite N0; lra|unfold nZ; simpl; lia]).
  simpl p1; simpl p2. rewrite A, B. split; [reflexivity|split; [ring|]].
  split; [apply ref_marg1_top; [assumption|assumption|assumption|rewrite N0; lra]|].
  apply ref_marg2_top; [assumption|assumption|assumption|rewrite N0; lra].
Qed.


(** D0 read for the reference code: at d = 0 its pair has LDP-FL's joint law (two independent
    LDPQs), for every pair of in-range inputs. *)
Definition D0_claim_reference : Prop :=
  forall (e c r w w' : R) (s1 s2 : bool), 0 < e -> 0 < r -> in_range c r w -> in_range c r w' ->
    joint 0 (reference 0 e c r) w w' s1 s2 = ldpq_pair_joint e c r w w' s1 s2.

(** Witness ε = ln 3, c = r = 1, w = w' = 1: P(Q1 = c + rα, Q2 = c − rα) is 1, LDP-FL's is 1/4. *)
Theorem D0_reference_not_LDPFL : ~ D0_claim_reference.
Proof.
  intros H. pose proof (ln_pos_gt 3 ltac:(lra)) as He.
  assert (Hin : in_range 1 1 1) by (unfold in_range; lra).
  specialize (H (ln 3) 1 1 1 1 true false He ltac:(lra) Hin Hin).
  destruct (D0_reference (ln 3) 1 1 1 He ltac:(lra) Hin) as [A [B _]].
  unfold joint, avgZ, ldpq_pair_joint, ldpq_q in H. rewrite N0 in H. change (nZ 0) with 1%nat in H.
  cbn [fsum sgn_prob] in H. rewrite A, B in H. rewrite alpha_ln in H by lra.
  replace (1 - 1) with 0 in H by ring. unfold Rdiv in H. rewrite Rmult_0_l in H. lra.
Qed.


(** The reference code at d = 0 is biased (not C4) for every ε, c, r > 0. *)
Theorem D0_reference_biased (e c r : R) : 0 < e -> 0 < r -> ~ C4 0 c r (reference 0 e c r).
Proof. intros He Hr. apply ref_not_C4; [exact He|exact Hr|]. rewrite N0. pose proof (exp_pos e). lra. Qed.

(** ** X1 and the authors' ε grids, at d = 5 (2^5 − 1 = 31) *)

(** e^n = (e^1)^n and 2 < e^1 <= 3 give the few comparisons with 31 = 2^5 − 1 that the grids
    need, without numerical enclosure (which keeps [Print Assumptions] to the reals' axioms). *)
Lemma exp_INR (n : nat) : exp (INR n) = exp 1 ^ n.
Proof.
  induction n as [|n IH]; [simpl; apply exp_0|].
  rewrite S_INR, exp_plus, IH. simpl. ring.
Qed.

Lemma exp1_bounds : 2 <= exp 1 <= 3.
Proof. split; [pose proof (exp_ineq1 1 ltac:(lra)); lra | apply exp_le_3]. Qed.

Lemma exp5_ge_32 : 32 <= exp 5.
Proof.
  replace 5 with (INR 5) by (simpl; ring). rewrite exp_INR.
  replace 32 with (2 ^ 5) by ring. apply pow_incr. pose proof exp1_bounds. lra.
Qed.

Lemma exp3_le_27 : exp 3 <= 27.
Proof.
  replace 3 with (INR 3) by (simpl; ring). rewrite exp_INR.
  replace 27 with (3 ^ 3) by ring. apply pow_incr. pose proof exp1_bounds. pose proof (exp_pos 1). lra.
Qed.

Lemma exp_grid :
  exp (1 / 10) < 31 /\ exp (3 / 10) < 31 /\ exp 1 < 31 /\ exp 3 < 31 /\
  31 <= exp 5 /\ 31 <= exp 7 /\ 31 <= exp 10.
Proof.
  pose proof exp5_ge_32. pose proof exp3_le_27.
  assert (exp (1 / 10) < exp 3) by (apply exp_increasing; lra).
  assert (exp (3 / 10) < exp 3) by (apply exp_increasing; lra).
  assert (exp 1 < exp 3) by (apply exp_increasing; lra).
  assert (exp 5 < exp 7) by (apply exp_increasing; lra).
  assert (exp 5 < exp 10) by (apply exp_increasing; lra).
  lra.
Qed.

(** 3 < ln 31 < 5 (so ε = 3 is below the threshold, ε = 5 above), and ln 31 ∈ (3.433, 3.434)
    by numerical enclosure. *)
Lemma ln31_between : 3 < ln 31 < 5.
Proof.
  pose proof exp5_ge_32. pose proof exp3_le_27. pose proof (exp_pos 3). rewrite <- (ln_exp 3), <- (ln_exp 5).
  split; apply ln_increasing; lra.
Qed.

Lemma ln31_enclosure : 3433 / 1000 < ln 31 < 3434 / 1000.
Proof. split; interval. Qed.

(** The PLDP budgets of Exps 1, 4 (ε_p = 5) and 5 (ε_p = 10), d = 5, are met by the reference
    code: each client's output is ε_p-PLDP (C5) for every c, r > 0. *)
Definition X1_claim : Prop :=
  forall e : R, (e = 5 \/ e = 10) -> forall c r : R, 0 < c -> 0 < r -> C5 5 c r e (reference 5 e c r).

Theorem X1_eps5 : ~ C5 5 1 1 5 (reference 5 5 1 1).
Proof. apply ref_not_C5; try lra; try lia. rewrite N5. pose proof exp_grid. lra. Qed.

Theorem X1_eps10 : ~ C5 5 1 1 10 (reference 5 10 1 1).
Proof. apply ref_not_C5; try lra; try lia. rewrite N5. pose proof exp_grid. lra. Qed.

(** The failing ratio at ε = 5, c = r = 1: P(Q1 = c − rα) is 0 at w = 2 and e^5/(e^5 + 1) > 0.96
    at w = 0. *)
Theorem X1_eps5_values :
  1 - marg1 5 (reference 5 5 1 1) 2 = 0 /\ 1 - marg1 5 (reference 5 5 1 1) 0 = exp 5 / (exp 5 + 1) /\
  96 / 100 < exp 5 / (exp 5 + 1).
Proof.
  destruct (ref_fail_unbounded 5 5 1 1 ltac:(lra) ltac:(lra) ltac:(lia)) as [A [B _]].
  { rewrite N5. pose proof exp_grid. lra. }
  replace (1 + 1) with 2 in A by lra. replace (1 - 1) with 0 in B by lra.
  split; [exact A|split; [exact B|]].
  pose proof exp5_ge_32. apply lt_div_r; lra.
Qed.

Theorem X1 : ~ X1_claim.
Proof. intros H. exact (X1_eps5 (H 5 (or_introl eq_refl) 1 1 ltac:(lra) ltac:(lra))). Qed.


(** The authors' grids: MNIST {0.1, 0.3, 1, 3} and CIFAR-10 {1, 3} are below the threshold (the
    reference code is exactly Alg. 2 there and satisfies C4–C5); CIFAR-10 {5, 7} and the
    paper's ε_p = 10 are above it (C4 and C5 both fail). *)
Theorem grid_below_ok : forall e : R, (e = 1 / 10 \/ e = 3 / 10 \/ e = 1 \/ e = 3) ->
  forall c r : R, 0 < r -> in_Q 5 c r e (reference 5 e c r).
Proof.
  intros e He c r Hr. pose proof exp_grid as G.
  assert (E0 : 0 < e) by lra.
  assert (Hth : exp e < INR (nZ 5) - 1) by (rewrite N5; destruct He as [-> | [-> | [-> | ->]]]; lra).
  split; [apply ref_C4 | apply ref_C5]; assumption.
Qed.

Theorem grid_above_fails : forall e : R, (e = 5 \/ e = 7 \/ e = 10) ->
  forall c r : R, 0 < r -> ~ C4 5 c r (reference 5 e c r) /\ ~ C5 5 c r e (reference 5 e c r).
Proof.
  intros e He c r Hr. pose proof exp_grid as G.
  assert (E0 : 0 < e) by lra.
  assert (Hth : INR (nZ 5) - 1 <= exp e) by (rewrite N5; destruct He as [-> | [-> | ->]]; lra).
  split; [apply ref_not_C4 | apply ref_not_C5]; try assumption; lia.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Reference_theorems :=
  (@ref_C4,
   @ref_C5,
   @ref_not_C4,
   @ref_fail_unbounded,
   @ref_not_C5,
   @R1_under,
   @R1_exact,
   @R1_marginals_exact,
   @R1_witness_values,
   @R1,
   @D0_reference,
   @D0_reference_not_LDPFL,
   @D0_reference_biased,
   @X1_eps5,
   @X1_eps10,
   @X1_eps5_values,
   @X1,
   @grid_below_ok,
   @grid_above_fails).
Print Assumptions Reference_theorems.
