"""The paper's federated experiments, re-run with `corbin fl` on Debian's Fashion-MNIST, at one of
two scales:

  reduced (default): Exps 1-5 and 7 on 2 CPU cores at a reduced scale (SCALES["reduced"]),
      writing reports/fl.md, reports/fl/results.csv, reports/fl/runs/<name>-s<seed>/ and plots;
  full: Exps 1-4 and 7 at the paper's scale on a GPU (50 clients, Exp. 4: 50-500, all data, 100
      rounds, seeds 0, 42, 100 and those the decision rule asks for, the λ grid at Exp. 1's setting),
      writing reports/fl-full.md, reports/fl-full/results.csv,
      reports/fl-full/runs/ and plots. The audit's claims E1-E5 are decided from that CSV.
  Both scales also have "base" (not in the paper): the authors' other baselines as their repository
      runs them (REFERENCES.md: PBM m = 1, 2 and RQM m = 2, 3) at Exp. 1's eps_p = 5 and, for the
      two whose law is not LDPQ's, over Exp. 7's eps grid; and "niid" (not in the paper): vanilla,
      LDP-FL and CorBin-FL (at the reduced scale also the baselines) at eps_p = 5 on non-IID data, a
      Dirichlet label split with beta in {0.1, 0.5} (`corbin fl --split dirichlet --beta B`), beside
      Exp. 1's IID runs; it runs last.

Usage: /usr/bin/python3 analysis/fl_experiments.py [--scale reduced|full] [--out reports]
           [--corbin build/analysis/corbin] [--registry CORBIN] [--device cpu|cuda] [--jobs K]
           [--deadline SECONDS] [--only EXP ...] [--names RUN ...] [--seeds 0 42 ...]
           [--runs-only | --report-only | --dry-run] [--shard i/N|none]   (EXP: 1 2 3 4 5 7 base niid)
The mechanisms come from the registry: `corbin mechanisms --json` (of --registry, by default the
--corbin executable: `corbin` or its helper corbin-fl) says which exist,
which run in `corbin fl` (federated) and which take a budget (only those get --eps); a configured
mechanism it does not list stops the script before anything runs. --dry-run lists every run, its
state (done, part-done, stopped, to run) and its command, and runs nothing.
Progress goes to the terminal; a finished run (summary.json present with the same command) is not
run again, so an interrupted sweep resumes where it stopped. --jobs runs K processes side by side
(on a GPU they share it); --deadline starts no run it expects to outlast, and stops the sweep then.
--shard i/N (0 <= i < N; in a Slurm array task, by default, its SLURM_ARRAY_TASK_ID and _COUNT, as
`corbin sweep --shard` takes them) keeps the selected runs (after --only and --seeds, in --dry-run's
order) whose index k has k mod N = i, runs them and writes no report; once every shard is done,
--report-only (never sharded) reports every run there. --dry-run lists the shard's runs.
"""
import argparse
import csv
import hashlib
import io
import json
import math
import os
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "notebooks"))
import fl_figures  # noqa: E402  (shared plotting functions)
from corbin_output import save_figure, write_atomically  # noqa: E402  (regular files, replaced atomically)
# The decision rule and what each claim compares, as the rechecker (independent of the audit's
# C++) recomputes them: the report's decisions are the rechecker's, the audit's must agree.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "proofs-check"))
from recheck import experiments as rule  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

# The paper: 50 clients (Exp. 4: 50-500), 100 rounds, all data, lambda grid {0.1, ..., 1}, five
# seeds, CIFAR-10 with ResNet-18 (Exps 1-5) and MNIST with a small VGG (Exp. 7), on a GPU. Here:
# Fashion-MNIST (the MNIST-format data Debian packages) and the authors' MNIST model.
SCALES = {
    # 2 CPU cores.
    "reduced": {
        "clients": 20,
        "per_client": 250,   # examples per client (of 2240 at 20 clients)
        "rounds": 8,
        "eval_limit": 2000,  # test and validation images per evaluation
        "lambdas": ["0.3", "1"],
        "lambdas_exp7": ["0.3"],  # Exp. 7 sweeps ε over 5 values: one λ (the better one in Exps 1-3)
        "exp7_eps": ["0.1", "0.3", "0.5", "1", "3"],  # ε = 5 is Exp. 1's budget, reported there
        "patience": 5,
        "bits": 5,
        "gamma": "1/5",      # the paper's AugCorBin-FL gamma
        "seeds": [0],
        "threads": 2,
        "dir": "fl",
    },
    # One GPU, the paper's scale. λ = 1 (the plain FedAvg update, the value the paper fixes in
    # Exp. 5); the paper's λ grid runs at Exp. 1's setting (LAMBDA_GRID). Seeds: the first three of
    # the authors' five, then those the decision rule asks for (RULE_SEEDS).
    "full": {
        "clients": 50,
        "per_client": 0,     # all: 896 examples per client at 50 clients
        "rounds": 100,
        "eval_limit": 0,     # all 14 000 test and 11 200 validation images
        "lambdas": ["1"],
        "lambdas_exp7": ["1"],
        "patience": 5,
        "bits": 5,
        "gamma": "1/5",
        "seeds": [0, 42, 100],
        "threads": 1,        # the GPU trains; runs go side by side (--jobs)
        "dir": "fl-full",
        "exp4_clients": [50, 200, 500],
        "exp4_batch": "32",  # the paper's batch size for Fig. 3c
        "exp7_eps": ["0.1", "0.5", "1", "3"],
    },
}
SCALE = SCALES["reduced"]

# The sequential decision rule of the experiments' ordering claims (E1-E5), fixed before the runs
# it governs (proofs-check/experiments.hpp applies it, recheck_certificates.py recomputes it). Per
# comparison "A above B": the test accuracy at the best-validation round, one value per seed, both
# arms on the first n seeds of SEQUENTIAL_SEEDS; looks at n = 3, 6, 10 (LOOKS); at each look
# Welch's t with the Welch-Satterthwaite degrees of freedom, one-sided both ways, each tested at
# rule.RULE_ALPHA / len(LOOKS) (Bonferroni over the looks): A above B when P(T >= t) <= 1/60, A below B when
# P(T <= t) <= 1/60; otherwise the next batch of seeds, and after the last look "undecided" with
# the difference of means and its Welch interval. With equal means (and accuracies normal over
# seeds), each direction is declared with probability at most rule.RULE_ALPHA = 0.05 over all looks.
SEQUENTIAL_SEEDS, LOOKS = rule.SEQUENTIAL_SEEDS, rule.LOOKS  # the authors' five seeds, then 1-5

# The runs the rule asked more seeds of, by name, with the number of sequential seeds to have (a
# look's n): the comparisons undecided at the first look (3 seeds, λ = 1) got the second batch.
# To make a pending comparison's next look, raise both its runs to that look's n here (the
# report's "Not run" lists them).
RULE_SEEDS = {"exp1-augcorbin": 10, "exp1-ldp": 10,          # E1: AugCorBin-FL above LDP-FL
              "exp7-corbin-eps1": 6, "exp2-d3": 6,           # E2: d = 5 above d = 3
              "exp4-n50-corbin": 6, "exp4-n50-ldp": 6,       # E4 at n = 50, 200, 500
              "exp4-n200-corbin": 6, "exp4-n200-ldp": 6, "exp4-n500-corbin": 6, "exp4-n500-ldp": 6,
              "exp2-d7": 6,                                  # E2: d = 7 not above d = 5
              "exp1-corbin": 6, "exp7-corbin-eps3": 6, "exp7-ldp-eps3": 6}  # E5: the gap at 3 above at 5

# The paper's global learning-rate grid, at Experiment 1's setting (ε_p = 5), for the mechanisms
# its claim E1 is about; λ = 1 is Experiment 1's own runs. One seed (the first) per λ so far.
LAMBDA_GRID = ("0.1", "0.3", "0.5", "0.7")
LAMBDA_GRID_MECHANISMS = ("vanilla", "ldp", "corbin", "augcorbin")
LAMBDA_GRID_SEEDS = (0, 42, 100)

# The claims each experiment tests (Section 5 and Appendix), and the numbers the authors report
# (REFERENCES.md: their journal version's Table 1, MNIST, 50 clients, 100 rounds).
PAPER_TABLE1 = {("corbin", "0.1"): 93.34, ("corbin", "0.3"): 97.00, ("corbin", "1"): 96.08, ("corbin", "3"): 97.72,
                ("ldp", "0.1"): 26.93, ("ldp", "0.3"): 88.27, ("ldp", "1"): 87.22, ("ldp", "3"): 97.02}
PAPER_FEDAVG = 98.43

# The registry as `corbin mechanisms --json` lists it, by name (read in main(), before any run is
# built): which mechanisms exist, which `corbin fl` runs (federated) and which take a budget.
REGISTRY = {}
REGISTRY_SOURCE = "corbin"  # the executable it came from, for messages
CORBIN = None  # the corbin executable (--corbin), for the host side of the GPU trial

# How the reports name the mechanisms (a name missing here is shown as the registry spells it).
LABELS = {"vanilla": "vanilla", "ldp": "LDP-FL", "corbin": "CorBin-FL", "augcorbin": "AugCorBin-FL",
          "gaussian": "Gaussian", "laplace": "Laplace", "cq": "CQ", "pbm1": "PBM, m = 1", "pbm2": "PBM, m = 2",
          "rqm2": "RQM, m = 2", "rqm3": "RQM, m = 3 (q = 1/2)"}

# The authors' other baselines (REFERENCES.md, "Baselines of the authors' repository"; not in the
# paper), with the trials m and levels m their repository runs: PBM m ∈ {1, 2}, RQM m ∈ {2, 3}
# (SignSGD is not federated: `corbin fl` refuses it). All run at Exp. 1's budget. Over Exp. 7's ε
# grid only those whose law is not LDPQ's: pbm1 and rqm2 are LDPQ exactly (B1,
# quantizer/baseline_identity.hpp), so there they would re-run LDP-FL's configuration.
BASELINES = ("pbm1", "pbm2", "rqm2", "rqm3")
BASELINES_OVER_EPS = ("pbm2", "rqm3")
BASELINE_EPS = "5"

# The non-IID axis: the Dirichlet label split's concentrations (small: few labels per client), the
# mechanisms compared, and the budget (Exp. 1's, whose IID runs at lambda = 1 are the reference).
# The reduced scale adds the baselines (8 runs of 8 rounds, about 2.6 s a round in reports/fl.md); at
# the full scale they would add 24 GPU runs of 100 rounds (about 5 device minutes) to the 18 there.
NIID_BETAS = ("0.5", "0.1")
NIID_MECHANISMS = {"reduced": ("vanilla", "ldp", "corbin") + BASELINES, "full": ("vanilla", "ldp", "corbin")}
NIID_EPS = "5"


