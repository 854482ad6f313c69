"""Files the Python side writes (figures, CSVs, reports), as the toolkit's C++ writes them
(src/corbin/io/files.hpp): only over an absent path or a regular file, never through a symbolic
link, a FIFO or a device (renaming over a link would replace the link, writing through it would
change what it points at), and atomically: into a temporary beside the path, flushed and
fsync'ed, renamed over it, the directory fsync'ed. A reader sees the old file or the new one,
never a part; a failure leaves the path as it was and raises OSError naming it."""
import io
import os
import stat
import tempfile


def check_output_file(path):
    """Raises OSError unless `path` is absent or a regular file (lstat: a link is refused, not followed)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise OSError("{}: not a regular file (a link, a directory, a FIFO or a device); not written".format(path))


def write_atomically(path, data):
    """Writes `data` (bytes, or str as UTF-8) to `path` atomically."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    check_output_file(path)
    directory = os.path.dirname(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        os.fchmod(descriptor, 0o644)  # as the C++ writer's files (mkstemp's are 0600)
        with os.fdopen(descriptor, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise
    directory_descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(directory_descriptor)
    finally:
        os.close(directory_descriptor)


def save_figure(fig, path, **kwargs):
    """fig.savefig(path, ...) through write_atomically (the format from the path's extension)."""
    check_output_file(path)  # before drawing it
    buffer = io.BytesIO()
    fig.savefig(buffer, format=os.path.splitext(path)[1].lstrip(".") or "png", **kwargs)
    write_atomically(path, buffer.getvalue())
