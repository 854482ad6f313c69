// The `corbin` Python module (pybind11): the library's main entry points for notebooks and
// scripts. Exact values cross the boundary as fractions.Fraction (inputs may be Fraction, int,
// or a decimal/fraction string or float, read exactly as written: 0.3 is 3/10); certified
// values come back as floats (the midpoint) with the enclosure where it matters; sampler
// arrays are NumPy float32.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "corbin/conform/builtin.hpp"
#include "corbin/conform/grid.hpp"
#include "corbin/conform/trial.hpp"
#include "corbin/fl/coordinate.hpp"
#include "corbin/fl/registry.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/run/infinite_eps.hpp"
#include "corbin/privacy/run/run_ledger.hpp"
#include "corbin/privacy/formulas/baselines.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"
#include "corbin/privacy/formulas/pldp.hpp"
#include "corbin/privacy/formulas/ucdp.hpp"
#include "corbin/quantizer/sampler.hpp"
#include "corbin/utility/pair_mse.hpp"
#include "corbin/version.hpp"

namespace py = pybind11;
using namespace corbin;

namespace {

/// Python's name of `value`'s type, for a TypeError.
std::string type_name(const py::handle& value) {
  return py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>();
}

/// Whether `value` is a Python int (bool aside).
bool is_int(const py::handle& value) {
  return py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value);
}

/// A Python int exactly, through hexadecimal: Python refuses str() of an int past 4 300 digits
/// (sys.set_int_max_str_digits), which would otherwise be a ValueError naming nothing.
BigInt int_value(const py::handle& value) {
  std::string hex = py::module_::import("builtins").attr("hex")(value).cast<std::string>();
  const bool negative = hex.front() == '-';
  const BigInt magnitude(hex.substr(negative ? 1 : 0));  // "0x…": read as hexadecimal
  return negative ? BigInt(-magnitude) : magnitude;
}

/// Fraction, int, str or float (or another type with __float__: Decimal, NumPy's scalars) ->
/// exact Rational (a float through its shortest repr, an int of any length exactly). Any other
/// type, None and bool among them, is a TypeError naming the parameter: its str() ("None",
/// "True", "[1]") is no number to read.
Rational to_rational(const py::handle& value, const char* name) {
  if (value.is_none() || py::isinstance<py::bool_>(value) ||
      !(py::isinstance<py::str>(value) || py::hasattr(value, "__float__")))
    throw py::type_error(std::string(name) +
                         " must be a number (int, Fraction, float or a str such as '3/10'), not " +
                         type_name(value));
  if (is_int(value)) return Rational(int_value(value));
  return parse_rational(py::str(value).cast<std::string>(), name);
}

/// The budget as every question takes it: at most one of alpha, exp_eps, eps (two or more are
/// an error naming "budget"); none when none is given (the caller says whether one is needed).
std::optional<Budget> to_budget(const py::handle& alpha, const py::handle& exp_eps, const py::handle& eps) {
  const int given = !alpha.is_none() + !exp_eps.is_none() + !eps.is_none();
  if (given > 1) throw corbin::invalid_argument("budget", "given twice", "exactly one of alpha, exp_eps, eps");
  if (!alpha.is_none()) return Budget::make(Budget::Kind::alpha, to_rational(alpha, "alpha"));
  if (!exp_eps.is_none()) {
    const Budget b = Budget::make(Budget::Kind::exp_eps, to_rational(exp_eps, "exp_eps"));
    // An ε passed as e^ε (exp_eps=1.0986): valid, so a warning (warnings.warn), not an error.
    const std::string typed = is_int(exp_eps) ? int_value(exp_eps).str() : py::str(exp_eps).cast<std::string>();
    const std::string line = b.unit_warning("exp_eps =", typed, "eps=");
    if (!line.empty() && PyErr_WarnEx(PyExc_UserWarning, line.c_str(), 1) < 0) throw py::error_already_set();
    return b;
  }
  if (!eps.is_none()) return Budget::make(Budget::Kind::eps, to_rational(eps, "eps"));
  return std::nullopt;
}

/// A budget that must be given.
Budget required_budget(const py::handle& alpha, const py::handle& exp_eps, const py::handle& eps) {
  const std::optional<Budget> b = to_budget(alpha, exp_eps, eps);
  if (!b) throw corbin::invalid_argument("budget", "missing", "exactly one of alpha, exp_eps, eps");
  return *b;
}

/// α exactly from the budget as alpha or exp_eps (exactly one of the three given): an exact law's
/// question; ε itself makes α transcendental, which such a law cannot hold, so eps is refused
/// with what to give instead.
Rational exact_alpha(const py::handle& alpha, const py::handle& exp_eps, const py::handle& eps) {
  const Budget b = required_budget(alpha, exp_eps, eps);
  if (!b.exact())
    throw corbin::invalid_argument("eps", b.shown_value(), "given as alpha or exp_eps (an exact law needs a rational α)");
  return b.alpha_exact();
}

/// r > 0.
Rational to_radius(const py::handle& value) {
  const Rational r = to_rational(value, "radius");
  check_radius(r);
  return r;
}

/// A weight in [c − r, c + r] (the quantizers' domain; larger values are clipped by clients first).
Rational to_weight(const py::handle& value, const char* name, const Rational& c,
                   const Rational& r) {
  const Rational w = to_rational(value, name);
  check_weight(name, w, c, r);
  return w;
}

/// A Python integer in [0, limit], compared as an arbitrary-precision integer before any
/// conversion (-1 or 2^64 must be refused by name, not wrapped or rejected by pybind11's caster).
/// Any integer type (int, NumPy's integers: __index__) but bool is accepted; another type is a
/// TypeError naming the parameter.
unsigned long to_count(const py::handle& value, const char* name, unsigned long limit, unsigned long minimum = 0) {
  if (py::isinstance<py::bool_>(value) || !PyIndex_Check(value.ptr()))
    throw py::type_error(std::string(name) + " must be an integer, not " + type_name(value));
  const py::int_ v(py::reinterpret_borrow<py::object>(value));
  if (v < py::int_(minimum) || v > py::int_(limit))
    throw corbin::invalid_argument(name, quote(int_value(v).str()),  // shortened by the message
                                   "an integer in [" + std::to_string(minimum) + ", " + std::to_string(limit) + "]");
  return v.cast<unsigned long>();
}

/// Every element of a sampler input is a finite number (an infinity would be clipped silently,
/// a NaN would be quantized as the center).
void check_finite(const py::array_t<float, py::array::c_style | py::array::forcecast>& w,
                  const char* name) {
  const float* p = w.data();
  for (py::ssize_t i = 0; i < w.size(); ++i)
    if (!std::isfinite(p[i]))
      throw corbin::invalid_argument(std::string(name) + "[" + std::to_string(i) + "]",
                                     std::to_string(p[i]), "a finite number");
}

/// A double exactly as a Fraction (a certified end is the double itself), inf as float('inf').
py::object exact_double(double x) {
  static py::object fraction_type = py::module_::import("fractions").attr("Fraction");
  if (std::isinf(x)) return py::float_(x);
  return fraction_type(py::float_(x));
}

/// A certified bracket (lower, upper): as floats, or (`exact`) as the Fractions those doubles are.
py::tuple ends(const TwoSided& b, bool exact) {
  if (!exact) return py::make_tuple(b.lower, b.upper);
  return py::make_tuple(exact_double(b.lower), exact_double(b.upper));
}

/// x as a Fraction, through hexadecimal integers: Python limits the digits of a decimal string it
/// reads (4 300 by default), not of a power-of-two base, and an enclosure's end can have far more
/// (ε = 10^6 gives ends of 2^(−1.4·10^6)).
py::object fraction(const Rational& x) {
  static py::object fraction_type = py::module_::import("fractions").attr("Fraction");
  static py::object int_type = py::module_::import("builtins").attr("int");
  const auto hex = [](const BigInt& v) { return int_type(BigInt(abs(v)).str(0, std::ios_base::hex), 16); };
  const py::object magnitude = fraction_type(hex(numerator(x)), hex(denominator(x)));
  return x < 0 ? py::object(-magnitude) : magnitude;
}

py::dict joint_dict(const JointLaw<Rational>& law) {
  py::dict d;
  d["++"] = fraction(law.pp);
  d["+-"] = fraction(law.pm);
  d["-+"] = fraction(law.mp);
  d["--"] = fraction(law.mm);
  return d;
}

double mid(const Interval& x) {
  return midpoint_of(x).convert_to<double>();
}

/// A certified enclosure as (lower, upper) Fractions: MPFR's endpoints are dyadic rationals, so
/// they cross exactly (a float could round the lower end up).
py::tuple enclosure(const Interval& x) {
  return py::make_tuple(fraction(corbin::to_rational(lower_of(x))),
                        fraction(corbin::to_rational(upper_of(x))));
}

