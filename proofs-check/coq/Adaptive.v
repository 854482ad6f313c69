(** * The adaptive program's reduction: an adaptive adversary's hockey-stick is at most a Bellman value

    privacy/pld/adaptive_program.hpp (its header comment). Outputs are 0..N−1. A member is a pair
    (P, Q) of laws on them (nonnegative; [law] = nat -> R as in Neighbours.v), the laws of one use
    of the mechanism in the two worlds. A history is the list of the earlier outputs. Each use's
    menu may depend on the history ([menu : list nat -> list member]); a strategy is a function from
    histories to members, "within the menus" when it picks from the menu of every history. A strategy
    is deterministic here (see "Not proved" for random ones).

    The composed hockey-stick. With weights a (world P) and b (world Q) accumulated so far,
        D 0 s h a b = (a − b)₊,   D (k+1) s h a b = Σ_(y<N) D k s (h ++ [y]) (a P(y)) (b Q(y)),  (P, Q) = s h,
    and [D_transcripts] proves that this is Σ over the transcripts y_1..y_k of
    (a Π_t P_(c_t)(y_t) − b Π_t Q_(c_t)(y_t))₊, the members c_t chosen by s along the transcript: so
    D k s [] 1 g is H_g of the k-use transcript's two laws ([H_adaptive]; for one use it is
    Neighbours.v's [hs], [H_adaptive_one_use]). The value function is
        V 0 h a b = (a − b)₊,   V (k+1) h a b = max over (P, Q) in menu h of Σ_(y<N) V k (h ++ [y]) (a P(y)) (b Q(y))
    (the max over an empty menu is read as 0; the theorems that need it assume menus nonempty).

    Proved, in five parts:
    1. [D_le_V]: every strategy within the menus has D <= V, from any history and any weights.
       [D_opt], [V_attained]: with nonempty menus the argmax strategy [opt_strategy] has D = V.
    2. For nonnegative laws V k h is positively homogeneous, subadditive, non-decreasing in a,
       non-increasing in b and >= 0 ([V_regular]); V <= a where every member's P sums to 1 ([V_le_a],
       so V(1, g) <= 1) and V(a, 0) = a ([V_at_infinity]); jointly convex ([W_convex]), so g ↦ V(1, g)
       is convex ([V_convex_in_g]); V(a, b) = a V(1, b/a) ([V_state]).
    3. One use's step against a continuation W, Σ_y W(a P(y), b Q(y)) ([use_step]), for any W with
       part 2's properties:
       a. [step_postproc]: a post-processing (P, Q) = K(P', Q') by a stochastic matrix K has a smaller
          step; [step_split]: splitting an atom into two atoms that keep its P- and Q-mass raises it
          (the merge back is K). [hs_postproc]: the same for the hockey-stick itself.
       b. [step_mass]: more P-mass, less Q-mass (same or larger P, Q pointwise smaller, down to 0, a
          loss of +∞) raise the step; [step_scale_up]: an atom's P- and Q-mass both scaled by t >= 1
          (the same loss, more mass) raises it.
       [profile_dominated]: if H_g(P‖Q) <= H_g(P'‖Q') at every g >= 0 (g = 0: P's total mass), the
          step of (P, Q) is at most that of (P', Q') against every such W: envelope.hpp's dominating
          pair argument, proved for finite laws (no integral representation: on the finitely many
          ratios of both laws, W(a, b x) agrees with c + Σ_i μ_i (t_i − x)₊, c, μ_i, t_i >= 0, [hinge_rep]).
       Inside V ([V_dominance_blind], [V_dominance], [V_profile_dominance]): replacing each member of
          a menu by one that dominates it in these senses only raises V, where the later menus do not
          depend on the replaced use's output ([output_blind]; e.g. menus that depend only on the
          position, [time_homogeneous]); [V_step_blind] is the instantiation W = V k (h ++ [0]).
       c. [V_revealed_draw]: a use whose menu is one member (w, w), the same law in both worlds (a
          data-independent draw, revealed: it is in the history), has V = Σ_g w_g V_g, V_g the value
          after drawing g ([step_revealed_draw]: the same for any homogeneous W_g).
       d. [restricted_strategy]: a strategy whose choices lie in smaller menus (kept members through
          a round, client 1's input fixed before a draw, one group's members) is bounded by V of the
          larger menus; [V_menu_mono]: V of smaller menus is at most V of larger ones.
    4. [V_time_homogeneous]: where the menu depends on the history only through its length, so does V
       (with (a, b)): the program's state is the accumulated loss ℓ = ln(a/b) ([V_state]).
    5. [adaptive_program]: parts 1, 2 (as [W_regular]), 3a, 3b, the profile lemma and the dominance
       inside V, together.

    How it maps to the program. With k − t uses left, the C++'s V_t(ℓ) for ε = 0 is V(1, e^(−ℓ))
    (a = the P-weight, b = the Q-weight of the transcript so far, ℓ = ln(a/b); V(a, b) = a V(1, b/a)),
    and for ε it is V(1, e^(ε − ℓ)) = V_t^0(ℓ − ε) (the translation); δ(ε) = H_(e^ε) of the
    transcript is at most V_k(1, e^ε) = V_0^0(−ε) for every adaptive strategy ([D_le_V]) and equal to
    it for the best one ([V_attained]). The C++'s property (1), V_t non-decreasing in ℓ, is
    [V_nondecreasing_in_loss] (V non-increasing in b); (2), V_t(ℓ) = f_t(e^(−ℓ)) with f_t convex, is
    [V_convex_in_g] (it also justifies the chord at t = 0). The perspective form
    E_P[V(ℓ + ln P/Q)] = Σ_o P(o) f(e^(−ℓ) Q(o)/P(o)) is homogeneity: W(a P, b Q) = P W(a, b Q/P).
    Upper bound: the grid split keeping P- and Q-mass is 3a ([step_split], [step_postproc]: "(2) and
    Jensen" is [W_fsum]); masses rounded up are [step_scale_up] (both masses of a grid atom, its loss
    fixed) and [step_mass] (P up); mass moved up, a point below the grid moved to its lowest point, a
    tail or an uncertified atom moved to +∞ are [step_mass] (Q down, P kept); a point above the
    window taking 1 and the cap at 1 are [V_le_a], a point below taking the window's lowest value is
    the monotonicity in [V_regular], mass at +∞ taking 1 is [V_at_infinity]/[V_le_a]; a cluster
    replaced by a pair whose profile is at least each member's at every e^ε is [profile_dominated]
    (with [V_profile_dominance]); drawn groups are 3c ([V_revealed_draw]). Lower bound: the
    program's strategy (reading a state, keeping a member through a round, one group's members or
    any group's) is a strategy within the menus, so [D_le_V]/[restricted_strategy] bound it by V;
    merging its transcripts into cells is a post-processing ([hs_postproc]), and rounding a cell's
    P-mass down and its Q-mass up only lowers the hockey-stick (the hinge's monotonicity,
    [hinge_regular]).

    Not proved here (what the C++ also relies on):
    - random strategies: the C++ argues that a random choice is a mixture of deterministic ones and
      the hockey-stick is jointly convex; only deterministic strategies are modelled here;
    - continuous or infinite output spaces: laws here are finite (0..N−1); a mechanism's window
      tail must first be made an atom (at +∞, Q = 0, which [step_mass] covers);
    - envelope.hpp's construction itself: that its "connect the dots" polyline, through upper bounds
      at the grid points and linear between them, lies above every member's profile at every
      γ >= 0 (the C++ argues it from convexity of the profiles); here the profile dominance at every
      g >= 0 is the hypothesis of [profile_dominated]. Blackwell's theorem (profile dominance iff
      post-processing) is neither proved nor needed: the direction used is proved directly;
    - a supremum over configurations that no input attains, bounded "by continuity": menus here are
      finite lists of members;
    - that the worst case over every configuration is over the family's members (the reductions'
      Lemmas 1 and 3, neighbours.hpp, lone_clients.hpp; Neighbours.v proves the LDPQ case for the
      hockey-stick alone);
    - that the C++'s menus are blind to the outputs of the uses whose members it replaces (they
      depend on the position and on the revealed draws only): read from the code, assumed here as
      the hypothesis of [V_dominance_blind];
    - all floating-point and MPFR rounding directions (directed.hpp), the windows and grids
      (tightness only), and the lower bound's cell bookkeeping: not modelled. *)

From Coq Require Import Reals Lra Lia List.
From Corbin Require Import Defs Sums Neighbours.
Import ListNotations.
Open Scope R_scope.

(** ** Maxima over a finite list *)

Fixpoint lmax {A : Type} (f : A -> R) (l : list A) : R :=
  match l with
  | [] => 0
  | x :: r => match r with [] => f x | _ :: _ => Rmax (f x) (lmax f r) end
  end.

Fixpoint argmax {A : Type} (f : A -> R) (d : A) (l : list A) : A :=
  match l with
  | [] => d
  | x :: r => match r with
              | [] => x
              | _ :: _ => if Rle_dec (f (argmax f d r)) (f x) then x else argmax f d r
              end
  end.

Lemma lmax_cons {A : Type} (f : A -> R) (x : A) (r : list A) :
  r <> [] -> lmax f (x :: r) = Rmax (f x) (lmax f r).
Proof. intros H. destruct r; [congruence|reflexivity]. Qed.

Lemma argmax_spec {A : Type} (f : A -> R) (d : A) (l : list A) :
  l <> [] -> In (argmax f d l) l /\ f (argmax f d l) = lmax f l.
