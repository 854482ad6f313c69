(** * Thm4 — Theorem 4 (robustness to client dropout): T4 (a proof step), T4u (UCDP), T4m (MSE)

    Theorem 4 (Section 4, "Robustness to Client Dropout"): "Let ε_p, δ, p, t > 0, and
    γ ∈ (0, 1]. Assume that clients drop out independently of each other with dropout probability
    p ... r = max_j r_j ... there exists δ1 < δ such that
      (nγ − 1)(1/4 − 1/(4α²(ε_p))) ≥ max(23 log(m/δ1), 2rα(ε_p)),
      γ = p(1 − p) − √(p(1−p)(1 − 2p(1−p))/(4(δ − δ1)n)).
    Then the CorBin-FL mechanism achieves ε_p-PLDP and (ε_u, δ)-UCDP, where ε_u is given by
    Equation (th:3:1). Furthermore, the mean square error is bounded by
      lim_{d→∞} E((W̄_{g,j} − (1/N) Σ_{i:F_i=1} w_{i,j})²) ≤ γ' r²α²/(nθ) + 8r²α²δ1
                      + (1 − γ)/(2nθ) r²((√2 − 1)α + 1)((√2 + 1)α − 1)
    ... F_i is the indicator that the ith client does not drop out, N = Σ_i F_i,
      γ' = p(1−p) + √(p(1−p)(1−2p(1−p))/(4(δ−δ1)n)),  θ = p(1−p) − √(p(1−p)/((δ−δ1)n))."
    Preconditions as formalised ([thm4_pre]): ε_p, δ, p, r > 0, m ≥ 1, 0 < δ1 < δ (log(m/δ1)
    needs δ1 > 0), γ ∈ (0, 1] and the displayed inequality; n = 2K clients in K pairs. The
    parameter t is never used. "n is large enough" has no content beyond the displayed
    inequality (reading "as printed"); T4m has a second reading that adds θ > 0.

    T4 (proof step, Appendix E): "using Chebychev's inequality, P(Σ_{i∈[n/2]} E_i ∈ [γn, γ'n])
    ≥ 1 − (δ − δ1)", E_i the indicator that exactly one client of pair i drops out, so
    Σ E_i ~ Binomial(n/2, 2p(1−p)) (mean np(1−p), variance np(1−p)(1−2p(1−p)), both as printed).
    Chebyshev gives the half-width √(Var/(δ−δ1)) = n√(p(1−p)(1−2p(1−p))/((δ−δ1)n)); the printed
    one is half of it (Errata.v, E8). Refuted at n = 2400 (K = 1200), p = 1/2, δ = 1/10,
    δ1 = 1/100, ε_p = ln(6/5) (α = 11), m = 1, r = 1, where every precondition holds:
    [γn, γ'n] = [571.13.., 628.86..], and P(572 ≤ Bin(1200, 1/2) ≤ 628) = 0.9002.. < 0.91
    (exact integer computation, [T4_step]). The same slip at the audit's n = 2000, p = 1/10 gives
    0.0914 > 0.09 outside, but that point misses Theorem 4's precondition (23 log(1/δ1) = 105.9 >
    (nγ − 1)/4). The second Chebyshev step, P(N ∈ [θn, θ'n]) ≥ 1 − (δ − δ1), is centred at
    p(1 − p) while N/n concentrates at 1 − p (E9): at these inputs [θn, θ'n] ⊂ [531, 669] while
    N ~ Bin(2400, 1/2); at p = 1/10 (N ≈ 0.9n) the interval misses N's bulk entirely.
    Verdict T4: proof invalid (the step is false as printed; the conclusions are judged below).

    T4u (the UCDP conclusion, one coordinate, ε_u = Eq. (th:3:1) with Theorem 4's γ, via
    Thm3.v's formulas; Eq. (UCDP)'s neighbour: client 1's output removed from the sum, which is
    still divided by n). Verdict: fails ([T4u]; [T4u_source_braces] refutes it also with the
    logarithms grouped as the LaTeX source nests them, a grouping the rendered paper does not
    show, so it is no reading of the claim). With c = 1 and every output c ± rα, the aggregate reveals the number of
    reports; removing client 1 shifts that count by a Bernoulli(1 − p), a gap of
    (1 − p)·P(Bin(n − 1, 1 − p) = K − 1) > 0.0053 at K = 2200, p = 1/2, while δ = 1/500 and
    ε_u ∝ r is ≈ 6.5·10⁻⁶ at r = 10⁻⁶ (every precondition holds).

    T4m (the MSE bound; exact MSE of the survivors' average, d → ∞, over the law of dropouts).
    Reading as printed: fails ([T4m]: θ < 0 is allowed by the preconditions and makes the bound
    negative). Reading with θ > 0 added: fails ([T4m_theta_pos]: at p = 9/10 the exact MSE is
    ≥ 0.0544 against a printed 0.0466). *)

From Coq Require Import Reals Lra Lia ZArith Bool List.
From Bignums Require Import BigZ.
From Interval Require Import Tactic.
From Corbin Require Import Defs Alpha Sums Facts Worst Thm3.
Open Scope R_scope.

(** ** Theorem 4's quantities *)

Definition gamma4 (p x n : R) : R := p * (1 - p) - sqrt (p * (1 - p) * (1 - 2 * p * (1 - p)) / (4 * x * n)).
Definition gamma4' (p x n : R) : R := p * (1 - p) + sqrt (p * (1 - p) * (1 - 2 * p * (1 - p)) / (4 * x * n)).
Definition theta4 (p x n : R) : R := p * (1 - p) - sqrt (p * (1 - p) / (x * n)).

(** The preconditions, for n clients (n = 2K), m parameters, radius r = max_j r_j. *)
Definition thm4_pre (e delta delta1 p r : R) (m n : nat) : Prop :=
  let a := alpha e in let g := gamma4 p (delta - delta1) (INR n) in
  0 < e /\ 0 < delta /\ 0 < p /\ 0 < r /\ (1 <= m)%nat /\ 0 < delta1 < delta /\
  0 < g <= 1 /\
  Rmax (23 * ln (INR m / delta1)) (2 * r * a) <= (INR n * g - 1) * (1/4 - 1 / (4 * a^2)).

(** ** Binomial laws *)

Definition binom_pmf (n : nat) (s : R) (k : nat) : R := C n k * s ^ k * (1 - s) ^ (n - k).

(** P(lo ≤ X ≤ hi) for X ~ Binomial(n, s). *)
Definition prob_in (n : nat) (s lo hi : R) : R :=
  fsum (S n) (fun k => if Rle_dec lo (INR k) then if Rle_dec (INR k) hi then binom_pmf n s k else 0 else 0).

(** ** T4: the step as printed *)

Definition T4_step_claim : Prop :=
  forall (e delta delta1 p r : R) (m K : nat), thm4_pre e delta delta1 p r m (2 * K) ->
    let n := INR (2 * K) in
    prob_in K (2 * p * (1 - p)) (gamma4 p (delta - delta1) n * n) (gamma4' p (delta - delta1) n * n)
      >= 1 - (delta - delta1).

(** *** Exact integer arithmetic for binomial coefficients *)

Fixpoint zfact (n : nat) : Z := match n with O => 1%Z | S k => (Z.of_nat (S k) * zfact k)%Z end.
Definition zC (n k : nat) : Z := (zfact n / (zfact k * zfact (n - k)))%Z.
Fixpoint zsum (len : nat) (f : nat -> Z) : Z := match len with O => 0%Z | S l => (zsum l f + f l)%Z end.
Fixpoint zpow2 (n : nat) : Z := match n with O => 1%Z | S k => (2 * zpow2 k)%Z end.
Fixpoint zall (len : nat) (f : nat -> bool) : bool := match len with O => true | S l => zall l f && f l end.

(** The same with primitive-integer big numbers, evaluated by [vm_compute]. *)
Fixpoint bfact (n : nat) : bigZ := match n with O => 1%bigZ | S k => (BigZ.of_Z (Z.of_nat (S k)) * bfact k)%bigZ end.
Definition bC (n k : nat) : bigZ := (bfact n / (bfact k * bfact (n - k)))%bigZ.
Fixpoint bsum (len : nat) (f : nat -> bigZ) : bigZ := match len with O => 0%bigZ | S l => (bsum l f + f l)%bigZ end.
Fixpoint bpow2 (n : nat) : bigZ := match n with O => 1%bigZ | S k => (2 * bpow2 k)%bigZ end.

Lemma bfact_spec (n : nat) : BigZ.to_Z (bfact n) = zfact n.
Proof. induction n as [|n IH]; [reflexivity|]. cbn [bfact]. rewrite BigZ.spec_mul, BigZ.spec_of_Z, IH. reflexivity. Qed.
Lemma bC_spec (n k : nat) : BigZ.to_Z (bC n k) = zC n k.
Proof. unfold bC, zC. rewrite BigZ.spec_div, BigZ.spec_mul, !bfact_spec. reflexivity. Qed.
Lemma bsum_spec (len : nat) (f : nat -> bigZ) (g : nat -> Z) :
  (forall j, BigZ.to_Z (f j) = g j) -> BigZ.to_Z (bsum len f) = zsum len g.
Proof. intros H. induction len as [|l IH]; [reflexivity|]. cbn [bsum zsum]. rewrite BigZ.spec_add, IH, H. reflexivity. Qed.
Lemma bpow2_spec (n : nat) : BigZ.to_Z (bpow2 n) = zpow2 n.
Proof. induction n as [|n IH]; [reflexivity|]. cbn [bpow2]. rewrite BigZ.spec_mul, IH. reflexivity. Qed.
Lemma zall_spec (len : nat) (f : nat -> bool) : zall len f = true -> forall j, (j < len)%nat -> f j = true.
Proof.
  induction len as [|l IH]; intros H j Hj; [lia|]. simpl in H. apply andb_true_iff in H as [H1 H2].
  destruct (Nat.eq_dec j l) as [->|N]; [exact H2|]. apply IH; [exact H1|lia].
Qed.

Lemma zfact_pos (n : nat) : (0 < zfact n)%Z.
Proof. induction n as [|n IH]; cbn [zfact]; [lia|]. apply Z.mul_pos_pos; lia. Qed.
Lemma zfact_INR (n : nat) : IZR (zfact n) = INR (fact n).
Proof.
  induction n as [|n IH]; [reflexivity|]. cbn [zfact]. rewrite mult_IZR, IH, <- INR_IZR_INZ.
  rewrite fact_simpl, mult_INR. reflexivity.
Qed.
Lemma zpow2_IZR (n : nat) : IZR (zpow2 n) = 2 ^ n.
Proof. induction n as [|n IH]; [reflexivity|]. cbn [zpow2]. rewrite mult_IZR, IH. simpl. ring. Qed.
Lemma zsum_IZR (len : nat) (f : nat -> Z) : IZR (zsum len f) = fsum len (fun j => IZR (f j)).
Proof. induction len as [|l IH]; [reflexivity|]. cbn [zsum fsum]. rewrite plus_IZR, IH. reflexivity. Qed.

(** C n k is the integer zC n k when the division is exact. *)
Lemma C_zC (n k : nat) : (zfact n mod (zfact k * zfact (n - k)) = 0)%Z -> C n k = IZR (zC n k).
Proof.
  intros Hm. pose proof (zfact_pos k). pose proof (zfact_pos (n - k)).
  assert (D : (zfact k * zfact (n - k) <> 0)%Z) by lia.
  apply (Z.div_exact (zfact n) _ D) in Hm. unfold C, zC.
  rewrite <- !zfact_INR. rewrite Hm at 1. rewrite !mult_IZR.
  assert (IZR (zfact k) <> 0) by (apply not_0_IZR; lia).
  assert (IZR (zfact (n - k)) <> 0) by (apply not_0_IZR; lia).
  field. split; assumption.
Qed.

(** (1/2)^k (1/2)^(n−k) = 1/2^n. *)
Lemma half_pows (n k : nat) : (k <= n)%nat -> (1/2) ^ k * (1 - 1/2) ^ (n - k) = 1 / 2 ^ n.
Proof.
  intros Hk. replace (1 - 1/2) with (1/2) by field. rewrite <- pow_add.
  replace (k + (n - k))%nat with n by lia.
  assert (E : (1/2) ^ n * 2 ^ n = 1) by (rewrite <- Rpow_mult_distr; replace (1/2 * 2) with 1 by field; apply pow1).
  pose proof (pow_lt 2 n ltac:(lra)). apply (Rmult_eq_reg_r (2 ^ n)); [|lra]. rewrite E. field. lra.
Qed.

(** fsum over the indicator of a window [a, a + len) is the sum over the window. *)
Lemma fsum_window (n a len : nat) (f : nat -> R) :
  fsum n (fun k => if (a <=? k)%nat && (k <? a + len)%nat then f k else 0) =
  fsum (Nat.min (n - a) len) (fun j => f (a + j)%nat).
Proof.
  induction n as [|n IH]; [reflexivity|]. cbn [fsum]. rewrite IH.
  destruct (a <=? n)%nat eqn:E1; destruct (n <? a + len)%nat eqn:E2; cbn [andb];
    apply Nat.leb_le in E1 || apply Nat.leb_gt in E1; apply Nat.ltb_lt in E2 || apply Nat.ltb_ge in E2.
  - replace (Nat.min (S n - a) len) with (S (Nat.min (n - a) len)) by lia. cbn [fsum].
    replace (a + Nat.min (n - a) len)%nat with n by lia. reflexivity.
  - replace (Nat.min (S n - a) len) with (Nat.min (n - a) len) by lia. ring.
  - replace (Nat.min (S n - a) len) with (Nat.min (n - a) len) by lia. ring.
  - replace (Nat.min (S n - a) len) with (Nat.min (n - a) len) by lia. ring.
Qed.

(** Real bounds → integer window. *)
Lemma window_iff (lo hi : R) (a b k : nat) :
  INR a - 1 < lo <= INR a -> INR b <= hi < INR b + 1 ->
  ((lo <= INR k /\ INR k <= hi) <-> (a <= k /\ k <= b)%nat).
Proof.
  intros [L1 L2] [H1 H2]. split.
  - intros [A B]. split.
    + destruct (le_lt_dec a k) as [X|X]; [exact X|].
      assert (INR (S k) <= INR a) by (apply le_INR; lia). rewrite S_INR in *. lra.
    + destruct (le_lt_dec k b) as [X|X]; [exact X|].
      assert (INR (S b) <= INR k) by (apply le_INR; lia). rewrite S_INR in *. lra.
  - intros [A B]. apply le_INR in A. apply le_INR in B. lra.
Qed.

Lemma prob_in_window (n : nat) (s lo hi : R) (a b : nat) :
  INR a - 1 < lo <= INR a -> INR b <= hi < INR b + 1 -> (a <= b <= n)%nat ->
  prob_in n s lo hi = fsum (S b - a) (fun j => binom_pmf n s (a + j)).
Proof.
  intros HL HH Hab. unfold prob_in.
  rewrite (fsum_ext _ _ (fun k => if (a <=? k)%nat && (k <? a + (S b - a))%nat then binom_pmf n s k else 0)).
  - rewrite fsum_window. replace (Nat.min (S n - a) (S b - a)) with (S b - a)%nat by lia. reflexivity.
  - intros k _. pose proof (window_iff lo hi a b k HL HH) as W.
    destruct ((a <=? k)%nat && (k <? a + (S b - a))%nat) eqn:E.
    + apply andb_true_iff in E as [E1 E2]. apply Nat.leb_le in E1. apply Nat.ltb_lt in E2.
      assert (E4 : (k <= b)%nat) by lia. destruct (proj2 W (conj E1 E4)) as [A B].
      destruct (Rle_dec lo (INR k)); [|contradiction]. destruct (Rle_dec (INR k) hi); [reflexivity|contradiction].
    + assert (NW : ~ (a <= k /\ k <= b)%nat).
      { intros [E1 E2]. assert (E3 : (k <? a + (S b - a))%nat = true) by (apply Nat.ltb_lt; lia).
        apply Nat.leb_le in E1.
        rewrite E1, E3 in E. discriminate. }
      destruct (Rle_dec lo (INR k)) as [A|A]; [|reflexivity]. destruct (Rle_dec (INR k) hi) as [B|B]; [|reflexivity].
      exfalso. apply NW, W. split; assumption.
Qed.

(** *** The witness: K = 1200 pairs (n = 2400), p = 1/2, δ = 1/10, δ1 = 1/100, α = 11, m = 1, r = 1 *)

Definition wK : nat := 1200.
Definition wa : nat := 572.
Definition wb : nat := 628.

(** Factorials 0..n once, as a list with n! first (so [vm_compute] computes each only once). *)
Fixpoint bfl (n : nat) : list bigZ :=
  match n with O => 1%bigZ :: nil | S k => let l := bfl k in (BigZ.of_Z (Z.of_nat (S k)) * hd 1%bigZ l)%bigZ :: l end.

Lemma bfl_hd (n : nat) : hd 1%bigZ (bfl n) = bfact n.
Proof. induction n as [|n IH]; [reflexivity|]. cbn [bfl hd bfact]. rewrite IH. reflexivity. Qed.

Lemma bfl_nth (n k : nat) : (k <= n)%nat -> nth (n - k) (bfl n) 0%bigZ = bfact k.
Proof.
  induction n as [|n IH]; intros Hk.
  - replace k with 0%nat by lia. reflexivity.
  - destruct (Nat.eq_dec k (S n)) as [->|N].
    + rewrite Nat.sub_diag. cbn [bfl nth]. rewrite bfl_hd. reflexivity.
    + replace (S n - k)%nat with (S (n - k)) by lia. cbn [bfl]. cbn [nth]. apply IH. lia.
Qed.

(** The integer facts, by computation: each division is exact, and
    100 · Σ_{k=572}^{628} C(1200, k) < 91 · 2^1200. *)
Definition check_div_with (L : list bigZ) : bool :=
  zall (S wb - wa)%nat (fun j => BigZ.eqb (BigZ.modulo (nth (wK - wK)%nat L 0%bigZ)
    (nth (wK - (wa + j))%nat L 0%bigZ * nth (wK - (wK - (wa + j)))%nat L 0%bigZ)) 0%bigZ).
Definition check_sum_with (L : list bigZ) : bool :=
  BigZ.ltb (100 * bsum (S wb - wa)%nat (fun j => nth (wK - wK)%nat L 0%bigZ /
    (nth (wK - (wa + j))%nat L 0%bigZ * nth (wK - (wK - (wa + j)))%nat L 0%bigZ)))%bigZ (91 * bpow2 wK)%bigZ.

Lemma check_div_ok : check_div_with (bfl wK) = true. Proof. vm_compute. reflexivity. Qed.

(** Stated for a variable list, so that no proof below asks the kernel to unfold the computation. *)
Lemma check_div_spec (L : list bigZ) (j : nat) : check_div_with L = true -> (j < S wb - wa)%nat ->
  BigZ.eqb (BigZ.modulo (nth (wK - wK)%nat L 0%bigZ)
    (nth (wK - (wa + j))%nat L 0%bigZ * nth (wK - (wK - (wa + j)))%nat L 0%bigZ)) 0%bigZ = true.
Proof. intros H Hj. unfold check_div_with in H. exact (zall_spec _ _ H j Hj). Qed.

Lemma check_sum_spec (L : list bigZ) : check_sum_with L = true ->
  (100 * BigZ.to_Z (bsum (S wb - wa)%nat (fun j => nth (wK - wK)%nat L 0%bigZ /
    (nth (wK - (wa + j))%nat L 0%bigZ * nth (wK - (wK - (wa + j)))%nat L 0%bigZ)))%bigZ < 91 * zpow2 wK)%Z.
Proof.
  intros H. unfold check_sum_with in H. rewrite BigZ.spec_ltb, BigZ.spec_mul, BigZ.spec_mul, bpow2_spec in H.
  apply Z.ltb_lt in H. exact H.
Qed.
Lemma check_sum_ok : check_sum_with (bfl wK) = true. Proof. vm_compute. reflexivity. Qed.

Lemma win_bounds (j : nat) : (j < S wb - wa)%nat ->
  (wa + j <= wK)%nat /\ (wK - (wa + j) <= wK)%nat /\ (wa + j <= wb)%nat /\ (wK <= wK)%nat.
Proof. unfold wK, wa, wb. lia. Qed.

Lemma f_spec (k : nat) : (k <= wK)%nat -> BigZ.to_Z (nth (wK - k)%nat (bfl wK) 0%bigZ) = zfact k.
Proof. intros H. rewrite bfl_nth by exact H. apply bfact_spec. Qed.

Lemma div_exact_window (j : nat) : (j < S wb - wa)%nat ->
  (zfact wK mod (zfact (wa + j)%nat * zfact (wK - (wa + j))%nat) = 0)%Z.
Proof.
  intros Hj. pose proof (check_div_spec (bfl wK) j check_div_ok Hj) as H.
  destruct (win_bounds j Hj) as [W1 [W2 [_ W4]]].
  rewrite BigZ.spec_eqb, BigZ.spec_modulo, BigZ.spec_mul, !f_spec in H by assumption.
  apply Z.eqb_eq in H. exact H.
Qed.

Lemma sum_lt : (100 * zsum (S wb - wa)%nat (fun j => zC wK (wa + j)%nat) < 91 * zpow2 wK)%Z.
Proof.
  pose proof (check_sum_spec (bfl wK) check_sum_ok) as H.
  assert (E : forall j, (j < S wb - wa)%nat ->
     BigZ.to_Z (nth (wK - wK)%nat (bfl wK) 0%bigZ / (nth (wK - (wa + j))%nat (bfl wK) 0%bigZ * nth (wK - (wK - (wa + j))%nat) (bfl wK) 0%bigZ))%bigZ
     = zC wK (wa + j)%nat).
  { intros j Hj. destruct (win_bounds j Hj) as [W1 [W2 [_ W4]]].
    unfold zC. rewrite BigZ.spec_div, BigZ.spec_mul, !f_spec by assumption. reflexivity. }
  assert (S : forall len, (len <= S wb - wa)%nat ->
     BigZ.to_Z (bsum len (fun j => nth (wK - wK)%nat (bfl wK) 0%bigZ / (nth (wK - (wa + j))%nat (bfl wK) 0%bigZ * nth (wK - (wK - (wa + j))%nat) (bfl wK) 0%bigZ)))%bigZ
     = zsum len (fun j => zC wK (wa + j)%nat)).
  { induction len as [|l IH]; intros Hl; [reflexivity|]. cbn [bsum zsum]. rewrite BigZ.spec_add, IH, E by lia. reflexivity. }
  rewrite S in H by lia. exact H.
Qed.

Lemma pow2_pos : 0 < IZR (zpow2 wK).
Proof. rewrite zpow2_IZR. apply pow_lt. lra. Qed.

Lemma sum_lt_R : 100 * IZR (zsum (S wb - wa)%nat (fun j => zC wK (wa + j)%nat)) < 91 * IZR (zpow2 wK).
Proof. pose proof (IZR_lt _ _ sum_lt) as L. rewrite !mult_IZR in L. exact L. Qed.

Lemma pmf_window (j : nat) : (j < S wb - wa)%nat ->
  binom_pmf wK (1/2) (wa + j) = / IZR (zpow2 wK) * IZR (zC wK (wa + j)).
Proof.
  intros Hj. destruct (win_bounds j Hj) as [W1 _].
  unfold binom_pmf. rewrite Rmult_assoc, half_pows by exact W1.
  rewrite (C_zC wK (wa + j)%nat (div_exact_window j Hj)), zpow2_IZR. unfold Rdiv. rewrite Rmult_1_l. apply Rmult_comm.
Qed.

(** Generic, so that no tactic sees the big constants. *)
Lemma ratio_lt (A B : R) : 0 < B -> 100 * A < 91 * B -> / B * A < 91 / 100.
Proof. intros HB H. replace (/ B * A) with (A / B) by (field; lra). apply div_lt_l; lra. Qed.

Lemma window_prob_lt : fsum (S wb - wa)%nat (fun j => binom_pmf wK (1/2) (wa + j)%nat) < 91 / 100.
Proof.
  rewrite (fsum_ext _ _ _ pmf_window), fsum_scal, <- zsum_IZR.
  apply ratio_lt; [exact pow2_pos|exact sum_lt_R].
Qed.


Lemma INR_2400 : INR (2 * wK) = 2400.
Proof. unfold wK. rewrite INR_IZR_INZ. reflexivity. Qed.

Lemma alpha_11 : alpha (ln (6/5)) = 11.
Proof. rewrite alpha_ln by lra. field. Qed.

Lemma Rmax_le (x y z : R) : x <= z -> y <= z -> Rmax x y <= z.
Proof. intros. unfold Rmax. destruct (Rle_dec x y); lra. Qed.

Lemma T4_witness_pre : thm4_pre (ln (6/5)) (1/10) (1/100) (1/2) 1 1 (2 * wK).
Proof.
  unfold thm4_pre. rewrite alpha_11, INR_2400. cbv zeta. unfold gamma4.
  repeat split; try lra; try lia; try (apply ln_pos_gt; lra); try interval.
  apply Rmax_le; [|interval]. replace (INR 1 / (1/100)) with 100 by (simpl; lra). interval.
Qed.

(** Theorem 4's proof, first Chebyshev step: refuted at K = 1200, p = 1/2, δ = 1/10, δ1 = 1/100. *)
Theorem T4_step : ~ T4_step_claim.
Proof.
  intros H. specialize (H _ _ _ _ _ _ _ T4_witness_pre). cbv zeta in H. rewrite INR_2400 in H.
  replace (2 * (1/2) * (1 - 1/2)) with (1/2) in H by lra.
  rewrite (prob_in_window wK (1/2) _ _ wa wb) in H.
  - pose proof window_prob_lt. lra.
  - unfold gamma4, wa. rewrite INR_IZR_INZ. simpl Z.of_nat. split; interval.
  - unfold gamma4', wb. rewrite !INR_IZR_INZ. simpl Z.of_nat. split; interval.
  - unfold wa, wb, wK. lia.
Qed.


(** Chebyshev's variance for Σ E_i ~ Binomial(n/2, 2p(1−p)) is the printed np(1−p)(1−2p(1−p)),
    and the printed half-width is half of Chebyshev's (Errata.v, E8). *)
Lemma T4_variance (n p : R) :
  (n / 2) * (2 * p * (1 - p)) * (1 - 2 * p * (1 - p)) = n * p * (1 - p) * (1 - 2 * p * (1 - p)).
Proof. field. Qed.

(** ** T4m: the MSE bound

    The exact MSE of the survivors' average, in the limit d → ∞, given who dropped: the units
    that report are the pairs with both clients alive (a CorBinQ pair, whose pair MSE tends to
    Worst.opt_pair_mse, Theorem 1) and the clients whose partner dropped (LDPQ, claim D1:
    Worst.ldpq_mse); units are independent and unbiased, so E((avg − target)² | who dropped)
    = (Σ_units unit MSE)/N². The server divides by N, the number of reports ("the average of the
    obfuscated updates at the server", and the target (1/N)Σ_{i:F_i=1} w_i). When nobody reports
    (N = 0) the error is taken as 0, the convention most favourable to the claim. The pairing is
    the fixed {(2k, 2k+1)}; the witness inputs are all equal, so every pairing gives the same
    value and the uniformly random pairing of Algorithm 3 changes nothing.

    [dexp p u K g] = E(g(V, N)) over K pairs whose clients drop out independently with
    probability p, where V is the sum of the reporting units' MSEs and N the number of reports;
    [u k] = (MSE of client 1 alone, of client 2 alone, of the pair) for pair k. *)

Fixpoint dexp (p : R) (u : nat -> R * R * R) (K : nat) (g : R -> nat -> R) : R :=
  match K with
  | O => g 0 O
  | S K' => let '(v1, v2, v12) := u K' in
      p * p * dexp p u K' g
      + p * (1 - p) * dexp p u K' (fun V N => g (V + v2) (S N))
      + (1 - p) * p * dexp p u K' (fun V N => g (V + v1) (S N))
      + (1 - p) * (1 - p) * dexp p u K' (fun V N => g (V + v12) (S (S N)))
  end.

Definition units (a c r : R) (w : nat -> R) (k : nat) : R * R * R :=
  (ldpq_mse a c r (w (2 * k)%nat), ldpq_mse a c r (w (2 * k + 1)%nat),
   opt_pair_mse a c r (w (2 * k)%nat) (w (2 * k + 1)%nat)).

Definition mse4 (a c r p : R) (K : nat) (w : nat -> R) : R :=
  dexp p (units a c r w) K (fun V N => if (N =? 0)%nat then 0 else V / INR N ^ 2).

(** The printed bound, with n = 2K and r = max_j r_j. *)
Definition t4_bound (a r p delta delta1 n : R) : R :=
  let x := delta - delta1 in
  gamma4' p x n * r^2 * a^2 / (n * theta4 p x n) + 8 * r^2 * a^2 * delta1
  + (1 - gamma4 p x n) / (2 * n * theta4 p x n) * r^2 * th2_const a.

(** Reading "as printed": the displayed preconditions. *)
Definition T4m_claim : Prop :=
  forall (e delta delta1 p r rj c : R) (m K : nat) (w : nat -> R),
    thm4_pre e delta delta1 p r m (2 * K) -> 0 < rj <= r -> (forall i, in_range c rj (w i)) ->
    mse4 (alpha e) c rj p K w <= t4_bound (alpha e) r p delta delta1 (INR (2 * K)).

(** Reading "n large enough" taken to include θ > 0 (so that 1/(nθ) is a positive size). *)
Definition T4m_claim_theta_pos : Prop :=
  forall (e delta delta1 p r rj c : R) (m K : nat) (w : nat -> R),
    thm4_pre e delta delta1 p r m (2 * K) -> 0 < theta4 p (delta - delta1) (INR (2 * K)) ->
    0 < rj <= r -> (forall i, in_range c rj (w i)) ->
    mse4 (alpha e) c rj p K w <= t4_bound (alpha e) r p delta delta1 (INR (2 * K)).

(** *** dexp: extensionality, monotonicity under the invariant "no report, no error", moments *)

Lemma dexp_ext (p : R) (u : nat -> R * R * R) (K : nat) (g h : R -> nat -> R) :
  (forall V N, g V N = h V N) -> dexp p u K g = dexp p u K h.
Proof.
  revert g h. induction K as [|K IH]; intros g h H; simpl; [apply H|].
  destruct (u K) as [[v1 v2] v12].
  rewrite (IH g h H), (IH (fun V N => g (V + v2) (S N)) (fun V N => h (V + v2) (S N))),
    (IH (fun V N => g (V + v1) (S N)) (fun V N => h (V + v1) (S N))),
    (IH (fun V N => g (V + v12) (S (S N))) (fun V N => h (V + v12) (S (S N)))); auto.
Qed.

Lemma dexp_mono (p : R) (u : nat -> R * R * R) (K : nat) (g h : R -> nat -> R) :
  0 <= p <= 1 -> (forall k, let '(v1, v2, v12) := u k in 0 <= v1 /\ 0 <= v2 /\ 0 <= v12) ->
  (forall V N, 0 <= V -> (N = O -> V = 0) -> h V N <= g V N) -> dexp p u K h <= dexp p u K g.
Proof.
  intros Hp Hu. revert g h. induction K as [|K IH]; intros g h H; simpl; [apply H; auto; lra|].
  specialize (Hu K). destruct (u K) as [[v1 v2] v12]. destruct Hu as [U1 [U2 U3]].
  assert (A : forall v j, 0 <= v -> dexp p u K (fun V N => h (V + v) (j + N)%nat) <= dexp p u K (fun V N => g (V + v) (j + N)%nat) \/ j = O).
  { intros v j Hv. destruct j as [|j]; [right; reflexivity|left]. apply IH. intros V N HV _. apply H; [lra|lia]. }
  pose proof (IH g h H) as I0.
  destruct (A v2 1%nat U2) as [I2|]; [|discriminate]. destruct (A v1 1%nat U1) as [I1|]; [|discriminate].
  destruct (A v12 2%nat U3) as [I3|]; [|discriminate]. simpl in I1, I2, I3.
  assert (0 <= p * p) by nra. assert (0 <= p * (1 - p)) by nra. assert (0 <= (1 - p) * p) by nra.
  assert (0 <= (1 - p) * (1 - p)) by nra.
  apply Rplus_le_compat; [apply Rplus_le_compat; [apply Rplus_le_compat|]|]; apply Rmult_le_compat_l; assumption.
Qed.

(** With the same units (v1, v2, v12) in every pair, E(x0 + x1 V + x2 N + x3 V N) in closed form. *)
Section Moments.
Variables (p v1 v2 v12 : R).
Let q := 1 - p.
Let muV := p * q * (v1 + v2) + q * q * v12.
Let muN := 2 * q.
Let muVN := p * q * (v1 + v2) + 2 * q * q * v12.

Lemma dexp_affine (K : nat) (x0 x1 x2 x3 : R) :
  dexp p (fun _ => (v1, v2, v12)) K (fun V N => x0 + x1 * V + x2 * INR N + x3 * V * INR N) =
  x0 + x1 * INR K * muV + x2 * INR K * muN + x3 * (INR K * (INR K - 1) * muV * muN + INR K * muVN).
Proof.
  revert x0 x1 x2 x3. induction K as [|K IH]; intros x0 x1 x2 x3; simpl dexp.
  - simpl. ring.
  - rewrite (dexp_ext _ _ K (fun V N => x0 + x1 * (V + v2) + x2 * INR (S N) + x3 * (V + v2) * INR (S N))
      (fun V N => (x0 + x1 * v2 + x2 + x3 * v2) + (x1 + x3) * V + (x2 + x3 * v2) * INR N + x3 * V * INR N))
      by (intros; rewrite S_INR; ring).
    rewrite (dexp_ext _ _ K (fun V N => x0 + x1 * (V + v1) + x2 * INR (S N) + x3 * (V + v1) * INR (S N))
      (fun V N => (x0 + x1 * v1 + x2 + x3 * v1) + (x1 + x3) * V + (x2 + x3 * v1) * INR N + x3 * V * INR N))
      by (intros; rewrite S_INR; ring).
    rewrite (dexp_ext _ _ K (fun V N => x0 + x1 * (V + v12) + x2 * INR (S (S N)) + x3 * (V + v12) * INR (S (S N)))
      (fun V N => (x0 + x1 * v12 + 2 * x2 + 2 * x3 * v12) + (x1 + 2 * x3) * V + (x2 + x3 * v12) * INR N + x3 * V * INR N))
      by (intros; rewrite !S_INR; ring).
    rewrite !IH. rewrite S_INR. unfold muV, muN, muVN, q. ring.
Qed.
End Moments.

(** The tangent line of 1/N² at M > 0: V/N² ≥ V(3M − 2N)/M³ for V ≥ 0, N ≥ 1 (and both 0 at N = 0,
    V = 0), since M³ − N²(3M − 2N) = (M − N)²(M + 2N). *)
Lemma tangent (V M : R) (N : nat) : 0 <= V -> 0 < M -> (N = O -> V = 0) ->
  V * (3 * M - 2 * INR N) / M ^ 3 <= (if (N =? 0)%nat then 0 else V / INR N ^ 2).
Proof.
  intros HV HM HN. destruct (N =? 0)%nat eqn:E.
  - apply Nat.eqb_eq in E. rewrite (HN E). unfold Rdiv. rewrite !Rmult_0_l. lra.
  - apply Nat.eqb_neq in E. assert (HN1 : 1 <= INR N) by (apply (le_INR 1); lia).
    set (n := INR N) in *.
    assert (K : V / n ^ 2 - V * (3 * M - 2 * n) / M ^ 3 = V * ((M - n)^2 * (M + 2 * n)) / (n^2 * M^3))
      by (field; split; lra).
    assert (0 <= V * ((M - n)^2 * (M + 2 * n)) / (n^2 * M^3)).
    { apply Rmult_le_pos; [apply Rmult_le_pos; [lra|]; apply Rmult_le_pos; [apply pow2_ge_0|lra]|].
      apply Rlt_le, Rinv_0_lt_compat. apply Rmult_lt_0_compat; apply pow_lt; lra. }
    lra.
Qed.

Lemma dexp_zero (p : R) (u : nat -> R * R * R) (K : nat) : dexp p u K (fun _ _ => 0) = 0.
Proof. induction K as [|K IH]; simpl; [reflexivity|]. destruct (u K) as [[v1 v2] v12]. rewrite !IH. ring. Qed.

Lemma units_nonneg (a c r : R) (w : nat -> R) (k : nat) :
  1 < a -> 0 < r -> (forall i, in_range c r (w i)) ->
  let '(v1, v2, v12) := units a c r w k in 0 <= v1 /\ 0 <= v2 /\ 0 <= v12.
Proof.
  intros Ha Hr Hw. unfold units. split; [|split].
  - rewrite ldpq_mse_poly by lra. destruct (Hw (2 * k)%nat) as [A B].
    assert (1 <= a^2) by nra. assert ((w (2 * k)%nat - c)^2 <= r^2) by nra. nra.
  - rewrite ldpq_mse_poly by lra. destruct (Hw (2 * k + 1)%nat) as [A B].
    assert (1 <= a^2) by nra. assert ((w (2 * k + 1)%nat - c)^2 <= r^2) by nra. nra.
  - apply opt_pair_mse_nonneg; auto.
Qed.

Lemma mse4_nonneg (a c r p : R) (K : nat) (w : nat -> R) :
  1 < a -> 0 < r -> 0 <= p <= 1 -> (forall i, in_range c r (w i)) -> 0 <= mse4 a c r p K w.
Proof.
  intros Ha Hr Hp Hw. unfold mse4. rewrite <- (dexp_zero p (units a c r w) K) at 1.
  apply dexp_mono; [exact Hp|intros k; apply units_nonneg; auto|].
  intros V N HV _. cbv beta. destruct (N =? 0)%nat eqn:E; [lra|]. apply Nat.eqb_neq in E.
  unfold Rdiv. apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat, pow_lt, lt_0_INR. lia.
Qed.

Lemma dexp_units_ext (p : R) (u u' : nat -> R * R * R) (K : nat) (g : R -> nat -> R) :
  (forall k, u k = u' k) -> dexp p u K g = dexp p u' K g.
Proof.
  intros H. revert g. induction K as [|K IH]; intros g; simpl; [reflexivity|].
  rewrite (H K). destruct (u' K) as [[v1 v2] v12]. rewrite !IH. reflexivity.
Qed.

(** *** Witness 1 (reading as printed): θ < 0 makes the printed bound negative.
    K = 1996 (n = 3992), p = 1/2, δ = 11/1000, δ1 = 1/100, α = 11 (ε_p = ln(6/5)), m = 1,
    r = r_j = 1: every displayed precondition holds ((nγ−1)(1/4 − 1/(4α²)) ≈ 159.6 ≥ 23 ln 100
    ≈ 105.9), θ ≈ −0.00025 and the printed bound is ≈ −90.9 r², below any MSE. *)

Definition mK1 : nat := 1996.

Lemma INR_3992 : INR (2 * mK1) = 3992.
Proof. unfold mK1. rewrite INR_IZR_INZ. reflexivity. Qed.

Lemma T4m_witness1_pre : thm4_pre (ln (6/5)) (11/1000) (1/100) (1/2) 1 1 (2 * mK1).
Proof.
  unfold thm4_pre. rewrite alpha_11, INR_3992. cbv zeta. unfold gamma4.
  repeat split; try lra; try lia; try (apply ln_pos_gt; lra); try interval.
  apply Rmax_le; [|interval]. replace (INR 1 / (1/100)) with 100 by (simpl; lra). interval.
Qed.

Lemma T4m_witness1_bound : t4_bound 11 1 (1/2) (11/1000) (1/100) 3992 < 0.
Proof. unfold t4_bound, gamma4, gamma4', theta4, th2_const. interval. Qed.

Theorem T4m : ~ T4m_claim.
Proof.
  intros H.
  specialize (H (ln (6/5)) (11/1000) (1/100) (1/2) 1 1 0 1%nat mK1 (fun _ => 0) T4m_witness1_pre
    ltac:(lra) ltac:(intros; unfold in_range; lra)).
  rewrite alpha_11, INR_3992 in H.
  pose proof (mse4_nonneg 11 0 1 (1/2) mK1 (fun _ => 0) ltac:(lra) ltac:(lra) ltac:(lra)
    ltac:(intros; unfold in_range; lra)).
  pose proof T4m_witness1_bound. lra.
Qed.


(** *** Witness 2 (reading with θ > 0): the bound's 1/(nθ) should be 1/(nθ²).
    K = 10000 (n = 20000), p = 9/10, δ = 1/10, δ1 = 10^-6, α = 11, m = 1, r = r_j = 1, c = 0 and
    every input w_i = c = 0. Then a client alone has MSE α² = 121 and a full pair has MSE 0, so
    the exact MSE is E(121 S/N²) (S = clients alone). By the tangent line of 1/N² at M = E(N) =
    n(1 − p) = 2000 it is ≥ E(121 S (3M − 2N))/M³ = 0.05441.., in closed form from the first
    moments; the printed bound is 0.04664... Preconditions: (nγ−1)(1/4 − 1/(4α²)) ≈ 431.0 ≥
    23 ln 10^6 ≈ 317.8, θ ≈ 0.0833 > 0. *)

Definition mK2 : nat := 10000.

Lemma INR_20000 : INR (2 * mK2) = 20000.
Proof. unfold mK2. rewrite INR_IZR_INZ. reflexivity. Qed.
Lemma INR_mK2 : INR mK2 = 10000.
Proof. unfold mK2. rewrite INR_IZR_INZ. reflexivity. Qed.

Lemma T4m_witness2_pre : thm4_pre (ln (6/5)) (1/10) (1/10^6) (9/10) 1 1 (2 * mK2).
Proof.
  unfold thm4_pre. rewrite alpha_11, INR_20000. cbv zeta. unfold gamma4.
  repeat split; try lra; try lia; try (apply ln_pos_gt; lra); try interval.
  apply Rmax_le; [|interval]. replace (INR 1 / (1/10^6)) with (10^6) by (simpl; lra). interval.
Qed.

Lemma T4m_witness2_theta : 0 < theta4 (9/10) (1/10 - 1/10^6) (INR (2 * mK2)).
Proof. rewrite INR_20000. unfold theta4. interval. Qed.

Lemma T4m_witness2_bound : t4_bound 11 1 (9/10) (1/10) (1/10^6) 20000 < 467 / 10000.
Proof. unfold t4_bound, gamma4, gamma4', theta4, th2_const. interval. Qed.

Lemma units_at_0 (k : nat) : units 11 0 1 (fun _ => 0) k = (121, 121, 0).
Proof.
  unfold units, ldpq_mse, opt_pair_mse. f_equal; [f_equal; ring|].
  replace (0 - 0 + (0 - 0)) with 0 by ring. rewrite Rabs_R0. field.
Qed.

Lemma T4m_witness2_lower : 544 / 10000 < mse4 11 0 1 (9/10) mK2 (fun _ => 0).
Proof.
  unfold mse4. rewrite (dexp_units_ext _ _ (fun _ => (121, 121, 0)) _ _ units_at_0).
  set (M := 2000).
  apply Rlt_le_trans with
    (dexp (9/10) (fun _ => (121, 121, 0)) mK2 (fun V N => 0 + 3 / M^2 * V + 0 * INR N + (- 2 / M^3) * V * INR N)).
  - rewrite dexp_affine, INR_mK2. unfold M. lra.
  - apply dexp_mono; [lra|intros k; lra|].
    intros V N HV HN. eapply Rle_trans; [|apply (tangent V M N HV ltac:(unfold M; lra) HN)].
    right. unfold M. field.
Qed.

Theorem T4m_theta_pos : ~ T4m_claim_theta_pos.
Proof.
  intros H.
  specialize (H (ln (6/5)) (1/10) (1/10^6) (9/10) 1 1 0 1%nat mK2 (fun _ => 0) T4m_witness2_pre
    T4m_witness2_theta ltac:(lra) ltac:(intros; unfold in_range; lra)).
  rewrite alpha_11, INR_20000 in H.
  pose proof T4m_witness2_lower. pose proof T4m_witness2_bound. lra.
Qed.


(** ** T4u: the UCDP conclusion

    Eq. (UCDP): P(W̄_g ∈ 𝒯) ≤ e^{ε_u} P(W̄'_g ∈ 𝒯) + δ, W̄_g = (1/n)Σ_{i=1}^n W̄_i, W̄'_g =
    (1/n)Σ_{i=2}^n W̄_i; with dropout the sums run over the clients that report. One coordinate
    (m = 1; the printed claim for all m includes it). The notions are Thm3.v's: ε_u is
    [Thm3.th3_eps_u_printed] (Eq. (th:3:1) as rendered; [th3_eps_u_source_braces] is the other
    grouping), here with Theorem 4's γ; events are functions ℝ → bool as in [Thm3.DP].

    The law. [mexp K g] = E(g(s, N)) where s is the sum of the reported outputs and N their
    number, over K pairs (client 2k and 2k+1), each client dropping independently with
    probability p: both drop (p²), one reports alone with LDPQ (claim D1), or both report with
    CorBinQ's joint law (Defs.joint of the intended Alg. 2, d shared bits).
    [mexp2] is the same with client 1 (the first client of the outermost pair) not summed: the
    partner's output is what CorBinQ (or LDPQ if client 1 dropped) produced, as Eq. (UCDP) writes.

    Counterexample (verdict: fails). The number of reports is visible in the sum when c ≠ 0:
    every output is c ± rα, so with c = 1 and nrα < 1/2 the event s ≥ K − 1/2 is N ≥ K. Removing
    client 1 removes one Bernoulli(1 − p) from N: P(N ≥ K) − P(N' ≥ K) = (1 − p)·P(Bin(n−1, 1−p)
    = K − 1). At K = 2200 (n = 4400), p = 1/2 this is C(4399, 2199)/2^4400 ≥ 1/(4√2200) > 0.0053,
    while ε_u = rα·(…) ≈ 6.5·10⁻⁶ for r = 10⁻⁶ (Eq. (th:3:1) scales with r; the mechanism's
    privacy does not) and δ = 1/500: the inequality would need P − P' ≤ (e^{ε_u} − 1) + δ < 0.0031.
    Every precondition holds: δ1 = 1/1000, ε_p = ln(6/5) (α = 11), m = 1:
    (nγ − 1)(1/4 − 1/(4α²)) ≈ 180.5 ≥ max(23 ln 1000 ≈ 158.9, 2rα). Dropouts do not save
    Theorem 3's parity/count argument: the count is random but still shifted by client 1. *)

Definition jsum (F : bool -> bool -> R) : R := F true true + F true false + F false true + F false false.

(** g after adding x to the sum and j to the count. *)
Definition shift (g : R -> nat -> R) (x : R) (j : nat) : R -> nat -> R := fun s N => g (s + x) (j + N)%nat.

Fixpoint mexp (d : nat) (e c r p : R) (w : nat -> R) (K : nat) (g : R -> nat -> R) {struct K} : R :=
  match K with
  | O => g 0 O
  | S K' =>
    let P := corbinq d e c r in let a := alpha e in
    let w1 := w (2 * K')%nat in let w2 := w (2 * K' + 1)%nat in
    let l1 := ldpq_q a c r w1 in let l2 := ldpq_q a c r w2 in
    p * p * mexp d e c r p w K' g
    + p * (1 - p) * (l2 * mexp d e c r p w K' (shift g (c + r * a) 1)
                     + (1 - l2) * mexp d e c r p w K' (shift g (c - r * a) 1))
    + (1 - p) * p * (l1 * mexp d e c r p w K' (shift g (c + r * a) 1)
                     + (1 - l1) * mexp d e c r p w K' (shift g (c - r * a) 1))
    + (1 - p) * (1 - p) * jsum (fun s1 s2 => joint d P w1 w2 s1 s2 *
                     mexp d e c r p w K' (shift g (level P s1 + level P s2) 2))
  end.

Definition mexp2 (d : nat) (e c r p : R) (w : nat -> R) (K : nat) (g : R -> nat -> R) : R :=
  match K with
  | O => g 0 O
  | S K' =>
    let P := corbinq d e c r in let a := alpha e in
    let w1 := w (2 * K')%nat in let w2 := w (2 * K' + 1)%nat in
    let l1 := ldpq_q a c r w1 in let l2 := ldpq_q a c r w2 in
    p * p * mexp d e c r p w K' g
    + p * (1 - p) * (l2 * mexp d e c r p w K' (shift g (c + r * a) 1)
                     + (1 - l2) * mexp d e c r p w K' (shift g (c - r * a) 1))
    + (1 - p) * p * (l1 * mexp d e c r p w K' g + (1 - l1) * mexp d e c r p w K' g)
    + (1 - p) * (1 - p) * jsum (fun s1 s2 => joint d P w1 w2 s1 s2 *
                     mexp d e c r p w K' (shift g (level P s2) 1))
  end.

Definition ind (b : bool) : R := if b then 1 else 0.

(** The claim, for a reading [epsf] of Eq. (th:3:1) (Thm3.v's signature: n m γ δ α r). *)
Definition T4u_claim_with (epsf : nat -> nat -> R -> R -> R -> R -> R) : Prop :=
  forall (d : nat) (e delta delta1 p r c : R) (K : nat) (w : nat -> R),
    thm4_pre e delta delta1 p r 1 (2 * K) -> (1 <= K)%nat -> (forall i, in_range c r (w i)) ->
    let n := (2 * K)%nat in
    let eps := epsf n 1%nat (gamma4 p (delta - delta1) (INR n)) delta (alpha e) r in
    forall S : R -> bool,
      mexp d e c r p w K (fun s _ => ind (S (s / INR n)))
      <= exp eps * mexp2 d e c r p w K (fun s _ => ind (S (s / INR n))) + delta.

Definition T4u_claim : Prop := T4u_claim_with th3_eps_u_printed.
Definition T4u_claim_source_braces : Prop := T4u_claim_with th3_eps_u_source_braces.

(** *** The count of reports: binomial *)

Fixpoint bexp (p : R) (n : nat) (f : nat -> R) {struct n} : R :=
  match n with O => f O | S n' => p * bexp p n' f + (1 - p) * bexp p n' (fun i => f (S i)) end.

Lemma bexp_S (p : R) (n : nat) (f : nat -> R) :
  bexp p (S n) f = p * bexp p n f + (1 - p) * bexp p n (fun i => f (S i)).
Proof. reflexivity. Qed.

Lemma bexp_ext (p : R) (n : nat) (f g : nat -> R) : (forall i, f i = g i) -> bexp p n f = bexp p n g.
Proof.
  revert f g. induction n as [|n IH]; intros f g H; simpl; [apply H|].
  rewrite (IH f g H), (IH (fun i => f (S i)) (fun i => g (S i))); auto.
Qed.

Lemma bexp_lin (p : R) (n : nat) (f g : nat -> R) (x y : R) :
  bexp p n (fun i => x * f i + y * g i) = x * bexp p n f + y * bexp p n g.
Proof.
  revert f g. induction n as [|n IH]; intros f g; simpl; [ring|]. rewrite !IH. ring.
Qed.

Lemma bexp_01 (p : R) (n : nat) (f : nat -> R) : 0 <= p <= 1 -> (forall i, 0 <= f i <= 1) -> 0 <= bexp p n f <= 1.
Proof.
  intros Hp. revert f. induction n as [|n IH]; intros f H; simpl; [apply H|].
  destruct (IH f H). destruct (IH (fun i => f (S i))); [intros; apply H|]. nra.
Qed.

Lemma joint_sum (d : nat) (P : pair) (w w' : R) : jsum (fun s1 s2 => joint d P w w' s1 s2) = 1.
Proof.
  unfold jsum, joint, avgZ. simpl sgn_prob.
  assert (E : forall f1 f2 f3 f4 : nat -> R, forall n, fsum n f1 + fsum n f2 + fsum n f3 + fsum n f4 =
             fsum n (fun z => f1 z + f2 z + f3 z + f4 z)).
  { intros. rewrite !fsum_plus. ring. }
  rewrite <- !Rdiv_plus_distr, E.
  rewrite (fsum_ext _ _ (fun _ => 1)) by (intros; ring).
  rewrite fsum_const. pose proof (nZ_pos d). field. lra.
Qed.

Lemma jsum_const (d : nat) (P : pair) (w w' x : R) : jsum (fun s1 s2 => joint d P w w' s1 s2 * x) = x.
Proof.
  pose proof (joint_sum d P w w') as H. unfold jsum in *.
  transitivity ((joint d P w w' true true + joint d P w w' true false + joint d P w w' false true
                 + joint d P w w' false false) * x); [ring|]. rewrite H. ring.
Qed.

Lemma mexp_count (d : nat) (e c r p : R) (w : nat -> R) (K : nat) (f : nat -> R) :
  mexp d e c r p w K (fun _ N => f N) = bexp p (2 * K) f.
Proof.
  revert f. induction K as [|K IH]; intros f; [reflexivity|].
  replace (2 * S K)%nat with (S (S (2 * K))) by lia. cbn [mexp bexp]. cbv zeta. unfold shift.
  rewrite !IH. rewrite (jsum_const _ _ _ _ (bexp p (2 * K) (fun N => f (2 + N)%nat))).
  simpl plus. ring.
Qed.

Lemma mexp2_count (d : nat) (e c r p : R) (w : nat -> R) (K : nat) (f : nat -> R) :
  mexp2 d e c r p w (S K) (fun _ N => f N) = bexp p (S (2 * K)) f.
Proof.
  cbn [mexp2 bexp]. cbv zeta. unfold shift. rewrite !mexp_count.
  rewrite (jsum_const _ _ _ _ (bexp p (2 * K) (fun N => f (1 + N)%nat))). simpl plus. ring.
Qed.

Ltac abs_tac := unfold Rabs in *; repeat match goal with |- context [Rcase_abs ?x] => destruct (Rcase_abs x) end;
  repeat match goal with H : context [Rcase_abs ?x] |- _ => destruct (Rcase_abs x) end; lra.

(** Functions that agree wherever |s − N c| ≤ N rα (every reachable (s, N)) have equal means. *)
Lemma mexp_inv (d : nat) (e c r p : R) (w : nat -> R) (K : nat) (g h : R -> nat -> R) :
  0 <= r * alpha e ->
  (forall s N, Rabs (s - INR N * c) <= INR N * (r * alpha e) -> g s N = h s N) ->
  mexp d e c r p w K g = mexp d e c r p w K h.
Proof.
  intros Hra. revert g h. induction K as [|K IH]; intros g h H.
  - simpl. apply H. simpl. rewrite Rmult_0_l, Rminus_0_r, Rabs_R0. lra.
  - assert (Sh : forall (x : R) (j : nat), Rabs (x - INR j * c) <= INR j * (r * alpha e) ->
      mexp d e c r p w K (shift g x j) = mexp d e c r p w K (shift h x j)).
    { intros x j Hx. apply IH. intros s N HN. unfold shift. apply H. rewrite plus_INR.
      replace (s + x - (INR j + INR N) * c) with ((s - INR N * c) + (x - INR j * c)) by ring.
      eapply Rle_trans; [apply Rabs_triang|]. lra. }
    cbn [mexp]. cbv zeta. unfold jsum. cbn [level corbinq phi plo].
    rewrite (IH g h H), !Sh; try reflexivity; simpl INR; abs_tac.
Qed.

Lemma mexp2_inv (d : nat) (e c r p : R) (w : nat -> R) (K : nat) (g h : R -> nat -> R) :
  0 <= r * alpha e ->
  (forall s N, Rabs (s - INR N * c) <= INR N * (r * alpha e) -> g s N = h s N) ->
  mexp2 d e c r p w (S K) g = mexp2 d e c r p w (S K) h.
Proof.
  intros Hra H.
  assert (Sh : forall (x : R) (j : nat), Rabs (x - INR j * c) <= INR j * (r * alpha e) ->
      mexp d e c r p w K (shift g x j) = mexp d e c r p w K (shift h x j)).
  { intros x j Hx. apply mexp_inv; [exact Hra|]. intros s N HN. unfold shift. apply H. rewrite plus_INR.
    replace (s + x - (INR j + INR N) * c) with ((s - INR N * c) + (x - INR j * c)) by ring.
    eapply Rle_trans; [apply Rabs_triang|]. lra. }
  cbn [mexp2]. cbv zeta. unfold jsum. cbn [level corbinq phi plo].
  rewrite (mexp_inv d e c r p w K g h Hra H), !Sh; try reflexivity; simpl INR; abs_tac.
Qed.

(** *** Binomial point probabilities at p = 1/2 and the central term *)

Lemma bexp_const (p : R) (n : nat) (x : R) : bexp p n (fun _ => x) = x.
Proof. induction n as [|n IH]; simpl; [reflexivity|]. rewrite IH. ring. Qed.

Lemma C_n_0 (n : nat) : C n 0 = 1.
Proof. unfold C. rewrite Nat.sub_0_r. simpl (fact 0). pose proof (INR_fact_neq_0 n). simpl (INR 1). field. auto. Qed.
Lemma C_n_n (n : nat) : C n n = 1.
Proof. unfold C. rewrite Nat.sub_diag. simpl (fact 0). pose proof (INR_fact_neq_0 n). simpl (INR 1). field. auto. Qed.

Lemma bexp_point (n j : nat) :
  bexp (1/2) n (fun i => ind (i =? j)%nat) = (if (j <=? n)%nat then C n j else 0) / 2 ^ n.
Proof.
  revert j. induction n as [|n IH]; intros j.
  - destruct j as [|j]; simpl; [rewrite C_n_0|]; unfold ind; simpl; field.
  - cbn [bexp]. destruct j as [|j].
    + rewrite (bexp_ext _ _ (fun i => ind (S i =? 0)%nat) (fun _ => 0)) by (intros; reflexivity).
      rewrite bexp_const, IH. simpl Nat.leb. rewrite !C_n_0. cbv iota. simpl pow. field. apply pow_nonzero. lra.
    + rewrite (bexp_ext _ _ (fun i => ind (S i =? S j)%nat) (fun i => ind (i =? j)%nat)) by (intros; reflexivity).
      rewrite !IH. pose proof (pow_lt 2 n ltac:(lra)).
      destruct (le_lt_dec (S j) n) as [L|L].
      * assert (E1 : (S j <=? n)%nat = true) by (apply Nat.leb_le; lia).
        assert (E2 : (j <=? n)%nat = true) by (apply Nat.leb_le; lia).
        assert (E3 : (S j <=? S n)%nat = true) by (apply Nat.leb_le; lia).
        rewrite E1, E2, E3, <- (pascal n j) by lia. simpl pow. field. lra.
      * destruct (Nat.eq_dec j n) as [->|N].
        -- assert (E1 : (S n <=? n)%nat = false) by (apply Nat.leb_gt; lia).
           rewrite E1, Nat.leb_refl, (Nat.leb_refl (S n)), !C_n_n. simpl pow. field. lra.
        -- assert (E1 : (S j <=? n)%nat = false) by (apply Nat.leb_gt; lia).
           assert (E2 : (j <=? n)%nat = false) by (apply Nat.leb_gt; lia).
           assert (E3 : (S j <=? S n)%nat = false) by (apply Nat.leb_gt; lia).
           rewrite E1, E2, E3. simpl pow. field. lra.
Qed.

(** cb K = P(Bin(2K + 1, 1/2) = K) = C(2K+1, K)/2^(2K+1), and cb K² ≥ 1/(4(K + 1)). *)
Definition cb (K : nat) : R := C (S (2 * K)) K / 2 ^ (S (2 * K)).

Lemma cb_step (K : nat) : cb (S K) = cb K * (2 * INR K + 3) / (2 * INR K + 4).
Proof.
  unfold cb, C.
  replace (S (2 * S K) - S K)%nat with (S (S K)) by lia. replace (S (2 * K) - K)%nat with (S K) by lia.
  replace (S (2 * S K)) with (S (S (S (2 * K)))) by lia.
  rewrite (fact_simpl (S (S (2 * K)))), (fact_simpl (S (2 * K))), (fact_simpl (S K)), (fact_simpl K).
  rewrite !mult_INR. rewrite !S_INR, !mult_INR.
  pose proof (INR_fact_neq_0 K). pose proof (INR_fact_neq_0 (S (2 * K))). pose proof (pos_INR K).
  simpl pow. simpl (INR 2). field. repeat split; try lra; apply pow_nonzero; lra.
Qed.

Lemma cb_sq (K : nat) : 1 / (4 * INR (S K)) <= cb K ^ 2.
Proof.
  induction K as [|K IH].
  - unfold cb. simpl (S (2 * 0)). unfold C. simpl. lra.
  - rewrite cb_step, !S_INR. rewrite S_INR in IH. pose proof (pos_INR K) as P.
    set (k := INR K) in *. set (t := cb K) in *.
    replace ((t * (2 * k + 3) / (2 * k + 4)) ^ 2) with (t ^ 2 * ((2 * k + 3) ^ 2 / (2 * k + 4) ^ 2)) by (field; lra).
    apply Rle_trans with (1 / (4 * (k + 1)) * ((2 * k + 3) ^ 2 / (2 * k + 4) ^ 2)).
    + assert (E : 1 / (4 * (k + 1)) * ((2 * k + 3) ^ 2 / (2 * k + 4) ^ 2) - 1 / (4 * (k + 1 + 1))
                  = 1 / (4 * (k + 1) * (2 * k + 4) ^ 2)) by (field; lra).
      assert (0 < 1 / (4 * (k + 1) * (2 * k + 4) ^ 2)) by (apply Rdiv_lt_0_compat; [lra|]; apply Rmult_lt_0_compat; [lra|]; apply pow_lt; lra).
      lra.
    + apply Rmult_le_compat_r; [|exact IH]. apply Rmult_le_pos; [apply pow2_ge_0|].
      apply Rlt_le, Rinv_0_lt_compat, pow_lt. lra.
Qed.

Lemma cb_nonneg (K : nat) : 0 <= cb K.
Proof.
  unfold cb, C. apply Rmult_le_pos; [apply Rmult_le_pos|].
  - apply pos_INR.
  - apply Rlt_le, Rinv_0_lt_compat, Rmult_lt_0_compat; apply INR_fact_lt_0.
  - apply Rlt_le, Rinv_0_lt_compat, pow_lt. lra.
Qed.

Lemma ind_step (K i : nat) : ind (S K <=? S i)%nat - ind (S K <=? i)%nat = ind (i =? K)%nat.
Proof.
  unfold ind. destruct (S K <=? S i)%nat eqn:E1; destruct (S K <=? i)%nat eqn:E2; destruct (i =? K)%nat eqn:E3;
    try ring; exfalso;
    (apply Nat.leb_le in E1 || apply Nat.leb_gt in E1); (apply Nat.leb_le in E2 || apply Nat.leb_gt in E2);
    (apply Nat.eqb_eq in E3 || apply Nat.eqb_neq in E3); lia.
Qed.

(** World 1 minus world 2 for the event "at least K + 1 reports", K + 1 pairs, p = 1/2. *)
Lemma count_gap (d : nat) (e c r : R) (w : nat -> R) (K : nat) :
  mexp d e c r (1/2) w (S K) (fun _ N => ind (S K <=? N)%nat) =
  mexp2 d e c r (1/2) w (S K) (fun _ N => ind (S K <=? N)%nat) + 1/2 * cb K.
Proof.
  rewrite mexp_count, mexp2_count. replace (2 * S K)%nat with (S (S (2 * K))) by lia.
  rewrite (bexp_S (1/2) (S (2 * K))).
  pose proof (bexp_lin (1/2) (S (2 * K)) (fun i => ind (S K <=? S i)%nat) (fun i => ind (S K <=? i)%nat) 1 (-1)) as L.
  cbv beta in L.
  rewrite (bexp_ext (1/2) (S (2 * K)) (fun i => 1 * ind (S K <=? S i)%nat + (-1) * ind (S K <=? i)%nat)
             (fun i => ind (i =? K)%nat)) in L by (intros i; rewrite <- ind_step; ring).
  rewrite bexp_point, (proj2 (Nat.leb_le K (S (2 * K))) ltac:(lia)) in L. fold (cb K) in L.
  lra.
Qed.

(** *** The witness: K = 2200 (n = 4400), p = 1/2, δ = 1/500, δ1 = 1/1000, α = 11, r = 10⁻⁶, c = 1 *)

Definition uK : nat := 2200.

Lemma INR_4400 : INR (2 * uK) = 4400.
Proof. unfold uK. rewrite INR_IZR_INZ. reflexivity. Qed.

Lemma T4u_witness_pre : thm4_pre (ln (6/5)) (1/500) (1/1000) (1/2) (1/10^6) 1 (2 * uK).
Proof.
  unfold thm4_pre. rewrite alpha_11, INR_4400. cbv zeta. unfold gamma4.
  repeat split; try lra; try lia; try (apply ln_pos_gt; lra); try interval.
  apply Rmax_le; [|interval]. replace (INR 1 / (1/1000)) with 1000 by (simpl; lra). interval.
Qed.

Lemma T4u_eps_small :
  th3_eps_u_printed (2 * uK) 1 (gamma4 (1/2) (1/500 - 1/1000) (INR (2 * uK))) (1/500) 11 (1/10^6) <= 1/1000 /\
  th3_eps_u_source_braces (2 * uK) 1 (gamma4 (1/2) (1/500 - 1/1000) (INR (2 * uK))) (1/500) 11 (1/10^6) <= 1/1000.
Proof.
  unfold th3_eps_u_printed, th3_eps_u_source_braces, th3_b_p, th3_e_p, gamma4. rewrite INR_4400.
  replace (INR 1) with 1 by reflexivity. cbv zeta. split; interval.
Qed.

(** The event "n W̄_g ≥ K − 1/2", i.e. at least K reports. *)
Definition T4u_event (x : R) : bool := if Rle_dec (4399 / 2 / 4400) x then true else false.

Lemma T4u_event_count (s : R) (N : nat) :
  Rabs (s - INR N * 1) <= INR N * (1/10^6 * 11) ->
  ind (T4u_event (s / INR (2 * uK))) = ind (uK <=? N)%nat.
Proof.
  intros H. rewrite INR_4400. unfold T4u_event, uK.
  assert (A : - (INR N * (1/10^6 * 11)) <= s - INR N * 1 <= INR N * (1/10^6 * 11)).
  { unfold Rabs in H. destruct (Rcase_abs (s - INR N * 1)); split; lra. }
  destruct (le_lt_dec 2200 N) as [L|L].
  - rewrite (proj2 (Nat.leb_le 2200 N) L). apply le_INR in L.
    replace (INR 2200) with 2200 in L by (rewrite INR_IZR_INZ; reflexivity).
    destruct (Rle_dec (4399 / 2 / 4400) (s / 4400)); [reflexivity|]. exfalso. lra.
  - rewrite (proj2 (Nat.leb_gt 2200 N) L). assert (L' : (N <= 2199)%nat) by lia. apply le_INR in L'.
    replace (INR 2199) with 2199 in L' by (rewrite INR_IZR_INZ; reflexivity).
    pose proof (pos_INR N).
    destruct (Rle_dec (4399 / 2 / 4400) (s / 4400)); [|reflexivity]. exfalso. lra.
Qed.

Lemma T4u_refute (epsf : nat -> nat -> R -> R -> R -> R -> R) :
  epsf (2 * uK)%nat 1%nat (gamma4 (1/2) (1/500 - 1/1000) (INR (2 * uK))) (1/500) 11 (1/10^6) <= 1/1000 ->
  ~ T4u_claim_with epsf.
Proof.
  intros Heps H.
  specialize (H 0%nat (ln (6/5)) (1/500) (1/1000) (1/2) (1/10^6) 1 uK (fun _ => 1) T4u_witness_pre
    ltac:(unfold uK; lia) ltac:(intros; unfold in_range; lra) T4u_event).
  cbv zeta in H. rewrite alpha_11 in H.
  set (eps := epsf (2 * uK)%nat 1%nat (gamma4 (1/2) (1/500 - 1/1000) (INR (2 * uK))) (1/500) 11 (1/10^6)) in *.
  assert (Hra : 0 <= 1/10^6 * alpha (ln (6/5))) by (rewrite alpha_11; lra).
  assert (Inv : forall s N, Rabs (s - INR N * 1) <= INR N * (1/10^6 * alpha (ln (6/5))) ->
      (fun s _ => ind (T4u_event (s / INR (2 * uK)))) s N = (fun _ N => ind (uK <=? N)%nat) s N).
  { intros s N. rewrite alpha_11. apply T4u_event_count. }
  rewrite (mexp_inv _ _ _ _ _ _ _ _ _ Hra Inv) in H.
  change uK with (S 2199) in H. rewrite (mexp2_inv _ _ _ _ _ _ _ _ _ Hra Inv) in H.
  change uK with (S 2199) in H. rewrite count_gap in H.
  set (A := mexp2 0 (ln (6/5)) 1 (1/10^6) (1/2) (fun _ => 1) (S 2199) (fun _ N => ind (S 2199 <=? N)%nat)) in H.
  assert (HA : 0 <= A <= 1).
  { unfold A. rewrite mexp2_count. apply bexp_01; [lra|]. intros i. unfold ind. destruct (_ <=? _)%nat; lra. }
  pose proof (cb_sq 2199) as C1. pose proof (cb_nonneg 2199) as C2.
  replace (INR 2200) with 2200 in C1 by (rewrite INR_IZR_INZ; reflexivity).
  assert (C3 : 106 / 10000 <= cb 2199) by nra.
  assert (E : exp eps <= 10011 / 10000).
  { apply Rle_trans with (exp (1/1000)).
    - destruct (Req_dec eps (1/1000)) as [->|N]; [lra|]. left. apply exp_increasing. lra.
    - interval. }
  assert (exp eps * A <= 10011 / 10000 * A) by (apply Rmult_le_compat_r; lra).
  lra.
Qed.

Theorem T4u : ~ T4u_claim.
Proof. apply T4u_refute. exact (proj1 T4u_eps_small). Qed.

Theorem T4u_source_braces : ~ T4u_claim_source_braces.
Proof. apply T4u_refute. exact (proj2 T4u_eps_small). Qed.

(** ** All verdicts of this file (Verdicts.v pins each; its [Print Assumptions] covers them). *)
Theorem Thm4_verdicts :
  ~ T4_step_claim /\ ~ T4m_claim /\ ~ T4m_claim_theta_pos /\ ~ T4u_claim /\ ~ T4u_claim_source_braces.
Proof. exact (conj T4_step (conj T4m (conj T4m_theta_pos (conj T4u T4u_source_braces)))). Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Thm4_theorems :=
  (@T4_step,
   @T4m,
   @T4m_theta_pos,
   @T4u,
   @T4u_source_braces,
   @Thm4_verdicts).
Print Assumptions Thm4_theorems.