def load_registry(corbin):
    """{name: properties} from `corbin mechanisms --json` (argument list, no shell). Exits naming
    the executable when it cannot be run or prints no list."""
    try:
        proc = subprocess.run([corbin, "mechanisms", "--json"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        sys.exit("fl experiments: cannot run {} mechanisms --json ({}); build corbin first (bash .ci/setup) "
                 "or name one with --registry".format(corbin, e))
    try:
        listed = json.loads(proc.stdout)["mechanisms"] if proc.returncode == 0 else None
    except (ValueError, KeyError, TypeError):
        listed = None
    if not listed:
        why = (proc.stderr.strip().splitlines() or ["exit status {}".format(proc.returncode)])[-1]
        sys.exit("fl experiments: {} mechanisms --json gave no mechanism list ({}); --registry names a corbin "
                 "or corbin-fl executable".format(corbin, why))
    return {m["name"]: m for m in listed}


def registered(opts, name):
    """The run's options as `corbin fl` takes them for its mechanism, which must be in the registry
    and federated: its budget (eps) kept when the registry says it takes one, dropped otherwise."""
    mech = opts["mechanism"]
    if mech not in REGISTRY:
        sys.exit("fl experiments: run {} configures mechanism '{}', which {} does not list (`corbin mechanisms "
                 "--json`: {}); rebuild corbin, or remove the run".format(
                     name, mech, REGISTRY_SOURCE, ", ".join(sorted(REGISTRY))))
    if not REGISTRY[mech]["federated"]:
        sys.exit("fl experiments: run {} configures mechanism '{}', which the registry marks as not federated "
                 "(`corbin fl` refuses it)".format(name, mech))
    if not REGISTRY[mech]["takes_budget"]:
        return {k: v for k, v in opts.items() if k != "eps"}
    if "eps" not in opts:
        sys.exit("fl experiments: run {} gives mechanism '{}' no eps, but the registry says it takes a budget".format(
            name, mech))
    return opts


def add_niid(add, mechanisms, **extra):
    """The non-IID runs. A run's identity is its command line (settings_key), and only these runs
    pass --split and --beta, so every IID run keeps the identity it had before the axis existed."""
    for beta in NIID_BETAS:
        for mech in mechanisms:
            add("niid", "niid-{}-beta{}".format(mech, beta), **dict(extra, mechanism=mech, eps=NIID_EPS,
                                                                       split="dirichlet", beta=beta))


def baseline_name(mech, eps, lam=None):
    """The baseline run of `mech` at ε (λ at the reduced scale, whose names carry it)."""
    return "base-{}-eps{}".format(mech, eps) + ("" if lam is None else "-l" + lam)


def experiments():
    """(experiment, run name, corbin fl options) for every run."""
    runs = []

    def add(exp, name, **opts):
        runs.append((exp, name, registered(opts, name)))

    for lam in SCALE["lambdas"]:
        for mech in ("vanilla", "gaussian", "laplace", "ldp", "corbin", "augcorbin"):
            add("1", "exp1-{}-l{}".format(mech, lam), mechanism=mech, eps="5", **{"lambda": lam})
    for d in (3, 5, 7):
        for lam in SCALE["lambdas"]:
            add("2", "exp2-d{}-l{}".format(d, lam), mechanism="corbin", eps="1", bits=str(d), **{"lambda": lam})
    for p in ("1/4", "1/2"):
        for lam in SCALE["lambdas"]:
            add("3", "exp3-p{}-l{}".format(p.replace("/", "_"), lam), mechanism="corbin", eps="1", dropout=p,
                **{"lambda": lam})
    for n in (10, 40):
        for mech in ("vanilla", "ldp", "corbin"):
            add("4", "exp4-n{}-{}".format(n, mech), mechanism=mech, eps="5", clients=str(n), **{"lambda": "1"})
    add("5", "exp5-cq", mechanism="cq", eps="5", **{"lambda": "1"})
    add("5", "exp5-corbin-eps10", mechanism="corbin", eps="10", **{"lambda": "1"})
    add("5", "exp5-ldp-eps50", mechanism="ldp", eps="50", **{"lambda": "1"})
    for lam in SCALE["lambdas_exp7"]:
        add("7", "exp7-vanilla-l" + lam, mechanism="vanilla", eps="5", **{"lambda": lam})
        for eps in SCALE["exp7_eps"]:
            for mech in ("ldp", "corbin"):
                add("7", "exp7-{}-eps{}-l{}".format(mech, eps, lam), mechanism=mech, eps=eps, **{"lambda": lam})
    # The baselines, named as Exp. 1's (λ grid) and Exp. 7's (its λ) runs they sit beside.
    for lam in SCALE["lambdas"]:
        for mech in BASELINES:
            add("base", baseline_name(mech, BASELINE_EPS, lam), mechanism=mech, eps=BASELINE_EPS, **{"lambda": lam})
    for lam in SCALE["lambdas_exp7"]:
        for eps in SCALE["exp7_eps"]:
            for mech in BASELINES_OVER_EPS:
                add("base", baseline_name(mech, eps, lam), mechanism=mech, eps=eps, **{"lambda": lam})
    add_niid(add, NIID_MECHANISMS["reduced"], **{"lambda": "1"})
    return runs


def experiments_full():
    """The full-scale runs, in the order they are run (the experiments the device time must cover
    first come first). Shared settings are one run: Exp. 2's d = 5 is Exp. 3's p = 0 and Exp. 7's
    CorBin-FL at ε = 1; Exp. 1's LDP-FL and CorBin-FL runs are Exp. 7's ε = 5."""
    sc = SCALES["full"]
    runs = []

    def add(exp, name, **opts):
        opts = dict({"lambda": "1"}, **opts)
        if name in RULE_SEEDS:
            opts["seeds"] = SEQUENTIAL_SEEDS[:RULE_SEEDS[name]]
        runs.append((exp, name, registered(opts, name)))

    add("1", "exp1-vanilla", mechanism="vanilla", eps="5")
    for mech in ("corbin", "ldp", "gaussian", "laplace", "augcorbin"):
        add("1", "exp1-" + mech, mechanism=mech, eps="5")
    for lam in LAMBDA_GRID:
        for mech in LAMBDA_GRID_MECHANISMS:
            add("1", "exp1-{}-l{}".format(mech, lam), mechanism=mech, eps="5", seeds=LAMBDA_GRID_SEEDS,
                **{"lambda": lam})
    # Exp. 7's smallest ε and ε = 1 first (the gap claim needs its ends), then the dropout and d
    # sweeps (whose p = 0 and d = 5 run is Exp. 7's CorBin-FL at ε = 1), then the rest.
    exp7 = [(mech, eps) for eps in sc["exp7_eps"] for mech in ("corbin", "ldp")]
    first7 = [x for x in exp7 if x[1] in ("0.1", "1")]
    for mech, eps in first7:
        add("7", "exp7-{}-eps{}".format(mech, eps), mechanism=mech, eps=eps)
    add("3", "exp3-p1_2", mechanism="corbin", eps="1", dropout="1/2")
    for d in (3, 7):
        add("2", "exp2-d{}".format(d), mechanism="corbin", eps="1", bits=str(d))
    for mech, eps in exp7:
        if (mech, eps) not in first7:
            add("7", "exp7-{}-eps{}".format(mech, eps), mechanism=mech, eps=eps)
    add("3", "exp3-p1_4", mechanism="corbin", eps="1", dropout="1/4")
    for n in sc["exp4_clients"]:
        for mech in ("corbin", "ldp"):
            add("4", "exp4-n{}-{}".format(n, mech), mechanism=mech, eps="5", clients=str(n), batch=sc["exp4_batch"])
    # The baselines after the paper's experiments: at Exp. 1's budget, then over Exp. 7's grid.
    for mech in BASELINES:
        add("base", baseline_name(mech, BASELINE_EPS), mechanism=mech, eps=BASELINE_EPS)
    for eps in sc["exp7_eps"]:
        for mech in BASELINES_OVER_EPS:
            add("base", baseline_name(mech, eps), mechanism=mech, eps=eps)
    add_niid(add, NIID_MECHANISMS["full"])
    return runs


def command(args, out_dir, opts, seed):
    sc = SCALES[args.scale]
    cmd = [args.corbin, "fl", "--out", out_dir, "--seed", str(seed), "--no-figures", "--threads", str(sc["threads"]),
           "--clients", opts.get("clients", str(sc["clients"])), "--per-client", str(sc["per_client"]),
           "--rounds", str(sc["rounds"]), "--eval-limit", str(sc["eval_limit"]),
           "--patience", str(sc["patience"]), "--bits", opts.get("bits", str(sc["bits"])),
           "--gamma", sc["gamma"], "--mechanism", opts["mechanism"], "--lambda", opts["lambda"]]
    for key in ("eps", "dropout", "batch", "split", "beta"):
        if key in opts:
            cmd += ["--" + key, opts[key]]
    if args.device != "cpu":
        cmd += ["--device", args.device]
    if args.stacked_conv:
        cmd += ["--stacked-conv", args.stacked_conv]
    if args.data:
        cmd += ["--data", args.data]
    return cmd


def settings_key(cmd):
    """What identifies a run: its options, without where it ran or how fast."""
    drop = {"--out", "--device", "--threads", "--stacked-conv", "--data"}
    key, skip = [], False
    for a in cmd[1:]:
        if skip:
            skip = False
            continue
        if a in drop:
            skip = True
            continue
        key.append(a)
    return key


def registry_executable(corbin):
    """The executable to ask for the registry: `corbin`, or the corbin-fl helper, which has the
    mechanisms subcommand too (a GPU build may have only the helper)."""
    return corbin


def selected(args, runs):
    """The runs --only keeps, each with every seed: (experiment, name, options, seed, run folder);
    of those, the k-th is kept when k mod N = i under --shard i/N."""
    sc = SCALES[args.scale]
    every = [(exp, name, opts, seed, os.path.join(args.out, sc["dir"], "runs", "{}-s{}".format(name, seed)))
             for exp, name, opts in runs if not args.only or exp in args.only for seed in seeds_of(args, opts)]
    if args.names:
        # --names: those runs alone, in the order given (the device time goes to the first first).
        every = sorted((run for run in every if run[1] in args.names), key=lambda run: args.names.index(run[1]))
    if args.shard is None:
        return every
    index, count = args.shard
    return [run for k, run in enumerate(every) if k % count == index]


def seeds_of(args, opts):
    """The seeds a run is made with: --seeds, else its own (the λ grid's, the rule's), else the
    scale's."""
    return args.seeds or opts.get("seeds") or SCALES[args.scale]["seeds"]


def bad_input(message):
    """One line on stderr and exit status 2, as `corbin` answers bad input."""
    sys.stderr.write("fl experiments: " + message + "\n")
    sys.exit(2)


def shard_to_run(text, env):
    """(i, N) from --shard's text ("none": None), else from a Slurm array task's variables (i = (ID -
    MIN) / STEP, N = COUNT: analysis/shard.hpp's rule), else None. Bad input exits 2 naming the
    option or the variable."""
    def count_of(name, value):
        if not value or not value.isdigit() or not value.isascii():
            bad_input("{} is '{}', but must be a count (digits only)".format(name, value))
        return int(value)

    if text is not None:
        if text == "none":
            return None
        i, slash, n = text.partition("/")
        if not slash or not (i.isdigit() and n.isdigit() and i.isascii() and n.isascii()) or not 0 <= int(i) < int(n):
            bad_input("--shard is '{}', but must be i/N with integers 0 <= i < N (shard i of N, counted from 0), "
                      "or none".format(text))
        return int(i), int(n)
    task, total = env.get("SLURM_ARRAY_TASK_ID"), env.get("SLURM_ARRAY_TASK_COUNT")
    if task is None and total is None:
        return None
    if task is None or total is None:
        bad_input("{} is unset, but must be set with the other (a Slurm array task has both; --shard none ignores "
                  "them)".format("SLURM_ARRAY_TASK_ID" if task is None else "SLURM_ARRAY_TASK_COUNT"))
    task, count = count_of("SLURM_ARRAY_TASK_ID", task), count_of("SLURM_ARRAY_TASK_COUNT", total)
    low = count_of("SLURM_ARRAY_TASK_MIN", env["SLURM_ARRAY_TASK_MIN"]) if "SLURM_ARRAY_TASK_MIN" in env else 0
    step = count_of("SLURM_ARRAY_TASK_STEP", env["SLURM_ARRAY_TASK_STEP"]) if "SLURM_ARRAY_TASK_STEP" in env else 1
    if count < 1:
        bad_input("SLURM_ARRAY_TASK_COUNT is '{}', but must be at least 1 (the number of shards)".format(total))
    if step < 1:
        bad_input("SLURM_ARRAY_TASK_STEP is '{}', but must be at least 1".format(step))
    if task < low or (task - low) % step or (task - low) // step >= count:
        bad_input("SLURM_ARRAY_TASK_ID is '{}', but must be one of {} + k * {} for k < {} (an array a-b or a-b:s; "
                  "--shard i/N otherwise)".format(task, low, step, count))
    index = (task - low) // step
    sys.stderr.write("fl experiments: shard {}/{} from SLURM_ARRAY_TASK_ID={} and SLURM_ARRAY_TASK_COUNT={} "
                     "(--shard overrides; --shard none runs them all)\n".format(index, count, task, count))
    return index, count


def finished(run_dir, cmd):
    """Whether the run folder holds a finished run of this command (summary.json with its settings)."""
    summary_path = os.path.join(run_dir, "summary.json")
    return os.path.exists(summary_path) and settings_key(
        ["corbin"] + (json.load(open(summary_path)).get("command") or [])) == settings_key(cmd)


def dry_run(args, runs):
    """Every selected run with its state and command, the count per experiment and state, and the
    registry's federated mechanisms that no run uses; writes nothing."""
    counts = {}
    for exp, name, opts, seed, run_dir in selected(args, runs):
        cmd = command(args, run_dir, opts, seed)
        # A sweep skips a done run, resumes a part-done one from its checkpoint, and runs a stopped
        # one (failure.txt: e.g. its weights overflowed) again from the start.
        state = ("done" if finished(run_dir, cmd) else
                 "part-done" if os.path.isdir(os.path.join(run_dir, "checkpoint")) else
                 "stopped" if os.path.exists(os.path.join(run_dir, "failure.txt")) else "to run")
        counts.setdefault(exp, {}).setdefault(state, 0)
        counts[exp][state] += 1
        print("{:<5} {:<30} {:<9} {}".format(exp, "{}-s{}".format(name, seed), state, subprocess.list2cmdline(cmd)))
    for exp, states in counts.items():
        print("experiment {}: {}".format(exp, ", ".join("{} {}".format(n, st) for st, n in sorted(states.items()))))
    used = {opts["mechanism"] for _, _, opts in runs}
    unused = sorted(m for m, props in REGISTRY.items() if props["federated"] and m not in used)
    not_federated = sorted(m for m, props in REGISTRY.items() if not props["federated"])
    print("registry: {} mechanisms; federated but in no run: {}; not federated (corbin fl refuses): {}".format(
        len(REGISTRY), ", ".join(unused) or "none", ", ".join(not_federated) or "none"))


def run_all(args, runs):
    runs = [r for r in runs if not args.only or r[0] in args.only]
    todo = selected(args, runs)
    if args.names:
        runs = [r for r in runs if r[1] in args.names]
    started = time.time()
    lock = threading.Lock()
    durations, failures, skipped = [], [], []
    state = {"done": 0, "running": set()}

    def show():
        elapsed = time.time() - started
        sys.stderr.write("\rfl experiments: {}/{} done, {} running, {:.0f} s          ".format(
            state["done"], len(todo), len(state["running"]), elapsed))
        sys.stderr.flush()

    def job(item):
        exp, name, opts, seed, run_dir = item
        cmd = command(args, run_dir, opts, seed)
        summary_path = os.path.join(run_dir, "summary.json")
        if finished(run_dir, cmd):
            with lock:
                state["done"] += 1
            return
        # A run stopped part-way (the deadline, a lost machine) continues from its checkpoint;
        # `corbin fl --resume` refuses one written with other settings, which then fails here. A
        # stopped run without one starts again: --force, as corbin fl never writes over a run's
        # files unasked.
        if os.path.isdir(os.path.join(run_dir, "checkpoint")):
            run_cmd = cmd + ["--resume"]
        else:
            run_cmd = cmd + (["--force"] if os.path.isdir(run_dir) else [])
        with lock:
            left = None if args.deadline is None else args.deadline - (time.time() - started)
            expected = statistics.mean(durations) if durations else 0
            if left is not None and left < max(expected, 1):
                skipped.append(name + "-s" + str(seed))
                return
            state["running"].add(name)
            show()
        t0 = time.time()
        try:
            proc = subprocess.run(run_cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=left)
            ok = proc.returncode == 0
            # A run killed by a signal says nothing: name the signal instead.
            err = proc.stderr.strip() or "exit status {}".format(proc.returncode)
        except subprocess.TimeoutExpired:
            ok, err = False, "stopped at the deadline"
        with lock:
            state["running"].discard(name)
            if not ok:
                reason = err.splitlines()[-1] if err else "?"
                failures.append("{}-s{}: {}".format(name, seed, reason))
                if reason != "stopped at the deadline" and os.path.isdir(run_dir):
                    # The run itself stopped (e.g. its weights became NaN): keep why, beside its rounds.
                    write_atomically(os.path.join(run_dir, "failure.txt"), reason + "\n")
                return
            durations.append(time.time() - t0)
            summary = json.load(open(summary_path))
            summary["command"] = settings_key(cmd)
            # The data folder, when inside the repository, relative to it: a committed run names no
            # machine's absolute path (its contents' SHA-256 identifies the data).
            data = summary.get("settings", {}).get("data")
            root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            if data and os.path.isabs(data) and os.path.commonpath([data, root]) == root:
                summary["settings"]["data"] = os.path.relpath(data, root)
            write_atomically(summary_path, json.dumps(summary, indent=1))
            state["done"] += 1
            show()

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(job, todo))
    sys.stderr.write("\n")
    if skipped:
        sys.stderr.write("fl experiments: not started before the deadline: {}\n".format(", ".join(skipped)))
    if failures:
        sys.stderr.write("fl experiments: failed:\n  " + "\n  ".join(failures) + "\n")
    return collect(args, runs)


def stopped_summary(run_dir):
    """What a run that stopped early (no summary.json) had reached: the paper's checkpoint over the
    rounds it logged, as a deployment's server would hold it."""
    rows = fl_figures.read_rounds(run_dir)
    best = max(range(len(rows)), key=lambda i: rows[i]["validation_accuracy"]) if rows else None
    return {"rounds_run": len(rows), "final_test_accuracy": None,
            "best_validation_accuracy": rows[best]["validation_accuracy"] if rows else None,
            "best_round": best, "test_accuracy_at_best_round": rows[best]["test_accuracy"] if rows else None,
            "reloads": sum(1 for r in rows if r.get("reloaded_best"))}


def collect(args, runs):
    """Every finished run of `runs` under the output folder, with its rows."""
    sc = SCALES[args.scale]
    results = []
    for exp, name, opts in runs:
        for seed in seeds_of(args, opts):
            run_dir = os.path.join(args.out, sc["dir"], "runs", "{}-s{}".format(name, seed))
            summary_path = os.path.join(run_dir, "summary.json")
            failure_path = os.path.join(run_dir, "failure.txt")
            if os.path.exists(summary_path):
                summary, failure = json.load(open(summary_path)), None
            elif os.path.exists(failure_path):
                summary, failure = stopped_summary(run_dir), open(failure_path).read().strip()
            else:
                continue
            if args.scale == "reduced" and not os.path.exists(os.path.join(run_dir, "accuracy.png")):
                fl_figures.main(run_dir)
            results.append({"experiment": exp, "name": name, "seed": seed, "run_dir": run_dir, "opts": opts,
                            "summary": summary, "rows": fl_figures.read_rounds(run_dir), "failure": failure})
    return results


def best_over_lambda(results, prefix):
    """Among runs named prefix-l<lambda>, the one with the best validation accuracy (the paper's
    grid search), per seed; returns the list over seeds."""
    picked = {}
    for r in results:
        if r["name"].rsplit("-l", 1)[0] != prefix:
            continue
        key = r["seed"]
        if key not in picked or r["summary"]["best_validation_accuracy"] > picked[key]["summary"]["best_validation_accuracy"]:
            picked[key] = r
    return list(picked.values())


def accuracy(runs):
    """Mean test accuracy (%) at the best validation round over seeds, and the lambda chosen."""
    if not runs:
        return None, None
    acc = sum(r["summary"]["test_accuracy_at_best_round"] for r in runs) / len(runs)
    return 100 * acc, runs[0]["opts"]["lambda"]


def mean_of(rows, key):
    values = [r[key] for r in rows if r.get(key) is not None]
    return sum(values) / len(values) if values else None


def write_csv(results, path):
    f = io.StringIO(newline="")  # the whole CSV, then one atomic write
    w = csv.writer(f)
    w.writerow(["experiment", "run", "seed", "mechanism", "eps", "bits", "dropout", "clients", "lambda",
                "test_accuracy_at_best_round", "final_test_accuracy", "best_round", "reloads",
                "mean_abs_mse_z", "mean_bytes_per_client", "mean_seconds_per_round", "batch", "rounds_run",
                "stopped", "max_abs_mse_z", "split", "beta"])
    for r in results:
        rows = r["rows"]
        zs = [abs(x["mse_z"]) for x in rows if x.get("mse_z") is not None]
        final = r["summary"]["final_test_accuracy"]
        w.writerow([r["experiment"], r["name"], r["seed"], r["opts"]["mechanism"], r["opts"].get("eps", ""),
                    r["opts"].get("bits", SCALE["bits"]), r["opts"].get("dropout", "0"),
                    r["opts"].get("clients", SCALE["clients"]), r["opts"]["lambda"],
                    r["summary"]["test_accuracy_at_best_round"], "" if final is None else final,
                    r["summary"]["best_round"], r["summary"]["reloads"],
                    sum(zs) / len(zs) if zs else "", mean_of(rows, "bytes_per_client"), mean_of(rows, "seconds"),
                    r["opts"].get("batch", "64"), len(rows), r.get("failure") or "", max(zs) if zs else "",
                    r["opts"].get("split", "iid"), r["opts"].get("beta", "")])
    write_atomically(path, f.getvalue())


def overlay(results, names, labels, title, path):
    plt.switch_backend("Agg")
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for name, label in zip(names, labels):
        runs = best_over_lambda(results, name) or [r for r in results if r["name"] == name]
        if runs:
            fl_figures.plot_accuracy(runs[0]["rows"], ax, label=label)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)


