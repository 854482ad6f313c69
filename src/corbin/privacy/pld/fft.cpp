#include "corbin/privacy/pld/fft.hpp"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "corbin/number/directed.hpp"
#include "corbin/number/mp.hpp"

namespace corbin {
namespace {

using namespace directed;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kU = 0x1p-53;
/// μ: |ω̂ − ω| for every twiddle. The angle 2πk/N at 128 bits is within 2^-126 of its value, its
/// sine and cosine at 128 bits within 2^-125 of theirs, and the rounding to double adds at most u
/// of the value: |ω̂ − ω| <= u|ω| + √2·2^-124 < u + 2^-120.
constexpr double kTwiddleError = 0x1p-53 + 0x1p-120;
/// ζ: the absolute error underflow may add to a butterfly's output (each of the complex product's
/// four real products loses at most 2^-1075; a sum of subnormals is exact).
constexpr double kUnderflow = 0x1p-1072;
/// θ: a cell is resolved by a tilt where the tilted value is at least 1/θ times its error bound.
constexpr double kResolved = 0x1p-20;
/// Tilt weights below this are dropped (their products counted as an absolute error); a tilt that
/// needs a weight above kMaxWeight for a positive input is not made. Both keep the weights normal.
constexpr double kDropWeight = 0x1p-960;
constexpr double kMaxWeight = 0x1p+1000;
constexpr int kMaxTiltsPerSide = 24;

int log2_of(std::size_t n) {
  return std::countr_zero(n);
}

/// √x rounded up (IEEE sqrt is correctly rounded: one step up bounds it).
double sqrt_up(double x) {
  return succ(std::sqrt(x));
}

/// γ_k = k u / (1 − k u), rounded up.
double gamma_up(double k) {
  const double ku = mul_up(k, kU);
  return div_up(ku, sub_down(1.0, ku));
}

double sqrt2_gamma2() {
  return mul_up(sqrt_up(2.0), gamma_up(2));
}

// ---- twiddles ----

/// Stage tables: for h = 1, 2, 4, …, entries [h, 2h) hold e^(−2πik/(2h)), k < h. They are the same
/// for every transform size, so one table serves every size up to its own.
struct Twiddles {
  std::size_t size = 0;
  std::vector<double> re, im;
};

std::shared_ptr<const Twiddles> build_twiddles(std::size_t n) {
  auto out = std::make_shared<Twiddles>();
  out->size = n;
  out->re.assign(n, 0.0);
  out->im.assign(n, 0.0);
  const std::size_t half = n / 2;
  std::vector<double> c(half), s(half);  // cos and sin of 2πk/n
  if (n >= 8) {
    Mp pi(128), x(128), sv(128), cv(128);
    mpfr_const_pi(pi.get(), MPFR_RNDN);
    const std::size_t eighth = n / 8, quarter = n / 4;
    for (std::size_t k = 0; k <= eighth; ++k) {
      mpfr_mul_ui(x.get(), pi.get(), static_cast<unsigned long>(2 * k), MPFR_RNDN);
      mpfr_div_2ui(x.get(), x.get(), static_cast<unsigned long>(log2_of(n)), MPFR_RNDN);
      mpfr_sin_cos(sv.get(), cv.get(), x.get(), MPFR_RNDN);
      c[k] = mpfr_get_d(cv.get(), MPFR_RNDN);
      s[k] = mpfr_get_d(sv.get(), MPFR_RNDN);
    }
    // cos(π/2 − x) = sin x, sin(π/2 − x) = cos x; cos(π/2 + x) = −sin x, sin(π/2 + x) = cos x.
    for (std::size_t k = eighth + 1; k <= quarter; ++k) {
      c[k] = s[quarter - k];
      s[k] = c[quarter - k];
    }
    for (std::size_t k = quarter + 1; k < half; ++k) {
      c[k] = -s[k - quarter];
      s[k] = c[k - quarter];
    }
  } else {
    c[0] = 1;
    s[0] = 0;
    if (half > 1) {
      c[1] = 0;
      s[1] = 1;
    }
  }
  for (std::size_t h = 1; h < n; h *= 2) {
    const std::size_t stride = half / h;  // e^(−2πik/(2h)) = e^(−2πi(k·stride)/n)
    for (std::size_t k = 0; k < h; ++k) {
      out->re[h + k] = c[k * stride];
      out->im[h + k] = -s[k * stride];
    }
  }
  return out;
}

std::shared_ptr<const Twiddles> twiddles_for(std::size_t n) {
  static std::mutex mutex;
  static std::shared_ptr<const Twiddles> cache;
  std::lock_guard<std::mutex> lock(mutex);
  if (!cache || cache->size < n) cache = build_twiddles(std::max<std::size_t>(n, 8));
  return cache;
}

// ---- the transform ----

void bit_reverse(double* re, double* im, std::size_t n) {
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      std::swap(re[i], re[j]);
      std::swap(im[i], im[j]);
    }
  }
}

