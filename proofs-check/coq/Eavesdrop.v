(** * L1 — the PLDP of a CorBin-FL pair seen by an observer of both uplinks, or by a holder of Z

    NOT CLAIMED BY THE PAPER. The paper's PLDP (Section 1, line 65: "an eavesdropper gaining
    access to the local update being transmitted by one of the clients in uplink communication";
    C5, Eq. before Theorem 1) is about ONE client's output alone, and for that view Theorem 1 holds
    (T1a.v). This file asks what the same ε-PLDP property gives for two other observers, which the
    paper's threat model does not exclude (the server relays both uplinks; Z is shared over a
    pairwise channel).

    Property checked, for Algorithm 2 as intended (Defs.corbinq): "the observer's view is ε-PLDP in
    each client's input", i.e. changing one client's input (the other's fixed) changes the
    probability of every view by a factor at most e^ε.

    - Reading 1, the pair observer (sees (Q1, Q2) jointly, not Z): [L1_claim_pair_observer].
      Verdict: fails. For every d ≥ 1 and every ε, c, r > 0 ([L1_pair_every_d]), with the follower
      at w2 = c (its threshold is T2 = 2^(d−1), a cell edge):
      P(Q1 = c + rα, Q2 = c + rα) = 0 when the leader's input is w1 = c − r (then Q1 = + needs
      Z < 2^(d−1), where Q2 = −), and > 0 when w1 = c + r (at Z = 2^(d−1) both are +).
      No finite ε bounds the ratio ([L1_pair_unbounded]). At d = 0 the pair is two independent
      LDPQs (D0.v) and the view is ε-PLDP in each input ([L1_pair_d0], holds).
    - Reading 2, the holder of Z (sees Z and one client's output): [L1_claim_Z_holder].
      Verdict: fails. For every d ≥ 1, at Z = 2^(d−1), P(Q1 = c + rα | Z) is 0 at w = c − r and > 0
      at w = c + r ([L1_zholder_every_d]); at d = 5, ε = ln 3, c = r = 1 and Z = 16 it is 0 at
      w = 0 and 1 at w = 2 ([L1_zholder_d5_zero_one]). At d = 0 (Z constant) the view is LDPQ's
      output, ε-PLDP ([L1_zholder_d0], holds).
    Both counterexamples refute the universal statements at d = 5, ε = 1, c = r = 1
    ([L1_pair], [L1_Z_holder]). *)

From Coq Require Import Reals Lra Lia.
From Corbin Require Import Defs Alpha Sums Facts T1a D0.
Open Scope R_scope.

