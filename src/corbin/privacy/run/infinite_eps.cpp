#include "corbin/privacy/run/infinite_eps.hpp"

#include <cmath>

#include "corbin/number/error.hpp"

namespace corbin {

std::string infinite_eps_reason(Neighbour relation, bool dropout, std::optional<bool> ldpq_finite, bool proved) {
  // Short enough (under 200 bytes) that the CLI's text output prints it whole.
  const std::string out = proved ? "no finite ε holds: " : "no finite ε is certified: ";
  const std::string outputs = "outputs its neighbour cannot give have probability > δ";
  if (!ldpq_finite || *ldpq_finite)
    return out + "client 1 as a pair's member (in some rounds or all) has an unbounded likelihood ratio under " +
           (relation == Neighbour::replace_one ? "replace-one" : "remove-one") + " (S1): " + outputs;
  if (relation == Neighbour::remove_one && dropout && !proved)
    return out + "with dropout under remove-one, an adversary who knows the public draw (client 1's survival too) tells "
                 "the sums with and without client 1 apart; the lower end's sees the sum alone";
  if (relation == Neighbour::remove_one)
    return out + "under remove-one, sums of n and n − 1 clients' outputs differ in support: " + outputs;
  return out + outputs;
}

std::optional<RunLedger> ldpq_every_round(const RunLedger& ledger) {
  RunLedger out(ledger.limits());
  for (const RunLedger::Phase& p : ledger.phases()) {
    if (!p.kind) {
      if (p.coordinates)
        out.step_rounds(*p.use, p.coordinates, p.rounds, *p.relation, p.survivors_mixed);
      else
        out.step(*p.use, p.rounds);
      continue;
    }
    RoundKind k = *p.kind;
    k.role = TargetClient::Role::ldpq;
    try {
      out.step(k, p.rounds);
    } catch (const invalid_argument&) {
      return std::nullopt;  // a population without an LDPQ position (check_round_kind says so)
    }
  }
  return out;
}

std::optional<InfiniteEps> explain_infinite_eps(const RunLedger& ledger, const Rational& delta,
                                                const RunLedger::Answer& answer) {
  if (!std::isinf(answer.bounds.upper)) return std::nullopt;
  InfiniteEps out;
  Neighbour relation = Neighbour::replace_one;
  bool dropout = false;  // in a remove-one round
  for (const RunLedger::Phase& p : ledger.phases())
    if (p.kind && p.kind->setting.relation == Neighbour::remove_one) {
      relation = Neighbour::remove_one;
      dropout = dropout || p.kind->dropout > 0;
    }
  if (const std::optional<RunLedger> ldpq = ldpq_every_round(ledger)) out.ldpq = ldpq->epsilon(delta).bounds;
  out.reason = infinite_eps_reason(relation, dropout, out.ldpq ? std::optional<bool>(!std::isinf(out.ldpq->upper)) : std::nullopt,
                                   std::isinf(answer.bounds.lower));
  return out;
}

}  // namespace corbin