// Decimation in frequency (natural order in, bit-reversed out) for the forward transforms, and in
// time (bit-reversed in, natural out) for the inverse, so that a product needs no reordering. A
// DIF butterfly is (x_a + x_b, ω̂ ⊗ fl(x_a − x_b)), each output within η of its exact value: the
// bounds (A) and (B) of fft.hpp hold alike. Two stages at a time share one pass over memory; the
// arithmetic is that of the two stages, operation for operation.

struct Complex {
  double re, im;
};
inline Complex operator+(Complex a, Complex b) {
  return {a.re + b.re, a.im + b.im};
}
inline Complex operator-(Complex a, Complex b) {
  return {a.re - b.re, a.im - b.im};
}
inline Complex times(const double* wr, const double* wi, std::size_t k, Complex b) {
  return {wr[k] * b.re - wi[k] * b.im, wr[k] * b.im + wi[k] * b.re};
}
inline Complex times_minus_i(Complex b) {
  return {b.im, -b.re};
}  // −i (x + iy) = y − ix, exact

/// The last two DIF stages (h = 2: ω = 1, −i; h = 1: ω = 1), both exact products.
void dif_tail(double* re, double* im, std::size_t n) {
  if (n >= 4) {
    for (std::size_t s = 0; s < n; s += 4) {
      const Complex x0{re[s], im[s]}, x1{re[s + 1], im[s + 1]}, x2{re[s + 2], im[s + 2]},
          x3{re[s + 3], im[s + 3]};
      const Complex a0 = x0 + x2, a2 = x0 - x2, a1 = x1 + x3, a3 = times_minus_i(x1 - x3);
      const Complex y0 = a0 + a1, y1 = a0 - a1, y2 = a2 + a3, y3 = a2 - a3;
      re[s] = y0.re, im[s] = y0.im, re[s + 1] = y1.re, im[s + 1] = y1.im;
      re[s + 2] = y2.re, im[s + 2] = y2.im, re[s + 3] = y3.re, im[s + 3] = y3.im;
    }
  } else if (n == 2) {
    const Complex x0{re[0], im[0]}, x1{re[1], im[1]}, y0 = x0 + x1, y1 = x0 - x1;
    re[0] = y0.re, im[0] = y0.im, re[1] = y1.re, im[1] = y1.im;
  }
}

/// The first two DIT stages (h = 1, then h = 2), the mirror of dif_tail.
void dit_head(double* re, double* im, std::size_t n) {
  if (n >= 4) {
    for (std::size_t s = 0; s < n; s += 4) {
      const Complex x0{re[s], im[s]}, x1{re[s + 1], im[s + 1]}, x2{re[s + 2], im[s + 2]},
          x3{re[s + 3], im[s + 3]};
      const Complex a0 = x0 + x1, a1 = x0 - x1, a2 = x2 + x3, a3 = x2 - x3;
      const Complex p = times_minus_i(a3);
      const Complex y0 = a0 + a2, y2 = a0 - a2, y1 = a1 + p, y3 = a1 - p;
      re[s] = y0.re, im[s] = y0.im, re[s + 1] = y1.re, im[s + 1] = y1.im;
      re[s + 2] = y2.re, im[s + 2] = y2.im, re[s + 3] = y3.re, im[s + 3] = y3.im;
    }
  } else if (n == 2) {
    const Complex x0{re[0], im[0]}, x1{re[1], im[1]}, y0 = x0 + x1, y1 = x0 - x1;
    re[0] = y0.re, im[0] = y0.im, re[1] = y1.re, im[1] = y1.im;
  }
}

/// Two DIF stages over four runs x0..x3 of `len` elements (real parts r, imaginary i): the first
/// pairs (x0, x2) by a[k] and (x1, x3) by b[k], the second (y0, y1) and (y2, y3) by c[k]. Separate
/// pointers let the loop vectorise.
void dif_two(double* __restrict r0, double* __restrict r1, double* __restrict r2,
             double* __restrict r3, double* __restrict i0, double* __restrict i1,
             double* __restrict i2, double* __restrict i3, const double* __restrict ar,
             const double* __restrict ai, const double* __restrict br, const double* __restrict bi,
             const double* __restrict cr, const double* __restrict ci, std::size_t len) {
  for (std::size_t k = 0; k < len; ++k) {
    const Complex x0{r0[k], i0[k]}, x1{r1[k], i1[k]}, x2{r2[k], i2[k]}, x3{r3[k], i3[k]};
    const Complex a0 = x0 + x2, a2 = times(ar, ai, k, x0 - x2);
    const Complex a1 = x1 + x3, a3 = times(br, bi, k, x1 - x3);
    const Complex y0 = a0 + a1, y1 = times(cr, ci, k, a0 - a1);
    const Complex y2 = a2 + a3, y3 = times(cr, ci, k, a2 - a3);
    r0[k] = y0.re, i0[k] = y0.im, r1[k] = y1.re, i1[k] = y1.im;
    r2[k] = y2.re, i2[k] = y2.im, r3[k] = y3.re, i3[k] = y3.im;
  }
}