(** ** The observers' views and the property *)

(** P(Z = z, Q_i = s) for the holder of Z who also sees client i's output. *)
Definition zview1 (d : nat) (P : pair) (w : R) (z : nat) (s : bool) : R :=
  sgn_prob s (p1 P w z) / INR (nZ d).
Definition zview2 (d : nat) (P : pair) (w : R) (z : nat) (s : bool) : R :=
  sgn_prob s (p2 P w z) / INR (nZ d).

(** The pair observer's view (Q1, Q2), law [joint]: ε-PLDP in each client's input. *)
Definition pair_view_pldp (d : nat) (e c r : R) (P : pair) : Prop :=
  forall (w1 w1' w2 w2' : R) (s1 s2 : bool),
    in_range c r w1 -> in_range c r w1' -> in_range c r w2 -> in_range c r w2' ->
    (w1 = w1' \/ w2 = w2') -> joint d P w1 w2 s1 s2 <= exp e * joint d P w1' w2' s1 s2.

(** The holder of Z's view (Z, Q_i), for either client: ε-PLDP in that client's input. *)
Definition zholder_view_pldp (d : nat) (e c r : R) (P : pair) : Prop :=
  forall (w w' : R) (z : nat) (s : bool), in_range c r w -> in_range c r w' -> (z < nZ d)%nat ->
    zview1 d P w z s <= exp e * zview1 d P w' z s /\ zview2 d P w z s <= exp e * zview2 d P w' z s.

(** For CorBin-FL (Alg. 2 as intended), for every d ∈ ℕ and ε, c, r > 0 (Theorem 1's range). *)
Definition L1_claim_pair_observer : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r -> pair_view_pldp d e c r (corbinq d e c r).
Definition L1_claim_Z_holder : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r -> zholder_view_pldp d e c r (corbinq d e c r).

(** ** Threshold steps at an integer point *)

Lemma fl_INR (k : nat) : fl (INR k) = k.
Proof. rewrite <- (Rplus_0_r (INR k)). apply fl_of_nat. lra. Qed.

(** A threshold exactly at k: below-probability 1 for z < k, 0 from k on (no tie mass). *)
Lemma step_INR (k z : nat) : step (INR k) z = if (z <? k)%nat then 1 else 0.
Proof.
  unfold step, fr. rewrite fl_INR. destruct (z <? k)%nat; [reflexivity|].
  destruct (z =? k)%nat; ring.
Qed.

(** A threshold x ≤ k gives 0 for every z ≥ k (at z = ⌊x⌋ = k, x = k has no tie mass). *)
Lemma step_zero_above (x : R) (k z : nat) : 0 <= x -> x <= INR k -> (k <= z)%nat -> step x z = 0.
Proof.
  intros H0 H1 Hz. pose proof (fl_spec x H0) as [F0 F1].
  assert (Hle : (fl x <= k)%nat) by (apply INR_le; lra).
  unfold step. destruct (Nat.ltb_spec z (fl x)); [lia|].
  destruct (Nat.eqb_spec z (fl x)); [|reflexivity].
  assert (E : fl x = k) by lia. unfold fr. rewrite E in *. lra.
Qed.

(** A threshold x > k gives positive mass at z = k. *)
Lemma step_pos_at (x : R) (k : nat) : INR k < x -> 0 < step x k.
Proof.
  intros H. assert (H0 : 0 <= x) by (pose proof (pos_INR k); lra).
  pose proof (fl_spec x H0) as [F0 F1].
  assert (L : INR k < INR (S (fl x))) by (rewrite S_INR; lra).
  apply INR_lt in L. assert (Hge : (k <= fl x)%nat) by lia.
  unfold step. destruct (Nat.ltb_spec k (fl x)); [lra|].
  replace (k =? fl x)%nat with true by (symmetry; apply Nat.eqb_eq; lia).
  unfold fr. replace (fl x) with k by lia. lra.
Qed.

Lemma fsum_pos (n k : nat) (f : nat -> R) :
  (forall z, (z < n)%nat -> 0 <= f z) -> (k < n)%nat -> 0 < f k -> 0 < fsum n f.
Proof.
  induction n as [|n IH]; intros H Hk Hf; [lia|]. simpl.
  destruct (Nat.eq_dec k n) as [->|Ne].
  - pose proof (fsum_nonneg n f (fun z Hz => H z ltac:(lia))). lra.
  - pose proof (IH (fun z Hz => H z ltac:(lia)) ltac:(lia) Hf). pose proof (H n ltac:(lia)). lra.
Qed.

(** ** d ≥ 1: the thresholds at w = c (follower) and w = c ± r (leader) *)

Section Every_d.
Variables (d' : nat) (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.
Let d := S d'.
Let k := nZ d'.
Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.

Let nZ_d : INR (nZ d) = 2 * INR k := nZ_S d'.

Lemma k_pos : (1 <= k)%nat.
Proof. unfold k, nZ. pose proof (Nat.pow_nonzero 2 d' ltac:(lia)). lia. Qed.

Lemma k_lt : (k < nZ d)%nat.
Proof. apply INR_lt. rewrite nZ_d. pose proof (lt_0_INR k ltac:(pose proof k_pos; lia)). lra. Qed.

(** Follower at c: v = 2^d (1 − 1/2) = 2^(d−1), an integer. *)
Lemma v_center : v_of d a c r c = INR k.
Proof. unfold v_of, ldpq_q. rewrite nZ_d. replace (c - c) with 0 by ring. unfold Rdiv. rewrite Rmult_0_l. lra. Qed.

(** Leader at c − r: u = 2^d (1/2 − 1/(2α)) ≤ 2^(d−1); at c + r: u > 2^(d−1). *)
Lemma u_bottom : 0 <= u_of d a c r (c - r) <= INR k.
Proof.
  pose proof (u_range d e c r He Hr (c - r) ltac:(unfold in_range; lra)) as [U _]. fold a d in U.
  split; [exact U|]. unfold u_of, ldpq_q. rewrite nZ_d. pose proof (pos_INR k).
  replace ((c - r - c) / (2 * r * a)) with (- (1 / (2 * a))) by (field; lra).
  assert (0 < 1 / (2 * a)) by (apply Rdiv_lt_0_compat; lra). nra.
Qed.

Lemma u_top : INR k < u_of d a c r (c + r).
Proof.
  unfold u_of, ldpq_q. rewrite nZ_d. pose proof (lt_0_INR k ltac:(pose proof k_pos; lia)).
  replace ((c + r - c) / (2 * r * a)) with (1 / (2 * a)) by (field; lra).
  assert (0 < 1 / (2 * a)) by (apply Rdiv_lt_0_compat; lra). nra.
Qed.

Lemma u_top_nonneg : 0 <= u_of d a c r (c + r).
Proof. pose proof u_top. pose proof (pos_INR k). lra. Qed.

(** P(Q1 = c + rα, Q2 = c + rα) = 0 for (w1, w2) = (c − r, c). *)
Theorem pair_zero : joint d (corbinq d e c r) (c - r) c true true = 0.
Proof.
  unfold joint, avgZ. simpl sgn_prob. cbn [corbinq p1 p2]. fold a.
  rewrite v_center.
  rewrite (fsum_ext _ _ (fun _ => 0)).
  - rewrite fsum_const. unfold Rdiv. ring.
  - intros z _. rewrite step_INR. destruct (Nat.ltb_spec z k); [ring|].
    rewrite (step_zero_above _ k z (proj1 u_bottom) (proj2 u_bottom)) by lia. ring.
Qed.

(** P(Q1 = c + rα, Q2 = c + rα) > 0 for (w1, w2) = (c + r, c): Z = 2^(d−1) gives both +. *)
Theorem pair_pos : 0 < joint d (corbinq d e c r) (c + r) c true true.
Proof.
  unfold joint, avgZ. simpl sgn_prob. cbn [corbinq p1 p2]. fold a.
  rewrite v_center. apply Rdiv_lt_0_compat; [|apply nZ_pos].
  apply (fsum_pos _ k); [| exact k_lt |].
  - intros z _. pose proof (step_prob _ z u_top_nonneg). rewrite step_INR.
    destruct (z <? k)%nat; nra.
  - rewrite step_INR. replace (k <? k)%nat with false by (symmetry; apply Nat.ltb_irrefl).
    pose proof (step_pos_at _ k u_top). lra.
Qed.

(** The holder of Z at Z = 2^(d−1): P(Q1 = c + rα | Z) is 0 at c − r and > 0 at c + r. *)
Theorem zholder_zero : p1 (corbinq d e c r) (c - r) k = 0.
Proof. cbn [corbinq p1]. fold a. apply (step_zero_above _ k k (proj1 u_bottom) (proj2 u_bottom)). lia. Qed.

Theorem zholder_pos : 0 < p1 (corbinq d e c r) (c + r) k.
Proof. cbn [corbinq p1]. fold a. apply step_pos_at, u_top. Qed.

End Every_d.

(** No finite bound K on the pair observer's likelihood ratio, for every d ≥ 1 and ε, c, r > 0. *)
Theorem L1_pair_unbounded (d : nat) (e c r K : R) : (1 <= d)%nat -> 0 < e -> 0 < r ->
  ~ (joint d (corbinq d e c r) (c + r) c true true <= K * joint d (corbinq d e c r) (c - r) c true true).
Proof.
  intros Hd He Hr H. destruct d as [|d']; [lia|].
  rewrite (pair_zero d' e c r He Hr) in H. pose proof (pair_pos d' e c r He Hr). lra.
Qed.

Theorem L1_pair_every_d (d : nat) (e c r : R) : (1 <= d)%nat -> 0 < e -> 0 < r ->
  ~ pair_view_pldp d e c r (corbinq d e c r).
Proof.
  intros Hd He Hr H.
  apply (L1_pair_unbounded d e c r (exp e) Hd He Hr).
  apply H; try (apply in_range_top || apply in_range_bottom || apply in_range_center); try assumption. right. reflexivity.
Qed.


Theorem L1_pair : ~ L1_claim_pair_observer.
Proof.
  intros H. apply (L1_pair_every_d 5 1 1 1 ltac:(lia) ltac:(lra) ltac:(lra)).
  apply H; lra.
Qed.


(** The holder of Z, every d ≥ 1: at Z = 2^(d−1) its view has probability 0 at one input and
    > 0 at another, so no finite ε bounds the ratio. *)
Theorem L1_zholder_every_d (d : nat) (e c r : R) : (1 <= d)%nat -> 0 < e -> 0 < r ->
  ~ zholder_view_pldp d e c r (corbinq d e c r).
Proof.
  intros Hd He Hr H. destruct d as [|d']; [lia|].
  destruct (H (c + r) (c - r) (nZ d') true (in_range_top c r Hr) (in_range_bottom c r Hr) (k_lt d')) as [A _].
  unfold zview1 in A. cbn [sgn_prob] in A. rewrite (zholder_zero d' e c r He Hr) in A.
  pose proof (zholder_pos d' e c r He Hr). pose proof (nZ_pos (S d')).
  assert (0 < p1 (corbinq (S d') e c r) (c + r) (nZ d') / INR (nZ (S d'))) by (apply Rdiv_lt_0_compat; lra).
  unfold Rdiv in A at 2. rewrite Rmult_0_l, Rmult_0_r in A. lra.
Qed.


Theorem L1_Z_holder : ~ L1_claim_Z_holder.
Proof.
  intros H. apply (L1_zholder_every_d 5 1 1 1 ltac:(lia) ltac:(lra) ltac:(lra)).
  apply H; lra.
Qed.


(** The concrete 0-versus-1 example: d = 5, ε = ln 3 (α = 2), c = r = 1, Z = 16. The leader's
    threshold is u = 32 q(w): 8 at w = 0, 24 at w = 2. *)
Theorem L1_zholder_d5_zero_one :
  p1 (corbinq 5 (ln 3) 1 1) 0 16 = 0 /\ p1 (corbinq 5 (ln 3) 1 1) 2 16 = 1.
Proof.
  cbn [corbinq p1]. rewrite alpha_ln by lra.
  assert (N5 : INR (nZ 5) = 32) by (unfold nZ; rewrite INR_IZR_INZ; reflexivity).
  assert (U0 : u_of 5 ((3 + 1) / (3 - 1)) 1 1 0 = INR 8).
  { unfold u_of, ldpq_q. rewrite N5. replace (INR 8) with 8 by (simpl; ring). field. }
  assert (U2 : u_of 5 ((3 + 1) / (3 - 1)) 1 1 2 = INR 24).
  { unfold u_of, ldpq_q. rewrite N5. replace (INR 24) with 24 by (simpl; ring). field. }
  rewrite U0, U2, !step_INR. split; reflexivity.
Qed.


(** ** d = 0: both views are ε-PLDP (D0 and LDPQ's PLDP) *)

Lemma sgn_nonneg (s : bool) (p : R) : 0 <= p <= 1 -> 0 <= sgn_prob s p.
Proof. destruct s; simpl; lra. Qed.

Lemma sgn_ldpq_pldp (e c r x y : R) (s : bool) : 0 < e -> 0 < r -> in_range c r x -> in_range c r y ->
  sgn_prob s (ldpq_q (alpha e) c r x) <= exp e * sgn_prob s (ldpq_q (alpha e) c r y).
Proof. intros He Hr Hx Hy. destruct (ldpq_pldp e c r x y He Hr Hx Hy). destruct s; simpl; assumption. Qed.

Theorem L1_pair_d0 (e c r : R) : 0 < e -> 0 < r -> pair_view_pldp 0 e c r (corbinq 0 e c r).
Proof.
  intros He Hr w1 w1' w2 w2' s1 s2 H1 H1' H2 H2' Eq.
  rewrite !D0 by assumption. unfold ldpq_pair_joint.
  pose proof (ldpq_q_prob (alpha e) c r w1 (alpha_gt_1 e He) Hr H1).
  pose proof (ldpq_q_prob (alpha e) c r w1' (alpha_gt_1 e He) Hr H1').
  pose proof (ldpq_q_prob (alpha e) c r w2 (alpha_gt_1 e He) Hr H2).
  pose proof (ldpq_q_prob (alpha e) c r w2' (alpha_gt_1 e He) Hr H2').
  destruct Eq as [<- | <-].
  - rewrite <- Rmult_assoc, (Rmult_comm (exp e)), Rmult_assoc.
    apply Rmult_le_compat_l; [apply sgn_nonneg; lra|]. apply sgn_ldpq_pldp; assumption.
  - rewrite <- Rmult_assoc. apply Rmult_le_compat_r; [apply sgn_nonneg; lra|].
    apply sgn_ldpq_pldp; assumption.
Qed.


Theorem L1_zholder_d0 (e c r : R) : 0 < e -> 0 < r -> zholder_view_pldp 0 e c r (corbinq 0 e c r).
Proof.
  intros He Hr w w' z s Hw Hw' Hz.
  assert (z = 0%nat) by (unfold nZ in Hz; simpl in Hz; lia). subst z.
  pose proof (ldpq_q_prob (alpha e) c r w (alpha_gt_1 e He) Hr Hw).
  pose proof (ldpq_q_prob (alpha e) c r w' (alpha_gt_1 e He) Hr Hw').
  unfold zview1, zview2. cbn [corbinq p1 p2].
  rewrite !step_at_0 by (first [rewrite u_at_0 by assumption | rewrite v_at_0 by assumption]; lra).
  rewrite !u_at_0, !v_at_0 by assumption.
  replace (INR (nZ 0)) with 1 by reflexivity. unfold Rdiv. rewrite !Rinv_1, !Rmult_1_r.
  replace (1 - (1 - ldpq_q (alpha e) c r w)) with (ldpq_q (alpha e) c r w) by ring.
  replace (1 - (1 - ldpq_q (alpha e) c r w')) with (ldpq_q (alpha e) c r w') by ring.
  split; apply sgn_ldpq_pldp; assumption.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Eavesdrop_theorems :=
  (@pair_zero,
   @pair_pos,
   @zholder_zero,
   @zholder_pos,
   @L1_pair_unbounded,
   @L1_pair_every_d,
   @L1_pair,
   @L1_zholder_every_d,
   @L1_Z_holder,
   @L1_zholder_d5_zero_one,
   @L1_pair_d0,
   @L1_zholder_d0).
Print Assumptions Eavesdrop_theorems.
