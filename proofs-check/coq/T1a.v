(** * T1a — Theorem 1, first sentence

    "Let d ∈ ℕ and r, c, ε_p > 0. The pair of correlated stochastic quantizers (Q1, Q2) in
    Algorithm 2 satisfy conditions C4–C5."

    Two readings of "Algorithm 2" (Defs.v): as printed, line 14 compares T1 ≺ Z, and then Q2 is
    biased and not ε-PLDP (A2.v refutes it at concrete inputs); as evidently intended, line 14
    compares T2 ≺ Z, and then the claim holds for every d (proved here, with d ∈ ℕ including 0).
    Verdict: erratum (Alg. 2, line 14: "T1 ≺ Z" should read "T2 ≺ Z"). *)

From Coq Require Import Reals Lra Lia.
From Corbin Require Import Defs Alpha Sums P1.
Open Scope R_scope.

Section Marginals.
Variables (d : nat) (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.

Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.
Let N := INR (nZ d).
Let HN : 0 < N := nZ_pos d.

Lemma u_range w : in_range c r w -> 0 <= u_of d a c r w < N.
Proof.
  intros Hw. pose proof (ldpq_q_prob a c r w Ha Hr Hw). unfold u_of. fold N. split; nra.
Qed.

Lemma v_range w : in_range c r w -> 0 <= v_of d a c r w < N.
Proof.
  intros Hw. pose proof (ldpq_q_prob a c r w Ha Hr Hw). unfold v_of. fold N. split; nra.
Qed.

Lemma avgZ_one_minus (f : nat -> R) : avgZ d (fun z => 1 - f z) = 1 - avgZ d f.
Proof.
  unfold avgZ. rewrite (fsum_ext _ _ (fun z => 1 + (-1) * f z)) by (intros; ring).
  rewrite fsum_plus, fsum_const, fsum_scal. fold N. field. lra.
Qed.

(** Each quantizer's marginal is LDPQ's (the proof's first display). *)
Lemma corbinq_marg1 w : in_range c r w -> marg1 d (corbinq d e c r) w = ldpq_q a c r w.
Proof.
  intros Hw. unfold marg1. simpl. fold a. rewrite avgZ_step by apply (u_range w Hw).
  unfold u_of. fold N. field. lra.
Qed.

Lemma corbinq_marg2 w : in_range c r w -> marg2 d (corbinq d e c r) w = ldpq_q a c r w.
Proof.
  intros Hw. unfold marg2. simpl. fold a. rewrite avgZ_one_minus, avgZ_step by apply (v_range w Hw).
  unfold v_of. fold N. field. lra.
Qed.

Theorem corbinq_C4 : C4 d c r (corbinq d e c r).
Proof.
  intros w Hw.
  split; [|split].
  - intros z _. simpl. split.
    + apply step_prob, (u_range w Hw).
    + pose proof (step_prob (v_of d (alpha e) c r w) z (proj1 (v_range w Hw))). unfold is_prob. lra.
  - rewrite corbinq_marg1 by exact Hw. simpl. fold a. unfold ldpq_q. field. lra.
  - rewrite corbinq_marg2 by exact Hw. simpl. fold a. unfold ldpq_q. field. lra.
Qed.

Theorem corbinq_C5 : C5 d c r e (corbinq d e c r).
Proof.
  intros w w' Hw Hw'. rewrite !corbinq_marg1, !corbinq_marg2 by assumption.
  destruct (ldpq_pldp e c r w w' He Hr Hw Hw') as [A B]. fold a in A, B. repeat split; assumption.
Qed.

End Marginals.

(** Theorem 1's first sentence, for Algorithm 2 as intended, for every d ∈ ℕ. *)
Theorem T1a_intended : forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r ->
  in_Q d c r e (corbinq d e c r).
Proof. intros d e c r He _ Hr. split; [apply corbinq_C4 | apply corbinq_C5]; assumption. Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition T1a_theorems :=
  (@corbinq_C4,
   @corbinq_C5,
   @T1a_intended).
Print Assumptions T1a_theorems.
