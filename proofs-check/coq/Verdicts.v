(** * Verdicts — one pinned theorem per decided reading

    Each line below is read by `corbin audit` (proofs-check/coq_evidence.cpp) and by the
    independent rechecker: `holds__ID__key : S` proves the reading's statement S, and
    `fails__ID__key : ~ S` refutes it, so the direction of every verdict is Coq's type, not a word
    in the report. Statements are named in the claims' files; the few that a file states only as
    the type of its theorem are named here first, with the glue lemma that proves them.
    Names are qualified by their file so that an auditor finds each one at once. *)

From Coq Require Import Reals Lra Lia.
From Corbin Require Defs Alpha Facts Neighbours Adaptive P1 T1a Thm1 FreeLevels Optimal D0 A2 Worst Thm23 Aggregate
  Reference Eavesdrop Gauss Comm X8 Thm3 Thm4 Thm4Large Errata B1.
Import Corbin.Defs.
Open Scope R_scope.

(** ** Statements named here (their files state them as theorem types) *)

Definition P1_claim : Prop := forall e c r, 0 < e -> 0 < c -> 0 < r ->
  C1 c r (LDPQ e c r) /\ C2 c r e (LDPQ e c r) /\ C3 c r e (LDPQ e c r) /\
  (forall Q, C1 c r Q -> C2 c r e Q -> C3 c r e Q -> same_law c r Q (LDPQ e c r)).

Definition T1a_claim_intended : Prop := forall (d : nat) (e c r : R), 0 < e -> 0 < c -> 0 < r ->
  in_Q d c r e (corbinq d e c r).

Definition D0_claim : Prop := forall e c r w w' s1 s2, 0 < e -> 0 < r -> in_range c r w -> in_range c r w' ->
  joint 0 (corbinq 0 e c r) w w' s1 s2 = ldpq_pair_joint e c r w w' s1 s2.

