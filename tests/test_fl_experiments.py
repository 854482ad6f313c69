"""analysis/fl_experiments.py without a GPU: --names keeps the runs named, in the order given, and
refuses what it cannot do in one line with exit status 2; the live check's gamma tails against
values computed apart (scipy.stats.gamma, shape 4/0.427²)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "analysis", "fl_experiments.py")
CORBIN = os.environ["CORBIN_CLI"]


def experiments(*args):
    return subprocess.run([sys.executable, SCRIPT, "--scale", "full", "--corbin", CORBIN] + list(args),
                          capture_output=True, text=True)


def dry_run_names(*names):
    proc = experiments("--dry-run", "--names", *names)
    assert proc.returncode == 0, proc.stderr
    # One line per run: experiment, run-sSEED, state, command.
    return [line.split()[1] for line in proc.stdout.splitlines() if line.split() and line.split()[0] in
            ("1", "2", "3", "4", "5", "7", "base", "niid")]


def test_names_keep_their_order():
    runs = dry_run_names("exp4-n500-ldp", "exp1-ldp")
    assert runs, "no runs listed"
    names = [run.rsplit("-s", 1)[0] for run in runs]
    # Every run of the first name before every run of the second, and nothing else.
    assert set(names) == {"exp4-n500-ldp", "exp1-ldp"}, names
    assert names == sorted(names, key=["exp4-n500-ldp", "exp1-ldp"].index), names
    # Each name with its rule's seeds (exp1-ldp to the last look: 10 seeds; exp4-n500-ldp to 6).
    assert names.count("exp1-ldp") == 10 and names.count("exp4-n500-ldp") == 6, names


def test_names_refused():
    unknown = experiments("--dry-run", "--names", "exp1-ldp", "exp9-nothing")
    assert unknown.returncode == 2 and "--names" in unknown.stderr and "exp9-nothing" in unknown.stderr, unknown
    assert len(unknown.stderr.strip().splitlines()) == 1, unknown.stderr
    # A report covers every run: --names would write one of a few.
    report = experiments("--report-only", "--names", "exp1-ldp")
    assert report.returncode == 2 and "--names" in report.stderr, report
    assert len(report.stderr.strip().splitlines()) == 1, report.stderr


def test_gamma_tails():
    sys.path.insert(0, os.path.join(HERE, "..", "analysis"))
    import fl_experiments

    above, below = fl_experiments.standard_gamma_tails(0.427, 3)
    assert abs(above - 0.004733525921907226) < 1e-6 * 0.0047, above
    assert abs(below - 2.899943804667215e-05) < 1e-6 * 2.9e-5, below
    above2, below2 = fl_experiments.standard_gamma_tails(0.427, 2)
    assert abs(above2 - 0.03293605371292651) < 1e-6 * 0.033, above2
    assert abs(below2 - 0.010363409268769766) < 1e-6 * 0.0104, below2


if __name__ == "__main__":
    for name, f in list(globals().items()):
        if name.startswith("test_"):
            f()
            print("ok", name)
