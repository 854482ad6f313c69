(** * C1 — "The aggregate communication complexity per round is O(dmk + nk)"

    Where. Section "Communication Cost" (after Theorem 4): "The DH protocol has uplink and
    downlink communication cost of O(nk) bits per client, where k represents the DH key size.
    Then, the leaders in each pair of clients generate a d-length binary symmetric random vector,
    and encrypt and transmit the vector to the follow, which requires O(dmk) bits of uplink and
    downlink communication. Each client applies CorBinQ and uploads the quantized updated model
    to the server, with O(m) bits of uplink communication. The aggregate communication
    complexity per round is O(dmk + nk)." Symbols: m = number of model parameters (Section 2.1),
    d = shared bits per parameter, k = DH key size, n = number of clients. The model download
    (O(32m), the same for every mechanism) is left out here, as in the sentence's sum.

    What the implemented protocol sends plus receives per client per round (src/corbin/fl/protocol,
    counted by proofs-check/check_c1.cpp, both roles alike): its own and its partner's public key
    (2k; X25519, k = 256), the leader election (one sealed byte each way: E = 2·(8 + 128) = 272
    bits), Z as ⌈dm/8⌉ bytes plus a τ = 128-bit tag (or nothing when Z is derived from the agreed
    key), and the m-bit update rounded up to whole bytes. With 8 | dm and 8 | m this is
    dm + m + 2k + 400 (Z exchanged) or m + 2k + 272 (Z derived). E and τ are parameters below.

    Readings and verdicts.
    - C1_claim_O (per client, d ≥ 1, O with a constant independent of d, m, n, k): holds
      (proved), C = E + τ + 16, also for Alg. 3's all-pairs key exchange (2(n − 1)k key bits).
      The bound is loose: the count is also O(dm + k) (no n, no factor k on dm); the claimed
      expression puts a factor k on the dm bits of Z (a stream cipher does not expand Z), and the
      ratio claimed/counted is unbounded (C1_overstated).
    - C1_claim_O_d0 (the same with d = 0 allowed, the paper's "if d = 0 CorBin-FL reduces to
      LDP-FL"): fails: at d = 0 the m-bit upload is not covered by nk (witness d = 0, n = k = 1,
      m = 8(C + 1)). Holds only under d ≥ 1.
    - C1_claim_all_clients (the count summed over all n clients, what the server relays, bounded by
      O(dmk + nk)): fails. Witness for a given C: k = 256, d = 1, n = m = 512(C + 1). The paper's
      own per-client wording ("O(nk) bits per client") points to the per-client reading.
    - C1_claim_literal (constant 1: count ≤ dmk + nk at the implemented constants k = 256,
      E = 272, τ = 128): holds only under dm + n ≥ 4; fails at d = m = 1, n = 2 (928 > 768). *)

From Coq Require Import Arith Lia.

(** ** The count *)

(** x bits sent as whole bytes. *)
Definition ru8 (x : nat) : nat := (x + 7) / 8 * 8.

Lemma ru8_bounds (x : nat) : x <= ru8 x <= x + 7.
Proof.
  unfold ru8. pose proof (Nat.div_mod (x + 7) 8 ltac:(lia)) as D.
  pose proof (Nat.mod_upper_bound (x + 7) 8 ltac:(lia)). lia.
Qed.

Lemma ru8_exact (q : nat) : ru8 (8 * q) = 8 * q.
Proof.
  unfold ru8. replace (8 * q + 7) with (7 + q * 8) by lia. rewrite Nat.div_add by lia.
  simpl. lia.
Qed.

(** Bits per client per round: keys 2k, election E, Z in bytes plus a tag τ, the update in bytes. *)
Definition counted_exchanged (E tau d m k : nat) : nat := 2 * k + E + (ru8 (d * m) + tau) + ru8 m.
Definition counted_derived (E m k : nat) : nat := 2 * k + E + ru8 m.
(** Alg. 3 as printed exchanges keys with all n − 1 other clients. *)
Definition counted_allpairs (E tau d m n k : nat) : nat :=
  2 * (n - 1) * k + E + (ru8 (d * m) + tau) + ru8 m.