(** C1 with the implementation's constants (272 bits of election messages, 128-bit tags). *)
Definition C1_claim : Prop := Comm.C1_claim_O Comm.E_impl Comm.tau_impl.
Lemma C1_implemented : C1_claim.
Proof. exact (Comm.C1_O Comm.E_impl Comm.tau_impl). Qed.
(** The sentence's "aggregate" reading: the count summed over all n clients. *)
Definition C1_claim_aggregate : Prop := Comm.C1_claim_all_clients Comm.E_impl Comm.tau_impl.
Lemma C1_aggregate_fails : ~ C1_claim_aggregate.
Proof. exact (Comm.C1_all_clients Comm.E_impl Comm.tau_impl). Qed.

(** G1: some noise level σ > 0 makes the Gaussian mechanism ε-PLDP in the sense of Eq. (LDP), for
    every ε, c, r (the paper's "equal PLDP budgets"). Refuted at ε = 1, c = r = 1 for every σ. *)
Definition G1_claim : Prop := forall e c r, 0 < e -> 0 < r -> exists s, 0 < s /\ Gauss.G1_claim_intervals e c r s.
Lemma G1_no_sigma : ~ G1_claim.
Proof.
  intros H. destruct (H 1 1 1 ltac:(lra) ltac:(lra)) as [s [Hs P]].
  exact (Gauss.G1 1 1 1 s ltac:(lra) ltac:(lra) Hs P).
Qed.

(** Theorem 2's proof, Appendix C: the step (1/n²) Σ_{i≠i′} Cov(W̄_i, W̄_i′) = (1/(2n²)) Σ_i
    Cov(W̄_i, W̄_{p_i}), for CorBin-FL's aggregate (Errata.cbfl_model: n = 2p clients in p pairs,
    each pair with CorBinQ's joint law at d shared bits, the pairs independent), every d, ε > 0,
    c, r > 0 and all inputs in range; the covariances are those of the product law. Only
    partners are correlated, so the left side is S/n² with S = Σ_i Cov(W̄_i, W̄_{p_i}) (Errata
    E7, [Errata.E7_cbfl]); S ≠ 0 at d = 1 with every input at c ([Errata.E7_cbfl_center]). *)
Definition T2b_covariance_step_claim : Prop :=
  forall (d p : nat) (e c r : R) (y1 y2 : nat -> R), 0 < e -> 0 < c -> 0 < r -> (1 <= p)%nat ->
  Errata.inputs_in_range c r p y1 y2 ->
  let M := Errata.cbfl_model d e c r p y1 y2 in
  Errata.pm_cross_cov M / INR (2 * p) ^ 2 = Errata.cov_term_as_printed (INR (2 * p)) (Errata.pm_partner_cov M).
Lemma T2b_covariance_step_fails : ~ T2b_covariance_step_claim.
Proof.
  intros H. destruct (Errata.E7_cbfl_center 1 1 1 1 ltac:(lra) ltac:(lra) ltac:(lia)) as [_ [_ [D _]]].
  apply D, (H 1%nat 1%nat 1 1 1 (fun _ => 1) (fun _ => 1)); [lra|lra|lra|lia|].
  intros j _. split; unfold in_range; lra.
Qed.

(** ** The pins *)

(** The accountant's reduction (privacy/worst_case/neighbours.hpp, Lemmas 1 and 2), on which its certified
    bounds and the exact worst cases of T3 and S1 rest: whatever the other LDPQ clients' inputs,
    j of them at c + r and the rest at c − r is at least as bad, for every e^ε. *)
Theorem holds__ACC__ldpq_others_at_ends : Neighbours.ldpq_others_at_ends_claim.
Proof. exact Neighbours.ldpq_others_at_ends. Qed.

(** The accountant's search of the adversary's choices over uses (privacy/pld/adaptive_program.hpp):
    the hockey-stick of any adaptive strategy's transcript is at most the Bellman value, which one
    strategy attains; the value's properties, and that splitting atoms, moving mass, and a pair
    whose profile dominates each member's, only raise it. *)
Theorem holds__ACC__adaptive_program : Adaptive.adaptive_program_claim.
Proof. exact Adaptive.adaptive_program. Qed.

Theorem holds__P1__printed : P1_claim. Proof. exact P1.P1. Qed.
Theorem fails__A2__printed : ~ A2.A2_claim. Proof. exact A2.A2. Qed.
Theorem holds__A2__intended : T1a_claim_intended. Proof. exact T1a.T1a_intended. Qed.
Theorem fails__T1a__printed : ~ A2.A2_claim. Proof. exact A2.A2. Qed.
Theorem holds__T1a__intended : T1a_claim_intended. Proof. exact T1a.T1a_intended. Qed.
Theorem fails__T1b__printed : ~ Thm1.T1b_claim. Proof. exact FreeLevels.T1b_fails. Qed.
Theorem fails__T1b__range_intended : ~ Thm1.T1b_claim_range_intended. Proof. exact FreeLevels.T1b_range_intended_fails. Qed.
Theorem holds__T1b__levels : Thm1.T1b_claim_levels. Proof. exact Optimal.T1b_levels. Qed.
Theorem holds__T1b__gap_to_limit : forall (d : nat) (e c r : R), 0 < e -> 0 < r -> forall w w', in_range c r w -> in_range c r w' -> pair_mse d (corbinq d e c r) w w' - Optimal.m_inf e c r w w' <= Thm1.thm1_bound d e r / 32. Proof. exact Optimal.T1b_gap_to_limit. Qed.
Theorem fails__T1c__finite_d : ~ Thm1.T1c_claim. Proof. exact FreeLevels.T1c_fails. Qed.
Theorem holds__T1c__levels : Thm1.T1c_claim_levels. Proof. exact Optimal.T1c_levels. Qed.
Theorem fails__T1u__printed : ~ Thm1.T1u_claim. Proof. exact FreeLevels.T1u_fails. Qed.
Theorem fails__T1u__abstract : ~ Thm1.T1u_claim. Proof. exact FreeLevels.T1u_fails. Qed.
Theorem holds__T1u__levels : Thm1.T1u_claim_levels. Proof. exact Optimal.T1u_levels. Qed.
Theorem holds__T1u__limit : forall (e c r : R), 0 < e -> 0 < r -> forall eta, 0 < eta -> exists D : nat, forall d, (D <= d)%nat -> forall w w', in_range c r w -> in_range c r w' -> 0 <= pair_mse d (corbinq d e c r) w w' - Optimal.m_inf e c r w w' <= eta. Proof. exact Optimal.corbinq_uniform_limit. Qed.
Theorem fails__T2a__printed : ~ Aggregate.T2a_claim_as_printed. Proof. exact Aggregate.T2a_as_printed. Qed.
Theorem holds__T2a__intended : Aggregate.T2a_claim_intended. Proof. exact Aggregate.T2a_intended. Qed.
Theorem holds__T2b__intended : Thm23.T2b_claim. Proof. exact Thm23.T2b_holds. Qed.
Theorem fails__T2b__covariance_step : ~ T2b_covariance_step_claim. Proof. exact T2b_covariance_step_fails. Qed.
Theorem fails__T2c__printed : ~ Thm23.T2c_claim_per_input_every_eps. Proof. exact Thm23.T2c_per_input_every_eps_fails. Qed.
Theorem holds__T2c__regime : Thm23.T2c_claim_per_input_regime. Proof. exact Thm23.T2c_per_input_regime_holds. Qed.
Theorem holds__T2c__worst_case : Thm23.T2c_claim_worst_case. Proof. exact Thm23.T2c_worst_case_holds. Qed.
Theorem fails__T3__remove_one : ~ Thm3.T3_claim_remove_one. Proof. exact Thm3.T3_remove_one_fails. Qed.
Theorem fails__T3m__printed : ~ Thm23.T3m_claim_floor. Proof. exact Thm23.T3m_floor_fails. Qed.
Theorem holds__T3m__exact_split : Thm23.T3m_claim_exact_split. Proof. exact Thm23.T3m_exact_split_holds. Qed.
Theorem fails__T4__conclusion : ~ Thm4.T4u_claim. Proof. exact Thm4.T4u. Qed.
Theorem fails__T4__chebyshev_step : ~ Thm4.T4_step_claim. Proof. exact Thm4.T4_step. Qed.
Theorem fails__T4u__printed : ~ Thm4.T4u_claim. Proof. exact Thm4.T4u. Qed.
Theorem fails__T4m__printed : ~ Thm4.T4m_claim. Proof. exact Thm4.T4m. Qed.
Theorem fails__T4m__theta_pos : ~ Thm4.T4m_claim_theta_pos. Proof. exact Thm4.T4m_theta_pos. Qed.
Theorem holds__T4u__large_n : Thm4Large.T4u_large_claim. Proof. exact Thm4Large.T4u_large. Qed.
Theorem holds__T4m__large_n_delta1_first : Thm4Large.T4m_large_claim. Proof. exact Thm4Large.T4m_large. Qed.
Theorem fails__T4m__large_n_delta1_after : ~ Thm4Large.T4m_delta1_after_claim. Proof. exact Thm4Large.T4m_delta1_after. Qed.
Theorem fails__T4m__large_n_delta1_after_theta_pos : ~ Thm4Large.T4m_delta1_after_theta_pos_claim. Proof. exact Thm4Large.T4m_delta1_after_theta_pos. Qed.
Theorem holds__D0__printed : D0_claim. Proof. exact D0.D0. Qed.
Theorem fails__D1__printed : ~ Aggregate.D1_claim_marginal_as_printed. Proof. exact Aggregate.D1_marginal_as_printed. Qed.
Theorem holds__D1__marginal : Aggregate.D1_claim_marginal. Proof. exact Aggregate.D1_marginal. Qed.
Theorem fails__D1__given_z : ~ Aggregate.D1_claim_given_Z. Proof. exact Aggregate.D1_given_Z. Qed.
Theorem fails__C1__aggregate : ~ C1_claim_aggregate. Proof. exact C1_aggregate_fails. Qed.
Theorem holds__C1__per_client : C1_claim. Proof. exact C1_implemented. Qed.
Theorem fails__R1__printed : ~ Reference.R1_claim. Proof. exact Reference.R1. Qed.
Theorem holds__R1__regime : Reference.R1_claim_exact_threshold. Proof. exact Reference.R1_exact. Qed.
Theorem fails__X1__printed : ~ Reference.X1_claim. Proof. exact Reference.X1. Qed.
Theorem fails__L1__pair_observer : ~ Eavesdrop.L1_claim_pair_observer. Proof. exact Eavesdrop.L1_pair. Qed.
Theorem fails__L1__z_holder : ~ Eavesdrop.L1_claim_Z_holder. Proof. exact Eavesdrop.L1_Z_holder. Qed.
Theorem fails__G1__printed : ~ G1_claim. Proof. exact G1_no_sigma. Qed.
Theorem holds__X8__limit : X8.X8_claim_per_input. Proof. exact X8.X8_per_input. Qed.
Theorem fails__B1__pbm1 : ~ B1.B1_claim_pbm1. Proof. exact B1.B1_pbm1. Qed.
Theorem holds__B1__pbm2 : B1.B1_claim_pbm2. Proof. exact B1.B1_pbm2. Qed.
Theorem fails__B1__rqm2 : ~ B1.B1_claim_rqm2. Proof. exact B1.B1_rqm2. Qed.
Theorem holds__B1__rqm3 : B1.B1_claim_rqm3. Proof. exact B1.B1_rqm3. Qed.
Theorem holds__B1__signsgd : B1.B1_claim_signsgd. Proof. exact B1.B1_signsgd. Qed.

(** Every pin in one term, so that one Print Assumptions lists the axioms they rest on together
    (check.sh accepts only the reals' axioms and coq-interval's primitive specifications). *)
Definition all_pins :=
  (holds__ACC__ldpq_others_at_ends,
   holds__ACC__adaptive_program,
   holds__P1__printed,
   fails__A2__printed,
   holds__A2__intended,
   fails__T1a__printed,
   holds__T1a__intended,
   fails__T1b__printed,
   fails__T1b__range_intended,
   holds__T1b__levels,
   holds__T1b__gap_to_limit,
   fails__T1c__finite_d,
   holds__T1c__levels,
   fails__T1u__printed,
   fails__T1u__abstract,
   holds__T1u__levels,
   holds__T1u__limit,
   fails__T2a__printed,
   holds__T2a__intended,
   holds__T2b__intended,
   fails__T2b__covariance_step,
   fails__T2c__printed,
   holds__T2c__regime,
   holds__T2c__worst_case,
   fails__T3__remove_one,
   fails__T3m__printed,
   holds__T3m__exact_split,
   fails__T4__conclusion,
   fails__T4__chebyshev_step,
   fails__T4u__printed,
   fails__T4m__printed,
   fails__T4m__theta_pos,
   holds__T4u__large_n,
   holds__T4m__large_n_delta1_first,
   fails__T4m__large_n_delta1_after,
   fails__T4m__large_n_delta1_after_theta_pos,
   holds__D0__printed,
   fails__D1__printed,
   holds__D1__marginal,
   fails__D1__given_z,
   fails__C1__aggregate,
   holds__C1__per_client,
   fails__R1__printed,
   holds__R1__regime,
   fails__X1__printed,
   fails__L1__pair_observer,
   fails__L1__z_holder,
   fails__G1__printed,
   holds__X8__limit,
   fails__B1__pbm1,
   holds__B1__pbm2,
   fails__B1__rqm2,
   holds__B1__rqm3,
   holds__B1__signsgd).
Print Assumptions all_pins.

(** The errata's theorems (the report's Errata section cites them), checked the same way. *)
Definition all_errata :=
  (Errata.E1_alpha_as_printed_negative, Errata.E1_alpha_differs, Errata.E2_differs, Errata.E2_intended_is_mean,
   Errata.E3_differs, A2.A2, T1a.T1a_intended, Errata.E6_differs, Errata.E6_npq,
   Errata.E7_differs, Errata.E7_safe, Errata.E7_cov_other_pairs, Errata.E7_cross_cov_partners,
   Errata.E7_variance, Errata.corbinq_pair_cov_nonpos, Errata.E7_cbfl, Errata.E7_cbfl_center,
   Errata.E8_printed_is_half, Thm4.T4_step, Errata.E9_theta_centre_below).
Print Assumptions all_errata.
