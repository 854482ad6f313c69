"""T3's certified privacy loss at the paper's model sizes, recomputed: two-sided bounds on ε(δ) of
Theorem 3's mechanism, one coordinate of the released sum composed k = m·T times (m coordinates, T
rounds), with this script's own privacy-loss distributions (PLDs). Nothing is taken from the
certificate but the setting of each row.

The mechanism and its worst case (privacy/worst_case/neighbours.hpp; its core lemma is proved in
proofs-check/coq/Neighbours.v). Every output is c ± rα, so a coordinate of the released sum is an
injective function of the count J of "+" outputs. Replace-one neighbours differ in client 1's
inputs. The reduction to finitely many configurations: each other LDPQ client at c − r or c + r
(j of the L others at c + r: Binomial(L − j, q−) + Binomial(j, q+), q± = 1/2 ± 1/(2α)), every
other pair at (c, c), which sends exactly one "+" for d >= 1 (a shift, no privacy loss), and
client 1 at one of its candidates: on LDPQ at c + r against c − r and the reverse; leading a pair
(corrected CorBinQ) at x against x2 with its partner at y, each of x, x2, y among c − r, c + r
and the grid points q = ⌈u−⌉/2^d, ⌊u+⌋/2^d inside the range (u± = 2^d q±; where u− is an
integer, as at α = 2, d = 5, the accountant also visits ⌊u−⌋ + 1 and ⌈u+⌉ − 1, attained inputs
that Lemma 5 shows cannot raise the worst case). For d = 0 each other pair counts as two LDPQ
clients instead. The worst case is over this family, in every coordinate and round separately
and adaptively: a member per use.

Upper bound U (over the family). For a pair (P, Q) the privacy profile is H(γ) = Σ (P − γQ)₊,
and δ(ε) = H(e^ε). Each member's atoms are split onto the two points of their cell of a loss grid
keeping their P- and Q-mass (connect the dots, Doroshenko et al. 2022): the split's profile is
the member's at the grid points γ_k = e^(y_k) and linear between them, never below it (second
order in the step, so k compositions do not pay k·step). V_k bounds the largest member profile
at γ_k; the polyline through (0, 1) and (γ_k, V_k), constant beyond the top point, lies above
every member's profile (each is convex, 1 at γ = 0), and its slope changes are the masses of one
measure m, checked point by point (dominating). For any sequence of members, chosen adaptively,
the composition's profile is at most that of m's k-fold convolution: given the first use's
output x the rest contributes at most H_rest(γ e^(−Y(x))), and Σ_x P(x) φ(e^(−Y(x))) for a convex
non-increasing φ >= 0 is a non-decreasing function of the profile H (Zhu, Dong and Wang 2022, as
privacy/pld/envelope.hpp argues). The composition is by squaring, each product a direct convolution
rounded up; mass beyond the top of a window goes to +∞, mass below its bottom up to the bottom,
and a grid too fine is coarsened by splitting every other point onto its two neighbours (connect
the dots again). δ(ε) <= m∞ + Σ m_i (1 − e^(ε − y_i))₊. Where every loss is bounded (client 1 on
LDPQ), a second bound: the Rényi moments E_P[e^(tY)] of adaptively chosen members multiply, each
at most the family's largest at that order (from the members' splits, which dominate them), and
ε(δ) <= k·ln M_t/t + ln(t/(1 + t)) − (ln δ + ln(1 + t))/t (Balle et al. 2020). U is the smaller:
where the members' profiles cross, the polyline's m loses more than the moments do over long
compositions.

Lower bound L (attained). One member, the same in every use, chosen among the family by a
normal approximation of its composed loss (any choice gives a valid bound); it is named in the
output. Its outputs are merged into one atom per loss cell (a post-processing, so the merged pair
is dominated) with its P-mass rounded down and its Q-mass up; products, merges by index and by
loss, and coarsening are post-processings too, and atoms of negligible P-mass are dropped (δ only
falls). δ(ε) >= P∞ + Σ (P_c − e^ε Q_c)₊.

Each bound is turned into ε(δ) by bisection, ending on the side that keeps it; +∞ where the mass
at +∞ alone passes δ.

Floating point. Probabilities are IEEE doubles rounded to nearest, and every error is bounded by
counting roundings (u = 2^−53). A binomial pmf is built from its mode by products of ratios (5
roundings a step, at most `trials` steps), is moved by at most trials·R·u by the rounding of q
(R = q+/q−, the larger odds), and is normalised (trials + 2 roundings); a direct convolution of n
non-negative terms adds n + 1. So a member's every P(J) and Q(J) is within a relative kRelSlack
= 2((6 + R)(L + 2) + 16)·u of its double (a factor 2 spare; 1.8e-11 at L = 3405, R = 3), and its
loss within 3·kRelSlack + 4 ulps. U raises masses and losses by these, L lowers P and raises Q;
every later sum or product of n terms is raised (lowered) by (n + 2)·2u, and exponentials by 8
ulps (numpy's are within 4). The comparison with a certificate then needs no tolerance. A relative
error on U's masses would be raised to the k-th power; but m's total mass is pinned to 1 by the
polyline's value at γ = 0, up to what its construction rounds up (below 5e-11 at the paper's
sizes: a factor below e^0.05 on δ after k = 1.1e9 compositions), so the member slack only moves
mass up in loss; and each of the about 60 products rounds the total up by (n + 2)·2u.
"""
import functools
import math
from fractions import Fraction as F
from statistics import NormalDist