def fmt(x):
    return "—" if x is None else "{:.2f}".format(x)


def top_label_share(summary):
    """Mean over clients of the share of its examples that its most frequent label holds, from the
    client_label_counts `corbin fl` writes into summary.json (None for runs from before it did)."""
    counts = (summary.get("split") or {}).get("client_label_counts")
    shares = [max(c) / sum(c) for c in counts or [] if sum(c)]
    return sum(shares) / len(shares) if shares else None


def mech_label(mech):
    """The reports' name of a mechanism."""
    return LABELS.get(mech, mech)


def niid_section(setting, cell, first_run, mechanisms, iid_name):
    """The non-IID table: one row per split (IID is the mechanism's run at Exp. 1's budget and
    lambda = 1, iid_name(mech)), one column per mechanism (cell(name) formats a run's accuracy), and
    the clients' mean top-label share (the split depends on the seed only, so it is read from one
    run of the row)."""
    lines = ["## Non-IID data: the Dirichlet label split at ε_p = {} (not in the paper)".format(NIID_EPS), "",
             "Each class's examples are shared out over the clients by proportions drawn from Dir(β·1) (`corbin fl "
             "--split dirichlet --beta β`, Hsu et al. 2019; small β: few labels per client; a client left empty "
             "takes one example from the largest), " + setting + "λ = 1. IID is the run at ε_p = 5 and λ = 1 of "
             "Experiment 1 (of the baselines' table for PBM and RQM). The last column is the mean over clients of "
             "the share of its data its most frequent label holds (0.1 for balanced labels).", "",
             "| split | " + " | ".join(mech_label(m) for m in mechanisms) + " | top-label share |",
             "|---|" + "---|" * (len(mechanisms) + 1)]
    for row_label, beta in [("IID", None)] + [("Dirichlet β = " + b, b) for b in NIID_BETAS]:
        names = [iid_name(m) if beta is None else "niid-{}-beta{}".format(m, beta) for m in mechanisms]
        shares = [top_label_share(first_run[n]["summary"]) for n in names if n in first_run]
        share = next((x for x in shares if x is not None), None)
        lines.append("| {} | {} | {} |".format(row_label, " | ".join(cell(n) for n in names), fmt(share)))
    return lines + [""]


def baseline_intro(budget_words):
    """What the baselines are and which of them should tie with LDP-FL (B1)."""
    return ("The authors' repository also runs PBM (Chen, Özgür, Kairouz 2022; m ∈ {{1, 2}} binomial trials) and RQM "
            "(Youn et al. 2023; m ∈ {{2, 3}} levels, q = 1/2), each ε-PLDP per coordinate as run there (REFERENCES.md, "
            "\"Baselines of the authors' repository\"); the paper compares with neither. {} pbm1 and rqm2 have LDPQ's law "
            "exactly at the same ε and [c − r, c + r] (B1, `quantizer/baseline_identity.hpp`), so their accuracy "
            "should match LDP-FL's within the seed spread; pbm2 and rqm3 have a middle level and other laws."
            .format(budget_words))


def b1_differences(mean):
    """The sentence that measures B1 in the runs: each of pbm1 and rqm2 minus LDP-FL (mean(name of
    the mechanism) is its mean accuracy, or None when not run)."""
    parts = ["{} − LDP-FL = {:+.2f} points".format(mech_label(m), mean(m) - mean("ldp"))
             for m in ("pbm1", "rqm2") if mean(m) is not None and mean("ldp") is not None]
    return "Measured here: " + "; ".join(parts) + "." if parts else "B1 is not measured here: runs are missing."


