#pragma once
// `corbin sweep` as a function: the CLI (cmd_sweep.cpp) prints to stdout, and a test calls it
// in-process, where a mechanism it registered (tests/test_registry.cpp's toy) is in the registry.

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "corbin/number/interval.hpp"

namespace corbin::cli {

/// The options as given on the command line (every grid and number as text; `mechanism` empty
/// when --mechanism is not given).
struct SweepArgs {
  std::string quantity, eps, exp_eps, alpha,
      bits = "5", w = "0", w2 = "0", center = "0", radius = "1", variant = "corrected", n = "50",
      gamma = "1/2", delta = "1e-5", m = "1", mechanism;
  std::string sensitivity;  ///< empty: 2r, the width of the inputs' range
  /// aggregate_mse at these inputs (a list or a range, one set of n clients' inputs, not an
  /// axis) instead of the worst case over inputs; empty: the worst case.
  std::string weights;
  /// The options the user gave ("--n"): each must be one the quantity uses (an option the
  /// question ignores is an error, not a silent default). Empty: none is checked (in-process).
  std::set<std::string> given;
};

/// One quantity's value at one point: exact where the toolkit computes it exactly (`exact`, and
/// lower == upper == it), else a certified enclosure whose ends `lower`, `upper` are exact
/// rationals; `unbounded` for a PLDP ratio of +∞ (an output one input can give and another not);
/// `upper_infinite` for a value known only to be >= lower (`corbin check`'s accountant_eps where
/// no finite ε reaches δ; the sweep never sets it).
struct Enclosed {
  std::optional<Rational> exact;
  Interval enclosure;
  Rational lower, upper;
  bool unbounded = false;
  bool upper_infinite = false;
  bool unknown = false;  ///< the mechanism's room does not know this quantity (empty CSV cells)
};

/// The sweep's quantity at the single point `args` names (each grid one value; law, a
/// distribution, refused): the same evaluation as write_sweep's rows. Bad input raises
/// invalid_argument naming the option, as write_sweep does.
Enclosed evaluate_at(const SweepArgs& args);

/// The sweep's CSV header line and its number of grid points. The header names the axes, then
/// the parameters the quantity read that are no axis (`parameters` columns: center, radius,
/// variant, gamma, delta, sensitivity, weights, as far as it reads them, each row holding the
/// value it was computed at, exactly: "1/20"), then the value columns.
struct SweepHeader {
  std::string header;
  std::size_t points = 0;
  std::size_t parameters = 0;
};

/// The sweep point by point, in the CSV's order (points numbered from 0): for each point k with
/// want(k), emit(k, its rows) — one CSV line, or a law's lines — and the other points are not
/// computed. write_sweep is this with every point wanted; a shard of a sharded sweep wants its
/// own. Bad input raises invalid_argument naming the option before any point is computed.
SweepHeader sweep_points(const SweepArgs& args, const std::function<bool(std::size_t)>& want,
                         const std::function<void(std::size_t, const std::string&)>& emit, bool progress = false);

/// Computes the whole CSV, then writes it to `out` (nothing at all when a value is refused
/// half-way). Bad input raises invalid_argument naming the option; `progress` writes a counter
/// to stderr. Several quantities ("aggregate_mse,law_mse") on the same axes give their columns
/// side by side behind the axes' (an option must be read by at least one of them).
void write_sweep(const SweepArgs& args, std::ostream& out, bool progress = false);

}  // namespace corbin::cli