/// The setting of a room's per-coordinate questions (fl::CoordinateSetting): exactly one of
/// exp_eps, alpha (exact) or eps (certified) for a room that takes a budget, none for one that
/// takes none.
fl::CoordinateSetting coordinate_setting(const fl::Mechanism& m, const py::handle& exp_eps,
                                         const py::handle& alpha, const py::handle& eps,
                                         const py::handle& c, const py::handle& r,
                                         const py::handle& bits, const std::string& variant,
                                         const py::handle& delta) {
  fl::CoordinateSetting s;
  const std::optional<Budget> budget = to_budget(alpha, exp_eps, eps);
  if (!budget && m.takes_budget())
    throw corbin::invalid_argument("budget", "missing",
                                   "exactly one of alpha, exp_eps, eps (" + m.name() + " takes one)");
  // A budget the room does not take would be ignored: an answer to another question.
  if (budget && !m.takes_budget())
    throw corbin::invalid_argument("budget", "given", "absent for " + m.name() + ", which takes none");
  if (budget) s.budget = *budget;
  s.center = to_rational(c, "center");
  s.radius = to_radius(r);
  s.bits = static_cast<unsigned>(to_count(bits, "bits", kMaxBits));
  s.variant = parse_variant(variant);
  s.delta = to_rational(delta, "delta");
  return s;
}

/// Registers f(mechanism, w?, setting...) under `name`, with the setting's keywords and their
/// defaults (CoordinateSetting's), at the working precision CorBinQ's d needs for an ε budget.
template <class F>
void def_question(py::module_& m, const char* name, const char* doc, F answer, bool takes_w) {
  const auto run = [answer, takes_w](const std::string& mechanism, const py::handle& w,
                            const py::handle& exp_eps, const py::handle& alpha,
                            const py::handle& eps, const py::handle& c, const py::handle& r,
                            const py::handle& bits, const std::string& variant,
                            const py::handle& delta) {
    const fl::Mechanism& room = fl::Registry::global().find(mechanism);
    const fl::CoordinateSetting s =
        coordinate_setting(room, exp_eps, alpha, eps, c, r, bits, variant, delta);
    PrecisionScope scope(s.budget.precision_bits(s.bits));  // the CLI's default: ε = 10^-200 too
    // A question about w reads it whatever it is (None is a TypeError, not "no w").
    return answer(room, s,
                  takes_w ? std::optional(to_weight(w, "w", s.center, s.radius)) : std::nullopt);
  };
  const auto setting_args = [](auto&&... first) {
    return std::make_tuple(first..., py::kw_only(), py::arg("exp_eps") = py::none(),
                           py::arg("alpha") = py::none(), py::arg("eps") = py::none(),
                           py::arg("center") = 0, py::arg("radius") = 1, py::arg("bits") = 5,
                           py::arg("variant") = "corrected", py::arg("delta") = "1e-5");
  };
  if (takes_w)
    std::apply([&](auto&&... args) { m.def(name, run, doc, args...); },
               setting_args(py::arg("mechanism"), py::arg("w")));
  else
    std::apply(
        [&](auto&&... args) {
          m.def(
              name,
              [run](const std::string& mechanism, const py::handle& exp_eps,
                    const py::handle& alpha, const py::handle& eps, const py::handle& c,
                    const py::handle& r, const py::handle& bits, const std::string& variant,
                    const py::handle& delta) {
                return run(mechanism, py::none(), exp_eps, alpha, eps, c, r, bits, variant, delta);
              },
              doc, args...);
        },
        setting_args(py::arg("mechanism")));
}

/// A PLDP summary: the ratio (Fraction, (lower, upper) Fractions, or inf), the claimed e^ε (None
/// when the room claims none), and where it is reached.
py::dict pldp_dict(const fl::PldpSummary& p) {
  py::dict d;
  d["unbounded"] = p.unbounded;
  d["ratio"] = p.unbounded     ? py::object(py::float_(std::numeric_limits<double>::infinity()))
               : p.ratio_exact ? fraction(*p.ratio_exact)
                               : py::object(enclosure(p.ratio));
  d["bound"] = !p.claimed      ? py::object(py::none())
               : p.bound_exact ? fraction(*p.bound_exact)
                               : py::object(enclosure(p.bound));
  d["client"] = p.client;
  d["output"] = p.output;
  d["w_high"] = fraction(p.w_high);
  d["w_low"] = fraction(p.w_low);
  d["w_partner"] = p.w_partner ? fraction(*p.w_partner) : py::object(py::none());
  d["attained"] = p.attained;
  return d;
}

UcdpSetting ucdp_setting(const py::handle& m, const py::handle& n, const py::handle& gamma,
                         const py::handle& delta, const py::handle& radius, const py::handle& alpha,
                         const py::handle& exp_eps, const py::handle& eps) {
  return {to_count(m, "m", 1ul << 40), to_count(n, "n", 1ul << 40), to_rational(gamma, "gamma"),
          to_rational(delta, "delta"),  to_radius(radius),           required_budget(alpha, exp_eps, eps)};
}

py::dict formula_dict(const UcdpFormula& f) {
  py::dict d, terms;
  d["eps_u"] = mid(f.eps_u);
  d["precondition"] = f.precondition;
  for (const auto& t : f.terms) terms[py::str(t.name)] = mid(t.value);
  d["terms"] = terms;
  return d;
}

/// The Python Accountant: a run's ledger, and the kind of round step() changes (none for a pair
/// of laws).
struct PyLedger {
  PyLedger(RunLedger l, std::optional<RoundKind> k) : ledger(std::move(l)), last(std::move(k)) {}
  // A copy has a recipe of its own (a py::list copied is the same list, which its calls change).
  PyLedger(const PyLedger& o)
      : ledger(o.ledger), last(o.last), recipe(o.recipe_copy()), answers(o.answers), uppers(o.uppers) {}
  PyLedger& operator=(const PyLedger& o) {
    if (this != &o) *this = PyLedger(o);
    return *this;
  }
  PyLedger(PyLedger&&) = default;
  PyLedger& operator=(PyLedger&&) = default;

  RunLedger ledger;
  std::optional<RoundKind> last;
  /// How to make it again, for pickle: the calls that made it, each a tuple ("Accountant",
  /// keywords), ("from_laws", p, q, cells), ("step", rounds, changes), ("compose", k) or ("then",
  /// the next ledger's recipe), replayed through the same methods (so a state names no C++ field).
  py::list recipe;
  /// The answers given for this ledger as it is (keyed by query and its exact argument): repr and
  /// the get_ methods ask again without recomputing; step() empties it.
  std::map<std::pair<int, Rational>, RunLedger::Answer> answers;
  std::map<std::pair<int, Rational>, double> uppers;

  /// A copy that another call changes: no answers.
  PyLedger changed_copy() const {
    PyLedger out(*this);
    out.forget();
    return out;
  }
  /// The recipe as it is now (py::list(recipe) would be the same list, which later calls change).
  py::list recipe_copy() const { return recipe.attr("copy")(); }
  void forget() {
    answers.clear();
    uppers.clear();
  }
  /// ε(δ) at x, or (`at_eps`) δ(ε) at x, in full (RunLedger::epsilon / delta), kept.
  const RunLedger::Answer& answer(bool at_eps, const Rational& x) {
    const auto key = std::make_pair(int(at_eps), x);
    auto it = answers.find(key);
    if (it == answers.end()) it = answers.emplace(key, at_eps ? ledger.delta(x) : ledger.epsilon(x)).first;
    return it->second;
  }
  /// The fast certified upper end (RunLedger::epsilon_upper / delta_upper: the composed pair's,
  /// from the kept powers, never below answer(...).bounds.upper), kept.
  double upper(bool at_eps, const Rational& x) {
    const auto key = std::make_pair(int(at_eps), x);
    auto it = uppers.find(key);
    if (it == uppers.end()) it = uppers.emplace(key, at_eps ? ledger.delta_upper(x) : ledger.epsilon_upper(x)).first;
    return it->second;
  }
};

/// Poisson client sampling at rate q (each client, client 1 included, takes part in a round with
/// probability q, independently) is the round's client dropout 1 − q (round.hpp: the roles drawn
/// over all n clients, then who takes part): q in (0, 1], named sampling_rate.
Rational dropout_of_rate(const py::handle& q) {
  const Rational rate = to_rational(q, "sampling_rate");
  if (rate <= 0 || rate > 1) throw corbin::invalid_argument("sampling_rate", to_string(rate), "in (0, 1]");
  return Rational(1) - rate;
}

/// The dropout a constructor's keywords give: dropout, or sampling_rate q as 1 − q (not both).
Rational dropout_given(const py::handle& dropout, const py::handle& sampling_rate) {
  Rational out = to_rational(dropout, "dropout");
  if (!sampling_rate.is_none()) {
    if (out != 0)
      throw corbin::invalid_argument("sampling_rate", "given with dropout", "one of dropout, sampling_rate (q is dropout 1 − q)");
    out = dropout_of_rate(sampling_rate);
  }
  return out;
}

/// Client 1's role as the CLI's --role words it (round.hpp): drawn, worst, ldpq or paired.
void set_role(RoundKind& k, const std::string& role) {
  k.role.reset();
  k.any_role_sequence = role == "worst";
  if (role == "ldpq")
    k.role = TargetClient::Role::ldpq;
  else if (role == "paired")
    k.role = TargetClient::Role::leader;
  else if (role != "drawn" && role != "worst")
    throw corbin::invalid_argument("role", quote(role), "drawn, worst, ldpq or paired");
}

const char* role_text(const RoundKind& k) {
  return k.role ? (*k.role == TargetClient::Role::ldpq ? "ldpq" : "paired") : k.any_role_sequence ? "worst" : "drawn";
}

