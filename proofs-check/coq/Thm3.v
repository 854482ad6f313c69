(** * T3 — Theorem 3: "the AugCorBin-FL mechanism achieves (ε_u, δ)-UCDP and ε_p-PLDP", with
    ε_u of Eq. (th:3:1); and S1 — "AugCorBin-FL achieves ... sample-level central differential
    privacy" (abstract; Eq. (SCDP); "The SCDP guarantees for AugCorBin-FL can be derived in terms
    of the sensitivity parameter, using a similar method as in the proof of Theorem 3.")

    Where. Section 2.2 (Eq. (UCDP), Eq. (SCDP)), Section 4 (Theorem 3, Eq. (th:3:1)), Appendix
    "Proof of Theorem 3" (it applies cpSGD's Theorem 1, REFERENCES.md).

    Model. One round; m model parameters; the server sees W̄_g = (1/n) Σ_i W̄_i. ⌊γn⌋ clients
    (plus an odd one out) use LDPQ and the others form CorBinQ pairs with d shared bits
    (Worst.rule_k / rule_p; for γ = 1 every reading puts all n clients on LDPQ). Coordinates are
    independent (independent Z and private randomness per parameter), so the law of W̄_g is the
    product over coordinates of the law of each coordinate's average. A law is a finite list of
    (outcome, probability); an event is any function outcome → bool (for a finite law every
    subset of its support is one). (ε, δ)-DP is the printed one-sided inequality
    P(W̄_g ∈ T) ≤ e^ε P(W̄'_g ∈ T) + δ for every T.

    The neighbouring relation. Eq. (UCDP) prints W̄'_g = (1/n) Σ_{i=2}^n W̄_i: client 1 is
    REMOVED and the sum is still divided by n (the appendix writes the same). The appendix's proof
    instead invokes cpSGD's Theorem 1, whose neighbours differ in one client's value (REPLACE).
    Both readings are stated:
    - T3_claim_remove_one (as printed). Verdict: FAILS (proved, [T3_remove_one_fails]). With γ = 1,
      n = 1800, m = 1, δ = 10⁻⁵, ε_p = ln 3 (α = 2), c = 1, r = 1/100 (every precondition checked
      below: (1800 − 1)·3/16 = 337.3125 ≥ max(23 ln 10⁵ ≈ 264.80, 0.04)), n·W̄_g lies in
      {1800 + (2z − 1800)/50 : z ∈ ℤ} and n·W̄'_g in {1799 + (2z − 1799)/50 : z ∈ ℤ}; these are
      disjoint (equality would give 2(z − z') = −49). The event T = support of W̄_g has
      probability 1 against 0, so the inequality needs δ ≥ 1, whatever ε_u.
    - T3_claim_replace_one (the proof's relation). Verdict: fails (counterexample recomputed
      outside Coq: law too large). Witness: the same parameters, all other clients at w = c + r,
      client 1 at w1 = c + r replaced by w1' = c − r. The printed ε_u there is in
      [0.0108, 0.0109] (proved here, [T3_eps_u_at_witness]); the exact ε of the two laws at
      δ = 10⁻⁵ is 0.08481 (recomputed by the independent Python rechecker). Note the printed ε_u
      is proportional to r although the mechanism's privacy does not depend on r (the proof puts
      the sensitivities 2rα of the unnormalised outputs into cpSGD's formula for the normalised
      mechanism f(D) + s(Z − Np), f ∈ {−1, 1}).
    - The formula (th:3:1): [th3_eps_u_printed] is what the PDF renders (LaTeX braces are
      invisible). The source's braces, read as argument delimiters, give
      8·ln(1.25/δ + ln((20m/δ)·ln(10/δ))) in the second term ([th3_eps_u_source_braces]); read so it
      is smaller still (≈ 0.00490 at the witness). Against cpSGD (REFERENCES.md) with the proof's
      substitution ([th3_eps_cpsgd], ≈ 0.01650 at the witness) the printed formula has
      e_p = 1 + 1/α² where the first term needs 1 − 1/α² (b_p = e_p/3 + 1/α is right), 3.75 where
      c_p gives 3.25, a product b_p·c_p where cpSGD has a sum, and drops d_p = (2/3)(1 + 1/α²)
      and the factor 1/(1 − 1/α²) in the second term; the precondition has 23 log(m/δ) where
      cpSGD has 23 ln(10m/δ) (both hold at the witness: 337.31 ≥ 317.76).

    S1. The paper states no ε_s anywhere. [SCDP] is Eq. (SCDP) as printed (replace client 1's
    vector by w1' with ‖w1 − w1'‖₂ ≤ Δ₂). Proved: the replace-one reading of Theorem 3 implies
    SCDP with the same (ε_u, δ) for every Δ₂ ([S1_from_replace_one]) — but that reading fails
    (above), so nothing follows from Theorem 3 as printed. What does follow, by post-processing of
    LDPQ's ε_p-PLDP: if client 1 uses LDPQ, replacing its vector is (m·ε_p, δ)-DP for every δ ≥ 0
    ([S1_ldpq_client]); so with no pairs (e.g. γ = 1) AugCorBin-FL is (m·ε_p, δ)-SCDP for every
    Δ₂ ([S1_all_ldpq]). For a paired client 1 nothing is proved here. Verdict: undecided (no ε_s
    is stated; the route the paper points to rests on the failing replace-one bound). *)

From Coq Require Import Reals Lra Lia List ZArith.
From Interval Require Import Tactic.
From Corbin Require Import Defs Alpha Sums Facts Worst.
Import ListNotations.
Open Scope R_scope.

(** ** Finite laws *)

Definition law (X : Type) := list (X * R).

Definition Pr {X} (L : law X) (S : X -> bool) : R :=
  fold_right (fun xp acc => (if S (fst xp) then snd xp else 0) + acc) 0 L.
Definition mass {X} (L : law X) : R := Pr L (fun _ => true).

(** (ε, δ)-DP of a view L against its neighbour's view L', one-sided as printed in Eq. (UCDP). *)
Definition DP {X} (eps delta : R) (L L' : law X) : Prop :=
  forall S : X -> bool, Pr L S <= exp eps * Pr L' S + delta.

Definition dirac {X} (x : X) : law X := [(x, 1)].
Definition lmap {X Y} (f : X -> Y) (L : law X) : law Y := map (fun xp => (f (fst xp), snd xp)) L.
(** The law of f(X, Y) for independent X ~ L1, Y ~ L2. *)
Definition lprod {X Y Z} (f : X -> Y -> Z) (L1 : law X) (L2 : law Y) : law Z :=
  flat_map (fun xp => map (fun yq => (f (fst xp) (fst yq), snd xp * snd yq)) L2) L1.
Definition conv (L1 L2 : law R) : law R := lprod Rplus L1 L2.
Definition conv_all (Ls : list (law R)) : law R := fold_right conv (dirac 0) Ls.

(** The law of the vector (Y_0, …, Y_{m−1}) of independent coordinates Y_j ~ L j. *)
Fixpoint vlaw (m : nat) (L : nat -> law R) : law (list R) :=
  match m with
  | O => dirac []
  | S m' => lprod (fun v y => v ++ [y]) (vlaw m' L) (L m')
  end.

(** ** One coordinate of each client's output *)

Definition bin_law (lo hi p : R) : law R := [(hi, p); (lo, 1 - p)].

(** LDPQ (Alg. 1): c ± rα with P(c + rα) = q. *)
Definition ldpq_law (e c r w : R) : law R :=
  bin_law (c - r * alpha e) (c + r * alpha e) (ldpq_q (alpha e) c r w).

(** The sum of a CorBinQ pair's two outputs (Alg. 2 as intended, d shared bits). *)
Definition pair_law (d : nat) (e c r w1 w2 : R) : law R :=
  let P := corbinq d e c r in
  map (fun s => (level P (fst s) + level P (snd s), joint d P w1 w2 (fst s) (snd s)))
      [(true, true); (true, false); (false, true); (false, false)].

(** The second member of a pair alone (its partner removed from the sum). *)
Definition partner_law (d : nat) (e c r w2 : R) : law R :=
  bin_law (c - r * alpha e) (c + r * alpha e) (marg2 d (corbinq d e c r) w2).

(** ** AugCorBin-FL's server view

    Inputs: v i j for LDPQ client i, y1 i j and y2 i j for pair i, coordinate j; cc j and rr j the
    centre and radius of coordinate j. "Client 1" is LDPQ client 0 or the first member of pair 0. *)

Definition ldpq_laws (e : R) (cc rr : nat -> R) (v : nat -> nat -> R) (idx : list nat) (j : nat) :=
  map (fun i => ldpq_law e (cc j) (rr j) (v i j)) idx.
Definition pair_laws (d : nat) (e : R) (cc rr : nat -> R) (y1 y2 : nat -> nat -> R) (idx : list nat) (j : nat) :=
  map (fun i => pair_law d e (cc j) (rr j) (y1 i j) (y2 i j)) idx.

(** W̄_g = (1/n) Σ_i W̄_i, coordinate by coordinate. *)
Definition view (n m : nat) (coord : nat -> list (law R)) : law (list R) :=
  vlaw m (fun j => lmap (fun s => s / INR n) (conv_all (coord j))).

Definition aug_law (n m d : nat) (e : R) (cc rr : nat -> R) (k p : nat) (v y1 y2 : nat -> nat -> R) :=
  view n m (fun j => ldpq_laws e cc rr v (seq 0 k) j ++ pair_laws d e cc rr y1 y2 (seq 0 p) j).

(** Eq. (UCDP)'s W̄'_g = (1/n) Σ_{i=2}^n W̄_i: client 1 removed, still divided by n. *)
Definition removed_ldpq_law (n m d : nat) (e : R) (cc rr : nat -> R) (k p : nat) (v y1 y2 : nat -> nat -> R) :=
  view n m (fun j => ldpq_laws e cc rr v (seq 1 (k - 1)) j ++ pair_laws d e cc rr y1 y2 (seq 0 p) j).
Definition removed_pair_law (n m d : nat) (e : R) (cc rr : nat -> R) (k p : nat) (v y1 y2 : nat -> nat -> R) :=
  view n m (fun j => ldpq_laws e cc rr v (seq 0 k) j ++
                     partner_law d e (cc j) (rr j) (y2 0%nat j) :: pair_laws d e cc rr y1 y2 (seq 1 (p - 1)) j).

(** Client 1's vector replaced by w1. *)
Definition upd0 (f : nat -> nat -> R) (w1 : nat -> R) : nat -> nat -> R :=
  fun i j => if (i =? 0)%nat then w1 j else f i j.

Definition inputs_in (m k p : nat) (cc rr : nat -> R) (v y1 y2 : nat -> nat -> R) : Prop :=
  forall j, (j < m)%nat ->
    (forall i, (i < k)%nat -> in_range (cc j) (rr j) (v i j)) /\
    (forall i, (i < p)%nat -> in_range (cc j) (rr j) (y1 i j) /\ in_range (cc j) (rr j) (y2 i j)).

Definition vec_in (m : nat) (cc rr w : nat -> R) : Prop :=
  forall j, (j < m)%nat -> in_range (cc j) (rr j) (w j).

(** ** Theorem 3's hypotheses and Eq. (th:3:1)

    "Let ε_p, δ > 0, and γ ∈ (0, 1]. Let us define r = max_{j∈[m]} r_j and assume that n is large
    enough that (nγ − 1)(1/4 − 1/(4α²(ε_p))) ≥ max(23 log(m/δ), 2rα(ε_p))" (Worst.th3_precondition,
    log = ln as in cpSGD). *)
Definition th3_hyps (n m : nat) (e delta g r : R) (rr : nat -> R) : Prop :=
  0 < e /\ 0 < delta /\ 0 < g <= 1 /\
  (forall j, (j < m)%nat -> 0 < rr j <= r) /\ (exists j, (j < m)%nat /\ rr j = r) /\
  th3_precondition n m g delta (alpha e) r.

Definition th3_e_p (a : R) : R := 1 + 1 / a ^ 2.
Definition th3_b_p (a : R) : R := th3_e_p a / 3 + 1 / a.

(** ε_u/(rα) = √(8m log(1.25/δ)/((nγ − 1)e_p)) + 8(log(1.25/δ) + log(20m/δ) log(10/δ))/(3(nγ − 1))
              + 4 b_p √(2m)(1.75 + 3.75/α²)√(log(10/δ))/((nγ − 1)(1 − δ/10)e_p), as rendered. *)
Definition th3_eps_u_printed (n m : nat) (g delta a r : R) : R :=
  let N := INR n * g - 1 in let M := INR m in
  r * a * (sqrt (8 * M * ln (5 / 4 / delta) / (N * th3_e_p a))
           + 8 * (ln (5 / 4 / delta) + ln (20 * M / delta) * ln (10 / delta)) / (3 * N)
           + 4 * th3_b_p a * sqrt (2 * M) * (7 / 4 + 15 / 4 / a ^ 2) * sqrt (ln (10 / delta))
             / (N * (1 - delta / 10) * th3_e_p a)).

(** The LaTeX source's braces read as argument delimiters:
    \log{\frac{1.25}{\delta}+\log{\frac{20m}{\delta}\log{\frac{10}{\delta})}}}. *)
Definition th3_eps_u_source_braces (n m : nat) (g delta a r : R) : R :=
  let N := INR n * g - 1 in let M := INR m in
  r * a * (sqrt (8 * M * ln (5 / 4 / delta) / (N * th3_e_p a))
           + 8 * ln (5 / 4 / delta + ln (20 * M / delta * ln (10 / delta))) / (3 * N)
           + 4 * th3_b_p a * sqrt (2 * M) * (7 / 4 + 15 / 4 / a ^ 2) * sqrt (ln (10 / delta))
             / (N * (1 - delta / 10) * th3_e_p a)).

(** cpSGD's Theorem 1 (REFERENCES.md) with the proof's substitution N = nγ − 1,
    p = 1/2 − 1/(2α), s = 2, Δ1 = 2mrα, Δ2 = 2√m rα, Δ∞ = 2rα, d = m. *)
Definition th3_eps_cpsgd (n m : nat) (g delta a r : R) : R :=
  let N := INR n * g - 1 in let M := INR m in
  let p := 1 / 2 - 1 / (2 * a) in let s := 2 in
  let D1 := 2 * M * r * a in let D2 := 2 * sqrt M * r * a in let Di := 2 * r * a in
  let npq := N * p * (1 - p) in
  let bp := 2 / 3 * (p ^ 2 + (1 - p) ^ 2) + 1 - 2 * p in
  let cp := sqrt 2 * (3 * p ^ 3 + 3 * (1 - p) ^ 3 + 2 * p ^ 2 + 2 * (1 - p) ^ 2) in
  let dp := 4 / 3 * (p ^ 2 + (1 - p) ^ 2) in
  D2 * sqrt (2 * ln (5 / 4 / delta)) / (s * sqrt npq)
  + (D2 * cp * sqrt (ln (10 / delta)) + D1 * bp) / (s * npq * (1 - delta / 10))
  + (2 / 3 * Di * ln (5 / 4 / delta) + Di * dp * ln (20 * M / delta) * ln (10 / delta)) / (s * npq).

(** ** The claims *)

(** Theorem 3 with Eq. (UCDP)'s neighbour (client 1 removed), for client 1 in either group. *)
Definition T3_claim_remove_one : Prop :=
  forall (n m d : nat) (e delta g r : R) (cc rr : nat -> R) (v y1 y2 : nat -> nat -> R),
    th3_hyps n m e delta g r rr ->
    inputs_in m (rule_k g n) (rule_p g n) cc rr v y1 y2 ->
    let eps := th3_eps_u_printed n m g delta (alpha e) r in
    ((0 < rule_k g n)%nat ->
       DP eps delta (aug_law n m d e cc rr (rule_k g n) (rule_p g n) v y1 y2)
                    (removed_ldpq_law n m d e cc rr (rule_k g n) (rule_p g n) v y1 y2)) /\
    ((0 < rule_p g n)%nat ->
       DP eps delta (aug_law n m d e cc rr (rule_k g n) (rule_p g n) v y1 y2)
                    (removed_pair_law n m d e cc rr (rule_k g n) (rule_p g n) v y1 y2)).

(** Theorem 3 with cpSGD's neighbour (client 1's vector replaced by any w1 in range). *)
Definition T3_claim_replace_one : Prop :=
  forall (n m d : nat) (e delta g r : R) (cc rr : nat -> R) (v y1 y2 : nat -> nat -> R) (w1 : nat -> R),
    th3_hyps n m e delta g r rr ->
    inputs_in m (rule_k g n) (rule_p g n) cc rr v y1 y2 -> vec_in m cc rr w1 ->
    let eps := th3_eps_u_printed n m g delta (alpha e) r in
    ((0 < rule_k g n)%nat ->
       DP eps delta (aug_law n m d e cc rr (rule_k g n) (rule_p g n) v y1 y2)
                    (aug_law n m d e cc rr (rule_k g n) (rule_p g n) (upd0 v w1) y1 y2)) /\
    ((0 < rule_p g n)%nat ->
       DP eps delta (aug_law n m d e cc rr (rule_k g n) (rule_p g n) v y1 y2)
                    (aug_law n m d e cc rr (rule_k g n) (rule_p g n) v (upd0 y1 w1) y2)).

(** Eq. (SCDP) as printed: (ε_s, δ)-SCDP with sensitivity Δ₂, client 1's vector replaced by w1
    with ‖w1 − w1'‖₂ ≤ Δ₂ (client 1 in either group). *)
Definition SCDP (n m d : nat) (e eps_s delta D2 : R) (cc rr : nat -> R) (k p : nat)
    (v y1 y2 : nat -> nat -> R) : Prop :=
  forall w1 : nat -> R, vec_in m cc rr w1 ->
    ((0 < k)%nat -> sqrt (fsum m (fun j => (v 0%nat j - w1 j) ^ 2)) <= D2 ->
       DP eps_s delta (aug_law n m d e cc rr k p v y1 y2) (aug_law n m d e cc rr k p (upd0 v w1) y1 y2)) /\
    ((0 < p)%nat -> sqrt (fsum m (fun j => (y1 0%nat j - w1 j) ^ 2)) <= D2 ->
       DP eps_s delta (aug_law n m d e cc rr k p v y1 y2) (aug_law n m d e cc rr k p v (upd0 y1 w1) y2)).

(** ** Laws: masses and supports *)

Lemma Pr_app {X} (L1 L2 : law X) S : Pr (L1 ++ L2) S = Pr L1 S + Pr L2 S.
Proof. induction L1 as [|xp L IH]; simpl; [ring|]. unfold Pr in *. simpl. rewrite IH. ring. Qed.

Lemma Pr_true {X} (L : law X) (S : X -> bool) :
  (forall xp, In xp L -> S (fst xp) = true) -> Pr L S = mass L.
Proof.
  induction L as [|xp L IH]; intros H; [reflexivity|]. unfold mass, Pr in *. simpl.
  rewrite (H xp (or_introl eq_refl)). rewrite IH by (intros; apply H; right; assumption). reflexivity.
Qed.

Lemma Pr_false {X} (L : law X) (S : X -> bool) :
  (forall xp, In xp L -> S (fst xp) = false) -> Pr L S = 0.
Proof.
  induction L as [|xp L IH]; intros H; [reflexivity|]. unfold Pr in *. simpl.
  rewrite (H xp (or_introl eq_refl)). rewrite IH by (intros; apply H; right; assumption). ring.
Qed.

Lemma mass_map_scale {X Y Z} (f : X -> Y -> Z) (x : X) (p : R) (L : law Y) :
  mass (map (fun yq => (f x (fst yq), p * snd yq)) L) = p * mass L.
Proof. induction L as [|yq L IH]; unfold mass, Pr in *; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma mass_lprod {X Y Z} (f : X -> Y -> Z) (L1 : law X) (L2 : law Y) :
  mass (lprod f L1 L2) = mass L1 * mass L2.
Proof.
  induction L1 as [|xp L IH]; [unfold mass, Pr; simpl; ring|].
  unfold lprod in *. simpl flat_map. unfold mass in *. rewrite Pr_app.
  pose proof (mass_map_scale f (fst xp) (snd xp) L2) as M. unfold mass in M. rewrite M, IH.
  change (Pr (xp :: L) (fun _ => true)) with (snd xp + Pr L (fun _ => true)). ring.
Qed.

Lemma mass_lmap {X Y} (f : X -> Y) (L : law X) : mass (lmap f L) = mass L.
Proof. induction L as [|xp L IH]; unfold mass, Pr in *; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma mass_conv_all (Ls : list (law R)) : (forall L, In L Ls -> mass L = 1) -> mass (conv_all Ls) = 1.
Proof.
  induction Ls as [|L Ls IH]; intros H; [unfold mass, Pr; simpl; ring|].
  simpl. unfold conv. rewrite mass_lprod, (H L (or_introl eq_refl)), IH by (intros; apply H; right; assumption).
  ring.
Qed.

Lemma mass_vlaw (m : nat) (L : nat -> law R) : (forall j, (j < m)%nat -> mass (L j) = 1) -> mass (vlaw m L) = 1.
Proof.
  induction m as [|m IH]; intros H; [unfold mass, Pr; simpl; ring|].
  simpl. rewrite mass_lprod, IH, H; [ring|lia|intros j Hj; apply H; lia].
Qed.

Lemma mass_bin (lo hi p : R) : mass (bin_law lo hi p) = 1.
Proof. unfold mass, Pr, bin_law. simpl. ring. Qed.

Lemma In_lprod {X Y Z} (f : X -> Y -> Z) (L1 : law X) (L2 : law Y) zr :
  In zr (lprod f L1 L2) -> exists xp yq, In xp L1 /\ In yq L2 /\ fst zr = f (fst xp) (fst yq).
Proof.
  unfold lprod. intros H. apply in_flat_map in H as [xp [H1 H2]]. apply in_map_iff in H2 as [yq [E H3]].
  exists xp, yq. subst zr. simpl. auto.
Qed.

Lemma In_lmap {X Y} (f : X -> Y) (L : law X) yq : In yq (lmap f L) -> exists xp, In xp L /\ fst yq = f (fst xp).
Proof. unfold lmap. intros H. apply in_map_iff in H as [xp [E H]]. exists xp. subst yq. simpl. auto. Qed.

(** The sum of t LDPQ outputs with levels c ± ρ lies on the lattice t·c + ρ(2z − t), z ∈ ℤ. *)
Lemma ldpq_lattice (e c r : R) (w : nat -> R) (idx : list nat) xp :
  In xp (conv_all (map (fun i => ldpq_law e c r (w i)) idx)) ->
  exists z : Z, fst xp = INR (length idx) * c + r * alpha e * (2 * IZR z - INR (length idx)).
Proof.
  revert xp. induction idx as [|i idx IH]; intros xp H.
  - simpl in H. destruct H as [H|[]]. subst xp. exists 0%Z. simpl. ring.
  - change (In xp (conv (ldpq_law e c r (w i)) (conv_all (map (fun i => ldpq_law e c r (w i)) idx)))) in H.
    unfold conv in H. apply In_lprod in H as [yp [xp' [Hy [Hx E]]]].
    destruct (IH xp' Hx) as [z Ez]. rewrite E, Ez. simpl length. rewrite S_INR.
    unfold ldpq_law, bin_law in Hy. simpl in Hy. destruct Hy as [Hy|[Hy|[]]]; subst yp; simpl.
    + exists (z + 1)%Z. rewrite plus_IZR. ring.
    + exists z. ring.
Qed.

(** Every outcome of a finite law is in the event "is in its support". *)
Definition supp_event (L : law (list R)) : list R -> bool :=
  fun x => existsb (fun y => if list_eq_dec Req_EM_T x y then true else false) (map fst L).

Lemma supp_event_true (L : law (list R)) xp : In xp L -> supp_event L (fst xp) = true.
Proof.
  intros H. unfold supp_event. apply existsb_exists. exists (fst xp). split.
  - apply in_map. exact H.
  - destruct (list_eq_dec Req_EM_T (fst xp) (fst xp)); [reflexivity|congruence].
Qed.

Lemma supp_event_spec (L : law (list R)) x : supp_event L x = true -> exists yp, In yp L /\ x = fst yp.
Proof.
  unfold supp_event. intros H. apply existsb_exists in H as [y [Hy E]].
  destruct (list_eq_dec Req_EM_T x y) as [Exy|]; [|discriminate].
  apply in_map_iff in Hy as [yp [Ey Hyp]]. exists yp. subst. auto.
Qed.

(** If the supports of L and L' are disjoint and L has mass 1, no (ε, δ) with δ < 1 works. *)
Lemma disjoint_not_DP (L L' : law (list R)) eps delta :
  mass L = 1 -> delta < 1 ->
  (forall xp yp, In xp L -> In yp L' -> fst xp <> fst yp) -> ~ DP eps delta L L'.
Proof.
  intros M Hd Dis H. specialize (H (supp_event L)).
  rewrite (Pr_true L (supp_event L) (supp_event_true L)), M in H.
  rewrite (Pr_false L' (supp_event L)) in H; [lra|].
  intros yp Hyp. destruct (supp_event L (fst yp)) eqn:E; [|reflexivity].
  apply supp_event_spec in E as [xp [Hxp Exy]]. exfalso. apply (Dis xp yp Hxp Hyp). auto.
Qed.

(** ** The witness: γ = 1, n = 1800, m = 1, δ = 10⁻⁵, ε_p = ln 3, c = 1, r = 1/100 *)

Definition w_n : nat := 1800.
Definition w_e : R := ln 3.
Definition w_delta : R := 1 / 100000.
Definition w_r : R := 1 / 100.
Definition w_cc : nat -> R := fun _ => 1.
Definition w_rr : nat -> R := fun _ => w_r.

Lemma alpha_w : alpha w_e = 2.
Proof. unfold w_e. rewrite alpha_ln by lra. field. Qed.

Lemma INR_1800 : INR 1800 = 1800.
Proof. rewrite INR_IZR_INZ. reflexivity. Qed.
Lemma INR_1799 : INR 1799 = 1799.
Proof. rewrite INR_IZR_INZ. reflexivity. Qed.

Lemma rule_k0_1 : rule_k0 1 w_n = 1800%nat.
Proof.
  unfold rule_k0, w_n. rewrite Rmult_1_l. replace (INR 1800) with (INR 1800 + 0) by ring.
  apply fl_of_nat. lra.
Qed.
Lemma rule_k_1 : rule_k 1 w_n = 1800%nat.
Proof. unfold rule_k. rewrite rule_k0_1. unfold w_n. rewrite Nat.sub_diag. reflexivity. Qed.
Lemma rule_p_1 : rule_p 1 w_n = 0%nat.
Proof. unfold rule_p. rewrite rule_k0_1. unfold w_n. rewrite Nat.sub_diag. reflexivity. Qed.

(** Theorem 3's hypotheses hold: (1800·1 − 1)(1/4 − 1/16) = 337.3125 ≥ max(23 ln 10⁵, 2·(1/100)·2),
    23 ln 10⁵ ≈ 264.797. *)
Lemma w_hyps : th3_hyps w_n 1 w_e w_delta 1 w_r w_rr.
Proof.
  unfold th3_hyps. split; [unfold w_e; apply ln_pos_gt; lra|].
  split; [unfold w_delta; lra|]. split; [lra|].
  split; [intros j _; unfold w_rr, w_r; lra|]. split; [exists 0%nat; split; [lia|reflexivity]|].
  unfold th3_precondition, w_n. rewrite alpha_w, INR_1800.
  replace (INR 1 / w_delta) with 100000 by (unfold w_delta; simpl; field).
  assert (L : 264 <= 23 * ln 100000 <= 265) by interval.
  apply Rle_ge, Rmax_lub; unfold w_r; lra.
Qed.

Lemma w_precondition_value :
  (INR w_n * 1 - 1) * (1 / 4 - 1 / (4 * alpha w_e ^ 2)) = 5397 / 16 /\
  26479 / 100 <= 23 * ln (INR 1 / w_delta) <= 26480 / 100.
Proof.
  unfold w_n, w_delta. rewrite alpha_w, INR_1800. split; [field|].
  replace (INR 1 / (1 / 100000)) with 100000 by (simpl; field). split; interval.
Qed.

(** ** T3, remove-one reading: fails *)

Section RemoveOne.
Let v0 : nat -> nat -> R := fun _ _ => 1.

Lemma full_support xp :
  In xp (aug_law w_n 1 0 w_e w_cc w_rr 1800 0 v0 v0 v0) ->
  exists z : Z, fst xp = [(1800 + 1 / 50 * (2 * IZR z - 1800)) / 1800].
Proof.
  unfold aug_law, view. cbn [vlaw]. intros H. apply In_lprod in H as [u [yq [Hu [Hy E]]]].
  unfold dirac in Hu. destruct Hu as [Hu|[]]. subst u. rewrite E. cbn [fst app].
  apply In_lmap in Hy as [sp [Hs Es]]. rewrite Es.
  rewrite (app_nil_r) in Hs. unfold ldpq_laws in Hs. apply ldpq_lattice in Hs as [z Ez].
  exists z. rewrite Ez, seq_length. unfold w_cc, w_rr, w_r, w_n. rewrite alpha_w, INR_1800.
  f_equal. field.
Qed.

Lemma removed_support xp :
  In xp (removed_ldpq_law w_n 1 0 w_e w_cc w_rr 1800 0 v0 v0 v0) ->
  exists z : Z, fst xp = [(1799 + 1 / 50 * (2 * IZR z - 1799)) / 1800].
Proof.
  unfold removed_ldpq_law, view. cbn [vlaw]. intros H. apply In_lprod in H as [u [yq [Hu [Hy E]]]].
  unfold dirac in Hu. destruct Hu as [Hu|[]]. subst u. rewrite E. cbn [fst app].
  apply In_lmap in Hy as [sp [Hs Es]]. rewrite Es.
  rewrite (app_nil_r) in Hs. unfold ldpq_laws in Hs. apply ldpq_lattice in Hs as [z Ez].
  exists z. rewrite Ez, seq_length. unfold w_cc, w_rr, w_r, w_n.
  replace (1800 - 1)%nat with 1799%nat by reflexivity. rewrite alpha_w, INR_1799, INR_1800.
  f_equal. field.
Qed.

(** The two lattices are disjoint: equality would make 2(z − z') = −49. *)
Lemma lattices_disjoint (z z' : Z) :
  [(1800 + 1 / 50 * (2 * IZR z - 1800)) / 1800] <> [(1799 + 1 / 50 * (2 * IZR z' - 1799)) / 1800].
Proof.
  intros E. injection E as E.
  assert (I : IZR (2 * z - 2 * z' + 49) = 0).
  { rewrite plus_IZR, minus_IZR, !mult_IZR. lra. }
  apply eq_IZR_R0 in I. lia.
Qed.

Lemma full_mass : mass (aug_law w_n 1 0 w_e w_cc w_rr 1800 0 v0 v0 v0) = 1.
Proof.
  unfold aug_law, view. apply mass_vlaw. intros j _. rewrite mass_lmap. apply mass_conv_all.
  intros L HL. rewrite app_nil_r in HL. unfold ldpq_laws in HL. apply in_map_iff in HL as [i [E _]].
  subst L. apply mass_bin.
Qed.

Theorem T3_remove_one_fails : ~ T3_claim_remove_one.
Proof.
  intros H. pose proof w_hyps as Hh.
  assert (Hi : inputs_in 1 (rule_k 1 w_n) (rule_p 1 w_n) w_cc w_rr v0 v0 v0).
  { intros j _. unfold w_cc, w_rr, w_r, v0, in_range. split; intros; lra. }
  destruct (H w_n 1%nat 0%nat w_e w_delta 1 w_r w_cc w_rr v0 v0 v0 Hh Hi) as [A _].
  rewrite rule_k_1, rule_p_1 in A. specialize (A ltac:(lia)).
  revert A. apply disjoint_not_DP; [apply full_mass|unfold w_delta; lra|].
  intros xp yp Hx Hy. destruct (full_support xp Hx) as [z Ez]. destruct (removed_support yp Hy) as [z' Ez'].
  rewrite Ez, Ez'. apply lattices_disjoint.
Qed.

End RemoveOne.


(** ** T3, replace-one reading: the witness and the printed ε_u there

    Client 1 and the other 1799 clients at w = c + r = 101/100; client 1 replaced by
    w1' = c − r = 99/100. The exact ε at δ = 10⁻⁵ of these two laws (law of 1 + Bin(1799, 3/4)
    mixtures, 1801 atoms) is 0.08481 > printed ε_u: recomputed outside Coq. *)

Definition T3_replace_witness_instance : Prop :=
  DP (th3_eps_u_printed w_n 1 1 w_delta (alpha w_e) w_r) w_delta
     (aug_law w_n 1 0 w_e w_cc w_rr (rule_k 1 w_n) (rule_p 1 w_n) (fun _ _ => 101 / 100) (fun _ _ => 1) (fun _ _ => 1))
     (aug_law w_n 1 0 w_e w_cc w_rr (rule_k 1 w_n) (rule_p 1 w_n)
        (upd0 (fun _ _ => 101 / 100) (fun _ => 99 / 100)) (fun _ _ => 1) (fun _ _ => 1)).

(** The instance is what the replace-one claim asserts at the witness (whose hypotheses hold). *)
Lemma T3_replace_one_at_witness : T3_claim_replace_one -> T3_replace_witness_instance.
Proof.
  intros H. unfold T3_replace_witness_instance.
  assert (Hi : inputs_in 1 (rule_k 1 w_n) (rule_p 1 w_n) w_cc w_rr (fun _ _ => 101 / 100) (fun _ _ => 1) (fun _ _ => 1)).
  { intros j _. unfold w_cc, w_rr, w_r, in_range. split; intros; lra. }
  assert (Hw : vec_in 1 w_cc w_rr (fun _ => 99 / 100)).
  { intros j _. unfold w_cc, w_rr, w_r, in_range. lra. }
  destruct (H w_n 1%nat 0%nat w_e w_delta 1 w_r w_cc w_rr _ _ _ _ w_hyps Hi Hw) as [A _].
  apply A. rewrite rule_k_1. lia.
Qed.

Lemma INR_1 : INR 1 = 1. Proof. reflexivity. Qed.

(** The printed ε_u at the witness: 0.010838 (0.0108 ≤ ε_u ≤ 0.0109). *)
Theorem T3_eps_u_at_witness :
  108 / 10000 <= th3_eps_u_printed w_n 1 1 w_delta (alpha w_e) w_r <= 109 / 10000.
Proof.
  unfold th3_eps_u_printed, th3_b_p, th3_e_p, w_n, w_delta, w_r. rewrite alpha_w, INR_1800, INR_1.
  split; interval with (i_prec 60).
Qed.

(** The source-brace reading there: ≈ 0.00490; cpSGD with the proof's substitution: ≈ 0.01650. *)
Theorem T3_other_formulas_at_witness :
  48 / 10000 <= th3_eps_u_source_braces w_n 1 1 w_delta (alpha w_e) w_r <= 50 / 10000 /\
  164 / 10000 <= th3_eps_cpsgd w_n 1 1 w_delta (alpha w_e) w_r <= 166 / 10000.
Proof.
  unfold th3_eps_u_source_braces, th3_eps_cpsgd, th3_b_p, th3_e_p, w_n, w_delta, w_r.
  rewrite alpha_w, INR_1800, INR_1.
  split; split; interval with (i_prec 60).
Qed.


(** ** S1: SCDP

    Eq. (SCDP)'s neighbours are replace-one neighbours within ‖w1 − w1'‖₂ ≤ Δ₂, so a replace-one
    (ε, δ) guarantee gives (ε, δ)-SCDP for every Δ₂ > 0 (a special case, whatever the mechanism).
    The paper states no ε_s. *)
Theorem S1_from_replace_one :
  T3_claim_replace_one ->
  forall (n m d : nat) (e delta g r D2 : R) (cc rr : nat -> R) (v y1 y2 : nat -> nat -> R),
    th3_hyps n m e delta g r rr ->
    inputs_in m (rule_k g n) (rule_p g n) cc rr v y1 y2 ->
    SCDP n m d e (th3_eps_u_printed n m g delta (alpha e) r) delta D2 cc rr (rule_k g n) (rule_p g n) v y1 y2.
Proof.
  intros H n m d e delta g r D2 cc rr v y1 y2 Hh Hi w1 Hw.
  destruct (H n m d e delta g r cc rr v y1 y2 w1 Hh Hi Hw) as [A B]. split.
  - intros Hk _. exact (A Hk).
  - intros Hp _. exact (B Hp).
Qed.


(** ** S1, what does follow: post-processing of PLDP

    If client 1 uses LDPQ, each coordinate of its output is ε_p-PLDP (e^ε_p-bounded likelihood
    ratio), the coordinates are independent, and the rest of the aggregate is independent of it:
    replacing client 1's vector by any w1 in range changes the server's law by a factor at most
    e^{mε_p} on every event. So SCDP (and replace-one UCDP) hold with ε_s = m·ε_p and any δ ≥ 0,
    for every Δ₂, when client 1 is an LDPQ client; the paired case is left open. *)

Definition dom {X} (eps : R) (L L' : law X) : Prop := forall S, Pr L S <= exp eps * Pr L' S.
Definition nonneg {X} (L : law X) : Prop := forall xp, In xp L -> 0 <= snd xp.

Definition wsum {X} (L : law X) (g : X -> R) : R := fold_right (fun xp acc => snd xp * g (fst xp) + acc) 0 L.

Lemma Pr_cons {X} (xp : X * R) L S : Pr (xp :: L) S = (if S (fst xp) then snd xp else 0) + Pr L S.
Proof. reflexivity. Qed.

Lemma wsum_cons {X} (xp : X * R) L g : wsum (xp :: L) g = snd xp * g (fst xp) + wsum L g.
Proof. reflexivity. Qed.

Lemma Pr_lmap {X Y} (f : X -> Y) (L : law X) S : Pr (lmap f L) S = Pr L (fun x => S (f x)).
Proof. induction L as [|xp L IH]; [reflexivity|]. unfold lmap in *. simpl map. rewrite !Pr_cons, IH. reflexivity. Qed.

Lemma Pr_map_scale {X Y Z} (f : X -> Y -> Z) (x : X) (p : R) (L : law Y) S :
  Pr (map (fun yq => (f x (fst yq), p * snd yq)) L) S = p * Pr L (fun y => S (f x y)).
Proof.
  induction L as [|yq L IH]; [unfold Pr; simpl; ring|]. simpl map. rewrite !Pr_cons, IH. simpl.
  destruct (S (f x (fst yq))); ring.
Qed.

Lemma Pr_lprod_l {X Y Z} (f : X -> Y -> Z) (L1 : law X) (L2 : law Y) S :
  Pr (lprod f L1 L2) S = wsum L1 (fun x => Pr L2 (fun y => S (f x y))).
Proof.
  induction L1 as [|xp L IH]; [reflexivity|]. unfold lprod in *. simpl flat_map.
  rewrite Pr_app, Pr_map_scale, IH, wsum_cons. reflexivity.
Qed.

Lemma wsum_plus {X} (L : law X) g h : wsum L (fun x => g x + h x) = wsum L g + wsum L h.
Proof. induction L as [|xp L IH]; [simpl; ring|]. rewrite !wsum_cons, IH. ring. Qed.

Lemma wsum_scal {X} (L : law X) a g : wsum L (fun x => a * g x) = a * wsum L g.
Proof. induction L as [|xp L IH]; [simpl; ring|]. rewrite !wsum_cons, IH. ring. Qed.

Lemma wsum_ind {X} (L : law X) (b : X -> bool) (p : R) :
  wsum L (fun y => if b y then p else 0) = p * Pr L b.
Proof. induction L as [|xp L IH]; [simpl; ring|]. rewrite wsum_cons, Pr_cons, IH. destruct (b (fst xp)); ring. Qed.

Lemma Pr_lprod_r {X Y Z} (f : X -> Y -> Z) (L1 : law X) (L2 : law Y) S :
  Pr (lprod f L1 L2) S = wsum L2 (fun y => Pr L1 (fun x => S (f x y))).
Proof.
  rewrite Pr_lprod_l. induction L1 as [|xp L IH].
  - simpl. induction L2 as [|yq L2 IH2]; [reflexivity|]. rewrite wsum_cons, <- IH2. unfold Pr. simpl. ring.
  - rewrite wsum_cons, IH.
    transitivity (wsum L2 (fun y => (if S (f (fst xp) y) then snd xp else 0) + Pr L (fun x => S (f x y)))).
    + rewrite wsum_plus, wsum_ind. reflexivity.
    + reflexivity.
Qed.

Lemma wsum_le {X} (L : law X) g h :
  nonneg L -> (forall xp, In xp L -> g (fst xp) <= h (fst xp)) -> wsum L g <= wsum L h.
Proof.
  induction L as [|xp L IH]; intros N H; [simpl; lra|]. rewrite !wsum_cons.
  assert (snd xp * g (fst xp) <= snd xp * h (fst xp)).
  { apply Rmult_le_compat_l; [apply N; left; reflexivity|apply H; left; reflexivity]. }
  assert (wsum L g <= wsum L h).
  { apply IH; [intros yp Hy; apply N; right; exact Hy|intros yp Hy; apply H; right; exact Hy]. }
  lra.
Qed.

Lemma dom_lprod {X Y Z} (f : X -> Y -> Z) (a b : R) (L1 L1' : law X) (L2 L2' : law Y) :
  dom a L1 L1' -> dom b L2 L2' -> nonneg L1 -> nonneg L2' ->
  dom (a + b) (lprod f L1 L2) (lprod f L1' L2').
Proof.
  intros D1 D2 N1 N2 S. rewrite exp_plus.
  rewrite Pr_lprod_l. eapply Rle_trans.
  { apply (wsum_le L1 _ (fun x => exp b * Pr L2' (fun y => S (f x y))) N1). intros xp _. apply D2. }
  rewrite wsum_scal, <- Pr_lprod_l.
  assert (Hw : wsum L2' (fun y => Pr L1 (fun x => S (f x y)))
               <= wsum L2' (fun y => exp a * Pr L1' (fun x => S (f x y)))).
  { apply wsum_le; [exact N2|]. intros yq _. apply D1. }
  rewrite wsum_scal, <- !Pr_lprod_r in Hw.
  pose proof (exp_pos b). replace (exp a * exp b * Pr (lprod f L1' L2') S) with (exp b * (exp a * Pr (lprod f L1' L2') S)) by ring.
  apply Rmult_le_compat_l; lra.
Qed.

Lemma dom_refl {X} (L : law X) : dom 0 L L.
Proof. intros S. rewrite exp_0. lra. Qed.

Lemma dom_lmap {X Y} (f : X -> Y) a (L L' : law X) : dom a L L' -> dom a (lmap f L) (lmap f L').
Proof. intros D S. rewrite !Pr_lmap. apply D. Qed.

Lemma nonneg_app {X} (L1 L2 : law X) : nonneg L1 -> nonneg L2 -> nonneg (L1 ++ L2).
Proof. intros N1 N2 xp H. apply in_app_or in H as [H|H]; [apply N1|apply N2]; exact H. Qed.

Lemma nonneg_lprod {X Y Z} (f : X -> Y -> Z) (L1 : law X) (L2 : law Y) :
  nonneg L1 -> nonneg L2 -> nonneg (lprod f L1 L2).
Proof.
  intros N1 N2 zr H. unfold lprod in H. apply in_flat_map in H as [xp [H1 H2]].
  apply in_map_iff in H2 as [yq [E H3]]. subst zr. simpl. apply Rmult_le_pos; [apply N1|apply N2]; assumption.
Qed.

Lemma nonneg_lmap {X Y} (f : X -> Y) (L : law X) : nonneg L -> nonneg (lmap f L).
Proof. intros N yp H. unfold lmap in H. apply in_map_iff in H as [xp [E H]]. subst yp. simpl. apply N. exact H. Qed.

Lemma nonneg_conv_all (Ls : list (law R)) : (forall L, In L Ls -> nonneg L) -> nonneg (conv_all Ls).
Proof.
  induction Ls as [|L Ls IH]; intros H.
  - intros xp Hx. destruct Hx as [Hx|[]]. subst xp. simpl. lra.
  - change (nonneg (conv L (conv_all Ls))). apply nonneg_lprod; [apply H; left; reflexivity|].
    apply IH. intros L' HL'. apply H. right. exact HL'.
Qed.

Lemma nonneg_vlaw (m : nat) (L : nat -> law R) : (forall j, (j < m)%nat -> nonneg (L j)) -> nonneg (vlaw m L).
Proof.
  induction m as [|m IH]; intros H.
  - intros xp Hx. destruct Hx as [Hx|[]]. subst xp. simpl. lra.
  - cbn [vlaw]. apply nonneg_lprod; [apply IH; intros; apply H; lia|apply H; lia].
Qed.

(** Each coordinate ε-dominated gives the vector mε-dominated. *)
Lemma dom_vlaw (m : nat) (e : R) (L L' : nat -> law R) :
  (forall j, (j < m)%nat -> dom e (L j) (L' j) /\ nonneg (L j) /\ nonneg (L' j)) ->
  dom (INR m * e) (vlaw m L) (vlaw m L').
Proof.
  induction m as [|m IH]; intros H.
  - simpl. rewrite Rmult_0_l. apply dom_refl.
  - cbn [vlaw]. rewrite S_INR. replace ((INR m + 1) * e) with (INR m * e + e) by ring.
    destruct (H m ltac:(lia)) as [D [N N']].
    apply dom_lprod; [apply IH; intros; apply H; lia|exact D| |exact N'].
    apply nonneg_vlaw. intros j Hj. apply H. lia.
Qed.

Lemma dom_conv_front (e : R) (L1 L1' : law R) (Ls : list (law R)) :
  dom e L1 L1' -> nonneg L1 -> (forall L, In L Ls -> nonneg L) ->
  dom e (conv_all (L1 :: Ls)) (conv_all (L1' :: Ls)).
Proof.
  intros D N NL. change (dom e (conv L1 (conv_all Ls)) (conv L1' (conv_all Ls))).
  replace e with (e + 0) by ring. unfold conv. apply dom_lprod; [exact D|apply dom_refl|exact N|].
  apply nonneg_conv_all. exact NL.
Qed.

(** LDPQ's law: probabilities in (0, 1), and ε_p-PLDP as a domination of laws. *)
Lemma nonneg_ldpq (e c r w : R) : 0 < e -> 0 < r -> in_range c r w -> nonneg (ldpq_law e c r w).
Proof.
  intros He Hr Hw. pose proof (ldpq_q_prob (alpha e) c r w (alpha_gt_1 e He) Hr Hw) as Q.
  intros xp Hx. unfold ldpq_law, bin_law in Hx. destruct Hx as [Hx|[Hx|[]]]; subst xp; simpl; lra.
Qed.

Lemma dom_ldpq (e c r w w' : R) : 0 < e -> 0 < r -> in_range c r w -> in_range c r w' ->
  dom e (ldpq_law e c r w) (ldpq_law e c r w').
Proof.
  intros He Hr Hw Hw' S. destruct (ldpq_pldp e c r w w' He Hr Hw Hw') as [A B].
  pose proof (ldpq_q_prob (alpha e) c r w' (alpha_gt_1 e He) Hr Hw'). pose proof (exp_pos e).
  unfold ldpq_law, bin_law, Pr. simpl.
  destruct (S (c + r * alpha e)), (S (c - r * alpha e)); nra.
Qed.

(** A CorBinQ pair's joint probabilities are >= 0. *)
Lemma nonneg_pair (d : nat) (e c r w1 w2 : R) : 0 < e -> 0 < r -> in_range c r w1 -> in_range c r w2 ->
  nonneg (pair_law d e c r w1 w2).
Proof.
  intros He Hr H1 H2. pose proof (alpha_gt_1 e He) as Ha.
  pose proof (ldpq_q_prob (alpha e) c r w1 Ha Hr H1). pose proof (ldpq_q_prob (alpha e) c r w2 Ha Hr H2).
  pose proof (nZ_pos d) as NZ.
  assert (U : 0 <= u_of d (alpha e) c r w1) by (unfold u_of; apply Rmult_le_pos; lra).
  assert (V : 0 <= v_of d (alpha e) c r w2) by (unfold v_of; apply Rmult_le_pos; lra).
  assert (SP : forall s p, 0 <= p <= 1 -> 0 <= sgn_prob s p) by (intros [|] p Hp; simpl; lra).
  intros xp Hx. unfold pair_law in Hx. apply in_map_iff in Hx as [s [E _]]. subst xp. simpl.
  unfold joint, avgZ. apply Rmult_le_pos; [|left; apply Rinv_0_lt_compat; exact NZ].
  apply fsum_nonneg. intros z _. simpl.
  pose proof (step_prob _ z U). pose proof (step_prob _ z V).
  apply Rmult_le_pos; apply SP; lra.
Qed.

(** S1, proved part: if client 1 uses LDPQ, replacing its vector by any w1 in range is
    (m·ε_p, δ)-DP for every δ ≥ 0; in particular (m·ε_p, δ)-SCDP's first case for every Δ₂. *)
Theorem S1_ldpq_client (n m d : nat) (e delta : R) (cc rr : nat -> R) (k p : nat) (v y1 y2 : nat -> nat -> R)
  (w1 : nat -> R) :
  0 < e -> 0 <= delta -> (forall j, (j < m)%nat -> 0 < rr j) ->
  inputs_in m k p cc rr v y1 y2 -> vec_in m cc rr w1 -> (0 < k)%nat ->
  DP (INR m * e) delta (aug_law n m d e cc rr k p v y1 y2) (aug_law n m d e cc rr k p (upd0 v w1) y1 y2).
Proof.
  intros He Hd Hr Hi Hw Hk.
  assert (D : dom (INR m * e) (aug_law n m d e cc rr k p v y1 y2) (aug_law n m d e cc rr k p (upd0 v w1) y1 y2)).
  { unfold aug_law, view. apply dom_vlaw. intros j Hj.
    destruct (Hi j Hj) as [Hv Hy]. pose proof (Hr j Hj) as Hrj.
    destruct k as [|k']; [lia|].
    assert (Ecoord : forall v', ldpq_laws e cc rr v' (seq 0 (S k')) j ++ pair_laws d e cc rr y1 y2 (seq 0 p) j
                     = ldpq_law e (cc j) (rr j) (v' 0%nat j) :: (ldpq_laws e cc rr v' (seq 1 k') j
                        ++ pair_laws d e cc rr y1 y2 (seq 0 p) j)) by (intros; reflexivity).
    rewrite !Ecoord.
    assert (Erest : ldpq_laws e cc rr (upd0 v w1) (seq 1 k') j = ldpq_laws e cc rr v (seq 1 k') j).
    { apply map_ext_in. intros i Hi'. apply in_seq in Hi'. unfold upd0.
      destruct (i =? 0)%nat eqn:E; [apply Nat.eqb_eq in E; lia|reflexivity]. }
    rewrite Erest. replace (upd0 v w1 0%nat j) with (w1 j) by reflexivity. unfold ldpq_laws.
    set (rest := map (fun i => ldpq_law e (cc j) (rr j) (v i j)) (seq 1 k') ++ pair_laws d e cc rr y1 y2 (seq 0 p) j).
    assert (NR : forall L, In L rest -> nonneg L).
    { intros L HL. apply in_app_or in HL as [HL|HL].
      - apply in_map_iff in HL as [i [E Hi']]. subst L. apply in_seq in Hi'. apply nonneg_ldpq; try lra. apply Hv. lia.
      - unfold pair_laws in HL. apply in_map_iff in HL as [i [E Hi']]. subst L. apply in_seq in Hi'.
        destruct (Hy i ltac:(lia)). apply nonneg_pair; assumption. }
    assert (H0 : in_range (cc j) (rr j) (v 0%nat j)) by (apply Hv; lia).
    split; [|split].
    - apply dom_lmap. apply dom_conv_front; [apply dom_ldpq; auto|apply nonneg_ldpq; auto|exact NR].
    - apply nonneg_lmap, nonneg_conv_all. intros L [HL|HL]; [subst L; apply nonneg_ldpq; auto|apply NR; exact HL].
    - apply nonneg_lmap, nonneg_conv_all. intros L [HL|HL]; [subst L; apply nonneg_ldpq; auto|apply NR; exact HL]. }
  intros S. specialize (D S). lra.
Qed.

(** Hence, when no client is paired (e.g. γ = 1), AugCorBin-FL is (m·ε_p, δ)-SCDP for every
    Δ₂ > 0 and δ ≥ 0 (and (m·ε_p, δ)-DP for replace-one). *)
Theorem S1_all_ldpq (n m d : nat) (e delta D2 : R) (cc rr : nat -> R) (k : nat) (v y1 y2 : nat -> nat -> R) :
  0 < e -> 0 <= delta -> (forall j, (j < m)%nat -> 0 < rr j) ->
  inputs_in m k 0 cc rr v y1 y2 ->
  SCDP n m d e (INR m * e) delta D2 cc rr k 0 v y1 y2.
Proof.
  intros He Hd Hr Hi w1 Hw. split.
  - intros Hk _. apply S1_ldpq_client; assumption.
  - intros Hp. lia.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Thm3_theorems :=
  (@T3_remove_one_fails,
   @T3_eps_u_at_witness,
   @T3_other_formulas_at_witness,
   @S1_from_replace_one,
   @S1_ldpq_client,
   @S1_all_ldpq).
Print Assumptions Thm3_theorems.