import numpy as np

from .algorithm2 import checked_joint_law
from .limits import CENTER, RADIUS
from .ucdp import population_ldpq

U_ROUND = 2.0 ** -53
# A binomial's window stops where its pmf falls below this fraction of its mode: the mass left
# out is then below 1e-45 (bounded exactly, binomial_window), moved to +∞ in U and dropped in L,
# and 1e-45·k stays below 1e-35 for every k the library accepts (kMaxCompositions = 2^40).
kWindowCut = 1e-48
# Points kept per distribution in a composition (the cost of a product is kMaxCells²): the
# composed loss needs about 26 standard deviations of range at this step, and the error of the
# splits is then about k(26σ/kMaxCells)²/8 per level, under 0.2 % of ε at the paper's sizes.
kMaxCells = 2048
# Points of the grid the members are split onto (the first product's resolution).
kMemberCells = 2048
# Members whose profiles are computed together (a matrix of kMemberCells × kProfileRows doubles).
kProfileRows = 2048
# The largest moment order λ − 1 tried (larger ones only help compositions far shorter than these).
kMaxOrder = 50.0
# P-mass moved to +∞ (U) or dropped (L) at each end of a window after each product.
kTrimMass = 1e-50
# The δ(ε) and ε(δ) searches stop when the bracket is this narrow, relative (60 halvings).
kSearchRel = 2.0 ** -45


# Clients of a row whose worst case this script enumerates, every j of the other LDPQ clients
# (about 5 s on one core at the paper's n = 6809, growing as n^1.5).
kMaxAccountedClients = 8192
# The largest kRelSlack this script accepts: beyond it (e^ε_p in the hundreds and more at the
# paper's sizes) the rounding of q alone would leave the bounds meaningless.
kMaxRelSlack = 1e-9


class NotAccounted(Exception):
    """A setting beyond this script's limits (its size or its rounding): said, not bounded."""


def _up(x, n):
    """x (non-negative, an array or a float) raised past the error of n roundings: (1 + (n + 2)·2u)
    is a double (an integer number of 2^−52 above 1), and γ_n + u <= (n + 2)·2u for n·u < 1/2."""
    return x * (1.0 + (n + 2) * 2.0 ** -52)


def _down(x, n):
    return x * (1.0 - (n + 2) * 2.0 ** -52)


def rel_slack(trials, odds):
    """kRelSlack: the relative error bound of every probability of a member whose others count
    `trials` clients, `odds` = q+/q− (the module's docstring derives it; a factor 2 spare)."""
    return 2.0 * ((6 + odds) * (trials + 2) + 16) * U_ROUND


# ---------------------------------------------------------------------------------------------
# The family's laws

@functools.lru_cache(maxsize=1 << 14)  # the families of one run share their binomials
def binomial_window(trials, q):
    """Binomial(trials, q) for a double q in (0, 1): (first, pmf over [first, first + len), mass
    outside the window bounded above, whether each end is the support's end). Built from the mode
    by products of the ratios pmf(i + 1)/pmf(i) = (trials − i)/(i + 1)·q/(1 − q) and normalised;
    the ratios fall away from the mode, so the left-out tail is at most the last kept value times
    ρ/(1 − ρ) for the first ratio left out, ρ."""
    if trials == 0:
        return 0, np.ones(1), 0.0, (True, True)
    odds = q / (1.0 - q)
    mode = min(trials, int(math.floor((trials + 1) * q)))
    up = np.arange(mode, trials, dtype=float)
    rise = np.cumprod((trials - up) / (up + 1.0) * odds)          # pmf(mode + t)/pmf(mode), t >= 1
    down = np.arange(mode, 0, -1, dtype=float)
    fall = np.cumprod(down / (trials - down + 1.0) / odds)        # pmf(mode − t)/pmf(mode)
    hi = int(np.searchsorted(-rise, -kWindowCut))                  # rise is decreasing
    lo = int(np.searchsorted(-fall, -kWindowCut))
    weights = np.concatenate((fall[:lo][::-1], [1.0], rise[:hi]))
    total = weights.sum()
    tail = 0.0
    if hi < len(rise):  # ρ: the first ratio left out, above every later one
        rho = (trials - (mode + hi)) / (mode + hi + 1.0) * odds
        tail += (rise[hi - 1] if hi else 1.0) * rho / (1.0 - rho) if rho < 1 else total
    if lo < len(fall):
        rho = (mode - lo) / (trials - (mode - lo) + 1.0) / odds
        tail += (fall[lo - 1] if lo else 1.0) * rho / (1.0 - rho) if rho < 1 else total
    return mode - lo, weights / total, _up(tail / total, 8), (mode - lo == 0, mode + hi == trials)


def _convolve_windows(a, b):
    (fa, pa, ta, ea), (fb, pb, tb, eb) = a, b
    return fa + fb, np.convolve(pa, pb), _up(ta + tb, 4), (ea[0] and eb[0], ea[1] and eb[1])


