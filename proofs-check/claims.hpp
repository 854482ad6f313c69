#pragma once
// The audit's checks: one per claim id of CLAIMS.md. A check computes its verdict from the
// library (never from prose) and returns a one-line finding, a section for audit.md and a JSON
// certificate: parameters, exact values as "p/q", certified values as intervals, witnesses, and
// "recheck" items that proofs-check/recheck_certificates.py verifies independently. A check
// computes one reading of its claim (`reading`); the claim's verdict comes from all its readings
// and the Coq proofs (readings.hpp, attach_readings in audit.cpp).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/number/rational.hpp"
#include "corbin/privacy/formulas/dropout.hpp"
#include "readings.hpp"

namespace corbin::audit {

using Json = nlohmann::ordered_json;

/// The grids a run covers. `paper()` is the full audit; `quick()` a subset for CI and --quick.
struct Grid {
  std::vector<Rational> exp_eps;   ///< e^ε values (rational: exact arithmetic throughout)
  std::vector<double> eps;         ///< the paper's ε grid, for labels
  std::vector<unsigned long> bits; ///< d
  std::vector<unsigned long> clients;  ///< n
  unsigned long enumerate_up_to = 8;   ///< d for brute-force cross-checks
  unsigned long optimise_up_to = 3;    ///< d for T1c's exact optimisation
  unsigned long input_steps = 8;       ///< inputs per unit of radius on grids of w
  bool quick = false;
  /// The full-scale federated runs' CSV the experiments' claims (E1–E5) are decided from.
  std::string fl_results = CORBIN_FL_RESULTS;
  static Grid paper();
  static Grid quick_grid();
};

/// Experiment 8's figure (audit.cpp's experiment8.csv, X8's caption): its ε values, and its
/// inputs' steps per half-range r (finer on the paper's grid).
inline constexpr double kExperiment8Eps[] = {0.5, 1.0, 3.0};
inline long experiment8_steps(bool quick) { return quick ? 8 : 20; }

/// e^ε as a rational close to exp(eps) from above with a small denominator, so that every
/// point of the paper's ε grid gets an exact α. The certificate records both.
Rational exp_eps_near(double eps);

/// α = (e^ε + 1)/(e^ε − 1), exactly (the library's Budget formula).
Rational alpha_of(const Rational& exp_eps);

/// x to `places` decimals, rounded down (`up` false) or up, exactly: a number a finding prints
/// beside a comparison is rounded the way that keeps the printed comparison true ("0.886 exceeds
/// the bound's 0.551" rounds the bound up, the value down).
std::string decimals(const Rational& x, int places, bool up);

/// What a check's computation found for the one reading it computes (the claim's verdict is a
/// Decision, readings.hpp).
enum class Verdict { holds, holds_with_slack, holds_only_under, fails, undecided };
const char* to_string(Verdict v);
using corbin::to_string;  // Rational -> "p/q", next to the Verdict overload

/// A figure of the report: its file under figures/ and its caption, which names every parameter
/// it is drawn at (a claim's figure is drawn at its witness, where the claim fails).
struct Figure {
  std::string file, caption;
};

struct ClaimResult {
  std::string id;
  Verdict verdict = Verdict::undecided;
  std::string condition;  ///< for holds_only_under
  std::string finding;    ///< one line
  std::string statement, method, result, recheck;  ///< audit.md section (markdown)
  std::vector<Figure> figures;
  Json certificate = Json::object();
  std::string verdict_text() const;  ///< the check's outcome: "holds only under <condition>" etc.
  /// The reading (readings.hpp key) the check's computation decides; empty: its numbers support
  /// the report but decide no reading.
  std::string reading = "printed";
  /// Other readings the check decides by a witness (witness.hpp) it puts in the certificate.
  std::vector<std::pair<std::string, Verdict>> also;
  std::vector<ReadingResult> readings;  ///< filled by attach_readings
  Decision decision;                    ///< the claim's verdict
};

/// A bound claimed as value <= bound: holds (tight), holds with slack, or fails.
Verdict bound_verdict(const Rational& tight, const Rational& claimed);

/// The verdict of a bound over many cases: fails if any case fails, holds if none fails and
/// some case is tight, holds with slack otherwise.
struct BoundTally {
  bool fails = false, tight = false;
  void add(const Rational& value, const Rational& claimed) {
    const Verdict v = bound_verdict(value, claimed);
    fails = fails || v == Verdict::fails;
    tight = tight || v == Verdict::holds;
  }
  Verdict verdict() const { return fails ? Verdict::fails : tight ? Verdict::holds : Verdict::holds_with_slack; }
};

/// Exact value in a certificate: "p/q" plus a decimal twin.
void put(Json& j, const std::string& key, const Rational& value);
void put(Json& j, const std::string& key, const Interval& value);

/// A recheck item for the independent checker: the exact CorBinQ joint law at one input.
Json joint_recheck(const Rational& alpha, const Rational& c, const Rational& r, const Rational& w1,
                   const Rational& w2, unsigned long bits, const char* variant);

using Check = ClaimResult (*)(const Grid&);
struct NamedCheck {
  const char* id;
  Check run;
};
/// Every check, in CLAIMS.md order.
const std::vector<NamedCheck>& all_checks();

ClaimResult check_p1(const Grid&);
ClaimResult check_a2(const Grid&);
ClaimResult check_t1a(const Grid&);
ClaimResult check_t1b(const Grid&);
ClaimResult check_t1c(const Grid&);
ClaimResult check_t2a(const Grid&);
ClaimResult check_t2b(const Grid&);
ClaimResult check_t2c(const Grid&);
ClaimResult check_t3(const Grid&);
ClaimResult check_t4(const Grid&);
ClaimResult check_d0(const Grid&);
ClaimResult check_c1(const Grid&);
ClaimResult check_r1(const Grid&);
ClaimResult check_l1(const Grid&);
ClaimResult check_t1u(const Grid&);
ClaimResult check_t3m(const Grid&);
ClaimResult check_t4u(const Grid&);
ClaimResult check_t4m(const Grid&);
ClaimResult check_s1(const Grid&);
ClaimResult check_d1(const Grid&);
ClaimResult check_x1(const Grid&);
ClaimResult check_g1(const Grid&);
ClaimResult check_x8(const Grid&);
ClaimResult check_b1(const Grid&);
ClaimResult check_e1(const Grid&);
ClaimResult check_e2(const Grid&);
ClaimResult check_e3(const Grid&);
ClaimResult check_e4(const Grid&);
ClaimResult check_e5(const Grid&);

/// Theorem 3 at the paper's model sizes (t3_scale.cpp): one row per (m, n, rounds, client 1's
/// role) with the printed ε_u, its precondition and certified [ε_lower, ε_upper]; `summary` gets
/// one sentence per model at the smallest n meeting the precondition.
Json t3_paper_scale(const Grid& grid, std::string& summary);

/// Theorem 4's setting in a witness: n, m, p, δ, δ1, α (the budget is given as α) and r.
void put_dropout_setting(Json& witness, const DropoutSetting& s, const Rational& alpha);

/// Theorem 4's UCDP conclusion at the inputs of Thm4.v's refutation (check_t4u.cpp): fills `witness`
/// with every input and number, and `difference` with P(S) − P′(S); fails when the margin
/// P(S) − e^ε_u P′(S) − δ is certified positive. T4's check cites it for its conclusion.
Verdict t4u_count_witness(Json& witness, double& difference);

/// The T1b and T2b logic with the claimed bound as a parameter, so tests can hand them a
/// deliberately wrong bound and see it fail.
ClaimResult gap_check(const Grid& grid, Rational (*claimed)(const Rational& alpha, const Rational& r,
                                                            unsigned long bits));
ClaimResult aggregate_bound_check(const Grid& grid, Rational (*claimed)(const Rational& alpha,
                                                                        const Rational& r));

}  // namespace corbin::audit