/// `k` with the keyword changes of step(); an unknown keyword names itself.
RoundKind changed(RoundKind k, const py::kwargs& changes) {
  AccountSetting& s = k.setting;
  py::object alpha = py::none(), exp_eps = py::none(), eps = py::none();
  for (const auto& [key_handle, value] : changes) {
    const std::string key = py::str(key_handle);
    if (key == "n") s.n = to_count(value, "n", kMaxAccountClients);
    else if (key == "gamma") s.gamma = to_rational(value, "gamma");
    else if (key == "alpha") alpha = py::reinterpret_borrow<py::object>(value);
    else if (key == "exp_eps") exp_eps = py::reinterpret_borrow<py::object>(value);
    else if (key == "eps") eps = py::reinterpret_borrow<py::object>(value);
    else if (key == "m") k.coordinates = to_count(value, "m", kMaxCompositions);
    else if (key == "dropout") k.dropout = to_rational(value, "dropout");
    else if (key == "sampling_rate") k.dropout = dropout_of_rate(value);
    else if (key == "role") set_role(k, py::str(value));
    else if (key == "neighbours") s.relation = parse_neighbour(py::str(value));
    else if (key == "center") s.center = to_rational(value, "center");
    else if (key == "radius") s.radius = to_radius(value);
    else if (key == "bits") s.bits = to_count(value, "bits", kMaxBits);
    else
      throw corbin::invalid_argument(key, "a keyword of step()", "one of n, gamma, alpha, exp_eps, eps, m, dropout, "
                                     "sampling_rate, role, neighbours, center, radius, bits");
  }
  if (changes.contains("dropout") && changes.contains("sampling_rate"))
    throw corbin::invalid_argument("sampling_rate", "given with dropout", "one of dropout, sampling_rate (q is dropout 1 − q)");
  if (const std::optional<Budget> b = to_budget(alpha, exp_eps, eps)) s.budget = *b;
  check_round_kind(k);
  return k;
}

py::dict answer_dict(const RunLedger::Answer& x, bool at, const RunLedger& ledger) {
  py::dict d;
  d[at ? "delta" : "eps"] = ends(x.bounds, true);
  py::list by;
  if (x.attained)
    for (std::size_t i = 0; i < x.attained->parts.size(); ++i) {
      const ConfigurationWords& w = x.attained->parts[i];
      py::dict c;
      c["role"] = role_name(w);
      c["client_1"] = w.client_1;
      c["neighbour"] = w.replaced_by;
      c["partner"] = w.partner.empty() ? py::object(py::none()) : py::object(py::str(w.partner));
      c["other_ldpq"] = w.others_ldpq;
      c["other_pairs"] = w.others_pairs;
      c["dropout"] = w.dropout.empty() ? py::object(py::none()) : py::object(py::str(w.dropout));
      c["when"] = w.when.empty() ? py::object(py::none()) : py::object(py::str(w.when));
      c["uses"] = x.attained->repeats[i];
      // An adaptive strategy's configurations: `uses` counts the uses it may be played in.
      c["adaptive"] = x.attained->adaptive;
      // In the other order than the first part's (client 1 at the neighbour's input first).
      c["reversed"] = i < x.attained->reversed.size() && x.attained->reversed[i];
      by.append(c);
    }
  d["worst_role"] = x.attained ? py::object(py::str(role_name(*x.attained))) : py::object(py::none());
  d["lower_bound_attained_by"] = by;
  d["renyi"] = exact_double(x.moments);
  d["basic"] = exact_double(x.basic);
  d["survivors_mixed_rounds"] = ledger.survivors_mixed_rounds();
  return d;
}

/// What the ledger holds, in a line: its phases, and ε at δ = 10^-5 (kept, as get_epsilon_bounds').
std::string ledger_repr(PyLedger& a) {
  const RunLedger& ledger = a.ledger;
  std::string phases;
  for (const RunLedger::Phase& p : ledger.phases()) {
    phases += phases.empty() ? "" : "; ";
    phases += std::to_string(p.rounds) + " × ";
    if (!p.kind) {
      phases += p.coordinates ? "rounds of " + std::to_string(p.coordinates) +
                                    (p.coordinates == 1 ? " use" : " uses") + " of a given mechanism"
                              : "uses of a given mechanism";
      continue;
    }
    const RoundKind& k = *p.kind;
    phases += "n=" + std::to_string(k.setting.n) + " gamma=" + to_string(k.setting.gamma) + " " +
              k.setting.budget.describe() + " m=" + std::to_string(k.coordinates) + " role=" + role_text(k);
    if (k.dropout > 0) phases += " dropout=" + to_string(k.dropout);
  }
  const TwoSided b = a.answer(false, Rational(1, 100000)).bounds;
  return "<corbin.Accountant: " + std::to_string(ledger.compositions()) + " composition" +
         (ledger.compositions() == 1 ? "" : "s") + " (" + phases + "), epsilon(1e-5) in [" +
         py::repr(py::float_(b.lower)).cast<std::string>() + ", " +
         py::repr(py::float_(b.upper)).cast<std::string>() + "]>";
}

/// The layout of a pickled Accountant: (kLedgerState, recipe); another layout gets another number.
constexpr int kLedgerState = 1;

/// The Accountant a recipe makes (PyLedger::recipe), through the module's own methods: a state
/// that is not one is a ValueError naming `state`; a value one of them refuses is that method's
/// error, naming its parameter.
py::object ledger_from_recipe(const py::handle& recipe) {
  const auto malformed = [](const std::string& what) {
    return corbin::invalid_argument("state", what, "a corbin.Accountant's pickled state (version " +
                                                       std::to_string(kLedgerState) + ")");
  };
  if (!py::isinstance<py::list>(recipe) || py::len(recipe) == 0) throw malformed("without its calls");
  const py::object type = py::module_::import("corbin").attr("Accountant");
  py::object out;
  for (const py::handle& item : recipe) {
    if (!py::isinstance<py::tuple>(item) || py::len(item) == 0 || !py::isinstance<py::str>(item[py::int_(0)]))
      throw malformed("a call " + py::repr(item).cast<std::string>().substr(0, 40));
    const py::tuple call = py::reinterpret_borrow<py::tuple>(item);
    const std::string name = call[0].cast<std::string>();
    const auto fields = [&](std::size_t n) {
      if (call.size() != n) throw malformed("a call '" + name + "' with " + std::to_string(call.size() - 1) + " fields");
    };
    const bool first = !out;
    if (name == "Accountant" && first) {
      fields(2);
      if (!py::isinstance<py::dict>(call[1])) throw malformed("a call 'Accountant' without keywords");
      const py::dict keywords = call[1];
      out = type(**keywords);
    } else if (name == "from_laws" && first) {
      fields(4);
      out = type.attr("from_laws")(call[1], call[2], call[3]);
    } else if (name == "step" && !first) {
      fields(3);
      if (!py::isinstance<py::dict>(call[2])) throw malformed("a call 'step' without keywords");
      const py::dict changes = call[2];
      out.attr("step")(call[1], **changes);
    } else if (name == "compose" && !first) {
      fields(2);
      out = out.attr("compose")(call[1]);
    } else if (name == "then" && !first) {
      fields(2);
      out = out.attr("then")(ledger_from_recipe(call[1]));
    } else {
      throw malformed("a call '" + name.substr(0, 40) + "'" + (first ? " first" : " after the first"));
    }
  }
  return out;
}

/// __setstate__: the pickled (kLedgerState, recipe) made again.
PyLedger ledger_from_state(const py::tuple& state) {
  if (state.size() != 2 || !py::isinstance<py::int_>(state[0]) || state[0].cast<py::int_>().not_equal(py::int_(kLedgerState)))
    throw corbin::invalid_argument("state", "of another layout", "a corbin.Accountant's pickled state (version " +
                                                                    std::to_string(kLedgerState) + ")");
  return ledger_from_recipe(state[1]).cast<PyLedger>();
}

