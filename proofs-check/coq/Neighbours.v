(** * The accountant's worst case: every other LDPQ client at an end of its range

    privacy/worst_case/neighbours.hpp, Lemmas 1 and 2. A law of the count J of "+" outputs is a function
    nat -> R (finite support); one more LDPQ client, saying "+" with probability q, gives
        (add q A)(k) = (1 − q) A(k) + q A(k − 1),
    linear in A and affine in q. The hockey-stick sum up to any bound N,
        hs g N P Q = Σ_(k < N) max(0, P(k) − g Q(k)),
    is convex along affine families, so over q in [qlo, qhi] it is largest at an end. Applied to
    every other client in turn (the order does not matter: adding clients commutes), some choice
    of ends for all of them is at least as bad as any inputs, and only how many sit at each end
    counts. It holds for every g >= 0 (every e^ε), for P against Q and Q against P alike (A, B
    are any two laws: client 1's part in the two worlds convolved with the rest), and for every
    bound N, hence for the whole support. *)

From Coq Require Import Reals Lra Lia List Permutation.
From Corbin Require Import Defs Sums.
Import ListNotations.
Open Scope R_scope.

Definition law := nat -> R.

(** One more LDPQ client with P(+) = q. *)
Definition add (q : R) (A : law) : law :=
  fun k => (1 - q) * A k + q * match k with O => 0 | S k' => A k' end.

(** The hockey-stick sum of P against Q at e^ε = g over the counts below N. *)
Definition hs (g : R) (N : nat) (P Q : law) : R := fsum N (fun k => Rmax 0 (P k - g * Q k)).

(** Clients added in the order of the list (the head last). *)
Fixpoint adds (qs : list R) (A : law) : law :=
  match qs with [] => A | q :: rest => add q (adds rest A) end.

(** Every input at an end: true at qhi (c + r), false at qlo (c − r). *)
Definition ends (qlo qhi : R) (bs : list bool) : list R := map (fun b : bool => if b then qhi else qlo) bs.

Lemma Rmax0_convex (t a b : R) : 0 <= t <= 1 -> Rmax 0 ((1 - t) * a + t * b) <= (1 - t) * Rmax 0 a + t * Rmax 0 b.
Proof.
  intros T. apply Rmax_lub.
  - pose proof (Rmax_l 0 a). pose proof (Rmax_l 0 b). nra.
  - pose proof (Rmax_r 0 a). pose proof (Rmax_r 0 b). nra.
Qed.

Lemma add_affine (q1 q2 t : R) (A : law) (k : nat) :
  add ((1 - t) * q1 + t * q2) A k = (1 - t) * add q1 A k + t * add q2 A k.
Proof. unfold add. destruct k; ring. Qed.

Lemma hs_ext (g : R) (N : nat) (P P' Q Q' : law) :
  (forall k, P k = P' k) -> (forall k, Q k = Q' k) -> hs g N P Q = hs g N P' Q'.
Proof. intros HP HQ. unfold hs. apply fsum_ext. intros k _. rewrite HP, HQ. reflexivity. Qed.

(** Lemma 1 along one client's input: convex in q. *)
Lemma hs_add_convex (g : R) (N : nat) (A B : law) (q1 q2 t : R) : 0 <= t <= 1 ->
  hs g N (add ((1 - t) * q1 + t * q2) A) (add ((1 - t) * q1 + t * q2) B) <=
  (1 - t) * hs g N (add q1 A) (add q1 B) + t * hs g N (add q2 A) (add q2 B).
Proof.
  intros T. unfold hs. rewrite <- !fsum_scal, <- fsum_plus. apply fsum_le. intros k _.
  rewrite !add_affine.
  replace ((1 - t) * add q1 A k + t * add q2 A k - g * ((1 - t) * add q1 B k + t * add q2 B k))
    with ((1 - t) * (add q1 A k - g * add q1 B k) + t * (add q2 A k - g * add q2 B k)) by ring.
  apply Rmax0_convex, T.
Qed.

(** Lemma 2 for one client: over its whole range, one end is at least as bad. *)
Theorem one_other_at_an_end (g : R) (N : nat) (A B : law) (qlo qhi q : R) : qlo <= q <= qhi ->
  hs g N (add q A) (add q B) <= Rmax (hs g N (add qlo A) (add qlo B)) (hs g N (add qhi A) (add qhi B)).
Proof.
  intros [L H]. destruct (Req_dec qlo qhi) as [E|E].
  - subst. replace q with qhi by lra. apply Rmax_r.
  - set (t := (q - qlo) / (qhi - qlo)).
    assert (D : 0 < qhi - qlo) by lra.
    assert (T : 0 <= t <= 1).
    { unfold t. split.
      - unfold Rdiv. apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat, D].
      - apply (Rmult_le_reg_r (qhi - qlo)); [exact D|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
    assert (Q : q = (1 - t) * qlo + t * qhi) by (unfold t; field; lra).
    rewrite Q. eapply Rle_trans; [apply hs_add_convex, T|].
    pose proof (Rmax_l (hs g N (add qlo A) (add qlo B)) (hs g N (add qhi A) (add qhi B))).
    pose proof (Rmax_r (hs g N (add qlo A) (add qlo B)) (hs g N (add qhi A) (add qhi B))). nra.
Qed.

(** Adding clients commutes (the sum does not depend on their order). *)
Lemma add_comm (p q : R) (A : law) (k : nat) : add p (add q A) k = add q (add p A) k.
Proof. unfold add. destruct k as [|[|k]]; ring. Qed.

Lemma add_ext (q : R) (A A' : law) : (forall k, A k = A' k) -> forall k, add q A k = add q A' k.
Proof. intros H k. unfold add. destruct k; rewrite ?H; reflexivity. Qed.

Lemma adds_ext (qs : list R) (A A' : law) : (forall k, A k = A' k) -> forall k, adds qs A k = adds qs A' k.
Proof. induction qs as [|q qs IH]; intros H k; simpl; [apply H|]. apply add_ext. intros; apply IH, H. Qed.

Lemma adds_add (qs : list R) (p : R) (A : law) (k : nat) : adds qs (add p A) k = add p (adds qs A) k.
Proof.
  revert k. induction qs as [|q qs IH]; intros k; simpl; [reflexivity|].
  rewrite (add_ext q _ _ IH). apply add_comm.
Qed.

Lemma adds_perm (qs qs' : list R) (A : law) : Permutation qs qs' -> forall k, adds qs A k = adds qs' A k.
Proof.
  induction 1 as [|q qs qs' P IH|p q qs|qs qs' qs'' P1 IH1 P2 IH2]; intros k; simpl.
  - reflexivity.
  - apply add_ext, IH.
  - apply add_comm.
  - rewrite IH1. apply IH2.
Qed.

(** Lemmas 1 and 2: for any inputs of the other LDPQ clients, some choice of ends is at least as
    bad, for every e^ε and every pair of laws of the rest. *)
Theorem others_at_ends (g qlo qhi : R) (N : nat) (qs : list R) (A B : law) :
  Forall (fun q => qlo <= q <= qhi) qs ->
  exists bs, length bs = length qs /\
             hs g N (adds qs A) (adds qs B) <= hs g N (adds (ends qlo qhi bs) A) (adds (ends qlo qhi bs) B).
Proof.
  revert A B. induction qs as [|q qs IH]; intros A B F.
  - exists []. split; [reflexivity | apply Rle_refl].
  - inversion F as [|? ? Rq Rqs]; subst. simpl adds.
    pose proof (one_other_at_an_end g N (adds qs A) (adds qs B) qlo qhi q Rq) as E.
    (* the worse end e, moved inside the rest *)
    assert (Pick : exists b : bool, hs g N (add q (adds qs A)) (add q (adds qs B)) <=
                                     hs g N (adds qs (add (if b then qhi else qlo) A)) (adds qs (add (if b then qhi else qlo) B))).
    { destruct (Rle_dec (hs g N (add qlo (adds qs A)) (add qlo (adds qs B))) (hs g N (add qhi (adds qs A)) (add qhi (adds qs B)))) as [Le|Gt].
      - exists true.
        replace (hs g N (adds qs (add qhi A)) (adds qs (add qhi B))) with (hs g N (add qhi (adds qs A)) (add qhi (adds qs B)))
          by (apply hs_ext; intros; symmetry; apply adds_add).
        rewrite Rmax_right in E by exact Le. exact E.
      - exists false.
        replace (hs g N (adds qs (add qlo A)) (adds qs (add qlo B))) with (hs g N (add qlo (adds qs A)) (add qlo (adds qs B)))
          by (apply hs_ext; intros; symmetry; apply adds_add).
        rewrite Rmax_left in E by lra. exact E. }
    destruct Pick as [b Hb].
    destruct (IH (add (if b then qhi else qlo) A) (add (if b then qhi else qlo) B) Rqs) as [bs [Len Hbs]].
    exists (b :: bs). split; [simpl; rewrite Len; reflexivity|].
    eapply Rle_trans; [exact Hb|]. eapply Rle_trans; [exact Hbs|]. simpl.
    right. apply hs_ext; intros k; apply adds_add.
Qed.

(** Only how many sit at c + r counts: any choice of ends is j at qhi and the rest at qlo. *)
Lemma ends_count (qlo qhi : R) (bs : list bool) (A : law) (k : nat) :
  adds (ends qlo qhi bs) A k = adds (repeat qhi (count_occ Bool.bool_dec bs true) ++ repeat qlo (count_occ Bool.bool_dec bs false)) A k.
Proof.
  apply adds_perm. induction bs as [|b bs IH]; simpl; [constructor|].
  destruct b; simpl.
  - constructor. exact IH.
  - eapply perm_trans; [apply perm_skip, IH|]. apply Permutation_middle.
Qed.

Lemma count_bools (bs : list bool) :
  (count_occ Bool.bool_dec bs true + count_occ Bool.bool_dec bs false = length bs)%nat.
Proof.
  induction bs as [|b bs IH]; [reflexivity|].
  destruct b; simpl count_occ; simpl length;
    destruct (Bool.bool_dec true true), (Bool.bool_dec true false), (Bool.bool_dec false true), (Bool.bool_dec false false);
    try congruence; lia.
Qed.

(** The accountant's reduction for the other LDPQ clients: the worst case over their inputs is
    attained with j of the L of them at c + r and the rest at c − r, for some j. *)
Definition ldpq_others_at_ends_claim : Prop :=
  forall (g qlo qhi : R) (N : nat) (qs : list R) (A B : law),
  Forall (fun q => qlo <= q <= qhi) qs ->
  exists j, (j <= length qs)%nat /\
    hs g N (adds qs A) (adds qs B) <=
    hs g N (adds (repeat qhi j ++ repeat qlo (length qs - j)) A) (adds (repeat qhi j ++ repeat qlo (length qs - j)) B).

Theorem ldpq_others_at_ends : ldpq_others_at_ends_claim.
Proof.
  intros g qlo qhi N qs A B F.
  destruct (others_at_ends g qlo qhi N qs A B F) as [bs [Len H]].
  exists (count_occ Bool.bool_dec bs true). split.
  - rewrite <- Len. apply count_occ_bound.
  - eapply Rle_trans; [exact H|]. right.
    assert (C : (count_occ Bool.bool_dec bs false = length qs - count_occ Bool.bool_dec bs true)%nat).
    { rewrite <- Len, <- (count_bools bs). lia. }
    rewrite <- C. apply hs_ext; intros k; apply ends_count.
Qed.

Definition Neighbours_lemmas := (one_other_at_an_end, others_at_ends, ldpq_others_at_ends).
Print Assumptions Neighbours_lemmas.