def client_candidates(alpha, bits, role):
    """Client 1's candidates (the module's docstring): (words, law with client 1, law with its
    replacement, inputs) with exact laws of its part of the count and the inputs as LDPQ
    probabilities q: (q of client 1, q of its replacement) on LDPQ, and its partner's q after them
    when it leads a pair."""
    q_low = F(1, 2) - 1 / (2 * alpha)
    q_high = 1 - q_low
    if role == "ldpq":
        return [("client 1 on LDPQ at c + r, replaced by c − r", [1 - q_high, q_high], [1 - q_low, q_low],
                 (q_high, q_low)),
                ("client 1 on LDPQ at c − r, replaced by c + r", [1 - q_low, q_low], [1 - q_high, q_high],
                 (q_low, q_high))]
    n = 2 ** bits
    inputs = {q_low: "c − r", q_high: "c + r"}
    for a, words in ((math.ceil(n * q_low), "⌈2^d q−⌉"), (math.floor(n * q_high), "⌊2^d q+⌋")):
        if q_low < F(a, n) < q_high:
            inputs.setdefault(F(a, n), f"c + rα(2·{words}/2^d − 1), d = {bits}")

    def count_law(leader, follower):
        w = [RADIUS * alpha * (2 * q - 1) for q in (leader, follower)]  # c = 0, r = 1: w − c = rα(2q − 1)
        law = checked_joint_law(alpha, CENTER, RADIUS, w[0], w[1], bits, "corrected")
        return [law["--"], law["+-"] + law["-+"], law["++"]]
    out = []
    for y, y_words in inputs.items():
        for x, x_words in inputs.items():
            for x2, x2_words in inputs.items():
                if x2 != x:
                    out.append((f"client 1 leading a pair at {x_words}, replaced by {x2_words}, its partner at "
                                f"{y_words}", count_law(x, y), count_law(x2, y), (x, x2, y)))
    return out


class Family:
    """The configurations of one row's worst case: client 1's candidates and j = 0..L."""

    def __init__(self, n, gamma, alpha, bits, role):
        ldpq = population_ldpq(n, gamma)
        pairs = (n - ldpq) // 2
        if role == "ldpq":
            self.others = ldpq - 1
            self.other_pairs = pairs
        else:
            self.others = ldpq
            self.other_pairs = pairs - 1
        self.candidates = client_candidates(alpha, bits, role)
        if bits == 0:  # d = 0: each other pair is two LDPQ clients (neighbours.hpp, Lemma 3)
            self.others += 2 * self.other_pairs
            self.other_pairs = 0
        q_low = F(1, 2) - 1 / (2 * alpha)
        self.q_low_exact = q_low
        self.q_low, self.q_high = float(q_low), float(1 - q_low)
        self.slack = rel_slack(self.others, float((1 - q_low) / q_low) * (1 + 8 * U_ROUND))
        # Every Binomial(i, q−) and Binomial(i, q+), once.
        self._low = [binomial_window(i, self.q_low) for i in range(self.others + 1)]
        self._high = [binomial_window(i, self.q_high) for i in range(self.others + 1)]
        self._with = np.array([[float(x) for x in w] for _, w, _, _ in self.candidates])
        self._neighbour = np.array([[float(x) for x in x2] for _, _, x2, _ in self.candidates])
        # How many counts client 1's part adds beyond the others' window (1 alone, 2 in a pair).
        self.width = self._with.shape[1] - 1

    def others_law(self, top):
        """The other LDPQ clients' count with `top` of them at c + r: a window."""
        return _convolve_windows(self._low[self.others - top], self._high[top])

    def members(self, top):
        """Every candidate's pair at `top` on one window of J, as rows of two matrices (P with
        client 1, Q with its replacement; each entry a sum of at most 3 products), the mass the
        window leaves out, and whether each of its ends is the support's."""
        _, r, tail, ends = self.others_law(top)
        width = self._with.shape[1] - 1
        p = np.zeros((len(self.candidates), len(r) + width))
        q = np.zeros_like(p)
        for i in range(width + 1):
            p[:, i:i + len(r)] += np.outer(self._with[:, i], r)
            q[:, i:i + len(r)] += np.outer(self._neighbour[:, i], r)
        return p, q, tail, ends

    def member(self, top, candidate):
        p, q, tail, ends = self.members(top)
        return p[candidate], q[candidate], tail, ends

    def candidate_at(self, inputs):
        """The index of the candidate with these inputs (client_candidates' q tuple), or None."""
        return next((i for i, c in enumerate(self.candidates) if c[3] == inputs), None)

    def describe(self, top, candidate):
        return (f"{self.candidates[candidate][0]}; {top} of the other {self.others} LDPQ clients at c + r, "
                f"the rest at c − r; the other {self.other_pairs} pairs at (c, c)")