def report(results, out):
    fig_dir = os.path.join(out, "fl")
    lines = ["# Federated experiments (Fashion-MNIST, reduced scale)", "",
             "Written by `/usr/bin/python3 analysis/fl_experiments.py` from `corbin fl` runs; every run's "
             "`rounds.jsonl`, `summary.json` and PNGs are under `reports/fl/runs/`, and all numbers are in "
             "`reports/fl/results.csv`.", "",
             "**Scale.** The paper trains CIFAR-10 (ResNet-18, Exps 1–5) and MNIST (small VGG, Exp. 7) with 50 "
             "clients (Exp. 4: 50–500) for 100 rounds on all data, grid-searching λ ∈ {{0.1, …, 1}}, five seeds, "
             "on a GPU. Here: Fashion-MNIST (Debian packages neither MNIST nor CIFAR-10), the "
             "authors' MNIST model (421 642 parameters), {clients} clients with {per_client} examples each, "
             "{rounds} rounds, evaluation on {eval_limit} test and {eval_limit} validation images, λ ∈ {{{lams}}} "
             "chosen by validation accuracy (Exp. 7: λ = {lam7}), d = {bits}, γ = {gamma}, patience {patience}, seeds {seeds}, 2 CPU "
             "threads. Accuracies are test accuracies of the model with the best validation accuracy "
             "(the paper's checkpoint), in %. They are *not* comparable in level with the paper's: other "
             "data, far fewer rounds and examples. What can be compared is the ordering the paper claims."
             .format(**dict(SCALE, lams=", ".join(SCALE["lambdas"]), lam7=", ".join(SCALE["lambdas_exp7"]),
                            seeds=", ".join(str(s) for s in sorted({r["seed"] for r in results})))), ""]

    def acc(prefix):
        return accuracy(best_over_lambda(results, prefix) or [r for r in results if r["name"] == prefix])

    # Experiment 1.
    lines += ["## Experiment 1: mechanisms at ε_p = 5", "",
              "Paper: CorBin-FL and AugCorBin-FL beat LDP-FL, Gaussian and Laplace at the same PLDP budget "
              "(CIFAR-10, Fig. 2; no numbers in the text).", "",
              "| mechanism | test accuracy (%) | λ chosen |", "|---|---|---|"]
    exp1 = {}
    for mech in ("vanilla", "gaussian", "laplace", "ldp", "corbin", "augcorbin"):
        a, lam = acc("exp1-" + mech)
        exp1[mech] = a
        lines.append("| {} | {} | {} |".format(mech + (" (no privacy)" if mech == "vanilla" else ""), fmt(a), lam or "—"))
    if all(exp1.get(m) is not None for m in ("corbin", "ldp", "gaussian", "laplace")):
        beats = all(exp1["corbin"] > exp1[m] for m in ("ldp", "gaussian", "laplace"))
        lines += ["", "At this scale CorBin-FL {} LDP-FL, Gaussian and Laplace.".format(
            "beats" if beats else "does not beat all of")]
    overlay(results, ["exp1-" + m for m in ("vanilla", "gaussian", "laplace", "ldp", "corbin", "augcorbin")],
            ["vanilla", "Gaussian", "Laplace", "LDP-FL", "CorBin-FL", "AugCorBin-FL"],
            "Experiment 1 (ε_p = 5)", os.path.join(fig_dir, "exp1.png"))
    lines += ["", "![Experiment 1](fl/exp1.png)", ""]
    # The authors' other baselines at Exp. 1's budget.
    lines += ["### The authors' other baselines at ε_p = 5 (not in the paper)", "",
              baseline_intro("Here at Exp. 1's budget and λ grid (and, for pbm2 and rqm3, over Exp. 7's ε below)."),
              "", "| mechanism | test accuracy (%) | λ chosen |", "|---|---|---|"]
    base = {}
    for mech in ("ldp",) + BASELINES:
        base[mech], lam = acc("exp1-ldp" if mech == "ldp" else baseline_name(mech, BASELINE_EPS))
        lines.append("| {} | {} | {} |".format(mech_label(mech), fmt(base[mech]), lam or "—"))
    one_seed = len({r["seed"] for r in results}) == 1
    lines += ["", b1_differences(base.get) + (" With one seed there is no spread to hold the differences against."
                                              if one_seed else ""), ""]
    # Experiment 2.
    lines += ["## Experiment 2: shared bits d at ε_p = 1", "",
              "Paper: accuracy grows with d and saturates near d = 5 (Fig. 3a).", "",
              "| d | test accuracy (%) | λ chosen |", "|---|---|---|"]
    for d in (3, 5, 7):
        a, lam = acc("exp2-d{}".format(d))
        lines.append("| {} | {} | {} |".format(d, fmt(a), lam or "—"))
    overlay(results, ["exp2-d3", "exp2-d5", "exp2-d7"], ["d = 3", "d = 5", "d = 7"], "Experiment 2 (ε_p = 1)",
            os.path.join(fig_dir, "exp2.png"))
    lines += ["", "![Experiment 2](fl/exp2.png)", ""]
    # Experiment 3.
    lines += ["## Experiment 3: dropout at ε_p = 1", "",
              "Paper: accuracy does not fall significantly up to p = 0.5 (Fig. 3b).", "",
              "| dropout p | test accuracy (%) | λ chosen |", "|---|---|---|"]
    for label, prefix in (("0", "exp2-d5"), ("1/4", "exp3-p1_4"), ("1/2", "exp3-p1_2")):
        a, lam = acc(prefix)
        lines.append("| {} | {} | {} |".format(label, fmt(a), lam or "—"))
    overlay(results, ["exp2-d5", "exp3-p1_4", "exp3-p1_2"], ["p = 0", "p = 1/4", "p = 1/2"],
            "Experiment 3 (ε_p = 1)", os.path.join(fig_dir, "exp3.png"))
    lines += ["", "![Experiment 3](fl/exp3.png)", ""]
    # Experiment 4.
    lines += ["## Experiment 4: number of clients at ε_p = 5", "",
              "Paper: CorBin-FL beats LDP-FL for 50 to 500 clients (Fig. 3c). Here n ∈ {{10, 20, 40}} "
              "(n = 20 is Experiment 1's run at λ = 1), {} examples per client.".format(SCALE["per_client"]), "",
              "| n | vanilla | LDP-FL | CorBin-FL |", "|---|---|---|---|"]
    for n in (10, 20, 40):
        cells = []
        for mech in ("vanilla", "ldp", "corbin"):
            name = "exp1-{}-l1".format(mech) if n == 20 else "exp4-n{}-{}".format(n, mech)
            a, _ = acc(name)
            cells.append(fmt(a))
        lines.append("| {} | {} |".format(n, " | ".join(cells)))
    lines += [""]
    # Experiment 5.
    lines += ["## Experiment 5 (appendix): CQ without privacy", "",
              "Paper: CorBin-FL at ε_p = 10 is about as accurate as CQ (no privacy) and LDP-FL at ε_p = 50.", "",
              "| run | test accuracy (%) |", "|---|---|"]
    for label, name in (("CQ (Suresh et al., 1 bit, no privacy)", "exp5-cq"),
                        ("CorBin-FL, ε_p = 10", "exp5-corbin-eps10"), ("LDP-FL, ε_p = 50", "exp5-ldp-eps50")):
        a, _ = acc(name)
        lines.append("| {} | {} |".format(label, fmt(a)))
    lines += [""]
    # Experiment 7 and Table 1.
    lines += ["## Experiment 7 and the authors' Table 1: CorBin-FL vs LDP-FL over ε_p", "",
              "Paper numbers: MNIST, 50 clients, 100 rounds (REFERENCES.md); ours: Fashion-MNIST at the scale above.", "",
              "| ε_p | LDP-FL here | CorBin-FL here | LDP-FL paper (MNIST) | CorBin-FL paper (MNIST) |",
              "|---|---|---|---|---|"]
    for eps in SCALE["exp7_eps"]:
        ldp, _ = acc("exp7-ldp-eps" + eps)
        cor, _ = acc("exp7-corbin-eps" + eps)
        lines.append("| {} | {} | {} | {} | {} |".format(eps, fmt(ldp), fmt(cor), fmt(PAPER_TABLE1.get(("ldp", eps))),
                                                        fmt(PAPER_TABLE1.get(("corbin", eps)))))
    van, _ = acc("exp7-vanilla")
    lines += ["", "Vanilla (no privacy): {} here; FedAvg {} in the paper.".format(fmt(van), fmt(PAPER_FEDAVG)), ""]
    overlay(results, ["exp7-vanilla", "exp7-ldp-eps0.5", "exp7-corbin-eps0.5"], ["vanilla", "LDP-FL", "CorBin-FL"],
            "Experiment 7 (ε_p = 0.5)", os.path.join(fig_dir, "exp7.png"))
    lines += ["![Experiment 7](fl/exp7.png)", ""]
    lines += ["### The authors' baselines over ε_p (not in the paper)", "",
              "PBM with m = 2 and RQM with m = 3 at Exp. 7's ε_p and λ (pbm1 and rqm2 are LDP-FL's law: Experiment 1's "
              "baselines table).", "",
              "| ε_p | LDP-FL | " + " | ".join(mech_label(m) for m in BASELINES_OVER_EPS) + " | CorBin-FL |",
              "|---|---|" + "---|" * len(BASELINES_OVER_EPS) + "---|"]
    for eps in SCALE["exp7_eps"]:
        cells = [acc("exp7-ldp-eps" + eps)[0]] + [acc(baseline_name(m, eps))[0] for m in BASELINES_OVER_EPS] + \
            [acc("exp7-corbin-eps" + eps)[0]]
        lines.append("| {} | {} |".format(eps, " | ".join(fmt(a) for a in cells)))
    lines += [""]
    # Non-IID data.
    first_seed = min((r["seed"] for r in results), default=None)
    lines += niid_section("capped at {} examples per client; ".format(SCALE["per_client"]),
                          lambda name: fmt(acc(name)[0]), {r["name"]: r for r in results if r["seed"] == first_seed},
                          NIID_MECHANISMS["reduced"],
                          lambda m: baseline_name(m, BASELINE_EPS, "1") if m in BASELINES else "exp1-{}-l1".format(m))
    # The live check and the cost, over every run.
    zs = [abs(x["mse_z"]) for r in results for x in r["rows"] if x.get("mse_z") is not None]
    over = [z for z in zs if z > 4]
    lines += ["## The theorems, checked live in every round", "",
              "Over all {} checked rounds of all runs, the aggregate's empirical MSE on the sampled coordinates "
              "against its exact expectation: mean |z| = {:.2f}, largest |z| = {:.2f}, rounds with |z| > 4: {}."
              .format(len(zs), sum(zs) / max(1, len(zs)), max(zs) if zs else 0, len(over)), ""]
    secs = [x["seconds"] for r in results for x in r["rows"]]
    lines += ["Seconds per round at this scale: mean {:.2f} over {} rounds (2 threads).".format(
        sum(secs) / max(1, len(secs)), len(secs)), ""]
    write_atomically(os.path.join(out, "fl.md"), "\n".join(lines))


# ---------------------------------------------------------------------------------------------
# The full-scale report.

def accuracy_pct(r):
    """Test accuracy (%) of the model the paper's checkpoint keeps: the best-validation round."""
    a = r["summary"]["test_accuracy_at_best_round"]
    return None if a is None else 100 * a


def by_name(results):
    out = {}
    for r in results:
        out.setdefault(r["name"], []).append(r)
    for runs in out.values():
        runs.sort(key=lambda r: r["seed"])
    return out


def spread(runs):
    """'mean ± sd (n)' of the runs' accuracies, the per-seed values, and whether one stopped."""
    values = [accuracy_pct(r) for r in runs if accuracy_pct(r) is not None]
    if not values:
        return "not run", ""
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    seeds = ", ".join("{:.2f}{}".format(accuracy_pct(r), "†" if r.get("failure") else "") for r in runs)
    return "{:.2f} ± {:.2f} ({})".format(statistics.mean(values), sd, len(values)), seeds


def mean_curve(runs, key="test_accuracy"):
    """Mean and sd over seeds of a per-round quantity, over the rounds every run logged."""
    length = min(len(r["rows"]) for r in runs)
    mean, sd = [], []
    for i in range(length):
        values = [r["rows"][i][key] for r in runs]
        mean.append(statistics.mean(values))
        sd.append(statistics.stdev(values) if len(values) > 1 else 0.0)
    return list(range(length)), mean, sd