/// Two DIT stages: the first pairs (x0, x1) and (x2, x3) by a[k], the second (y0, y2) by b[k] and
/// (y1, y3) by c[k].
void dit_two(double* __restrict r0, double* __restrict r1, double* __restrict r2,
             double* __restrict r3, double* __restrict i0, double* __restrict i1,
             double* __restrict i2, double* __restrict i3, const double* __restrict ar,
             const double* __restrict ai, const double* __restrict br, const double* __restrict bi,
             const double* __restrict cr, const double* __restrict ci, std::size_t len) {
  for (std::size_t k = 0; k < len; ++k) {
    const Complex x0{r0[k], i0[k]}, x1{r1[k], i1[k]}, x2{r2[k], i2[k]}, x3{r3[k], i3[k]};
    const Complex p1 = times(ar, ai, k, x1), p3 = times(ar, ai, k, x3);
    const Complex a0 = x0 + p1, a1 = x0 - p1, a2 = x2 + p3, a3 = x2 - p3;
    const Complex q2 = times(br, bi, k, a2), q3 = times(cr, ci, k, a3);
    const Complex y0 = a0 + q2, y2 = a0 - q2, y1 = a1 + q3, y3 = a1 - q3;
    r0[k] = y0.re, i0[k] = y0.im, r1[k] = y1.re, i1[k] = y1.im;
    r2[k] = y2.re, i2[k] = y2.im, r3[k] = y3.re, i3[k] = y3.im;
  }
}

/// One DIF stage of half-size h (h >= 4), or two (h, then h/2 >= 4) in one pass.
void dif_stages(double* __restrict re, double* __restrict im, std::size_t n, std::size_t h,
                bool two, const Twiddles& w) {
  const double* __restrict w1r = w.re.data() + h;  // e^(−2πik/(2h))
  const double* __restrict w1i = w.im.data() + h;
  if (!two) {
    for (std::size_t s = 0; s < n; s += 2 * h)
      for (std::size_t k = 0; k < h; ++k) {
        const std::size_t i = s + k, j = s + k + h;
        const Complex a{re[i], im[i]}, b{re[j], im[j]};
        const Complex y0 = a + b, y1 = times(w1r, w1i, k, a - b);
        re[i] = y0.re, im[i] = y0.im, re[j] = y1.re, im[j] = y1.im;
      }
    return;
  }
  const std::size_t q = h / 2;
  for (std::size_t s = 0; s < n; s += 2 * h)
    dif_two(re + s, re + s + q, re + s + h, re + s + h + q, im + s, im + s + q, im + s + h,
            im + s + h + q, w1r, w1i, w1r + q, w1i + q, w.re.data() + q, w.im.data() + q, q);
}

/// One DIT stage of half-size h (h >= 4), or two (h, then 2h) in one pass.
void dit_stages(double* __restrict re, double* __restrict im, std::size_t n, std::size_t h,
                bool two, const Twiddles& w) {
  const double* __restrict w1r = w.re.data() + h;  // e^(−2πik/(2h))
  const double* __restrict w1i = w.im.data() + h;
  if (!two) {
    for (std::size_t s = 0; s < n; s += 2 * h)
      for (std::size_t k = 0; k < h; ++k) {
        const std::size_t i = s + k, j = s + k + h;
        const Complex a{re[i], im[i]}, p = times(w1r, w1i, k, Complex{re[j], im[j]});
        const Complex y0 = a + p, y1 = a - p;
        re[i] = y0.re, im[i] = y0.im, re[j] = y1.re, im[j] = y1.im;
      }
    return;
  }
  const std::size_t g = 2 * h;
  for (std::size_t s = 0; s < n; s += 2 * g)
    dit_two(re + s, re + s + h, re + s + g, re + s + g + h, im + s, im + s + h, im + s + g,
            im + s + g + h, w1r, w1i, w.re.data() + g, w.im.data() + g, w.re.data() + g + h,
            w.im.data() + g + h, h);
}