def _losses(p, q):
    """ln(P/Q) per atom as computed (+∞ where Q is 0 < P, −∞ where P is 0); the callers add
    the slack."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(q > 0, np.log(np.where(q > 0, p, 1.0) / np.where(q > 0, q, 1.0)), np.inf) \
            + np.where(p > 0, 0.0, -np.inf)


# ---------------------------------------------------------------------------------------------
# Pessimistic measures on a grid: masses at (offset + i)·h, h = 2^scale, and at +∞

class Upper:
    def __init__(self, scale, offset, mass, infinite):
        self.scale, self.offset, self.mass, self.infinite = scale, offset, mass, infinite

    @property
    def step(self):
        return math.ldexp(1.0, self.scale)


def _split_weights(frac, step):
    """The share of an atom frac·step above a grid point that goes to the point above:
    (1 − e^(−frac·step))/(1 − e^(−step)), rounded up and at most 1 (frac in [0, 1])."""
    num = -np.expm1(-frac * step)
    den = -math.expm1(-step)
    return np.minimum(1.0, _up(num, 8) / _down(den, 8))


class Grid:
    """The loss grid members are split onto: points (offset + i)·h, i < cells, h = 2^scale."""

    def __init__(self, scale, offset, cells):
        self.scale, self.offset, self.cells = scale, offset, cells
        self.step = math.ldexp(1.0, scale)

    def split(self, rows, losses, masses, infinite):
        """Atoms of `rows` members (row index, loss, P-mass, all upper bounds; flat arrays) split
        onto the grid: a matrix of masses, a row per point and a column per member, and the
        members' masses at +∞ (`infinite` plus every loss above the top point; a loss below the
        bottom point goes up to it). Both only raise the profile."""
        g, members = self.cells, len(infinite)
        pos = losses / self.step - self.offset
        over = ~np.isfinite(pos) | (pos > g - 1)
        infinite = infinite + np.bincount(rows[over], masses[over], minlength=members)
        rows, mass = rows[~over], masses[~over]
        pos = np.clip(pos[~over], 0.0, g - 1.0)
        cell = np.minimum(np.floor(pos).astype(np.int64), g - 2)
        share = _split_weights(np.clip(pos - cell, 0.0, 1.0), self.step) * mass
        flat = np.concatenate(((cell + 1) * members + rows, cell * members + rows))
        weights = np.concatenate((share, np.maximum(mass - share, 0.0)))
        mu = np.bincount(flat, weights, minlength=g * members).reshape(g, members)
        # Each point's sum adds at most every atom of a row.
        return _up(mu, int(np.bincount(rows).max(initial=0)) + 4), _up(infinite, int(over.sum()) + 4)

    def largest_profile(self, mu, infinite):
        """Upper bounds on the largest of the members' profiles at every point, H(γ_k) = μ∞ +
        Σ_(l>k) μ_l (1 − e^(−(l−k)h)), by the recurrence of positive terms W_k = e^(−h)(μ_(k+1) +
        W_(k+1)), H_k = H_(k+1) + (1 − e^(−h))(μ_(k+1) + W_(k+1)), each step raised past its
        roundings."""
        g, members = mu.shape
        raise_ = 1.0 + 8 * U_ROUND
        decay = math.exp(-self.step) * raise_
        rise = -math.expm1(-self.step) * raise_
        out = np.empty(g)
        w, d = np.zeros(members), np.zeros(members)
        out[g - 1] = infinite.max()
        for k in range(g - 2, -1, -1):
            t = (w + mu[k + 1]) * raise_
            d = (d + rise * t) * raise_
            w = decay * t * raise_
            out[k] = (d + infinite).max()
        return _up(out, 1)


def dominating(values, first, grid):
    """A measure m on the grid's points from `first` up and +∞ whose profile is at least
    `values` at every point and 1 at γ = 0 (Doroshenko et al. 2022, "connect the dots"): the
    masses of the polyline through (0, 1) and the points (γ_k, V_k), constant beyond the top,
    are its slope changes m_k = γ_k (s_k − s_(k−1)) (clamped at 0, where rounding bends V), m∞ the
    top value; then checked from the top down with every step rounded down, and a point whose
    profile falls short gets the shortfall/(1 − e^(−h)) as extra mass one point above it (which
    raises every point below it too, so a shortfall is rarely met twice)."""
    g = grid.cells
    v = np.minimum.accumulate(values)  # members' profiles decrease: a running minimum stays above them
    y = (grid.offset + np.arange(g)) * grid.step
    gamma = np.exp(y)
    slopes = np.zeros(g + 1)  # slopes[k + 1] = s_k; s_(first − 1) from (0, 1)
    slopes[first] = (v[first] - 1.0) / gamma[first]
    slopes[first + 1:g] = np.diff(v[first:]) / np.diff(gamma[first:])
    mass = np.zeros(g)
    mass[first:] = np.maximum(0.0, gamma[first:] * (slopes[first + 1:] - slopes[first:g]))
    infinite = float(v[g - 1])
    lower = 1.0 - 8 * U_ROUND
    decay = math.exp(-grid.step) * lower
    rise = -math.expm1(-grid.step) * lower
    w = d = 0.0
    for k in range(g - 2, first - 1, -1):
        t = (w + mass[k + 1]) * lower
        dk = (d + rise * t) * lower
        have = (dk + infinite) * lower
        if have < v[k]:
            mass[k + 1] += (v[k] - have) / rise * (1.0 + 8 * U_ROUND)
            t = (w + mass[k + 1]) * lower
            dk = (d + rise * t) * lower
        d, w = dk, decay * t * lower
    total = (math.fsum(mass) + infinite) * lower
    if total < 1.0:  # H(0) is the total mass, at least a probability's 1
        mass[first] += (1.0 - total) * (1.0 + 8 * U_ROUND)
    return Upper(grid.scale, grid.offset + first, mass[first:], infinite)


def _coarsen_upper(a):
    """The same measure on the grid of step 2h: every odd point split onto its two even neighbours
    (connect the dots at step 2h: 1/(1 + e^(−h)) of it up)."""
    mass, offset = a.mass, a.offset
    if offset % 2:
        mass, offset = np.concatenate(([0.0], mass)), offset - 1
    if len(mass) % 2 == 0:
        mass = np.append(mass, 0.0)
    h = a.step
    share_up = min(1.0, _up(1.0 / (1.0 + math.exp(-h) * (1 - 8 * U_ROUND)), 8))
    share_down = max(0.0, 1.0 - share_up)
    even, odd = mass[0::2].copy(), mass[1::2]
    even[1:] += odd * share_up
    even[:-1] += odd * share_down
    return Upper(a.scale + 1, offset // 2, _up(even, 3), a.infinite)


def _trim_upper(a):
    """P-mass of at most kTrimMass at the top to +∞, at the bottom up to the lowest point kept;
    then coarsened until at most kMaxCells points remain."""
    mass = a.mass
    top = np.cumsum(mass[::-1])
    keep_top = len(mass) - int(np.searchsorted(top, kTrimMass, side="right"))
    bottom = np.cumsum(mass)
    keep_bottom = min(int(np.searchsorted(bottom, kTrimMass, side="right")), max(keep_top - 1, 0))
    infinite = a.infinite + _up(float(mass[keep_top:].sum()), len(mass))
    kept = mass[keep_bottom:keep_top].copy()
    if len(kept) == 0:
        kept = np.zeros(1)
    kept[0] += _up(float(mass[:keep_bottom].sum()), len(mass))
    out = Upper(a.scale, a.offset + keep_bottom, kept, infinite)
    while len(out.mass) > kMaxCells:
        out = _coarsen_upper(out)
    return out


def _same_step(a, b):
    while a.scale < b.scale:
        a = _coarsen_upper(a) if isinstance(a, Upper) else _coarsen_lower(a)
    while b.scale < a.scale:
        b = _coarsen_upper(b) if isinstance(b, Upper) else _coarsen_lower(b)
    return a, b


def compose_upper(a, b):
    a, b = _same_step(a, b)
    mass = _up(np.convolve(a.mass, b.mass), min(len(a.mass), len(b.mass)) + 1)
    fa, fb = _up(float(a.mass.sum()), len(a.mass)), _up(float(b.mass.sum()), len(b.mass))
    infinite = _up(a.infinite * (fb + b.infinite) + fa * b.infinite, 4)
    return _trim_upper(Upper(a.scale, a.offset + b.offset, mass, infinite))


def delta_upper(a, eps):
    """δ(ε) <= m∞ + Σ m_i (1 − e^(ε − y_i))₊."""
    y = (a.offset + np.arange(len(a.mass))) * a.step
    with np.errstate(over="ignore"):
        weights = np.maximum(0.0, 1.0 - np.exp(eps - y) * (1 - 8 * U_ROUND))
    return min(1.0, a.infinite + _up(float(np.dot(a.mass, weights)), len(a.mass) + 2))


# ---------------------------------------------------------------------------------------------
# Optimistic pairs: per cell c a P-mass (bounded below) and t = Q·e^(y_c) (bounded above)

class Lower:
    def __init__(self, scale, offset, p, t, infinite):
        self.scale, self.offset, self.p, self.t, self.infinite = scale, offset, p, t, infinite

    @property
    def step(self):
        return math.ldexp(1.0, self.scale)


def _e_up(x):
    return math.exp(x) * (1 + 8 * U_ROUND)


def lower_member(p, q, ends, width, slack, scale):
    """A member's pair merged by loss cell (a post-processing), P lowered and Q raised by the
    slack. The `width` outputs at a window's end that is not the support's are dropped (their Q
    would need values the window left out); there, and only there, Q = 0 is exact, and such atoms
    are the mass at +∞."""
    usable = np.ones(len(p), dtype=bool)
    if not ends[0]:
        usable[:width] = False
    if not ends[1]:
        usable[len(p) - width:] = False
    p_low = _down(p, 2) * (1.0 - slack)
    q_up = _up(q, 2) * (1.0 + slack)
    infinite = float(_down(p_low[usable & (q == 0)].sum(), len(p)))
    keep = usable & (q > 0) & (p_low > 0)
    if not keep.any():
        return Lower(scale, 0, np.zeros(1), np.zeros(1), infinite)
    h = math.ldexp(1.0, scale)
    cell = np.floor(np.log(p_low[keep] / q_up[keep]) / h).astype(np.int64)
    offset = int(cell.min())
    cells = int(cell.max()) - offset + 1
    pc, tc = np.zeros(cells), np.zeros(cells)
    np.add.at(pc, cell - offset, p_low[keep])
    # t = Q·e^(y_c), y_c = cell·h, with e^(y_c) rounded up.
    np.add.at(tc, cell - offset, q_up[keep] * np.exp(cell * h) * (1 + 8 * U_ROUND))
    n = int(keep.sum())
    return Lower(scale, offset, _down(pc, n), _up(tc, n), infinite)


def _coarsen_lower(a):
    """Merge the cells 2i and 2i + 1 (a post-processing): t = t_2i + t_(2i+1)·e^(−h)."""
    p, t, offset = a.p, a.t, a.offset
    if offset % 2:
        p, t, offset = np.concatenate(([0.0], p)), np.concatenate(([0.0], t)), offset - 1
    if len(p) % 2:
        p, t = np.append(p, 0.0), np.append(t, 0.0)
    decay = math.exp(-a.step) * (1 + 8 * U_ROUND)
    return Lower(a.scale + 1, offset // 2, _down(p[0::2] + p[1::2], 2), _up(t[0::2] + t[1::2] * decay, 3),
                 a.infinite)


def _rebin_lower(a):
    """Cells whose atom's loss reached the next cell (P >= t·e^h) merged into it (t·e^h)."""
    rise = _e_up(a.step)
    move = a.p >= a.t * rise
    if not move.any():
        return a
    p, t = np.append(a.p, 0.0), np.append(a.t, 0.0)
    idx = np.nonzero(move)[0]
    moved_p, moved_t = p[idx].copy(), _up(t[idx] * rise, 2)
    p[idx] = 0.0
    t[idx] = 0.0
    p[idx + 1] += moved_p
    t[idx + 1] += moved_t
    return Lower(a.scale, a.offset, _down(p, 2), _up(t, 2), a.infinite)


