#pragma once
// SignSGD as the authors' repository runs it ("SignSGD", methods/signsgd.py and main_dp_func.py's
// train_on_client; REFERENCES.md, "Baselines of the authors' repository"): signSGD with majority
// vote (Bernstein et al., ICLR 2019, Algorithm 1 "Signum"). Per coordinate, a client updates its
// momentum v ← (1 − β) g + β v (β = 0.9) from its averaged local gradient g and uploads sign(v),
// torch.sign: −1, 0 or +1. The server sums the signs and steps x ← x − η(sign(Σ) + λx).
// There is no privacy randomisation at all: the upload is a deterministic function of v, and the
// authors list it as non-private (Readme.md table: Privacy "None"; the experiment scripts pass no
// ε). Their code also applies no clipping: the range [c − r, c + r] used here is only the range
// of inputs over which the law and its PLDP ratio are assessed, to set it beside the other
// mechanisms'. The input is the momentum coordinate, not a model weight, so MSE and bias measure
// sign(v) as an estimate of v itself; they show what the value decodes to, not a claim of the
// authors.

#include <cstdint>

#include "corbin/quantizer/ldpq.hpp"
#include "corbin/quantizer/scalar_law.hpp"

namespace corbin {

/// sign(v) in {−1, 0, 1}, as torch.sign.
int signsgd_sign(const Rational& v);

/// The law at v: outputs −1, 0, +1 (in that order), the one equal to sign(v) with probability 1.
ScalarLaw<Rational> signsgd_law(const Rational& center, const Rational& radius, const Rational& v);

/// E[(sign(v) − v)²] = (sign(v) − v)² (deterministic output).
Rational signsgd_mse(const Rational& center, const Rational& radius, const Rational& v);

/// The PLDP supremum over [c − r, c + r], claiming no ε. Each output's probability is an indicator
/// of v < 0, v = 0 or v > 0, so the ends and 0 (when inside) hold every extreme: the ratio is 1
/// when the whole range has one sign (c − r > 0 or c + r < 0) and unbounded otherwise.
LawPldp<Rational> signsgd_pldp(const Rational& center, const Rational& radius);

/// 1 bit claimed (Readme.md table; Cifar10_SignSGD.sh: "1 bit/coordinate"), 2 lossless (torch.sign
/// also outputs 0, which happens whenever a momentum coordinate is exactly 0, e.g. a parameter
/// that received no gradient), 32 moved by the simulation (the sign as a float32 tensor entry).
WireBits signsgd_wire_bits();

/// sign(v) as a double; `word` is accepted for the samplers' common signature and unused (the
/// mechanism draws nothing). A NaN v raises invalid_argument("w").
double signsgd_sample(double v, std::uint64_t word);

/// sign(v[i]) for count coordinates; NaN inputs raise invalid_argument("w[i]") (first + i).
void signsgd_sample(const float* v, float* out, std::size_t count, std::uint64_t first = 0);

}  // namespace corbin
