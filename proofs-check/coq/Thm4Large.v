(** * Thm4Large — Theorem 4 read "for every sufficiently large n, the other parameters fixed"

    Thm4.v reads T4u and T4m at concrete n (every printed precondition met) and refutes both.
    Theorem 4 also says "assume that n is large enough and there exists δ1 < δ such that …".
    This file decides the asymptotic readings, in Thm4.v's model and with Thm4.v's definitions
    (thm4_pre, mexp/mexp2 for the released sum with and without client 1's report, Eq. (UCDP)'s
    remove-one with the divisor n kept, mse4 and t4_bound for the MSE, one coordinate m = 1 for
    T4u as in T4u_claim):

    - R1 ([T4u_large], holds): for fixed ε_p, δ and p there is N0 such that for every K ≥ N0
      (n = 2K) meeting the preconditions — every δ1, r, c, d and inputs — the released sum with
      and without client 1 satisfies P(W̄_g ∈ S) ≤ e^{ε_u} P(W̄'_g ∈ S) + δ for every event S.
      The reason: the two laws differ in total variation by at most √(4/(K'q)) + 8/(K'q),
      K' = K − 1, q = 2β, β = p²(1 − p)(α − 1)/α (uniform in everything else), while δ is fixed
      and ε_u ≥ 0. Proof: in every other pair, weight β of the law stays at (0, 0) and weight β
      moves the (sum, count) by exactly client 1's report x ∈ {c ± rα}; the commuting "one more
      fair coin" smoothing (Gd) then bounds |E h(· + x) − E h| by E √(2/(J + 1)), J ~ Bin(K', 2β)
      ([smooth_core], [report_gap]); Stein's identity for Bin(j, 1/2) gives
      |E f(B + 1) − E f(B)| ≤ √(2/(j + 1)) ([shift_abs]); a Chebyshev-type quadratic bound
      handles the binomial tail ([binom_tail]). Only m = 1 is formalised (Thm4.v's model of T4u
      has one coordinate); for m ≥ 2 the same argument runs with β_m = min(p², 2p(1 − p)((α − 1)/(2α))^m)
      (a lone client reproduces client 1's whole m-vector with probability ≥ ((α − 1)/(2α))^m),
      argued on paper, not formalised here.
    - R2a ([T4m_large], holds): for fixed ε_p, δ, δ1, p, r there is N0 (depending on δ, δ1, p)
      such that the MSE bound holds for every K ≥ N0: the exact MSE is ≤ r_j²α²(2 + 4p)/(n(1 − p))
      ([mse4_upper]), and once θ > 0 the printed bound is ≥ 8r²α²δ1 ([t4_bound_ge]).
    - R2b ([T4m_delta1_after_R2b], [T4m_delta1_after], fails): with δ1 chosen after n, for every
      N0 there are n ≥ N0 and an admissible δ1 where the bound fails: p = 1/2, δ = 1/100,
      α = 11, δ1 = 1/100 − 4n/(n + 4)² makes θ = −1/n and the bound < 0. With θ > 0 required too
      ([T4m_delta1_after_theta_pos_R2b]): p = 9/10, δ = 1/10, δ1 = 1/n², n ≥ 40000: exact MSE
      ≥ 1089/n − 17424/n² > 891.2/n + 968/n² ≥ the bound. *)

From Coq Require Import Reals Lra Lia ZArith Bool List.
From Interval Require Import Tactic.
From Corbin Require Import Defs Alpha Sums Facts Worst Thm3 Thm4.
Open Scope R_scope.

(** ** Part A: the binomial expectation [bexp] *)

Lemma bexp_mono (p : R) (n : nat) (f g : nat -> R) :
  0 <= p <= 1 -> (forall i, f i <= g i) -> bexp p n f <= bexp p n g.
Proof.
  intros Hp. revert f g. induction n as [|n IH]; intros f g H; simpl; [apply H|].
  pose proof (IH f g H). pose proof (IH (fun i => f (S i)) (fun i => g (S i)) (fun i => H (S i))).
  nra.
Qed.

Lemma bexp_add (p : R) (n : nat) (f g : nat -> R) :
  bexp p n (fun i => f i + g i) = bexp p n f + bexp p n g.
Proof.
  rewrite (bexp_ext p n _ (fun i => 1 * f i + 1 * g i)) by (intros; ring).
  rewrite bexp_lin. ring.
Qed.

Lemma bexp_scal (p : R) (n : nat) (f : nat -> R) (x : R) :
  bexp p n (fun i => x * f i) = x * bexp p n f.
Proof.
  rewrite (bexp_ext p n _ (fun i => x * f i + 0 * f i)) by (intros; ring).
  rewrite bexp_lin. ring.
Qed.

(** The first two moments: with q = 1 − p the probability of a step, E(i) = nq and
    E(i²) = nq(1 − q) + (nq)². *)
Lemma bexp_quad (p : R) (n : nat) (x0 x1 x2 : R) :
  bexp p n (fun i => x0 + x1 * INR i + x2 * INR i ^ 2) =
  x0 + x1 * INR n * (1 - p) + x2 * (INR n * (1 - p) * p + (INR n * (1 - p)) ^ 2).
Proof.
  revert x0 x1 x2. induction n as [|n IH]; intros x0 x1 x2.
  - simpl. ring.
  - rewrite bexp_S. cbv beta. rewrite (bexp_ext p n (fun i => x0 + x1 * INR (S i) + x2 * INR (S i) ^ 2)
      (fun i => (x0 + x1 + x2) + (x1 + 2 * x2) * INR i + x2 * INR i ^ 2)) by (intros; rewrite S_INR; ring).
    rewrite !IH, S_INR. ring.
Qed.

(** Stein's identity for Binomial(n, 1/2): E((n − i) f(i + 1)) = E(i f(i)). *)
Lemma stein_half (n : nat) (f : nat -> R) :
  bexp (1/2) n (fun i => (INR n - INR i) * f (S i)) = bexp (1/2) n (fun i => INR i * f i).
Proof.
  revert f. induction n as [|n IH]; intros f.
  - simpl. ring.
  - rewrite !bexp_S. cbv beta. rewrite (bexp_ext _ n (fun i => (INR (S n) - INR i) * f (S i))
      (fun i => (INR n - INR i) * f (S i) + f (S i))) by (intros; rewrite S_INR; ring).
    rewrite (bexp_ext _ n (fun i => (INR (S n) - INR (S i)) * f (S (S i)))
      (fun i => (INR n - INR i) * (fun k => f (S k)) (S i))) by (intros; cbv beta; rewrite !S_INR; ring).
    rewrite (bexp_ext _ n (fun i => INR (S i) * f (S i))
      (fun i => INR i * (fun k => f (S k)) i + f (S i))) by (intros; cbv beta; rewrite S_INR; ring).
    rewrite !bexp_add, IH, (IH (fun k => f (S k))). lra.
Qed.

(** (E|X|)² ≤ E(X²). *)
Lemma bexp_jensen (p : R) (n : nat) (X : nat -> R) :
  0 <= p <= 1 -> (bexp p n (fun i => Rabs (X i))) ^ 2 <= bexp p n (fun i => X i ^ 2).
Proof.
  intros Hp. set (t := bexp p n (fun i => Rabs (X i))).
  assert (H : 0 <= bexp p n (fun i => X i ^ 2 + (-2 * t) * Rabs (X i) + t ^ 2)).
  { rewrite <- (bexp_const p n 0). apply bexp_mono; [exact Hp|]. intros i.
    rewrite <- (pow2_abs (X i)). pose proof (pow2_ge_0 (Rabs (X i) - t)). nra. }
  rewrite !bexp_add, bexp_scal, bexp_const in H. fold t in H. nra.
Qed.

(** The smoothing bound: for f with values in [0, 1] and B ~ Binomial(j, 1/2),
    |E f(B + 1) − E f(B)| ≤ √(2/(j + 1)). *)
Definition bnd (j : nat) : R := sqrt (2 / (INR j + 1)).

Lemma bnd_nonneg (j : nat) : 0 <= bnd j.
Proof. apply sqrt_pos. Qed.

Lemma shift_sq (j : nat) (f : nat -> R) : (forall i, 0 <= f i <= 1) ->
  (bexp (1/2) j (fun i => f (S i) - f i)) ^ 2 <= 2 / (INR j + 1).
Proof.
  intros Hf. destruct j as [|j].
  - simpl. destruct (Hf 0%nat), (Hf 1%nat). apply Rle_trans with 1; [nra|]. simpl. lra.
  - set (J := S j). assert (HJ : 1 <= INR J) by (apply (le_INR 1); unfold J; lia).
    set (D := bexp (1/2) J (fun i => f (S i) - f i)).
    set (X := fun i : nat => INR i - INR J / 2).
    (* E(X Y) = (J/2) D, Y = f(i+1) + f(i) − 1 *)
    assert (E1 : bexp (1/2) J (fun i => X i * (f (S i) + f i - 1)) = INR J / 2 * D).
    { rewrite (bexp_ext _ J _ (fun i => (INR J / 2) * (f (S i) - f i)
          + (-1) * ((INR J - INR i) * f (S i)) + INR i * f i + (-1) * (0 + 1 * INR i + 0 * INR i ^ 2)
          + (INR J / 2))) by (intros; unfold X; cbv beta; field).
      rewrite !bexp_add, !bexp_scal, bexp_const, stein_half, bexp_quad. unfold D. field. }
    assert (E2 : bexp (1/2) J (fun i => X i ^ 2) = INR J / 4).
    { rewrite (bexp_ext _ J _ (fun i => INR J ^ 2 / 4 + (- INR J) * INR i + 1 * INR i ^ 2)) by (intros; unfold X; cbv beta; field).
      rewrite bexp_quad. field. }
    assert (PW : forall i, Rabs (X i * (f (S i) + f i - 1)) <= Rabs (X i)).
    { intros i. destruct (Hf i), (Hf (S i)). rewrite Rabs_mult.
      assert (Rabs (f (S i) + f i - 1) <= 1) by (apply Rabs_le; lra).
      pose proof (Rabs_pos (X i)). pose proof (Rabs_pos (f (S i) + f i - 1)). nra. }
    assert (L1 : bexp (1/2) J (fun i => -1 * Rabs (X i)) <= bexp (1/2) J (fun i => X i * (f (S i) + f i - 1))).
    { apply bexp_mono; [lra|]. intros i. pose proof (PW i) as P.
      pose proof (Rle_abs (- (X i * (f (S i) + f i - 1)))). rewrite Rabs_Ropp in H. lra. }
    assert (L2 : bexp (1/2) J (fun i => X i * (f (S i) + f i - 1)) <= bexp (1/2) J (fun i => Rabs (X i))).
    { apply bexp_mono; [lra|]. intros i. pose proof (PW i) as P.
      pose proof (Rle_abs (X i * (f (S i) + f i - 1))). lra. }
    rewrite bexp_scal in L1.
    assert (A : Rabs (bexp (1/2) J (fun i => X i * (f (S i) + f i - 1))) <= bexp (1/2) J (fun i => Rabs (X i)))
      by (apply Rabs_le; lra).
    pose proof (bexp_jensen (1/2) J X ltac:(lra)) as Jn. rewrite E2 in Jn. rewrite E1 in A.
    pose proof (Rabs_pos (INR J / 2 * D)).
    assert (Q : (INR J / 2 * D) ^ 2 <= INR J / 4).
    { rewrite <- pow2_abs. apply Rle_trans with (bexp (1 / 2) J (fun i => Rabs (X i)) ^ 2); [|exact Jn].
      apply pow_incr. split; assumption. }
    assert (D2 : D ^ 2 <= 1 / INR J).
    { apply (Rmult_le_reg_l (INR J ^ 2 / 4)); [nra|]. replace (INR J ^ 2 / 4 * D ^ 2) with ((INR J / 2 * D) ^ 2) by field.
      replace (INR J ^ 2 / 4 * (1 / INR J)) with (INR J / 4) by (field; lra). exact Q. }
    apply Rle_trans with (1 / INR J); [exact D2|]. apply (Rmult_le_reg_r (INR J * (INR J + 1))); [nra|].
    replace (1 / INR J * (INR J * (INR J + 1))) with (INR J + 1) by (field; lra).
    replace (2 / (INR J + 1) * (INR J * (INR J + 1))) with (2 * INR J) by (field; lra). lra.
Qed.

Lemma shift_abs (j : nat) (f : nat -> R) : (forall i, 0 <= f i <= 1) ->
  Rabs (bexp (1/2) j (fun i => f (S i) - f i)) <= bnd j.
Proof.
  intros Hf. unfold bnd. set (D := bexp (1/2) j (fun i => f (S i) - f i)).
  rewrite <- (sqrt_pow2 (Rabs D)) by apply Rabs_pos. apply sqrt_le_1_alt.
  rewrite pow2_abs. apply shift_sq. exact Hf.
Qed.

(** ** Part B: the law of (sum, count) in Thm4.v's model, and its smoothness under one more report *)

(** Two weighted-average facts about one step of [mexp]. *)
Lemma cmul_bounds (c X B : R) : 0 <= c -> Rabs X <= B -> - (c * B) <= c * X <= c * B.
Proof.
  intros Hc HX. assert (A1 : - B <= X) by (pose proof (Rle_abs (- X)); rewrite Rabs_Ropp in H; lra).
  assert (A2 : X <= B) by (pose proof (Rle_abs X); lra). split.
  - replace (- (c * B)) with (c * - B) by ring. apply Rmult_le_compat_l; lra.
  - apply Rmult_le_compat_l; lra.
Qed.

Lemma step_avg (p l1 l2 j1 j2 j3 j4 X0 X1 X2 X3 X4 Y1 Y2 Y3 Y4 lo hi : R) :
  0 <= p <= 1 -> 0 <= l1 <= 1 -> 0 <= l2 <= 1 -> 0 <= j1 -> 0 <= j2 -> 0 <= j3 -> 0 <= j4 ->
  j1 + j2 + j3 + j4 = 1 ->
  lo <= X0 <= hi -> lo <= X1 <= hi -> lo <= X2 <= hi -> lo <= X3 <= hi -> lo <= X4 <= hi ->
  lo <= Y1 <= hi -> lo <= Y2 <= hi -> lo <= Y3 <= hi -> lo <= Y4 <= hi ->
  lo <= p * p * X0 + p * (1 - p) * (l2 * X1 + (1 - l2) * X2) + (1 - p) * p * (l1 * X3 + (1 - l1) * X4)
        + (1 - p) * (1 - p) * (j1 * Y1 + j2 * Y2 + j3 * Y3 + j4 * Y4) <= hi.
Proof.
  intros Hp Hl1 Hl2 J1 J2 J3 J4 Js H0 H1 H2 H3 H4 G1 G2 G3 G4.
  set (E := p * p * X0 + p * (1 - p) * (l2 * X1 + (1 - l2) * X2) + (1 - p) * p * (l1 * X3 + (1 - l1) * X4)
        + (1 - p) * (1 - p) * (j1 * Y1 + j2 * Y2 + j3 * Y3 + j4 * Y4)).
  assert (P1 : 0 <= p * p) by nra. assert (P2 : 0 <= p * (1 - p)) by nra. assert (P3 : 0 <= (1 - p) * (1 - p)) by nra.
  assert (I : forall t, E - t = p * p * (X0 - t) + p * (1 - p) * (l2 * (X1 - t) + (1 - l2) * (X2 - t))
            + (1 - p) * p * (l1 * (X3 - t) + (1 - l1) * (X4 - t))
            + (1 - p) * (1 - p) * (j1 * (Y1 - t) + j2 * (Y2 - t) + j3 * (Y3 - t) + j4 * (Y4 - t))).
  { intros t. unfold E. replace j4 with (1 - j1 - j2 - j3) by lra. ring. }
  split.
  - enough (0 <= E - lo) by lra. rewrite I.
    repeat (lra || apply Rmult_le_pos || apply Rplus_le_le_0_compat).
  - enough (0 <= hi - E) by lra. replace (hi - E) with (- (E - hi)) by ring. rewrite I.
    replace (- (p * p * (X0 - hi) + p * (1 - p) * (l2 * (X1 - hi) + (1 - l2) * (X2 - hi)) +
      (1 - p) * p * (l1 * (X3 - hi) + (1 - l1) * (X4 - hi)) +
      (1 - p) * (1 - p) * (j1 * (Y1 - hi) + j2 * (Y2 - hi) + j3 * (Y3 - hi) + j4 * (Y4 - hi))))
      with (p * p * (hi - X0) + p * (1 - p) * (l2 * (hi - X1) + (1 - l2) * (hi - X2)) +
      (1 - p) * p * (l1 * (hi - X3) + (1 - l1) * (hi - X4)) +
      (1 - p) * (1 - p) * (j1 * (hi - Y1) + j2 * (hi - Y2) + j3 * (hi - Y3) + j4 * (hi - Y4))) by ring.
    repeat (lra || apply Rmult_le_pos || apply Rplus_le_le_0_compat).
Qed.

(** The core step: a weight β ≤ p² stays put and a weight β ≤ (weight of one more report at x)
    moves by x; together they average over one more fair coin (G1). *)
Lemma step_core (p l1 l2 j1 j2 j3 j4 X0 Xp Xm Y1 Y2 Y3 Y4 G1 b B0 B1 : R) :
  0 <= p <= 1 -> 0 <= l1 <= 1 -> 0 <= l2 <= 1 -> 0 <= j1 -> 0 <= j2 -> 0 <= j3 -> 0 <= j4 ->
  j1 + j2 + j3 + j4 = 1 -> 0 <= b -> b <= p * p -> b <= p * (1 - p) * (l1 + l2) ->
  X0 + Xp = 2 * G1 ->
  Rabs X0 <= B0 -> Rabs Xp <= B0 -> Rabs Xm <= B0 ->
  Rabs Y1 <= B0 -> Rabs Y2 <= B0 -> Rabs Y3 <= B0 -> Rabs Y4 <= B0 -> Rabs G1 <= B1 ->
  Rabs (p * p * X0 + p * (1 - p) * (l2 * Xp + (1 - l2) * Xm) + (1 - p) * p * (l1 * Xp + (1 - l1) * Xm)
        + (1 - p) * (1 - p) * (j1 * Y1 + j2 * Y2 + j3 * Y3 + j4 * Y4)) <= 2 * b * B1 + (1 - 2 * b) * B0.
Proof.
  intros Hp Hl1 Hl2 J1 J2 J3 J4 Js Hb Hb1 Hb2 HG A0 Ap Am B1' B2' B3' B4' AG.
  assert (I : p * p * X0 + p * (1 - p) * (l2 * Xp + (1 - l2) * Xm) + (1 - p) * p * (l1 * Xp + (1 - l1) * Xm)
        + (1 - p) * (1 - p) * (j1 * Y1 + j2 * Y2 + j3 * Y3 + j4 * Y4) =
        2 * b * G1 + (p * p - b) * X0 + (p * (1 - p) * (l1 + l2) - b) * Xp + (p * (1 - p) * (2 - l1 - l2)) * Xm
        + ((1 - p) * (1 - p) * j1) * Y1 + ((1 - p) * (1 - p) * j2) * Y2 + ((1 - p) * (1 - p) * j3) * Y3
        + ((1 - p) * (1 - p) * j4) * Y4).
  { replace G1 with ((X0 + Xp) / 2) by lra. field. }
  rewrite I. clear I.
  assert (P2 : 0 <= p * (1 - p)) by nra. assert (P3 : 0 <= (1 - p) * (1 - p)) by nra.
  pose proof (cmul_bounds (2 * b) G1 B1 ltac:(lra) AG).
  pose proof (cmul_bounds (p * p - b) X0 B0 ltac:(lra) A0).
  pose proof (cmul_bounds (p * (1 - p) * (l1 + l2) - b) Xp B0 ltac:(lra) Ap).
  pose proof (cmul_bounds (p * (1 - p) * (2 - l1 - l2)) Xm B0 ltac:(apply Rmult_le_pos; lra) Am).
  pose proof (cmul_bounds ((1 - p) * (1 - p) * j1) Y1 B0 ltac:(apply Rmult_le_pos; lra) B1').
  pose proof (cmul_bounds ((1 - p) * (1 - p) * j2) Y2 B0 ltac:(apply Rmult_le_pos; lra) B2').
  pose proof (cmul_bounds ((1 - p) * (1 - p) * j3) Y3 B0 ltac:(apply Rmult_le_pos; lra) B3').
  pose proof (cmul_bounds ((1 - p) * (1 - p) * j4) Y4 B0 ltac:(apply Rmult_le_pos; lra) B4').
  assert (W : (p * p - b) + (p * (1 - p) * (l1 + l2) - b) + p * (1 - p) * (2 - l1 - l2)
              + (1 - p) * (1 - p) * j1 + (1 - p) * (1 - p) * j2 + (1 - p) * (1 - p) * j3
              + (1 - p) * (1 - p) * j4 = 1 - 2 * b).
  { replace j4 with (1 - j1 - j2 - j3) by lra. ring. }
  apply Rabs_le.
  assert (WB : ((p * p - b) + (p * (1 - p) * (l1 + l2) - b) + p * (1 - p) * (2 - l1 - l2)
              + (1 - p) * (1 - p) * j1 + (1 - p) * (1 - p) * j2 + (1 - p) * (1 - p) * j3
              + (1 - p) * (1 - p) * j4) * B0 = (1 - 2 * b) * B0) by (rewrite W; reflexivity).
  split; lra.
Qed.

Lemma step_core_minus (p l1 l2 j1 j2 j3 j4 X0 Xp Xm Y1 Y2 Y3 Y4 G1 b B0 B1 : R) :
  0 <= p <= 1 -> 0 <= l1 <= 1 -> 0 <= l2 <= 1 -> 0 <= j1 -> 0 <= j2 -> 0 <= j3 -> 0 <= j4 ->
  j1 + j2 + j3 + j4 = 1 -> 0 <= b -> b <= p * p -> b <= p * (1 - p) * (2 - l1 - l2) ->
  X0 + Xm = 2 * G1 ->
  Rabs X0 <= B0 -> Rabs Xp <= B0 -> Rabs Xm <= B0 ->
  Rabs Y1 <= B0 -> Rabs Y2 <= B0 -> Rabs Y3 <= B0 -> Rabs Y4 <= B0 -> Rabs G1 <= B1 ->
  Rabs (p * p * X0 + p * (1 - p) * (l2 * Xp + (1 - l2) * Xm) + (1 - p) * p * (l1 * Xp + (1 - l1) * Xm)
        + (1 - p) * (1 - p) * (j1 * Y1 + j2 * Y2 + j3 * Y3 + j4 * Y4)) <= 2 * b * B1 + (1 - 2 * b) * B0.
Proof.
  intros. replace (p * p * X0 + p * (1 - p) * (l2 * Xp + (1 - l2) * Xm) + (1 - p) * p * (l1 * Xp + (1 - l1) * Xm)
        + (1 - p) * (1 - p) * (j1 * Y1 + j2 * Y2 + j3 * Y3 + j4 * Y4))
    with (p * p * X0 + p * (1 - p) * ((1 - l2) * Xm + (1 - (1 - l2)) * Xp)
          + (1 - p) * p * ((1 - l1) * Xm + (1 - (1 - l1)) * Xp)
        + (1 - p) * (1 - p) * (j1 * Y1 + j2 * Y2 + j3 * Y3 + j4 * Y4)) by ring.
  apply (step_core p (1 - l1) (1 - l2) j1 j2 j3 j4 X0 Xm Xp Y1 Y2 Y3 Y4 G1 b B0 B1); try lra; assumption.
Qed.

(** Smoothing by one more fair coin: Gd x j h (s, N) = E h(s + (B+1)x, N + B + 1) − E h(s + Bx, N + B),
    B ~ Binomial(j, 1/2). *)
Definition Gd (x : R) (j : nat) (h : R -> nat -> R) (s : R) (N : nat) : R :=
  bexp (1/2) j (fun i => h (s + INR (S i) * x) (S i + N)%nat - h (s + INR i * x) (i + N)%nat).

Lemma Gd_shift (x : R) (j : nat) (h : R -> nat -> R) (a : R) (k : nat) (s : R) (N : nat) :
  shift (Gd x j h) a k s N = Gd x j (shift h a k) s N.
Proof.
  unfold shift, Gd. apply bexp_ext. intros i.
  f_equal; f_equal; first [ring | lia].
Qed.

Lemma Gd_step (x : R) (j : nat) (h : R -> nat -> R) (s : R) (N : nat) :
  Gd x j h s N + Gd x j h (s + x) (1 + N) = 2 * Gd x (S j) h s N.
Proof.
  unfold Gd. rewrite (bexp_S (1/2) j). cbv beta.
  rewrite (bexp_ext (1/2) j (fun i => h (s + x + INR (S i) * x) (S i + (1 + N))%nat - h (s + x + INR i * x) (i + (1 + N))%nat)
    (fun i => h (s + INR (S (S i)) * x) (S (S i) + N)%nat - h (s + INR (S i) * x) (S i + N)%nat)).
  - lra.
  - intros i. f_equal; f_equal; first [rewrite !S_INR; ring | lia].
Qed.

Lemma Gd_0 (x : R) (h : R -> nat -> R) (s : R) (N : nat) : Gd x 0 h s N = h (s + x) (1 + N)%nat - h s N.
Proof.
  unfold Gd. cbn [bexp]. f_equal; f_equal; simpl INR; first [ring | lia].
Qed.

Section Smooth.
Variables (d : nat) (e c r p : R) (w : nat -> R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.
Hypothesis Hw : forall i, in_range c r (w i).
Hypothesis Hp : 0 <= p <= 1.

Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.

Lemma mexp_ext' (K : nat) (g h : R -> nat -> R) :
  (forall s N, g s N = h s N) -> mexp d e c r p w K g = mexp d e c r p w K h.
Proof.
  revert g h. induction K as [|K IH]; intros g h H; [simpl; apply H|].
  assert (E : forall a j, mexp d e c r p w K (shift g a j) = mexp d e c r p w K (shift h a j)).
  { intros a' j. apply IH. intros s N. unfold shift. apply H. }
  cbn [mexp]; unfold jsum; cbv beta. rewrite (IH g h H), !E. reflexivity.
Qed.

Lemma mexp_lin (K : nat) (g h : R -> nat -> R) (x y : R) :
  mexp d e c r p w K (fun s N => x * g s N + y * h s N) = x * mexp d e c r p w K g + y * mexp d e c r p w K h.
Proof.
  revert g h. induction K as [|K IH]; intros g h; [reflexivity|].
  assert (E : forall a j, mexp d e c r p w K (shift (fun s N => x * g s N + y * h s N) a j)
                = x * mexp d e c r p w K (shift g a j) + y * mexp d e c r p w K (shift h a j)).
  { intros a' j. exact (IH (shift g a' j) (shift h a' j)). }
  cbn [mexp]; unfold jsum; cbv beta. rewrite IH, !E. ring.
Qed.

Lemma corbinq_joint_nonneg (w1 w2 : R) (s1 s2 : bool) : in_range c r w1 -> in_range c r w2 ->
  0 <= joint d (corbinq d e c r) w1 w2 s1 s2.
Proof.
  intros H1 H2.
  pose proof (ldpq_q_prob (alpha e) c r w1 Ha Hr H1). pose proof (ldpq_q_prob (alpha e) c r w2 Ha Hr H2).
  pose proof (nZ_pos d) as NZ.
  assert (U : 0 <= u_of d (alpha e) c r w1) by (unfold u_of; apply Rmult_le_pos; lra).
  assert (V : 0 <= v_of d (alpha e) c r w2) by (unfold v_of; apply Rmult_le_pos; lra).
  assert (SP : forall s q, 0 <= q <= 1 -> 0 <= sgn_prob s q) by (intros [|] q Hq; simpl; lra).
  unfold joint, avgZ. apply Rmult_le_pos; [|left; apply Rinv_0_lt_compat; exact NZ].
  apply fsum_nonneg. intros z _. simpl.
  pose proof (step_prob _ z U). pose proof (step_prob _ z V).
  apply Rmult_le_pos; apply SP; lra.
Qed.

Lemma joint4 (w1 w2 : R) :
  joint d (corbinq d e c r) w1 w2 true true + joint d (corbinq d e c r) w1 w2 true false
  + joint d (corbinq d e c r) w1 w2 false true + joint d (corbinq d e c r) w1 w2 false false = 1.
Proof. exact (joint_sum d (corbinq d e c r) w1 w2). Qed.

Lemma lq (i : nat) : 0 <= ldpq_q (alpha e) c r (w i) <= 1.
Proof. pose proof (ldpq_q_prob (alpha e) c r (w i) Ha Hr (Hw i)). lra. Qed.

Lemma mexp_01 (K : nat) (g : R -> nat -> R) (lo hi : R) :
  (forall s N, lo <= g s N <= hi) -> lo <= mexp d e c r p w K g <= hi.
Proof.
  revert g. induction K as [|K IH]; intros g Hg; [simpl; apply Hg|].
  assert (Sh : forall x j, lo <= mexp d e c r p w K (shift g x j) <= hi) by (intros; apply IH; intros; apply Hg).
  cbn [mexp]; unfold jsum; cbv beta.
  apply step_avg; try apply lq; try apply corbinq_joint_nonneg; try apply Hw; try apply joint4; try apply Sh; auto.
Qed.

Lemma mexp2_01 (K : nat) (g : R -> nat -> R) (lo hi : R) :
  (forall s N, lo <= g s N <= hi) -> lo <= mexp2 d e c r p w (S K) g <= hi.
Proof.
  intros Hg.
  assert (Sh : forall x j, lo <= mexp d e c r p w K (shift g x j) <= hi) by (intros; apply mexp_01; intros; apply Hg).
  cbn [mexp2]; unfold jsum; cbv beta.
  apply step_avg; try apply lq; try apply corbinq_joint_nonneg; try apply Hw; try apply joint4; try apply Sh;
    try apply mexp_01; auto.
Qed.

Lemma mexp_Gd_shift (K j : nat) (x : R) (h : R -> nat -> R) (a' : R) (k : nat) :
  mexp d e c r p w K (shift (Gd x j h) a' k) = mexp d e c r p w K (Gd x j (shift h a' k)).
Proof. apply mexp_ext'. intros. apply Gd_shift. Qed.

Lemma mexp_Gd_step (K j : nat) (x : R) (h : R -> nat -> R) :
  mexp d e c r p w K (Gd x j h) + mexp d e c r p w K (Gd x j (shift h x 1)) = 2 * mexp d e c r p w K (Gd x (S j) h).
Proof.
  transitivity (mexp d e c r p w K (fun s N => 1 * Gd x j h s N + 1 * Gd x j (shift h x 1) s N)).
  { rewrite mexp_lin. ring. }
  transitivity (mexp d e c r p w K (fun s N => 2 * Gd x (S j) h s N + 0 * Gd x (S j) h s N)).
  { apply mexp_ext'. intros s N. rewrite <- Gd_shift. unfold shift at 1. rewrite <- Gd_step. ring. }
  rewrite mexp_lin. ring.
Qed.

Lemma mexp_shift_diff (K : nat) (x : R) (h : R -> nat -> R) :
  mexp d e c r p w K (shift h x 1) = mexp d e c r p w K h + mexp d e c r p w K (Gd x 0 h).
Proof.
  transitivity (mexp d e c r p w K (fun s N => 1 * h s N + 1 * Gd x 0 h s N)).
  { apply mexp_ext'. intros s N. rewrite Gd_0. unfold shift. ring. }
  rewrite mexp_lin. ring.
Qed.

(** The weight kept in place and the weight moved by one report, in every pair. *)
Definition beta0 : R := p * p * (1 - p) * ((a - 1) / a).

Lemma beta0_props : 0 <= beta0 /\ beta0 <= p * p /\
  forall l1 l2, (a - 1) / (2 * a) <= l1 <= (a + 1) / (2 * a) -> (a - 1) / (2 * a) <= l2 <= (a + 1) / (2 * a) ->
    beta0 <= p * (1 - p) * (l1 + l2) /\ beta0 <= p * (1 - p) * (2 - l1 - l2).
Proof.
  unfold beta0. assert (A1 : 0 <= (a - 1) / a <= 1).
  { split; [apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]|]. apply div_le_l; lra. }
  assert (P1 : 0 <= p * p) by nra. assert (P2 : 0 <= 1 - p) by lra.
  destruct A1 as [A1l A1u].
  split; [apply Rmult_le_pos; [apply Rmult_le_pos; lra|exact A1l]|]. split.
  - assert (p * p * ((1 - p) * ((a - 1) / a)) <= p * p * 1).
    { apply Rmult_le_compat_l; [lra|]. nra. }
    lra.
  - intros l1 l2 L1 L2.
    assert (S1 : (a - 1) / a <= l1 + l2).
    { replace ((a - 1) / a) with ((a - 1) / (2 * a) + (a - 1) / (2 * a)) by (field; lra). lra. }
    assert (S2 : (a - 1) / a <= 2 - l1 - l2).
    { replace ((a - 1) / a) with (2 - (a + 1) / (2 * a) - (a + 1) / (2 * a)) by (field; lra). lra. }
    assert (Q : p * p * (1 - p) * ((a - 1) / a) <= p * (1 - p) * ((a - 1) / a)).
    { replace (p * p * (1 - p) * ((a - 1) / a)) with (p * (p * (1 - p) * ((a - 1) / a))) by ring.
      replace (p * (1 - p) * ((a - 1) / a)) with (1 * (p * (1 - p) * ((a - 1) / a))) at 2 by ring.
      apply Rmult_le_compat_r; [|lra]. apply Rmult_le_pos; [nra|exact A1l]. }
    assert (P3 : 0 <= p * (1 - p)) by nra.
    split; eapply Rle_trans; try exact Q; apply Rmult_le_compat_l; lra.
Qed.

Lemma beta0_le : beta0 <= 1 / 4.
Proof.
  unfold beta0. assert (A1 : 0 <= (a - 1) / a <= 1).
  { split; [apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]|]. apply div_le_l; lra. }
  destruct A1 as [A1l A1u].
  assert (P : 0 <= p * p * (1 - p) <= 1 / 4).
  { split; [apply Rmult_le_pos; nra|]. pose proof (pow2_ge_0 (p - 1/2)). nra. }
  assert (p * p * (1 - p) * ((a - 1) / a) <= p * p * (1 - p) * 1) by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

Theorem smooth_core (x : R) : (x = c + r * alpha e \/ x = c - r * alpha e) ->
  forall K j h, (forall s N, 0 <= h s N <= 1) ->
    Rabs (mexp d e c r p w K (Gd x j h)) <= bexp (1 - 2 * beta0) K (fun J => bnd (j + J)).
Proof.
  intros Hx K. induction K as [|K IH]; intros j h Hh.
  - cbn [mexp bexp]. rewrite Nat.add_0_r. unfold Gd.
    apply (shift_abs j (fun i => h (0 + INR i * x) (i + 0)%nat)). intros i. apply Hh.
  - destruct beta0_props as [B0 [B1 B2]].
    assert (IHs : forall x' k, Rabs (mexp d e c r p w K (Gd x j (shift h x' k))) <= bexp (1 - 2 * beta0) K (fun J => bnd (j + J))).
    { intros. apply IH. intros. apply Hh. }
    assert (IH1 : Rabs (mexp d e c r p w K (Gd x (S j) h)) <= bexp (1 - 2 * beta0) K (fun J => bnd (S j + J))) by (apply IH; exact Hh).
    assert (E : bexp (1 - 2 * beta0) (S K) (fun J => bnd (j + J)) =
                2 * beta0 * bexp (1 - 2 * beta0) K (fun J => bnd (S j + J)) + (1 - 2 * beta0) * bexp (1 - 2 * beta0) K (fun J => bnd (j + J))).
    { rewrite bexp_S. rewrite (bexp_ext _ K (fun i => bnd (j + S i)) (fun J => bnd (S j + J))) by (intros; f_equal; lia). ring. }
    rewrite E. clear E.
    cbn [mexp]; unfold jsum; cbv beta. rewrite !mexp_Gd_shift.
    pose proof (ldpq_q_bounds (alpha e) c r (w (2 * K)%nat) Ha Hr (Hw _)) as L1.
    pose proof (ldpq_q_bounds (alpha e) c r (w (2 * K + 1)%nat) Ha Hr (Hw _)) as L2.
    destruct (B2 _ _ L1 L2) as [Bp Bm].
    pose proof (lq (2 * K)) as Q1. pose proof (lq (2 * K + 1)) as Q2.
    pose proof (joint4 (w (2 * K)%nat) (w (2 * K + 1)%nat)) as J4.
    destruct Hx as [-> | ->].
    + apply step_core with (G1 := mexp d e c r p w K (Gd (c + r * alpha e) (S j) h));
        try apply corbinq_joint_nonneg; try apply Hw; auto; try apply IHs.
      * apply mexp_Gd_step.
    + apply step_core_minus with (G1 := mexp d e c r p w K (Gd (c - r * alpha e) (S j) h));
        try apply corbinq_joint_nonneg; try apply Hw; auto; try apply IHs.
      * apply mexp_Gd_step.
Qed.

(** Removing client 1's report moves the probability of any event by at most the smoothing
    bound of the other K pairs. *)
Theorem report_gap (K : nat) (g : R -> nat -> R) : (forall s N, 0 <= g s N <= 1) ->
  mexp d e c r p w (S K) g - mexp2 d e c r p w (S K) g <= bexp (1 - 2 * beta0) K (fun J => bnd (0 + J)).
Proof.
  intros Hg. set (T := bexp (1 - 2 * beta0) K (fun J => bnd (0 + J))).
  assert (Tb : forall x h, (x = c + r * alpha e \/ x = c - r * alpha e) -> (forall s N, 0 <= h s N <= 1) ->
     Rabs (mexp d e c r p w K (Gd x 0 h)) <= T) by (intros; apply smooth_core; auto).
  assert (T0 : 0 <= T).
  { unfold T. destruct beta0_props as [B0 [B1 _]]. pose proof beta0_le. rewrite <- (bexp_const (1 - 2 * beta0) K 0).
    apply bexp_mono; [lra|]. intros. apply bnd_nonneg. }
  assert (Hsh : forall x j, forall s N, 0 <= shift g x j s N <= 1) by (intros; unfold shift; apply Hg).
  assert (Lp : level (corbinq d e c r) true = c + r * alpha e) by reflexivity.
  assert (Lm : level (corbinq d e c r) false = c - r * alpha e) by reflexivity.
  assert (Two : forall x y, mexp d e c r p w K (shift g (x + y) 2) = mexp d e c r p w K (shift (shift g y 1) x 1)).
  { intros x y. apply mexp_ext'. intros s N. unfold shift. f_equal; first [ring | lia]. }
  cbn [mexp mexp2]; unfold jsum; cbv beta. rewrite !Two, !(mexp_shift_diff K _ (shift g _ 1)), !(mexp_shift_diff K _ g).
  rewrite Lp, Lm.
  pose proof (lq (2 * K)) as Q1.
  pose proof (joint4 (w (2 * K)%nat) (w (2 * K + 1)%nat)) as J4.
  pose proof (fun s1 s2 => corbinq_joint_nonneg (w (2 * K)%nat) (w (2 * K + 1)%nat) s1 s2 (Hw _) (Hw _)) as JN.
  set (jj := joint d (corbinq d e c r) (w (2 * K)%nat) (w (2 * K + 1)%nat)) in *.
  set (l1 := ldpq_q (alpha e) c r (w (2 * K)%nat)) in *.
  assert (Dp : Rabs (mexp d e c r p w K (Gd (c + r * alpha e) 0 g)) <= T) by (apply Tb; auto).
  assert (Dm : Rabs (mexp d e c r p w K (Gd (c - r * alpha e) 0 g)) <= T) by (apply Tb; auto).
  assert (D1 : forall y, Rabs (mexp d e c r p w K (Gd (c + r * alpha e) 0 (shift g y 1))) <= T) by (intros; apply Tb; auto).
  assert (D2 : forall y, Rabs (mexp d e c r p w K (Gd (c - r * alpha e) 0 (shift g y 1))) <= T) by (intros; apply Tb; auto).
  assert (P2 : 0 <= (1 - p) * p) by nra. assert (P3 : 0 <= (1 - p) * (1 - p)) by nra.
  pose proof (cmul_bounds ((1 - p) * p * l1) _ _ ltac:(apply Rmult_le_pos; lra) Dp).
  pose proof (cmul_bounds ((1 - p) * p * (1 - l1)) _ _ ltac:(apply Rmult_le_pos; lra) Dm).
  pose proof (cmul_bounds ((1 - p) * (1 - p) * jj true true) _ _ ltac:(apply Rmult_le_pos; auto) (D1 (c + r * alpha e))).
  pose proof (cmul_bounds ((1 - p) * (1 - p) * jj true false) _ _ ltac:(apply Rmult_le_pos; auto) (D1 (c - r * alpha e))).
  pose proof (cmul_bounds ((1 - p) * (1 - p) * jj false true) _ _ ltac:(apply Rmult_le_pos; auto) (D2 (c + r * alpha e))).
  pose proof (cmul_bounds ((1 - p) * (1 - p) * jj false false) _ _ ltac:(apply Rmult_le_pos; auto) (D2 (c - r * alpha e))).
  assert (W : (1 - p) * p * l1 * T + (1 - p) * p * (1 - l1) * T + (1 - p) * (1 - p) * jj true true * T
    + (1 - p) * (1 - p) * jj true false * T + (1 - p) * (1 - p) * jj false true * T
    + (1 - p) * (1 - p) * jj false false * T = (1 - p) * T).
  { replace (jj false false) with (1 - jj true true - jj true false - jj false true) by lra. ring. }
  assert ((1 - p) * T <= T) by nra.
  lra.
Qed.

End Smooth.

(** ** Part C: the binomial tail, and R1 *)

Lemma sqrt_4 : sqrt 4 = 2.
Proof. replace 4 with (2 * 2) by ring. apply sqrt_square. lra. Qed.

(** E √(2/(J + 1)) ≤ √(4/(Kq)) + 8/(Kq) for J ~ Binomial(K, q). *)
Lemma binom_tail (q : R) (K : nat) : 0 < q <= 1 -> (1 <= K)%nat ->
  bexp (1 - q) K (fun J => bnd (0 + J)) <= sqrt (4 / (INR K * q)) + 8 / (INR K * q).
Proof.
  intros Hq HK. assert (HK' : 1 <= INR K) by (apply (le_INR 1); exact HK).
  set (mu := INR K * q). assert (Hmu : 0 < mu) by (unfold mu; nra).
  set (s4 := sqrt (4 / mu)). assert (S4 : 0 <= s4) by apply sqrt_pos.
  apply Rle_trans with (bexp (1 - q) K (fun J => (s4 + 8) + (- 16 / mu) * INR J + (8 / mu ^ 2) * INR J ^ 2)).
  - apply bexp_mono; [lra|]. intros J. simpl (0 + J)%nat. unfold bnd.
    pose proof (pos_INR J) as PJ. set (t := INR J) in *.
    replace ((s4 + 8) + (- 16 / mu) * t + (8 / mu ^ 2) * t ^ 2) with (s4 + 8 * (t - mu) ^ 2 / mu ^ 2) by (field; lra).
    assert (Q0 : 0 <= 8 * (t - mu) ^ 2 / mu ^ 2).
    { apply Rmult_le_pos; [pose proof (pow2_ge_0 (t - mu)); lra|]. left. apply Rinv_0_lt_compat. nra. }
    destruct (Rle_dec mu (2 * (t + 1))) as [C|C].
    + enough (sqrt (2 / (t + 1)) <= s4) by lra. unfold s4. apply sqrt_le_1_alt.
      apply (Rmult_le_reg_r (mu * (t + 1))); [nra|].
      replace (2 / (t + 1) * (mu * (t + 1))) with (2 * mu) by (field; lra).
      replace (4 / mu * (mu * (t + 1))) with (4 * (t + 1)) by (field; lra). lra.
    + assert (Q1 : 2 <= 8 * (t - mu) ^ 2 / mu ^ 2).
      { apply (Rmult_le_reg_r (mu ^ 2)); [nra|].
        replace (8 * (t - mu) ^ 2 / mu ^ 2 * mu ^ 2) with (8 * (t - mu) ^ 2) by (field; lra). nra. }
      assert (Q2 : sqrt (2 / (t + 1)) <= 2).
      { apply Rle_trans with (sqrt 4); [|rewrite sqrt_4; lra]. apply sqrt_le_1_alt.
        apply (Rmult_le_reg_r (t + 1)); [lra|].
        replace (2 / (t + 1) * (t + 1)) with 2 by (field; lra). lra. }
      lra.
  - rewrite bexp_quad.
    match goal with |- ?L <= _ => replace L with (s4 + 8 * (1 - q) / mu) by (unfold mu; field; lra) end.
    assert (8 * (1 - q) / mu <= 8 / mu).
    { apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|lra]. }
    unfold s4. lra.
Qed.

(** Eq. (th:3:1) is ≥ 0 when δ < 1 and nγ − 1 > 0. *)
Lemma eps_nonneg (n : nat) (g delta a r : R) : 0 < delta < 1 -> 1 < a -> 0 < r -> 0 < INR n * g - 1 ->
  0 <= th3_eps_u_printed n 1 g delta a r.
Proof.
  intros Hd Ha Hr HN. unfold th3_eps_u_printed, th3_b_p, th3_e_p. cbv zeta.
  set (N := INR n * g - 1) in *.
  assert (L1 : 0 < ln (5 / 4 / delta)) by (apply ln_pos_gt; apply lt_div_r; lra).
  assert (L2 : 0 < ln (20 * INR 1 / delta)) by (apply ln_pos_gt; simpl INR; apply lt_div_r; lra).
  assert (L3 : 0 < ln (10 / delta)) by (apply ln_pos_gt; apply lt_div_r; lra).
  assert (Ea : 0 < 1 + 1 / a ^ 2) by (assert (0 < 1 / a ^ 2) by (apply Rdiv_lt_0_compat; [lra|nra]); lra).
  assert (Ia : 0 < 1 / a) by (apply Rdiv_lt_0_compat; lra).
  assert (Ia2 : 0 < 15 / 4 / a ^ 2) by (apply Rdiv_lt_0_compat; [lra|nra]).
  apply Rmult_le_pos; [nra|].
  apply Rplus_le_le_0_compat; [apply Rplus_le_le_0_compat|].
  - apply sqrt_pos.
  - apply Rmult_le_pos; [|left; apply Rinv_0_lt_compat; lra]. nra.
  - apply Rmult_le_pos; [|left; apply Rinv_0_lt_compat; apply Rmult_lt_0_compat; [|lra]; apply Rmult_lt_0_compat; lra].
    assert (0 < (1 + 1 / a ^ 2) / 3) by lra.
    repeat apply Rmult_le_pos; try lra; try apply sqrt_pos.
Qed.

(** R1: Theorem 4's (ε_u, δ)-UCDP conclusion holds for every large enough n, the other parameters
    fixed. The threshold N0 depends only on ε_p, δ and p (not on δ1, r, c, d or the inputs), so it
    also covers δ1 chosen after n. One coordinate (m = 1), as in Thm4.v's T4u_claim. *)
Definition T4u_large_claim : Prop :=
  forall e delta p : R, exists N0 : nat,
    forall (d : nat) (delta1 r c : R) (K : nat) (w : nat -> R),
      (N0 <= K)%nat -> thm4_pre e delta delta1 p r 1 (2 * K) -> (forall i, in_range c r (w i)) ->
      let n := (2 * K)%nat in
      let eps := th3_eps_u_printed n 1%nat (gamma4 p (delta - delta1) (INR n)) delta (alpha e) r in
      forall S : R -> bool,
        mexp d e c r p w K (fun s _ => ind (S (s / INR n)))
        <= exp eps * mexp2 d e c r p w K (fun s _ => ind (S (s / INR n))) + delta.

Lemma pre_facts (e delta delta1 p r : R) (m n : nat) : thm4_pre e delta delta1 p r m n ->
  0 < e /\ 0 < delta /\ 0 < p < 1 /\ 0 < r /\ 0 < delta1 < delta /\
  0 < gamma4 p (delta - delta1) (INR n) <= 1 /\ 0 < INR n * gamma4 p (delta - delta1) (INR n) - 1.
Proof.
  unfold thm4_pre. cbv zeta. intros [He [Hd [Hp [Hr [Hm [Hd1 [Hg HR]]]]]]].
  pose proof (alpha_gt_1 e He) as Ha.
  assert (Hp1 : p < 1).
  { unfold gamma4 in Hg. pose proof (sqrt_pos (p * (1 - p) * (1 - 2 * p * (1 - p)) / (4 * (delta - delta1) * INR n))). nra. }
  repeat split; try lra.
  pose proof (Rmax_r (23 * ln (INR m / delta1)) (2 * r * alpha e)) as M.
  assert (F : 0 < 1 / 4 - 1 / (4 * alpha e ^ 2)).
  { assert (1 / (4 * alpha e ^ 2) < 1 / 4).
    { apply Rmult_lt_reg_r with (4 * alpha e ^ 2); [nra|]. replace (1 / (4 * alpha e ^ 2) * (4 * alpha e ^ 2)) with 1 by (field; lra). nra. }
    lra. }
  assert (0 < 2 * r * alpha e) by nra.
  destruct (Rle_or_lt (INR n * gamma4 p (delta - delta1) (INR n) - 1) 0) as [C|C]; [|exact C].
  exfalso. assert ((INR n * gamma4 p (delta - delta1) (INR n) - 1) * (1 / 4 - 1 / (4 * alpha e ^ 2)) <= 0).
  { set (u := INR n * gamma4 p (delta - delta1) (INR n) - 1) in *. nra. }
  lra.
Qed.

Theorem T4u_large : T4u_large_claim.
Proof.
  intros e delta p.
  destruct (Rlt_dec 0 e) as [He|He]; [|exists 1%nat; intros d delta1 r c K w _ Hpre; exfalso; apply pre_facts in Hpre; lra].
  destruct (Rlt_dec 0 p) as [Hp0|Hp0]; [|exists 1%nat; intros d delta1 r c K w _ Hpre; exfalso; apply pre_facts in Hpre; lra].
  destruct (Rlt_dec p 1) as [Hp1|Hp1]; [|exists 1%nat; intros d delta1 r c K w _ Hpre; exfalso; apply pre_facts in Hpre; lra].
  destruct (Rlt_dec 0 delta) as [Hd|Hd]; [|exists 1%nat; intros d delta1 r c K w _ Hpre; exfalso; apply pre_facts in Hpre; lra].
  pose proof (alpha_gt_1 e He) as Ha.
  set (q := 2 * beta0 e p).
  assert (Hq : 0 < q <= 1).
  { unfold q, beta0. assert (0 < (alpha e - 1) / alpha e) by (apply Rdiv_lt_0_compat; lra).
    assert (0 < p * p * (1 - p)) by (apply Rmult_lt_0_compat; nra).
    assert (P : p * p * (1 - p) <= 1 / 4) by (pose proof (pow2_ge_0 (p - 1/2)); nra).
    assert (A1 : (alpha e - 1) / alpha e <= 1) by (apply div_le_l; lra).
    assert (p * p * (1 - p) * ((alpha e - 1) / alpha e) <= p * p * (1 - p) * 1) by (apply Rmult_le_compat_l; lra).
    split; [apply Rmult_lt_0_compat; [lra|apply Rmult_lt_0_compat; lra]|lra]. }
  set (dl := Rmin delta 1).
  assert (Hdl : 0 < dl <= 1 /\ dl <= delta) by (unfold dl, Rmin; destruct (Rle_dec delta 1); lra).
  destruct (archimed_cor1 (q * dl ^ 2 / 16)) as [N [HN HN0]].
  { apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [lra|nra]|lra]. }
  exists (S N). intros d delta1 r c K w HK Hpre Hw n eps S.
  destruct (pre_facts _ _ _ _ _ _ _ Hpre) as [_ [_ [_ [Hr [Hd1 [Hg HN1]]]]]].
  destruct K as [|K']; [lia|].
  set (g := fun (s : R) (_ : nat) => ind (S (s / INR n))).
  assert (Hg01 : forall s N, 0 <= g s N <= 1) by (intros; unfold g, ind; destruct (S _); lra).
  pose proof (report_gap d e c r p w He Hr Hw ltac:(lra) K' g Hg01) as G. fold q in G.
  assert (HK' : (N <= K')%nat) by lia.
  pose proof (binom_tail q K' Hq ltac:(lia)) as T.
  assert (INRN : INR N <= INR K') by (apply le_INR; exact HK').
  assert (PN : 0 < INR N) by (apply lt_0_INR; exact HN0).
  set (mu := INR K' * q) in *.
  assert (Mu : 16 <= mu * dl ^ 2).
  { assert (16 < INR N * (q * dl ^ 2)).
    { apply (Rmult_lt_reg_l (/ INR N)); [apply Rinv_0_lt_compat; lra|].
      replace (/ INR N * (INR N * (q * dl ^ 2))) with (q * dl ^ 2) by (field; lra).
      apply Rmult_lt_reg_r with (1/16); [lra|]. replace (q * dl ^ 2 * (1 / 16)) with (q * dl ^ 2 / 16) by field.
      nra. }
    assert (INR N * (q * dl ^ 2) <= mu * dl ^ 2) by (unfold mu; assert (0 <= q * dl ^ 2) by nra; nra).
    lra. }
  assert (Hmu : 0 < mu) by (destruct Hdl; nra).
  assert (T1 : sqrt (4 / mu) <= dl / 2).
  { rewrite <- (sqrt_pow2 (dl / 2)) by lra. apply sqrt_le_1_alt.
    apply (Rmult_le_reg_r mu); [lra|]. replace (4 / mu * mu) with 4 by (field; lra). nra. }
  assert (T2 : 8 / mu <= dl / 2).
  { apply (Rmult_le_reg_r mu); [lra|]. replace (8 / mu * mu) with 8 by (field; lra).
    destruct Hdl as [[D0 D1] _]. assert (mu * dl ^ 2 <= mu * dl) by (apply Rmult_le_compat_l; nra). nra. }
  assert (Main : mexp d e c r p w (Datatypes.S K') g <= mexp2 d e c r p w (Datatypes.S K') g + dl) by lra.
  pose proof (mexp2_01 d e c r p w He Hr Hw ltac:(lra) K' g 0 1 Hg01) as M2.
  pose proof (mexp_01 d e c r p w He Hr Hw ltac:(lra) (Datatypes.S K') g 0 1 Hg01) as M1.
  fold g.
  destruct (Rlt_dec delta 1) as [D1|D1].
  - assert (E0 : 0 <= eps) by (apply eps_nonneg; auto; lra).
    assert (1 <= exp eps) by (rewrite <- exp_0; destruct E0 as [E0|E0]; [left; apply exp_increasing; exact E0|rewrite <- E0; lra]).
    assert (mexp2 d e c r p w (Datatypes.S K') g <= exp eps * mexp2 d e c r p w (Datatypes.S K') g) by nra.
    destruct Hdl. lra.
  - pose proof (exp_pos eps). assert (0 <= exp eps * mexp2 d e c r p w (Datatypes.S K') g) by nra. lra.
Qed.

(** ** Part D: the MSE bound (T4m) for large n, δ1 fixed before n (R2a) *)

Lemma dexp_count (p : R) (u : nat -> R * R * R) (K : nat) (f : nat -> R) :
  dexp p u K (fun _ N => f N) = bexp p (2 * K) f.
Proof.
  revert f. induction K as [|K IH]; intros f; [reflexivity|].
  replace (2 * S K)%nat with (S (S (2 * K))) by lia. cbn [dexp]. destruct (u K) as [[v1 v2] v12].
  rewrite !bexp_S. rewrite (IH f), (IH (fun N => f (S N))), (IH (fun N => f (S (S N)))). ring.
Qed.

(** Monotonicity under the invariant 0 ≤ V ≤ B·N (each report's unit MSE is at most B). *)
Lemma dexp_mono_B (p B : R) (u : nat -> R * R * R) (K : nat) (g h : R -> nat -> R) :
  0 <= p <= 1 -> 0 <= B ->
  (forall k, let '(v1, v2, v12) := u k in 0 <= v1 <= B /\ 0 <= v2 <= B /\ 0 <= v12 <= 2 * B) ->
  (forall V N, 0 <= V <= B * INR N -> h V N <= g V N) -> dexp p u K h <= dexp p u K g.
Proof.
  intros Hp HB Hu. revert g h. induction K as [|K IH]; intros g h H; simpl; [apply H; simpl; lra|].
  specialize (Hu K). destruct (u K) as [[v1 v2] v12]. destruct Hu as [U1 [U2 U3]].
  assert (A : forall v j, 0 <= v <= INR j * B ->
     dexp p u K (fun V N => h (V + v) (j + N)%nat) <= dexp p u K (fun V N => g (V + v) (j + N)%nat)).
  { intros v j Hv. apply IH. intros V N HV. apply H. rewrite plus_INR. nra. }
  pose proof (IH g h H) as I0.
  pose proof (A v2 1%nat ltac:(simpl; lra)) as I2. pose proof (A v1 1%nat ltac:(simpl; lra)) as I1.
  pose proof (A v12 2%nat ltac:(simpl; lra)) as I3. simpl in I1, I2, I3.
  assert (0 <= p * p) by nra. assert (0 <= p * (1 - p)) by nra. assert (0 <= (1 - p) * p) by nra.
  assert (0 <= (1 - p) * (1 - p)) by nra.
  apply Rplus_le_compat; [apply Rplus_le_compat; [apply Rplus_le_compat|]|]; apply Rmult_le_compat_l; assumption.
Qed.

(** The exact MSE is at most r_j²α²(2 + 4p)/(n(1 − p)). *)
Lemma mse4_upper (a c rj p : R) (K : nat) (w : nat -> R) :
  1 < a -> 0 < rj -> 0 <= p < 1 -> (1 <= K)%nat -> (forall i, in_range c rj (w i)) ->
  mse4 a c rj p K w <= rj ^ 2 * a ^ 2 * (2 + 4 * p) / (INR (2 * K) * (1 - p)).
Proof.
  intros Ha Hr Hp HK Hw. set (B := rj ^ 2 * a ^ 2).
  assert (HB : 0 < B) by (unfold B; apply Rmult_lt_0_compat; apply pow_lt; lra).
  set (M := INR (2 * K) * (1 - p)).
  assert (HM : 0 < M) by (unfold M; rewrite mult_INR; assert (1 <= INR K) by (apply (le_INR 1); lia); simpl INR; nra).
  unfold mse4.
  apply Rle_trans with (dexp p (units a c rj w) K (fun _ N => B * ((2 / M + 4) + (- 8 / M) * INR N + (4 / M ^ 2) * INR N ^ 2))).
  - apply dexp_mono_B with (B := B); [lra|lra| |].
    + intros k. unfold units. pose proof (units_nonneg a c rj w k Ha Hr Hw) as U. unfold units in U.
      destruct U as [U1 [U2 U3]].
      pose proof (ldpq_mse_le a c rj (w (2 * k)%nat)). pose proof (ldpq_mse_le a c rj (w (2 * k + 1)%nat)).
      pose proof (opt_pair_mse_le_a2 a c rj Hr (w (2 * k)%nat) (w (2 * k + 1)%nat)).
      unfold B; repeat split; lra.
    + intros V N [V0 V1]. destruct (N =? 0)%nat eqn:E.
      * apply Nat.eqb_eq in E. subst N. simpl INR.
        replace (B * (2 / M + 4 + -8 / M * 0 + 4 / M ^ 2 * 0 ^ 2)) with (B * (2 / M + 4)) by ring.
        assert (0 < 2 / M) by (apply Rdiv_lt_0_compat; lra). nra.
      * apply Nat.eqb_neq in E. assert (HN : 1 <= INR N) by (apply (le_INR 1); lia).
        set (t := INR N) in *.
        replace (2 / M + 4 + -8 / M * t + 4 / M ^ 2 * t ^ 2) with (2 / M + 4 * (t - M) ^ 2 / M ^ 2) by (field; lra).
        assert (Q : 1 / t <= 2 / M + 4 * (t - M) ^ 2 / M ^ 2).
        { assert (Q0 : 0 <= 4 * (t - M) ^ 2 / M ^ 2).
          { apply Rmult_le_pos; [pose proof (pow2_ge_0 (t - M)); lra|left; apply Rinv_0_lt_compat; nra]. }
          assert (Q1 : 0 < 2 / M) by (apply Rdiv_lt_0_compat; lra).
          destruct (Rle_dec M (2 * t)) as [C|C].
          - assert (1 / t <= 2 / M).
            { apply (Rmult_le_reg_r (t * M)); [nra|].
              replace (1 / t * (t * M)) with M by (field; lra). replace (2 / M * (t * M)) with (2 * t) by (field; lra). lra. }
            lra.
          - assert (1 <= 4 * (t - M) ^ 2 / M ^ 2).
            { apply (Rmult_le_reg_r (M ^ 2)); [nra|].
              replace (4 * (t - M) ^ 2 / M ^ 2 * M ^ 2) with (4 * (t - M) ^ 2) by (field; lra). nra. }
            assert (1 / t <= 1) by (apply div_le_l; lra). lra. }
        apply Rle_trans with (B / t).
        -- unfold Rdiv. apply Rle_trans with (B * t * / t ^ 2).
           ++ apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; nra|lra].
           ++ right. field. lra.
        -- replace (B / t) with (B * (1 / t)) by (field; lra). apply Rmult_le_compat_l; lra.
  - rewrite (dexp_count p (units a c rj w) K (fun N => B * ((2 / M + 4) + (- 8 / M) * INR N + (4 / M ^ 2) * INR N ^ 2))).
    rewrite (bexp_ext p (2 * K) _ (fun N => (B * (2 / M + 4)) + (B * (-8 / M)) * INR N + (B * (4 / M ^ 2)) * INR N ^ 2))
      by (intros; ring).
    rewrite bexp_quad. right.
    assert (M2 : INR (2 * K) <> 0) by (intros Z; unfold M in HM; rewrite Z in HM; lra).
    unfold M. field. split; lra.
Qed.

(** Where θ > 0 (and γ ≤ 1, as the precondition requires), the printed bound is at least 8r²α²δ1. *)
Lemma t4_bound_ge (a r p delta delta1 n : R) :
  1 < a -> 0 < p < 1 -> 0 < n -> gamma4 p (delta - delta1) n <= 1 -> 0 < theta4 p (delta - delta1) n ->
  8 * r ^ 2 * a ^ 2 * delta1 <= t4_bound a r p delta delta1 n.
Proof.
  intros Ha Hp Hn Hg Ht. unfold t4_bound. cbv zeta.
  assert (G' : 0 <= gamma4' p (delta - delta1) n).
  { unfold gamma4'. pose proof (sqrt_pos (p * (1 - p) * (1 - 2 * p * (1 - p)) / (4 * (delta - delta1) * n))). nra. }
  assert (C : 0 <= th2_const a) by (rewrite th2_const_identity; nra).
  assert (nt : 0 < n * theta4 p (delta - delta1) n) by nra.
  assert (0 <= gamma4' p (delta - delta1) n * r ^ 2 * a ^ 2 / (n * theta4 p (delta - delta1) n)).
  { apply Rmult_le_pos; [|left; apply Rinv_0_lt_compat; lra]. pose proof (pow2_ge_0 r). pose proof (pow2_ge_0 a).
    apply Rmult_le_pos; [apply Rmult_le_pos|]; lra. }
  assert (0 <= (1 - gamma4 p (delta - delta1) n) / (2 * n * theta4 p (delta - delta1) n) * r ^ 2 * th2_const a).
  { pose proof (pow2_ge_0 r). apply Rmult_le_pos; [apply Rmult_le_pos|lra]; [|lra].
    apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]. }
  lra.
Qed.

Lemma theta4_pos (p x n : R) : 0 < p < 1 -> 0 < x -> 0 < n -> 1 < n * x * (p * (1 - p)) -> 0 < theta4 p x n.
Proof.
  intros Hp Hx Hn H. unfold theta4. assert (P : 0 < p * (1 - p)) by nra.
  enough (sqrt (p * (1 - p) / (x * n)) < p * (1 - p)) by lra.
  apply Rlt_le_trans with (sqrt ((p * (1 - p)) ^ 2)); [|rewrite sqrt_pow2; lra].
  apply sqrt_lt_1_alt. split.
  - apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; nra].
  - apply (Rmult_lt_reg_r (x * n)); [nra|]. replace (p * (1 - p) / (x * n) * (x * n)) with (p * (1 - p)) by (field; nra).
    set (u := p * (1 - p)) in *. replace (u ^ 2 * (x * n)) with (u * (n * x * u)) by ring.
    replace u with (u * 1) at 1 by ring. apply Rmult_lt_compat_l; lra.
Qed.

(** R2a: with δ1 (and every other parameter) fixed before n, the MSE bound holds for all large n.
    N0 depends only on δ, δ1 and p. *)
Definition T4m_large_claim : Prop :=
  forall e delta delta1 p r : R, exists N0 : nat,
    forall (rj c : R) (m K : nat) (w : nat -> R),
      (N0 <= K)%nat -> thm4_pre e delta delta1 p r m (2 * K) -> 0 < rj <= r -> (forall i, in_range c rj (w i)) ->
      mse4 (alpha e) c rj p K w <= t4_bound (alpha e) r p delta delta1 (INR (2 * K)).

Theorem T4m_large : T4m_large_claim.
Proof.
  intros e delta delta1 p r.
  destruct (Rlt_dec 0 p) as [Hp0|Hp0]; [|exists 1%nat; intros rj c m K w _ Hpre; exfalso; apply pre_facts in Hpre; lra].
  destruct (Rlt_dec p 1) as [Hp1|Hp1]; [|exists 1%nat; intros rj c m K w _ Hpre; exfalso; apply pre_facts in Hpre; lra].
  destruct (Rlt_dec 0 delta1) as [H1|H1]; [|exists 1%nat; intros rj c m K w _ Hpre; exfalso; apply pre_facts in Hpre; lra].
  destruct (Rlt_dec delta1 delta) as [H2|H2]; [|exists 1%nat; intros rj c m K w _ Hpre; exfalso; apply pre_facts in Hpre; lra].
  set (q := 1 - p). assert (Hq : 0 < q) by (unfold q; lra).
  set (X := (2 + 4 * p) / (8 * q * delta1) + 1 / ((delta - delta1) * (p * q)) + 1).
  assert (HX : 0 < X).
  { unfold X. assert (0 < (2 + 4 * p) / (8 * q * delta1)) by (apply Rdiv_lt_0_compat; [lra|]; repeat apply Rmult_lt_0_compat; lra).
    assert (0 < 1 / ((delta - delta1) * (p * q))) by (apply Rdiv_lt_0_compat; [lra|]; repeat apply Rmult_lt_0_compat; lra).
    lra. }
  destruct (archimed_cor1 (/ X)) as [N [HN HN0]]; [apply Rinv_0_lt_compat; lra|].
  exists N. intros rj c m K w HK Hpre Hrj Hw.
  destruct (pre_facts _ _ _ _ _ _ _ Hpre) as [He [_ [_ [Hr [_ [Hg _]]]]]].
  pose proof (alpha_gt_1 e He) as Ha.
  assert (PN : 0 < INR N) by (apply lt_0_INR; exact HN0).
  assert (XN : X < INR N).
  { destruct (Rlt_or_le X (INR N)) as [C|C]; [exact C|]. exfalso.
    pose proof (Rinv_le_contravar (INR N) X PN C). lra. }
  assert (KN : INR N <= INR K) by (apply le_INR; exact HK).
  set (n := INR (2 * K)). assert (Hn : n = 2 * INR K) by (unfold n; rewrite mult_INR; reflexivity).
  assert (nX : X < n) by lra.
  assert (A1 : (2 + 4 * p) / (8 * q * delta1) < n).
  { assert (0 < 1 / ((delta - delta1) * (p * q))) by (apply Rdiv_lt_0_compat; [lra|]; repeat apply Rmult_lt_0_compat; lra).
    unfold X in nX. lra. }
  assert (A2 : 1 / ((delta - delta1) * (p * q)) < n).
  { assert (0 < (2 + 4 * p) / (8 * q * delta1)) by (apply Rdiv_lt_0_compat; [lra|]; repeat apply Rmult_lt_0_compat; lra).
    unfold X in nX. lra. }
  assert (Th : 0 < theta4 p (delta - delta1) n).
  { apply theta4_pos; try lra.
    assert (0 < (delta - delta1) * (p * q)) by (repeat apply Rmult_lt_0_compat; lra).
    apply (Rmult_lt_reg_r (/ ((delta - delta1) * (p * q)))); [apply Rinv_0_lt_compat; lra|].
    replace (n * (delta - delta1) * (p * (1 - p)) * / ((delta - delta1) * (p * q))) with n by (unfold q; field; split; lra).
    lra. }
  assert (HK1 : (1 <= K)%nat).
  { destruct K; [|lia]. exfalso. simpl in KN. lra. }
  pose proof (mse4_upper (alpha e) c rj p K w Ha ltac:(lra) ltac:(lra) HK1 Hw) as U. fold n in U. fold q in U.
  pose proof (t4_bound_ge (alpha e) r p delta delta1 n Ha ltac:(lra) ltac:(lra) ltac:(apply Hg) Th) as L.
  eapply Rle_trans; [exact U|]. eapply Rle_trans; [|exact L].
  assert (Rj : rj ^ 2 <= r ^ 2) by (apply pow_incr; lra).
  assert (Hnq : 0 < n * q) by nra.
  assert (F : (2 + 4 * p) / (n * q) <= 8 * delta1).
  { apply div_le_l; [lra|].
    assert (P8 : 0 < 8 * q * delta1) by (repeat apply Rmult_lt_0_compat; lra).
    apply (Rmult_lt_compat_r (8 * q * delta1)) in A1; [|exact P8].
    replace ((2 + 4 * p) / (8 * q * delta1) * (8 * q * delta1)) with (2 + 4 * p) in A1 by (field; lra). lra. }
  replace (rj ^ 2 * alpha e ^ 2 * (2 + 4 * p) / (n * q)) with (rj ^ 2 * alpha e ^ 2 * ((2 + 4 * p) / (n * q))) by (field; lra).
  replace (8 * r ^ 2 * alpha e ^ 2 * delta1) with (r ^ 2 * alpha e ^ 2 * (8 * delta1)) by ring.
  assert (0 <= (2 + 4 * p) / (n * q)) by (apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]).
  pose proof (pow2_ge_0 (alpha e)). pose proof (pow2_ge_0 rj).
  apply Rle_trans with (r ^ 2 * alpha e ^ 2 * ((2 + 4 * p) / (n * q))).
  - apply Rmult_le_compat_r; [lra|]. apply Rmult_le_compat_r; lra.
  - apply Rmult_le_compat_l; [nra|lra].
Qed.

(** ** Part E: δ1 chosen after n (R2b). For every N0 there are n ≥ N0 and an admissible δ1 at which
    the printed bound fails: p = 1/2, δ = 1/100, α = 11 (ε_p = ln(6/5)), m = 1, r = r_j = 1, c = 0,
    every input 0, n = 2K ≥ 4000 and δ1 = 1/100 − 4n/(n + 4)², which makes θ = −1/n exactly:
    the bound is then ≤ −121/4 + 968/100 < 0 ≤ MSE. *)

Lemma ln_le_mono (x y : R) : 0 < x -> x <= y -> ln x <= ln y.
Proof. intros Hx Hxy. destruct (Req_dec x y) as [->|N]; [lra|]. left. apply ln_increasing; lra. Qed.

Definition r2b_delta1 (n : R) : R := 1 / 100 - 4 * n / (n + 4) ^ 2.


Lemma r2b_x (n : R) : 4000 <= n -> 1 / 100 - r2b_delta1 n = 4 * n / (n + 4) ^ 2.
Proof. intros. unfold r2b_delta1. ring. Qed.

Lemma r2b_gamma (n : R) : 4000 <= n ->
  4 / 25 <= gamma4 (1/2) (1 / 100 - r2b_delta1 n) n <= 1 / 4 /\
  1 / 4 <= gamma4' (1/2) (1 / 100 - r2b_delta1 n) n.
Proof.
  intros Hn. rewrite r2b_x by lra. unfold gamma4, gamma4'.
  set (y := 1 / 2 * (1 - 1 / 2) * (1 - 2 * (1 / 2) * (1 - 1 / 2)) / (4 * (4 * n / (n + 4) ^ 2) * n)).
  assert (Y : y = (n + 4) ^ 2 / (128 * n ^ 2)) by (unfold y; field; lra).
  assert (Y0 : 0 <= y) by (rewrite Y; apply Rmult_le_pos; [nra|left; apply Rinv_0_lt_compat; nra]).
  assert (Y1 : y <= (9 / 100) ^ 2).
  { rewrite Y. apply div_le_l; [nra|]. nra. }
  pose proof (sqrt_pos y).
  assert (sqrt y <= 9 / 100) by (rewrite <- (sqrt_pow2 (9/100)) by lra; apply sqrt_le_1_alt; exact Y1).
  lra.
Qed.

Lemma r2b_ntheta (n : R) : 4000 <= n -> n * theta4 (1/2) (1 / 100 - r2b_delta1 n) n = -1.
Proof.
  intros Hn. rewrite r2b_x by lra. unfold theta4.
  replace (1 / 2 * (1 - 1 / 2) / (4 * n / (n + 4) ^ 2 * n)) with (((n + 4) / (4 * n)) ^ 2) by (field; lra).
  rewrite sqrt_pow2 by (apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]). field. lra.
Qed.

Lemma r2b_delta1_bounds (n : R) : 4000 <= n -> 9 / 1000 <= r2b_delta1 n < 1 / 100.
Proof.
  intros Hn. unfold r2b_delta1.
  assert (P : 0 < (n + 4) ^ 2) by nra.
  assert (A : 4 * n / (n + 4) ^ 2 <= 1 / 1000) by (apply div_le_l; [lra|]; nra).
  assert (B : 0 < 4 * n / (n + 4) ^ 2) by (apply Rdiv_lt_0_compat; lra).
  lra.
Qed.

Lemma r2b_pre (K : nat) : (2000 <= K)%nat -> thm4_pre (ln (6/5)) (1/100) (r2b_delta1 (INR (2 * K))) (1/2) 1 1 (2 * K).
Proof.
  intros HK. set (n := INR (2 * K)).
  assert (Hn : 4000 <= n).
  { unfold n. rewrite mult_INR. apply le_INR in HK. replace (INR 2000) with 2000 in HK by (rewrite INR_IZR_INZ; reflexivity).
    simpl (INR 2). lra. }
  destruct (r2b_gamma n Hn) as [[G1 G2] _]. destruct (r2b_delta1_bounds n Hn) as [D1 D2].
  unfold thm4_pre. rewrite alpha_11. cbv zeta. fold n.
  repeat split; try lra; try lia; try (apply ln_pos_gt; lra).
  assert (L : ln (INR 1 / r2b_delta1 n) <= ln (1000 / 9)).
  { apply ln_le_mono; [simpl INR; apply Rdiv_lt_0_compat; lra|]. simpl INR.
    apply div_le_l; [lra|]. replace (1000 / 9 * r2b_delta1 n) with (r2b_delta1 n / (9 / 1000)) by field.
    apply le_div_r; lra. }
  assert (L2 : ln (1000 / 9) <= 48 / 10) by interval.
  assert (F : 1 / 4 - 1 / (4 * 11 ^ 2) = 120 / 484) by field.
  rewrite F. apply Rmax_le; [|nra]. nra.
Qed.

Lemma r2b_bound_neg (K : nat) : (2000 <= K)%nat ->
  t4_bound 11 1 (1/2) (1/100) (r2b_delta1 (INR (2 * K))) (INR (2 * K)) < 0.
Proof.
  intros HK. set (n := INR (2 * K)).
  assert (Hn : 4000 <= n).
  { unfold n. rewrite mult_INR. apply le_INR in HK. replace (INR 2000) with 2000 in HK by (rewrite INR_IZR_INZ; reflexivity).
    simpl (INR 2). lra. }
  destruct (r2b_gamma n Hn) as [[G1 G2] G3]. destruct (r2b_delta1_bounds n Hn) as [D1 D2].
  pose proof (r2b_ntheta n Hn) as NT.
  unfold t4_bound. cbv zeta.
  set (g := gamma4 (1 / 2) (1 / 100 - r2b_delta1 n) n) in *.
  set (g' := gamma4' (1 / 2) (1 / 100 - r2b_delta1 n) n) in *.
  set (T := theta4 (1 / 2) (1 / 100 - r2b_delta1 n) n) in *.
  replace (2 * n * T) with (2 * (n * T)) by ring. rewrite NT.
  assert (C : 0 <= th2_const 11) by (rewrite th2_const_identity; lra).
  replace (g' * 1 ^ 2 * 11 ^ 2 / -1) with (- 121 * g') by field.
  replace ((1 - g) / (2 * -1) * 1 ^ 2 * th2_const 11) with (- ((1 - g) * th2_const 11 / 2)) by field.
  assert (0 <= (1 - g) * th2_const 11 / 2) by (apply Rmult_le_pos; [apply Rmult_le_pos; lra|lra]).
  lra.
Qed.

(** R2b, as the brief states it: for every N0 there are K ≥ N0 (n = 2K) and a δ1 meeting every
    precondition at which the printed MSE bound fails. *)
Theorem T4m_delta1_after_R2b : forall N0 : nat, exists (K : nat) (delta1 : R),
  (N0 <= K)%nat /\ thm4_pre (ln (6/5)) (1/100) delta1 (1/2) 1 1 (2 * K) /\
  t4_bound (alpha (ln (6/5))) 1 (1/2) (1/100) delta1 (INR (2 * K)) < mse4 (alpha (ln (6/5))) 0 1 (1/2) K (fun _ => 0).
Proof.
  intros N0. exists (Nat.max N0 2000), (r2b_delta1 (INR (2 * Nat.max N0 2000))).
  split; [lia|]. split; [apply r2b_pre; lia|].
  rewrite alpha_11. pose proof (r2b_bound_neg (Nat.max N0 2000) ltac:(lia)).
  pose proof (mse4_nonneg 11 0 1 (1/2) (Nat.max N0 2000) (fun _ => 0) ltac:(lra) ltac:(lra) ltac:(lra)
    ltac:(intros; unfold in_range; lra)). lra.
Qed.

(** The reading "δ1 may be chosen after n": one N0 for given ε_p, δ, p, r serving every admissible
    δ1. It fails. *)
Definition T4m_delta1_after_claim : Prop :=
  forall e delta p r : R, exists N0 : nat,
    forall (delta1 rj c : R) (m K : nat) (w : nat -> R),
      (N0 <= K)%nat -> thm4_pre e delta delta1 p r m (2 * K) -> 0 < rj <= r -> (forall i, in_range c rj (w i)) ->
      mse4 (alpha e) c rj p K w <= t4_bound (alpha e) r p delta delta1 (INR (2 * K)).

Theorem T4m_delta1_after : ~ T4m_delta1_after_claim.
Proof.
  intros H. destruct (H (ln (6/5)) (1/100) (1/2) 1) as [N0 HN0].
  destruct (T4m_delta1_after_R2b N0) as [K [delta1 [HK [Hpre Hlt]]]].
  specialize (HN0 delta1 1 0 1%nat K (fun _ => 0) HK Hpre ltac:(lra) ltac:(intros; unfold in_range; lra)).
  lra.
Qed.

(** The same with θ > 0 as well (T4m's reading theta_pos, δ1 chosen after n): p = 9/10, δ = 1/10,
    α = 11, m = 1, r = r_j = 1, c = 0, every input 0, n = 2K ≥ 40000 and δ1 = 1/n². The exact MSE is
    ≥ 1089/n − 17424/n² (tangent line of 1/N² at its mean, as Thm4.v's second witness), the printed
    bound ≤ 891.2/n + 968/n². *)

Lemma r2c_lower (K : nat) : (1 <= K)%nat ->
  1089 / 2 / INR K - 4356 / INR K ^ 2 <= mse4 11 0 1 (9/10) K (fun _ => 0).
Proof.
  intros HK. assert (PK : 1 <= INR K) by (apply (le_INR 1); exact HK).
  unfold mse4. rewrite (dexp_units_ext _ _ (fun _ => (121, 121, 0)) _ _ units_at_0).
  set (M := INR K / 5). assert (HM : 0 < M) by (unfold M; lra).
  apply Rle_trans with
    (dexp (9/10) (fun _ => (121, 121, 0)) K (fun V N => 0 + 3 / M^2 * V + 0 * INR N + (- 2 / M^3) * V * INR N)).
  - rewrite dexp_affine. right. unfold M. field. lra.
  - apply dexp_mono; [lra|intros k; lra|].
    intros V N HV HN. eapply Rle_trans; [|apply (tangent V M N HV HM HN)].
    right. field. lra.
Qed.

Lemma r2c_n (K : nat) : (20000 <= K)%nat -> 40000 <= INR (2 * K).
Proof.
  intros HK. rewrite mult_INR. apply le_INR in HK.
  replace (INR 20000) with 20000 in HK by (rewrite INR_IZR_INZ; reflexivity). simpl (INR 2). lra.
Qed.

Lemma r2c_quantities (n : R) : 40000 <= n ->
  let x := 1 / 10 - 1 / n ^ 2 in
  878 / 10000 <= gamma4 (9/10) x n <= 9 / 100 /\ gamma4' (9/10) x n <= 922 / 10000 /\
  852 / 10000 <= theta4 (9/10) x n.
Proof.
  intros Hn x. assert (X : 999 / 10000 <= x <= 1 / 10).
  { unfold x. assert (0 < 1 / n ^ 2 <= 1 / 10000).
    { split; [apply Rdiv_lt_0_compat; [lra|nra]|]. apply div_le_l; [nra|nra]. }
    lra. }
  set (y := 9 / 10 * (1 - 9 / 10) * (1 - 2 * (9 / 10) * (1 - 9 / 10)) / (4 * x * n)).
  set (z := 9 / 10 * (1 - 9 / 10) / (x * n)).
  assert (Y : 0 <= y <= (22 / 10000) ^ 2).
  { unfold y. split; [apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; nra]|].
    apply div_le_l; [nra|]. nra. }
  assert (Z : 0 <= z <= (48 / 10000) ^ 2).
  { unfold z. split; [apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; nra]|].
    apply div_le_l; [nra|]. nra. }
  assert (SY : 0 <= sqrt y <= 22 / 10000).
  { split; [apply sqrt_pos|]. rewrite <- (sqrt_pow2 (22/10000)) by lra. apply sqrt_le_1_alt. lra. }
  assert (SZ : 0 <= sqrt z <= 48 / 10000).
  { split; [apply sqrt_pos|]. rewrite <- (sqrt_pow2 (48/10000)) by lra. apply sqrt_le_1_alt. lra. }
  unfold gamma4, gamma4', theta4. fold y z. lra.
Qed.

Lemma r2c_pre (K : nat) : (20000 <= K)%nat ->
  thm4_pre (ln (6/5)) (1/10) (1 / INR (2 * K) ^ 2) (9/10) 1 1 (2 * K).
Proof.
  intros HK. pose proof (r2c_n K HK) as Hn. set (n := INR (2 * K)) in *.
  destruct (r2c_quantities n Hn) as [[G1 G2] _].
  unfold thm4_pre. rewrite alpha_11. cbv zeta. fold n.
  assert (D : 0 < 1 / n ^ 2 <= 1 / 10000).
  { split; [apply Rdiv_lt_0_compat; [lra|nra]|]. apply div_le_l; [nra|nra]. }
  repeat split; try lra; try lia; try (apply ln_pos_gt; lra).
  assert (L : ln (INR 1 / (1 / n ^ 2)) = 2 * ln n).
  { simpl INR. replace (1 / (1 / n ^ 2)) with (n * n) by (field; lra). rewrite ln_mult by lra. ring. }
  assert (L1 : ln n <= ln 40000 + n / 40000 - 1).
  { pose proof (exp_ineq1_le (ln (n / 40000))) as E. rewrite exp_ln in E by (apply Rdiv_lt_0_compat; lra).
    unfold Rdiv in E. rewrite ln_mult in E by (try apply Rinv_0_lt_compat; lra).
    rewrite ln_Rinv in E by lra. unfold Rdiv. lra. }
  assert (L2 : ln 40000 <= 106 / 10) by interval.
  assert (F : 1 / 4 - 1 / (4 * 11 ^ 2) = 120 / 484) by field.
  rewrite F, L. apply Rmax_le; nra.
Qed.

Lemma r2c_bound (K : nat) : (20000 <= K)%nat ->
  t4_bound 11 1 (9/10) (1/10) (1 / INR (2 * K) ^ 2) (INR (2 * K)) <= 8912 / 10 / INR (2 * K) + 968 / INR (2 * K) ^ 2.
Proof.
  intros HK. pose proof (r2c_n K HK) as Hn. set (n := INR (2 * K)) in *.
  destruct (r2c_quantities n Hn) as [[G1 G2] [G3 T]].
  unfold t4_bound. cbv zeta.
  set (g := gamma4 (9 / 10) (1 / 10 - 1 / n ^ 2) n) in *.
  set (g' := gamma4' (9 / 10) (1 / 10 - 1 / n ^ 2) n) in *.
  set (t := theta4 (9 / 10) (1 / 10 - 1 / n ^ 2) n) in *.
  rewrite th2_const_identity.
  assert (E : g' * 1 ^ 2 * 11 ^ 2 / (n * t) + 8 * 1 ^ 2 * 11 ^ 2 * (1 / n ^ 2)
              + (1 - g) / (2 * n * t) * 1 ^ 2 * (11 ^ 2 + 2 * 11 - 1)
            = (121 * g' + 71 * (1 - g)) / t / n + 968 / n ^ 2) by (field; lra).
  rewrite E.
  assert (A : (121 * g' + 71 * (1 - g)) / t <= 8912 / 10).
  { apply div_le_l; lra. }
  assert (0 < / n) by (apply Rinv_0_lt_compat; lra).
  unfold Rdiv at 1 3. apply Rplus_le_compat_r. apply Rmult_le_compat_r; lra.
Qed.

Theorem T4m_delta1_after_theta_pos_R2b : forall N0 : nat, exists (K : nat) (delta1 : R),
  (N0 <= K)%nat /\ thm4_pre (ln (6/5)) (1/10) delta1 (9/10) 1 1 (2 * K) /\
  0 < theta4 (9/10) (1/10 - delta1) (INR (2 * K)) /\
  t4_bound (alpha (ln (6/5))) 1 (9/10) (1/10) delta1 (INR (2 * K)) < mse4 (alpha (ln (6/5))) 0 1 (9/10) K (fun _ => 0).
Proof.
  intros N0. set (K := Nat.max N0 20000). exists K, (1 / INR (2 * K) ^ 2).
  assert (HK : (20000 <= K)%nat) by lia. pose proof (r2c_n K HK) as Hn.
  split; [lia|]. split; [apply r2c_pre; exact HK|].
  destruct (r2c_quantities (INR (2 * K)) Hn) as [_ [_ T]]. split; [cbv zeta in T; eapply Rlt_le_trans; [|exact T]; lra|].
  rewrite alpha_11. eapply Rle_lt_trans; [apply r2c_bound; exact HK|].
  eapply Rlt_le_trans; [|apply r2c_lower; apply Nat.le_trans with 20000%nat; [apply Nat.leb_le; reflexivity|exact HK]].
  assert (EK : INR K = INR (2 * K) / 2) by (rewrite mult_INR; simpl (INR 2); field).
  rewrite EK. set (n := INR (2 * K)) in *.
  replace (1089 / 2 / (n / 2) - 4356 / (n / 2) ^ 2) with (1089 / n - 17424 / n ^ 2) by (field; lra).
  assert (H2 : 0 < n ^ 2) by nra.
  apply (Rmult_lt_reg_r (n ^ 2)); [exact H2|].
  replace ((8912 / 10 / n + 968 / n ^ 2) * n ^ 2) with (8912 / 10 * n + 968) by (field; lra).
  replace ((1089 / n - 17424 / n ^ 2) * n ^ 2) with (1089 * n - 17424) by (field; lra).
  lra.
Qed.

Definition T4m_delta1_after_theta_pos_claim : Prop :=
  forall e delta p r : R, exists N0 : nat,
    forall (delta1 rj c : R) (m K : nat) (w : nat -> R),
      (N0 <= K)%nat -> thm4_pre e delta delta1 p r m (2 * K) -> 0 < theta4 p (delta - delta1) (INR (2 * K)) ->
      0 < rj <= r -> (forall i, in_range c rj (w i)) ->
      mse4 (alpha e) c rj p K w <= t4_bound (alpha e) r p delta delta1 (INR (2 * K)).

Theorem T4m_delta1_after_theta_pos : ~ T4m_delta1_after_theta_pos_claim.
Proof.
  intros H. destruct (H (ln (6/5)) (1/10) (9/10) 1) as [N0 HN0].
  destruct (T4m_delta1_after_theta_pos_R2b N0) as [K [delta1 [HK [Hpre [Ht Hlt]]]]].
  specialize (HN0 delta1 1 0 1%nat K (fun _ => 0) HK Hpre Ht ltac:(lra) ltac:(intros; unfold in_range; lra)).
  lra.
Qed.

(** ** All theorems of this file *)
Theorem Thm4Large_results :
  T4u_large_claim /\ T4m_large_claim /\ ~ T4m_delta1_after_claim /\ ~ T4m_delta1_after_theta_pos_claim.
Proof. exact (conj T4u_large (conj T4m_large (conj T4m_delta1_after T4m_delta1_after_theta_pos))). Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Thm4Large_theorems :=
  (@T4u_large,
   @T4m_large,
   @T4m_delta1_after_R2b,
   @T4m_delta1_after,
   @T4m_delta1_after_theta_pos_R2b,
   @T4m_delta1_after_theta_pos,
   @Thm4Large_results).
Print Assumptions Thm4Large_theorems.