/// The DFT of re + i·im, natural order in, bit-reversed order out.
void forward(double* re, double* im, std::size_t n, const Twiddles& w) {
  std::size_t h = n / 2;
  for (; h >= 4; h /= 4) dif_stages(re, im, n, h, h >= 8, w);
  dif_tail(re, im, n);
}

/// The DFT of re + i·im given in bit-reversed order, natural order out; on (im, re) the conjugate
/// DFT (swapping real and imaginary parts is exact, and F̄x = swap(F swap(x))).
void backward(double* re, double* im, std::size_t n, const Twiddles& w) {
  dit_head(re, im, n);
  // The general stages h = 4, …, n/2, paired from the top down as forward pairs them.
  std::size_t count = 0;
  for (std::size_t h = 4; h < n; h *= 2) ++count;
  std::size_t h = 4;
  if (count % 2 == 1) {
    dit_stages(re, im, n, h, false, w);
    h *= 2;
  }
  for (; h < n; h *= 4) dit_stages(re, im, n, h, true, w);
}

// ---- norms, rounded up ----

// Sums in round to nearest, widened by Higham's bound (number/directed.hpp: SumWidening).
double norm2_up(const double* x, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += x[i] * x[i];
  return sqrt_up(SumWidening(n, 2).up(s));
}
double norm1_up(const double* x, std::size_t n) {  // x >= 0
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += x[i];
  return SumWidening(n, 1).up(s);
}

// ---- the concave hull of ln x, for placing tilts ----

/// A concave piecewise-linear function on integer abscissae, given by its vertices.
struct Hull {
  std::vector<std::int64_t> x;
  std::vector<double> y;

  /// The upper hull of (i, ln v_i) over v_i > 0 (at least one).
  static Hull of(const std::vector<double>& log) {
    Hull h;
    for (std::size_t i = 0; i < log.size(); ++i) {
      if (!(log[i] > -kInf)) continue;
      const auto xi = static_cast<std::int64_t>(i);
      while (h.x.size() >= 2) {
        const std::size_t k = h.x.size();
        const double ox = static_cast<double>(h.x[k - 2]), oy = h.y[k - 2];
        const double ax = static_cast<double>(h.x[k - 1]), ay = h.y[k - 1];
        if ((ay - oy) * (static_cast<double>(xi) - ox) <= (log[i] - oy) * (ax - ox)) {
          h.x.pop_back();
          h.y.pop_back();
        } else {
          break;
        }
      }
      h.x.push_back(xi);
      h.y.push_back(log[i]);
    }
    return h;
  }

  /// The sup-convolution (Minkowski sum of the hypographs): edges merged by decreasing slope.
  static Hull sum(const Hull& a, const Hull& b) {
    Hull h;
    h.x.push_back(a.x[0] + b.x[0]);
    h.y.push_back(a.y[0] + b.y[0]);
    std::size_t i = 1, j = 1;
    while (i < a.x.size() || j < b.x.size()) {
      const auto slope = [](const Hull& g, std::size_t k) {
        return (g.y[k] - g.y[k - 1]) / static_cast<double>(g.x[k] - g.x[k - 1]);
      };
      const bool take_a = j >= b.x.size() || (i < a.x.size() && slope(a, i) >= slope(b, j));
      const Hull& g = take_a ? a : b;
      std::size_t& k = take_a ? i : j;
      h.x.push_back(h.x.back() + (g.x[k] - g.x[k - 1]));
      h.y.push_back(h.y.back() + (g.y[k] - g.y[k - 1]));
      ++k;
    }
    return h;
  }

  std::int64_t first() const { return x.front(); }
  std::int64_t last() const { return x.back(); }
  /// The edge [x_k, x_(k+1)] holding abscissa v (v in range, at least two vertices).
  std::size_t edge(std::int64_t v, bool left) const {
    // left: the edge with x_k < v <= x_(k+1); right: the one with x_k <= v < x_(k+1).
    auto it =
        left ? std::lower_bound(x.begin(), x.end(), v) : std::upper_bound(x.begin(), x.end(), v);
    auto k = static_cast<std::size_t>(it - x.begin());
    k = std::clamp<std::size_t>(k, 1, x.size() - 1);
    return k - 1;
  }
  double slope(std::int64_t v, bool left) const {
    if (x.size() < 2) return 0;
    const std::size_t k = edge(v, left);
    return (y[k + 1] - y[k]) / static_cast<double>(x[k + 1] - x[k]);
  }
  double at(std::int64_t v) const {
    if (x.size() < 2) return y[0];
    const std::size_t k = edge(v, false);
    return y[k] +
           (y[k + 1] - y[k]) * static_cast<double>(v - x[k]) / static_cast<double>(x[k + 1] - x[k]);
  }
  /// How far the tangent at v (slope from the side facing `from`) lies above H at `from`.
  double gap(std::int64_t v, std::int64_t from) const {
    const bool left = from < v;
    return at(v) + slope(v, left) * static_cast<double>(from - v) - at(from);
  }
};