def curves(groups, title, path):
    """Mean test accuracy per round with a band of ± one sd over seeds, one line per group."""
    plt.switch_backend("Agg")
    fig, ax = plt.subplots(figsize=(7, 4.4))
    for label, runs in groups:
        if not runs:
            continue
        x, mean, sd = mean_curve(runs)
        line, = ax.plot(x, [100 * m for m in mean], label="{} ({} seeds)".format(label, len(runs)))
        ax.fill_between(x, [100 * (m - d) for m, d in zip(mean, sd)], [100 * (m + d) for m, d in zip(mean, sd)],
                        color=line.get_color(), alpha=0.2, lw=0)
    ax.set_xlabel("round (from 0, as in rounds.jsonl)")
    ax.set_ylabel("test accuracy (%), mean ± sd over seeds")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)


def seed_errorbar(ax, points, label):
    """Best-checkpoint accuracy at each x of `points` ((x, runs) pairs): the mean over seeds, bars
    from the smallest to the largest seed."""
    xs, means, lo, hi = [], [], [], []
    for x, runs in points:
        values = [accuracy_pct(r) for r in runs if accuracy_pct(r) is not None]
        if values:
            xs.append(x)
            means.append(statistics.mean(values))
            lo.append(statistics.mean(values) - min(values))
            hi.append(max(values) - statistics.mean(values))
    return ax.errorbar(xs, means, yerr=[lo, hi], marker="o", capsize=3, label=label)


def save_log_axes(fig, ax, xlabel, title, path):
    """Labels, grid (major and minor: the x axis is logarithmic) and legend of an accuracy plot,
    then saves and closes it."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel("test accuracy (%)")
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)


def eps_figure(named, eps_list, path):
    """Best-checkpoint accuracy against ε for CorBin-FL, LDP-FL and the baselines run over ε (mean,
    bars: min to max over seeds), with the authors' MNIST numbers (journal Table 1) beside."""
    plt.switch_backend("Agg")
    fig, ax = plt.subplots(figsize=(7, 4.4))
    for mech in ("corbin", "ldp") + BASELINES_OVER_EPS:
        points = [(float(eps), named.get(exp7_name(mech, eps), [])) for eps in eps_list]
        if not any(runs for _, runs in points):
            continue
        line = seed_errorbar(ax, points, mech_label(mech) + " (Fashion-MNIST, here)")
        paper = [(float(e), PAPER_TABLE1[(mech, e)]) for e in ("0.1", "0.3", "1", "3") if (mech, e) in PAPER_TABLE1]
        if paper:
            ax.plot([p[0] for p in paper], [p[1] for p in paper], ls=":", marker="s", color=line[0].get_color(),
                    label=mech_label(mech) + " (MNIST, authors' Table 1)")
    ax.set_xscale("log")
    save_log_axes(fig, ax, "ε_p", "Experiment 7: accuracy against the PLDP budget", path)


def clients_figure(named, clients, path):
    """Experiment 4: best-checkpoint accuracy against the number of clients for CorBin-FL and
    LDP-FL (mean, bars: min to max over seeds)."""
    plt.switch_backend("Agg")
    fig, ax = plt.subplots(figsize=(7, 4.4))
    for mech, label in (("corbin", "CorBin-FL"), ("ldp", "LDP-FL")):
        seed_errorbar(ax, [(n, named.get("exp4-n{}-{}".format(n, mech), [])) for n in clients], label)
    ax.set_xscale("log")
    ax.set_xticks(clients, [str(n) for n in clients])
    save_log_axes(fig, ax, "clients n (all data split among them)", "Experiment 4 (ε_p = 5, batch 32, Fashion-MNIST)",
                  path)


def live_check_figure(results, path):
    """The live check over every checked round: the z-scores' histogram against N(0, 1), and the
    empirical MSE on the sampled coordinates against its exact expectation."""
    plt.switch_backend("Agg")
    rows = [x for r in results for x in r["rows"] if x.get("mse_z") is not None]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    zs = [x["mse_z"] for x in rows]
    axes[0].hist(zs, bins=60, density=True, alpha=0.7, label="{} checked rounds".format(len(zs)))
    grid = [i / 20 for i in range(-100, 101)]
    axes[0].plot(grid, [math.exp(-t * t / 2) / math.sqrt(2 * math.pi) for t in grid], label="N(0, 1)")
    axes[0].set_xlabel("z = (empirical − exact expected) / sd")
    axes[0].legend()
    axes[0].grid(alpha=0.3)
    axes[1].loglog([x["mse_expected"] for x in rows], [x["mse_empirical_sampled"] for x in rows], ".", ms=2)
    lo = min(x["mse_expected"] for x in rows)
    hi = max(x["mse_expected"] for x in rows)
    axes[1].plot([lo, hi], [lo, hi], "k:", lw=1)
    axes[1].set_xlabel("exact expected MSE (sampled coordinates)")
    axes[1].set_ylabel("empirical MSE")
    axes[1].grid(alpha=0.3, which="both")
    fig.suptitle("The theorems checked live, every round of every full-scale run")
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)


def exp7_name(mech, eps):
    """Exp. 7's run at (mechanism, ε) at the full scale; ε = 5 is Exp. 1's run. A baseline's run is
    its own (baseline_name)."""
    if mech in BASELINES:
        return baseline_name(mech, eps)
    return "exp1-" + mech if eps == "5" else "exp7-{}-eps{}".format(mech, eps)


# How the decisions name the runs they compare.
RUN_LABELS = {"exp1-corbin": "CorBin-FL ε_p = 5", "exp1-augcorbin": "AugCorBin-FL ε_p = 5",
              "exp1-ldp": "LDP-FL ε_p = 5", "exp1-laplace": "Laplace ε_p = 5", "exp1-gaussian": "Gaussian ε_p = 5",
              "exp1-vanilla": "vanilla", "exp7-corbin-eps1": "CorBin-FL ε_p = 1 (d = 5, p = 0)",
              "exp2-d3": "CorBin-FL ε_p = 1, d = 3", "exp2-d7": "CorBin-FL ε_p = 1, d = 7",
              "exp3-p1_4": "CorBin-FL ε_p = 1, p = 1/4", "exp3-p1_2": "CorBin-FL ε_p = 1, p = 1/2"}
CLAIM_WORDS = {"E1": "Experiment 1: CorBin-FL and AugCorBin-FL above LDP-FL, Laplace and Gaussian at ε_p = 5",
               "E2": "Experiment 2: d = 5 above d = 3; d = 7 not above d = 5",
               "E3": "Experiment 3: no significant fall at p = 1/4, 1/2",
               "E4": "Experiment 4: CorBin-FL above LDP-FL at n = 50, 200, 500",
               "E5": "Experiment 7: CorBin-FL above LDP-FL at every ε_p; the gap larger at each smaller ε_p; "
                     "vanilla − CorBin-FL under 1.5 points at ε_p = 0.5"}


def run_label(name, minus=None):
    def one(n):
        if n in RUN_LABELS:
            return RUN_LABELS[n]
        if n.startswith("exp4-n"):
            size, mech = n[len("exp4-n"):].split("-")
            return "{} n = {}".format(mech_label(mech), size)
        if n.startswith("exp7-"):
            mech, eps = n[len("exp7-"):].split("-eps")
            return "{} ε_p = {}".format(mech_label(mech), eps)
        return n
    return one(name) if minus is None else "({} − {})".format(one(name), one(minus))


def side_of(named, side):
    """A comparison's side as the rechecker reads it: a run (or a run minus another, seed by seed)
    with its seeds, values and stopped flags, or a constant."""
    kind, *rest = side
    if kind == "constant":
        return {"label": ", ".join(map(str, rest[0])), "seeds": [], "values": list(rest[0]), "stopped": []}
    run, minus = rest
    a = {r["seed"]: (accuracy_pct(r), bool(r.get("failure"))) for r in named.get(run, []) if accuracy_pct(r) is not None}
    if minus is not None:
        b = {r["seed"]: (accuracy_pct(r), bool(r.get("failure"))) for r in named.get(minus, [])
             if accuracy_pct(r) is not None}
        a = {k: (v - b[k][0], t or b[k][1]) for k, (v, t) in a.items() if k in b}
    side = {"label": run_label(run, minus), "run": run, "seeds": sorted(a), "values": [a[k][0] for k in sorted(a)],
            "stopped": [a[k][1] for k in sorted(a)]}
    if minus is not None:
        side["minus_run"] = minus
    return side


def decide_claims(named):
    """Each claim's parts under the sequential rule: [(claim, verdict, [(want, verdict, [(a, b, looks,
    order)])])], from the rechecker's design of the claim and its rule."""
    out = []
    for claim in ("E1", "E2", "E3", "E4", "E5"):
        first = None
        if claim == "E5":  # its gaps pair the runs of its first part
            first = [{"comparisons": [{"a": side_of(named, a), "b": side_of(named, b)}
                                      for a, b in rule.experiment_design("E5", [])[0][1]]}]
        parts = []
        for want, pairs in rule.experiment_design(claim, first):
            items = []
            for a, b in pairs:
                sa, sb = side_of(named, a), side_of(named, b)
                looks, order = rule.sequential_order(sa, sb)
                items.append((sa, sb, looks, order))
            parts.append((want, rule.part_verdict(want, [order for *_, order in items]), items))
        out.append((claim, rule.claim_verdict([v for _, v, _ in parts]), parts))
    return out


def second_reading(decided, out):
    """The independent re-derivation of the decisions (reports/fl-full/second-reading.json), said
    only for the results.csv it read (its SHA-256), and where its verdicts differ."""
    path = os.path.join(out, SCALES["full"]["dir"], "second-reading.json")
    if not os.path.exists(path):
        return ["No second reading of these decisions is recorded.", ""]
    review = json.load(open(path))
    with open(os.path.join(out, SCALES["full"]["dir"], "results.csv"), "rb") as f:
        current = hashlib.sha256(f.read()).hexdigest()
    if review["results_csv_sha256"] != current:
        return ["The recorded second reading was of an earlier results.csv (SHA-256 {}…); these decisions have "
                "none yet.".format(review["results_csv_sha256"][:12]), ""]
    differ = [c for c, v, _ in decided if review["verdicts"].get(c) != v]
    return ["**Second reading.** Re-derived by {}: {}. Agreement on {}.".format(
        review["who"], "its verdicts differ on " + ", ".join(differ) if differ else "the same verdicts",
        review["agreement"]) + " Its notes: " + " ".join(review["notes"]), ""]


def decisions_section(decided, out):
    level = rule.RULE_ALPHA / len(LOOKS)
    lines = ["## The claims decided", "",
             "**The rule, fixed before the runs it governs.** Each comparison \"A above B\" takes the test accuracy at "
             "the best-validation round of both arms on the first n seeds of {seeds}, at looks n = {looks}. At each "
             "look Welch's t (Welch–Satterthwaite degrees of freedom) is tested one-sided both ways at {alpha} / {k} "
             "= 1/{inv}: A is above B when P(T ≥ t) ≤ 1/{inv}, below when P(T ≤ t) ≤ 1/{inv}; the first look that "
             "decides stops; otherwise the next batch of seeds, and after the last look the comparison is undecided, "
             "with the difference and its interval (the difference ± the t quantile at 1 − 1/{inv} times its standard "
             "error: the rule decides exactly when this interval excludes 0). A gap between two arms (E5's "
             "CorBin-FL − LDP-FL at one ε_p) is taken seed by seed, over the seeds both have (the runs of one seed "
             "share its data split and initial model), and is then one arm; a constant (E5's 1.5 points) is an arm "
             "without spread (its variance term 0, the degrees of freedom the other arm's). **Error rate:** with equal means and "
             "accuracies normal over seeds, each direction is declared with probability at most {alpha} over the "
             "{k} looks (Bonferroni); a claim of several comparisons inherits their combined error. \"Not above\" "
             "and \"not below\" (the paper's \"no significant\" change, \"saturate\") hold when the rule ran to its "
             "last look without deciding the opposite. A comparison whose next look's seeds are not run is "
             "pending. The audit (`corbin audit`, E1–E5) applies the same rule in C++ and "
             "`proofs-check/recheck_certificates.py` recomputes it from `results.csv`; this section is the "
             "rechecker's reading.".format(seeds=", ".join(map(str, SEQUENTIAL_SEEDS)),
                                            looks=", ".join(map(str, LOOKS)), alpha=rule.RULE_ALPHA, k=len(LOOKS),
                                            inv=round(1 / level)), "",
             "| claim | comparison | wants | at n | difference [interval] | deciding p | rule's order |",
             "|---|---|---|---|---|---|---|"]
    for claim, verdict, parts in decided:
        first = True
        for want, part_verdict, items in parts:
            for a, b, looks, order in items:
                if looks:
                    last = looks[-1]
                    p = last["p_below"] if order == "below" else last["p_above"]
                    cells = ["{}".format(last["n"]), "{:+.2f} [{:+.2f}, {:+.2f}]".format(
                        last["difference"], last["low"], last["high"]), "{:.4f}".format(p)]
                else:
                    cells = ["—", "fewer than {} of the rule's seeds".format(LOOKS[0]), "—"]
                lines.append("| {} | {} vs {} | {} | {} | {} |".format(
                    "**{}: {}**".format(claim, verdict) if first else "", a["label"], b["label"], want,
                    " | ".join(cells), order))
                first = False
    lines += ["", "Differences are in accuracy points (A − B). " + "; ".join(
        "{}: {}".format(claim, CLAIM_WORDS[claim]) for claim, _, _ in decided) + ".", ""]
    return lines + second_reading(decided, out)


