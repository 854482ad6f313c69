#pragma once
// Which inputs `corbin conform` asks a sampler about. A group is one (mechanism, e^ε, d, c, r); the
// grid chooses its inputs so that every known way of getting the law wrong shows:
//   - the ends c ± r (every pairing of them for a pair), the centre c, equal interior inputs;
//   - CorBinQ's top-cell boundary: the input whose threshold index is 2^d − 1 exactly (u = 2^d q1 =
//     2^d − 1, or v = 2^d (1 − q2) = 2^d − 1), where the authors' tie rule departs most, when the
//     budget lets q reach 1 − 2^−d;
//   - for each other known law (variant or fault model), the pair of inputs where its total
//     variation from the claimed variant's law is largest, computed from the exact laws.
// One-client mechanisms (LDPQ, PBM, RQM) get c − r, c − r/2, c, c + r/3, c + r.
//
// The largest-TV search works in threshold space (u, v), where the laws depend on α and d only. On
// a cell [a1, a1 + 1) × [a2, a2 + 1) every cell probability of every variant is bilinear in the
// fractional parts (f1, f2), so |difference| summed over outputs is convex along each axis and its
// maximum over the closed cell is at a corner; the shared-coin fault adds min(f1, f2) − f1 f2,
// whose maximum is on the diagonal at 1/2. The candidates are therefore the range's ends, every
// integer, every cell's midpoint and every left limit (f → 1; an input 1/64 of a cell short of it
// is used, as a law may jump at the integer itself). For d <= kExhaustiveBits every cell is
// searched, so the supremum is exact; above, the cells within 16 of the range's ends and of its
// centre are (where the known variants differ: the extremes and the top cell), and the result says
// it is not exhaustive.

#include <string>
#include <vector>

#include "corbin/conform/law.hpp"

namespace corbin::conform {

/// One (mechanism, e^ε, d, c, r) whose inputs the grid chooses.
struct Group {
  Mechanism mechanism;
  Rational exp_eps{3};
  unsigned bits = 0;
  Rational center{0}, radius{1};
};

enum class GridSize { quick, standard };

/// The built-in grids. quick: e^ε = 3 (PBM with m = 2: 9), d in {1, 2, 3}, c = 0, r = 1.
/// standard: e^ε in {3, 9} (pbm2: {4, 9}), d in {1, 2, 3, 5, 8}, (c, r) in {(0, 1), (1000, 1/1000)}
/// (a far centre: inputs a float32 cannot tell apart to 1%).
std::vector<Group> grid_groups(const Mechanism& m, GridSize size);

/// d up to which the largest-TV search visits every cell.
constexpr unsigned kExhaustiveBits = 10;

/// The pair of inputs of a CorBinQ group where laws `a` and `b` (variants or fault models) are
/// furthest apart in total variation.
struct MaxTv {
  std::vector<Rational> inputs;  ///< (w1, w2)
  Rational tv;                   ///< exact, at these inputs
  double supremum = 0;      ///< over the candidates, left limits included (may be approached only)
  bool exhaustive = false;  ///< every cell was a candidate
};
MaxTv max_tv_inputs(const Group& g, const std::string& a, const std::string& b);

/// The settings of a group for a sampler claiming `variant` (validated), inputs chosen as above; a
/// pair of inputs chosen for several reasons appears once with all its purposes.
std::vector<Setting> choose_settings(const Group& g, const std::string& variant);

/// The settings of a built-in grid: choose_settings over every group of grid_groups(m, size), in
/// order.
std::vector<Setting> grid_settings(const Mechanism& m, GridSize size, const std::string& variant);

/// Validates a group (as check_setting, without inputs).
void check_group(const Group& g);

}  // namespace corbin::conform
