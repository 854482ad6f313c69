// The certified FFT convolution (privacy/pld/fft.hpp) and the compositions of privacy-loss
// distributions that use it (privacy/pld/pld.hpp, past PldLimits::fft_cells): the transform within its
// derived bounds of an MPFR transform; every cell's bounds around the exact rational convolution
// (every small case of a small domain, random and adversarial masses from 1e-80 to 1, exact zeros)
// and around a long-double one at thousands of cells; compositions by FFT against exact δ of
// composed laws; and δ and the accountant's ε(δ) by FFT against the direct sums': never crossing,
// and how much wider.

#include <mpfr.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "corbin/number/directed.hpp"
#include "corbin/number/interval.hpp"
#include "corbin/number/mp.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/worst_case/aggregate_law.hpp"
#include "corbin/privacy/pld/fft.hpp"
#include "corbin/privacy/pld/pld.hpp"

using namespace corbin;

namespace {

constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();

/// c_n = Σ a_i b_(n−i) exactly.
std::vector<Rational> exact_convolution(const std::vector<double>& a,
                                        const std::vector<double>& b) {
  std::vector<Rational> c(a.size() + b.size() - 1, Rational(0));
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == 0) continue;
    const Rational ai = to_rational(a[i]);
    for (std::size_t j = 0; j < b.size(); ++j)
      if (b[j] != 0) c[i + j] += ai * to_rational(b[j]);
  }
  return c;
}

/// Every cell's bounds around the exact convolution; cells with no positive term exactly 0.
void check_exact(const std::vector<double>& a, const std::vector<double>& b, bool same = false) {
  const ConvolutionBounds r = fft_convolution(a, same ? a : b, 1e-300, same);
  const std::vector<Rational> c = exact_convolution(a, same ? a : b);
  REQUIRE(r.upper.size() == c.size());
  REQUIRE(r.lower.size() == c.size());
  for (std::size_t n = 0; n < c.size(); ++n) {
    INFO("cell " << n << " of " << c.size() << ": " << r.lower[n]
                 << " <= " << c[n].convert_to<double>() << " <= " << r.upper[n]);
    CHECK(to_rational(r.lower[n]) <= c[n]);
    CHECK(c[n] <= to_rational(r.upper[n]));
    if (c[n] == 0) CHECK(r.upper[n] == 0);
  }
}

/// Masses log-uniform in [10^lo, 1], a share of them 0.
std::vector<double> random_masses(std::mt19937_64& rng, std::size_t n, double lo, double zeros) {
  std::uniform_real_distribution<double> e(lo, 0), u(0, 1);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng) < zeros ? 0.0 : std::pow(10.0, e(rng));
  return v;
}

/// A discretised Gaussian of the given width in cells, tails down to about 1e-150.
std::vector<double> gaussian(std::size_t n, double centre, double width) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double z = (static_cast<double>(i) - centre) / width;
    v[i] = z * z / 2 < 340 ? std::exp(-z * z / 2) / (width * 2.5066282746310002) : 0.0;
  }
  return v;
}

/// The convolution in long double (u = 2^-64; no underflow for products of doubles), and
/// enclosures of the exact one widened by twice Higham's γ_(m+2) (every operation of the
/// widening itself within 2^-64).
struct LongReference {
  std::vector<long double> lo, hi;
};
LongReference long_reference(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<long double> c(a.size() + b.size() - 1, 0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == 0) continue;
    const long double ai = a[i];
    for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += ai * b[j];
  }
  const long double m = static_cast<long double>(std::min(a.size(), b.size()) + 2);
  const long double gamma = 2 * m * 0x1p-64L / (1 - m * 0x1p-64L);
  LongReference out{c, c};
  for (std::size_t n = 0; n < c.size(); ++n) {
    out.lo[n] = c[n] * (1 - gamma);
    out.hi[n] = c[n] * (1 + gamma);
  }
  return out;
}

}  // namespace