def lambda_grid_section(named, fig_dir):
    """The paper's λ grid at Experiment 1's setting: one row per mechanism, the best λ by validation
    accuracy, a figure, and Experiment 1 at each mechanism's best λ."""
    lambdas = LAMBDA_GRID + ("1",)

    def runs_at(mech, lam):
        return named.get("exp1-" + mech if lam == "1" else "exp1-{}-l{}".format(mech, lam), [])

    def seed0(mech, lam):
        return next((r for r in runs_at(mech, lam) if r["seed"] == LAMBDA_GRID_SEEDS[0]), None)

    lines = ["## The global learning rate λ at Experiment 1's setting", "",
             "The paper grid-searches λ ∈ {0.1, …, 1} per mechanism and keeps the best on validation accuracy. Here "
             "λ ∈ {" + ", ".join(lambdas) + "} at ε_p = 5 for the four mechanisms of claim E1's comparison with "
             "LDP-FL, seed " + str(LAMBDA_GRID_SEEDS[0]) + " (λ = 1 is Experiment 1's run). Each cell: test accuracy "
             "(%) at the best-validation round, then the validation accuracy that chooses λ; **bold** is the λ "
             "chosen.", "",
             "| mechanism | " + " | ".join("λ = " + lam for lam in lambdas) + " | best λ |",
             "|---|" + "---|" * (len(lambdas) + 1)]
    best = {}
    plt.switch_backend("Agg")
    fig, ax = plt.subplots(figsize=(7, 4.4))
    for mech in LAMBDA_GRID_MECHANISMS:
        cells = {lam: seed0(mech, lam) for lam in lambdas}
        made = {lam: r for lam, r in cells.items() if r is not None}
        if made:
            best[mech] = max(made, key=lambda lam: made[lam]["summary"]["best_validation_accuracy"])
        lines.append("| {} | {} | {} |".format(mech_label(mech), " | ".join(
            "not run" if r is None else ("**{:.2f}** ({:.2f})" if lam == best.get(mech) else "{:.2f} ({:.2f})").format(
                accuracy_pct(r), 100 * r["summary"]["best_validation_accuracy"]) for lam, r in cells.items()),
            best.get(mech, "—")))
        xs = [float(lam) for lam in lambdas if cells[lam] is not None]
        ax.plot(xs, [accuracy_pct(cells[lam]) for lam in lambdas if cells[lam] is not None], marker="o",
                label=mech_label(mech))
    ax.set_xlabel("global learning rate λ")
    ax.set_ylabel("test accuracy (%) at the best-validation round")
    ax.set_title("λ grid at ε_p = 5, 50 clients, 100 rounds (Fashion-MNIST, seed {})".format(LAMBDA_GRID_SEEDS[0]))
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    save_figure(fig, os.path.join(fig_dir, "lambda.png"), dpi=120)
    plt.close(fig)
    lines += ["", "![λ grid](fl-full/lambda.png)", ""]
    # Experiment 1 at each mechanism's best λ, under the rule (it needs the first look's seeds there).
    items, missing = [], []
    for mech in ("corbin", "augcorbin"):
        for base in ("ldp",):
            if mech not in best or base not in best:
                continue
            a_name = "exp1-" + mech if best[mech] == "1" else "exp1-{}-l{}".format(mech, best[mech])
            b_name = "exp1-" + base if best[base] == "1" else "exp1-{}-l{}".format(base, best[base])
            a, b = side_of(named, ("run", a_name, None)), side_of(named, ("run", b_name, None))
            looks, order = rule.sequential_order(a, b)
            at = (" (at n = {n}: {difference:+.2f} [{low:+.2f}, {high:+.2f}] points)".format(**looks[-1])
                  if looks else "")
            items.append("{} at λ = {} against LDP-FL at λ = {}: {}{}".format(mech_label(mech), best[mech], best[base],
                                                                           order, at))
            # The seeds the rule's next look needs (the first look's where none was made).
            n = LOOKS[len(looks)] if order in ("pending", "missing") and len(looks) < len(LOOKS) else LOOKS[0]
            for name, side in ((a_name, a), (b_name, b)):
                lacking = [seed for seed in SEQUENTIAL_SEEDS[:n] if seed not in side["seeds"]]
                if lacking and name not in [m for m, _ in missing]:
                    missing.append((name, lacking))
    if best:
        lines += ["**Experiment 1 at each mechanism's best λ** (" + ", ".join(
            "{} λ = {}".format(mech_label(m), lam) for m, lam in best.items()) + "): " + "; ".join(items) + "."]
        if missing:
            lines[-1] += (" Missing for the rule's next look: " + "; ".join(
                "{} seeds {}".format(name, ", ".join(map(str, seeds))) for name, seeds in missing) + ".")
        gains = ["{} {:+.2f}".format(mech_label(m), 100 * (seed0(m, lam)["summary"]["best_validation_accuracy"] -
                                                              seed0(m, "1")["summary"]["best_validation_accuracy"]))
                 for m, lam in best.items() if lam != "1" and seed0(m, "1") is not None]
        ldp_at_1 = [accuracy_pct(r) for r in runs_at("ldp", "1") if accuracy_pct(r) is not None]
        if gains and len(ldp_at_1) > 1:
            lines += ["The choice rests on one seed: the best λ's validation accuracy exceeds λ = 1's by " +
                      ", ".join(gains) + " points, against a seed-to-seed sd of {:.2f} points in LDP-FL's test "
                      "accuracy at λ = 1 ({} seeds).".format(statistics.stdev(ldp_at_1), len(ldp_at_1))]
        lines += [""]
    return lines, best, missing


