// The `corbin` Python module (pybind11): the library's main entry points for notebooks and
// scripts. Exact values cross the boundary as fractions.Fraction (inputs may be Fraction, int,
// or a decimal/fraction string or float, read exactly as written: 0.3 is 3/10); certified
// values come back as floats (the midpoint) with the enclosure where it matters; sampler
// arrays are NumPy float32.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "corbin/number/error.hpp"
#include "corbin/privacy/baselines.hpp"
#include "corbin/privacy/exact_ucdp.hpp"
#include "corbin/privacy/pldp.hpp"
#include "corbin/privacy/ucdp.hpp"
#include "corbin/quantizer/sampler.hpp"
#include "corbin/utility/pair_mse.hpp"

namespace py = pybind11;
using namespace corbin;

namespace {

/// Fraction, int, str or float -> exact Rational (a float through its shortest repr).
Rational to_rational(const py::handle& value, const char* name) {
  return parse_rational(py::str(value).cast<std::string>(), name);
}

py::object fraction(const Rational& x) {
  static py::object fraction_type = py::module_::import("fractions").attr("Fraction");
  return fraction_type(to_string(x));
}

py::dict joint_dict(const JointLaw<Rational>& law) {
  py::dict d;
  d["++"] = fraction(law.pp);
  d["+-"] = fraction(law.pm);
  d["-+"] = fraction(law.mp);
  d["--"] = fraction(law.mm);
  return d;
}

double mid(const Interval& x) { return midpoint_of(x).convert_to<double>(); }

UcdpSetting ucdp_setting(unsigned long m, unsigned long n, const py::handle& gamma, const py::handle& delta,
                         const py::handle& radius, const py::handle& alpha) {
  return {m, n, to_rational(gamma, "gamma"), to_rational(delta, "delta"), to_rational(radius, "radius"),
          Budget::make(Budget::Kind::alpha, to_rational(alpha, "alpha"))};
}

py::dict formula_dict(const UcdpFormula& f) {
  py::dict d, terms;
  d["eps_u"] = mid(f.eps_u);
  d["precondition"] = f.precondition;
  for (const auto& t : f.terms) terms[py::str(t.name)] = mid(t.value);
  d["terms"] = terms;
  return d;
}

}  // namespace