TEST_CASE("the DFT is within its normwise and componentwise bounds of an MPFR transform",
          "[fft][unit]") {
  std::mt19937_64 rng(38);
  std::normal_distribution<double> gauss;
  for (std::size_t n = 1; n <= 256; n *= 2) {
    // Random complex, masses from 1e-80 to 1, the unit impulses (which read the twiddles), ones.
    std::vector<std::pair<std::vector<double>, std::vector<double>>> inputs;
    std::vector<double> re(n), im(n);
    for (std::size_t j = 0; j < n; ++j) re[j] = gauss(rng), im[j] = gauss(rng);
    inputs.push_back({re, im});
    inputs.push_back({random_masses(rng, n, -80, 0.1), std::vector<double>(n, 0.0)});
    for (std::size_t at : {std::size_t(0), n / 3, n - 1}) {
      std::vector<double> e(n, 0.0);
      e[at] = 1;
      inputs.push_back({e, std::vector<double>(n, 0.0)});
    }
    inputs.push_back({std::vector<double>(n, 1.0), std::vector<double>(n, 1.0)});
    // e^(∓2πi r/n) at 192 bits for every residue r.
    std::vector<Mp> cs, sn;
    {
      Mp pi(192), x(192);
      mpfr_const_pi(pi.get(), MPFR_RNDN);
      for (std::size_t r = 0; r < n; ++r) {
        Mp c(192), s(192);
        mpfr_mul_ui(x.get(), pi.get(), 2 * r, MPFR_RNDN);
        mpfr_div_ui(x.get(), x.get(), n, MPFR_RNDN);
        mpfr_sin_cos(s.get(), c.get(), x.get(), MPFR_RNDN);
        cs.push_back(c);
        sn.push_back(s);
      }
    }
    const double eps = dft_relative_error(n);
    for (const bool conjugate : {false, true})
      for (const auto& [xr, xi] : inputs) {
        std::vector<double> yr = xr, yi = xi;
        dft(yr, yi, conjugate);
        double norm1 = 0, norm2 = 0, err2 = 0, worst = 0;
        for (std::size_t j = 0; j < n; ++j) {
          norm1 += std::hypot(xr[j], xi[j]);
          norm2 += xr[j] * xr[j] + xi[j] * xi[j];
        }
        norm2 = std::sqrt(norm2);
        for (std::size_t k = 0; k < n; ++k) {
          Mp sr(192), si(192), t(192), xrm(192), xim(192);
          for (std::size_t j = 0; j < n; ++j) {
            const std::size_t r = (j * k) % n;
            // (xr + i xi)(c ∓ i s) = xr c ± xi s + i(xi c ∓ xr s)
            mpfr_set_d(xrm.get(), xr[j], MPFR_RNDN);
            mpfr_set_d(xim.get(), xi[j], MPFR_RNDN);
            mpfr_mul(t.get(), xrm.get(), cs[r].get(), MPFR_RNDN);
            mpfr_add(sr.get(), sr.get(), t.get(), MPFR_RNDN);
            mpfr_mul(t.get(), xim.get(), sn[r].get(), MPFR_RNDN);
            (conjugate ? mpfr_sub : mpfr_add)(sr.get(), sr.get(), t.get(), MPFR_RNDN);
            mpfr_mul(t.get(), xim.get(), cs[r].get(), MPFR_RNDN);
            mpfr_add(si.get(), si.get(), t.get(), MPFR_RNDN);
            mpfr_mul(t.get(), xrm.get(), sn[r].get(), MPFR_RNDN);
            (conjugate ? mpfr_add : mpfr_sub)(si.get(), si.get(), t.get(), MPFR_RNDN);
          }
          mpfr_sub_d(sr.get(), sr.get(), yr[k], MPFR_RNDN);
          mpfr_sub_d(si.get(), si.get(), yi[k], MPFR_RNDN);
          const double e =
              std::hypot(mpfr_get_d(sr.get(), MPFR_RNDN), mpfr_get_d(si.get(), MPFR_RNDN));
          err2 += e * e;
          worst = std::max(worst, e);
        }
        INFO("n = " << n << (conjugate ? ", conjugate" : "") << ": error " << worst << ", bound "
                    << eps * norm1);
        // The reference is exact to 2^-180 relative; its own roundings are far below the slack.
        CHECK(worst <= eps * norm1 * (1 + 1e-9) + 1e-300);                                   // (B)
        CHECK(std::sqrt(err2) <= std::sqrt(double(n)) * eps * norm2 * (1 + 1e-9) + 1e-300);  // (A)
      }
  }
  // The constant is the derived one: 3 stages of η = (1 + u)(μ + √2γ₂(1 + μ)) + u after two
  // exact ones at n = 32, about 4.83 u each.
  CHECK(dft_relative_error(32) == Approx(2 * 0x1p-53 + 3 * 4.8284 * 0x1p-53).epsilon(1e-3));
}