def report_full(results, out):
    sc = SCALES["full"]
    fig_dir = os.path.join(out, sc["dir"])
    named = by_name(results)
    seeds = sorted({r["seed"] for r in results})
    lines = ["# Federated experiments at the paper's scale, on a GPU (Fashion-MNIST)", "",
             "Written by `/usr/bin/python3 analysis/fl_experiments.py --scale full --report-only` from the `corbin fl` "
             "runs under `reports/fl-full/runs/` (each run's `rounds.jsonl` and `summary.json`); every number is in "
             "`reports/fl-full/results.csv`, which the audit's claims E1–E5 are decided from (`reports/audit.md`).", "",
             "**Setting.** {clients} clients (the paper's; its Exp. 4 varies 50–500), all of Fashion-MNIST split as the "
             "paper says (70 000 images pooled, 20 % test, 20 % of the rest validation, 896 training images per client), "
             "the authors' MNIST model (421 642 parameters), one local epoch of Adam per round (batch 64), {rounds} "
             "rounds, d = {bits}, γ = {gamma}, patience {patience}, seeds {seeds} (the first three everywhere, more "
             "where the decision rule below asked for them). λ = 1 (the plain FedAvg update, the value the paper fixes "
             "in its Exp. 5) except in the λ grid below, where the paper's search is run at Experiment 1's setting. "
             "Runs: `corbin fl --device cuda`, all clients of a round trained at once, on one NVIDIA GPU, in batches "
             "of runs side by side (Cost, below)."
             .format(**dict(sc, seeds=", ".join(str(x) for x in sorted(seeds, key=seed_rank)))), "",
             "**What is reported.** Test accuracy (%) of the model the paper's checkpoint keeps (the round with the best "
             "validation accuracy), as mean ± sd over seeds (n), then the per-seed values in seed order. † marks a run "
             "that stopped before round 100 (its value is that of its best-validation round so far). The paper trains "
             "CIFAR-10 (Exps 1–5) and MNIST (Exp. 7); Debian packages neither, so levels "
             "are not comparable with the paper's, only orderings and gaps are. The authors' MNIST numbers (their journal "
             "version's Table 1) are shown beside Exp. 7's for reference.", ""]
    not_run = []
    decided = decide_claims(named)
    lines += decisions_section(decided, out)
    grid_lines, best_lambda, grid_missing = lambda_grid_section(named, fig_dir)

    def row(label, name, extra=""):
        runs = named.get(name, [])
        if not runs:
            not_run.append(name)
        text, values = spread(runs)
        return "| {} | {} | {} |{}".format(label, text, values, extra)

    # Experiment 1.
    lines += ["## Experiment 1: mechanisms at ε_p = 5", "",
              "Paper (Section 5, i): \"under a fixed privacy budget ... the proposed mechanisms outperform the LDP-FL, and "
              "Gaussian and Laplace Mechanisms in terms of overall model accuracy\" (CIFAR-10, Fig. 2). Audit claim E1.", "",
              "| mechanism | accuracy, mean ± sd (n) | per seed |", "|---|---|---|"]
    for mech, label in (("vanilla", "vanilla (no privacy)"), ("corbin", "CorBin-FL"), ("augcorbin", "AugCorBin-FL (γ = 1/5)"),
                        ("ldp", "LDP-FL"), ("laplace", "Laplace"), ("gaussian", "Gaussian (δ = 1e-5)")):
        lines.append(row(label, "exp1-" + mech))
    curves([(label, named.get("exp1-" + m, [])) for m, label in
            (("vanilla", "vanilla"), ("corbin", "CorBin-FL"), ("augcorbin", "AugCorBin-FL"), ("ldp", "LDP-FL"),
             ("laplace", "Laplace"), ("gaussian", "Gaussian"))],
           "Experiment 1 (ε_p = 5, Fashion-MNIST)", os.path.join(fig_dir, "exp1.png"))
    lines += ["", "![Experiment 1](fl-full/exp1.png)", ""] + grid_lines
    # The authors' other baselines at Exp. 1's budget.
    lines += ["### The authors' other baselines at ε_p = 5 (not in the paper)", "",
              baseline_intro("Here at Exp. 1's setting (and, for pbm2 and rqm3, over Exp. 7's ε below)."), "",
              "| mechanism | accuracy, mean ± sd (n) | per seed |", "|---|---|---|"]
    for mech in ("ldp",) + BASELINES:
        lines.append(row(mech_label(mech), "exp1-ldp" if mech == "ldp" else baseline_name(mech, BASELINE_EPS)))

    def mean_of_runs(mech):
        values = [accuracy_pct(r) for r in named.get(exp7_name(mech, BASELINE_EPS), []) if accuracy_pct(r) is not None]
        return statistics.mean(values) if values else None

    lines += ["", b1_differences(mean_of_runs) + " The seeds' spread is in the table.", ""]
    # Experiment 2.
    lines += ["## Experiment 2: shared bits d at ε_p = 1", "",
              "Paper (ii): \"the accuracy gains increase as the number of shared random bits per model parameter is "
              "increased, however, the gains saturate for relatively small values of d (e.g., d = 5)\" (Fig. 3a). "
              "Audit claim E2. d = 5 is Exp. 7's CorBin-FL run at ε_p = 1.", "",
              "| d | accuracy, mean ± sd (n) | per seed |", "|---|---|---|"]
    d_names = [("3", "exp2-d3"), ("5", "exp7-corbin-eps1"), ("7", "exp2-d7")]
    for d, name in d_names:
        lines.append(row(d, name))
    curves([("d = " + d, named.get(name, [])) for d, name in d_names], "Experiment 2 (ε_p = 1, Fashion-MNIST)",
           os.path.join(fig_dir, "exp2.png"))
    lines += ["", "![Experiment 2](fl-full/exp2.png)", ""]
    # Experiment 3.
    lines += ["## Experiment 3: dropout at ε_p = 1", "",
              "Paper (iii): \"the proposed methods are robust to client dropouts, and the model accuracy does not fall "
              "significantly even for large dropout probabilities, e.g., for p = 0.5\" (Fig. 3b). Audit claim E3. "
              "p = 0 is Exp. 7's CorBin-FL run at ε_p = 1.", "",
              "| dropout p | accuracy, mean ± sd (n) | per seed |", "|---|---|---|"]
    p_names = [("0", "exp7-corbin-eps1"), ("1/4", "exp3-p1_4"), ("1/2", "exp3-p1_2")]
    for label, name in p_names:
        lines.append(row(label, name))
    curves([("p = " + label, named.get(name, [])) for label, name in p_names], "Experiment 3 (ε_p = 1, Fashion-MNIST)",
           os.path.join(fig_dir, "exp3.png"))
    lines += ["", "![Experiment 3](fl-full/exp3.png)", ""]
    # Experiment 4.
    lines += ["## Experiment 4: number of clients at ε_p = 5 (batch 32)", "",
              "Paper (iv): \"the proposed methods outperform the LDP-FL mechanism for different numbers of clients "
              "ranging from 50 to 500\" (Fig. 3c). Audit claim E4.", "",
              "| clients | LDP-FL | CorBin-FL |", "|---|---|---|"]
    for n in sc["exp4_clients"]:
        cells = []
        for mech in ("ldp", "corbin"):
            name = "exp4-n{}-{}".format(n, mech)
            if not named.get(name):
                not_run.append(name)
            text, values = spread(named.get(name, []))
            cells.append(text + (" [{}]".format(values) if values else ""))
        lines.append("| {} | {} | {} |".format(n, *cells))
    clients_figure(named, sc["exp4_clients"], os.path.join(fig_dir, "exp4.png"))
    lines += ["", "![Experiment 4](fl-full/exp4.png)", ""]
    # Experiment 7.
    eps_list = sc["exp7_eps"] + ["5"]
    lines += ["## Experiment 7: CorBin-FL and LDP-FL over ε_p", "",
              "Paper (Exp. 7, MNIST): \"CorBin-FL achieves better accuracy compared to LDP-FL and the gap becomes larger "
              "for smaller values of epsilon. The accuracy loss of CorBin-FL compared to vanilla-FL is less than 1.5% at "
              "ε_p = 0.5.\" Audit claim E5. ε_p = 5 is Exp. 1's runs. Paper columns: the authors' MNIST numbers (journal "
              "Table 1), for reference only.", "",
              "| ε_p | LDP-FL | CorBin-FL | gap (mean) | LDP-FL, paper (MNIST) | CorBin-FL, paper (MNIST) |",
              "|---|---|---|---|---|---|"]
    for eps in eps_list:
        cells, means = [], {}
        for mech in ("ldp", "corbin"):
            name = exp7_name(mech, eps)
            runs = named.get(name, [])
            if not runs:
                not_run.append(name)
            text, values = spread(runs)
            cells.append(text + (" [{}]".format(values) if values else ""))
            vals = [accuracy_pct(r) for r in runs if accuracy_pct(r) is not None]
            means[mech] = statistics.mean(vals) if vals else None
        gap = "{:+.2f}".format(means["corbin"] - means["ldp"]) if None not in means.values() else "—"
        lines.append("| {} | {} | {} | {} | {} | {} |".format(eps, cells[0], cells[1], gap,
                                                               fmt(PAPER_TABLE1.get(("ldp", eps))),
                                                               fmt(PAPER_TABLE1.get(("corbin", eps)))))
    van = [accuracy_pct(r) for r in named.get("exp1-vanilla", [])]
    lines += ["", "Vanilla (no privacy, Exp. 1's runs): {:.2f} here; FedAvg {} on MNIST in the paper.".format(
        statistics.mean(van), fmt(PAPER_FEDAVG)) if van else "Vanilla: not run.", ""]
    lines += ["The authors' PBM with m = 2 and RQM with m = 3 over the same ε_p (not in the paper; pbm1 and rqm2 are "
              "LDP-FL's law: Experiment 1's baselines table):", "",
              "| ε_p | LDP-FL | " + " | ".join(mech_label(m) for m in BASELINES_OVER_EPS) + " | CorBin-FL |",
              "|---|---|" + "---|" * len(BASELINES_OVER_EPS) + "---|"]
    for eps in eps_list:
        names = [exp7_name("ldp", eps)] + [exp7_name(m, eps) for m in BASELINES_OVER_EPS] + [exp7_name("corbin", eps)]
        for name in names:
            if not named.get(name):
                not_run.append(name)
        lines.append("| {} | {} |".format(eps, " | ".join(spread(named.get(n, []))[0] for n in names)))
    lines += [""]
    eps_figure(named, eps_list, os.path.join(fig_dir, "exp7.png"))
    curves([("CorBin-FL ε = 0.5", named.get("exp7-corbin-eps0.5", [])),
            ("LDP-FL ε = 0.5", named.get("exp7-ldp-eps0.5", [])), ("vanilla", named.get("exp1-vanilla", []))],
           "Experiment 7 at ε_p = 0.5 (Fashion-MNIST)", os.path.join(fig_dir, "exp7-rounds.png"))
    lines += ["![Experiment 7](fl-full/exp7.png)", "", "![Experiment 7, rounds](fl-full/exp7-rounds.png)", ""]
    stopped = [r for r in results if r.get("failure")]
    if stopped:
        lines += ["**Runs that stopped.** " + "; ".join(
            "{}-s{} after {} rounds: `{}`".format(r["name"], r["seed"], len(r["rows"]), r["failure"]) for r in stopped) +
            ". LDP-FL at ε_p = 0.1 with λ = 1 is unstable: c and r come from the global model's per-layer min and max, "
            "each client sends c ± rα with α ≈ 20, so the aggregate's spread — and next round's r — grows by a "
            "large factor every round (`mse_empirical` in its rounds.jsonl passes 1e18) until the weights overflow. "
            "The paper's λ grid would damp this; a smaller λ is the lever.", ""]
    # Non-IID data (its runs come last; a missing one is said here, not under "Not run").
    lines += niid_section("all data; trained one client at a time (unequal shards); ",
                          lambda name: spread(named.get(name, []))[0], {n: rs[0] for n, rs in named.items()},
                          NIID_MECHANISMS["full"], lambda m: "exp1-" + m)
    # Accuracy after 100 rounds vs at the checkpoint.
    lines += ["**Final against checkpointed accuracy.** Where the final model is far below the checkpointed one (e.g. "
              "dropout p = 1/2, small ε_p), training degraded after its best round and the checkpoint's reloads did not "
              "recover it; the final accuracies are in results.csv (`final_test_accuracy`).", ""]
    # The live check.
    checked = [x for r in results for x in r["rows"] if x.get("mse_z") is not None]
    zs = [abs(x["mse_z"]) for x in checked]
    if zs:
        live_check_figure(results, os.path.join(fig_dir, "live_check.png"))
        ratio = [x["mse_empirical_sampled"] / x["mse_expected"] for x in checked if x["mse_expected"] > 0]
        lines += ["## The theorems, checked live in every round", "",
                  "Every round of every private run compares the aggregate's empirical squared error on 64 sampled "
                  "coordinates per layer with its exact expectation under the samplers' own law (exact rationals), and "
                  "reports z = (empirical − expected)/sd. Over {} checked rounds of {} runs: mean |z| = {:.3f} "
                  "(a standard normal gives 0.798), largest |z| = {:.2f}, |z| > 2 in {:.1%} of rounds (4.6 % expected), "
                  "|z| > 3 in {:.2%} (0.27 % expected); empirical/expected MSE: median {:.4f}.".format(
                      len(zs), sum(1 for r in results if any(x.get("mse_z") is not None for x in r["rows"])),
                      sum(zs) / len(zs), max(zs), sum(z > 2 for z in zs) / len(zs), sum(z > 3 for z in zs) / len(zs),
                      statistics.median(ratio))]
        zs_signed = [x["mse_z"] for x in checked]
        skew = sample_skewness(zs_signed)
        if skew > 0:
            lines[-1] += (" The excess over the normal rates is on the right: z > 3 in {} rounds, z < −3 in {}. A sum of "
                          "squared errors skews right (sample skewness of z: {:.2f}), and a gamma law of that skewness, "
                          "standardised, puts {:.2%} above 3 and {:.3%} below −3.".format(
                              sum(z > 3 for z in zs_signed), sum(z < -3 for z in zs_signed), skew,
                              *standard_gamma_tails(skew, 3)))
        lines += ["", "![The live check](fl-full/live_check.png)", ""]
    lines += conform_section()
    # Cost: a run's device time is its wall time over the runs sharing the GPU.
    lines += cost_section(results)
    lines += not_run_section(named, decided, grid_missing, results, not_run)
    lines += [gap_section(), ""]
    write_atomically(os.path.join(out, "fl-full.md"), "\n".join(lines))


def seed_rank(seed):
    """A seed's place in the rule's order (other seeds after them)."""
    return SEQUENTIAL_SEEDS.index(seed) if seed in SEQUENTIAL_SEEDS else len(SEQUENTIAL_SEEDS) + seed


CONFORM_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reports", "fl-full", "conform-cuda")


def conform_section():
    """The round kernels `corbin fl` samples with on the GPU, on trial against the law they claim
    (`corbin conform --sampler builtin:cuda`, made by .ci/cuda/conform on the GPU of a batch,
    reports/fl-full/conform-cuda/GRID-MECHANISM.json), each compared here with the host backend's
    trial of the same requests (`--sampler builtin:kernels`, run now): the same draws give the same
    statistics."""
    found = [(grid, mech) for grid in ("quick", "default") for mech in ("ldpq", "corbinq")
             if os.path.exists(os.path.join(CONFORM_DIR, "{}-{}.json".format(grid, mech)))]
    if not found:
        return []
    lines = ["## The GPU's round kernels on trial", "",
             "`corbin conform --sampler builtin:cuda` on an H200, beside the batch of the rule's next looks (`.ci/cuda/conform`): the CUDA "
             "kernels `corbin fl --device cuda` samples LDPQ and CorBinQ with, against the fixed-point law they "
             "claim (docs/conform.md), each setting's outputs by exact tests, the whole run at the stated level (split over its tests) and power. Beside "
             "it, the same requests to the kernels' host backend (`--sampler builtin:kernels`), run when this report "
             "was written: equal statistics on every test mean the device drew what the host draws (the GPU test "
             "`test_conform [cuda]` checks it output for output on two launches).", "",
             "| grid | mechanism | tests | draws | rejected | verdict | level (power) | consistent with the exact law of "
             "| the host backend's statistics |", "|---|---|---|---|---|---|---|---|---|"]
    for grid, mech in found:
        gpu = json.load(open(os.path.join(CONFORM_DIR, "{}-{}.json".format(grid, mech))))
        host = host_conform(grid, mech, gpu["seed"])
        same = ("not compared (no corbin here)" if host is None else
                "equal on all {}".format(len(gpu["test_results"])) if host["test_results"] == gpu["test_results"] else
                "DIFFERENT on {} of {}".format(sum(a != b for a, b in zip(host["test_results"], gpu["test_results"]))
                                              + abs(len(host["test_results"]) - len(gpu["test_results"])),
                                              len(gpu["test_results"])))
        lines.append("| {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} |".format(
            grid, mech, gpu["tests"], gpu["draws"], gpu["rejected"], gpu["verdict"], gpu["level"], gpu["power"],
            ", ".join(gpu["consistent_with"]) or "none (fixed-point TV at exact inputs {:.4f})".format(
                gpu["fixed_point_tv_max_at_exact_inputs_approx"]), same))
    lines += ["", "On the default grid the kernels, like the host samplers, take float inputs: at c = 1000, r = 1/1000 "
              "rounding the input moves q by up to 1.5 %, so their draws are rejected as draws of the exact law while "
              "conforming to the fixed-point law they claim (docs/conform.md).", ""]
    return lines


