(** * D0 — "Note that if d = 0, then the CorBin-FL mechanism reduces to the LDP-FL mechanism."

    Reading: with d = 0 shared bits (Z takes its one value), the pair (Q1, Q2) of Algorithm 2 has
    exactly the joint law of two independent LDPQs, for every pair of inputs; the mechanism is then
    LDP-FL (each client quantizes alone). It holds for Algorithm 2 as intended and, at d = 0, also
    as printed (line 14's comparison cannot fire). Verdict: holds (proved). *)

From Coq Require Import Reals Lra Lia.
From Corbin Require Import Defs Alpha Sums.
Open Scope R_scope.

Section D0.
Variables e c r : R.
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.
Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.

Lemma nZ_0 : nZ 0 = 1%nat. Proof. reflexivity. Qed.

(** At d = 0 the threshold is ⌊q⌋ = 0 for q ∈ (0, 1), so the only z ties and P(below) = q. *)
Lemma step_at_0 (x : R) : 0 <= x < 1 -> step x 0 = x.
Proof.
  intros [H0 H1]. unfold step.
  assert (F : fl x = 0%nat) by (pose proof (fl_of_nat 0 x (conj H0 H1)) as E; simpl in E; rewrite Rplus_0_l in E; exact E).
  rewrite F. simpl. unfold fr. rewrite F. simpl. ring.
Qed.

Lemma u_at_0 w : in_range c r w -> u_of 0 a c r w = ldpq_q a c r w.
Proof. intros _. unfold u_of. rewrite nZ_0. simpl. ring. Qed.

Lemma v_at_0 w : in_range c r w -> v_of 0 a c r w = 1 - ldpq_q a c r w.
Proof. intros _. unfold v_of. rewrite nZ_0. simpl. ring. Qed.

Theorem D0_intended (w w' : R) (s1 s2 : bool) : in_range c r w -> in_range c r w' ->
  joint 0 (corbinq 0 e c r) w w' s1 s2 = ldpq_pair_joint e c r w w' s1 s2.
Proof.
  intros Hw Hw'. pose proof (ldpq_q_prob a c r w Ha Hr Hw). pose proof (ldpq_q_prob a c r w' Ha Hr Hw').
  unfold joint, ldpq_pair_joint, avgZ. rewrite nZ_0. simpl. fold a.
  rewrite (step_at_0 (u_of 0 a c r w)) by (rewrite u_at_0 by exact Hw; lra).
  rewrite (step_at_0 (v_of 0 a c r w')) by (rewrite v_at_0 by exact Hw'; lra).
  rewrite u_at_0, v_at_0 by assumption. destruct s1, s2; simpl; field.
Qed.

(** Algorithm 2 as printed: at d = 0 its line 14 never fires, and Q2 is LDPQ's too. *)
Theorem D0_as_printed (w w' : R) : in_range c r w -> in_range c r w' ->
  q2_minus_as_printed 0 a c r w w' 0 = 1 - ldpq_q a c r w'.
Proof.
  intros Hw Hw'. pose proof (ldpq_q_prob a c r w Ha Hr Hw). pose proof (ldpq_q_prob a c r w' Ha Hr Hw').
  unfold q2_minus_as_printed.
  assert (Fv : fl (v_of 0 a c r w') = 0%nat).
  { rewrite v_at_0 by exact Hw'. pose proof (fl_of_nat 0 (1 - ldpq_q a c r w')) as E. simpl in E.
    rewrite Rplus_0_l in E. apply E. lra. }
  assert (Fu : fl (u_of 0 a c r w) = 0%nat).
  { rewrite u_at_0 by exact Hw. pose proof (fl_of_nat 0 (ldpq_q a c r w)) as E. simpl in E.
    rewrite Rplus_0_l in E. apply E. lra. }
  rewrite Fv, Fu. simpl. unfold fr. rewrite Fv, v_at_0 by exact Hw'. simpl. ring.
Qed.

End D0.

Theorem D0 : forall e c r w w' s1 s2, 0 < e -> 0 < r -> in_range c r w -> in_range c r w' ->
  joint 0 (corbinq 0 e c r) w w' s1 s2 = ldpq_pair_joint e c r w w' s1 s2.
Proof. intros. apply D0_intended; assumption. Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition D0_theorems :=
  (@D0_intended,
   @D0_as_printed,
   @D0).
Print Assumptions D0_theorems.