TEST_CASE("FFT convolution brackets the exact convolution: every small case of a small domain",
          "[fft][unit]") {
  // Vectors of 1 to 3 cells with values in {0, 1e-80, 2^-30, 0.75}: all 84² pairs, exactly.
  const std::vector<double> values = {0, 1e-80, 0x1p-30, 0.75};
  std::vector<std::vector<double>> vectors;
  for (std::size_t len = 1; len <= 3; ++len) {
    std::size_t count = 1;
    for (std::size_t i = 0; i < len; ++i) count *= values.size();
    for (std::size_t code = 0; code < count; ++code) {
      std::vector<double> v(len);
      for (std::size_t i = 0, c = code; i < len; ++i, c /= values.size())
        v[i] = values[c % values.size()];
      vectors.push_back(v);
    }
  }
  for (const auto& a : vectors)
    for (const auto& b : vectors) check_exact(a, b);
  for (const auto& a : vectors) check_exact(a, a, true);
}

TEST_CASE(
    "FFT convolution brackets the exact convolution: random and adversarial masses from "
    "1e-80 to 1",
    "[fft][unit]") {
  std::mt19937_64 rng(3838);
  std::uniform_int_distribution<std::size_t> len(1, 90);
  for (int trial = 0; trial < 40; ++trial) {
    const std::vector<double> a = random_masses(rng, len(rng), -80, trial % 3 == 0 ? 0.3 : 0.0);
    const std::vector<double> b = random_masses(rng, len(rng), -80, trial % 4 == 0 ? 0.5 : 0.0);
    INFO("trial " << trial);
    check_exact(a, b);
    check_exact(a, a, true);
  }
  // Adversarial: a single heavy cell beside 1e-80 tails (the tilts must resolve the tails), masses
  // on every third cell only (exact zeros between), subnormal and huge-ratio neighbours, 0 alone.
  std::vector<double> spike(70, 1e-80);
  spike[35] = 1;
  std::vector<double> lattice(64, 0.0);
  for (std::size_t i = 0; i < lattice.size(); i += 3)
    lattice[i] = std::pow(0.5, static_cast<double>(i));
  const std::vector<double> tiny = {0x1p-1074, 1, 0x1p-1060, 1e-300, 0.5};
  const std::vector<double> zero = {0, 0, 0};
  const std::vector<const std::vector<double>*> all = {&spike, &lattice, &tiny, &zero};
  for (const auto* a : all)
    for (const auto* b : all) check_exact(*a, *b);
  check_exact(gaussian(60, 30, 2), gaussian(60, 30, 2), true);
  // Where the supports leave a cell without any positive term, its bounds are exactly 0.
  const ConvolutionBounds r = fft_convolution(lattice, lattice, 0);
  for (std::size_t n = 1; n < r.upper.size(); n += 3) CHECK(r.upper[n] == 0);
}

TEST_CASE(
    "FFT convolution at thousands of cells: never past a long-double reference, and tight "
    "where the tails are log-concave",
    "[fft][unit]") {
  std::mt19937_64 rng(838);
  struct Case {
    const char* name;
    std::vector<double> a, b;
    bool concave;
  };
  std::vector<Case> cases;
  cases.push_back({"gaussians", gaussian(4096, 2048, 100), gaussian(3000, 1000, 130), true});
  cases.push_back({"gaussian squared", gaussian(4096, 2000, 90), gaussian(4096, 2000, 90), true});
  cases.push_back({"random masses", random_masses(rng, 2048, -80, 0.2),
                   random_masses(rng, 1500, -80, 0), false});
  std::vector<double> bumps = gaussian(4096, 1000, 40), far = gaussian(4096, 3000, 60);
  for (std::size_t i = 0; i < bumps.size(); ++i) bumps[i] = bumps[i] + 1e-6 * far[i];
  cases.push_back({"two bumps", bumps, gaussian(2048, 1024, 50), false});
  std::vector<double> sparse = gaussian(4096, 2048, 300);
  for (std::size_t i = 0; i < sparse.size(); ++i)
    if (i % 7 != 0) sparse[i] = 0;
  cases.push_back({"every seventh cell", sparse, sparse, false});
  for (const Case& c : cases) {
    const bool same = c.a == c.b;
    const ConvolutionBounds r = fft_convolution(c.a, c.b, 1e-100, same);
    const LongReference ref = long_reference(c.a, c.b);
    std::size_t crossed = 0, loose = 0;
    for (std::size_t n = 0; n < r.upper.size(); ++n) {
      if (static_cast<long double>(r.upper[n]) < ref.lo[n] ||
          static_cast<long double>(r.lower[n]) > ref.hi[n])
        ++crossed;
      // Log-concave: every cell above 1e-90 within 1e-5 relative on both sides (the tilts
      // resolve it to 2^-20 of its value).
      if (c.concave && ref.lo[n] > 1e-90L &&
          (r.upper[n] > ref.hi[n] * (1 + 1e-5L) || r.lower[n] < ref.lo[n] * (1 - 1e-5L)))
        ++loose;
    }
    INFO(c.name << ": " << r.tilts << " tilts");
    CHECK(crossed == 0);
    CHECK(loose == 0);
    CHECK(r.tilts <= 9);
  }
}