/// Accountant(mechanism=NAME) for a room other than Theorem 3's: its builder
/// (Mechanism::round_accountant), m·rounds uses; the keywords it does not read are refused (as
/// the CLI's --mechanism refuses its options).
PyLedger room_ledger(const std::string& name, const py::handle& n, const py::handle& gamma,
                     const py::handle& alpha, const py::handle& exp_eps, const py::handle& eps,
                     const std::string& neighbours, const std::string& role, const py::handle& c,
                     const py::handle& r, const py::handle& bits, const py::handle& cells, const py::handle& mm,
                     const py::handle& rounds, const Rational& dropout, const py::handle& calibration_delta) {
  const fl::Mechanism& room = fl::Registry::global().find(name);
  const std::string which = "mechanism='" + name + "'";
  if (!gamma.is_none()) throw corbin::invalid_argument("gamma", "given", "absent for " + which + " (augcorbin's share)");
  if (role != "drawn") throw corbin::invalid_argument("role", quote(role), "absent for " + which + " (its clients are alone)");
  if (to_count(bits, "bits", kMaxBits) != 5) throw corbin::invalid_argument("bits", "given", "absent for " + which);
  fl::CoordinateSetting s;
  if (room.reads(fl::SettingParameter::budget))
    s.budget = required_budget(alpha, exp_eps, eps);
  else if (to_budget(alpha, exp_eps, eps))
    throw corbin::invalid_argument("budget", "given", "absent for " + which + ", which takes none");
  s.center = to_rational(c, "center");
  s.radius = to_radius(r);
  s.relation = parse_neighbour(neighbours);  // a room without a builder for it says so below
  if (dropout < 0 || dropout >= 1) throw corbin::invalid_argument("dropout", to_string(dropout), "in [0, 1)");
  s.dropout = dropout;  // and one without a mixture over survivors
  // The δ a room's calibration reads, as the room declares (Mechanism::reads): the CLI's rule.
  if (room.reads(fl::SettingParameter::delta)) {
    if (calibration_delta.is_none())
      throw corbin::invalid_argument("calibration_delta", "missing", "the δ " + which + " is calibrated at");
    s.delta = to_rational(calibration_delta, "calibration_delta");
    if (s.delta <= 0 || s.delta >= 1) throw corbin::invalid_argument("calibration_delta", to_string(s.delta), "in (0, 1)");
  } else if (!calibration_delta.is_none()) {
    throw corbin::invalid_argument("calibration_delta", "given", "absent for " + which + ", which does not read it");
  }
  const unsigned long clients = to_count(n, "n", kMaxAccountClients);
  if (clients < 2) throw corbin::invalid_argument("n", std::to_string(clients), "at least 2");
  const std::uint64_t coordinates = to_count(mm, "m", kMaxCompositions), count = to_count(rounds, "rounds", kMaxCompositions, 1);
  if (coordinates < 1) throw corbin::invalid_argument("m", "0", "at least 1");
  if (coordinates > kMaxCompositions / count)
    throw corbin::invalid_argument("rounds", std::to_string(count), "such that m·rounds <= 2^40");
  PldLimits limits;
  limits.max_cells = to_count(cells, "cells", 1ul << 16);
  if (limits.max_cells < 16) throw corbin::invalid_argument("cells", std::to_string(limits.max_cells), "at least 16");
  s.coordinates = coordinates;
  const fl::RoomAccountant one = fl::room_accountant(room, s, clients, limits);
  if (one.dropout_refused) throw corbin::invalid_argument("dropout", to_string(dropout), "0 for " + which + ": " + one.why_not);
  if (!one.round)
    throw corbin::invalid_argument("mechanism", quote(name), "a mechanism with a certified accountant: " + one.why_not);
  PyLedger out{RunLedger(limits), std::nullopt};
  out.ledger.step_rounds(*one.round, fl::uses_per_round(s), count, s.relation, dropout > 0);
  return out;
}

// ---------------------------------------------------------------------------------------------
// corbin.conform: a Python callable on trial (src/corbin/conform/, docs/conform.md).

namespace cf = corbin::conform;

/// A request as the line protocol writes it (cmd_conform.cpp's request_json, the same keys), with
/// exact numbers as Fractions and the seed as an int; "outputs" (bool) says the same as "report".
py::dict request_dict(const cf::Request& r) {
  const cf::Setting& s = r.setting;
  py::dict d;
  d["id"] = r.id;
  d["mechanism"] = s.mechanism.name();
  d["variant"] = r.variant;
  d["exp_eps"] = fraction(s.exp_eps);
  d["alpha"] = fraction(cf::alpha_of(s.exp_eps));
  if (s.mechanism.kind == cf::Kind::corbinq) d["bits"] = s.bits;
  if (s.mechanism.kind == cf::Kind::pbm || s.mechanism.kind == cf::Kind::rqm) d["m"] = s.mechanism.m;
  if (s.mechanism.kind == cf::Kind::rqm) d["keep"] = fraction(Rational(1, 2));
  d["center"] = fraction(s.center);
  d["radius"] = fraction(s.radius);
  py::list inputs;
  for (const Rational& w : s.inputs) inputs.append(fraction(w));
  d["inputs"] = inputs;
  d["draws"] = r.draws;
  d["seed"] = r.seed;
  d["report"] = r.outputs ? "outputs" : "counts";
  d["outputs"] = r.outputs;
  d["labels"] = cf::output_labels(s.mechanism);
  return d;
}

/// A Python callable as a Sampler: called with the GIL held (conform runs on the calling thread); an
/// exception it raises propagates as itself, an answer that breaks the protocol is a ProtocolError
/// saying what is wrong (ValueError in Python).
class CallableSampler final : public cf::Sampler {
 public:
  explicit CallableSampler(py::object f) : f_(std::move(f)) {}

  cf::Answer draw(const cf::Request& r) override {
    const std::string which = "request " + std::to_string(r.id) + " (" + cf::describe(r.setting) +
                              ", " + std::to_string(r.draws) + " draws)";
    const py::object answer = f_(request_dict(r));
    if (!py::isinstance<py::dict>(answer))
      fail("answered " + which + " with a " + type_name(answer) + ", not a dict");
    const py::dict d = answer.cast<py::dict>();
    if (d.contains("error"))
      fail("refused " + which + ": " + quote(py::str(d["error"]).cast<std::string>()));
    const auto labels = cf::output_labels(r.setting.mechanism);
    const std::vector<std::string> client_labels =
        r.setting.mechanism.kind == cf::Kind::corbinq ? std::vector<std::string>{"+", "-"} : labels;
    const auto index_of = [&](const py::handle& label, const char* where) -> std::size_t {
      if (py::isinstance<py::str>(label)) {
        const std::string text = label.cast<std::string>();
        for (std::size_t k = 0; k < labels.size(); ++k)
          if (labels[k] == text) return k;
      }
      fail("answered " + which + " with " + where + " " + shown(label) + " that is none of " +
           label_list(labels));
    };
    const bool has_counts = d.contains("counts"), has_outputs = d.contains("outputs");
    if (!has_counts && !has_outputs)
      fail("answered " + which + " with neither \"counts\" nor \"outputs\"");
    std::vector<std::uint64_t> counts(labels.size(), 0);
    if (has_counts) {
      const py::object c = d["counts"];
      if (!py::isinstance<py::dict>(c))
        fail("answered " + which + " with \"counts\" a " + type_name(c) + ", not a dict");
      for (const auto& [label, value] : c.cast<py::dict>()) {
        const std::size_t k = index_of(label, "a count for");
        if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value))
          fail("answered " + which + " with the count of " + quote(labels[k]) + " a " +
               type_name(value) + ", not an int");
        const py::int_ v = py::reinterpret_borrow<py::int_>(value);
        if (v < py::int_(0) || v > py::int_(r.draws))
          fail("answered " + which + " with the count of " + quote(labels[k]) + " " +
               static_cast<std::string>(py::str(py::handle(v))) + ", outside [0, " + std::to_string(r.draws) + "]");
        counts[k] = v.cast<std::uint64_t>();
      }
    }
    cf::Answer a;
    if (has_outputs) {
      const py::object o = d["outputs"];
      if (!py::isinstance<py::sequence>(o) || py::isinstance<py::str>(o))
        fail("answered " + which + " with \"outputs\" a " + type_name(o) + ", not a list");
      const py::sequence seq = o.cast<py::sequence>();
      if (seq.size() > r.draws)
        fail("answered " + which + " with " + std::to_string(seq.size()) + " outputs for " +
             std::to_string(r.draws) + " draws");
      a.sequence.reserve(seq.size());
      for (const py::handle x : seq) a.sequence.push_back(static_cast<std::uint8_t>(index_of(x, "an output")));
      a.counts.assign(labels.size(), 0);
      for (std::uint8_t k : a.sequence) ++a.counts[k];
      if (has_counts && counts != a.counts)
        fail("answered " + which + " with counts that disagree with its outputs");
    } else {
      a.counts = std::move(counts);
    }
    if (d.contains("values")) {
      const py::object v = d["values"];
      if (!py::isinstance<py::dict>(v))
        fail("answered " + which + " with \"values\" a " + type_name(v) + ", not a dict");
      const py::dict vd = v.cast<py::dict>();
      for (const std::string& label : client_labels) {
        if (!vd.contains(label))
          fail("answered " + which + " with \"values\" lacking " + quote(label));
        a.values.push_back(py::str(vd[py::str(label)]).cast<std::string>());
      }
    }
    try {
      cf::check_answer(r, a);
    } catch (const cf::ProtocolError& e) {
      fail(std::string("answered ") + e.what() +
           (r.outputs ? " (independence=False skips such requests)" : ""));
    }
    return a;
  }

 private:
  [[noreturn]] static void fail(const std::string& what) {
    throw cf::ProtocolError("the sampler " + what);
  }
  static std::string shown(const py::handle& x) { return py::repr(x).cast<std::string>(); }
  static std::string label_list(const std::vector<std::string>& labels) {
    std::string s;
    for (const auto& l : labels) s += (s.empty() ? "" : ", ") + quote(l);
    return s;
  }
  py::object f_;
};

/// A probability option in (0, 1), or [0, 1/2) for effect: read exactly, checked by the library.
double to_level(const py::handle& value, const char* name) {
  return to_double(to_rational(value, name));
}

