(** * A2 — Algorithm 2 exactly as printed satisfies C4 and C5 (Theorem 1's first sentence, read
    with line 14 as printed: "ELSIF T1 ≺ Z")

    As printed, Q2's second branch compares Z with the other client's threshold T1, so Q2 depends
    on w, the leader's input (Defs.q2_minus_as_printed). Counterexample (c = r = 1, e^ε = 3 so
    α = 2, d = 1, the leader's input w = 1): for the follower's inputs w' = 1 and w'' = 9/8,
    P(Q2 = c + rα) is 1/2 and 1/16. The ratio 8 exceeds e^ε = 3 (C5 fails), and at w'' the
    mean is −3/4, not 9/8 (C4 fails). Verdict: fails (refuted at concrete inputs). *)

From Coq Require Import Reals Lra Lia.
From Corbin Require Import Defs Alpha Sums Facts.
Open Scope R_scope.

(** P(Q2 = c + rα) and E(Q2) for Algorithm 2 as printed. *)
Definition printed_q2_plus (d : nat) (e c r w w' : R) : R :=
  1 - avgZ d (q2_minus_as_printed d (alpha e) c r w w').
Definition printed_q2_mean (d : nat) (e c r w w' : R) : R :=
  printed_q2_plus d e c r w w' * (c + r * alpha e) + (1 - printed_q2_plus d e c r w w') * (c - r * alpha e).

(** The claim, read as printed: for every d and c, r, ε > 0, Q2 is unbiased and ε-PLDP in its
    own input, whatever the other client's input. *)
Definition A2_claim : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r ->
    (forall w w', in_range c r w -> in_range c r w' -> printed_q2_mean d e c r w w' = w') /\
    (forall w w' w'', in_range c r w -> in_range c r w' -> in_range c r w'' ->
       printed_q2_plus d e c r w w' <= exp e * printed_q2_plus d e c r w w'' /\
       1 - printed_q2_plus d e c r w w' <= exp e * (1 - printed_q2_plus d e c r w w'')).

Section Counterexample.
Let e := ln 3.
Let He : 0 < e := ln_pos_gt 3 ltac:(lra).
Let Ha : alpha e = 2.
Proof. unfold e. rewrite alpha_ln by lra. field. Qed.

(** Thresholds at d = 1: u = 2 q(1) = 1, v' = 2 (1 − q(1)) = 1 and v'' = 2 (1 − q(9/8)) = 15/16. *)
Lemma u_is : u_of 1 2 1 1 1 = INR 1 + 0. Proof. unfold u_of, ldpq_q, nZ. simpl. field. Qed.
Lemma v1_is : v_of 1 2 1 1 1 = INR 1 + 0. Proof. unfold v_of, ldpq_q, nZ. simpl. field. Qed.
Lemma v2_is : v_of 1 2 1 1 (9 / 8) = INR 0 + 15 / 16. Proof. unfold v_of, ldpq_q, nZ. simpl. field. Qed.

Lemma q2_plus_at_1 : printed_q2_plus 1 e 1 1 1 1 = 1 / 2.
Proof.
  unfold printed_q2_plus, avgZ, q2_minus_as_printed, fr. rewrite Ha, u_is, v1_is.
  rewrite !fl_of_nat by lra. unfold nZ. simpl. field.
Qed.

Lemma q2_plus_at_9_8 : printed_q2_plus 1 e 1 1 1 (9 / 8) = 1 / 16.
Proof.
  unfold printed_q2_plus, avgZ, q2_minus_as_printed, fr. rewrite Ha, u_is, v2_is.
  rewrite !fl_of_nat by lra. unfold nZ. simpl. field.
Qed.

Theorem A2_C5_fails : ~ (printed_q2_plus 1 e 1 1 1 1 <= exp e * printed_q2_plus 1 e 1 1 1 (9 / 8)).
Proof. rewrite q2_plus_at_1, q2_plus_at_9_8. unfold e. rewrite exp_ln by lra. lra. Qed.

Theorem A2_C4_fails : printed_q2_mean 1 e 1 1 1 (9 / 8) <> 9 / 8.
Proof. unfold printed_q2_mean. rewrite q2_plus_at_9_8, Ha. lra. Qed.

End Counterexample.

Theorem A2 : ~ A2_claim.
Proof.
  intros H. destruct (H 1%nat (ln 3) 1 1 (ln_pos_gt 3 ltac:(lra)) ltac:(lra) ltac:(lra)) as [_ C5].
  destruct (C5 1 1 (9 / 8)) as [P _]; try (unfold in_range; lra).
  exact (A2_C5_fails P).
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition A2_theorems :=
  (@A2_C5_fails,
   @A2_C4_fails,
   @A2).
Print Assumptions A2_theorems.
