(** * Small facts the proofs share: ε = ln x gives e^ε = x exactly, and the inputs c − r, c,
      c + r lie in the range [c − r, c + r]. *)

From Coq Require Import Reals Lra.
From Corbin Require Import Defs Alpha.
Open Scope R_scope.

Lemma ln_pos_gt (x : R) : 1 < x -> 0 < ln x.
Proof. intros H. rewrite <- ln_1. apply ln_increasing; lra. Qed.

Lemma alpha_ln (x : R) : 1 < x -> alpha (ln x) = (x + 1) / (x - 1).
Proof. intros H. unfold alpha. rewrite exp_ln by lra. reflexivity. Qed.

Lemma exp_ln' (x : R) : 0 < x -> exp (ln x) = x.
Proof. apply exp_ln. Qed.

(** e^ε = 3 gives α = 2: the witnesses of T1b, T1c, T1u (FreeLevels.v) and T2c (Thm23.v). *)
Lemma alpha_ln3 : alpha (ln 3) = 2.
Proof. rewrite alpha_ln by lra. field. Qed.

(** The ends and the centre of the input range, where the counterexamples put their inputs. *)
Lemma in_range_bottom (c r : R) : 0 < r -> in_range c r (c - r).
Proof. intros. unfold in_range. lra. Qed.

Lemma in_range_top (c r : R) : 0 < r -> in_range c r (c + r).
Proof. intros. unfold in_range. lra. Qed.

Lemma in_range_center (c r : R) : 0 < r -> in_range c r c.
Proof. intros. unfold in_range. lra. Qed.

(** c = r = 1, w = 2: the top input as a literal (c + r does not reduce to 2 in R). *)
Lemma in_range_2 : in_range 1 1 2.
Proof. unfold in_range. lra. Qed.

(** The assumptions of this file's lemmas, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Facts_lemmas :=
  (@ln_pos_gt,
   @alpha_ln,
   @exp_ln',
   @alpha_ln3,
   @in_range_bottom,
   @in_range_top,
   @in_range_center,
   @in_range_2).
Print Assumptions Facts_lemmas.