PYBIND11_MODULE(corbin, m) {
  m.doc() = "Exact and certified computations for the CorBin-FL paper's claims";
  py::register_exception<corbin::invalid_argument>(m, "InvalidArgument", PyExc_ValueError);
  py::register_exception<corbin::undecidable>(m, "Undecidable", PyExc_ArithmeticError);

  m.def("alpha_of_exp_eps", [](const py::handle& x) {
    const Rational v = to_rational(x, "exp_eps");
    return fraction(Budget::make(Budget::Kind::exp_eps, v).alpha_exact());
  }, "α = (e^ε + 1)/(e^ε − 1), exactly", py::arg("exp_eps"));

  m.def("ldpq_q", [](const py::handle& alpha, const py::handle& c, const py::handle& r, const py::handle& w) {
    return fraction(ldpq_q(to_rational(alpha, "alpha"), to_rational(c, "center"), to_rational(r, "radius"),
                           to_rational(w, "w")));
  }, "P(LDPQ = c + rα) = 1/2 + (w − c)/(2rα)", py::arg("alpha"), py::arg("center"), py::arg("radius"), py::arg("w"));

  m.def("joint_law", [](const py::handle& alpha, const py::handle& c, const py::handle& r, const py::handle& w1,
                        const py::handle& w2, unsigned long bits, const std::string& variant) {
    return joint_dict(corbinq_joint_law(to_rational(alpha, "alpha"), to_rational(c, "center"), to_rational(r, "radius"),
                                        to_rational(w1, "w1"), to_rational(w2, "w2"), bits, parse_variant(variant)));
  }, "exact joint law of CorBinQ (Alg. 2)", py::arg("alpha"), py::arg("center"), py::arg("radius"), py::arg("w1"),
        py::arg("w2"), py::arg("bits"), py::arg("variant") = "corrected");

  m.def("pair_utility", [](const py::handle& alpha, const py::handle& c, const py::handle& r, const py::handle& w1,
                           const py::handle& w2, unsigned long bits, const std::string& variant) {
    const auto u = pair_utility(to_rational(alpha, "alpha"), to_rational(c, "center"), to_rational(r, "radius"),
                                to_rational(w1, "w1"), to_rational(w2, "w2"), bits, parse_variant(variant));
    py::dict d;
    d["mse"] = fraction(u.mse);
    d["mse_optimal"] = fraction(u.mse_optimal);
    d["mse_ldp"] = fraction(u.mse_ldp);
    d["gap"] = fraction(u.gap);
    d["paper_gap_bound"] = fraction(u.paper_gap_bound);
    return d;
  }, "exact pair MSE, optimum, independent LDPQs, gap and the paper's bound", py::arg("alpha"), py::arg("center"),
        py::arg("radius"), py::arg("w1"), py::arg("w2"), py::arg("bits"), py::arg("variant") = "corrected");

  m.def("sup_gap", [](const py::handle& alpha, const py::handle& c, const py::handle& r, unsigned long bits) {
    const auto s = sup_gap(to_rational(alpha, "alpha"), to_rational(c, "center"), to_rational(r, "radius"), bits);
    py::dict d;
    d["sup_gap"] = fraction(s.value);
    d["w1"] = fraction(s.w1);
    d["w2"] = fraction(s.w2);
    return d;
  }, "exact supremum of the gap over all inputs, with a witness", py::arg("alpha"), py::arg("center"),
        py::arg("radius"), py::arg("bits"));

  m.def("pldp", [](const py::handle& alpha, const py::handle& c, const py::handle& r, unsigned long bits,
                   const std::string& variant) -> py::object {
    const auto p = corbinq_pldp(to_rational(alpha, "alpha"), to_rational(c, "center"), to_rational(r, "radius"),
                                bits, parse_variant(variant));
    if (p.unbounded) return py::float_(std::numeric_limits<double>::infinity());
    return fraction(p.ratio);
  }, "exact sup of a CorBinQ client's likelihood ratio (inf if unbounded)", py::arg("alpha"), py::arg("center"),
        py::arg("radius"), py::arg("bits"), py::arg("variant") = "corrected");

  m.def("ucdp_printed", [](unsigned long mm, unsigned long n, const py::handle& gamma, const py::handle& delta,
                           const py::handle& radius, const py::handle& alpha) {
    PrecisionScope scope(128);
    return formula_dict(theorem3_printed(ucdp_setting(mm, n, gamma, delta, radius, alpha)));
  }, "Theorem 3 as printed", py::arg("m"), py::arg("n"), py::arg("gamma"), py::arg("delta"), py::arg("radius"),
        py::arg("alpha"));

  m.def("ucdp_cpsgd", [](unsigned long mm, unsigned long n, const py::handle& gamma, const py::handle& delta,
                         const py::handle& radius, const py::handle& alpha, bool consistent_units) {
    PrecisionScope scope(128);
    return formula_dict(theorem3_cpsgd(ucdp_setting(mm, n, gamma, delta, radius, alpha), consistent_units));
  }, "cpSGD Thm 1 with the proof's substitutions", py::arg("m"), py::arg("n"), py::arg("gamma"), py::arg("delta"),
        py::arg("radius"), py::arg("alpha"), py::arg("consistent_units") = false);

  m.def("exact_ucdp", [](unsigned long n, const py::handle& gamma, const py::handle& delta, const py::handle& alpha,
                         const py::handle& c, const py::handle& r, unsigned long bits, const std::string& relation,
                         const std::string& role) {
    PrecisionScope scope(128);
    ExactUcdpSetting s{n, to_rational(gamma, "gamma"), to_rational(delta, "delta"),
                       SumGeometry{to_rational(alpha, "alpha"), to_rational(c, "center"), to_rational(r, "radius"), bits,
                                   Variant::corrected},
                       role == "ldpq" ? TargetClient::Role::ldpq : TargetClient::Role::leader};
    if (role != "ldpq" && role != "paired") throw corbin::invalid_argument("role", role, "ldpq or paired");
    const auto x = exact_ucdp(s, proof_configuration(s.geometry.center, s.geometry.radius), parse_neighbour(relation));
    py::dict d;
    d["infinite"] = x.infinite;
    d["exp_eps"] = x.infinite ? py::object(py::none()) : fraction(x.exp_eps);
    d["eps"] = x.infinite ? std::numeric_limits<double>::infinity() : mid(x.eps);
    d["disjoint_mass"] = fraction(x.disjoint_mass);
    return d;
  }, "exact ε at δ of the released sum, m = 1", py::arg("n"), py::arg("gamma"), py::arg("delta"), py::arg("alpha"),
        py::arg("center") = 0, py::arg("radius") = 1, py::arg("bits") = 5, py::arg("relation") = "replace",
        py::arg("role") = "ldpq");

  m.def("agm_sigma", [](const py::handle& eps, const py::handle& delta, const py::handle& sensitivity) {
    PrecisionScope scope(256);
    return agm_sigma(to_rational(eps, "eps"), to_rational(delta, "delta"), to_rational(sensitivity, "sensitivity"))
        .convert_to<double>();
  }, "analytic Gaussian σ (Balle & Wang)", py::arg("eps"), py::arg("delta"), py::arg("sensitivity"));

  m.def("laplace_scale", [](const py::handle& eps, const py::handle& sensitivity) {
    return fraction(laplace_scale(to_rational(eps, "eps"), to_rational(sensitivity, "sensitivity")));
  }, "Laplace scale Δ/ε", py::arg("eps"), py::arg("sensitivity"));

  m.def("sample_corbinq", [](py::array_t<float, py::array::c_style | py::array::forcecast> w1,
                             py::array_t<float, py::array::c_style | py::array::forcecast> w2,
                             const py::handle& exp_eps, const py::handle& c, const py::handle& r, unsigned bits,
                             std::uint64_t seed) {
    if (w1.size() != w2.size()) throw corbin::invalid_argument("w2", "of another length", "as long as w1");
    const FixedPointLaw law(Budget::make(Budget::Kind::exp_eps, to_rational(exp_eps, "exp_eps")),
                            to_rational(c, "center"), to_rational(r, "radius"));
    const CorbinqPairSampler sampler(law, bits, derive_key(seed, "shared"), derive_key(seed, "leader"),
                                     derive_key(seed, "follower"), 0);
    py::array_t<float> out1(w1.size()), out2(w2.size());
    {
      py::gil_scoped_release release;
      sampler.sample(w1.data(), w2.data(), out1.mutable_data(), out2.mutable_data(),
                     static_cast<std::size_t>(w1.size()));
    }
    return py::make_tuple(out1, out2);
  }, "sample CorBinQ pairs (ChaCha20, seeded)", py::arg("w1"), py::arg("w2"), py::arg("exp_eps"), py::arg("center"),
        py::arg("radius"), py::arg("bits"), py::arg("seed"));
}