py::dict conform_report(const cf::Plan& plan, const cf::Report& report, const cf::Options& o,
                        const cf::Mechanism& mechanism) {
  py::dict out;
  out["conforms"] = report.conforms;
  out["level"] = o.level;
  out["per_test_level"] = plan.per_test_level;
  py::list tests;
  for (const cf::TestRecord& t : report.tests) {
    py::dict j;
    j["kind"] = t.kind;
    j["settings"] = t.settings;
    j["statistic"] = t.outcome.statistic;
    j["p"] = t.outcome.p_value;
    j["rejected"] = t.rejected;
    j["method"] = t.outcome.method;
    j["detail"] = t.outcome.note.empty() ? t.detail : t.outcome.note + "; " + t.detail;
    tests.append(j);
  }
  out["tests"] = tests;
  py::list laws;
  for (const cf::Consistency& c : report.laws) {
    py::dict j;
    j["name"] = c.name;
    j["description"] = c.description;
    j["fault_model"] = c.fault_model;
    j["consistent"] = c.consistent;
    j["rejecting"] = c.rejecting;
    j["smallest_p"] = c.smallest_p;
    j["worst_setting"] = c.worst;
    j["run_power"] = c.name == plan.variant ? py::object(py::none()) : py::object(py::float_(c.run_power));
    laws.append(j);
  }
  out["laws"] = laws;
  py::list privacy;
  for (const cf::PrivacyBound& p : report.privacy) {
    py::dict j;
    j["group"] = p.group;
    j["client"] = mechanism.clients() == 1 ? "Q" : p.client == 0 ? "Q1" : "Q2";
    j["eps_lower"] = p.eps_lower;
    j["eps_certified"] = p.eps_certified;
    j["tested"] = p.tested;
    if (!p.why_not.empty()) j["why_not"] = p.why_not;
    j["witness"] = p.witness;
    privacy.append(j);
  }
  out["privacy"] = privacy;
  out["draws"] = report.draws;
  out["settings"] = plan.settings.size();
  return out;
}

}  // namespace