def _trim_lower(a):
    """Cells of negligible P-mass dropped at both ends (δ only falls), then coarsened."""
    bottom = np.cumsum(a.p)
    first = int(np.searchsorted(bottom, kTrimMass, side="right"))
    top = np.cumsum(a.p[::-1])
    last = len(a.p) - int(np.searchsorted(top, kTrimMass, side="right"))
    first = min(first, max(last - 1, 0))
    out = Lower(a.scale, a.offset + first, a.p[first:last].copy(), a.t[first:last].copy(), a.infinite)
    if len(out.p) == 0:
        out = Lower(a.scale, a.offset, np.zeros(1), np.zeros(1), a.infinite)
    while len(out.p) > kMaxCells:
        out = _coarsen_lower(out)
    return out


def compose_lower(a, b):
    a, b = _same_step(a, b)
    n = min(len(a.p), len(b.p)) + 1
    p = _down(np.convolve(a.p, b.p), n)
    t = _up(np.convolve(a.t, b.t), n)
    fa, fb = _down(float(a.p.sum()), len(a.p)), _down(float(b.p.sum()), len(b.p))
    infinite = _down(a.infinite * (fb + b.infinite) + fa * b.infinite, 4)
    return _trim_lower(_rebin_lower(Lower(a.scale, a.offset + b.offset, p, t, infinite)))