// ---- one tilted product ----

/// One input: its positive span, and ln of its values (−∞ at 0), for the tilts' reference points.
struct Input {
  std::span<const double> x;
  std::vector<double> log;
  double max = 0;

  explicit Input(std::span<const double> v) : x(v), log(v.size()) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      log[i] = v[i] > 0 ? std::log(v[i]) : -kInf;
      max = std::max(max, v[i]);
    }
  }
};

/// The tilted input x̃_i written to re (im zeroed), with (1 − u)·α_i − ν <= x̃_i <= high·α_i + ν
/// for α_i = x_i e^(λ(i − r)): `low` is 1 − u (1 untilted), and its norms rounded up.
struct Tilted {
  bool ok = true;
  std::int64_t r = 0;
  double low = 1, high = 1, nu = 0, norm1 = 0, norm2 = 0;
};

struct Exps {  // enclosures of e^λ and e^(−λ)
  double pos_lo, pos_hi, neg_lo, neg_hi;
  explicit Exps(double lambda) {
    Mp l(lambda, 64), e(64);
    mpfr_exp(e.get(), l.get(), MPFR_RNDU);
    pos_hi = e.up();
    mpfr_exp(e.get(), l.get(), MPFR_RNDD);
    pos_lo = e.down();
    mpfr_neg(l.get(), l.get(), MPFR_RNDN);
    mpfr_exp(e.get(), l.get(), MPFR_RNDU);
    neg_hi = e.up();
    mpfr_exp(e.get(), l.get(), MPFR_RNDD);
    neg_lo = e.down();
  }
};

Tilted tilt_into(const Input& in, double lambda, const Exps& e, double* re, double* im,
                 std::size_t n) {
  Tilted t;
  std::fill(re, re + n, 0.0);
  std::fill(im, im + n, 0.0);
  const std::size_t len = in.x.size();
  if (lambda == 0) {
    std::copy(in.x.begin(), in.x.end(), re);
  } else {
    double best = -kInf;
    for (std::size_t i = 0; i < len; ++i) {
      const double v = in.log[i] + lambda * static_cast<double>(i);
      if (v > best) {
        best = v;
        t.r = static_cast<std::int64_t>(i);
      }
    }
    const auto r = static_cast<std::size_t>(t.r);
    bool dropped = false;
    std::size_t steps = 0;
    // Weights w_i >= e^(λ(i − r)) by products rounded up, walking away from r on each side.
    const auto walk = [&](bool up) {
      double w = 1;
      std::size_t taken = 0;
      for (std::size_t k = 1;; ++k) {
        if (up ? r + k >= len : k > r) break;
        const std::size_t i = up ? r + k : r - k;
        w = mul_up(w, up ? e.pos_hi : e.neg_hi);
        if (w < kDropWeight) {
          dropped = true;  // every weight further out is smaller still
          break;
        }
        if (w > kMaxWeight) {
          for (std::size_t j = i;; up ? ++j : j -= 1) {
            if (in.x[j] > 0) {
              t.ok = false;
              return;
            }
            if (up ? j + 1 >= len : j == 0) break;
          }
          break;
        }
        taken = k;
        re[i] = in.x[i] * w;
      }
      steps = std::max(steps, taken);
    };
    re[r] = in.x[r];
    walk(true);
    if (t.ok) walk(false);
    if (!t.ok) return t;
    // Each step multiplies the excess by at most (1 + u)(1 + 2u)² <= 1 + 6u (e^λ rounded up, the
    // product rounded to nearest, then one step up), so w_i <= e^(λ(i − r))(1 + γ_(6m)); x_i w_i
    // rounded to nearest is within u of it and 2^-1075 (underflow).
    const double kappa_w = gamma_up(6.0 * static_cast<double>(steps));
    t.high = mul_up(add_up(1.0, kappa_w), add_up(1.0, kU));
    t.low = 1 - kU;
    t.nu = 0x1p-1074;  // at least the 2^-1075 of an underflowing product
    if (dropped) t.nu = std::max(t.nu, mul_up(in.max, kDropWeight));
  }
  t.norm1 = norm1_up(re, len);
  t.norm2 = norm2_up(re, len);
  return t;
}

