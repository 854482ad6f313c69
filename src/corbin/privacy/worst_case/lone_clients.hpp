#pragma once
// The worst case of a round of independent lone clients with finite laws (LDP-FL, PBM with one
// trial, RQM, ...): the released sum of n clients' outputs, client 1's input replaced.
//
// The reduction (neighbours.hpp's Lemma 1, for any finite law). H_γ(P‖Q) is jointly convex in
// (P, Q), and the law of the sum is linear in each client's law (a convolution). Where the room's
// law is affine in the input between consecutive `extreme` inputs c − r = e_0 < … < e_k = c + r,
// every input's law is a convex combination of the extremes' laws; so, each client in turn, every
// other client may sit at an extreme input, and client 1's pair of laws at a pair of extremes
// (the pair is affine in each of its two inputs). A configuration is thus client 1's two extremes
// and how many of the other n − 1 clients sit at each extreme: all of them are listed. Where the
// extremes are vertices of a hull holding every input's law (each law a convex combination of
// them, the weights depending on the input), the same holds for the others; client 1's pair
// (P, Q) = Σ λ_a μ_b (P_a, Q_b) over its two inputs' weights, so by joint convexity its worst case
// is at most that of a pair of vertices: every pair is listed, attained only where both are.
//
// Remove one (client 1 absent from the second dataset, its sum the other n − 1 clients'): the
// same argument over the others, and client 1's law P = Σ λ_a P_a against the fixed Q, so its
// worst case is at an extreme; a configuration is client 1's extreme and the others' counts.
// Each order of the pair is its own worst case for the run (from_family without both orders).
//
// The outputs' values must lie on a lattice (every value a multiple of one rational step, after
// the shift by c: the sum then indexes a window of integers). Under replace one the released
// sums in the two worlds are of the same count of outputs, so no shift is needed between them;
// under remove one they differ by one client's c, so the lattice's step divides c too and the
// second world's window is shifted by c/step (where no step of the limits does, the supports'
// values never meet: disjoint laws, as the parity of the count at c = 0 makes them).
//
// Dropout (each client, client 1 included, drops independently with probability p and sends
// nothing): the round is the labelled mixture over who survived, as run/round.hpp argues for
// Theorem 3's mechanism (the draw public, the inputs chosen knowing it; under remove one the draw
// given to the server beside the sum): client 1 dropped is one law in both worlds, and client 1
// with k other survivors is this family at k + 1 clients. Fewer survivors only lose privacy (the
// sum with an extra independent client is a post-processing), so past kMaxSurvivorPopulations
// clients the ladder's populations (survivors.hpp) stand in. Under remove one that mixture is
// +∞ wherever client 1 may be the only survivor (at c = 0 the count's parity even tells the two
// worlds apart given who survived), so the round is also bounded by an adversary told only how
// many survived (counted_remove.hpp, from this family under replace one at each population), the
// two met (pld/meet.hpp); the count told is still +∞ for everyone surviving ((1 − p)^n). Below
// it, the round as run (dropout_mixture.hpp: lone_dropout_mixtures): one coordinate, and for
// m >= 2 the whole round with every input the same in each coordinate, seen through the sum over
// the coordinates.

#include <optional>
#include <string>
#include <vector>

#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/setting.hpp"
#include "corbin/quantizer/scalar_law.hpp"

namespace corbin {

/// A room's exact law at one of its extreme inputs, and the input in words. A law that is not
/// affine in the input between extremes may still be a convex combination of finitely many laws
/// that no input gives (PBM with m trials: of the laws with a of its trials at p(c − r), the rest
/// at p(c + r)); such a vertex is listed with `attained` false, and a configuration using one is
/// a member for the upper bounds only (AttainedLaws::attained).
struct ExtremeLaw {
  std::vector<Atom<Rational>> atoms;
  std::string input;
  bool attained = true;
};

/// Most coordinates a round's lower end sees whole through their sum (each client's law
/// convolved m times, exactly), and most clients times those coordinates: its cost grows about
/// as n²·m^1.5 (e^ε = 3, sampling 1/10: n = 100, m = 64 in 1.3 s; past the cap, m = 512 in 28 s
/// and n = 400, m = 256 in 110 s).
constexpr std::uint64_t kMaxSummedCoordinates = 1024;
constexpr std::uint64_t kMaxSummedWork = std::uint64_t(1) << 14;

/// Largest number of configurations and of lattice points a family may hold.
constexpr std::size_t kMaxLoneConfigurations = 20000;
constexpr std::size_t kMaxLoneLattice = 1 << 20;

/// Every configuration of n >= 1 lone clients over the extremes' laws (at least two): under
/// replace one both orders of client 1's pair (Accountant::from_family with both_orders), under
/// remove one client 1 at each extreme against its absence (from_family without). Raises
/// invalid_argument naming n when the configurations or the lattice pass the limits above, or the
/// laws' values share no lattice of that size.
std::vector<AttainedLaws> lone_clients_family(const std::vector<ExtremeLaw>& extremes, unsigned long n,
                                              const Rational& center,
                                              Neighbour relation = Neighbour::replace_one);

/// One round of n >= 2 lone clients over the extremes' laws. Without dropout (p = 0) one
/// coordinate of it: the family's worst case (Accountant::from_family, both orders under replace
/// one). With dropout p in (0, 1) the whole round of m >= 1 coordinates, which share the draw:
/// above, the mixture over who survived of each population's m coordinates composed (under
/// remove one at m = 1, the family of the laws with dropout folded in, exact; at m >= 2, or past
/// that family's limits, met with the count told); below, the round as run (see above). Raises what lone_clients_family raises,
/// invalid_argument(dropout) outside [0, 1) and invalid_argument(m) for 0.
Accountant lone_clients_round(const std::vector<ExtremeLaw>& extremes, unsigned long n, const Rational& center,
                              Neighbour relation, const Rational& dropout, std::uint64_t m, const PldLimits& limits);

/// The extremes' laws as a client sends them with dropout p >= 0: each atom's mass times 1 − p,
/// and the value 0 (nothing sent, nothing added to the sum) with mass p.
std::vector<ExtremeLaw> sent_laws(const std::vector<ExtremeLaw>& extremes, const Rational& dropout);

/// The extremes' laws as windows on one lattice of the output values themselves (index v/h, h
/// the largest step dividing every value, so that sums of different numbers of outputs share
/// it), each with dropout p >= 0 (the client sends nothing, value 0, with probability p); none
/// where the sum of n of them passes kMaxLoneLattice points, or every value is 0.
std::optional<std::vector<WindowPmf>> lattice_laws(const std::vector<ExtremeLaw>& extremes, unsigned long n,
                                                   const Rational& dropout);

}  // namespace corbin
