(** * Small facts the concrete counterexamples use: ε = ln x gives e^ε = x exactly. *)

From Coq Require Import Reals Lra.
From Corbin Require Import Defs Alpha.
Open Scope R_scope.

Lemma ln_pos_gt (x : R) : 1 < x -> 0 < ln x.
Proof. intros H. rewrite <- ln_1. apply ln_increasing; lra. Qed.

Lemma alpha_ln (x : R) : 1 < x -> alpha (ln x) = (x + 1) / (x - 1).
Proof. intros H. unfold alpha. rewrite exp_ln by lra. reflexivity. Qed.

Lemma exp_ln' (x : R) : 0 < x -> exp (ln x) = x.
Proof. apply exp_ln. Qed.

(** The assumptions of this file's lemmas, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Facts_lemmas :=
  (@ln_pos_gt,
   @alpha_ln,
   @exp_ln').
Print Assumptions Facts_lemmas.