(** The implemented constants: X25519 keys, the election's two sealed bytes, the Poly1305 tag. *)
Definition k_impl : nat := 256.
Definition E_impl : nat := 272.
Definition tau_impl : nat := 128.

(** The claimed expression, dmk + nk. *)
Definition claimed (d m n k : nat) : nat := d * m * k + n * k.

(** With whole bytes the count is dm + m + 2k + E + τ, i.e. dm + m + 2k + 400 as implemented. *)
Lemma counted_closed_form (E tau d m k p q : nat) : d * m = 8 * p -> m = 8 * q ->
  counted_exchanged E tau d m k = d * m + m + 2 * k + E + tau /\
  counted_derived E m k = m + 2 * k + E.
Proof.
  intros Hp Hq. unfold counted_exchanged, counted_derived.
  rewrite Hp, Hq, !ru8_exact. rewrite <- Hp, <- Hq. lia.
Qed.

Lemma counted_impl (d m k p q : nat) : d * m = 8 * p -> m = 8 * q ->
  counted_exchanged E_impl tau_impl d m k = d * m + m + 2 * k + 400 /\
  counted_derived E_impl m k = m + 2 * k + 272.
Proof. intros Hp Hq. destruct (counted_closed_form E_impl tau_impl d m k p q Hp Hq). unfold E_impl, tau_impl in *. lia. Qed.

(** ** Reading 1: per client, d ≥ 1 — holds *)

Definition C1_claim_O (E tau : nat) : Prop :=
  exists C, forall d m n k, 1 <= d -> 1 <= m -> 1 <= n -> 1 <= k ->
    counted_exchanged E tau d m k <= C * claimed d m n k /\
    counted_derived E m k <= C * claimed d m n k /\
    counted_allpairs E tau d m n k <= C * claimed d m n k.

Theorem C1_O (E tau : nat) : C1_claim_O E tau.
Proof.
  exists (E + tau + 16). intros d m n k Hd Hm Hn Hk.
  unfold counted_exchanged, counted_derived, counted_allpairs, claimed.
  pose proof (ru8_bounds (d * m)). pose proof (ru8_bounds m).
  set (X := E + tau) in *.
  assert (P1 : 1 <= d * m * k) by nia. assert (P2 : m <= d * m) by nia.
  assert (P3 : d * m <= d * m * k) by nia. assert (P4 : k <= n * k) by nia.
  assert (P5 : X <= X * (d * m * k)) by nia.
  assert (P6 : 2 * (n - 1) * k <= 2 * (n * k)) by nia.
  assert (P7 : E <= X) by (unfold X; lia).
  repeat split; nia.
Qed.

(** The count is also O(dm + k): no n (only the partner's key is needed) and no factor k on dm. *)
Theorem C1_tight (E tau : nat) : forall d m k, 1 <= d -> 1 <= k ->
  counted_exchanged E tau d m k <= (E + tau + 16) * (d * m + k).
Proof.
  intros d m k Hd Hk. unfold counted_exchanged.
  pose proof (ru8_bounds (d * m)). pose proof (ru8_bounds m).
  assert (m <= d * m) by nia. nia.
Qed.

(** The claimed expression's dm term is k times the dm bits of Z the protocol sends. *)
Lemma C1_dm_term (d m n k : nat) : claimed d m n k = k * (d * m) + n * k.
Proof. unfold claimed. lia. Qed.

(** The claimed expression overstates the count by an unbounded factor: for any C, d = 1,
    n = 1, k = m = M = 8(C + 50): the claim is M² + M and the count 4M + 400. *)
Theorem C1_overstated (E tau : nat) : E = E_impl -> tau = tau_impl ->
  forall C, exists d m n k, 1 <= d /\ 1 <= m /\ 1 <= n /\ 1 <= k /\
    C * counted_exchanged E tau d m k < claimed d m n k.
Proof.
  intros HE Ht C. subst. exists 1, (8 * (C + 50)), 1, (8 * (C + 50)).
  repeat split; try lia.
  unfold counted_exchanged, claimed. rewrite Nat.mul_1_l, !ru8_exact.
  unfold E_impl, tau_impl. nia.
Qed.

(** ** Reading 2: d = 0 allowed — fails (the m-bit upload is not covered by nk) *)

Definition C1_claim_O_d0 (E tau : nat) : Prop :=
  exists C, forall d m n k, 1 <= m -> 1 <= n -> 1 <= k ->
    counted_exchanged E tau d m k <= C * claimed d m n k.

Theorem C1_d0 (E tau : nat) : ~ C1_claim_O_d0 E tau.
Proof.
  intros [C H]. specialize (H 0 (8 * (C + 1)) 1 1 ltac:(lia) ltac:(lia) ltac:(lia)).
  unfold counted_exchanged, claimed in H. rewrite Nat.mul_0_l, ru8_exact in H.
  replace (ru8 0) with 0 in H by reflexivity. nia.
Qed.

(** ** Reading 3: summed over all n clients — fails *)

Definition C1_claim_all_clients (E tau : nat) : Prop :=
  exists C, forall d m n k, 1 <= d -> 1 <= m -> 1 <= n -> 1 <= k ->
    n * counted_exchanged E tau d m k <= C * claimed d m n k.

Theorem C1_all_clients (E tau : nat) : ~ C1_claim_all_clients E tau.
Proof.
  intros [C H]. set (N := 512 * (C + 1)).
  specialize (H 1 N N 256 ltac:(lia) ltac:(unfold N; lia) ltac:(unfold N; lia) ltac:(lia)).
  unfold counted_exchanged, claimed in H. rewrite Nat.mul_1_l in H.
  pose proof (ru8_bounds N). unfold N in *. nia.
Qed.

(** ** Reading 4: constant 1, the implemented constants — holds only under dm + n ≥ 4 *)

Definition C1_claim_literal : Prop :=
  forall d m n, 1 <= d -> 1 <= m -> 2 <= n ->
    counted_exchanged E_impl tau_impl d m k_impl <= claimed d m n k_impl.

Theorem C1_literal_fails : ~ C1_claim_literal /\
  counted_exchanged E_impl tau_impl 1 1 k_impl = 928 /\ claimed 1 1 2 k_impl = 768.
Proof.
  assert (A : counted_exchanged E_impl tau_impl 1 1 k_impl = 928) by reflexivity.
  assert (B : claimed 1 1 2 k_impl = 768) by reflexivity.
  split; [|split; assumption].
  intros H. specialize (H 1 1 2 ltac:(lia) ltac:(lia) ltac:(lia)). lia.
Qed.

Theorem C1_literal_under (d m n : nat) : 1 <= d -> 1 <= m -> 4 <= d * m + n ->
  counted_exchanged E_impl tau_impl d m k_impl <= claimed d m n k_impl.
Proof.
  intros Hd Hm H4. unfold counted_exchanged, claimed, E_impl, tau_impl, k_impl.
  pose proof (ru8_bounds (d * m)). pose proof (ru8_bounds m). assert (m <= d * m) by nia. nia.
Qed.

(** The assumptions of this file's theorems, printed once for all of them (check.sh reads the
    output: only the reals' axioms and coq-interval's primitive specifications may appear). *)
Definition Comm_theorems :=
  (@C1_O,
   @C1_tight,
   @C1_overstated,
   @C1_d0,
   @C1_all_clients,
   @C1_literal_fails,
   @C1_literal_under).
Print Assumptions Comm_theorems.
