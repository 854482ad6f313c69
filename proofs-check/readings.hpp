#pragma once
// What each claim says and how it may be read. A claim id has one statement quoted from the
// paper and one or more readings: the statement taken literally (every quantifier, set and
// precondition as printed), and each other reading the text admits (a typo's evident intent, the
// regime the sentence names made exact, a restricted class, a step of a proof). Every reading
// gets its own verdict from its evidence:
//
//   a Coq theorem pinned in proofs-check/coq/Verdicts.v as `holds__ID__key : Statement` (proved)
//   or `fails__ID__key : ~ Statement` (refuted), trusted only when the proofs were compiled and
//   checked in this run (coq_evidence.hpp);
//   a counterexample the check computed and wrote with all its inputs (recomputed by the
//   independent rechecker) when the law is too large for Coq;
//   a grid the check covered without a violation ("checked on a grid; proof open");
//   nothing: undecided.
//
// The claim's headline verdict follows from its readings by one rule (decide()), which the
// rechecker implements again. This file holds prose only; no verdict is written here.

#include <string>
#include <vector>

namespace corbin::audit {

/// How a reading relates to the printed claim; decide() reads the roles.
enum class Role {
  printed,     ///< the statement as printed
  intended,    ///< as evidently intended: a typo corrected (`note` names it)
  regime,      ///< the printed statement inside the regime it names, made exact (`note`: the condition)
  restricted,  ///< a narrower class than the one printed, reported beside it
  proof_step,  ///< a step of the paper's proof, not its conclusion
  beyond,      ///< not claimed by the paper (said so in the report)
  empirical,   ///< an experiment, decided under the sequential rule (experiments.hpp)
};
const char* to_string(Role role);

struct ReadingSpec {
  std::string key;   ///< [a-z0-9_]+, the Verdicts.v name's last part
  Role role = Role::printed;
  std::string text;  ///< the reading, in words an auditor can follow
  std::string note;  ///< intended: the typo; regime: the condition
};

struct ClaimSpec {
  std::string id;
  std::string location;  ///< where in the paper
  std::string quote;     ///< the statement, quoted
  std::vector<ReadingSpec> readings;
};

/// The second reading of a claim: what an independent re-derivation from the paper alone (by
/// someone who saw neither the checks nor their verdicts) concluded, where it differed from
/// this audit, and how that was settled. Empty where none was made.
std::string second_reading(const std::string& id);

/// A misprint in the paper whose intended form is clear, with the Coq theorems (in Errata.v
/// unless qualified) that show the printed and the intended forms differ.
struct Erratum {
  std::string id;        ///< ER1 … ER9 (ER5 withdrawn), Errata.v's E1 … E9: "ER" keeps them apart from the experiments' claims E1–E5
  std::string location;  ///< where in the paper
  std::string printed, intended;
  std::string effect;    ///< what it changes, and which claim's readings it enters
  std::vector<std::string> theorems;
};
const std::vector<Erratum>& errata();
/// Misprints considered and judged not to be errata (the text fixes the meaning elsewhere), with
/// the theorems behind the judgement; the report lists them after the errata.
const std::vector<Erratum>& not_errata();

/// Every claim id's statement and readings, in the report's order.
const std::vector<ClaimSpec>& claim_specs();
const ClaimSpec& claim_spec(const std::string& id);

/// The verdict vocabulary of the report (CLAIMS.md).
enum class Verdict7 {
  holds_proved,     ///< holds (proved)
  holds_grid,       ///< holds (checked on a grid; proof open)
  holds_empirical,  ///< holds (under the experiments' sequential rule)
  holds_only_under, ///< holds only under <condition>
  erratum,          ///< fails as printed, holds as evidently intended
  fails,
  proof_invalid,    ///< a step is wrong; the conclusion is not refuted
  undecided,
};

struct Decision {
  Verdict7 verdict = Verdict7::undecided;
  std::string detail;  ///< the condition, the typo, or what is missing
  std::string text() const;
};

/// One reading's evidence and verdict.
struct ReadingResult {
  ReadingSpec spec;
  Decision decision;
  std::string coq_file, coq_lemma, coq_pinned, coq_statement;  ///< when a theorem decides it
  bool coq_checked = false;  ///< the proofs were compiled and checked in this run
  std::string evidence;      ///< the evidence, in words
  std::string computed;      ///< what the check's computation found for it (claims.hpp Verdict), if any
};

/// The claim's verdict from its readings:
///   the printed reading holds                          -> its verdict (proved / grid / empirical);
///   it fails or is undecided and an `intended` reading is proved -> erratum (the typo);
///   it fails and a `regime` reading holds              -> holds only under (the condition);
///   it is undecided and a `proof_step` reading fails   -> proof invalid;
///   otherwise                                          -> the printed reading's verdict.
/// A claim with no printed reading (L1: beyond the paper) takes its first reading's verdict.
Decision decide(const std::vector<ReadingResult>& readings);

}  // namespace corbin::audit