PYBIND11_MODULE(corbin, m) {
  m.doc() = "Exact and certified computations for the CorBin-FL paper's claims";
  m.attr("__version__") = corbin::kVersion;
  py::register_exception<corbin::invalid_argument>(m, "InvalidArgument", PyExc_ValueError);
  py::register_exception<corbin::undecidable>(m, "Undecidable", PyExc_ArithmeticError);
  py::register_exception<corbin::conform::ProtocolError>(m, "ProtocolError", PyExc_ValueError);

  m.def(
      "alpha_of_exp_eps",
      [](const py::handle& x) {
        const Rational v = to_rational(x, "exp_eps");
        return fraction(Budget::make(Budget::Kind::exp_eps, v).alpha_exact());
      },
      "α = (e^ε + 1)/(e^ε − 1), exactly", py::arg("exp_eps"));

  m.def(
      "ldpq_q",
      [](const py::handle& alpha, const py::handle& c, const py::handle& r, const py::handle& w,
         const py::handle& exp_eps, const py::handle& eps) {
        const Rational center = to_rational(c, "center"), radius = to_radius(r);
        return fraction(ldpq_q(exact_alpha(alpha, exp_eps, eps), center, radius, to_weight(w, "w", center, radius)));
      },
      "P(LDPQ = c + rα) = 1/2 + (w − c)/(2rα); the budget as alpha, or exp_eps by keyword",
      py::arg("alpha") = py::none(), py::arg("center") = 0, py::arg("radius") = 1, py::arg("w") = py::none(),
      py::kw_only(), py::arg("exp_eps") = py::none(), py::arg("eps") = py::none());

  m.def(
      "joint_law",
      [](const py::handle& alpha, const py::handle& c, const py::handle& r, const py::handle& w1,
         const py::handle& w2, const py::handle& bits, const std::string& variant, const py::handle& exp_eps,
         const py::handle& eps) {
        return joint_dict(corbinq_joint_law(
            exact_alpha(alpha, exp_eps, eps), to_rational(c, "center"), to_radius(r), to_rational(w1, "w1"),
            to_rational(w2, "w2"), to_count(bits, "bits", kMaxBits), parse_variant(variant)));
      },
      "exact joint law of CorBinQ (Alg. 2); the budget as alpha, or exp_eps by keyword",
      py::arg("alpha") = py::none(), py::arg("center") = 0, py::arg("radius") = 1, py::arg("w1") = py::none(),
      py::arg("w2") = py::none(), py::arg("bits") = 5, py::arg("variant") = "corrected", py::kw_only(),
      py::arg("exp_eps") = py::none(), py::arg("eps") = py::none());

  m.def(
      "pair_utility",
      [](const py::handle& alpha, const py::handle& c, const py::handle& r, const py::handle& w1,
         const py::handle& w2, const py::handle& bits, const std::string& variant, const py::handle& exp_eps,
         const py::handle& eps) -> py::dict {
        // The budget as α, e^ε or ε (exactly one): exact Fractions for the first two, certified
        // (lower, upper) Fractions for ε (a transcendental α).
        const Budget budget = required_budget(alpha, exp_eps, eps);
        const Rational center = to_rational(c, "center"), radius = to_radius(r);
        const Rational x1 = to_weight(w1, "w1", center, radius), x2 = to_weight(w2, "w2", center, radius);
        const unsigned long d = to_count(bits, "bits", kMaxBits);
        const Variant v = parse_variant(variant);
        py::dict out;
        const auto fill = [&](const auto& u, const auto& as_python) {
          out["mse"] = as_python(u.mse);
          out["mse_optimal"] = as_python(u.mse_optimal);
          out["mse_ldp"] = as_python(u.mse_ldp);
          out["gap"] = as_python(u.gap);
          out["paper_gap_bound"] = as_python(u.paper_gap_bound);
        };
        if (budget.exact()) {
          fill(pair_utility(budget.alpha_exact(), center, radius, x1, x2, d, v),
               [](const Rational& x) { return fraction(x); });
        } else {
          PrecisionScope scope(budget.precision_bits(d));
          fill(pair_utility(budget.alpha_interval(), center, radius, x1, x2, d, v),
               [](const Interval& x) { return py::object(enclosure(x)); });
        }
        return out;
      },
      "exact pair MSE, optimum, independent LDPQs, gap and the paper's bound; the budget as alpha "
      "(positional, as before), or exp_eps or eps by keyword (eps: certified (lower, upper) pairs)",
      py::arg("alpha") = py::none(), py::arg("center") = 0, py::arg("radius") = 1, py::arg("w1") = py::none(),
      py::arg("w2") = py::none(), py::arg("bits") = 5, py::arg("variant") = "corrected", py::kw_only(),
      py::arg("exp_eps") = py::none(), py::arg("eps") = py::none());

  m.def(
      "sup_gap",
      [](const py::handle& alpha, const py::handle& c, const py::handle& r,
         const py::handle& bits, const py::handle& exp_eps, const py::handle& eps) {
        const auto s = sup_gap(exact_alpha(alpha, exp_eps, eps), to_rational(c, "center"), to_radius(r),
                               to_count(bits, "bits", kMaxBits));
        py::dict d;
        d["sup_gap"] = fraction(s.value);
        d["w1"] = fraction(s.w1);
        d["w2"] = fraction(s.w2);
        return d;
      },
      "exact supremum of the gap over all inputs, with a witness; the budget as alpha, or exp_eps by keyword",
      py::arg("alpha") = py::none(), py::arg("center") = 0, py::arg("radius") = 1, py::arg("bits") = 5,
      py::kw_only(), py::arg("exp_eps") = py::none(), py::arg("eps") = py::none());

  // The registry (fl/registry.hpp): every mechanism's properties, and its room's answers.
  m.def(
      "mechanisms",
      [] {
        py::list out;
        for (const fl::Mechanism* room : fl::Registry::global().all()) {
          py::dict d;
          for (const auto& property : fl::properties_of(*room))
            std::visit([&](const auto& value) { d[py::str(property.first)] = value; },
                       property.second);
          out.append(d);
        }
        return out;
      },
      "the registered mechanisms and their properties (as `corbin mechanisms --json`)");

  def_question(
      m, "law", "a lone client's exact output law at w: [(value, probability)] as Fractions",
      [](const fl::Mechanism& room, const fl::CoordinateSetting& s,
         const std::optional<Rational>& w) {
        py::list out;
        for (const fl::Atom& a : fl::answered_law(room, s, *w, "law"))
          out.append(py::make_tuple(fraction(a.value), fraction(a.prob)));
        return py::object(out);
      },
      true);
  def_question(
      m, "mse",
      "a lone client's E[(Q(w) - w)^2]: a Fraction, or (lower, upper) Fractions where certified",
      [](const fl::Mechanism& room, const fl::CoordinateSetting& s,
         const std::optional<Rational>& w) {
        const fl::LoneMse x = fl::answered_mse(room, s, *w, "mse");
        return x.exact ? fraction(*x.exact) : py::object(enclosure(x.enclosure));
      },
      true);
  def_question(
      m, "pldp", "a mechanism's PLDP ratio and its claimed e^eps (dict; Fractions, or enclosures)",
      [](const fl::Mechanism& room, const fl::CoordinateSetting& s,
         const std::optional<Rational>&) {
        return py::object(pldp_dict(fl::answered_pldp(room, s, "pldp")));
      },
      false);
  m.def(
      "aggregate_mse",
      [](const std::string& mechanism, const py::handle& n, const py::handle& weights, const py::handle& gamma,
         const py::handle& exp_eps, const py::handle& alpha, const py::handle& eps, const py::handle& c,
         const py::handle& r, const py::handle& bits, const std::string& variant, const py::handle& delta) -> py::object {
        const fl::Mechanism& room = fl::Registry::global().find(mechanism);
        fl::CoordinateSetting s = coordinate_setting(room, exp_eps, alpha, eps, c, r, bits, variant, delta);
        // γ is AugCorBin-FL's alone: given to another room it would answer another question.
        if (!gamma.is_none() && room.pairing() != fl::Pairing::augmented)
          throw corbin::invalid_argument("gamma", "given", "absent for " + mechanism + ", which pairs no share by γ");
        if (!gamma.is_none()) s.gamma = to_rational(gamma, "gamma");
        fl::check_gamma(s.gamma);
        // The worst case over n clients' inputs, or the value at the given inputs (n their count).
        if (n.is_none() == weights.is_none())
          throw corbin::invalid_argument("n", n.is_none() ? "missing" : "given with weights",
                                         "exactly one of n (the worst case over inputs) and weights (at those inputs)");
        PrecisionScope scope(s.budget.precision_bits(s.bits));
        std::optional<fl::MseValue> value;
        if (!weights.is_none()) {
          if (py::isinstance<py::str>(weights) || py::isinstance<py::bytes>(weights) ||
              !py::isinstance<py::sequence>(weights))
            throw py::type_error("weights must be a sequence of numbers, not " + type_name(weights));
          const py::sequence list = py::reinterpret_borrow<py::sequence>(weights);
          if (list.size() > fl::kMaxInputs)
            throw corbin::invalid_argument("weights", std::to_string(list.size()) + " inputs",
                                           "at most " + std::to_string(fl::kMaxInputs) + " clients");
          std::vector<Rational> w;
          for (std::size_t i = 0; i < list.size(); ++i)
            w.push_back(to_rational(list[i], ("weights[" + std::to_string(i) + "]").c_str()));
          fl::check_input_count(room, w);
          value = room.aggregate_mse_at(s, w);
        } else {
          const unsigned long clients = to_count(n, "n", 1ul << 40);
          if (clients == 0) throw corbin::invalid_argument("n", "0", "at least 1 client");
          value = fl::worst_aggregate(room, s, clients);
        }
        if (!value)
          throw corbin::invalid_argument("mechanism", mechanism, "one whose aggregate MSE is known (its room answers none)");
        // Exact where the room computes it exactly (as the sweep's _exact column): both ends equal.
        if (value->exact) return py::object(py::make_tuple(fraction(*value->exact), fraction(*value->exact)));
        return py::object(enclosure(value->enclosure));
      },
      "E[(mean of the n outputs − mean of the n inputs)^2] for one coordinate, n clients in one round with the "
      "mechanism's own pairing: the worst case over every client's input (n), or at the given inputs (weights, "
      "over the server's random pairing order too); (lower, upper) Fractions, equal where exact, as "
      "`corbin sweep --quantity aggregate_mse [--weights ...]`",
      py::arg("mechanism"), py::arg("n") = py::none(), py::kw_only(), py::arg("weights") = py::none(),
      py::arg("gamma") = py::none(), py::arg("exp_eps") = py::none(), py::arg("alpha") = py::none(),
      py::arg("eps") = py::none(), py::arg("center") = 0, py::arg("radius") = 1, py::arg("bits") = 5,
      py::arg("variant") = "corrected", py::arg("delta") = "1e-5");

  // The older CorBinQ-only call, pldp(alpha, center, radius, bits, variant): CorBin-FL's room.
  m.def(
      "pldp",
      [](const py::handle& alpha, const py::handle& c, const py::handle& r, const py::handle& bits,
         const std::string& variant, const py::handle& exp_eps, const py::handle& eps) -> py::object {
        fl::CoordinateSetting s;
        s.budget = Budget::make(Budget::Kind::alpha, exact_alpha(alpha, exp_eps, eps));
        s.center = to_rational(c, "center");
        s.radius = to_radius(r);
        s.bits = static_cast<unsigned>(to_count(bits, "bits", kMaxBits));
        s.variant = parse_variant(variant);
        const fl::PldpSummary p =
            fl::answered_pldp(fl::Registry::global().find("corbin"), s, "pldp");
        if (p.unbounded) return py::float_(std::numeric_limits<double>::infinity());
        return fraction(*p.ratio_exact);
      },
      "exact sup of a CorBinQ client's likelihood ratio (inf if unbounded); the budget as alpha, or exp_eps "
      "by keyword",
      py::arg("alpha") = py::none(), py::arg("center") = 0, py::arg("radius") = 1, py::arg("bits") = 5,
      py::arg("variant") = "corrected", py::kw_only(), py::arg("exp_eps") = py::none(), py::arg("eps") = py::none());

  m.def(
      "ucdp_printed",
      [](const py::handle& mm, const py::handle& n, const py::handle& gamma,
         const py::handle& delta, const py::handle& radius, const py::handle& alpha, const py::handle& exp_eps,
         const py::handle& eps) {
        const UcdpSetting s = ucdp_setting(mm, n, gamma, delta, radius, alpha, exp_eps, eps);
        PrecisionScope scope(std::max(128u, s.budget.precision_bits(0)));
        return formula_dict(theorem3_printed(s));
      },
      "Theorem 3 as printed; the budget as alpha, or exp_eps or eps by keyword", py::arg("m"), py::arg("n"),
      py::arg("gamma"), py::arg("delta"), py::arg("radius"), py::arg("alpha") = py::none(), py::kw_only(),
      py::arg("exp_eps") = py::none(), py::arg("eps") = py::none());

  m.def(
      "ucdp_cpsgd",
      [](const py::handle& mm, const py::handle& n, const py::handle& gamma,
         const py::handle& delta, const py::handle& radius, const py::handle& alpha,
         bool consistent_units, const py::handle& exp_eps, const py::handle& eps) {
        const UcdpSetting s = ucdp_setting(mm, n, gamma, delta, radius, alpha, exp_eps, eps);
        PrecisionScope scope(std::max(128u, s.budget.precision_bits(0)));
        return formula_dict(theorem3_cpsgd(s, consistent_units));
      },
      "cpSGD Thm 1 with the proof's substitutions; the budget as alpha, or exp_eps or eps by keyword",
      py::arg("m"), py::arg("n"), py::arg("gamma"), py::arg("delta"), py::arg("radius"),
      py::arg("alpha") = py::none(), py::arg("consistent_units") = false, py::kw_only(),
      py::arg("exp_eps") = py::none(), py::arg("eps") = py::none());

  m.def(
      "exact_ucdp",
      [](const py::handle& n, const py::handle& gamma, const py::handle& delta,
         const py::handle& alpha, const py::handle& c, const py::handle& r, const py::handle& bits,
         const std::string& neighbours, const std::string& role, const py::handle& exp_eps, const py::handle& eps) {
        PrecisionScope scope(128);
        if (role != "ldpq" && role != "paired")
          throw corbin::invalid_argument("role", quote(role), "ldpq or paired");
        ExactUcdpSetting s{to_count(n, "n", kMaxExactClients), to_rational(gamma, "gamma"),
                           to_rational(delta, "delta"),
                           SumGeometry{exact_alpha(alpha, exp_eps, eps), to_rational(c, "center"), to_radius(r),
                                       to_count(bits, "bits", kMaxBits), Variant::corrected},
                           role == "ldpq" ? TargetClient::Role::ldpq : TargetClient::Role::leader};
        const auto x = exact_ucdp(s, parse_neighbour(neighbours));
        py::dict d;
        d["infinite"] = x.infinite;
        d["exp_eps"] = x.infinite ? py::object(py::none()) : fraction(x.exp_eps);
        d["eps"] = x.infinite ? std::numeric_limits<double>::infinity() : mid(x.eps);
        d["disjoint_mass"] = fraction(x.disjoint_mass);
        return d;
      },
      "exact ε at δ of the released sum, m = 1; the budget as alpha, or exp_eps by keyword", py::arg("n"),
      py::arg("gamma"), py::arg("delta"), py::arg("alpha") = py::none(), py::arg("center") = 0,
      py::arg("radius") = 1, py::arg("bits") = 5, py::arg("neighbours") = "replace", py::arg("role") = "ldpq",
      py::kw_only(), py::arg("exp_eps") = py::none(), py::arg("eps") = py::none());

  // The certified two-sided accountant as a run's ledger (privacy/run/run_ledger.hpp): Accountant(...)
  // is one kind of round (by default one round of it); step() adds rounds, of the same kind or with
  // changes (γ, n, dropout or sampling rate, role, ...); compose() and then() build longer runs.
  // get_epsilon()/get_delta() return a certified upper end as a float, fast in a training loop
  // (what Opacus' and dp_accounting's accountants return); get_epsilon_bounds()/get_delta_bounds()
  // the pair (lower, upper) as Fractions, epsilon()/delta() the same pair as floats (inf where no
  // finite ε reaches δ); explain() names the worst role, the configuration attaining the lower bound, the
  // references and the dropout share of δ. Answers are kept until the next step(); the state
  // pickles.
  py::class_<PyLedger>(
      m, "Accountant",
      "a run of rounds of Theorem 3's mechanism (AugCorBin-FL), certified two-sided bounds over the "
      "worst case of the other clients' inputs and of client 1's role")
      .def(py::init([](const py::handle& n, const py::handle& gamma, const py::args& positional,
                       const py::handle& alpha, const py::handle& exp_eps, const py::handle& eps,
                       const std::string& neighbours, const std::string& role, const py::handle& c,
                       const py::handle& r, const py::handle& bits, const py::handle& cells, const py::handle& mm,
                       const py::handle& rounds, const py::handle& dropout, const py::handle& sampling_rate,
                       const py::handle& mechanism, const py::handle& calibration_delta) {
             // The budget is a keyword, as every accountant's (Opacus, dp_accounting): a third
             // positional number could be α, e^ε or ε, and each gives a different run.
             if (!positional.empty())
               throw py::type_error("alpha must be given by keyword: alpha=, exp_eps= or eps= (Accountant(n, gamma, exp_eps=3)), "
                                    "not as a third positional argument");
             // pickle makes it again from these (PyLedger::recipe).
             py::dict keywords;
             keywords["n"] = n, keywords["gamma"] = gamma, keywords["alpha"] = alpha, keywords["exp_eps"] = exp_eps;
             keywords["eps"] = eps, keywords["neighbours"] = neighbours, keywords["role"] = role, keywords["center"] = c;
             keywords["radius"] = r, keywords["bits"] = bits, keywords["cells"] = cells, keywords["m"] = mm;
             keywords["rounds"] = rounds, keywords["dropout"] = dropout, keywords["sampling_rate"] = sampling_rate;
             keywords["mechanism"] = mechanism, keywords["calibration_delta"] = calibration_delta;
             const py::tuple made_by = py::make_tuple("Accountant", keywords);
             const std::string name = mechanism.is_none() ? "augcorbin" : py::str(mechanism).cast<std::string>();
             if (name != "augcorbin" && name != "corbin") {
               PyLedger out = room_ledger(name, n, gamma, alpha, exp_eps, eps, neighbours, role, c, r, bits, cells, mm,
                                          rounds, dropout_given(dropout, sampling_rate), calibration_delta);
               out.recipe.append(made_by);
               return out;
             }
             if (!calibration_delta.is_none())
               throw corbin::invalid_argument("calibration_delta", "given", "absent: only mechanism='gaussian' reads it");
             RoundKind k;
             AccountSetting& s = k.setting;
             s.n = to_count(n, "n", kMaxAccountClients);
             if (name == "corbin") {  // CorBin-FL: every client paired (an odd one out alone)
               if (!gamma.is_none()) throw corbin::invalid_argument("gamma", "given", "absent for mechanism='corbin' (γ = 0)");
               s.gamma = Rational(0);
             } else {
               if (gamma.is_none()) throw corbin::invalid_argument("gamma", "missing", "given for Theorem 3's mechanism (augcorbin)");
               s.gamma = to_rational(gamma, "gamma");
             }
             s.budget = required_budget(alpha, exp_eps, eps);  // as the other questions take it
             s.center = to_rational(c, "center");
             s.radius = to_radius(r);
             s.bits = to_count(bits, "bits", kMaxBits);
             s.relation = parse_neighbour(neighbours);
             set_role(k, role);
             k.coordinates = to_count(mm, "m", kMaxCompositions);
             k.dropout = dropout_given(dropout, sampling_rate);
             PldLimits limits;
             limits.max_cells = to_count(cells, "cells", 1ul << 16);
             if (limits.max_cells < 16) throw corbin::invalid_argument("cells", std::to_string(limits.max_cells), "at least 16");
             PyLedger out{RunLedger(limits), k};
             check_round_kind(k);
             // As the CLI's --rounds: a run has a round (a loop that steps from the start takes
             // its first round here, then step() after each further one).
             out.ledger.step(k, to_count(rounds, "rounds", kMaxCompositions, 1));
             out.recipe.append(made_by);
             return out;
           }),
           py::arg("n"), py::arg("gamma") = py::none(), py::arg("alpha") = py::none(),
           py::arg("exp_eps") = py::none(), py::arg("eps") = py::none(), py::arg("neighbours") = "replace",
           py::arg("role") = "drawn", py::arg("center") = 0, py::arg("radius") = 1,
           py::arg("bits") = 5, py::arg("cells") = 2048, py::arg("m") = 1, py::arg("rounds") = 1,
           py::arg("dropout") = 0, py::arg("sampling_rate") = py::none(), py::arg("mechanism") = py::none(),
           py::arg("calibration_delta") = py::none())
      .def_static(
          "from_laws",
          [](const py::sequence& p, const py::sequence& q, const py::handle& cells) {
            // A given pair of laws on 0..len − 1 (exact values, read as written): the peers'
            // question, the same pair of datasets in every use (each order composed alone).
            const auto values = [](const py::sequence& s, const char* name) {
              if (s.size() > Accountant::kMaxLawValues)  // before reading them
                throw corbin::invalid_argument(name, std::to_string(s.size()) + " values",
                                               "at most " + std::to_string(Accountant::kMaxLawValues));
              std::vector<Rational> out;
              for (std::size_t i = 0; i < s.size(); ++i) out.push_back(to_rational(s[i], name));
              return out;
            };
            PldLimits limits;
            limits.max_cells = to_count(cells, "cells", 1ul << 16);
            if (limits.max_cells < 16) throw corbin::invalid_argument("cells", std::to_string(limits.max_cells), "at least 16");
            PyLedger out{RunLedger(limits), std::nullopt};
            out.ledger.step(Accountant::from_laws(values(p, "p"), values(q, "q"), limits));
            out.recipe.append(py::make_tuple("from_laws", py::tuple(p), py::tuple(q), cells));
            return out;
          },
          "the accountant of a given pair of laws (exact values), each order composed alone", py::arg("p"),
          py::arg("q"), py::arg("cells") = Accountant::kLawsCells)
      .def(
          "step",
          [](const py::object& self, const py::handle& rounds, const py::kwargs& changes) {
            PyLedger& a = self.cast<PyLedger&>();
            // One more round (or `rounds`) of the last kind, with the keyword changes (Opacus'
            // step, dp_accounting's compose(event, count)).
            if (!a.last) throw corbin::invalid_argument("step", "on a given mechanism (a pair of laws, or mechanism=)", "on an Accountant of Theorem 3's rounds (use compose)");
            const RoundKind k = changed(*a.last, changes);
            const std::uint64_t count = to_count(rounds, "rounds", kMaxCompositions);
            a.ledger.step(k, count);
            a.last = k;
            a.forget();
            // Steps with the same changes one after another are one step of their sum (the
            // changes set the same kind again), so a training loop's recipe stays one entry.
            const py::dict kept(changes);
            const std::size_t size = a.recipe.size();
            if (size > 0) {
              const py::tuple previous = a.recipe[size - 1].cast<py::tuple>();
              if (previous[0].cast<std::string>() == "step" && py::object(previous[2]).equal(kept)) {
                a.recipe[size - 1] = py::make_tuple("step", previous[1].cast<py::int_>() + py::int_(count), kept);
                return self;
              }
            }
            a.recipe.append(py::make_tuple("step", py::int_(count), kept));
            return self;
          },
          "add rounds (default one) of the last kind, changed by keywords (n, gamma, alpha, exp_eps, "
          "eps, m, dropout or sampling_rate, role, neighbours, center, radius, bits); returns self",
          py::arg("rounds") = 1)
      .def(
          "compose",
          [](const PyLedger& a, const py::handle& k) {
            PyLedger out = a.changed_copy();
            const std::uint64_t count = to_count(k, "compositions", kMaxCompositions);
            out.ledger.repeat(count);
            out.recipe.append(py::make_tuple("compose", py::int_(count)));
            return out;
          },
          "this run repeated k times", py::arg("k"))
      .def(
          "then",
          [](const PyLedger& a, const PyLedger& next) {
            PyLedger out = a.changed_copy();
            out.ledger.then(next.ledger);
            out.last = next.last;
            out.recipe.append(py::make_tuple("then", next.recipe_copy()));
            return out;
          },
          "this run followed by `next` (other kinds of rounds on the same neighbouring datasets)",
          py::arg("next"))
      .def_property_readonly("compositions", [](const PyLedger& a) { return a.ledger.compositions(); })
      .def_property_readonly("rounds", [](const PyLedger& a) { return a.ledger.rounds(); })
      .def(
          "epsilon",
          [](PyLedger& a, const py::handle& delta) {
            return ends(a.answer(false, to_rational(delta, "delta")).bounds, false);
          },
          "(eps_lower, eps_upper) at δ as floats", py::arg("delta"))
      .def(
          "delta",
          [](PyLedger& a, const py::handle& eps) {
            return ends(a.answer(true, to_rational(eps, "eps")).bounds, false);
          },
          "(delta_lower, delta_upper) at ε as floats", py::arg("eps"))
      // The names other accountants use (Opacus, dp_accounting): get_epsilon(δ) is the number a
      // researcher compares and plots, a certified upper end (never below the true ε) as a float
      // (inf where no finite ε reaches δ). It is the fast one (RunLedger::epsilon_upper: the
      // composed pair's, from powers the ledger keeps, without the lower end and without the
      // search over the adversary's actual choices), so a training loop asking it after every
      // step() stays cheap; get_epsilon_bounds(δ) gives the certified pair (lower, upper) as the
      // Fractions the directed-rounded doubles are, its upper end at most get_epsilon(δ).
      .def(
          "get_epsilon",
          [](PyLedger& a, const py::handle& delta) { return a.upper(false, to_rational(delta, "delta")); },
          "a certified upper end of ε at δ, as a float (never below the true ε; inf where no finite ε "
          "reaches δ), fast in a loop of step(); get_epsilon_bounds(delta) gives (lower, upper), its "
          "upper end at most this",
          py::arg("delta"))
      .def(
          "get_delta",
          [](PyLedger& a, const py::handle& eps) { return a.upper(true, to_rational(eps, "eps")); },
          "a certified upper end of δ at ε, as a float (never below the true δ), fast in a loop of "
          "step(); get_delta_bounds(eps) gives (lower, upper), its upper end at most this",
          py::arg("eps"))
      .def(
          "get_epsilon_bounds",
          [](PyLedger& a, const py::handle& delta) {
            return ends(a.answer(false, to_rational(delta, "delta")).bounds, true);
          },
          "(eps_lower, eps_upper) at δ as Fractions: the lower end attained, the upper end certified",
          py::arg("delta"))
      .def(
          "get_delta_bounds",
          [](PyLedger& a, const py::handle& eps) {
            return ends(a.answer(true, to_rational(eps, "eps")).bounds, true);
          },
          "(delta_lower, delta_upper) at ε as Fractions: the lower end attained, the upper end certified",
          py::arg("eps"))
      .def(
          "explain",
          [](const PyLedger& a, const py::handle& delta, const py::handle& eps) {
            if (delta.is_none() == eps.is_none())
              throw corbin::invalid_argument("delta", delta.is_none() ? "missing" : "given with eps", "exactly one of delta, eps");
            const bool at = delta.is_none();
            const RunLedger::Answer x =
                at ? a.ledger.delta(to_rational(eps, "eps")) : a.ledger.epsilon(to_rational(delta, "delta"));
            py::dict d = answer_dict(x, at, a.ledger);
            // An infinite ε: why (the CLI's words), and client 1 on LDPQ in every round beside it.
            const std::optional<InfiniteEps> infinite =
                at ? std::nullopt : explain_infinite_eps(a.ledger, to_rational(delta, "delta"), x);
            d["infinite_because"] = infinite ? py::object(py::str(infinite->reason)) : py::object(py::none());
            d["ldpq_role_eps"] = infinite && infinite->ldpq ? py::object(ends(*infinite->ldpq, true)) : py::object(py::none());
            return d;
          },
          "the answer in full: bounds (Fractions), worst_role and the configurations attaining the "
          "lower bound, the Rényi and basic-composition references, the dropout share of δ; where ε is "
          "infinite, infinite_because and ldpq_role_eps (client 1 on LDPQ in every round)",
          py::kw_only(), py::arg("delta") = py::none(), py::arg("eps") = py::none())
      .def(
          "largest_eps",
          [](const PyLedger& a, const py::handle& target, const py::handle& delta) {
            const LargestBudget b = largest_eps(a.ledger, to_rational(target, "target"), to_rational(delta, "delta"));
            py::dict d;
            d["largest"] = b.largest ? fraction(*b.largest) : py::object(py::none());
            d["refuted"] = b.refuted ? fraction(*b.refuted) : py::object(py::none());
            d["eps_upper"] = exact_double(b.eps_upper);
            return d;
          },
          "the largest ε_p (every round's budget) whose certified ε_upper(δ) is at most target: "
          "{'largest', 'refuted' (the smallest tried above), 'eps_upper' at largest}",
          py::arg("target"), py::arg("delta"))
      .def("__repr__", [](PyLedger& a) { return ledger_repr(a); })
      // Saved and resumed as the calls that made it (PyLedger::recipe), replayed on loading: the
      // same ledger, the same answers, and step() goes on from its last kind of round.
      .def(py::pickle([](const PyLedger& a) { return py::make_tuple(kLedgerState, a.recipe_copy()); },
                      [](const py::tuple& state) { return ledger_from_state(state); }));

  m.def(
      "agm_sigma",
      [](const py::handle& eps, const py::handle& delta, const py::handle& sensitivity) {
        PrecisionScope scope(256);
        return agm_sigma(to_rational(eps, "eps"), to_rational(delta, "delta"),
                         to_rational(sensitivity, "sensitivity"))
            .convert_to<double>();
      },
      "analytic Gaussian σ (Balle & Wang)", py::arg("eps"), py::arg("delta"),
      py::arg("sensitivity"));

  m.def(
      "laplace_scale",
      [](const py::handle& eps, const py::handle& sensitivity) {
        return fraction(
            laplace_scale(to_rational(eps, "eps"), to_rational(sensitivity, "sensitivity")));
      },
      "Laplace scale Δ/ε", py::arg("eps"), py::arg("sensitivity"));

  m.def(
      "sample_corbinq",
      [](py::array_t<float, py::array::c_style | py::array::forcecast> w1,
         py::array_t<float, py::array::c_style | py::array::forcecast> w2,
         const py::handle& exp_eps, const py::handle& c, const py::handle& r,
         const py::handle& bits_value, const py::handle& seed_value) {
        if (w1.size() != w2.size())
          throw corbin::invalid_argument("w2", "of another length", "as long as w1");
        check_finite(w1, "w1");
        check_finite(w2, "w2");
        const auto bits =
            static_cast<unsigned>(to_count(bits_value, "bits", CorbinqPairSampler::kMaxBits));
        const std::uint64_t seed = to_count(seed_value, "seed", ~0ul);
        const FixedPointLaw law(
            Budget::make(Budget::Kind::exp_eps, to_rational(exp_eps, "exp_eps")),
            to_rational(c, "center"), to_radius(r));
        const CorbinqPairSampler sampler(law, bits, derive_key(seed, "shared"),
                                         derive_key(seed, "leader"), derive_key(seed, "follower"),
                                         0);
        py::array_t<float> out1(w1.size()), out2(w2.size());
        {
          py::gil_scoped_release release;
          sampler.sample(w1.data(), w2.data(), out1.mutable_data(), out2.mutable_data(),
                         static_cast<std::size_t>(w1.size()));
        }
        return py::make_tuple(out1, out2);
      },
      "sample CorBinQ pairs (ChaCha20, seeded)", py::arg("w1"), py::arg("w2"), py::arg("exp_eps"),
      py::arg("center"), py::arg("radius"), py::arg("bits"), py::arg("seed"));

  m.def(
      "conform",
      [](const py::object& sampler, const std::string& mechanism_name, const py::object& variant_value,
         const std::string& grid, const py::handle& level, const py::handle& power,
         const py::handle& draws, const py::handle& seed, bool independence,
         const py::handle& effect) {
        const cf::Mechanism mechanism = cf::parse_mechanism(mechanism_name);
        // variant: None is the mechanism's first (corbinq's corrected, the others' standard), as
        // the CLI without --variant.
        const std::string variant = variant_value.is_none() ? cf::variants_of(mechanism).front()
                                                            : variant_value.cast<std::string>();
        cf::check_variant(mechanism, variant);
        cf::Options o;
        o.level = to_level(level, "level");
        o.power = to_level(power, "power");
        o.effect = to_level(effect, "effect");
        if (!draws.is_none()) {
          o.draws = to_count(draws, "draws", 10000000000ul);
          if (o.draws == 0) throw corbin::invalid_argument("draws", "0", "at least 1, or None (auto)");
        }
        o.seed = to_count(seed, "seed", ~0ul);
        o.independence = independence;
        cf::check_options(o);
        if (grid != "quick" && grid != "default")
          throw corbin::invalid_argument("grid", quote(grid), "quick or default");

        const bool builtin = py::isinstance<py::str>(sampler);
        if (!builtin && !PyCallable_Check(sampler.ptr()))
          throw py::type_error("sampler must be a callable or a built-in sampler's name ('builtin:cpu', "
                               "'builtin:kernels', 'builtin:cuda', 'builtin:exact'), not " +
                               type_name(sampler));
        cf::Builtin own;
        if (builtin) own = cf::builtin_sampler(sampler.cast<std::string>(), mechanism, variant);
        const cf::ClaimedLaw claimed = builtin ? own.claimed : cf::exact_claim(variant);
        const cf::Plan plan = cf::make_plan(
            cf::grid_settings(mechanism, grid == "quick" ? cf::GridSize::quick : cf::GridSize::standard, variant),
            variant, claimed, o);
        cf::Report report;
        if (builtin) {
          py::gil_scoped_release release;
          report = cf::run_trial(*own.sampler, plan, o);
        } else {
          CallableSampler callable(sampler);
          report = cf::run_trial(callable, plan, o);
        }
        return conform_report(plan, report, o, mechanism);
      },
      "put a sampler on trial against the exact law (docs/conform.md): sampler is a callable taking "
      "a request dict and returning {'counts': {label: n}} (and 'outputs': [label, ...] in draw "
      "order when request['outputs']), or a built-in sampler's name ('builtin:cpu', 'builtin:kernels', "
      "'builtin:cuda', 'builtin:exact'). Returns {'conforms', "
      "'level', 'tests', 'laws', 'privacy', 'draws', 'settings'}",
      py::arg("sampler"), py::arg("mechanism") = "corbinq", py::arg("variant") = py::none(),
      py::arg("grid") = "quick", py::arg("level") = 1e-3, py::arg("power") = 0.9,
      py::arg("draws") = py::none(), py::arg("seed") = 1, py::arg("independence") = true,
      py::arg("effect") = 0);
}
