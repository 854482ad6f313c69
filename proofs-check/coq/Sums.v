(** * Finite sums over the shared vector Z, and the threshold steps of Algorithm 2 *)

From Coq Require Import Reals Lra Lia.
From Corbin Require Import Defs.
Open Scope R_scope.

Lemma fsum_ext (n : nat) (f g : nat -> R) :
  (forall k, (k < n)%nat -> f k = g k) -> fsum n f = fsum n g.
Proof.
  induction n as [|n IH]; intros H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

Lemma fsum_plus (n : nat) (f g : nat -> R) : fsum n (fun k => f k + g k) = fsum n f + fsum n g.
Proof. induction n as [|n IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma fsum_scal (n : nat) (a : R) (f : nat -> R) : fsum n (fun k => a * f k) = a * fsum n f.
Proof. induction n as [|n IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma fsum_const (n : nat) (a : R) : fsum n (fun _ => a) = INR n * a.
Proof. induction n as [|n IH]; simpl fsum; [simpl; ring|]. rewrite IH, S_INR. ring. Qed.

Lemma fsum_nonneg (n : nat) (f : nat -> R) : (forall k, (k < n)%nat -> 0 <= f k) -> 0 <= fsum n f.
Proof.
  induction n as [|n IH]; intros H; simpl; [lra|].
  pose proof (IH (fun k Hk => H k ltac:(lia))). pose proof (H n ltac:(lia)). lra.
Qed.

Lemma fsum_le (n : nat) (f g : nat -> R) :
  (forall k, (k < n)%nat -> f k <= g k) -> fsum n f <= fsum n g.
Proof.
  induction n as [|n IH]; intros H; simpl; [lra|].
  pose proof (IH (fun k Hk => H k ltac:(lia))). pose proof (H n ltac:(lia)). lra.
Qed.

(** The number of z < n below a: min(a, n). *)
Lemma fsum_below (n a : nat) : fsum n (fun z => if (z <? a)%nat then 1 else 0) = INR (Nat.min a n).
Proof.
  induction n as [|n IH]; simpl fsum.
  - rewrite Nat.min_0_r. reflexivity.
  - rewrite IH. destruct (Nat.ltb_spec n a).
    + rewrite (Nat.min_r a n) by lia. rewrite (Nat.min_r a (S n)) by lia. rewrite S_INR. ring.
    + rewrite (Nat.min_l a n) by lia. rewrite (Nat.min_l a (S n)) by lia. ring.
Qed.

Lemma fsum_at (n a : nat) (x : R) : (a < n)%nat -> fsum n (fun z => if (z =? a)%nat then x else 0) = x.
Proof.
  induction n as [|n IH]; intros H; [lia|]. simpl fsum.
  destruct (Nat.eqb_spec n a) as [E|E].
  - subst. rewrite (fsum_ext a _ (fun _ => 0)) by (intros k Hk; destruct (Nat.eqb_spec k a); [lia|reflexivity]).
    rewrite fsum_const. ring.
  - rewrite IH by lia. ring.
Qed.

(** ** ⌊x⌋ and x − ⌊x⌋ for x >= 0 *)

Lemma Int_part_nonneg (x : R) : 0 <= x -> (0 <= Int_part x)%Z.
Proof.
  intros H. destruct (base_Int_part x) as [A B].
  destruct (Z_lt_le_dec (Int_part x) 0) as [N|P]; [|exact P].
  assert (N' : (Int_part x <= -1)%Z) by lia. apply IZR_le in N'. lra.
Qed.

Lemma fl_spec (x : R) : 0 <= x -> INR (fl x) <= x < INR (fl x) + 1.
Proof.
  intros H. unfold fl. rewrite INR_IZR_INZ, Z2Nat.id by (apply Int_part_nonneg; exact H).
  destruct (base_Int_part x) as [A B]. lra.
Qed.

Lemma fr_spec (x : R) : 0 <= x -> 0 <= fr x < 1.
Proof. intros H. unfold fr. pose proof (fl_spec x H). lra. Qed.

Lemma Int_part_spec (x : R) (z : Z) : IZR z <= x < IZR z + 1 -> Int_part x = z.
Proof.
  intros [A B]. unfold Int_part. rewrite <- (up_tech x z A) by (rewrite plus_IZR; lra). lia.
Qed.

Lemma fl_of_nat (k : nat) (f : R) : 0 <= f < 1 -> fl (INR k + f) = k.
Proof.
  intros [F0 F1]. unfold fl.
  assert (E : Int_part (INR k + f) = Z.of_nat k).
  { apply Int_part_spec. rewrite <- INR_IZR_INZ. lra. }
  rewrite E. apply Nat2Z.id.
Qed.

(** ** The threshold step of Algorithm 2: Σ_z P(below | Z = z) = x for 0 <= x < n *)

Lemma step_prob (x : R) (z : nat) : 0 <= x -> 0 <= step x z <= 1.
Proof.
  intros H. unfold step. pose proof (fr_spec x H).
  destruct (z <? fl x)%nat; [lra|]. destruct (z =? fl x)%nat; lra.
Qed.

Lemma step_split (x : R) (z : nat) :
  step x z = (if (z <? fl x)%nat then 1 else 0) + (if (z =? fl x)%nat then fr x else 0).
Proof.
  unfold step. destruct (Nat.ltb_spec z (fl x)); destruct (Nat.eqb_spec z (fl x)); try lia; ring.
Qed.

Lemma fsum_step (n : nat) (x : R) : 0 <= x < INR n -> fsum n (step x) = x.
Proof.
  intros [H0 H1]. pose proof (fl_spec x H0) as [F0 F1].
  assert (Lt : (fl x < n)%nat) by (apply INR_lt; lra).
  rewrite (fsum_ext n _ (fun z => (if (z <? fl x)%nat then 1 else 0) + (if (z =? fl x)%nat then fr x else 0)))
    by (intros; apply step_split).
  rewrite fsum_plus, fsum_below, fsum_at by exact Lt. rewrite Nat.min_l by lia. unfold fr. ring.
Qed.

Lemma nZ_pos (d : nat) : 0 < INR (nZ d).
Proof. apply lt_0_INR. unfold nZ. apply Nat.neq_0_lt_0, Nat.pow_nonzero. lia. Qed.

Lemma nZ_S (d : nat) : INR (nZ (S d)) = 2 * INR (nZ d).
Proof. unfold nZ. rewrite Nat.pow_succ_r', mult_INR. reflexivity. Qed.

Lemma avgZ_step (d : nat) (x : R) : 0 <= x < INR (nZ d) -> avgZ d (step x) = x / INR (nZ d).
Proof. intros H. unfold avgZ. rewrite fsum_step by exact H. reflexivity. Qed.

(** The assumptions of this file's lemmas, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Sums_lemmas :=
  (@fsum_ext,
   @fsum_plus,
   @fsum_scal,
   @fsum_const,
   @fsum_nonneg,
   @fsum_le,
   @fsum_below,
   @fsum_at,
   @Int_part_nonneg,
   @fl_spec,
   @fr_spec,
   @Int_part_spec,
   @fl_of_nat,
   @step_prob,
   @step_split,
   @fsum_step,
   @nZ_pos,
   @nZ_S,
   @avgZ_step).
Print Assumptions Sums_lemmas.