Proof.
  induction l as [|x r IH]; intros H; [congruence|].
  destruct r as [|y r'].
  - simpl. auto.
  - destruct (IH ltac:(discriminate)) as [In1 E1].
    rewrite lmax_cons by discriminate. rewrite <- E1.
    change (argmax f d (x :: y :: r')) with
      (if Rle_dec (f (argmax f d (y :: r'))) (f x) then x else argmax f d (y :: r')).
    destruct (Rle_dec (f (argmax f d (y :: r'))) (f x)) as [L|L].
    + split; [left; reflexivity|]. rewrite Rmax_left by exact L. reflexivity.
    + split; [right; exact In1|]. rewrite Rmax_right by lra. reflexivity.
Qed.

Lemma lmax_attained {A : Type} (f : A -> R) (l : list A) :
  l <> [] -> exists x, In x l /\ lmax f l = f x.
Proof.
  intros H. destruct l as [|d r]; [congruence|].
  destruct (argmax_spec f d (d :: r) H) as [I E]. eexists; split; [exact I|symmetry; exact E].
Qed.

Lemma lmax_ge {A : Type} (f : A -> R) (l : list A) (x : A) : In x l -> f x <= lmax f l.
Proof.
  induction l as [|y r IH]; intros I; [destruct I|].
  destruct r as [|z r'].
  - destruct I as [E|[]]. subst. simpl. lra.
  - rewrite lmax_cons by discriminate. destruct I as [E|I].
    + subst. apply Rmax_l.
    + eapply Rle_trans; [apply IH, I|apply Rmax_r].
Qed.

Lemma lmax_lub {A : Type} (f : A -> R) (l : list A) (m : R) :
  l <> [] -> (forall x, In x l -> f x <= m) -> lmax f l <= m.
Proof.
  intros H B. destruct (lmax_attained f l H) as [x [I E]]. rewrite E. apply B, I.
Qed.

Lemma lmax_nonneg {A : Type} (f : A -> R) (l : list A) :
  (forall x, In x l -> 0 <= f x) -> 0 <= lmax f l.
Proof.
  intros H. destruct l as [|x r]; [simpl; lra|].
  eapply Rle_trans; [apply (H x); left; reflexivity|]. apply lmax_ge. left; reflexivity.
Qed.

Lemma lmax_ext {A : Type} (f g : A -> R) (l : list A) :
  (forall x, In x l -> f x = g x) -> lmax f l = lmax g l.
Proof.
  induction l as [|x r IH]; intros H; [reflexivity|].
  destruct r as [|y r'].
  - simpl. apply H. left; reflexivity.
  - rewrite !lmax_cons by discriminate. rewrite H by (left; reflexivity).
    rewrite IH by (intros z I; apply H; right; exact I). reflexivity.
Qed.

Lemma lmax_le {A : Type} (f g : A -> R) (l : list A) :
  (forall x, In x l -> f x <= g x) -> lmax f l <= lmax g l.
Proof.
  intros H. destruct l as [|x r]; [simpl; lra|].
  apply lmax_lub; [discriminate|]. intros y I.
  eapply Rle_trans; [apply H, I|]. apply lmax_ge, I.
Qed.

(** Every element of l is at most some element of l' (where l' holds only values >= 0). *)
Lemma lmax_dom {A B : Type} (f : A -> R) (g : B -> R) (l : list A) (l' : list B) :
  (forall x, In x l -> exists x', In x' l' /\ f x <= g x') -> (forall x', In x' l' -> 0 <= g x') ->
  lmax f l <= lmax g l'.
Proof.
  intros H G. destruct l as [|x r].
  - simpl. apply lmax_nonneg, G.
  - apply lmax_lub; [discriminate|]. intros y I. destruct (H y I) as [y' [I' L]].
    eapply Rle_trans; [exact L|]. apply lmax_ge, I'.
Qed.

Lemma lmax_scal {A : Type} (f : A -> R) (l : list A) (t : R) :
  0 <= t -> lmax (fun x => t * f x) l = t * lmax f l.
Proof.
  intros T. induction l as [|x r IH]; [simpl; ring|].
  destruct r as [|y r']; [reflexivity|].
  rewrite !lmax_cons by discriminate. rewrite IH. apply RmaxRmult, T.
Qed.

Lemma lmax_plus {A : Type} (f g : A -> R) (l : list A) :
  lmax (fun x => f x + g x) l <= lmax f l + lmax g l.
Proof.
  destruct l as [|x r]; [simpl; lra|].
  apply lmax_lub; [discriminate|]. intros y I.
  pose proof (lmax_ge f _ y I). pose proof (lmax_ge g _ y I). lra.
Qed.

Lemma lmax_const {A : Type} (f : A -> R) (l : list A) (m : R) :
  l <> [] -> (forall x, In x l -> f x = m) -> lmax f l = m.
Proof. intros H E. destruct (lmax_attained f l H) as [x [I E']]. rewrite E'. apply E, I. Qed.

(** ** Finite sums: the order of a double sum *)

Lemma fsum_swap (n m : nat) (f : nat -> nat -> R) :
  fsum n (fun i => fsum m (fun j => f i j)) = fsum m (fun j => fsum n (fun i => f i j)).
Proof.
  induction n as [|n IH]; simpl.
  - symmetry. apply fsum_zero. intros; reflexivity.
  - rewrite IH. rewrite <- fsum_plus. reflexivity.
Qed.

(** ** Members, strategies, the composed hockey-stick D and the value V *)

Definition member := (law * law)%type.
Definition strategy := list nat -> member.

(** The strategy's choice at every history lies in the menu of that history. *)
Definition within (menu : list nat -> list member) (s : strategy) : Prop := forall h, In (s h) (menu h).

(** D: the composed hockey-stick of k more uses played by s from history h, with weights a
    (world P) and b (world Q) accumulated so far. *)
Fixpoint D (N k : nat) (s : strategy) (h : list nat) (a b : R) : R :=
  match k with
  | O => Rmax 0 (a - b)
  | S k' => fsum N (fun y => D N k' s (h ++ [y]) (a * fst (s h) y) (b * snd (s h) y))
  end.

(** V: the Bellman value of k more uses from history h with weights a and b, the best member of
    each menu against the value of the rest (part 1). *)
Fixpoint V (N : nat) (menu : list nat -> list member) (k : nat) (h : list nat) (a b : R) : R :=
  match k with
  | O => Rmax 0 (a - b)
  | S k' => lmax (fun c : member => fsum N (fun y => V N menu k' (h ++ [y]) (a * fst c y) (b * snd c y))) (menu h)
  end.

(** Sums over the transcripts y_1 .. y_k (each < N), and the product of the laws along one. *)
Fixpoint tsumL (N k : nat) (f : list nat -> R) : R :=
  match k with
  | O => f []
  | S k' => fsum N (fun y => tsumL N k' (fun ys => f (y :: ys)))
  end.

Fixpoint prodL (sel : member -> law) (s : strategy) (h ys : list nat) : R :=
  match ys with
  | [] => 1
  | y :: ys' => sel (s h) y * prodL sel s (h ++ [y]) ys'
  end.

Lemma tsumL_ext (N k : nat) (f g : list nat -> R) : (forall ys, f ys = g ys) -> tsumL N k f = tsumL N k g.
Proof.
  revert f g. induction k as [|k IH]; intros f g E; simpl; [apply E|].
  apply fsum_ext. intros y _. apply IH. intros ys. apply E.
Qed.

Theorem D_transcripts (N k : nat) (s : strategy) (h : list nat) (a b : R) :
  D N k s h a b = tsumL N k (fun ys => Rmax 0 (a * prodL fst s h ys - b * prodL snd s h ys)).
Proof.
  revert h a b. induction k as [|k IH]; intros h a b; simpl.
  - rewrite !Rmult_1_r. reflexivity.
  - apply fsum_ext. intros y _. rewrite IH. apply tsumL_ext. intros ys. simpl prodL.
    f_equal. ring.
Qed.

Definition H_adaptive (N k : nat) (s : strategy) (g : R) : R := D N k s [] 1 g.

Lemma H_adaptive_one_use (N : nat) (s : strategy) (g : R) :
  H_adaptive N 1 s g = hs g N (fst (s [])) (snd (s [])).
Proof. unfold H_adaptive, hs. simpl. apply fsum_ext. intros y _. rewrite Rmult_1_l. reflexivity. Qed.

(** Item 3, bound: every strategy within the menus has its composed hockey-stick at most V. *)
Theorem D_le_V (N : nat) (menu : list nat -> list member) (k : nat) (s : strategy) (h : list nat) (a b : R) :
  within menu s -> D N k s h a b <= V N menu k h a b.
Proof.
  intros Hs. revert h a b. induction k as [|k IH]; intros h a b; simpl; [lra|].
  eapply Rle_trans; [|exact (lmax_ge _ _ _ (Hs h))]. cbv beta.
  apply fsum_le. intros y _. apply IH.
Qed.

(** D only reads the strategy on the extensions of its history. *)
Lemma D_ext (N k : nat) (s s' : strategy) (h : list nat) (a b : R) :
  (forall r, s (h ++ r) = s' (h ++ r)) -> D N k s h a b = D N k s' h a b.
Proof.
  revert h a b. induction k as [|k IH]; intros h a b E; simpl; [reflexivity|].
  assert (E0 : s h = s' h) by (pose proof (E []) as E0; rewrite app_nil_r in E0; exact E0).
  rewrite E0. apply fsum_ext. intros y _. apply IH. intros r. rewrite <- app_assoc. apply E.
Qed.

(** The argmax strategy. *)
Fixpoint strip (p l : list nat) : option (list nat) :=
  match p, l with
  | [], _ => Some l
  | x :: p', y :: l' => if Nat.eqb x y then strip p' l' else None
  | _ :: _, [] => None
  end.

Lemma strip_app (p r : list nat) : strip p (p ++ r) = Some r.
Proof. induction p as [|x p IH]; simpl; [reflexivity|]. rewrite Nat.eqb_refl. exact IH. Qed.

Lemma strip_some (p l r : list nat) : strip p l = Some r -> l = p ++ r.
Proof.
  revert l. induction p as [|x p IH]; intros l E; simpl in *.
  - congruence.
  - destruct l as [|y l]; [discriminate|]. destruct (Nat.eqb_spec x y) as [->|]; [|discriminate].
    rewrite (IH l E). reflexivity.
Qed.

Definition dflt (menu : list nat -> list member) (h : list nat) : member :=
  hd ((fun _ => 0), (fun _ => 0)) (menu h).

(** The member maximising the step at h, with V k as the continuation. *)
Definition choice (N : nat) (menu : list nat -> list member) (k : nat) (h : list nat) (a b : R) : member :=
  argmax (fun c : member => fsum N (fun y => V N menu k (h ++ [y]) (a * fst c y) (b * snd c y))) (dflt menu h) (menu h).

(** Its choices along the outputs ys after h, k uses being left after the first. *)
Fixpoint opt (N : nat) (menu : list nat -> list member) (k : nat) (h : list nat) (a b : R) (ys : list nat) : member :=
  match ys with
  | [] => choice N menu k h a b
  | y :: ys' => let c := choice N menu k h a b in
                opt N menu (pred k) (h ++ [y]) (a * fst c y) (b * snd c y) ys'
  end.

(** The argmax strategy for k uses from h, with weights a and b there. *)
Definition opt_strategy (N : nat) (menu : list nat -> list member) (k : nat) (h0 : list nat) (a b : R) : strategy :=
  fun h => match strip h0 h with Some ys => opt N menu (pred k) h0 a b ys | None => dflt menu h end.

Lemma opt_in (N : nat) (menu : list nat -> list member) : (forall h, menu h <> []) ->
  forall ys k h a b, In (opt N menu k h a b ys) (menu (h ++ ys)).
Proof.
  intros Ne. induction ys as [|y ys IH]; intros k h a b; simpl.
  - rewrite app_nil_r. apply argmax_spec, Ne.
  - replace (h ++ y :: ys) with ((h ++ [y]) ++ ys) by (rewrite <- app_assoc; reflexivity). apply IH.
Qed.

Lemma opt_strategy_within (N : nat) (menu : list nat -> list member) (k : nat) (h0 : list nat) (a b : R) :
  (forall h, menu h <> []) -> within menu (opt_strategy N menu k h0 a b).
Proof.
  intros Ne h. unfold opt_strategy. destruct (strip h0 h) as [ys|] eqn:E.
  - rewrite (strip_some _ _ _ E). apply opt_in, Ne.
  - unfold dflt. destruct (menu h) as [|c r] eqn:M; [exfalso; exact (Ne h M)|]. left; reflexivity.
Qed.

(** The argmax strategy attains V. *)
Theorem D_opt (N : nat) (menu : list nat -> list member) : (forall h, menu h <> []) ->
  forall k h a b, D N k (opt_strategy N menu k h a b) h a b = V N menu k h a b.
Proof.
  intros Ne. induction k as [|k IH]; intros h a b; [reflexivity|].
  simpl D. simpl V.
  set (s := opt_strategy N menu (S k) h a b).
  assert (Sh : s h = choice N menu k h a b).
  { unfold s, opt_strategy. rewrite <- (app_nil_r h) at 2. rewrite strip_app. reflexivity. }
  rewrite Sh.
  destruct (argmax_spec (fun c : member => fsum N (fun y => V N menu k (h ++ [y]) (a * fst c y) (b * snd c y)))
              (dflt menu h) (menu h) (Ne h)) as [_ E].
  rewrite <- E. fold (choice N menu k h a b).
  apply fsum_ext. intros y _. rewrite <- IH. apply D_ext. intros r.
  unfold s, opt_strategy. rewrite strip_app.
  replace ((h ++ [y]) ++ r) with (h ++ (y :: r)) by (rewrite <- app_assoc; reflexivity).
  rewrite strip_app. reflexivity.
Qed.

(** Item 3, attained: with nonempty menus some strategy within them has D = V. *)
Theorem V_attained (N : nat) (menu : list nat -> list member) (k : nat) (h : list nat) (a b : R) :
  (forall h, menu h <> []) -> exists s, within menu s /\ D N k s h a b = V N menu k h a b.
Proof.
  intros Ne. exists (opt_strategy N menu k h a b). split.
  - apply opt_strategy_within, Ne.
  - apply D_opt, Ne.
Qed.

(** ** The properties of V (part 2) *)

Definition nonneg_menu (N : nat) (menu : list nat -> list member) : Prop :=
  forall h c, In c (menu h) -> forall y, (y < N)%nat -> 0 <= fst c y /\ 0 <= snd c y.

Definition W_homogeneous (W : R -> R -> R) : Prop :=
  forall t a b, 0 <= t -> 0 <= a -> 0 <= b -> W (t * a) (t * b) = t * W a b.
Definition W_subadditive (W : R -> R -> R) : Prop :=
  forall a b a' b', 0 <= a -> 0 <= b -> 0 <= a' -> 0 <= b' -> W (a + a') (b + b') <= W a b + W a' b'.
(** Non-decreasing in a, non-increasing in b. *)
Definition W_monotone (W : R -> R -> R) : Prop :=
  forall a b a' b', 0 <= a <= a' -> 0 <= b' <= b -> W a b <= W a' b'.
Definition W_nonneg (W : R -> R -> R) : Prop := forall a b, 0 <= a -> 0 <= b -> 0 <= W a b.
Definition W_regular (W : R -> R -> R) : Prop :=
  W_homogeneous W /\ W_subadditive W /\ W_monotone W /\ W_nonneg W.

Lemma Rmax0_subadd (x y : R) : Rmax 0 (x + y) <= Rmax 0 x + Rmax 0 y.
Proof. unfold Rmax. repeat destruct Rle_dec; lra. Qed.

(** The hinge (a − b)₊, V with no use left. *)
Lemma hinge_regular : W_regular (fun a b => Rmax 0 (a - b)).
Proof.
  split; [|split; [|split]].
  - intros t a b T _ _. replace (t * a - t * b) with (t * (a - b)) by ring.
    rewrite <- RmaxRmult by exact T. rewrite Rmult_0_r. reflexivity.
  - intros a b a' b' _ _ _ _. replace (a + a' - (b + b')) with ((a - b) + (a' - b')) by ring.
    apply Rmax0_subadd.
  - intros a b a' b' A B. unfold Rmax. repeat destruct Rle_dec; lra.
  - intros a b _ _. apply Rmax_l.
Qed.

Section VProperties.
Variable N : nat.
Variable menu : list nat -> list member.
Hypothesis NN : nonneg_menu N menu.

Lemma V_homogeneous (k : nat) (h : list nat) : W_homogeneous (V N menu k h).
Proof.
  revert h. induction k as [|k IH]; intros h t a b T A B.
  - apply (proj1 hinge_regular); assumption.
  - simpl. rewrite <- lmax_scal by exact T. apply lmax_ext. intros c Hc.
    rewrite <- fsum_scal. apply fsum_ext. intros y Hy. destruct (NN h c Hc y Hy) as [P Q].
    rewrite !Rmult_assoc. apply IH; [exact T | apply Rmult_le_pos; assumption | apply Rmult_le_pos; assumption].
Qed.

Lemma V_subadditive (k : nat) (h : list nat) : W_subadditive (V N menu k h).
Proof.
  revert h. induction k as [|k IH]; intros h a b a' b' A B A' B'.
  - apply (proj1 (proj2 hinge_regular)); assumption.
  - simpl. eapply Rle_trans; [|apply lmax_plus]. apply lmax_le. intros c Hc. cbv beta.
    rewrite <- fsum_plus. apply fsum_le. intros y Hy. destruct (NN h c Hc y Hy) as [P Q].
    rewrite !Rmult_plus_distr_r. apply IH; apply Rmult_le_pos; assumption.
Qed.

Lemma V_monotone (k : nat) (h : list nat) : W_monotone (V N menu k h).
Proof.
  revert h. induction k as [|k IH]; intros h a b a' b' A B.
  - apply (proj1 (proj2 (proj2 hinge_regular))); assumption.
  - simpl. apply lmax_le. intros c Hc. apply fsum_le. intros y Hy. destruct (NN h c Hc y Hy) as [P Q].
    destruct A as [A0 A1], B as [B0 B1].
    apply IH; split; try (apply Rmult_le_pos; assumption); apply Rmult_le_compat_r; assumption.
Qed.

Lemma V_nonneg (k : nat) (h : list nat) : W_nonneg (V N menu k h).
Proof.
  revert h. induction k as [|k IH]; intros h a b A B.
  - apply Rmax_l.
  - simpl. apply lmax_nonneg. intros c Hc. apply fsum_nonneg. intros y Hy. destruct (NN h c Hc y Hy) as [P Q].
    apply IH; apply Rmult_le_pos; assumption.
Qed.

Theorem V_regular (k : nat) (h : list nat) : W_regular (V N menu k h).
Proof.
  split; [apply V_homogeneous|split; [apply V_subadditive|split; [apply V_monotone|apply V_nonneg]]].
Qed.

(** Every member's P a probability law on 0..N−1: V <= a (so V(1, g) <= 1). *)
Theorem V_le_a (k : nat) (h : list nat) (a b : R) :
  (forall h c, In c (menu h) -> fsum N (fst c) = 1) -> 0 <= a -> 0 <= b -> V N menu k h a b <= a.
Proof.
  intros S1. revert h a b. induction k as [|k IH]; intros h a b A B.
  - simpl. apply Rmax_lub; lra.
  - simpl. destruct (menu h) as [|c0 r] eqn:M; [simpl; exact A|]. rewrite <- M.
    apply lmax_lub; [rewrite M; discriminate|]. intros c Hc.
    apply Rle_trans with (fsum N (fun y => a * fst c y)).
    + apply fsum_le. intros y Hy. destruct (NN h c Hc y Hy) as [P Q].
      apply IH; apply Rmult_le_pos; assumption.
    + rewrite fsum_scal, (S1 h c Hc). lra.
Qed.

(** Q-mass 0 (a loss of +∞): V(a, 0) = a, when every menu is nonempty of probability laws P. *)
Theorem V_at_infinity (k : nat) (h : list nat) (a : R) :
  (forall h, menu h <> []) -> (forall h c, In c (menu h) -> fsum N (fst c) = 1) -> 0 <= a ->
  V N menu k h a 0 = a.
Proof.
  intros Ne S1. revert h a. induction k as [|k IH]; intros h a A.
  - simpl. rewrite Rminus_0_r. apply Rmax_right, A.
  - simpl. apply lmax_const; [apply Ne|]. intros c Hc.
    rewrite (fsum_ext _ _ (fun y => a * fst c y)).
    + rewrite fsum_scal, (S1 h c Hc). ring.
    + intros y Hy. destruct (NN h c Hc y Hy) as [P Q]. rewrite Rmult_0_l. apply IH, Rmult_le_pos; assumption.
Qed.

(** The state: V(a, b) = a V(1, b/a) for a > 0, a function of the accumulated loss ℓ = ln(a/b). *)
Theorem V_state (k : nat) (h : list nat) (a b : R) :
  0 < a -> 0 <= b -> V N menu k h a b = a * V N menu k h 1 (b / a).
Proof.
  intros A B. assert (BA : 0 <= b / a) by (unfold Rdiv; apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat, A]).
  rewrite <- V_homogeneous by lra.
  f_equal; field; lra.
Qed.

(** Revealed data-independent draw (3c): a use whose menu is one member (w, w). *)
Theorem V_revealed_draw (k : nat) (h : list nat) (w : law) (a b : R) :
  menu h = [(w, w)] -> 0 <= a -> 0 <= b ->
  V N menu (S k) h a b = fsum N (fun g => w g * V N menu k (h ++ [g]) a b).
Proof.
  intros M A B. simpl. rewrite M. simpl lmax. apply fsum_ext. intros g Hg.
  destruct (NN h (w, w) ltac:(rewrite M; left; reflexivity) g Hg) as [Wg _]. simpl in Wg.
  simpl fst. simpl snd. rewrite (Rmult_comm a), (Rmult_comm b). apply V_homogeneous; assumption.
Qed.

End VProperties.

(** Joint convexity from homogeneity and subadditivity; in particular g ↦ V(1, g) is convex
    (the C++'s property (2)). *)
Lemma W_convex (W : R -> R -> R) (l a b a' b' : R) :
  W_homogeneous W -> W_subadditive W -> 0 <= l <= 1 -> 0 <= a -> 0 <= b -> 0 <= a' -> 0 <= b' ->
  W (l * a + (1 - l) * a') (l * b + (1 - l) * b') <= l * W a b + (1 - l) * W a' b'.
Proof.
  intros Hh Hs L A B A' B'.
  eapply Rle_trans; [apply Hs; apply Rmult_le_pos; lra|].
  rewrite !Hh by lra. lra.
Qed.

Theorem V_convex_in_g (N : nat) (menu : list nat -> list member) (k : nat) (h : list nat) (l g g' : R) :
  nonneg_menu N menu -> 0 <= l <= 1 -> 0 <= g -> 0 <= g' ->
  V N menu k h 1 (l * g + (1 - l) * g') <= l * V N menu k h 1 g + (1 - l) * V N menu k h 1 g'.
Proof.
  intros NN L G G'. replace 1 with (l * 1 + (1 - l) * 1) at 1 by ring.
  apply W_convex; try apply V_homogeneous; try apply V_subadditive; try assumption; lra.
Qed.

(** ** One use's step against a continuation W (part 3) *)

Definition use_step (n : nat) (W : R -> R -> R) (c : member) (a b : R) : R :=
  fsum n (fun y => W (a * fst c y) (b * snd c y)).

Lemma W_zero (W : R -> R -> R) : W_homogeneous W -> W 0 0 = 0.
Proof.
  intros Hh. pose proof (Hh 0 0 0 (Rle_refl 0) (Rle_refl 0) (Rle_refl 0)) as E.
  rewrite !Rmult_0_l in E. exact E.
Qed.

(** Jensen's step: W(Σ u, Σ v) <= Σ W(u, v). *)
Lemma W_fsum (W : R -> R -> R) (n : nat) (u v : nat -> R) :
  W_homogeneous W -> W_subadditive W -> (forall x, (x < n)%nat -> 0 <= u x /\ 0 <= v x) ->
  W (fsum n u) (fsum n v) <= fsum n (fun x => W (u x) (v x)).
Proof.
  intros Hh Hs. induction n as [|n IH]; intros H; simpl.
  - rewrite W_zero by exact Hh. lra.
  - destruct (H n ltac:(lia)) as [U V'].
    assert (Su : 0 <= fsum n u) by (apply fsum_nonneg; intros; apply H; lia).
    assert (Sv : 0 <= fsum n v) by (apply fsum_nonneg; intros; apply H; lia).
    eapply Rle_trans; [apply Hs; assumption|].
    pose proof (IH ltac:(intros; apply H; lia)). lra.
Qed.

(** (P, Q) on 0..N−1 is the post-processing of (P', Q') on 0..N'−1 by the stochastic matrix K:
    P y = Σ_x K x y P' x, Q y = Σ_x K x y Q' x. *)
Definition postproc (N N' : nat) (K : nat -> nat -> R) (c c' : member) : Prop :=
  (forall x y, (x < N')%nat -> (y < N)%nat -> 0 <= K x y) /\
  (forall x, (x < N')%nat -> fsum N (K x) = 1) /\
  (forall y, (y < N)%nat -> fst c y = fsum N' (fun x => K x y * fst c' x)) /\
  (forall y, (y < N)%nat -> snd c y = fsum N' (fun x => K x y * snd c' x)).

(** 3a: the step of a post-processing is at most the original's. *)
Theorem step_postproc (N N' : nat) (K : nat -> nat -> R) (c c' : member) (W : R -> R -> R) (a b : R) :
  W_homogeneous W -> W_subadditive W -> postproc N N' K c c' ->
  (forall x, (x < N')%nat -> 0 <= fst c' x /\ 0 <= snd c' x) -> 0 <= a -> 0 <= b ->
  use_step N W c a b <= use_step N' W c' a b.
Proof.
  intros Hh Hs [K0 [K1 [KP KQ]]] NN A B. unfold use_step.
  apply Rle_trans with (fsum N (fun y => fsum N' (fun x => K x y * W (a * fst c' x) (b * snd c' x)))).
  - apply fsum_le. intros y Hy. rewrite (KP y Hy), (KQ y Hy), <- !fsum_scal.
    eapply Rle_trans.
    + apply W_fsum; [exact Hh|exact Hs|]. intros x Hx. destruct (NN x Hx).
      pose proof (K0 x y Hx Hy). split; apply Rmult_le_pos; try apply Rmult_le_pos; assumption.
    + right. apply fsum_ext. intros x Hx. destruct (NN x Hx).
      replace (a * (K x y * fst c' x)) with (K x y * (a * fst c' x)) by ring.
      replace (b * (K x y * snd c' x)) with (K x y * (b * snd c' x)) by ring.
      apply Hh; [exact (K0 x y Hx Hy)|apply Rmult_le_pos; assumption|apply Rmult_le_pos; assumption].
  - right. rewrite fsum_swap. apply fsum_ext. intros x Hx.
    rewrite (fsum_ext N _ (fun y => W (a * fst c' x) (b * snd c' x) * K x y)) by (intros; ring).
    rewrite fsum_scal, (K1 x Hx). ring.
Qed.

(** Splitting one atom into two that keep its P- and Q-mass: (P', Q') has the atom x0 of (P, Q)
    as two atoms x0 and x1 (x1 a fresh output, where P and Q are 0), with P' x0 + P' x1 = P x0 and
    Q' x0 + Q' x1 = Q x0, and agrees with (P, Q) elsewhere. Merging x1 back into x0 is the
    post-processing. *)
Definition merge (x0 x1 : nat) : nat -> nat -> R :=
  fun x y => if Nat.eqb x x1 then (if Nat.eqb y x0 then 1 else 0) else (if Nat.eqb y x then 1 else 0).

Theorem step_split (N : nat) (x0 x1 : nat) (P Q P' Q' : law) (W : R -> R -> R) (a b : R) :
  W_homogeneous W -> W_subadditive W -> (x0 < N)%nat -> (x1 < N)%nat -> x0 <> x1 ->
  P x1 = 0 -> Q x1 = 0 -> P' x0 + P' x1 = P x0 -> Q' x0 + Q' x1 = Q x0 ->
  (forall y, (y < N)%nat -> y <> x0 -> y <> x1 -> P' y = P y /\ Q' y = Q y) ->
  (forall x, (x < N)%nat -> 0 <= P' x /\ 0 <= Q' x) -> 0 <= a -> 0 <= b ->
  use_step N W (P, Q) a b <= use_step N W (P', Q') a b.
Proof.
  intros Hh Hs H0 H1 D P1 Q1 SP SQ Same NN A B.
  apply (step_postproc N N (merge x0 x1)); try assumption.
  assert (Col : forall (F : law) y, (y < N)%nat ->
            fsum N (fun x => merge x0 x1 x y * F x) =
            (if Nat.eqb y x0 then F x0 + F x1 else if Nat.eqb y x1 then 0 else F y)).
  { intros F y Hy. unfold merge.
    rewrite (fsum_ext N _ (fun x => (if Nat.eqb x x1 then (if Nat.eqb y x0 then F x1 else 0) else 0) +
                                   (if Nat.eqb x x1 then 0 else if Nat.eqb x y then F y else 0))).
    - rewrite fsum_plus.
      rewrite (fsum_at N x1 (if Nat.eqb y x0 then F x1 else 0)) by exact H1.
      + destruct (Nat.eqb_spec y x1) as [->|Ny1].
        * rewrite (fsum_zero N) by (intros x _; destruct (Nat.eqb x x1); [reflexivity|];
                                    destruct (Nat.eqb x x1); reflexivity).
          destruct (Nat.eqb_spec x1 x0); [lia|]. ring.
        * rewrite (fsum_single N y) by
            (first [exact Hy | intros x _ Nx; destruct (Nat.eqb_spec x x1); [reflexivity|];
             destruct (Nat.eqb_spec x y); [lia|reflexivity]]).
          destruct (Nat.eqb_spec y x1) as [|_]; [lia|]. rewrite Nat.eqb_refl.
          destruct (Nat.eqb_spec y x0) as [->|]; ring.
    - intros x _. destruct (Nat.eqb_spec x x1), (Nat.eqb_spec y x0), (Nat.eqb_spec x y), (Nat.eqb_spec y x);
        subst; try lia; ring. }
  split; [|split; [|split]].
  - intros x y _ _. unfold merge. destruct (Nat.eqb x x1), (Nat.eqb y x0), (Nat.eqb y x); lra.
  - intros x Hx. unfold merge. destruct (Nat.eqb_spec x x1) as [->|N1].
    + apply fsum_at, H0.
    + apply (fsum_at N x 1), Hx.
  - intros y Hy. simpl fst. rewrite Col by exact Hy.
    destruct (Nat.eqb_spec y x0) as [->|N0]; [lra|].
    destruct (Nat.eqb_spec y x1) as [->|N1]; [lra|]. symmetry. apply (Same y Hy N0 N1).
  - intros y Hy. simpl snd. rewrite Col by exact Hy.
    destruct (Nat.eqb_spec y x0) as [->|N0]; [lra|].
    destruct (Nat.eqb_spec y x1) as [->|N1]; [lra|]. symmetry. apply (Same y Hy N0 N1).
Qed.

(** Moving Q-mass down (the loss up, to +∞ where Q' y = 0) and raising P-mass (3b). *)
Theorem step_mass (N : nat) (W : R -> R -> R) (P Q P' Q' : law) (a b : R) :
  W_monotone W -> (forall y, (y < N)%nat -> 0 <= P y <= P' y /\ 0 <= Q' y <= Q y) -> 0 <= a -> 0 <= b ->
  use_step N W (P, Q) a b <= use_step N W (P', Q') a b.
Proof.
  intros Hm H A B. unfold use_step. apply fsum_le. intros y Hy. simpl fst; simpl snd.
  destruct (H y Hy) as [[P0 P1] [Q0 Q1]].
  apply Hm; split; try (apply Rmult_le_pos; assumption); apply Rmult_le_compat_l; assumption.
Qed.

(** The hockey-stick of a post-processing is at most the original's (merging a strategy's
    transcripts into cells, in the lower bound). *)
Theorem hs_postproc (N N' : nat) (K : nat -> nat -> R) (P Q P' Q' : law) (g : R) :
  postproc N N' K (P, Q) (P', Q') -> (forall x, (x < N')%nat -> 0 <= P' x /\ 0 <= Q' x) -> 0 <= g ->
  hs g N P Q <= hs g N' P' Q'.
Proof.
  intros Hp NN G.
  pose proof (step_postproc N N' K (P, Q) (P', Q') (fun a b => Rmax 0 (a - b)) 1 g
                (proj1 hinge_regular) (proj1 (proj2 hinge_regular)) Hp NN ltac:(lra) G) as S.
  unfold use_step, hs in *. simpl fst in S; simpl snd in S.
  rewrite !(fsum_ext _ (fun y => Rmax 0 (1 * _ y - g * _ y)) (fun y => Rmax 0 (_ y - g * _ y))) in S
    by (intros; rewrite Rmult_1_l; reflexivity).
  exact S.
Qed.

(** A revealed draw, for any homogeneous continuations W_g, one per drawn group g (3c, abstract). *)
Lemma step_revealed_draw (N : nat) (Wg : nat -> R -> R -> R) (w : law) (a b : R) :
  (forall g, (g < N)%nat -> W_homogeneous (Wg g)) -> (forall g, (g < N)%nat -> 0 <= w g) -> 0 <= a -> 0 <= b ->
  fsum N (fun g => Wg g (a * w g) (b * w g)) = fsum N (fun g => w g * Wg g a b).
Proof.
  intros Hh W0 A B. apply fsum_ext. intros g Hg.
  rewrite (Rmult_comm a), (Rmult_comm b). apply Hh; auto.
Qed.

(** ** Restricted adversaries (3d) *)

(** A strategy choosing from smaller menus is bounded by V of the larger menus. *)
Theorem restricted_strategy (N : nat) (small menu : list nat -> list member) (k : nat) (s : strategy)
  (h : list nat) (a b : R) :
  (forall h c, In c (small h) -> In c (menu h)) -> within small s -> D N k s h a b <= V N menu k h a b.
Proof. intros Sub Hs. apply D_le_V. intros h'. apply Sub, Hs. Qed.

(** V of smaller menus is at most V of larger ones. *)
Theorem V_menu_mono (N : nat) (small menu : list nat -> list member) :
  nonneg_menu N menu -> (forall h c, In c (small h) -> In c (menu h)) ->
  forall k h a b, 0 <= a -> 0 <= b -> V N small k h a b <= V N menu k h a b.
Proof.
  intros NN Sub. induction k as [|k IH]; intros h a b A B; simpl; [lra|].
  apply lmax_dom.
  - intros c Hc. exists c. split; [apply Sub, Hc|]. apply fsum_le. intros y Hy.
    destruct (NN h c (Sub h c Hc) y Hy). apply IH; apply Rmult_le_pos; assumption.
  - intros c Hc. apply fsum_nonneg. intros y Hy. destruct (NN h c Hc y Hy).
    apply V_nonneg; [exact NN| apply Rmult_le_pos; assumption| apply Rmult_le_pos; assumption].
Qed.

(** ** Time-homogeneous menus (part 4) *)

Definition time_homogeneous (menu : list nat -> list member) : Prop :=
  forall h h', length h = length h' -> menu h = menu h'.

(** Where the menu depends only on the number of earlier uses, V depends only on that number
    (and on a, b), not on the outputs themselves. *)
Theorem V_time_homogeneous (N : nat) (menu : list nat -> list member) :
  time_homogeneous menu ->
  forall k h h' a b, length h = length h' -> V N menu k h a b = V N menu k h' a b.
Proof.
  intros T. induction k as [|k IH]; intros h h' a b L; simpl; [reflexivity|].
  rewrite (T h h' L). apply lmax_ext. intros c _. apply fsum_ext. intros y _. apply IH.
  rewrite !app_length, L. reflexivity.
Qed.

(** ** Replacing members by members that dominate them only raises V

    c' dominates c when its step is at least c's against every continuation with the properties
    of part 2. By 3a and 3b, a post-processing or a mass move is dominated. *)
Definition dominated (N : nat) (c c' : member) : Prop :=
  forall W, W_regular W -> forall a b, 0 <= a -> 0 <= b -> use_step N W c a b <= use_step N W c' a b.

Lemma postproc_dominated (N : nat) (K : nat -> nat -> R) (c c' : member) :
  postproc N N K c c' -> (forall x, (x < N)%nat -> 0 <= fst c' x /\ 0 <= snd c' x) -> dominated N c c'.
Proof.
  intros Hp NN W [Hh [Hs _]] a b A B. apply (step_postproc N N K); assumption.
Qed.

Lemma mass_dominated (N : nat) (P Q P' Q' : law) :
  (forall y, (y < N)%nat -> 0 <= P y <= P' y /\ 0 <= Q' y <= Q y) -> dominated N (P, Q) (P', Q').
Proof. intros H W [_ [_ [Hm _]]] a b A B. apply step_mass; assumption. Qed.

(** Menus that depend only on the position: every member of M h dominated by some member of M' h
    gives V of M at most V of M'. *)
Theorem V_dominance (N : nat) (M M' : list nat -> list member) :
  time_homogeneous M' -> nonneg_menu N M -> nonneg_menu N M' ->
  (forall h c, In c (M h) -> exists c', In c' (M' h) /\ dominated N c c') ->
  forall k h a b, 0 <= a -> 0 <= b -> V N M k h a b <= V N M' k h a b.
Proof.
  intros T NN NN' Dom. induction k as [|k IH]; intros h a b A B; simpl; [lra|].
  set (W := V N M' k (h ++ [0%nat])).
  assert (Wy : forall y x z, V N M' k (h ++ [y]) x z = W x z).
  { intros y x z. apply V_time_homogeneous; [exact T|]. rewrite !app_length. reflexivity. }
  apply lmax_dom.
  - intros c Hc. destruct (Dom h c Hc) as [c' [Hc' Dc]]. exists c'. split; [exact Hc'|].
    apply Rle_trans with (use_step N W c a b).
    + unfold use_step. apply fsum_le. intros y Hy. rewrite <- (Wy y). destruct (NN h c Hc y Hy).
      apply IH; apply Rmult_le_pos; assumption.
    + eapply Rle_trans; [apply Dc; [apply V_regular, NN'|exact A|exact B]|].
      right. unfold use_step. apply fsum_ext. intros y _. rewrite Wy. reflexivity.
  - intros c Hc. apply fsum_nonneg. intros y Hy. destruct (NN' h c Hc y Hy).
    apply V_nonneg; [exact NN'| apply Rmult_le_pos; assumption| apply Rmult_le_pos; assumption].
Qed.

(** The same with the menus fixed only where members are replaced: V reads the menus only on the
    extensions of its history, and where the later menus do not depend on the output of the use at h
    (in the program: they depend on the position and on revealed draws, not on mechanism outputs),
    the step at h is one against a single continuation W, so 3a and 3b apply there. *)
Lemma V_history_ext (N : nat) (M : list nat -> list member) (k : nat) (h h' : list nat) (a b : R) :
  (forall r, M (h ++ r) = M (h' ++ r)) -> V N M k h a b = V N M k h' a b.
Proof.
  revert h h' a b. induction k as [|k IH]; intros h h' a b E; simpl; [reflexivity|].
  assert (E0 : M h = M h') by (pose proof (E []) as E0; rewrite !app_nil_r in E0; exact E0).
  rewrite E0. apply lmax_ext. intros c _. apply fsum_ext. intros y _. apply IH.
  intros r. rewrite <- !app_assoc. apply E.
Qed.

Definition output_blind (M : list nat -> list member) (h : list nat) : Prop :=
  forall y y' r, M (h ++ y :: r) = M (h ++ y' :: r).

Lemma time_homogeneous_blind (M : list nat -> list member) (h : list nat) :
  time_homogeneous M -> output_blind M h.
Proof. intros T y y' r. apply T. rewrite !app_length. reflexivity. Qed.

(** Where the later menus are blind to the output at h, V's step at h is use_step against the
    one continuation W = V k (h ++ [0]) (instantiating part 3 with V). *)
Theorem V_step_blind (N : nat) (M : list nat -> list member) (k : nat) (h : list nat) (a b : R) :
  output_blind M h -> V N M (S k) h a b = lmax (fun c => use_step N (V N M k (h ++ [0%nat])) c a b) (M h).
Proof.
  intros Bl. simpl. apply lmax_ext. intros c _. unfold use_step. apply fsum_ext. intros y _.
  apply V_history_ext. intros r. rewrite <- !app_assoc. apply Bl.
Qed.

(** Every member of M h is in M' h or dominated by a member of M' h (where M' is blind to the
    output at h): V of M is at most V of M'. *)
Theorem V_dominance_blind (N : nat) (M M' : list nat -> list member) :
  nonneg_menu N M -> nonneg_menu N M' ->
  (forall h c, In c (M h) -> exists c', In c' (M' h) /\ (c' = c \/ (dominated N c c' /\ output_blind M' h))) ->
  forall k h a b, 0 <= a -> 0 <= b -> V N M k h a b <= V N M' k h a b.
Proof.
  intros NN NN' Dom. induction k as [|k IH]; intros h a b A B; [simpl; lra|].
  simpl V at 1. apply Rle_trans with
    (lmax (fun c : member => fsum N (fun y => V N M' k (h ++ [y]) (a * fst c y) (b * snd c y))) (M h)).
  { apply lmax_le. intros c Hc. apply fsum_le. intros y Hy. destruct (NN h c Hc y Hy).
    apply IH; apply Rmult_le_pos; assumption. }
  simpl V. apply lmax_dom.
  - intros c Hc. destruct (Dom h c Hc) as [c' [Hc' [<-|[Dc Bl]]]]; exists c'; split; try exact Hc'; [lra|].
    set (W := V N M' k (h ++ [0%nat])).
    assert (Wy : forall y x z, V N M' k (h ++ [y]) x z = W x z).
    { intros y x z. apply V_history_ext. intros r. rewrite <- !app_assoc. apply Bl. }
    apply Rle_trans with (use_step N W c a b).
    + right. unfold use_step. apply fsum_ext. intros y _. apply Wy.
    + eapply Rle_trans; [apply Dc; [apply V_regular, NN'|exact A|exact B]|].
      right. unfold use_step. apply fsum_ext. intros y _. rewrite Wy. reflexivity.
  - intros c Hc. apply fsum_nonneg. intros y Hy. destruct (NN' h c Hc y Hy).
    apply V_nonneg; [exact NN'| apply Rmult_le_pos; assumption| apply Rmult_le_pos; assumption].
Qed.

(** A member whose masses are scaled up atom by atom (the same factor t_y >= 1 on P y and Q y:
    the same loss, more mass; the splitter's weights rounded up) has a larger step. *)
Theorem step_scale_up (N : nat) (W : R -> R -> R) (P Q P' Q' : law) (t : nat -> R) (a b : R) :
  W_homogeneous W -> W_nonneg W ->
  (forall y, (y < N)%nat -> 1 <= t y /\ P' y = t y * P y /\ Q' y = t y * Q y /\ 0 <= P y /\ 0 <= Q y) ->
  0 <= a -> 0 <= b -> use_step N W (P, Q) a b <= use_step N W (P', Q') a b.
Proof.
  intros Hh Hn H A B. unfold use_step. apply fsum_le. intros y Hy. simpl fst; simpl snd.
  destruct (H y Hy) as [T [EP [EQ [P0 Q0]]]]. rewrite EP, EQ.
  replace (a * (t y * P y)) with (t y * (a * P y)) by ring.
  replace (b * (t y * Q y)) with (t y * (b * Q y)) by ring.
  assert (W0 : 0 <= W (a * P y) (b * Q y)) by (apply Hn; apply Rmult_le_pos; assumption).
  rewrite Hh by (try lra; apply Rmult_le_pos; assumption). nra.
Qed.

Lemma scale_dominated (N : nat) (P Q P' Q' : law) (t : nat -> R) :
  (forall y, (y < N)%nat -> 1 <= t y /\ P' y = t y * P y /\ Q' y = t y * Q y /\ 0 <= P y /\ 0 <= Q y) ->
  dominated N (P, Q) (P', Q').
Proof. intros H W [Hh [_ [_ Hn]]] a b A B. apply (step_scale_up N W P Q P' Q' t); assumption. Qed.

(** ** Profile dominance implies dominance (the dominating pair of a cluster)

    If H_g(P‖Q) <= H_g(P'‖Q') at every g >= 0 (g = 0: P's total mass at most P''s), then the step
    of (P, Q) is at most that of (P', Q') against every continuation W with the properties of
    part 2. This is envelope.hpp's argument (Zhu, Dong, Wang 2022), for finite laws: with
    φ(x) = W(a, b x) (convex, non-increasing, >= 0), W(a P y, b Q y) = P y φ(Q y / P y), and on
    the finitely many ratios of both laws φ agrees with c + Σ_i μ_i (t_i − x)₊ for some c, μ_i,
    t_i >= 0 (the chords' slope jumps, built from the smallest ratio up), so each step is
    c Σ P + Σ_i μ_i Σ_y (t_i P y − Q y)₊ = c H_0 + Σ_i μ_i t_i H_(1/t_i): larger for (P', Q'). *)

Fixpoint hinges (hs : list (R * R)) (p q : R) : R :=
  match hs with
  | [] => 0
  | (m, t) :: r => m * Rmax 0 (t * p - q) + hinges r p q
  end.

Fixpoint msum (hs : list (R * R)) : R :=
  match hs with [] => 0 | (m, _) :: r => m + msum r end.

Lemma Rmax0_scal (s x : R) : 0 <= s -> Rmax 0 (s * x) = s * Rmax 0 x.
Proof. intros S. rewrite <- RmaxRmult by exact S. rewrite Rmult_0_r. reflexivity. Qed.

Lemma hinges_scale (hs : list (R * R)) (s p q : R) : 0 <= s -> s * hinges hs p q = hinges hs (s * p) (s * q).
Proof.
  intros S. induction hs as [|[m t] r IH]; simpl; [ring|]. rewrite <- IH.
  replace (t * (s * p) - s * q) with (s * (t * p - q)) by ring. rewrite Rmax0_scal by exact S. ring.
Qed.

Lemma hinges_affine (hs : list (R * R)) (x y : R) :
  (forall m t, In (m, t) hs -> x <= t /\ y <= t) -> hinges hs 1 x - hinges hs 1 y = msum hs * (y - x).
Proof.
  induction hs as [|[m t] r IH]; intros H; simpl; [ring|].
  destruct (H m t (or_introl eq_refl)) as [X Y].
  rewrite !Rmax_right by lra.
  assert (E := IH (fun m' t' I => H m' t' (or_intror I))). nra.
Qed.

Lemma hinges_zero (hs : list (R * R)) (q : R) : 0 <= q -> hinges hs 0 q = 0.
Proof.
  intros Hq. induction hs as [|[m t] r IH]; simpl; [reflexivity|].
  rewrite Rmax_left by lra. rewrite IH. ring.
Qed.

Lemma fsum_hinges_le (N : nat) (hs : list (R * R)) (P Q P' Q' : law) :
  (forall m t, In (m, t) hs -> 0 <= m /\
     fsum N (fun y => Rmax 0 (t * P y - Q y)) <= fsum N (fun y => Rmax 0 (t * P' y - Q' y))) ->
  fsum N (fun y => hinges hs (P y) (Q y)) <= fsum N (fun y => hinges hs (P' y) (Q' y)).
Proof.
  induction hs as [|[m t] r IH]; intros H; simpl.
  - lra.
  - rewrite !fsum_plus, !fsum_scal. destruct (H m t (or_introl eq_refl)) as [M L].
    pose proof (IH (fun m' t' I => H m' t' (or_intror I))). nra.
Qed.

(** A smallest element, taken out. *)
Lemma pick_min (l : list R) : l <> [] ->
  exists x0 l', (forall z, In z l <-> x0 = z \/ In z l') /\ (length l' < length l)%nat /\
                (forall z, In z l' -> x0 <= z).
Proof.
  induction l as [|a r IH]; intros H; [congruence|].
  destruct r as [|b r'].
  - exists a, []. split; [|split]; [intros z; simpl; tauto|simpl; lia|intros z []].
  - destruct (IH ltac:(discriminate)) as [x0 [l' [Iff [Len Min]]]].
    destruct (Rle_dec a x0) as [L|L].
    + exists a, (b :: r'). split; [|split].
      * intros z. simpl. tauto.
      * simpl. lia.
      * intros z Iz. apply Iff in Iz. destruct Iz as [<-|Iz]; [exact L|]. pose proof (Min z Iz). lra.
    + exists x0, (a :: l'). split; [|split].
      * intros z. specialize (Iff z). simpl in *. tauto.
      * simpl in *. lia.
      * intros z [<-|Iz]; [lra|apply Min, Iz].
Qed.

Section Hinge.
Variable phi : R -> R.
Hypothesis phi_conv : forall x y l, 0 <= x -> 0 <= y -> 0 <= l <= 1 ->
  phi (l * x + (1 - l) * y) <= l * phi x + (1 - l) * phi y.
Hypothesis phi_dec : forall x y, 0 <= x <= y -> phi y <= phi x.
Hypothesis phi_nn : forall x, 0 <= x -> 0 <= phi x.

Lemma three_point (x x0 t : R) : 0 <= x -> x <= x0 -> x0 < t ->
  phi x0 * (t - x) - phi t * (x0 - x) <= (t - x0) * phi x.
Proof.
  intros X X0 T. destruct (Req_dec x x0) as [->|Ne]; [nra|].
  set (l := (t - x0) / (t - x)).
  assert (L1 : l * (t - x) = t - x0) by (unfold l; field; lra).
  assert (L : 0 <= l <= 1).
  { unfold l. split.
    - unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra].
    - apply (Rmult_le_reg_r (t - x)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  assert (E : l * x + (1 - l) * t = x0) by (unfold l; field; lra).
  pose proof (phi_conv x t l X ltac:(lra) L) as C. rewrite E in C.
  assert (C' : phi x0 * (t - x) <= (l * (t - x)) * phi x + ((1 - l) * (t - x)) * phi t) by nra.
  rewrite L1 in C'. replace ((1 - l) * (t - x)) with (x0 - x) in C' by lra. lra.
Qed.

(** On a finite set l of points >= 0, φ (convex, non-increasing, >= 0) agrees with
    c + Σ_i μ_i (t_i − x)₊ with c >= 0, μ_i >= 0 and knots t_i in l, and this sum stays below φ left
    of l (the invariant that makes the next slope jump >= 0). Built from the largest point down. *)
Lemma hinge_rep (n : nat) : forall l, (length l <= n)%nat -> l <> [] -> (forall z, In z l -> 0 <= z) ->
  exists c hs, 0 <= c /\ (forall m t, In (m, t) hs -> 0 <= m /\ In t l) /\
    (forall z, In z l -> phi z = c + hinges hs 1 z) /\
    (forall x, 0 <= x -> (forall z, In z l -> x <= z) -> c + hinges hs 1 x <= phi x).
Proof.
  induction n as [|n IH]; intros l Len Ne Nn.
  { destruct l; [congruence|simpl in Len; lia]. }
  destruct (pick_min l Ne) as [x0 [l' [Iff [Len' Min]]]].
  assert (X0 : 0 <= x0) by (apply Nn, Iff; left; reflexivity).
  assert (Sub : forall z, In z l' -> In z l) by (intros z I; apply Iff; right; exact I).
  destruct l' as [|z0 r'].
  - exists (phi x0), []. split; [apply phi_nn, X0|split; [|split]].
    + intros m t [].
    + intros z Iz. apply Iff in Iz. destruct Iz as [<-|[]]. simpl. ring.
    + intros x X Bx. simpl. rewrite Rplus_0_r. apply phi_dec. split; [exact X|apply Bx, Iff; left; reflexivity].
  - set (l' := z0 :: r') in *.
    destruct (IH l' ltac:(lia) ltac:(discriminate) (fun z I => Nn z (Sub z I))) as [c [hs [C [Kn [Pt Inv]]]]].
    destruct (pick_min l' ltac:(discriminate)) as [t [l'' [Iff' [_ Min']]]].
    assert (It : In t l') by (apply Iff'; left; reflexivity).
    assert (Tmin : forall z, In z l' -> t <= z) by (intros z I; apply Iff' in I; destruct I as [<-|I]; [lra|apply Min', I]).
    assert (Xt : x0 <= t) by (apply Min, It).
    assert (D : c + hinges hs 1 x0 <= phi x0) by (apply Inv; [exact X0|exact Min]).
    destruct (Req_dec x0 t) as [<-|Nt].
    + exists c, hs. split; [exact C|split; [|split]].
      * intros m t' I. destruct (Kn m t' I). split; [assumption|apply Sub; assumption].
      * intros z Iz. apply Iff in Iz. destruct Iz as [<-|Iz]; apply Pt; assumption.
      * intros x X Bx. apply Inv; [exact X|]. intros z Iz. apply Bx, Sub, Iz.
    + set (mu := (phi x0 - (c + hinges hs 1 x0)) / (t - x0)).
      assert (Mu : 0 <= mu) by (unfold mu, Rdiv; apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]).
      assert (MuE : mu * (t - x0) = phi x0 - (c + hinges hs 1 x0)) by (unfold mu; field; lra).
      assert (KnT : forall m t', In (m, t') hs -> t <= t') by (intros m t' I; apply Tmin, (Kn m t' I)).
      exists c, ((mu, t) :: hs). split; [exact C|split; [|split]].
      * intros m t' [E|I].
        -- injection E as <- <-. split; [exact Mu|apply Sub, It].
        -- destruct (Kn m t' I). split; [assumption|apply Sub; assumption].
      * intros z Iz. apply Iff in Iz. destruct Iz as [<-|Iz]; simpl.
        -- rewrite Rmax_right by lra. rewrite Rmult_1_r. lra.
        -- rewrite Rmax_left by (pose proof (Tmin z Iz); lra). rewrite (Pt z Iz). ring.
      * intros x X Bx. simpl.
        assert (Xx0 : x <= x0) by (apply Bx, Iff; left; reflexivity).
        rewrite Rmax_right by lra. rewrite Rmult_1_r.
        assert (A1 := hinges_affine hs x t ltac:(intros m t' I; pose proof (KnT m t' I); lra)).
        assert (A2 := hinges_affine hs x0 t ltac:(intros m t' I; pose proof (KnT m t' I); lra)).
        assert (Ptt := Pt t It).
        assert (TP := three_point x x0 t X Xx0 ltac:(lra)).
        set (K := mu + msum hs) in *.
        assert (E0 : phi x0 = phi t + K * (t - x0)) by (unfold K; lra).
        assert (Goal' : (t - x0) * (c + (mu * (t - x) + hinges hs 1 x)) <= (t - x0) * phi x).
        { replace (c + (mu * (t - x) + hinges hs 1 x)) with (phi t + K * (t - x)) by (unfold K; lra).
          rewrite E0 in TP. nra. }
        apply Rmult_le_reg_l with (t - x0); [lra|]. lra.
Qed.

End Hinge.

(** The ratios Q y / P y of the atoms with P y > 0. *)
Fixpoint ratios (n : nat) (P Q : law) : list R :=
  match n with
  | O => []
  | S n' => (if Rlt_dec 0 (P n') then [Q n' / P n'] else []) ++ ratios n' P Q
  end.

Lemma ratios_in (n : nat) (P Q : law) (y : nat) : (y < n)%nat -> 0 < P y -> In (Q y / P y) (ratios n P Q).
Proof.
  induction n as [|n IH]; intros Hy Py; [lia|]. simpl. apply in_or_app.
  destruct (Nat.eq_dec y n) as [->|Ne].
  - left. destruct (Rlt_dec 0 (P n)); [left; reflexivity|lra].
  - right. apply IH; [lia|exact Py].
Qed.

Lemma ratios_nonneg (n : nat) (P Q : law) : (forall y, (y < n)%nat -> 0 <= Q y) ->
  forall z, In z (ratios n P Q) -> 0 <= z.
Proof.
  induction n as [|n IH]; intros H z I; [destruct I|]. simpl in I. apply in_app_or in I. destruct I as [I|I].
  - destruct (Rlt_dec 0 (P n)) as [Pn|]; [|destruct I]. destruct I as [<-|[]].
    unfold Rdiv. apply Rmult_le_pos; [apply H; lia|left; apply Rinv_0_lt_compat, Pn].
  - apply (IH (fun y Hy => H y ltac:(lia))), I.
Qed.

Lemma W_zero_a (W : R -> R -> R) (q : R) : W_regular W -> 0 <= q -> W 0 q = 0.
Proof.
  intros [Hh [_ [Hm Hn]]] Q0. apply Rle_antisym.
  - apply Rle_trans with (W 0 0); [apply Hm; lra|]. rewrite (W_zero W Hh). lra.
  - apply Hn; lra.
Qed.

(** The homogeneous profile: Σ_y (t P y − Q y)₊ = t H_(1/t)(P‖Q) for t > 0, and 0 for t = 0. *)
Lemma profile_homogeneous (N : nat) (P Q P' Q' : law) (t : R) :
  (forall y, (y < N)%nat -> 0 <= Q y /\ 0 <= Q' y) -> (forall g, 0 <= g -> hs g N P Q <= hs g N P' Q') -> 0 <= t ->
  fsum N (fun y => Rmax 0 (t * P y - Q y)) <= fsum N (fun y => Rmax 0 (t * P' y - Q' y)).
Proof.
  intros NN Prof T. destruct (Req_dec t 0) as [->|Nt].
  - rewrite (fsum_zero N (fun y => Rmax 0 (0 * P y - Q y)))
      by (intros y Hy; destruct (NN y Hy); apply Rmax_left; lra).
    apply fsum_nonneg. intros; apply Rmax_l.
  - assert (E : forall (A B : law) y, Rmax 0 (t * A y - B y) = t * Rmax 0 (A y - / t * B y)).
    { intros A B y. rewrite <- Rmax0_scal by lra. f_equal. field. exact Nt. }
    rewrite !(fsum_ext N (fun y => Rmax 0 (t * _ y - _ y)) (fun y => t * Rmax 0 (_ y - / t * _ y)))
      by (intros; apply E).
    rewrite !fsum_scal. apply Rmult_le_compat_l; [exact T|]. apply Prof.
    left. apply Rinv_0_lt_compat. lra.
Qed.

(** A pair whose hockey-stick profile is at least the member's at every g >= 0 dominates it. *)
Theorem profile_dominated (N : nat) (P Q P' Q' : law) :
  (forall y, (y < N)%nat -> 0 <= P y /\ 0 <= Q y /\ 0 <= P' y /\ 0 <= Q' y) ->
  (forall g, 0 <= g -> hs g N P Q <= hs g N P' Q') -> dominated N (P, Q) (P', Q').
Proof.
  intros NN Prof W Reg a b A B. pose proof Reg as [Hh [Hs [Hm Hn]]].
  set (phi := fun x => W a (b * x)).
  assert (Conv : forall x y l, 0 <= x -> 0 <= y -> 0 <= l <= 1 ->
            phi (l * x + (1 - l) * y) <= l * phi x + (1 - l) * phi y).
  { intros x y l X Y L. unfold phi.
    replace a with (l * a + (1 - l) * a) at 1 by ring.
    replace (b * (l * x + (1 - l) * y)) with (l * (b * x) + (1 - l) * (b * y)) by ring.
    apply W_convex; try assumption; apply Rmult_le_pos; assumption. }
  assert (Dec : forall x y, 0 <= x <= y -> phi y <= phi x).
  { intros x y [X Y]. unfold phi. apply Hm; split; try lra; try (apply Rmult_le_pos; lra).
    apply Rmult_le_compat_l; assumption. }
  assert (Nn : forall x, 0 <= x -> 0 <= phi x) by (intros x X; apply Hn; [exact A|apply Rmult_le_pos; assumption]).
  set (l := 0 :: ratios N P Q ++ ratios N P' Q').
  assert (Ln : forall z, In z l -> 0 <= z).
  { intros z [<-|I]; [lra|]. apply in_app_or in I. destruct I as [I|I].
    - apply (ratios_nonneg N P Q); [intros y Hy; apply NN, Hy|exact I].
    - apply (ratios_nonneg N P' Q'); [intros y Hy; apply NN, Hy|exact I]. }
  destruct (hinge_rep phi Conv Dec Nn (length l) l (le_n _) ltac:(discriminate) Ln) as [c [hl [C [Kn [Pt _]]]]].
  (* each atom of either law, as c P y + Σ μ_i (t_i P y − Q y)₊ *)
  assert (Atom : forall (P0 Q0 : law) y, 0 <= P0 y -> 0 <= Q0 y -> (P0 y = 0 \/ In (Q0 y / P0 y) l) ->
            W (a * P0 y) (b * Q0 y) = c * P0 y + hinges hl (P0 y) (Q0 y)).
  { intros P0 Q0 y P0y Q0y Iy. destruct (Req_dec (P0 y) 0) as [Z|Z].
    - rewrite Z, Rmult_0_r, W_zero_a, hinges_zero by (try exact Reg; try exact Q0y; apply Rmult_le_pos; assumption).
      ring.
    - destruct Iy as [Iy|Iy]; [contradiction|].
      replace (a * P0 y) with (P0 y * a) by ring.
      replace (b * Q0 y) with (P0 y * (b * (Q0 y / P0 y))) by (field; exact Z).
      assert (By : 0 <= b * (Q0 y / P0 y)) by (apply Rmult_le_pos; [exact B|apply (Ln _ Iy)]).
      rewrite Hh by assumption.
      change (W a (b * (Q0 y / P0 y))) with (phi (Q0 y / P0 y)). rewrite (Pt _ Iy).
      rewrite Rmult_plus_distr_l, hinges_scale by exact P0y.
      rewrite Rmult_1_r. replace (P0 y * (Q0 y / P0 y)) with (Q0 y) by (field; exact Z). ring. }
  unfold use_step. simpl fst; simpl snd.
  rewrite (fsum_ext N _ (fun y => c * P y + hinges hl (P y) (Q y))).
  2:{ intros y Hy. destruct (NN y Hy) as [Py [Qy _]]. apply Atom; try assumption.
      destruct (Req_dec (P y) 0) as [Z|Z]; [left; exact Z|right].
      right. apply in_or_app. left. apply ratios_in; [exact Hy|lra]. }
  rewrite (fsum_ext N (fun y => W (a * P' y) (b * Q' y)) (fun y => c * P' y + hinges hl (P' y) (Q' y))).
  2:{ intros y Hy. destruct (NN y Hy) as [_ [_ [Py Qy]]]. apply Atom; try assumption.
      destruct (Req_dec (P' y) 0) as [Z|Z]; [left; exact Z|right].
      right. apply in_or_app. right. apply ratios_in; [exact Hy|lra]. }
  rewrite !fsum_plus, !fsum_scal.
  assert (Mass : fsum N P <= fsum N P').
  { pose proof (Prof 0 (Rle_refl 0)) as H0. unfold Neighbours.hs in H0.
    rewrite (fsum_ext N (fun k => Rmax 0 (P k - 0 * Q k)) P) in H0
      by (intros k Hk; destruct (NN k Hk) as [Pk _]; rewrite Rmult_0_l, Rminus_0_r; apply Rmax_right, Pk).
    rewrite (fsum_ext N (fun k => Rmax 0 (P' k - 0 * Q' k)) P') in H0
      by (intros k Hk; destruct (NN k Hk) as [_ [_ [Pk _]]]; rewrite Rmult_0_l, Rminus_0_r; apply Rmax_right, Pk).
    exact H0. }
  assert (Hg : fsum N (fun y => hinges hl (P y) (Q y)) <= fsum N (fun y => hinges hl (P' y) (Q' y))).
  { apply fsum_hinges_le. intros m t I. destruct (Kn m t I) as [M It]. split; [exact M|].
    apply profile_homogeneous; [intros y Hy; destruct (NN y Hy) as [_ [? [_ ?]]]; split; assumption|exact Prof|].
    apply Ln, It. }
  assert (Hc : c * fsum N P <= c * fsum N P') by (apply Rmult_le_compat_l; assumption).
  lra.
Qed.

(** Clusters (envelope.hpp): members replaced by pairs whose hockey-stick profiles are at least
    theirs at every g >= 0, where the later menus are blind to the replaced use's output. *)
Theorem V_profile_dominance (N : nat) (M M' : list nat -> list member) :
  nonneg_menu N M -> nonneg_menu N M' ->
  (forall h c, In c (M h) -> exists c', In c' (M' h) /\
     (c' = c \/ ((forall g, 0 <= g -> hs g N (fst c) (snd c) <= hs g N (fst c') (snd c')) /\ output_blind M' h))) ->
  forall k h a b, 0 <= a -> 0 <= b -> V N M k h a b <= V N M' k h a b.
Proof.
  intros NN NN' Dom. apply V_dominance_blind; [exact NN|exact NN'|].
  intros h c Hc. destruct (Dom h c Hc) as [c' [Hc' [E|[Prof Bl]]]]; exists c'; split; try exact Hc'; [left; exact E|right].
  split; [|exact Bl]. destruct c as [P Q], c' as [P' Q'].
  apply profile_dominated; [|exact Prof]. intros y Hy.
  destruct (NN h (P, Q) Hc y Hy), (NN' h (P', Q') Hc' y Hy). simpl in *. tauto.
Qed.

(** The C++'s property (1): V_t(ℓ) = V(1, e^(−ℓ)) is non-decreasing in the accumulated loss ℓ. *)
Corollary V_nondecreasing_in_loss (N : nat) (menu : list nat -> list member) (k : nat) (h : list nat) (l l' : R) :
  nonneg_menu N menu -> l <= l' -> V N menu k h 1 (exp (- l)) <= V N menu k h 1 (exp (- l')).
Proof.
  intros NN L. apply V_monotone; [exact NN|lra|]. split; [left; apply exp_pos|].
  destruct (Req_dec l l') as [->|Ne]; [lra|]. left. apply exp_increasing. lra.
Qed.

(** ** The claim the program relies on *)

Definition adaptive_program_claim : Prop :=
  (* 1, bound: every strategy within the menus has its composed hockey-stick at most V. *)
  (forall (N : nat) (menu : list nat -> list member) (k : nat) (s : strategy) (h : list nat) (a b : R),
     within menu s -> D N k s h a b <= V N menu k h a b) /\
  (* 1, attained: with nonempty menus, some strategy within them (the argmax one) reaches V. *)
  (forall (N : nat) (menu : list nat -> list member) (k : nat) (h : list nat) (a b : R),
     (forall h, menu h <> []) -> exists s, within menu s /\ D N k s h a b = V N menu k h a b) /\
  (* 2: V has the properties a continuation needs (for nonnegative laws). *)
  (forall (N : nat) (menu : list nat -> list member) (k : nat) (h : list nat),
     nonneg_menu N menu -> W_regular (V N menu k h)) /\
  (* 3a: a post-processing's step is at most the original's. *)
  (forall (N N' : nat) (K : nat -> nat -> R) (c c' : member) (W : R -> R -> R) (a b : R),
     W_homogeneous W -> W_subadditive W -> postproc N N' K c c' ->
     (forall x, (x < N')%nat -> 0 <= fst c' x /\ 0 <= snd c' x) -> 0 <= a -> 0 <= b ->
     use_step N W c a b <= use_step N' W c' a b) /\
  (* 3b: more P-mass and less Q-mass give a larger step. *)
  (forall (N : nat) (W : R -> R -> R) (P Q P' Q' : law) (a b : R),
     W_monotone W -> (forall y, (y < N)%nat -> 0 <= P y <= P' y /\ 0 <= Q' y <= Q y) -> 0 <= a -> 0 <= b ->
     use_step N W (P, Q) a b <= use_step N W (P', Q') a b) /\
  (* A dominating pair (profile at least the member's at every g >= 0) dominates the member. *)
  (forall (N : nat) (P Q P' Q' : law),
     (forall y, (y < N)%nat -> 0 <= P y /\ 0 <= Q y /\ 0 <= P' y /\ 0 <= Q' y) ->
     (forall g, 0 <= g -> hs g N P Q <= hs g N P' Q') -> dominated N (P, Q) (P', Q')) /\
  (* 3a and 3b inside V: replacing members by dominating ones, where the later menus are blind
     to the replaced use's output, raises V. *)
  (forall (N : nat) (M M' : list nat -> list member),
     nonneg_menu N M -> nonneg_menu N M' ->
     (forall h c, In c (M h) -> exists c', In c' (M' h) /\ (c' = c \/ (dominated N c c' /\ output_blind M' h))) ->
     forall k h a b, 0 <= a -> 0 <= b -> V N M k h a b <= V N M' k h a b).

Theorem adaptive_program : adaptive_program_claim.
Proof.
  split; [exact D_le_V|]. split; [exact V_attained|]. split; [intros N menu k h NN; exact (V_regular N menu NN k h)|].
  split; [exact step_postproc|]. split; [exact step_mass|]. split; [exact profile_dominated|].
  exact V_dominance_blind.
Qed.

Print Assumptions adaptive_program.

Definition Adaptive_lemmas :=
  (@D_transcripts, @H_adaptive_one_use, @D_le_V, @D_opt, @V_attained,
   @V_regular, @V_le_a, @V_at_infinity, @V_state, @V_convex_in_g, @V_nondecreasing_in_loss,
   @W_fsum, @step_postproc, @step_split, @step_mass, @hs_postproc,
   @V_revealed_draw, @step_revealed_draw, @restricted_strategy, @V_menu_mono,
   @V_time_homogeneous, @postproc_dominated, @mass_dominated, @V_dominance, @V_history_ext, @V_step_blind, @V_dominance_blind,
   @step_scale_up, @scale_dominated, @hinge_rep, @profile_dominated, @V_profile_dominance,
   adaptive_program).
Print Assumptions Adaptive_lemmas.