def delta_lower(a, eps):
    """δ(ε) >= P∞ + Σ_c (P_c − e^(ε − y_c) t_c)₊ (a cell whose e^(ε − y_c) overflows adds 0)."""
    y = (a.offset + np.arange(len(a.p))) * a.step
    with np.errstate(over="ignore", invalid="ignore"):
        terms = _down(a.p, 0) - np.exp(eps - y) * (1 + 8 * U_ROUND) * _up(a.t, 0)
    terms = np.where(np.isnan(terms), 0.0, terms)
    return a.infinite + _down(float(np.maximum(terms, 0.0).sum()), len(a.p) + 2)


# ---------------------------------------------------------------------------------------------
# Composition by squaring, and ε(δ)

def power(a, k, compose, cache=None):
    """a composed k times (k >= 1), by squaring; `cache` keeps a's powers of two across calls."""
    squares = cache if cache is not None else {}
    squares.setdefault(0, a)
    out, bit = None, 0
    while k >> bit:
        if bit not in squares:
            squares[bit] = compose(squares[bit - 1], squares[bit - 1])
        if (k >> bit) & 1:
            out = squares[bit] if out is None else compose(out, squares[bit])
        bit += 1
    return out


def epsilon_at(delta_of, delta, infinite, upper):
    """inf{ε >= 0 : δ(ε) <= δ} for the non-increasing bound δ_of: bisection, ending on the side
    that keeps the bound (the upper end for U, the lower end for L); +∞ when the mass at +∞ alone
    is above δ."""
    if infinite > delta or (upper and infinite == delta):
        return math.inf
    if delta_of(0.0) <= delta:
        return 0.0
    low, high = 0.0, 1.0
    while delta_of(high) > delta:
        low, high = high, high * 2
    while high - low > kSearchRel * high:
        mid = (low + high) / 2
        low, high = (low, mid) if delta_of(mid) <= delta else (mid, high)
    return high if upper else low


def _scale_for(span, cells):
    """The step 2^scale that fits `span` in `cells` points."""
    return math.ceil(math.log2(max(span, 1e-300) / cells))


