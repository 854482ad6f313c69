#pragma once
// The privacy vocabulary: the words every layer of privacy/ (README.md there draws the layers)
// and every command use for one question "how private is client 1?".
//
//  * The neighbouring relation (Neighbour): which two datasets client 1 must not be told apart
//    in. `replace_one` changes client 1's input to any other input in [c − r, c + r];
//    `remove_one` takes client 1 out exactly as Eq. (1) does (the same 1/n, a partner keeps its
//    output from the pair). Every mechanism accepts replace one. Remove one is accounted where
//    the law without client 1 is written out: Theorem 3's mechanism (CorBin-FL, AugCorBin-FL,
//    LDP-FL as γ = 1) in the exact reference, the certified accountant and the run accountant;
//    the lone rooms' builder (worst_case/lone_clients.hpp: LDP-FL, PBM, RQM); the noise rooms'
//    builders (fl/mechanisms/*: round_accountant) refuse it, saying why.
//  * The population (PopulationCounts): how many clients quantize alone (LDPQ) and how many
//    pairs share a CorBinQ coin, from n and γ as the reference code splits them.
//  * Client 1 (TargetClient): its role (alone, a pair's leader or follower) and its inputs.
//  * The geometry (SumGeometry): α, c, r, the bits d and the CorBinQ variant, shared by every
//    client of one coordinate.
//  * The accounted round (AccountSetting): all of the above for one coordinate of one round, as
//    the certified accountant (privacy/run/accountant.hpp) takes it.
//
// Every check of these values happens once, here (check_account_setting, check_role_present),
// at the boundary where a setting is built; the layers below take a checked setting.

#include <cstddef>
#include <optional>
#include <string>

#include "corbin/number/rational.hpp"
#include "corbin/quantizer/budget.hpp"
#include "corbin/quantizer/corbinq.hpp"

namespace corbin {

/// The neighbouring relation (see above).
enum class Neighbour { remove_one, replace_one };
/// "remove" | "replace", else invalid_argument naming the library's parameter `relation`.
Neighbour parse_neighbour(const std::string& text);
const char* to_string(Neighbour n);

/// The quantizer parameters shared by every client of one coordinate.
struct SumGeometry {
  Rational alpha, center, radius;
  unsigned long bits = 5;
  Variant variant = Variant::corrected;
};

/// Client 1 (the one whose presence or weight is protected) and its role.
struct TargetClient {
  enum class Role { ldpq, leader, follower } role = Role::ldpq;
  Rational weight;   ///< w1 in the first world
  Rational partner;  ///< the partner's weight (paired roles only)
};

/// LDPQ clients and CorBin pairs of the population, client 1 included: the first ⌊γn⌋ clients
/// on LDPQ, one more if the rest is odd (an unpaired client quantizes alone), the rest in pairs.
struct PopulationCounts {
  std::size_t ldpq, pairs;
};
PopulationCounts population_counts(unsigned long n, const Rational& gamma);
/// Raises invalid_argument("role") when no client of the population has client 1's role.
void check_role_present(const PopulationCounts& counts, TargetClient::Role role,
                        const Rational& gamma);

/// Largest n the certified law is computed for: each configuration's window is about 33√n points
/// and the others' law a product of two such, so one coordinate costs about n (on 2 cores 1.6 s
/// at n = 10^6 and γ = 1, 8.5 s at γ = 1/2; 33 s at 10^7, and 10^8, the limit before, ran for
/// minutes).
constexpr unsigned long kMaxAccountClients = 1'000'000;

/// One coordinate of one round of Theorem 3's mechanism, as the certified accountant takes it.
struct AccountSetting {
  unsigned long n = 0;
  Rational gamma{1};
  Budget budget{Budget::Kind::exp_eps, Rational(3)};
  Rational center{0}, radius{1};
  unsigned long bits = 5;
  Variant variant = Variant::corrected;
  TargetClient::Role role = TargetClient::Role::ldpq;
  Neighbour relation = Neighbour::replace_one;
  /// The LDPQ clients and pairs, client 1 included, where they are not n and γ's
  /// (population_counts): the population a dropout round's survivors form (survivors.hpp).
  std::optional<PopulationCounts> counts;
};

/// Largest budget the certified accountant takes: e^ε at most 10^279, ε at most 642 where ε itself
/// is given (e^642 < 10^279). Its windows hold probabilities as doubles down to 10^-280
/// (aggregate_law.cpp), and an LDPQ client's unlikely output has probability 1/(e^ε + 1); past
/// it only the budget bounds ε(δ) (ε a use). Checked on the rationals, before any enclosure is
/// made (at ε = 10^7 the working precision alone, 1.44·10^7 bits, cost 30 s before the refusal).
constexpr unsigned kMaxAccountExpEpsDigits = 279;  ///< e^ε <= 10^279
constexpr long kMaxAccountEps = 642;
/// Raises invalid_argument naming the budget's parameter (eps, exp_eps or alpha) past them.
void check_account_budget(const Budget& b);

/// Validates n in [2, kMaxAccountClients], γ in [0, 1], r > 0, the budget (check_account_budget),
/// the role present in the population; with explicit `counts`, at least 2 clients and at most
/// kMaxAccountClients in them.
void check_account_setting(const AccountSetting& s);
/// The population's LDPQ clients and pairs, client 1 included.
PopulationCounts counts_of(const AccountSetting& s);
/// Whether two settings give the same mechanism, every field equal but the role (a round's kind
/// keeps the role apart; compare it too where it counts).
bool same_setting(const AccountSetting& a, const AccountSetting& b);

}  // namespace corbin