TEST_CASE("fft_convolution's inputs are checked", "[fft][unit]") {
  const std::vector<double> ok = {1, 2};
  CHECK_THROWS_AS(fft_convolution(std::vector<double>{}, ok, 0), std::logic_error);
  CHECK_THROWS_AS(fft_convolution(ok, std::vector<double>{-1.0}, 0), std::logic_error);
  CHECK_THROWS_AS(fft_convolution(ok, std::vector<double>{std::nan("")}, 0), std::logic_error);
  CHECK_THROWS_AS(fft_convolution(std::vector<double>{INFINITY}, ok, 0), std::logic_error);
  CHECK_THROWS_AS(fft_convolution(ok, ok, -1), std::logic_error);
  const ConvolutionBounds r = fft_convolution(ok, std::vector<double>{0.0, 0.0}, 0);
  CHECK(r.upper == std::vector<double>(3, 0.0));
  CHECK(fft_convolution(std::vector<double>{3}, std::vector<double>{5}, 0).upper[0] >= 15);
}

namespace {

/// P = Binomial(t, p1), Q = Binomial(t, p2) as exact rationals and as a window.
struct Laws {
  std::vector<Rational> p, q;
  WindowPmf wp, wq;
};
Laws binomials(unsigned t, const Rational& p1, const Rational& p2) {
  Laws l;
  const auto law = [t](const Rational& x) {
    std::vector<Rational> out;
    for (unsigned j = 0; j <= t; ++j) {
      BigInt c(1);
      for (unsigned i = 0; i < j; ++i) c = c * (t - i) / (i + 1);
      Rational m(c);
      for (unsigned i = 0; i < j; ++i) m *= x;
      for (unsigned i = j; i < t; ++i) m *= 1 - x;
      out.push_back(m);
    }
    return out;
  };
  l.p = law(p1);
  l.q = law(p2);
  const auto window = [](const std::vector<Rational>& m) {
    WindowPmf w;
    for (const Rational& x : m) {
      const double d = to_double(x);  // nearest: one step each way encloses it
      w.lo.push_back(std::max(0.0, directed::pred(d)));
      w.hi.push_back(directed::succ(d));
    }
    return w;
  };
  l.wp = window(l.p);
  l.wq = window(l.q);
  return l;
}

/// δ(ε) of the k-fold composition of (P, Q), k in {2, 4}, enclosed: e^ε from MPFR both ways, every
/// product of atoms exact.
std::pair<Rational, Rational> exact_delta(const Laws& l, unsigned k, const Rational& eps) {
  Mp e = Mp::of(eps, MPFR_RNDD), x(128);
  mpfr_exp(x.get(), e.get(), MPFR_RNDD);
  const Rational lo_e = to_rational(x.down());
  e = Mp::of(eps, MPFR_RNDU);
  mpfr_exp(x.get(), e.get(), MPFR_RNDU);
  const Rational hi_e = to_rational(x.up());
  // The composed law's atoms: products over k-tuples (P and Q of a tuple multiply alike).
  std::vector<std::pair<Rational, Rational>> atoms;
  for (std::size_t i = 0; i < l.p.size(); ++i) atoms.push_back({l.p[i], l.q[i]});
  for (unsigned round = 1; round < k; round *= 2) {
    std::vector<std::pair<Rational, Rational>> next;
    for (const auto& [p1, q1] : atoms)
      for (const auto& [p2, q2] : atoms) next.push_back({p1 * p2, q1 * q2});
    atoms = std::move(next);
  }
  Rational lo(0), hi(0);
  for (const auto& [p, q] : atoms) {
    if (p - hi_e * q > 0) lo += p - hi_e * q;
    if (p - lo_e * q > 0) hi += p - lo_e * q;
  }
  return {lo, hi};
}

}  // namespace

