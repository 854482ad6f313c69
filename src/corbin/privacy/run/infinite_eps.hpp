#pragma once
// Why a run's certified ε_upper(δ) is infinite, said the same way by every front end (`corbin
// account`, `corbin fl`, Python's Accountant.explain()), and what a client on LDPQ in every round
// gets instead, printed beside it.
//
// An infinite ε_upper(δ) means that, in the dominating pair of the worst case, outputs that one
// dataset can give and its neighbour cannot carry probability above δ: no ε makes up for them.
// Where that comes from is read off the accountant's answers, not assumed:
//   - client 1 as a pair's member, when a client on LDPQ in every round has a finite ε (or no
//     round has an LDPQ position): its pair's joint law has an unbounded likelihood ratio under
//     replace-one (the audit's claims L1 and S1);
//   - remove-one neighbours, when the LDPQ role is infinite too: the sums of n and n − 1 clients'
//     outputs lie on different points; with dropout, where the lower end (the mixture over who
//     drops with the inputs fixed before the draw and the sum alone seen, dropout_mixture.hpp) is
//     finite, the upper end's adversary, who knows the public draw (round.hpp), is what tells the
//     sums with and without client 1 apart;
//   - otherwise the reason names only what is certain (outputs impossible under the neighbour).
// The lower bound decides the wording: where it is infinite too, an attained configuration shows
// that no finite ε holds; else none is certified.

#include <optional>
#include <string>

#include "corbin/privacy/run/run_ledger.hpp"

namespace corbin {

/// The reason, one sentence. `relation`: remove-one where any round's neighbours are; `dropout`:
/// whether such a round drops clients;
/// `ldpq_finite`: whether client 1 on LDPQ in every round has a finite ε_upper(δ) (none where some
/// round has no LDPQ position); `proved`: whether ε_lower(δ) is infinite too.
std::string infinite_eps_reason(Neighbour relation, bool dropout, std::optional<bool> ldpq_finite, bool proved);

/// The same rounds with client 1 on LDPQ in every round of Theorem 3's kinds (the uses of a given
/// mechanism as they are), or none where some kind's population has no LDPQ position.
std::optional<RunLedger> ldpq_every_round(const RunLedger& ledger);

/// An infinite ε_upper(δ), explained.
struct InfiniteEps {
  std::string reason;
  std::optional<TwoSided> ldpq;  ///< ε(δ) of client 1 on LDPQ in every round; none: no such role
};

/// For `answer`, the ledger's ε(δ): none where its upper end is finite.
std::optional<InfiniteEps> explain_infinite_eps(const RunLedger& ledger, const Rational& delta,
                                                const RunLedger::Answer& answer);

}  // namespace corbin
