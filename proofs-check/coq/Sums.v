(** * Finite sums over the shared vector Z, the threshold steps of Algorithm 2, and product laws
      of independent groups (expectations and covariances under them) *)

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

(** ** Double sums, single terms and Chebyshev's sum inequality *)

Lemma fsum_minus (n : nat) (f g : nat -> R) : fsum n (fun k => f k - g k) = fsum n f - fsum n g.
Proof. induction n as [|n IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma fsum_zero (n : nat) (f : nat -> R) : (forall k, (k < n)%nat -> f k = 0) -> fsum n f = 0.
Proof. intros H. rewrite (fsum_ext n f (fun _ => 0)) by exact H. rewrite fsum_const. ring. Qed.

(** Only the a-th term is nonzero. *)
Lemma fsum_single (n a : nat) (f : nat -> R) : (a < n)%nat ->
  (forall k, (k < n)%nat -> k <> a -> f k = 0) -> fsum n f = f a.
Proof.
  intros Ha H. rewrite (fsum_ext n f (fun k => if (k =? a)%nat then f a else 0)).
  - apply fsum_at. exact Ha.
  - intros k Hk. destruct (Nat.eqb_spec k a) as [E|E]; [subst; reflexivity|apply H; assumption].
Qed.

(** (Σ_i f i)(Σ_j g j) = Σ_i Σ_j f i g j. *)
Lemma fsum_mult (n m : nat) (f g : nat -> R) :
  fsum n f * fsum m g = fsum n (fun i => fsum m (fun j => f i * g j)).
Proof.
  rewrite (fsum_ext n (fun i => fsum m (fun j => f i * g j)) (fun i => fsum m g * f i))
    by (intros; rewrite fsum_scal; ring).
  rewrite fsum_scal. ring.
Qed.

(** Σ_i Σ_j C i j = Σ_i C i i + Σ_{i≠j} C i j. *)
Lemma fsum_diag_split (n : nat) (C : nat -> nat -> R) :
  fsum n (fun i => fsum n (fun j => C i j)) =
  fsum n (fun i => C i i) + fsum n (fun i => fsum n (fun j => if (i =? j)%nat then 0 else C i j)).
Proof.
  rewrite <- fsum_plus. apply fsum_ext. intros i Hi.
  rewrite (fsum_ext n (fun j => C i j)
             (fun j => (if (j =? i)%nat then C i i else 0) + (if (i =? j)%nat then 0 else C i j))).
  - rewrite fsum_plus, fsum_at by exact Hi. reflexivity.
  - intros j _. destruct (Nat.eqb_spec j i), (Nat.eqb_spec i j); subst; try lia; ring.
Qed.

(** Chebyshev's sum inequality: f non-increasing and g non-decreasing on {0, …, n − 1} give
    n Σ f g ≤ (Σ f)(Σ g), because Σ_i Σ_j (f i − f j)(g i − g j) = 2(n Σ f g − Σ f Σ g) and every
    term is ≤ 0. *)
Lemma fsum_double_diff (n : nat) (f g : nat -> R) :
  fsum n (fun i => fsum n (fun j => (f i - f j) * (g i - g j))) =
  2 * (INR n * fsum n (fun k => f k * g k) - fsum n f * fsum n g).
Proof.
  rewrite (fsum_ext n _ (fun i => INR n * (f i * g i) + ((- fsum n g) * f i +
                                  ((- fsum n f) * g i + fsum n (fun k => f k * g k))))).
  - rewrite !fsum_plus, !fsum_scal, fsum_const. ring.
  - intros i _.
    rewrite (fsum_ext n _ (fun j => (f i * g i) + ((- f i) * g j + ((- g i) * f j + f j * g j))))
      by (intros; ring).
    rewrite !fsum_plus, !fsum_scal, fsum_const. ring.
Qed.

Lemma fsum_chebyshev (n : nat) (f g : nat -> R) :
  (forall i j, (i <= j < n)%nat -> f j <= f i) -> (forall i j, (i <= j < n)%nat -> g i <= g j) ->
  INR n * fsum n (fun k => f k * g k) <= fsum n f * fsum n g.
Proof.
  intros Hf Hg.
  assert (D : fsum n (fun i => fsum n (fun j => (f i - f j) * (g i - g j))) <= fsum n (fun _ => 0)).
  { apply fsum_le. intros i Hi. rewrite <- (fsum_zero n (fun _ => 0)) by reflexivity.
    apply fsum_le. intros j Hj. destruct (Nat.le_ge_cases i j) as [L|L].
    - pose proof (Hf i j (conj L Hj)). pose proof (Hg i j (conj L Hj)). nra.
    - pose proof (Hf j i (conj L Hi)). pose proof (Hg j i (conj L Hi)). nra. }
  rewrite fsum_double_diff, (fsum_zero n (fun _ => 0)) in D by reflexivity. lra.
Qed.

(** Algorithm 2's threshold step is non-increasing in z (P(below | Z = z) drops from 1 to 0). *)
Lemma step_antitone (x : R) (i j : nat) : 0 <= x -> (i <= j)%nat -> step x j <= step x i.
Proof.
  intros Hx L. pose proof (fr_spec x Hx). unfold step.
  destruct (Nat.ltb_spec j (fl x)), (Nat.ltb_spec i (fl x)); try lia;
    destruct (Nat.eqb_spec j (fl x)), (Nat.eqb_spec i (fl x)); try lia; lra.
Qed.

(** ** Product laws: independent groups with finitely many outcomes each

    Group j < p draws an outcome k < m j with probability π j k, independently of the other
    groups. An outcome of all of them is a tuple o (o j < m j for j < p), with probability
    Π_{j<p} π j (o j): the product law. [tsum] sums over these tuples and [pexp] is the
    expectation under the product law, E(F) = Σ_o (Π_j π j (o j)) F(o). *)

Definition upd (o : nat -> nat) (q k : nat) : nat -> nat := fun j => if (j =? q)%nat then k else o j.

Fixpoint tsum (p : nat) (m : nat -> nat) (G : (nat -> nat) -> R) : R :=
  match p with
  | O => G (fun _ => O)
  | S q => fsum (m q) (fun k => tsum q m (fun o => G (upd o q k)))
  end.

Fixpoint fprod (n : nat) (f : nat -> R) : R :=
  match n with O => 1 | S k => fprod k f * f k end.

Definition pexp (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (F : (nat -> nat) -> R) : R :=
  tsum p m (fun o => fprod p (fun j => pi j (o j)) * F o).

Definition pcov (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (X Y : (nat -> nat) -> R) : R :=
  pexp p m pi (fun o => X o * Y o) - pexp p m pi X * pexp p m pi Y.

(** Every group's law sums to 1. *)
Definition laws_sum_1 (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) : Prop :=
  forall j, (j < p)%nat -> fsum (m j) (pi j) = 1.

(** F does not depend on group j's outcome. *)
Definition free_of (j : nat) (F : (nat -> nat) -> R) : Prop :=
  forall o o', (forall i, i <> j -> o i = o' i) -> F o = F o'.

Lemma upd_same (o : nat -> nat) (q k : nat) : upd o q k q = k.
Proof. unfold upd. rewrite Nat.eqb_refl. reflexivity. Qed.

Lemma upd_other (o : nat -> nat) (q k j : nat) : j <> q -> upd o q k j = o j.
Proof. intros H. unfold upd. destruct (Nat.eqb_spec j q); [lia|reflexivity]. Qed.

Lemma tsum_ext (p : nat) (m : nat -> nat) (G H : (nat -> nat) -> R) :
  (forall o, G o = H o) -> tsum p m G = tsum p m H.
Proof.
  revert G H. induction p as [|p IH]; intros G H E; simpl; [apply E|].
  apply fsum_ext. intros k _. apply IH. intros o. apply E.
Qed.

Lemma tsum_plus (p : nat) (m : nat -> nat) (G H : (nat -> nat) -> R) :
  tsum p m (fun o => G o + H o) = tsum p m G + tsum p m H.
Proof.
  revert G H. induction p as [|p IH]; intros G H; simpl; [reflexivity|].
  rewrite <- fsum_plus. apply fsum_ext. intros k _. apply (IH (fun o => G (upd o p k)) (fun o => H (upd o p k))).
Qed.

Lemma tsum_scal (p : nat) (m : nat -> nat) (a : R) (G : (nat -> nat) -> R) :
  tsum p m (fun o => a * G o) = a * tsum p m G.
Proof.
  revert G. induction p as [|p IH]; intros G; simpl; [reflexivity|].
  rewrite <- fsum_scal. apply fsum_ext. intros k _. apply (IH (fun o => G (upd o p k))).
Qed.

Lemma fprod_ext (n : nat) (f g : nat -> R) : (forall k, (k < n)%nat -> f k = g k) -> fprod n f = fprod n g.
Proof.
  induction n as [|n IH]; intros H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

Lemma pexp_ext (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (F G : (nat -> nat) -> R) :
  (forall o, F o = G o) -> pexp p m pi F = pexp p m pi G.
Proof. intros E. unfold pexp. apply tsum_ext. intros o. rewrite E. reflexivity. Qed.

Lemma pexp_plus (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (F G : (nat -> nat) -> R) :
  pexp p m pi (fun o => F o + G o) = pexp p m pi F + pexp p m pi G.
Proof.
  unfold pexp. rewrite <- tsum_plus. apply tsum_ext. intros o. ring.
Qed.

Lemma pexp_scal (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (a : R) (F : (nat -> nat) -> R) :
  pexp p m pi (fun o => a * F o) = a * pexp p m pi F.
Proof.
  unfold pexp. rewrite <- tsum_scal. apply tsum_ext. intros o. ring.
Qed.

Lemma pexp_fsum (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (n : nat) (F : nat -> (nat -> nat) -> R) :
  pexp p m pi (fun o => fsum n (fun i => F i o)) = fsum n (fun i => pexp p m pi (F i)).
Proof.
  induction n as [|n IH]; simpl.
  - unfold pexp. rewrite (tsum_ext p m _ (fun o => 0 * 0)) by (intros; ring).
    rewrite tsum_scal. ring.
  - rewrite (pexp_plus p m pi (fun o => fsum n (fun i => F i o)) (F n)), IH. reflexivity.
Qed.

(** The last group's outcome drawn first: E(F) = Σ_k π q k E'(F with o q = k). *)
Lemma pexp_peel (q : nat) (m : nat -> nat) (pi : nat -> nat -> R) (F : (nat -> nat) -> R) :
  pexp (S q) m pi F = fsum (m q) (fun k => pi q k * pexp q m pi (fun o => F (upd o q k))).
Proof.
  unfold pexp. simpl tsum. apply fsum_ext. intros k _. rewrite <- tsum_scal. apply tsum_ext. intros o.
  simpl fprod. rewrite upd_same.
  rewrite (fprod_ext q (fun j => pi j (upd o q k j)) (fun j => pi j (o j)))
    by (intros j Hj; rewrite upd_other by lia; reflexivity).
  ring.
Qed.

Lemma pexp_one (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) :
  laws_sum_1 p m pi -> pexp p m pi (fun _ => 1) = 1.
Proof.
  induction p as [|p IH]; intros H.
  - unfold pexp. simpl. ring.
  - rewrite pexp_peel, IH by (intros j Hj; apply H; lia).
    rewrite (fsum_ext _ _ (pi p)) by (intros; ring). apply H. lia.
Qed.

(** Independence: for j < p and G not depending on group j,
    E(h(o j) G) = (Σ_k π j k h k) E(G). *)
Lemma pexp_indep (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (j : nat) (h : nat -> R)
  (G : (nat -> nat) -> R) : laws_sum_1 p m pi -> (j < p)%nat -> free_of j G ->
  pexp p m pi (fun o => h (o j) * G o) = fsum (m j) (fun k => pi j k * h k) * pexp p m pi G.
Proof.
  revert G. induction p as [|q IH]; intros G Hl Hj HG; [lia|].
  rewrite !pexp_peel.
  destruct (Nat.eq_dec j q) as [E|E].
  - subst j.
    assert (Gq : forall o k, G (upd o q k) = G o).
    { intros o k. apply HG. intros i Hi. apply upd_other. exact Hi. }
    rewrite (fsum_ext _ _ (fun k => (pi q k * h k) * pexp q m pi G)).
    + rewrite (fsum_ext _ (fun k => pi q k * pexp q m pi (fun o => G (upd o q k)))
                 (fun k => pexp q m pi G * pi q k))
        by (intros k _; rewrite (pexp_ext q m pi _ G) by (intros; apply Gq); ring).
      rewrite fsum_scal. rewrite (Hl q) by lia.
      rewrite (fsum_ext _ (fun k => pi q k * h k * pexp q m pi G) (fun k => pexp q m pi G * (pi q k * h k)))
        by (intros; ring).
      rewrite fsum_scal. ring.
    + intros k _. rewrite (pexp_ext q m pi _ (fun o => h k * G o))
        by (intros o; rewrite upd_same, Gq; reflexivity).
      rewrite pexp_scal. ring.
  - assert (Hj' : (j < q)%nat) by lia.
    rewrite (fsum_ext _ _ (fun k => fsum (m j) (fun k' => pi j k' * h k') *
                                    (pi q k * pexp q m pi (fun o => G (upd o q k))))).
    + rewrite fsum_scal. reflexivity.
    + intros k _.
      rewrite (pexp_ext q m pi _ (fun o => h (o j) * G (upd o q k)))
        by (intros o; rewrite upd_other by exact E; reflexivity).
      rewrite IH.
      * ring.
      * intros i Hi. apply Hl. lia.
      * exact Hj'.
      * intros o o' Ho. apply HG. intros i Hi. unfold upd. destruct (i =? q)%nat; [reflexivity|]. apply Ho, Hi.
Qed.

(** A function of one group's outcome: its law is the group's. *)
Lemma pexp_group (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (j : nat) (h : nat -> R) :
  laws_sum_1 p m pi -> (j < p)%nat -> pexp p m pi (fun o => h (o j)) = fsum (m j) (fun k => pi j k * h k).
Proof.
  intros Hl Hj.
  rewrite (pexp_ext p m pi _ (fun o => h (o j) * (fun _ => 1) o)) by (intros; ring).
  rewrite pexp_indep, pexp_one by (try assumption; intros o o' _; reflexivity). ring.
Qed.

(** Functions of two different groups' outcomes are uncorrelated. *)
Lemma pcov_groups (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (j j' : nat) (h h' : nat -> R) :
  laws_sum_1 p m pi -> (j < p)%nat -> (j' < p)%nat -> j <> j' ->
  pcov p m pi (fun o => h (o j)) (fun o => h' (o j')) = 0.
Proof.
  intros Hl Hj Hj' D. unfold pcov.
  rewrite pexp_indep by (try assumption; intros o o' E; rewrite E by (intros F; apply D; symmetry; exact F); reflexivity).
  rewrite !pexp_group by assumption. ring.
Qed.

(** Var(Σ_i X_i) = Σ_i Σ_i' Cov(X_i, X_i'), and Var(a X) = a² Var(X). *)
Lemma pcov_fsum (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (n : nat) (X : nat -> (nat -> nat) -> R) :
  pcov p m pi (fun o => fsum n (fun i => X i o)) (fun o => fsum n (fun i => X i o)) =
  fsum n (fun i => fsum n (fun i' => pcov p m pi (X i) (X i'))).
Proof.
  unfold pcov.
  rewrite (pexp_ext p m pi _ (fun o => fsum n (fun i => fsum n (fun i' => X i o * X i' o))))
    by (intros o; apply fsum_mult).
  rewrite pexp_fsum, !pexp_fsum.
  rewrite (fsum_ext n (fun i => pexp p m pi (fun o => fsum n (fun i' => X i o * X i' o)))
                      (fun i => fsum n (fun i' => pexp p m pi (fun o => X i o * X i' o))))
    by (intros i _; apply (pexp_fsum p m pi n (fun i' o => X i o * X i' o))).
  rewrite fsum_mult, <- fsum_minus. apply fsum_ext. intros i _. rewrite <- fsum_minus. reflexivity.
Qed.

Lemma pcov_scal (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (a : R) (X : (nat -> nat) -> R) :
  pcov p m pi (fun o => a * X o) (fun o => a * X o) = a ^ 2 * pcov p m pi X X.
Proof.
  unfold pcov.
  rewrite (pexp_ext p m pi _ (fun o => a ^ 2 * (X o * X o))) by (intros; ring).
  rewrite !pexp_scal. ring.
Qed.

(** Σ_k π j k h k h' k − (Σ π h)(Σ π h'): the covariance of two functions of one group. *)
Lemma pcov_same_group (p : nat) (m : nat -> nat) (pi : nat -> nat -> R) (j : nat) (h h' : nat -> R) :
  laws_sum_1 p m pi -> (j < p)%nat ->
  pcov p m pi (fun o => h (o j)) (fun o => h' (o j)) =
  fsum (m j) (fun k => pi j k * (h k * h' k)) -
  fsum (m j) (fun k => pi j k * h k) * fsum (m j) (fun k => pi j k * h' k).
Proof.
  intros Hl Hj. unfold pcov.
  rewrite (pexp_group p m pi j (fun k => h k * h' k)), !pexp_group by assumption. reflexivity.
Qed.

(** ** Averages over Z and a pair's joint law *)

Lemma avgZ_ext (d : nat) (f g : nat -> R) : (forall z, (z < nZ d)%nat -> f z = g z) -> avgZ d f = avgZ d g.
Proof. intros H. unfold avgZ. rewrite (fsum_ext _ f g H). reflexivity. Qed.

Lemma avgZ_plus (d : nat) (f g : nat -> R) : avgZ d (fun z => f z + g z) = avgZ d f + avgZ d g.
Proof. unfold avgZ. rewrite fsum_plus. pose proof (nZ_pos d). field. lra. Qed.

Lemma avgZ_scal (d : nat) (a : R) (f : nat -> R) : avgZ d (fun z => a * f z) = a * avgZ d f.
Proof. unfold avgZ. rewrite fsum_scal. pose proof (nZ_pos d). field. lra. Qed.

Lemma avgZ_const (d : nat) (a : R) : avgZ d (fun _ => a) = a.
Proof. unfold avgZ. rewrite fsum_const. pose proof (nZ_pos d). field. lra. Qed.

(** The four cells of a pair's joint law, from A = E(p1 p2), B = E(p1), C = E(p2) over Z. *)
Lemma joint_cells (d : nat) (P : pair) (w w' : R) :
  let A := avgZ d (fun z => p1 P w z * p2 P w' z) in
  let B := avgZ d (p1 P w) in let C := avgZ d (p2 P w') in
  joint d P w w' true true = A /\ joint d P w w' true false = B - A /\
  joint d P w w' false true = C - A /\ joint d P w w' false false = 1 - B - C + A.
Proof.
  intros A B C. unfold joint, sgn_prob, A, B, C. split; [reflexivity|split; [|split]].
  - rewrite (avgZ_ext d _ (fun z => p1 P w z + (-1) * (p1 P w z * p2 P w' z))) by (intros; ring).
    rewrite avgZ_plus, avgZ_scal. ring.
  - rewrite (avgZ_ext d _ (fun z => p2 P w' z + (-1) * (p1 P w z * p2 P w' z))) by (intros; ring).
    rewrite avgZ_plus, avgZ_scal. ring.
  - rewrite (avgZ_ext d _ (fun z => 1 + ((-1) * p1 P w z + ((-1) * p2 P w' z + p1 P w z * p2 P w' z))))
      by (intros; ring).
    rewrite !avgZ_plus, !avgZ_scal, avgZ_const. ring.
Qed.

Lemma joint_nonneg (d : nat) (P : pair) (w w' : R) (s1 s2 : bool) :
  (forall z, (z < nZ d)%nat -> is_prob (p1 P w z) /\ is_prob (p2 P w' z)) -> 0 <= joint d P w w' s1 s2.
Proof.
  intros H. unfold joint, avgZ. pose proof (nZ_pos d).
  apply Rmult_le_pos; [|left; apply Rinv_0_lt_compat; exact H0].
  apply fsum_nonneg. intros z Hz. destruct (H z Hz) as [[A B] [C D]].
  destruct s1, s2; simpl; apply Rmult_le_pos; lra.
Qed.

(** Chebyshev's sum inequality for averages over Z. *)
Lemma avgZ_chebyshev (d : nat) (f g : nat -> R) :
  (forall i j, (i <= j < nZ d)%nat -> f j <= f i) -> (forall i j, (i <= j < nZ d)%nat -> g i <= g j) ->
  avgZ d (fun z => f z * g z) <= avgZ d f * avgZ d g.
Proof.
  intros Hf Hg. pose proof (fsum_chebyshev (nZ d) f g Hf Hg) as Ch. pose proof (nZ_pos d) as HN.
  unfold avgZ. set (N := INR (nZ d)) in *.
  apply (Rmult_le_reg_r (N * N)); [nra|].
  replace (fsum (nZ d) (fun z => f z * g z) / N * (N * N)) with (N * fsum (nZ d) (fun z => f z * g z))
    by (field; lra).
  replace (fsum (nZ d) f / N * (fsum (nZ d) g / N) * (N * N)) with (fsum (nZ d) f * fsum (nZ d) g)
    by (field; lra).
  exact Ch.
Qed.

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
   @avgZ_step,
   @fsum_minus,
   @fsum_zero,
   @fsum_single,
   @fsum_mult,
   @fsum_diag_split,
   @fsum_double_diff,
   @fsum_chebyshev,
   @step_antitone,
   @tsum_ext,
   @tsum_plus,
   @tsum_scal,
   @fprod_ext,
   @pexp_ext,
   @pexp_plus,
   @pexp_scal,
   @pexp_fsum,
   @pexp_peel,
   @pexp_one,
   @pexp_indep,
   @pexp_group,
   @pcov_groups,
   @pcov_fsum,
   @pcov_scal,
   @pcov_same_group,
   @avgZ_ext,
   @avgZ_plus,
   @avgZ_scal,
   @avgZ_const,
   @joint_cells,
   @joint_nonneg,
   @avgZ_chebyshev).
Print Assumptions Sums_lemmas.