class Account:
    """One row's family (n, γ, α, d, role) at one δ: U's dominating measure and its powers, and
    the attained members composed for L, shared by the rows' compositions k."""

    def __init__(self, n, gamma, alpha, bits, role, delta, compositions):
        if n > kMaxAccountedClients:
            raise NotAccounted(f"n = {n} is beyond this script's enumeration of the configurations "
                               f"(kMaxAccountedClients = {kMaxAccountedClients})")
        if float(delta) < 1e-300:
            raise NotAccounted("δ is below 1e-300, what this script's doubles hold")
        self.family = family = Family(n, gamma, alpha, bits, role)
        if family.slack > kMaxRelSlack:
            raise NotAccounted(f"at e^ε_p = {float((1 + 1 / alpha) / (1 - 1 / alpha)):.6g} and {family.others} "
                               f"other clients the rounding of the binomials' q is beyond kMaxRelSlack = "
                               f"{kMaxRelSlack}")
        # δ as a double, rounded towards the side that keeps each bound.
        self.delta_for_upper = float(np.nextafter(float(delta), 0.0))
        self.delta_for_lower = float(np.nextafter(float(delta), 1.0))
        self.z = -NormalDist().inv_cdf(float(delta))  # a normal quantile, for choosing the member of L
        self.grid = grid = self._grid()
        self.orders = self._orders(compositions)
        # A member's losses are raised past their error: 3·slack from P and Q, 4 ulps from the log.
        shift = 3.0 * family.slack + 4 * U_ROUND
        values = np.zeros(grid.cells)
        self.log_moments = np.zeros(len(self.orders))
        first = grid.cells - 1
        self._scores = {}
        candidates = len(family.candidates)
        per_batch = max(1, kProfileRows // candidates)
        for start in range(0, family.others + 1, per_batch):
            tops = range(start, min(start + per_batch, family.others + 1))
            losses, masses, rows, tails = [], [], [], []
            for i, top in enumerate(tops):
                p, q, tail, _ = family.members(top)
                y = _losses(p, q)
                mean, var, infinite = member_moments(p, y)
                for c in range(candidates):
                    self._scores[(top, c)] = (mean[c], var[c], infinite[c])
                atoms = p > 0
                with np.errstate(invalid="ignore"):
                    y = np.where(np.isfinite(y), y + shift * (np.abs(y) + 1.0), y)
                losses.append(y[atoms])
                masses.append((p * (1.0 + family.slack))[atoms])
                rows.append(np.nonzero(atoms)[0] + i * candidates)
                tails += [tail] * candidates
            mu, infinite = grid.split(np.concatenate(rows), np.concatenate(losses), np.concatenate(masses),
                                      np.array(tails))
            if len(self.orders):
                np.maximum(self.log_moments, self._log_moments(mu, infinite), out=self.log_moments)
            used = np.nonzero(mu.any(axis=1))[0]
            first = min(first, int(used[0]) if len(used) else grid.cells - 1)
            np.maximum(values, grid.largest_profile(mu, infinite), out=values)
        self.upper = _trim_upper(dominating(values, min(first, grid.cells - 2), grid))
        self._upper_squares = {}
        self._lower = {}

    def _orders(self, compositions):
        """The moment orders λ − 1 tried for the second upper bound: around the optimum of a
        normal approximation for each k, (2 ln(1/δ)/(k·v))^(1/2) for the largest loss variance v of
        the sampled members, at ratios 2^(i/4), i = −4..4. None where some candidate's loss is
        unbounded (a zero of Q where P > 0: every moment is +∞)."""
        family = self.family
        if (family._neighbour[family._with > 0] == 0).any():
            return np.zeros(0)
        # The losses are at most client 1's own likelihood ratio (data processing), raised past
        # the log's error: the bound for the mass a window leaves out.
        ratios = family._with[family._with > 0] / family._neighbour[family._with > 0]
        self.max_loss = float(np.log(ratios).max()) * (1 + 8 * U_ROUND) + 8 * U_ROUND
        variance = max(float(member_moments(p, _losses(p, q))[1].max())
                       for p, q, _, _ in map(family.members, {0, family.others // 2, family.others}))
        width = 2 * math.log(1 / self.delta_for_upper) / max(variance, 1e-300)
        orders = {math.sqrt(width / k) * 2 ** (i / 4) for k in compositions for i in range(-4, 5)}
        return np.array(sorted(t for t in orders if 0 < t <= kMaxOrder))

    def _log_moments(self, mu, infinite):
        """Upper bounds on ln E_P[e^(t·Y)] of the members (rows) at every order t, from their
        splits (a split pair dominates its member, so each moment, an f-divergence, is at least
        the member's): Σ_l μ_l e^(t·y_l), and the mass at +∞ (the window's left-out mass and the
        atoms above the grid) at the largest loss any atom has."""
        y = (self.grid.offset + np.arange(self.grid.cells)) * self.grid.step
        growth = np.exp(np.multiply.outer(y, self.orders)) * (1 + 8 * U_ROUND)
        top = np.exp(self.orders * self.max_loss) * (1 + 8 * U_ROUND)
        moment = _up(mu.T @ growth, self.grid.cells + 2) + _up(np.multiply.outer(infinite, top), 2)
        return (np.log(moment) * (1 + 8 * U_ROUND) + 8 * U_ROUND).max(axis=0)

    def moment_epsilon(self, k):
        """ε(δ) <= k·ln M_t/t + ln(t/(1 + t)) − (ln δ + ln(1 + t))/t at each order t (Balle et al.
        2020, Rényi order λ = 1 + t; the moments of adaptively chosen members multiply, each at most
        the family's largest M_t), the smallest, raised past its evaluation's rounding; +∞ without
        orders."""
        if not len(self.orders):
            return math.inf
        t = self.orders
        terms = (k * self.log_moments / t, np.log(t / (1 + t)),
                 -(math.log(self.delta_for_upper) + np.log1p(t)) / t)
        value = sum(terms) + 32 * U_ROUND * sum(np.abs(x) for x in terms)
        return float(value.min())

    def _grid(self):
        """The grid of the members' split: from the losses (of P-mass above 1e-30) of the
        configurations at both ends and the middle of j, with a quarter of their span added on
        each side; atoms outside it are moved up to it (or to +∞), which only raises U."""
        family = self.family
        spans = []
        for top in sorted({0, family.others // 2, family.others}):
            p, q = family.members(top)[:2]
            y = _losses(p, q)[(p > 1e-30) & (q > 0)]
            if len(y):
                spans += [float(y.min()), float(y.max())]
        low, high = (min(spans), max(spans)) if spans else (-1.0, 1.0)
        margin = (high - low) / 4 + 1e-9
        scale = _scale_for(high - low + 2 * margin, kMemberCells)
        step = math.ldexp(1.0, scale)
        offset = math.floor((low - margin) / step)
        return Grid(scale, offset, math.ceil((high + margin) / step) - offset + 1)

    def attaining(self, k):
        """The member whose k-fold composition is predicted largest at δ."""
        def predicted(item):
            (mean, var, infinite) = item[1]
            if 1.0 - (1.0 - infinite) ** k > self.delta_for_lower:
                return math.inf, infinite
            return mean * k + self.z * math.sqrt(var * k), 0.0
        return max(self._scores.items(), key=predicted)[0]

    def upper_bound(self, k):
        """U = the smaller of the PLD's and the moments' upper bounds, and which it is."""
        by_pld, by_moments = self.upper_epsilon(k), self.moment_epsilon(k)
        if by_moments < by_pld:
            return by_moments, f"by the Rényi moments (the PLD's: {by_pld:.10g})"
        return by_pld, "by the PLD" + (" (losses unbounded: no moments)" if math.isinf(by_moments)
                                       else f" (the Rényi moments': {by_moments:.10g})")

    def upper_epsilon(self, k):
        a = power(self.upper, k, compose_upper, self._upper_squares)
        return epsilon_at(lambda e: delta_upper(a, e), self.delta_for_upper, a.infinite, upper=True)

    def _member_upper(self, member):
        """One member's dominating measure, split and profiled as the family's members are."""
        family, grid = self.family, self.grid
        p, q, tail, _ = family.member(*member)
        y = _losses(p, q)
        atoms = p > 0
        shift = 3.0 * family.slack + 4 * U_ROUND
        with np.errstate(invalid="ignore"):
            y = np.where(np.isfinite(y), y + shift * (np.abs(y) + 1.0), y)
        mu, infinite = grid.split(np.zeros(int(atoms.sum()), dtype=np.int64), y[atoms],
                                  (p * (1.0 + family.slack))[atoms], np.array([tail]))
        used = np.nonzero(mu.any(axis=1))[0]
        first = int(used[0]) if len(used) else grid.cells - 1
        return _trim_upper(dominating(grid.largest_profile(mu, infinite), min(first, grid.cells - 2), grid))

    def members_upper_epsilon(self, uses):
        """U for a sequence of members alone, [(member, how many uses)] (a configuration a
        certificate names as attaining its lower bound): each member's measure composed its uses,
        then all together; at least the sequence's own ε(δ)."""
        total = None
        for member, k in uses:
            a = power(self._member_upper(member), k, compose_upper, {})
            total = a if total is None else compose_upper(total, a)
        return epsilon_at(lambda e: delta_upper(total, e), self.delta_for_upper, total.infinite, upper=True)

    def lower_epsilon(self, k):
        member = self.attaining(k)
        if member not in self._lower:
            p, q, _, ends = self.family.member(*member)
            base = lower_member(p, q, ends, self.family.width, self.family.slack, self.grid.scale)
            self._lower[member] = (_trim_lower(base), {})
        base, squares = self._lower[member]
        a = power(base, k, compose_lower, squares)
        return (epsilon_at(lambda e: delta_lower(a, e), self.delta_for_lower, a.infinite, upper=False),
                self.family.describe(*member))


def member_moments(p, y):
    """The mean and variance of the finite losses `y` under P of each row (member), and its P-mass
    at +∞: which member to compose for L."""
    infinite = np.where(np.isposinf(y) & (p > 0), p, 0.0).sum(axis=1)
    finite = np.isfinite(y) & (p > 0)
    w, y = np.where(finite, p, 0.0), np.where(finite, y, 0.0)
    mean = (w * y).sum(axis=1)
    return mean, np.maximum(0.0, (w * y * y).sum(axis=1) - mean * mean), infinite
