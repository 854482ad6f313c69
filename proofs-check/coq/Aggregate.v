(** * T2a and D1 — the CorBin-FL aggregate, and a pair member that drops out

    ** T2a — Theorem 2 (Section 4, "Privacy-Utility Guarantees"):
    "The CorBin-FL mechanism is unbiased, i.e., E(W̄_g) = (1/n) Σ_{i∈[n]} w_i, where w_i, i ∈ [n]
    are the local client updates, and W̄_g is the average of the obfuscated updates at the server."

    The server's average is Eq. (1) (W̄_g = (1/n) Σ_{i=1}^n W̄_i, with the UCDP definition) and
    Algorithm 3, line 23 (W̄_g ← (1/n) Σ_{i∈[n]} W̄_i): 1/n times the sum of the n released
    values, exactly. The n clients form n/2 pairs; each pair runs CorBinQ (Alg. 2) with its own
    shared Z (Alg. 3, lines 14–19), client i as Q1 with input w_i and its partner p_i as Q2.
    Equality of vectors is coordinatewise and each coordinate j runs its own CorBinQ with its
    own (c_j, r_j, Z_{i,j}), so the claim is stated per coordinate, for every c, r.

    The expectation of a pair's released sum is taken from its joint law (Defs.joint): the sum
    over the four sign cells of P(Q1 = s1, Q2 = s2) × (level s1 + level s2). The expectation of
    the server's average is then (1/n) Σ over pairs of these (linearity of expectation, whatever
    the dependence between pairs). A pairing with its inputs is a list of (Q1's input, Q2's
    input), one entry per pair, n = 2 × its length.

    - Reading (a), Algorithm 2 as intended (line 14 "ELSIF T2 ≺ Z", Defs.corbinq): each pair's
      expected sum is w + w' (from T1a's marginals), hence E(W̄_g) = (1/n) Σ w_i for every d,
      every number of pairs, every inputs in [c − r, c + r], ε > 0 (also when the leader is
      drawn at random, Alg. 3 lines 5–13). Verdict: holds (proved): [T2a_intended],
      [T2a_intended_random_roles].
    - Reading (b), Algorithm 2 exactly as printed (line 14 "ELSIF T1 ≺ Z",
      Defs.q2_minus_as_printed): c = r = 1, e^ε = 3 (ε = ln 3, α = 2), d = 1, one pair (n = 2),
      Q1's input 1 and Q2's input 9/8. E(W̄_g) = 1/8, while the inputs' average is 17/16. If the
      roles are drawn at random (each order with probability 1/2), E(W̄_g) = 19/32 ≠ 17/16.
      Verdict: fails ([T2a_as_printed], [T2a_as_printed_random_roles]); an erratum of line 14
      (A2.v), not of Theorem 2's argument.

    ** D1 — Section 4, "Robustness to Client Dropout": "The CorBin-FL mechanism is robust to
    client dropouts. The reason is that if a member of a pair of clients drops out, the
    quantization performed by the other client is equivalent to the LDPQ quantizer."

    - Reading (a), marginal law (over Z and the survivor's private coin): whichever member
      survives (Q1 or Q2 of the intended Alg. 2), its levels are c ± rα and P(Q = c + rα) = q(w),
      LDPQ's law, for every d; it is therefore unbiased (C1) and ε-PLDP (C2). Verdict: holds
      (proved): [D1_marginal].
    - Reading (b), law given Z = z (for a party that knows the pair's Z: the dropped partner, or
      anyone holding the pair's key): d = 1, α = 2, c = r = 1, w = 1 (q(w) = 1/2): given Z = 0,
      Q1 = c + rα with probability 1 and Q2 = c + rα with probability 0; neither is 1/2. More
      generally, for every d ≥ 1, ε, c, r, at w = c, P(Q1 = c + rα | Z = 0) = 1 ≠ 1/2. Verdict:
      fails: [D1_given_Z], [D1_given_Z_every_d].
    - Reading (b'), ε-PLDP given Z = z: same constants; given Z = 1, P(Q1 = c + rα) is 1/2 at
      w = 2 and 0 at w = 1 (both in [0, 2]); given Z = 0, P(Q2 = c + rα) is 1/2 at w = 2 and 0
      at w = 1. The likelihood ratio is unbounded (1/2 against 0). Verdict: fails:
      [D1_pldp_given_Z].
    - Reading (c), marginal law with Algorithm 2 exactly as printed, surviving member Q2: its
      law depends on the partner's input, and at partner input 1 and own input 9/8,
      P(Q2 = c + rα) = 1/16 ≠ q(9/8) = 17/32 (A2.v's computation). Verdict: fails (erratum of
      line 14): [D1_marginal_as_printed]. *)

From Coq Require Import Reals Lra Lia List.
From Corbin Require Import Defs Alpha Sums Facts P1 T1a A2.
Import ListNotations.
Open Scope R_scope.

(** ** The expectation of a pair's released sum, from its joint law *)

Definition cell (d : nat) (P : pair) (w w' : R) (s1 s2 : bool) : R :=
  joint d P w w' s1 s2 * (level P s1 + level P s2).

(** E(Q1(w, Z) + Q2(w', Z)): the four sign cells. *)
Definition pair_sum_mean (d : nat) (P : pair) (w w' : R) : R :=
  cell d P w w' true true + cell d P w w' true false +
  cell d P w w' false true + cell d P w w' false false.

(** The mean of one member, from its marginal. *)
Definition mean1 (d : nat) (P : pair) (w : R) : R :=
  marg1 d P w * phi P + (1 - marg1 d P w) * plo P.
Definition mean2 (d : nat) (P : pair) (w' : R) : R :=
  marg2 d P w' * phi P + (1 - marg2 d P w') * plo P.

(** Linearity: summing the joint law over the partner's sign leaves each marginal. *)
Lemma pair_sum_mean_split (d : nat) (P : pair) (w w' : R) :
  pair_sum_mean d P w w' = mean1 d P w + mean2 d P w'.
Proof.
  unfold pair_sum_mean, cell, joint, mean1, mean2, marg1, marg2, level, sgn_prob, avgZ.
  set (N := nZ d). set (f := p1 P w). set (g := p2 P w').
  assert (HN : 0 < INR N) by apply nZ_pos.
  assert (E2 : fsum N (fun z => f z * (1 - g z)) = fsum N f - fsum N (fun z => f z * g z)).
  { rewrite (fsum_ext _ _ (fun z => f z + (-1) * (f z * g z))) by (intros; ring).
    rewrite fsum_plus, fsum_scal. ring. }
  assert (E3 : fsum N (fun z => (1 - f z) * g z) = fsum N g - fsum N (fun z => f z * g z)).
  { rewrite (fsum_ext _ _ (fun z => g z + (-1) * (f z * g z))) by (intros; ring).
    rewrite fsum_plus, fsum_scal. ring. }
  assert (E4 : fsum N (fun z => (1 - f z) * (1 - g z)) =
               INR N * 1 - fsum N f - fsum N g + fsum N (fun z => f z * g z)).
  { rewrite (fsum_ext _ _ (fun z => (1 + (-1) * f z) + ((-1) * g z + f z * g z))) by (intros; ring).
    rewrite !fsum_plus, !fsum_scal, fsum_const. ring. }
  rewrite E2, E3, E4. field. lra.
Qed.

(** ** The server's average (Eq. (1); Alg. 3, line 23)

    [mk w] is the pair law a pair uses when Q1's input is w: for the intended Algorithm 2 it does
    not depend on w; as printed, Q2 compares Z with T1, which depends on w. *)

Fixpoint sum_pair_means (d : nat) (mk : R -> pair) (ws : list (R * R)) : R :=
  match ws with
  | [] => 0
  | (w, w') :: t => pair_sum_mean d (mk w) w w' + sum_pair_means d mk t
  end.

Fixpoint sum_inputs (ws : list (R * R)) : R :=
  match ws with [] => 0 | (w, w') :: t => w + w' + sum_inputs t end.

Fixpoint all_in_range (c r : R) (ws : list (R * R)) : Prop :=
  match ws with [] => True | (w, w') :: t => in_range c r w /\ in_range c r w' /\ all_in_range c r t end.

(** n = 2 × the number of pairs. *)
Definition n_clients (ws : list (R * R)) : nat := (2 * length ws)%nat.

(** E(W̄_g) = E((1/n) Σ_i W̄_i) = (1/n) Σ_pairs E(W̄_i + W̄_{p_i}). *)
Definition agg_mean (d : nat) (mk : R -> pair) (ws : list (R * R)) : R :=
  1 / INR (n_clients ws) * sum_pair_means d mk ws.

(** The same when each pair's leader is drawn by the fair coins Y (Alg. 3, lines 5–13) and the
    leader plays Q1: each order of the pair with probability 1/2. *)
Fixpoint sum_pair_means_rr (d : nat) (mk : R -> pair) (ws : list (R * R)) : R :=
  match ws with
  | [] => 0
  | (w, w') :: t =>
      (pair_sum_mean d (mk w) w w' + pair_sum_mean d (mk w') w' w) / 2 + sum_pair_means_rr d mk t
  end.
Definition agg_mean_rr (d : nat) (mk : R -> pair) (ws : list (R * R)) : R :=
  1 / INR (n_clients ws) * sum_pair_means_rr d mk ws.

Definition input_avg (ws : list (R * R)) : R := 1 / INR (n_clients ws) * sum_inputs ws.

(** Algorithm 2 as printed, as a pair given Q1's input w: Q1 as intended, Q2 by line 14 as
    printed (Defs.q2_minus_as_printed is P(Q2 = c − rα | Z = z)). *)
Definition corbinq_as_printed (d : nat) (e c r w : R) : pair :=
  let a := alpha e in
  {| plo := c - r * a; phi := c + r * a;
     p1 := fun w0 z => step (u_of d a c r w0) z;
     p2 := fun w' z => 1 - q2_minus_as_printed d a c r w w' z |}.

(** ** T2a, the readings *)

Definition T2a_claim_with (agg : nat -> (R -> pair) -> list (R * R) -> R)
  (alg : nat -> R -> R -> R -> R -> pair) : Prop :=
  forall (d : nat) (e c r : R) (ws : list (R * R)), 0 < e -> 0 < c -> 0 < r ->
    all_in_range c r ws -> agg d (alg d e c r) ws = input_avg ws.

Definition T2a_claim_intended : Prop :=
  T2a_claim_with agg_mean (fun d e c r _ => corbinq d e c r).
Definition T2a_claim_intended_random_roles : Prop :=
  T2a_claim_with agg_mean_rr (fun d e c r _ => corbinq d e c r).
Definition T2a_claim_as_printed : Prop := T2a_claim_with agg_mean corbinq_as_printed.
Definition T2a_claim_as_printed_random_roles : Prop := T2a_claim_with agg_mean_rr corbinq_as_printed.

(** ** T2a (a): Algorithm 2 as intended *)

Section Intended.
Variables (d : nat) (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.

Lemma corbinq_mean1 w : in_range c r w -> mean1 d (corbinq d e c r) w = w.
Proof.
  intros Hw. unfold mean1. rewrite corbinq_marg1 by assumption.
  pose proof (alpha_gt_1 e He). simpl. unfold ldpq_q. field. lra.
Qed.

Lemma corbinq_mean2 w : in_range c r w -> mean2 d (corbinq d e c r) w = w.
Proof.
  intros Hw. unfold mean2. rewrite corbinq_marg2 by assumption.
  pose proof (alpha_gt_1 e He). simpl. unfold ldpq_q. field. lra.
Qed.

(** One pair: E(Q1(w, Z) + Q2(w', Z)) = w + w'. *)
Theorem corbinq_pair_sum_mean w w' : in_range c r w -> in_range c r w' ->
  pair_sum_mean d (corbinq d e c r) w w' = w + w'.
Proof.
  intros Hw Hw'. rewrite pair_sum_mean_split, corbinq_mean1, corbinq_mean2 by assumption. ring.
Qed.

Lemma corbinq_sum_pair_means ws : all_in_range c r ws ->
  sum_pair_means d (fun _ => corbinq d e c r) ws = sum_inputs ws.
Proof.
  induction ws as [|[w w'] t IH]; simpl; [reflexivity|].
  intros [Hw [Hw' Ht]]. rewrite corbinq_pair_sum_mean, IH by assumption. ring.
Qed.

Lemma corbinq_sum_pair_means_rr ws : all_in_range c r ws ->
  sum_pair_means_rr d (fun _ => corbinq d e c r) ws = sum_inputs ws.
Proof.
  induction ws as [|[w w'] t IH]; simpl; [reflexivity|].
  intros [Hw [Hw' Ht]]. rewrite !corbinq_pair_sum_mean, IH by assumption. field.
Qed.

End Intended.

Theorem T2a_intended : T2a_claim_intended.
Proof.
  intros d e c r ws He _ Hr Hws. unfold agg_mean, input_avg.
  rewrite corbinq_sum_pair_means by assumption. reflexivity.
Qed.


Theorem T2a_intended_random_roles : T2a_claim_intended_random_roles.
Proof.
  intros d e c r ws He _ Hr Hws. unfold agg_mean_rr, input_avg.
  rewrite corbinq_sum_pair_means_rr by assumption. reflexivity.
Qed.


(** ** T2a (b): Algorithm 2 as printed, c = r = 1, e^ε = 3, d = 1, one pair (1, 9/8) *)

Section AsPrinted.
Let e := ln 3.
Let He : 0 < e := ln_pos_gt 3 ltac:(lra).
Let Ha : alpha e = 2.
Proof. unfold e. rewrite alpha_ln by lra. field. Qed.

(** Q1 is as intended: mean 1 at input 1, mean 9/8 at input 9/8. *)
Lemma printed_mean1 (x w : R) : in_range 1 1 w ->
  mean1 1 (corbinq_as_printed 1 e 1 1 x) w = w.
Proof.
  intros Hw. change (mean1 1 (corbinq_as_printed 1 e 1 1 x) w) with (mean1 1 (corbinq 1 e 1 1) w).
  apply corbinq_mean1; [exact He | lra | exact Hw].
Qed.

(** Q2 as printed: its mean is A2.v's printed_q2_mean. *)
Lemma printed_mean2 (w w' : R) :
  mean2 1 (corbinq_as_printed 1 e 1 1 w) w' = printed_q2_mean 1 e 1 1 w w'.
Proof.
  unfold mean2, printed_q2_mean, printed_q2_plus, marg2. simpl. rewrite avgZ_one_minus. reflexivity.
Qed.

(** Q1's input 9/8, Q2's input 1: u = 2 q(9/8) = 17/16 and v = 2 (1 − q(1)) = 1, so line 14
    as printed leaves Q2 = c + rα exactly when z = 1: probability 1/2, mean 1 (no bias here). *)
Lemma u_98 : u_of 1 2 1 1 (9 / 8) = INR 1 + 1 / 16.
Proof. unfold u_of, ldpq_q, nZ. simpl. field. Qed.

Lemma q2_plus_98_1 : printed_q2_plus 1 e 1 1 (9 / 8) 1 = 1 / 2.
Proof.
  unfold printed_q2_plus, avgZ, q2_minus_as_printed, fr. rewrite Ha, u_98, v1_is.
  rewrite !fl_of_nat by lra. unfold nZ. simpl. field.
Qed.

Lemma in_1 : in_range 1 1 1. Proof. unfold in_range; lra. Qed.
Lemma in_98 : in_range 1 1 (9 / 8). Proof. unfold in_range; lra. Qed.

(** Order (1, 9/8): E(Q1 + Q2) = 1 + (−3/4) = 1/4, not 17/8. *)
Lemma pair_mean_1_98 : pair_sum_mean 1 (corbinq_as_printed 1 e 1 1 1) 1 (9 / 8) = 1 / 4.
Proof.
  rewrite pair_sum_mean_split, printed_mean1 by exact in_1. rewrite printed_mean2.
  unfold printed_q2_mean. pose proof q2_plus_at_9_8 as Q. fold e in Q. rewrite Q, Ha. field.
Qed.

(** Order (9/8, 1): E(Q1 + Q2) = 9/8 + 1 = 17/8. *)
Lemma pair_mean_98_1 : pair_sum_mean 1 (corbinq_as_printed 1 e 1 1 (9 / 8)) (9 / 8) 1 = 17 / 8.
Proof.
  rewrite pair_sum_mean_split, printed_mean1 by exact in_98. rewrite printed_mean2.
  unfold printed_q2_mean. rewrite q2_plus_98_1, Ha. field.
Qed.

Let ws := [(1, 9 / 8)].

Lemma ws_in_range : all_in_range 1 1 ws.
Proof. simpl. split; [exact in_1 | split; [exact in_98 | exact I]]. Qed.

Lemma input_avg_ws : input_avg ws = 17 / 16.
Proof. unfold input_avg, n_clients. simpl. field. Qed.

(** E(W̄_g) = (1/2)(1/4) = 1/8. *)
Lemma agg_ws : agg_mean 1 (corbinq_as_printed 1 e 1 1) ws = 1 / 8.
Proof. unfold agg_mean, n_clients. simpl. rewrite pair_mean_1_98. field. Qed.

(** Random roles: E(W̄_g) = (1/2)((1/4 + 17/8)/2) = 19/32. *)
Lemma agg_rr_ws : agg_mean_rr 1 (corbinq_as_printed 1 e 1 1) ws = 19 / 32.
Proof. unfold agg_mean_rr, n_clients. simpl. rewrite pair_mean_1_98, pair_mean_98_1. field. Qed.

Theorem T2a_printed_counterexample :
  agg_mean 1 (corbinq_as_printed 1 e 1 1) ws <> input_avg ws.
Proof. rewrite agg_ws, input_avg_ws. lra. Qed.

Theorem T2a_printed_rr_counterexample :
  agg_mean_rr 1 (corbinq_as_printed 1 e 1 1) ws <> input_avg ws.
Proof. rewrite agg_rr_ws, input_avg_ws. lra. Qed.

End AsPrinted.

Theorem T2a_as_printed : ~ T2a_claim_as_printed.
Proof.
  intros H. apply T2a_printed_counterexample.
  apply H; [apply ln_pos_gt; lra | lra | lra | apply ws_in_range].
Qed.


Theorem T2a_as_printed_random_roles : ~ T2a_claim_as_printed_random_roles.
Proof.
  intros H. apply T2a_printed_rr_counterexample.
  apply H; [apply ln_pos_gt; lra | lra | lra | apply ws_in_range].
Qed.


(** ** D1 — a pair member drops out; the survivor's quantization "is equivalent to LDPQ"

    The survivor is Q1 or Q2 of the intended Algorithm 2 (either member may drop out). As a
    binary quantizer of its own input: levels c ± rα, P(hi) its marginal over Z and its coin. *)

Definition survivor1 (d : nat) (e c r : R) : binary :=
  {| lo := plo (corbinq d e c r); hi := phi (corbinq d e c r); p_hi := marg1 d (corbinq d e c r) |}.
Definition survivor2 (d : nat) (e c r : R) : binary :=
  {| lo := plo (corbinq d e c r); hi := phi (corbinq d e c r); p_hi := marg2 d (corbinq d e c r) |}.

(** Reading (a): the survivor's law (over Z and its private coin) is LDPQ's, and so it is
    unbiased (C1) and ε-PLDP (C2). *)
Definition D1_claim_marginal : Prop :=
  forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r ->
    same_law c r (survivor1 d e c r) (LDPQ e c r) /\ same_law c r (survivor2 d e c r) (LDPQ e c r) /\
    C1 c r (survivor1 d e c r) /\ C1 c r (survivor2 d e c r) /\
    C2 c r e (survivor1 d e c r) /\ C2 c r e (survivor2 d e c r).

(** Reading (b): given Z = z (known to whoever holds the pair's Z), the survivor's law is LDPQ's. *)
Definition D1_claim_given_Z : Prop :=
  forall (d : nat) (e c r w : R) (z : nat), 0 < e -> 0 < c -> 0 < r -> in_range c r w ->
    (z < nZ d)%nat ->
    p1 (corbinq d e c r) w z = ldpq_q (alpha e) c r w /\ p2 (corbinq d e c r) w z = ldpq_q (alpha e) c r w.

(** Reading (b'): given Z = z, the survivor is ε-PLDP (C2's multiplicative form, given z). *)
Definition D1_claim_pldp_given_Z : Prop :=
  forall (d : nat) (e c r w w' : R) (z : nat), 0 < e -> 0 < c -> 0 < r ->
    in_range c r w -> in_range c r w' -> (z < nZ d)%nat ->
    p1 (corbinq d e c r) w z <= exp e * p1 (corbinq d e c r) w' z /\
    1 - p1 (corbinq d e c r) w z <= exp e * (1 - p1 (corbinq d e c r) w' z) /\
    p2 (corbinq d e c r) w z <= exp e * p2 (corbinq d e c r) w' z /\
    1 - p2 (corbinq d e c r) w z <= exp e * (1 - p2 (corbinq d e c r) w' z).

(** Reading (c): Algorithm 2 exactly as printed, the surviving Q2 (whose line 14 still compares Z
    with T1, built from the partner's input w) has LDPQ's law in its own input w'. *)
Definition D1_claim_marginal_as_printed : Prop :=
  forall (d : nat) (e c r w w' : R), 0 < e -> 0 < c -> 0 < r -> in_range c r w -> in_range c r w' ->
    printed_q2_plus d e c r w w' = ldpq_q (alpha e) c r w'.

(** Two binary quantizers with the same levels and law on the range share C1 and C2. *)
Definition agree (c r : R) (Q Q' : binary) : Prop :=
  forall w, in_range c r w -> lo Q = lo Q' /\ hi Q = hi Q' /\ p_hi Q w = p_hi Q' w.

Lemma C1_transfer c r Q Q' : agree c r Q Q' -> C1 c r Q' -> C1 c r Q.
Proof. intros H H1 w Hw. destruct (H w Hw) as [A [B C]]. rewrite A, B, C. apply H1, Hw. Qed.

Lemma C2_transfer c r e Q Q' : agree c r Q Q' -> C2 c r e Q' -> C2 c r e Q.
Proof.
  intros H H2 w w' Hw Hw'. destruct (H w Hw) as [_ [_ C]]. destruct (H w' Hw') as [_ [_ C']].
  rewrite C, C'. apply H2; assumption.
Qed.

Lemma agree_same_law c r Q Q' : agree c r Q Q' -> same_law c r Q Q'.
Proof. intros H w Hw. left. apply H, Hw. Qed.

Section Marginal.
Variables (d : nat) (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.

Lemma survivor1_agree : agree c r (survivor1 d e c r) (LDPQ e c r).
Proof. intros w Hw. simpl. split; [reflexivity | split; [reflexivity|]]. apply corbinq_marg1; assumption. Qed.

Lemma survivor2_agree : agree c r (survivor2 d e c r) (LDPQ e c r).
Proof. intros w Hw. simpl. split; [reflexivity | split; [reflexivity|]]. apply corbinq_marg2; assumption. Qed.

End Marginal.

Theorem D1_marginal : D1_claim_marginal.
Proof.
  intros d e c r He _ Hr.
  pose proof (survivor1_agree d e c r He Hr) as A1. pose proof (survivor2_agree d e c r He Hr) as A2.
  split; [|split; [|split; [|split; [|split]]]].
  - apply agree_same_law, A1.
  - apply agree_same_law, A2.
  - apply (C1_transfer _ _ _ _ A1), ldpq_C1; assumption.
  - apply (C1_transfer _ _ _ _ A2), ldpq_C1; assumption.
  - apply (C2_transfer _ _ _ _ _ A1), ldpq_C2; assumption.
  - apply (C2_transfer _ _ _ _ _ A2), ldpq_C2; assumption.
Qed.


(** ** D1 (b), (b'), (c): c = r = 1, e^ε = 3 (α = 2), d = 1 *)

Section GivenZ.
Let e := ln 3.
Let He : 0 < e := ln_pos_gt 3 ltac:(lra).
Let Ha : alpha e = 2.
Proof. unfold e. rewrite alpha_ln by lra. field. Qed.

(** At w = 2 = c + r: q = 3/4, u = 2q = 3/2, v = 2(1 − q) = 1/2. (At w = 1: u = v = 1, A2.v.) *)
Lemma u_2 : u_of 1 2 1 1 2 = INR 1 + 1 / 2. Proof. unfold u_of, ldpq_q, nZ. simpl. field. Qed.
Lemma v_2 : v_of 1 2 1 1 2 = INR 0 + 1 / 2. Proof. unfold v_of, ldpq_q, nZ. simpl. field. Qed.

(** P(Q1 = c + rα | Z = z) and P(Q2 = c + rα | Z = z) at the two inputs. *)
Lemma p1_1_0 : p1 (corbinq 1 e 1 1) 1 0 = 1.
Proof. simpl. rewrite Ha, u_is. unfold step. rewrite fl_of_nat by lra. reflexivity. Qed.

Lemma p1_1_1 : p1 (corbinq 1 e 1 1) 1 1 = 0.
Proof. simpl. rewrite Ha, u_is. unfold step, fr. rewrite !fl_of_nat by lra. simpl. lra. Qed.

Lemma p1_2_1 : p1 (corbinq 1 e 1 1) 2 1 = 1 / 2.
Proof. simpl. rewrite Ha, u_2. unfold step, fr. rewrite !fl_of_nat by lra. simpl. lra. Qed.

Lemma p2_1_0 : p2 (corbinq 1 e 1 1) 1 0 = 0.
Proof. simpl. rewrite Ha, v1_is. unfold step. rewrite fl_of_nat by lra. simpl. lra. Qed.

Lemma p2_2_0 : p2 (corbinq 1 e 1 1) 2 0 = 1 / 2.
Proof. simpl. rewrite Ha, v_2. unfold step, fr. rewrite !fl_of_nat by lra. simpl. lra. Qed.

Lemma q_at_1 : ldpq_q (alpha e) 1 1 1 = 1 / 2.
Proof. rewrite Ha. unfold ldpq_q. field. Qed.

(** Given Z = 0 at w = 1: Q1 = c + rα surely, Q2 = c − rα surely; LDPQ would give 1/2 each. *)
Theorem D1_given_Z_counterexample :
  p1 (corbinq 1 e 1 1) 1 0 <> ldpq_q (alpha e) 1 1 1 /\ p2 (corbinq 1 e 1 1) 1 0 <> ldpq_q (alpha e) 1 1 1.
Proof. rewrite p1_1_0, p2_1_0, q_at_1. split; lra. Qed.

(** Given Z = 1, P(Q1 = c + rα) is 1/2 at w = 2 and 0 at w = 1; given Z = 0, P(Q2 = c + rα) is
    1/2 at w = 2 and 0 at w = 1: no finite bound e^ε on the ratio. *)
Theorem D1_pldp_given_Z_counterexample :
  ~ (p1 (corbinq 1 e 1 1) 2 1 <= exp e * p1 (corbinq 1 e 1 1) 1 1) /\
  ~ (p2 (corbinq 1 e 1 1) 2 0 <= exp e * p2 (corbinq 1 e 1 1) 1 0).
Proof. rewrite p1_2_1, p1_1_1, p2_2_0, p2_1_0. split; lra. Qed.

(** As printed, partner's input 1, own input 9/8: P(Q2 = c + rα) = 1/16, LDPQ's is 17/32. *)
Theorem D1_printed_counterexample : printed_q2_plus 1 e 1 1 1 (9 / 8) <> ldpq_q (alpha e) 1 1 (9 / 8).
Proof.
  pose proof q2_plus_at_9_8 as Q. fold e in Q. rewrite Q, Ha. unfold ldpq_q. intros H. field_simplify in H. lra.
Qed.

End GivenZ.

Theorem D1_given_Z : ~ D1_claim_given_Z.
Proof.
  intros H. destruct (H 1%nat (ln 3) 1 1 1 0%nat) as [A _];
    [apply ln_pos_gt; lra | lra | lra | unfold in_range; lra | unfold nZ; simpl; lia |].
  exact (proj1 D1_given_Z_counterexample A).
Qed.


(** For every d ≥ 1 (d = S k), ε, c, r: at w = c (q = 1/2), u = v = 2^(d−1) is a whole number, and
    given Z = 0 (the first value of Z, below both thresholds) Q1 = c + rα and Q2 = c − rα surely. *)
Section EveryD.
Variables (k : nat) (e c r : R).
Hypothesis He : 0 < e.
Hypothesis Hr : 0 < r.
Let a := alpha e.
Let Ha : 1 < a := alpha_gt_1 e He.

Lemma half_pow : INR (nZ (S k)) * (1 / 2 + (c - c) / (2 * r * a)) = INR (2 ^ k) + 0.
Proof.
  unfold nZ. change (2 ^ S k)%nat with (2 * 2 ^ k)%nat. rewrite mult_INR. simpl (INR 2).
  field. split; lra.
Qed.

Lemma step_half_pow : step (INR (2 ^ k) + 0) 0 = 1.
Proof.
  unfold step. rewrite fl_of_nat by lra.
  assert (P : (0 < 2 ^ k)%nat) by (apply Nat.neq_0_lt_0, Nat.pow_nonzero; lia).
  apply Nat.ltb_lt in P. rewrite P. reflexivity.
Qed.

Theorem D1_given_Z_at_center :
  p1 (corbinq (S k) e c r) c 0 = 1 /\ p2 (corbinq (S k) e c r) c 0 = 0 /\ ldpq_q (alpha e) c r c = 1 / 2.
Proof.
  simpl. fold a. split; [|split].
  - unfold u_of, ldpq_q. rewrite half_pow. apply step_half_pow.
  - unfold v_of, ldpq_q.
    replace (1 - (1 / 2 + (c - c) / (2 * r * a))) with (1 / 2 + (c - c) / (2 * r * a)) by (field; split; lra).
    rewrite half_pow, step_half_pow. ring.
  - unfold ldpq_q. field. split; lra.
Qed.

End EveryD.

(** Reading (b) fails at every d ≥ 1 (at d = 0 Z carries nothing and the law is LDPQ's, D0.v). *)
Theorem D1_given_Z_every_d : forall (k : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r ->
  p1 (corbinq (S k) e c r) c 0 <> ldpq_q (alpha e) c r c /\
  p2 (corbinq (S k) e c r) c 0 <> ldpq_q (alpha e) c r c.
Proof.
  intros k e c r He _ Hr. destruct (D1_given_Z_at_center k e c r He Hr) as [A [B C]].
  rewrite A, B, C. split; lra.
Qed.


Theorem D1_pldp_given_Z : ~ D1_claim_pldp_given_Z.
Proof.
  intros H. destruct (H 1%nat (ln 3) 1 1 2 1 1%nat) as [A _];
    [apply ln_pos_gt; lra | lra | lra | apply in_range_2 | unfold in_range; lra | unfold nZ; simpl; lia |].
  exact (proj1 D1_pldp_given_Z_counterexample A).
Qed.


Theorem D1_marginal_as_printed : ~ D1_claim_marginal_as_printed.
Proof.
  intros H. apply D1_printed_counterexample.
  apply H; [apply ln_pos_gt; lra | lra | lra | unfold in_range; lra | unfold in_range; lra].
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Aggregate_theorems :=
  (@corbinq_pair_sum_mean,
   @T2a_intended,
   @T2a_intended_random_roles,
   @T2a_printed_counterexample,
   @T2a_printed_rr_counterexample,
   @T2a_as_printed,
   @T2a_as_printed_random_roles,
   @D1_marginal,
   @D1_given_Z_counterexample,
   @D1_pldp_given_Z_counterexample,
   @D1_printed_counterexample,
   @D1_given_Z,
   @D1_given_Z_at_center,
   @D1_given_Z_every_d,
   @D1_pldp_given_Z,
   @D1_marginal_as_printed).
Print Assumptions Aggregate_theorems.
