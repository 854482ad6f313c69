#include "corbin/fl/mechanisms/cq.hpp"

#include "corbin/fl/mechanism.hpp"
#include "corbin/privacy/worst_case/lone_clients.hpp"
#include "corbin/quantizer/cq.hpp"

namespace corbin::fl {
namespace {

class CqSampler : public LayerSampler {
 public:
  explicit CqSampler(const LayerRound& layer) : layer_(layer) {}
  void alone(std::span<const std::size_t> clients, std::span<const float* const> inputs,
             std::span<float* const> outputs) const override {
    // The survivors in rank order share coordinate t's shift (public randomness: CQ hides nothing).
    const std::size_t kk = clients.size();
    if (kk == 0) return;
    const auto shifts = cq_shifts(derive_key(layer_.config.seed, round_label(layer_.round, "cq shared shifts")),
                                  layer_.stream, layer_.size, kk);
    const Geometry& g = layer_.g;
    const float low = static_cast<float>(g.c - g.r), high = static_cast<float>(g.c + g.r);
    for (std::size_t rank = 0; rank < kk; ++rank) {
      const auto v = uniforms(round_secret(layer_.config, layer_.round, clients[rank], "private coins"),
                              layer_.stream, layer_.size);
      for (std::size_t t = 0; t < layer_.size; ++t)
        outputs[rank][t] = cq_top((clip(g, inputs[rank][t]) - (g.c - g.r)) / (2 * g.r), shifts[t], rank, kk, v[t])
                               ? high
                               : low;
    }
  }

 private:
  LayerRound layer_;
};

class CqCheck : public LayerCheck {
 public:
  explicit CqCheck(const Geometry& g) : g_(g) {}
  /// E e², Var e² at a coordinate: e = (2r/K) D with D = Σ B − Σ y (cq_error_moments).
  CoordinateCheck coordinate(std::span<const float> alone, std::span<const std::pair<float, float>>) const override {
    std::vector<double> y;
    for (float w : alone) y.push_back((clip(g_, w) - (g_.c - g_.r)) / (2 * g_.r));
    const CqMoments d = cq_error_moments(y);
    const double scale = 2 * g_.r / static_cast<double>(alone.size()), s2 = scale * scale;
    CoordinateCheck c;
    c.expected = s2 * d.m2;
    c.variance = std::max(0.0, s2 * s2 * d.m4 - c.expected * c.expected);
    return c;  // no paper bound for CQ
  }

 private:
  Geometry g_;
};

}  // namespace

std::unique_ptr<LayerSampler> CqMechanism::sampler(const LayerRound& layer) const {
  return std::make_unique<CqSampler>(layer);
}

std::unique_ptr<LayerCheck> CqMechanism::check(const MechanismConfig&, const Geometry& g) const {
  return std::make_unique<CqCheck>(g);
}

std::optional<MseValue> CqMechanism::aggregate_mse_at(const CoordinateSetting& s,
                                                      const std::vector<Rational>& weights) const {
  check_inputs(s, weights);
  const Rational low = s.center - s.radius, width = 2 * s.radius;
  std::vector<Rational> y;
  for (const Rational& w : weights) y.push_back((w - low) / width);
  const Rational scale = width / Rational(BigInt(weights.size()));
  const Rational value = scale * scale * cq_random_order_m2(y);
  return MseValue{value, interval_from(value)};
}

std::unique_ptr<Mechanism> make_cq() { return std::make_unique<CqMechanism>(); }

std::optional<Accountant> CqMechanism::round_accountant(const CoordinateSetting& s, std::size_t n,
                                                        const PldLimits& limits, std::string& why_not) const {
  if (s.dropout > 0) {
    why_not = "used without dropout (its clients share the server's randomness, so who survived changes every "
              "client's law; no mixture over survivors is written for it)";
    return std::nullopt;
  }
  std::vector<ExtremeLaw> ends;
  for (const Rational& w : range_ends(s)) ends.push_back({{{w, Rational(1)}}, input_words(s, w)});
  return Accountant::from_family(lone_clients_family(ends, n, s.center, s.relation),
                                 s.relation == Neighbour::replace_one, limits);
}

}  // namespace corbin::fl