TEST_CASE("compositions by FFT bound the exact δ of composed laws on both sides", "[fft][unit]") {
  PrecisionScope scope(128);
  const Laws l = binomials(12, Rational(1, 2), Rational(1, 3));
  for (const std::size_t cells : {std::size_t(64), std::size_t(512)}) {
    PldLimits fft;
    fft.max_cells = cells;
    fft.fft_cells = 1;  // every product by FFT
    const UpperPld u = upper_pld(l.wp, l.wq, false, fft);
    const LowerPld d = lower_pld(l.wp, l.wq, false, fft);
    for (const unsigned k : {2u, 4u}) {
      const UpperPld uk = power(u, k, fft);
      const LowerPld dk = power(d, k, fft);
      for (const Rational& eps :
           {Rational(0), Rational(1, 4), Rational(1), Rational(2), Rational(3)}) {
        const auto [lo, hi] = exact_delta(l, k, eps);
        INFO("cells " << cells << ", k = " << k << ", ε = " << eps.convert_to<double>() << ": "
                      << delta_lower(dk, eps) << " <= δ in [" << lo.convert_to<double>() << ", "
                      << hi.convert_to<double>() << "] <= " << delta_upper(uk, eps));
        CHECK(to_rational(delta_lower(dk, eps)) <= hi);
        CHECK(lo <= to_rational(delta_upper(uk, eps)));
      }
    }
  }
}

TEST_CASE("at 16 384 cells, δ from 1e-5 to 1e-10 by FFT stays within 1e-6 of the direct sums'",
          "[fft][unit]") {
  // The mechanism's pair at n = 50 (every client on LDPQ, e^ε = 3), composed 8 times on grids of
  // 16 384 points, every product by FFT or every one directly.
  PrecisionScope scope(128);
  AccountSetting s;
  s.n = 50;
  s.gamma = Rational(1);
  s.budget = Budget::make(Budget::Kind::exp_eps, Rational(3));
  const NeighbouringPmfs laws = AggregateFamily(s).laws(Configuration{});
  PldLimits fft, direct;
  fft.max_cells = direct.max_cells = 16384;
  fft.fft_cells = 1;
  direct.fft_cells = kNever;
  const UpperPld u = upper_pld(laws.p, laws.q, laws.disjoint, fft);
  const LowerPld l = lower_pld(laws.p, laws.q, laws.disjoint, fft);
  const UpperPld uf = power(u, 8, fft), ud = power(u, 8, direct);
  const LowerPld lf = power(l, 8, fft), ld = power(l, 8, direct);
  CHECK(uf.mass.size() > 4000);  // the grid is still fine: the FFT's tails were trimmed alike
  CHECK(uf.mass.size() <= ud.mass.size() + 2);
  for (const Rational& delta :
       {Rational(1, 100000), Rational(1, 10000000), Rational(1, 10000000000)}) {
    const Rational eps = to_rational(eps_upper(ud, delta));
    const double du_f = delta_upper(uf, eps), du_d = delta_upper(ud, eps);
    const double dl_f = delta_lower(lf, eps), dl_d = delta_lower(ld, eps);
    INFO("δ = " << delta.convert_to<double>() << " at ε = " << eps.convert_to<double>()
                << ": upper FFT " << du_f << " direct " << du_d << ", lower FFT " << dl_f
                << " direct " << dl_d);
    CHECK(dl_f <= du_d);
    CHECK(dl_d <= du_f);
    CHECK(du_f <= du_d * (1 + 1e-6));
    CHECK(du_f >= du_d * (1 - 1e-6));
    CHECK(dl_f >= dl_d * (1 - 1e-3));
  }
}

TEST_CASE("the accountant's ε(δ) by FFT and by direct sums: both valid, and as wide",
          "[fft][unit]") {
  // The paper's sizes: n = 2 and 50, e^ε = 3, k = 100 and 1000, on the default grid of 2 048
  // points: every product by FFT against every product directly (the default's choice).
  for (const unsigned long n : {2ul, 50ul})
    for (const std::uint64_t k : {std::uint64_t(100), std::uint64_t(1000)}) {
      AccountSetting s;
      s.n = n;
      s.gamma = Rational(1);
      s.budget = Budget::make(Budget::Kind::exp_eps, Rational(3));
      PldLimits fft, direct;
      fft.fft_cells = 1;
      direct.fft_cells = kNever;
      const Accountant by_fft = Accountant(s, fft).compose(k),
                       by_sum = Accountant(s, direct).compose(k);
      for (const Rational& delta : {Rational(1, 100000), Rational(1, 10000000000)}) {
        const TwoSided f = by_fft.epsilon(delta), d = by_sum.epsilon(delta);
        INFO("n = " << n << ", k = " << k << ", δ = " << delta.convert_to<double>() << ": FFT ["
                    << f.lower << ", " << f.upper << "], direct [" << d.lower << ", " << d.upper
                    << "]");
        CHECK(f.lower <= d.upper);  // nothing crosses
        CHECK(d.lower <= f.upper);
        CHECK(f.upper <= d.upper * (1 + 1e-8));
        CHECK(f.lower >= d.lower * (1 - 1e-4));
      }
    }
}
