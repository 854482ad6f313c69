#pragma once
// Certified convolution of non-negative vectors by FFT: the products of privacy-loss distributions
// at many cells (pld.cpp), where the direct O(|a|·|b|) sum is too slow. Every cell of
// c = a ∗ b, c_n = Σ_(i+j=n) a_i b_j, gets a lower and an upper bound that hold exactly, with
// every rounding error of the transforms bounded.
//
// The transform. Iterative radix-2 FFTs of size N = 2^t in double (complex as separate real and
// imaginary arrays), round to nearest, no fused multiply-add: decimation in frequency for the
// forward transforms (natural order in, bit-reversed out) and in time for the inverse
// (bit-reversed in, natural out), so a product needs no reordering; two stages share a pass over
// memory, with the arithmetic of the two stages unchanged. Twiddles ω = e^(−2πik/N) come from
// MPFR at 128 bits (one octant; the rest by exact symmetries), rounded to nearest:
// |ω̂ − ω| <= μ = u + 2^-120, u = 2^-53. The conjugate transform is the same code on (im, re)
// swapped, which is exact.
//
// One butterfly (standard complex product: |fl(zw) − zw| <= √2 γ₂ |z||w|, Higham, Accuracy and
// Stability, 2nd ed., Lemma 3.5; a complex sum is off by at most u|sum|), with
// α = μ + √2 γ₂ (1 + μ):
//     in time, out = x_a ± fl(ω̂ x_b): d = fl(ω̂ x_b) − ω x_b, |d| <= α|x_b|, and
//              |out − (x_a ± ω x_b)| <= (1 + u)|d| + u|x_a ± ω x_b|;
//     in frequency, out = (fl(x_a + x_b), fl(ω̂ fl(x_a − x_b))): within u|x_a + x_b| and
//              ((1 + u)α + u)|x_a − x_b| of (x_a + x_b, ω(x_a − x_b)).
// The two stages next to the input or the output of length 2 and 4 multiply by 1 and −i only,
// exactly (α = 0 there). With η = (1 + u)α + u, for either kind:
//   (A) normwise (Higham §24.1): a stage maps x to A x with ‖A‖₂ = √2 and adds at most √2 η‖x‖₂,
//       so the computed X̂ of X = F x has ‖X̂ − X‖₂ <= √N ε_t ‖x‖₂, ε_t = (1 + η)^t − 1, bounded
//       by x/(1 − x), x = 2u + (t − 2)η (about 4.83 u a stage).
//   (B) componentwise: an element of stage s sums 2^s inputs x_S, |x_S| <= m_S = Σ_S |x_i|; by
//       induction its error is at most ε_s m_S (E <= (1+η)(E_a + E_b) + η(m_a + m_b)), so
//       |X̂_k − X_k| <= ε_t ‖x‖₁ for every k.
// The convolution ĉ = fl(F̄ fl(Â ⊙ B̂))/N (F̄ the conjugate DFT, N >= |a| + |b| − 1, so the cyclic
// convolution is the linear one) is then within, in every cell,
//     |ĉ_n − c_n| <= (ε_t ‖P̂‖₁ + ‖P̂ − P‖₁)/N                             (B, and |F̄ e|_n <= ‖e‖₁)
//     ‖P̂ − P‖₁ <= ‖Â − A‖₂‖B̂‖₂ + ‖A‖₂‖B̂ − B‖₂ + √2γ₂‖Â‖₂‖B̂‖₂             (Cauchy–Schwarz, A)
//     => |ĉ_n − c_n| <= K_N ‖a‖₂ ‖b‖₂,
//        K_N = ε_t(2 + ε_t) + √2γ₂(1 + ε_t)² + ε_t(1 + √2γ₂)(1 + ε_t)²  ≈ 13 log2(N) u,
// plus terms for underflow (each real product may lose 2^-1075 absolutely; sums of subnormals are
// exact), below 2^-1000 in all. The norms are computed rounded up and K_N with every operation
// rounded up (fft_convolution_error), so ĉ_n ± the bound brackets c_n. That is 2.2e-14 ‖a‖₂‖b‖₂ at
// N = 2^15 (13.1 log2(N) u): far below the cells near a distribution's mode, far above its tails.
//
// Tails. Where c_n is tiny (the 1e-80 tails a PLD keeps), an absolute bound of 1e-17 would be
// valid but ruinous: the trims of pld.cpp could no longer cut them, and the grids would coarsen.
// Convolution commutes with exponential tilting: with α_i = a_i e^(λ(i − r_a)) and β likewise,
// (α ∗ β)_n = e^(λ(n − r_a − r_b)) c_n, so the bound of the tilted product, scaled back by
// e^(−λ(n − R)), is relative to the tail that the tilt lifts to the top (Wilson and Keich's
// exponential shifting). The weights are built from MPFR enclosures of e^(±λ) by products
// rounded up (each within γ_(6m) above the exact weight after m steps; those below 2^-960 are
// dropped and counted as an absolute error ν), the inputs rounded to nearest once more: so
// (1 − u)α_i − ν <= ã_i <= (1 + κ)α_i + ν, and with s = ν(‖ã‖₁ + ‖b̃‖₁) the exact tilted product
// lies within [(ĉ_n − err − s)/(1 + κ)², (ĉ_n + err + s + ν²·min(|a|, |b|))/(1 − u)²]; the scale
// back e^(−λ(n − R)) is an enclosure by directed products again. Every tilt gives valid bounds in
// every cell; a cell takes the tightest of them. Tilts are placed from the mode outward (λ = 0
// first) at the slopes of the concave hull of ln a ⊕ ln b (the max-plus convolution's envelope),
// each reaching back to the last cell resolved (its tilted value at least 2^20 times its bound),
// until the cells beyond lie in tails whose upper bounds sum to at most `negligible`: about five
// tilts for a PLD's 1e-80 tails.
//
// Cells that are exactly 0 (no a_i b_j with i + j = n is positive, from the supports' runs) are 0.

#include <cstddef>
#include <span>
#include <vector>

namespace corbin {

/// Bounds on the linear convolution c = a ∗ b: 0 <= lower[n] <= c_n <= upper[n], n < |a| + |b| − 1.
struct ConvolutionBounds {
  std::vector<double> lower, upper;
  std::size_t tilts = 0;  ///< tilted products made (λ = 0 included)
};

/// c = a ∗ b bounded on both sides by FFT (see above); a and b non-empty, finite, >= 0 (raises
/// std::logic_error otherwise). `negligible` >= 0: tails of c whose upper bounds sum to at most
/// this are not resolved further. `same`: b is a (one transform fewer per tilt).
ConvolutionBounds fft_convolution(std::span<const double> a, std::span<const double> b,
                                  double negligible, bool same = false);

/// The bound K_N ‖a‖₂ ‖b‖₂ (+ underflow) on |ĉ_n − c_n| for one product through transforms of size
/// n (a power of 2), given upper bounds on the norms; every operation rounded up.
double fft_convolution_error(std::size_t n, double norm_a, double norm_b);

/// ε_t of (A) and (B) above for size n = 2^t, rounded up.
double dft_relative_error(std::size_t n);

/// The unnormalised DFT X_k = Σ_j x_j e^(−2πijk/n) of x = re + i·im in place, n = re.size() =
/// im.size() a power of 2; `conjugate`: e^(+2πijk/n) (n times the inverse). Bounds:
/// dft_relative_error.
void dft(std::vector<double>& re, std::vector<double>& im, bool conjugate = false);

}  // namespace corbin
