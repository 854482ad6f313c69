#!/usr/bin/python3
"""Benchmark (not a CI test): corbin.Accountant in a training loop, as Opacus' accountant is used.

    accountant_loop.py [--rounds R] [--n N] [--gamma G] [--exp-eps X] [--delta D] [--sampling-rate Q]

The accountant holds the first round; each further round is one step() followed by
get_epsilon(delta). Prints the time of the whole loop (wall and CPU: the CPU time is the one to
compare on a shared machine), the time of the slowest step, the last
get_epsilon, then the time of one get_epsilon_bounds (the certified pair: the lower end and the
searches over the adversary's choices, composed afresh) and of pickling the ledger and loading it.
Run with the build's module on PYTHONPATH (build/analysis/python).
"""

import argparse
import pickle
import time

import corbin


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--gamma", default="1")
    ap.add_argument("--exp-eps", default="3")
    ap.add_argument("--delta", default="1e-5")
    ap.add_argument("--sampling-rate", default=None)
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    extra = {} if args.sampling_rate is None else {"sampling_rate": args.sampling_rate}

    start, cpu = time.perf_counter(), time.process_time()
    acc = corbin.Accountant(args.n, args.gamma, exp_eps=args.exp_eps, **extra)
    eps = acc.get_epsilon(args.delta)
    slowest = time.perf_counter() - start
    for _ in range(args.rounds - 1):
        t = time.perf_counter()
        acc.step()
        eps = acc.get_epsilon(args.delta)
        slowest = max(slowest, time.perf_counter() - t)
    loop, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"{args.rounds} rounds (n = {args.n}, gamma = {args.gamma}, e^eps = {args.exp_eps}"
          f"{', q = ' + args.sampling_rate if args.sampling_rate else ''}): step() + get_epsilon({args.delta}) "
          f"{loop:.2f} s in all ({cpu:.2f} s of CPU), slowest round {slowest * 1e3:.1f} ms; "
          f"last eps_upper {eps!r}")
    t = time.perf_counter()
    lo, hi = acc.get_epsilon_bounds(args.delta)
    print(f"get_epsilon_bounds: [{float(lo)!r}, {float(hi)!r}] in {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    saved = pickle.dumps(acc)
    back = pickle.loads(saved)
    same = back.get_epsilon(args.delta) == eps
    print(f"pickle: {len(saved)} bytes, dumps + loads + get_epsilon {time.perf_counter() - t:.2f} s, same: {same}")


if __name__ == "__main__":
    main()