class Product {
 public:
  Product(const Input& a, const Input& b, bool same)
      : a_(a),
        b_(b),
        same_(same),
        cells_(a.x.size() + b.x.size() - 1),
        n_(std::bit_ceil(cells_)),
        tw_(twiddles_for(n_)),
        are_(n_),
        aim_(n_) {
    if (!same_) {
      bre_.resize(n_);
      bim_.resize(n_);
    }
    value_.resize(cells_);
  }

  std::size_t cells() const { return cells_; }
  std::size_t size() const { return n_; }

  /// The product tilted by λ: each cell's bounds tightened (upper min, lower max) and marked
  /// resolved where the tilted value is at least 1/θ times its bound. False: tilt not made.
  bool run(double lambda, std::vector<double>& upper, std::vector<double>& lower,
           std::vector<char>& resolved) {
    const Exps e(lambda);
    const Tilted ta = tilt_into(a_, lambda, e, are_.data(), aim_.data(), n_);
    if (!ta.ok) return false;
    Tilted tb = ta;
    if (!same_) {
      tb = tilt_into(b_, lambda, e, bre_.data(), bim_.data(), n_);
      if (!tb.ok) return false;
    }
    forward(are_.data(), aim_.data(), n_, *tw_);
    const double* br = same_ ? are_.data() : bre_.data();
    const double* bi = same_ ? aim_.data() : bim_.data();
    if (!same_) forward(bre_.data(), bim_.data(), n_, *tw_);
    for (std::size_t k = 0; k < n_; ++k) {
      const double xr = are_[k], xi = aim_[k], yr = br[k], yi = bi[k];
      are_[k] = xr * yr - xi * yi;
      aim_[k] = xr * yi + xi * yr;
    }
    backward(aim_.data(), are_.data(), n_, *tw_);  // the conjugate DFT, natural order
    const double scale = 1.0 / static_cast<double>(n_);
    for (std::size_t k = 0; k < cells_; ++k) value_[k] = are_[k] * scale;

    // (ã ∗ b̃)_n within err of ĉ_n; the tilted exact product T_n = e^(λ(n − R)) c_n then obeys
    //   T_n <= (ĉ_n + err + ν_b‖ã‖₁ + ν_a‖b̃‖₁ + min(|a|,|b|) ν_a ν_b) / (low_a low_b),
    //   T_n >= (ĉ_n − err − ν_b‖ã‖₁ − ν_a‖b̃‖₁) / (high_a high_b).
    const double err = fft_convolution_error(n_, ta.norm2, tb.norm2);
    const double spill = add_up(mul_up(tb.nu, ta.norm1), mul_up(ta.nu, tb.norm1));
    const double pairs = static_cast<double>(std::min(a_.x.size(), b_.x.size()));
    const double err_lo = add_up(err, spill);
    const double err_up = add_up(err_lo, mul_up(pairs, mul_up(ta.nu, tb.nu)));
    // 1/(low_a low_b) rounded up, 1/(high_a high_b) rounded down.
    const double inv_low = div_up(1.0, mul_down(ta.low, tb.low));
    const double inv_high = div_down(1.0, mul_up(ta.high, tb.high));
    const bool tilted = lambda != 0;
    const auto at = [&](std::size_t n, double g_up, double g_down) {
      const double v = value_[n];
      double up = add_up(v, err_up), lo = sub_down(v, err_lo);
      if (tilted) {
        up = mul_up(mul_up(up, inv_low), g_up);
        lo = lo > 0 ? mul_down(mul_down(lo, inv_high), g_down) : 0.0;
      }
      if (!(up >= 0)) up = kInf;  // g_up past the doubles: no bound from this tilt
      upper[n] = std::min(upper[n], up);
      if (lo > lower[n]) lower[n] = lo;
      if (v * kResolved >= err_up) resolved[n] = 1;
    };
    if (!tilted) {
      for (std::size_t n = 0; n < cells_; ++n) at(n, 1, 1);
      return true;
    }
    // e^(−λ(n − R)) enclosed by products rounded outward, from n = R both ways.
    const auto big_r = static_cast<std::size_t>(ta.r + tb.r);
    double gu = 1, gd = 1;
    for (std::size_t n = big_r; n < cells_; ++n) {
      at(n, gu, gd);
      gu = mul_up(gu, e.neg_hi);
      gd = mul_down(gd, e.neg_lo);
    }
    gu = e.pos_hi;
    gd = e.pos_lo;
    for (std::size_t n = big_r; n-- > 0;) {
      at(n, gu, gd);
      gu = mul_up(gu, e.pos_hi);
      gd = mul_down(gd, e.pos_lo);
    }
    return true;
  }

