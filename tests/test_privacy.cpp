#include <catch2/catch.hpp>
#include <vector>

#include "corbin/privacy/formulas/pldp.hpp"

using namespace corbin;

namespace {

struct Brute {
  bool unbounded = false;
  Rational ratio = 0;
};

/// Exhaustive PLDP: every end of every threshold cell in range, for the client, its partner and
/// the output, with no candidate pruning.
Brute brute_pldp(const Rational& alpha, const Rational& c, const Rational& r, unsigned long d,
                 Variant variant) {
  const BigInt two_d = pow2(d);
  const Cell<Rational> lo = split(Rational(ldpq_q(alpha, c, r, Rational(c - r)) * two_d), "lo");
  const Cell<Rational> hi = split(Rational(ldpq_q(alpha, c, r, Rational(c + r)) * two_d), "hi");
  std::vector<BigInt> all;
  for (BigInt k = lo.index; k <= hi.index; ++k) all.push_back(k);
  const auto points = detail::cell_ends(all, lo, hi);
  Brute b;
  for (int client : {1, 2})
    for (const auto& partner : points)
      for (int output : {1, -1}) {
        Rational mx = -1, mn = 2;
        for (const auto& own : points) {
          const auto law = client == 1 ? joint_law_from_cells(own.cell, partner.cell, two_d, variant)
                                       : joint_law_from_cells(partner.cell, own.cell, two_d, variant);
          const Rational plus = client == 1 ? law.q1_plus() : law.q2_plus();
          const Rational p = output == 1 ? plus : Rational(1 - plus);
          if (p > mx) mx = p;
          if (p < mn) mn = p;
        }
        if (mn == 0 && mx > 0) b.unbounded = true;
        if (mn > 0 && mx / mn > b.ratio) b.ratio = mx / mn;
      }
  return b;
}

}  // namespace

TEST_CASE("LDPQ's likelihood ratio is exactly e^ε", "[privacy][unit]") {
  for (const Rational& x : {Rational(3), Rational(101, 100), Rational(1000)}) {
    const Rational alpha = (x + 1) / (x - 1);
    const auto p = ldpq_pldp(alpha, Rational(1, 3), Rational(2));
    CHECK(p.ratio == x);
    CHECK(p.bound == x);
    CHECK(p.w_high == Rational(7, 3));
    CHECK(p.w_low == Rational(-5, 3));
  }
}

TEST_CASE("corrected CorBinQ is exactly e^ε-PLDP for every d", "[privacy][unit]") {
  for (const Rational& x : {Rational(3), Rational(11, 10), Rational(33), Rational(1097)})
    for (unsigned long d : {0ul, 1ul, 2ul, 5ul, 8ul, 64ul, 4096ul}) {
      const Rational alpha = (x + 1) / (x - 1);
      const auto p = corbinq_pldp(alpha, Rational(0), Rational(1), d, Variant::corrected);
      INFO("e^ε=" << x << " d=" << d);
      CHECK_FALSE(p.unbounded);
      CHECK(p.ratio == x);
      CHECK(p.attained);
    }
}

TEST_CASE("the O(1) candidate set finds the exhaustive supremum", "[privacy][unit]") {
  for (Variant variant : {Variant::corrected, Variant::as_printed, Variant::reference_code})
    for (const Rational& x : {Rational(3), Rational(11, 10), Rational(33), Rational(7, 2), Rational(200)})
      for (unsigned long d = 0; d <= 6; ++d) {
        const Rational alpha = (x + 1) / (x - 1), c(1, 4), r(3, 4);
        const auto fast = corbinq_pldp(alpha, c, r, d, variant);
        const auto brute = brute_pldp(alpha, c, r, d, variant);
        INFO(to_string(variant) << " e^ε=" << x << " d=" << d);
        REQUIRE(fast.unbounded == brute.unbounded);
        if (!brute.unbounded) REQUIRE(fast.ratio == brute.ratio);
      }
}

TEST_CASE("the reference code is unbounded exactly when its top cell is reachable", "[privacy][unit]") {
  // Top cell reachable iff 2^d q(c + r) >= 2^d − 1, i.e. 1/2 + 1/(2α) >= 1 − 2^−d. At d = 0 the
  // top cell is the only one: both clients always answer their own sign, whatever the input, so
  // the ratio is 1 (perfectly private, and useless: the output ignores the weight).
  for (const Rational& x : {Rational(3), Rational(33), Rational(148), Rational(1097)}) {
    const Rational alpha0 = (x + 1) / (x - 1);
    const auto p0 = corbinq_pldp(alpha0, Rational(0), Rational(1), 0, Variant::reference_code);
    CHECK_FALSE(p0.unbounded);
    CHECK(p0.ratio == 1);
    for (unsigned long d = 1; d <= 10; ++d) {
      const Rational alpha = (x + 1) / (x - 1);
      const bool reachable =
          Rational(1, 2) + 1 / (2 * alpha) >= 1 - Rational(1, BigInt(pow2(d)));
      const auto p = corbinq_pldp(alpha, Rational(0), Rational(1), d, Variant::reference_code);
      INFO("e^ε=" << x << " d=" << d);
      CHECK(p.unbounded == reachable);
      if (!reachable) CHECK(p.ratio == x);
    }
  }
}

TEST_CASE("the printed line 14 breaks ε-PLDP", "[privacy][unit]") {
  // e^ε = 3, d = 5: the follower's "+" probability ranges beyond LDPQ's [1/4, 3/4].
  const auto p = corbinq_pldp(Rational(2), Rational(0), Rational(1), 5, Variant::as_printed);
  CHECK_FALSE(p.unbounded);
  CHECK(p.ratio == Rational(24, 7));
  CHECK(p.client == 2);
  CHECK(p.ratio > p.bound);
}

TEST_CASE("certified PLDP encloses the exact ratio", "[privacy][unit]") {
  PrecisionScope scope(192);
  const Rational alpha(5, 3);  // e^ε = 4
  const auto p = corbinq_pldp(interval_from(alpha), Rational(0), Rational(1), 6, Variant::corrected);
  CHECK(to_rational(lower_of(p.ratio)) <= 4);
  CHECK(to_rational(upper_of(p.ratio)) >= 4);
  CHECK(upper_of(p.ratio) - lower_of(p.ratio) < Real("1e-50"));
}
