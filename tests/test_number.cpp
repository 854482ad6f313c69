#include <catch2/catch.hpp>
#include <mpfr.h>

#include <thread>

#include "corbin/number/error.hpp"
#include "corbin/number/interval.hpp"
#include "corbin/number/rational.hpp"
#include "corbin/number/traits.hpp"

using namespace corbin;

TEST_CASE("parse_rational reads fractions, decimals and scientific notation exactly", "[number][unit]") {
  CHECK(parse_rational("3/10", "x") == Rational(3, 10));
  CHECK(parse_rational("-0.25", "x") == Rational(-1, 4));
  CHECK(parse_rational("1e-5", "x") == Rational(1, 100000));
  CHECK(parse_rational("2.5E+3", "x") == Rational(2500));
  CHECK(parse_rational(".5", "x") == Rational(1, 2));
  CHECK(parse_rational("7", "x") == Rational(7));
  CHECK(parse_rational("+1/3", "x") == Rational(1, 3));
  CHECK(parse_rational("-6/4", "x") == Rational(-3, 2));
  CHECK(parse_rational("0.1", "x") * 10 == 1);  // exact, unlike the double 0.1
  // Leading zeros are decimal, not octal.
  CHECK(parse_rational("010", "x") == 10);
  CHECK(parse_rational("-0.125", "x") == Rational(-1, 8));
  CHECK(parse_rational("07/010", "x") == Rational(7, 10));
  CHECK(parse_rational("0.0", "x") == 0);
}

TEST_CASE("parse_rational rejects everything else, naming the option", "[number][unit]") {
  for (const char* bad : {"", "nan", "NaN", "inf", "-inf", "1/0", "0x10", "1.2.3", "1e", "--1",
                          "1/-2", "abc", "1 ", " 1", "e5", ".", "1e999999", "3/"}) {
    INFO("input: '" << bad << "'");
    try {
      parse_rational(bad, "--alpha");
      FAIL("accepted");
    } catch (const invalid_argument& e) {
      CHECK(e.parameter() == "--alpha");
      CHECK(std::string(e.what()).find("--alpha") == 0);
    }
  }
}

TEST_CASE("to_string and floor_of are exact", "[number][unit]") {
  CHECK(to_string(Rational(6, 4)) == "3/2");
  CHECK(to_string(Rational(-8, 4)) == "-2");
  CHECK(floor_of(Rational(-1, 3)) == -1);
  CHECK(floor_of(Rational(7, 2)) == 3);
  CHECK(floor_of(Rational(-4)) == -4);
  CHECK(pow2(4096) == BigInt(1) << 4096);
}

TEST_CASE("certified floor decides when it can and refuses when it cannot", "[number][unit]") {
  PrecisionScope scope(128);
  const Interval third = interval_from(Rational(10, 3));
  CHECK(certified_floor(third, "x") == 3);
  // exp(1) * 2^200 needs ~200 bits to floor: 128 bits cannot decide, 400 can.
  const Interval e = exp(Interval(1));
  CHECK_THROWS_AS(certified_floor(Interval(e * interval_from(pow2(200))), "x"), undecidable);
  {
    PrecisionScope more(400);
    const Interval e400 = exp(Interval(1));
    CHECK_NOTHROW(certified_floor(Interval(e400 * interval_from(pow2(200))), "x"));
    CHECK(working_precision_bits() >= 400);
  }
  CHECK(working_precision_bits() >= 128);
  CHECK(working_precision_bits() < 400);  // restored
  // A point interval at an integer is decided exactly.
  CHECK(certified_floor(interval_from(BigInt(5)), "x") == 5);
  CHECK_FALSE(certified_less(Interval(1), Interval(1), "1 < 1"));  // certainly not less
  const Interval wide = interval_hull(Real(1), Real(2));
  CHECK_THROWS_AS(certified_less(wide, interval_from(Rational(3, 2)), "[1,2] < 3/2"), undecidable);
  CHECK(certified_less(Interval(1), Interval(2), "1 < 2"));
}

TEST_CASE("NumTraits behave alike on the three number types", "[number][unit]") {
  PrecisionScope scope(128);
  CHECK(NumTraits<Rational>::floor(Rational(-5, 2), "x") == -3);
  CHECK(NumTraits<double>::floor(-2.5, "x") == -3);
  CHECK(NumTraits<Interval>::floor(interval_from(Rational(-5, 2)), "x") == -3);
  CHECK_THROWS_AS(NumTraits<double>::floor(std::nan(""), "x"), invalid_argument);
  const Cell<Rational> c = split(Rational(7, 4), "x");
  CHECK(c.index == 1);
  CHECK(c.frac == Rational(3, 4));
  CHECK(to_rational(Real(0.375)) == Rational(3, 8));
  CHECK(to_rational(Real(0)) == 0);  // zero carries the minimum exponent in MPFR
  CHECK(to_rational(Real(-0.0)) == 0);
  CHECK(to_rational(Real(-6)) == -6);
  CHECK(to_rational(0.375) == Rational(3, 8));  // doubles convert exactly, whatever the precision
  CHECK(to_rational(0.1) == Rational(BigInt(3602879701896397), pow2(55)));
}

TEST_CASE("worker threads start from the caller's exponent range", "[number][unit]") {
  // MPFR's exponent range is per thread: a worker left at the default one overflowed e^(10^9).
  const WideExponentScope wide;
  long seen = 0;
  {
    const WorkerNumerics numerics;
    std::thread worker([&] {
      numerics.enter();
      seen = mpfr_get_emax();
    });
    worker.join();
  }
  CHECK(seen == mpfr_get_emax_max());
  long plain = 0;
  std::thread bare([&] { plain = mpfr_get_emax(); });
  bare.join();
  CHECK(plain < mpfr_get_emax_max());  // without enter(): the default, so the test can fail
}