 private:
  const Input& a_;
  const Input& b_;
  bool same_;
  std::size_t cells_, n_;
  std::shared_ptr<const Twiddles> tw_;
  std::vector<double> are_, aim_, bre_, bim_, value_;
};

/// Maximal runs [first, last] of positive entries.
std::vector<std::pair<std::size_t, std::size_t>> runs(std::span<const double> x) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] <= 0) continue;
    if (!out.empty() && out.back().second + 1 == i)
      out.back().second = i;
    else
      out.push_back({i, i});
  }
  return out;
}

/// Whether each cell of a ∗ b has a positive term, where the supports' runs are few enough to
/// pair (else every cell counts as possibly positive).
std::vector<char> support(std::span<const double> a, std::span<const double> b, std::size_t cells) {
  const auto ra = runs(a), rb = runs(b);
  std::vector<char> out(cells, 1);
  if (static_cast<double>(ra.size()) * static_cast<double>(rb.size()) >
      4.0 * static_cast<double>(cells) + 64)
    return out;
  std::vector<std::int64_t> d(cells + 1, 0);
  for (const auto& [sa, ea] : ra)
    for (const auto& [sb, eb] : rb) {
      d[sa + sb] += 1;
      d[ea + eb + 1] -= 1;
    }
  std::int64_t c = 0;
  for (std::size_t n = 0; n < cells; ++n) {
    c += d[n];
    out[n] = c > 0;
  }
  return out;
}

void check(std::span<const double> v, const char* name) {
  if (v.empty()) throw std::logic_error(std::string("fft_convolution: ") + name + " is empty");
  for (double x : v)
    if (!(x >= 0) || x == kInf)
      throw std::logic_error(std::string("fft_convolution: ") + name + " has " + std::to_string(x));
}

}  // namespace

double dft_relative_error(std::size_t n) {
  const int t = log2_of(n);
  const double alpha = add_up(kTwiddleError, mul_up(sqrt2_gamma2(), add_up(1.0, kTwiddleError)));
  const double eta = add_up(mul_up(add_up(1.0, kU), alpha), kU);
  // (1 + u)^min(t,2) (1 + η)^(t−2) − 1 <= e^x − 1 <= x/(1 − x), x = min(t,2) u + (t − 2)η: no
  // rounding at 1, which would cost a unit of 2u a stage.
  const double x = add_up(mul_up(std::min(t, 2), kU), mul_up(std::max(t - 2, 0), eta));
  return div_up(x, sub_down(1.0, x));
}

double fft_convolution_error(std::size_t n, double norm_a, double norm_b) {
  const double eps = dft_relative_error(n), s2g2 = sqrt2_gamma2();
  const auto big_n = static_cast<double>(n);
  const double root = sqrt_up(big_n);
  const double under = mul_up(kUnderflow, big_n);  // ζN
  // (A) with underflow: ‖Â − A‖₂ <= √N ε ‖a‖₂ + 4ζNt (the stages' underflow, amplified by at
  // most √2 a stage, sums to below 3ζN).
  const double z = mul_up(mul_up(4.0, under), static_cast<double>(std::max(1, log2_of(n))));
  const double fa = add_up(mul_up(mul_up(root, eps), norm_a), z);
  const double fb = add_up(mul_up(mul_up(root, eps), norm_b), z);
  const double ga = add_up(mul_up(root, norm_a), fa), gb = add_up(mul_up(root, norm_b), fb);
  const double d1 = add_up(mul_up(fa, gb), mul_up(mul_up(root, norm_a), fb));  // ‖Â⊙B̂ − A⊙B‖₁
  const double h = mul_up(ga, gb);                                             // ‖Â⊙B̂‖₁
  const double pd = add_up(add_up(d1, mul_up(s2g2, h)), under);                // ‖P̂ − P‖₁
  const double pn = add_up(mul_up(add_up(1.0, s2g2), h), under);               // ‖P̂‖₁
  // (B) with underflow adds 2ζN; the scaling by 1/N rounds only below 2^-1022 (2^-1075).
  const double total = add_up(add_up(mul_up(eps, pn), mul_up(2.0, under)), pd);
  return add_up(div_up(total, big_n), 0x1p-1074);
}

void dft(std::vector<double>& re, std::vector<double>& im, bool conjugate) {
  const std::size_t n = re.size();
  if (im.size() != n || !std::has_single_bit(n))
    throw std::logic_error("dft: sizes " + std::to_string(n) + " and " + std::to_string(im.size()));
  const auto tw = twiddles_for(n);
  if (conjugate) std::swap(re, im);
  forward(re.data(), im.data(), n, *tw);
  bit_reverse(re.data(), im.data(), n);
  if (conjugate) std::swap(re, im);
}

