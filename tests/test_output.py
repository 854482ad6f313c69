"""The Python side's files (notebooks/corbin_output.py) as the C++ writes them: over an absent path
or a regular file only, never through a link, a FIFO or a directory, replaced atomically; and the
federated run's figures (notebooks/fl_figures.py) go through it."""
import json
import os
import stat
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import corbin_output  # noqa: E402
import fl_figures  # noqa: E402


def current_umask():
    """The process's umask, read without changing it (Linux: /proc/self/status)."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1], 8) for line in f if line.startswith("Umask:"))


def refused(call):
    try:
        call()
    except OSError as e:
        return str(e)
    raise AssertionError("accepted")


with tempfile.TemporaryDirectory() as d:
    # A new file, then one replaced: the content, the C++ writer's mode, no temporary left.
    path = os.path.join(d, "out.txt")
    corbin_output.write_atomically(path, "first\n")
    corbin_output.write_atomically(path, b"second\n")
    assert open(path).read() == "second\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644 & ~current_umask(), oct(os.stat(path).st_mode)
    assert os.listdir(d) == ["out.txt"], os.listdir(d)
    # The umask applies, as to the C++ writer's open(..., 0644).
    previous = os.umask(0o077)
    try:
        corbin_output.write_atomically(path, "private\n")
    finally:
        os.umask(previous)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, oct(os.stat(path).st_mode)
    corbin_output.write_atomically(path, b"second\n")
    # A long name (250 bytes, within the file system's 255) is written: the temporary's is shorter.
    long_name = os.path.join(d, "x" * 250)
    corbin_output.write_atomically(long_name, "long\n")
    assert open(long_name).read() == "long\n"
    os.remove(long_name)

    # Through a link: refused, the link and the file it points at untouched.
    victim = os.path.join(d, "victim.txt")
    with open(victim, "w") as f:
        f.write("keep\n")
    link = os.path.join(d, "link.txt")
    os.symlink(victim, link)
    assert "not a regular file" in refused(lambda: corbin_output.write_atomically(link, "x"))
    assert os.path.islink(link) and open(victim).read() == "keep\n"

    # A FIFO (a write would block, or feed a reader) and a directory: refused at once.
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    assert "not a regular file" in refused(lambda: corbin_output.write_atomically(fifo, "x"))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    os.mkdir(os.path.join(d, "dir"))
    refused(lambda: corbin_output.write_atomically(os.path.join(d, "dir"), "x"))

    # A failure while replacing leaves the old file and no temporary.
    real_replace = os.replace

    def failing_replace(src, dst):
        raise OSError("the disk is full")

    os.replace = failing_replace
    try:
        assert "the disk is full" in refused(lambda: corbin_output.write_atomically(path, "third\n"))
    finally:
        os.replace = real_replace
    assert open(path).read() == "second\n"
    assert sorted(os.listdir(d)) == ["dir", "fifo", "link.txt", "out.txt", "victim.txt"], os.listdir(d)

    # A figure is a PNG written the same way.
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    png = os.path.join(d, "figure.png")
    corbin_output.save_figure(fig, png, dpi=50)
    assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    assert "not a regular file" in refused(lambda: corbin_output.save_figure(fig, link))
    plt.close(fig)

    # The federated run's figures: written beside rounds.jsonl, and a planted link is refused
    # (its target untouched) rather than written through.
    run = os.path.join(d, "run")
    os.mkdir(run)
    rows = [{"round": k, "mechanism": "ldp", "clients": 4, "test_accuracy": 0.5 + k / 10,
             "validation_accuracy": 0.5 + k / 12, "test_loss": 1.0 / (k + 1)} for k in range(3)]
    with open(os.path.join(run, "rounds.jsonl"), "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in rows))
    fl_figures.main(run)
    assert {"accuracy.png", "loss.png"} <= set(os.listdir(run)), os.listdir(run)
    os.remove(os.path.join(run, "loss.png"))
    os.symlink(victim, os.path.join(run, "loss.png"))
    refused(lambda: fl_figures.main(run))
    assert open(victim).read() == "keep\n"

    # The privacy figure's caption agrees with its curves (was: a finite coordinate's curve under
    # "no finite ε certified in any round"), and says why with summary.json's reason.
    infinite = [dict(r, eps_upper_model="infinite", eps_upper_coordinate=0.5 * (r["round"] + 1),
                     eps_upper_model_ldpq_role=10.0 * (r["round"] + 1)) for r in rows]
    caption = fl_figures.privacy_caption(infinite)
    assert caption.startswith("the model: no finite ε certified in any round (drawn: "), caption
    assert "one coordinate" in caption and "a client on LDPQ every round" in caption, caption
    nothing = [dict(r, eps_upper_model="infinite", eps_upper_coordinate="infinite") for r in rows]
    assert fl_figures.privacy_caption(nothing) == "no finite ε certified in any round"
    assert fl_figures.privacy_caption([dict(r, eps_upper_model=1.0 + r["round"]) for r in rows]) is None
    reason = "no finite ε is certified: client 1 as a pair's member ... (S1): outputs its neighbour cannot give have probability > δ"
    fig, ax = plt.subplots()
    fl_figures.plot_privacy(infinite, ax, None, reason)
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 1 and " ".join(texts[0].split()) == caption + " " + reason, texts  # wrapped, whole
    assert {line.get_label() for line in ax.get_lines()} == {label for _, label in fl_figures.PRIVACY_SERIES[1:]}
    plt.close(fig)
    with open(os.path.join(run, "rounds.jsonl"), "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in infinite))
    with open(os.path.join(run, "summary.json"), "w") as f:
        json.dump({"privacy": {"infinite_because": reason}}, f)
    os.remove(os.path.join(run, "loss.png"))
    fl_figures.main(run)
    assert "privacy.png" in os.listdir(run), os.listdir(run)

print("python output: all checks passed")