def host_conform(grid, mech, seed):
    """`corbin conform` of the host backend on the same request, or None where no corbin is here."""
    if not CORBIN or not os.access(CORBIN, os.X_OK):
        return None
    proc = subprocess.run([CORBIN, "conform", "--grid", grid, "--mechanism", mech, "--seed", seed, "--json",
                           "--sampler", "builtin:kernels"], capture_output=True, text=True)
    return json.loads(proc.stdout) if proc.returncode in (0, 1) and proc.stdout.strip() else None


def sample_skewness(xs):
    mean = statistics.fmean(xs)
    sd = statistics.pstdev(xs)
    return sum((x - mean) ** 3 for x in xs) / len(xs) / sd ** 3


def standard_gamma_tails(skew, t):
    """P(Z > t) and P(Z < −t) for Z a gamma law of skewness `skew` > 0, standardised (shape
    k = 4/skew², Z = (X − k)/√k): Simpson's rule on the density over each tail, 8 sd wide beyond
    the point (the mass past it is below 1e-12 for the skewness seen here)."""
    k = 4 / skew ** 2
    sd = math.sqrt(k)

    def density(x):
        return math.exp((k - 1) * math.log(x) - x - math.lgamma(k)) if x > 0 else 0.0

    def simpson(a, b, steps=4000):
        h = (b - a) / steps
        return h / 3 * sum((1 if i in (0, steps) else 4 if i % 2 else 2) * density(a + i * h) for i in range(steps + 1))

    return simpson(k + t * sd, k + (t + 8) * sd), simpson(max(0.0, k - (t + 8) * sd), max(0.0, k - t * sd))


def batches():
    """The batches the full-scale runs were made in (reports/fl-full/batches.json): each its GPU, how
    many runs shared it side by side, what it was for, its runs ("NAME-sSEED") and, where recorded,
    the wall time of its runs."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reports", "fl-full", "batches.json")
    return json.load(open(path)) if os.path.exists(path) else []


def batch_of(r, listed):
    """The batch a run was made in, or None where batches.json does not list it."""
    run = "{}-s{}".format(r["name"], r["seed"])
    return next((b for b in listed if run in b["runs"]), None)


def device_minutes_per_run(results, clients):
    """Device minutes one 100-round run of `clients` clients takes: its wall time over the runs that
    shared the GPU in its batch, the mean over the finished runs of that size (the H200's where it
    has some)."""
    listed = batches()
    done = [(r, batch_of(r, listed)) for r in results if not r.get("failure") and r["summary"].get("seconds")
            and int(r["opts"].get("clients", 50)) == clients]
    done = [(r, b) for r, b in done if b is not None]
    pool = [(r, b) for r, b in done if b["gpu"] == "H200"] or done
    if not pool:
        return None
    return statistics.mean(r["summary"]["seconds"] / b["side_by_side"] for r, b in pool) / 60


def cost_section(results):
    lines = ["## Cost", "", "The runs were made in batches, each on one GPU with its runs side by side:", ""]
    listed = batches()
    for b in listed:
        rows = [x for r in results if batch_of(r, listed) is b for x in r["rows"]]
        if not rows:
            continue
        wall = " Its runs took {} s of wall time.".format(b["wall_seconds"]) if b.get("wall_seconds") else ""
        lines.append("- {} ({} runs, {} on an {}, {} side by side): {:.2f} s a round (training {:.2f}) over {} "
                     "rounds, so about {:.2f} device-seconds a round per run.{}".format(
                         b["note"], len(b["runs"]), "all" if len(b["runs"]) == b["side_by_side"] else "made",
                         b["gpu"], b["side_by_side"], statistics.mean(x["seconds"] for x in rows),
                         statistics.mean(x["seconds_training"] for x in rows), len(rows),
                         statistics.mean(x["seconds"] for x in rows) / b["side_by_side"], wall))
    unlisted = sorted("{}-s{}".format(r["name"], r["seed"]) for r in results if batch_of(r, listed) is None)
    if unlisted:
        lines.append("- in no batch of reports/fl-full/batches.json: " + ", ".join(unlisted))
    lines += ["", "One run alone takes about 0.33 s a round on an H100 (docs/benchmarks.md). GPU training is not "
              "bit-reproducible run to run (cuDNN's nondeterministic kernels): exp4-n50-corbin at seed 1234, made "
              "twice, kept 87.29 % (the run reported) and 87.48 % the second time; the seeds' spread, not a rerun, "
              "is what the rule measures.", ""]
    return lines


def not_run_section(named, decided, grid_missing, results, not_run):
    """What a reader would run next, in runs and device minutes: the next look's seeds of every
    pending comparison, the λ grid's other seeds, and anything configured but never run."""
    wanted = {}  # run name -> seeds
    for claim, _, parts in decided:
        for _, _, items in parts:
            for a, b, looks, order in items:
                if order not in ("pending", "missing"):
                    continue
                n = LOOKS[len(looks)] if len(looks) < len(LOOKS) else LOOKS[-1]
                for side in (a, b):
                    for run in filter(None, (side.get("run"), side.get("minus_run"))):
                        have = {r["seed"] for r in named.get(run, []) if accuracy_pct(r) is not None}
                        wanted.setdefault(run, set()).update(s for s in SEQUENTIAL_SEEDS[:n] if s not in have)
    for name, seeds in grid_missing:
        wanted.setdefault(name, set()).update(seeds)
    for mech in LAMBDA_GRID_MECHANISMS:
        for lam in LAMBDA_GRID:
            name = "exp1-{}-l{}".format(mech, lam)
            have = {r["seed"] for r in named.get(name, [])}
            wanted.setdefault(name, set()).update(s for s in SEQUENTIAL_SEEDS[:LOOKS[0]] if s not in have)
    for name in not_run:  # configured and never run: the first look's seeds
        wanted.setdefault(name, set()).update(SEQUENTIAL_SEEDS[:LOOKS[0]])
    wanted = {k: v for k, v in wanted.items() if v}
    lines = ["## Not run", ""]
    if not wanted and not not_run:
        return lines + ["Nothing: every run the rule and the grid ask for is here.", ""]

    def size(name):
        return int(name.split("-")[1][1:]) if name.startswith("exp4-n") else 50

    total = 0.0
    rows = []
    for name in sorted(wanted, key=lambda n: (size(n), n)):
        per = device_minutes_per_run(results, size(name))
        minutes = None if per is None else per * len(wanted[name])
        total += minutes or 0
        rows.append("| {} | {} | {} |".format(name, ", ".join(map(str, sorted(wanted[name], key=seed_rank))),
                                              "—" if minutes is None else "{:.1f}".format(minutes)))
    lines += ["To take every pending comparison to its next look, to give each mechanism's best λ the rule's "
              "first three seeds, to run the λ grid's other seeds and the authors' baselines (base-*), these runs "
              "are missing (device minutes: the mean wall time of a 100-round run of that size on the H200 over the "
              "runs sharing it in its batch). About {:.0f} device "
              "minutes in all, plus about 2 to start a machine and build. `.ci/cuda/runs` builds corbin-fl and makes "
              "the configured runs within a time limit (`analysis/fl_experiments.py --scale full --device cuda "
              "--jobs 16`, skipping finished runs; named runs in batches, the first batch's first: `.ci/cuda/runs "
              "RUN ... --then RUN ...`); a pending comparison's next look is configured by raising its runs' count in "
              "`RULE_SEEDS` to that look's n, a λ grid seed in `LAMBDA_GRID_SEEDS`; each batch made is recorded in "
              "reports/fl-full/batches.json.".format(total), "",
              "| run | seeds | device minutes |", "|---|---|---|"] + rows + [""]
    return lines


def gap_section():
    """The accuracy gap to the authors' code after 2 rounds (issue: 73.0 % there, 68.3 % here)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reports", "fl-full", "gap-2-rounds.json")
    if not os.path.exists(path):
        return ""
    data = json.load(open(path))
    lines = ["## The gap to the authors' code after 2 rounds", "",
             "Reported: after 2 rounds (50 clients, CorBin-FL, d = 5, ε = 1, λ = 1) the authors' code reached "
             "{authors} % and corbin {corbin_reported} %, one run each. Re-run here on the GPU with five seeds (the "
             "authors' 0, 42, 100, 1234, 5678), test accuracy after round 2:".format(**data), "",
             "| normalisation | per seed | mean ± sd |", "|---|---|---|"]
    for name, label in (("half", "corbin's: (x − 0.5)/0.5"), ("mnist", "the authors': MNIST's (0.1307, 0.3081)")):
        values = data["accuracy"][name]
        lines.append("| {} | {} | {:.2f} ± {:.2f} |".format(label, ", ".join("{:.2f}".format(v) for v in values),
                                                          statistics.mean(values), statistics.stdev(values)))
    lines += ["", data["explanation"]]
    return "\n".join(lines)


def main():
    global SCALE, REGISTRY_SOURCE, CORBIN
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", choices=sorted(SCALES), default="reduced")
    p.add_argument("--out", default=os.path.join(here, "..", "reports"))
    p.add_argument("--corbin", default=os.path.join(here, "..", "build", "analysis", "corbin"))
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--stacked-conv", choices=["grouped", "gemm"], help="passed to corbin fl")
    p.add_argument("--data", help="MNIST-format directory (default: corbin fl's)")
    p.add_argument("--jobs", type=int, default=1, help="runs side by side (default 1)")
    p.add_argument("--deadline", type=float, help="seconds: start no run expected to end later, stop then")
    p.add_argument("--registry", help="corbin executable whose `corbin mechanisms --json` lists the mechanisms "
                   "(default: --corbin; corbin and corbin-fl both list them)")
    p.add_argument("--only", nargs="*", help="experiments to run (1 2 3 4 5 7 base niid); default all")
    p.add_argument("--names", nargs="+", help="runs to make, by name (e.g. exp1-ldp), in this order; default every "
                   "run of the experiments --only keeps")
    p.add_argument("--seeds", nargs="*", type=int, help="default: the scale's")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--runs-only", action="store_true", help="run, and write no report")
    mode.add_argument("--report-only", action="store_true", help="report the runs already there")
    mode.add_argument("--dry-run", action="store_true", help="list the runs, their state and commands; run nothing")
    p.add_argument("--shard", help="i/N: only the selected runs k with k mod N = i, and no report (default in a Slurm "
                   "array task: its SLURM_ARRAY_TASK_ID and _COUNT; none: every run)")
    args = p.parse_args()
    SCALE = SCALES[args.scale]
    if args.report_only and args.shard not in (None, "none"):
        bad_input("--shard is '{}', but must be absent with --report-only (the report covers every run "
                  "there)".format(args.shard))
    # The report step is never sharded (a Slurm array task's variables are ignored there).
    args.shard = None if args.report_only else shard_to_run(args.shard, os.environ)
    if args.jobs < 1:
        sys.exit("fl experiments: --jobs {} must be at least 1".format(args.jobs))
    if not (args.report_only or args.dry_run) and not os.access(args.corbin, os.X_OK):
        sys.exit("fl experiments: --corbin {} is not an executable (build first: bash .ci/setup)".format(args.corbin))
    REGISTRY_SOURCE = args.registry or registry_executable(args.corbin)
    CORBIN = args.corbin
    REGISTRY.update(load_registry(REGISTRY_SOURCE))
    runs = experiments_full() if args.scale == "full" else experiments()
    if args.names:
        if not (args.runs_only or args.dry_run):
            bad_input("--names needs --runs-only or --dry-run (a report covers every run, not those named)")
        unknown = [n for n in args.names if n not in {name for _, name, _ in runs}]
        if unknown:
            bad_input("--names has {}, which is no run of --scale {}".format(", ".join(unknown), args.scale))
    if args.dry_run:
        dry_run(args, runs)
        return
    os.makedirs(os.path.join(args.out, SCALE["dir"]), exist_ok=True)
    results = collect(args, runs) if args.report_only else run_all(args, runs)
    if args.shard is not None:
        print("fl experiments: shard {}/{} done; once every shard is, --report-only writes the report".format(
            *args.shard))
        return
    if args.runs_only:
        return
    write_csv(results, os.path.join(args.out, SCALE["dir"], "results.csv"))
    if args.scale == "full":
        report_full(results, args.out)
        print("wrote", os.path.join(args.out, "fl-full.md"))
    else:
        report(results, args.out)
        print("wrote", os.path.join(args.out, "fl.md"))


if __name__ == "__main__":
    main()