ConvolutionBounds fft_convolution(std::span<const double> a, std::span<const double> b,
                                  double negligible, bool same) {
  check(a, "a");
  check(b, "b");
  if (!(negligible >= 0)) throw std::logic_error("fft_convolution: negligible is negative");
  ConvolutionBounds out;
  const std::size_t cells = a.size() + b.size() - 1;
  out.lower.assign(cells, 0.0);
  out.upper.assign(cells, 0.0);
  const auto span_of = [](std::span<const double> v) {
    std::size_t f = 0, l = v.size();
    while (f < l && v[f] == 0) ++f;
    while (l > f && v[l - 1] == 0) l -= 1;
    return std::pair{f, l};
  };
  const auto [fa, la] = span_of(a);
  const auto [fb, lb] = span_of(b);
  if (fa == la || fb == lb) return out;  // one factor is 0: so is every cell, exactly
  const Input ia(a.subspan(fa, la - fa));
  const Input ib_own(same ? std::span<const double>{} : b.subspan(fb, lb - fb));
  const Input& ib = same ? ia : ib_own;
  Product product(ia, ib, same);
  const std::size_t m = product.cells();
  std::vector<double> upper(m, kInf), lower(m, 0.0);
  std::vector<char> resolved(m, 0);
  const std::vector<char> possible = support(ia.x, ib.x, m);
  for (std::size_t n = 0; n < m; ++n)
    if (!possible[n]) upper[n] = 0;  // no positive term: exactly 0
  product.run(0, upper, lower, resolved);
  out.tilts = 1;

  const Hull hull = Hull::sum(Hull::of(ia.log), same ? Hull::of(ia.log) : Hull::of(ib.log));
  // A tilt resolves about where its tangent to the hull stays within ln(θ/K) of the hull; the next
  // one is placed so that it reaches back to the frontier with half of that to spare.
  const double reach = std::log(kResolved / fft_convolution_error(product.size(), 1, 1));
  const auto frontier = [&](bool up) {
    std::int64_t f = -1;
    for (std::size_t n = 0; n < m; ++n)
      if (resolved[n] && possible[n] && (f < 0 || up)) {
        f = static_cast<std::int64_t>(n);
        if (!up) break;
      }
    return f;
  };
  std::int64_t mode = 0;
  for (std::size_t n = 1; n < m; ++n)
    if (upper[n] > upper[static_cast<std::size_t>(mode)]) mode = static_cast<std::int64_t>(n);
  for (const bool up : {true, false}) {
    std::int64_t f = frontier(up);
    if (f < 0) f = mode;
    double previous = 0, step = std::max(0.5, reach / 2);
    for (int tries = 0; tries < kMaxTiltsPerSide; ++tries) {
      double rest = 0;
      if (up)
        for (auto n = static_cast<std::size_t>(f) + 1; n < m; ++n) rest = add_up(rest, upper[n]);
      else
        for (std::size_t n = 0; n < static_cast<std::size_t>(f); ++n) rest = add_up(rest, upper[n]);
      if (rest <= negligible || hull.x.size() < 2) break;
      // The tangent point v beyond f farthest out whose tangent stays within `step` of H at f.
      std::int64_t lo = up ? f + 1 : hull.first(), hi = up ? hull.last() : f - 1;
      if (lo > hi) break;
      std::int64_t v;
      if (up) {
        v = lo;
        while (lo <= hi) {
          const std::int64_t mid = lo + (hi - lo) / 2;
          if (hull.gap(mid, f) <= step) {
            v = mid;
            lo = mid + 1;
          } else {
            hi = mid - 1;
          }
        }
      } else {
        v = hi;
        while (lo <= hi) {
          const std::int64_t mid = lo + (hi - lo) / 2;
          if (hull.gap(mid, f) <= step) {
            v = mid;
            hi = mid - 1;
          } else {
            lo = mid + 1;
          }
        }
      }
      const double lambda = -hull.slope(v, up);
      if (!std::isfinite(lambda) || (up ? lambda <= previous : lambda >= previous)) break;
      if (!product.run(lambda, upper, lower, resolved)) break;
      ++out.tilts;
      const std::int64_t g = frontier(up);
      if (g < 0 || (up ? g <= f : g >= f)) {
        step /= 2;  // no progress: aim closer
        if (step < 0.25) break;
        continue;
      }
      previous = lambda;
      f = g;
    }
  }
  for (std::size_t n = 0; n < m; ++n) {
    out.upper[fa + fb + n] = possible[n] ? upper[n] : 0.0;
    out.lower[fa + fb + n] = possible[n] ? std::min(lower[n], upper[n]) : 0.0;
  }
  return out;
}

}  // namespace corbin
