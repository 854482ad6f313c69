"""Files the Python side writes (figures, CSVs, reports), as the toolkit's C++ writes them
(src/corbin/io/files.cpp): only over an absent path or a regular file, never through a symbolic
link, a FIFO or a device (renaming over a link would replace the link, writing through it would
change what it points at), and atomically: into a temporary beside the path (created anew, not
through a link, with mode 0644 less the umask), flushed and fsync'ed, renamed over it, the
directory fsync'ed where the file system can. A reader sees the old file or the new one, never a
part; a failure leaves the path as it was, removes the temporary and raises OSError naming the
path."""
import errno
import io
import os
import secrets
import stat


def check_output_file(path):
    """Raises OSError unless `path` is absent or a regular file (lstat: a link is refused, not followed)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise OSError("{}: not a regular file (a link, a directory, a FIFO or a device); not written".format(path))


def _temporary_beside(path):
    """A new file beside `path` (O_EXCL | O_NOFOLLOW, 0644 less the umask, as the C++ writer's
    open): its name and descriptor. The name stays within the file system's 255 bytes."""
    directory, name = os.path.split(os.path.abspath(path))
    stem = "." + name.encode("utf-8")[:200].decode("utf-8", "ignore")
    for _ in range(100):
        temporary = os.path.join(directory, "{}.{}.tmp".format(stem, secrets.token_hex(6)))
        try:
            return temporary, os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                                      0o644)
        except FileExistsError:
            continue
    raise OSError("{}: no temporary name free beside it".format(path))


def sync_directory(directory):
    """fsync of a directory, so that a rename in it is on disk; a file system that cannot sync a
    directory (EINVAL) makes the rename as durable as it allows, as in the C++."""
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(descriptor)
    except OSError as e:
        if e.errno != errno.EINVAL:
            raise
    finally:
        os.close(descriptor)


def write_atomically(path, data):
    """Writes `data` (bytes, or str as UTF-8) to `path` atomically."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    check_output_file(path)
    try:
        temporary, descriptor = _temporary_beside(path)
    except OSError as e:
        raise OSError("{}: cannot write beside it ({})".format(path, e.strerror or e)) from e
    try:
        with os.fdopen(descriptor, "wb") as f:  # owns the descriptor from here, closing it on error too
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise
    sync_directory(os.path.dirname(os.path.abspath(path)))


def save_figure(fig, path, **kwargs):
    """fig.savefig(path, ...) through write_atomically (the format from the path's extension)."""
    check_output_file(path)  # before drawing it
    buffer = io.BytesIO()
    fig.savefig(buffer, format=os.path.splitext(path)[1].lstrip(".") or "png", **kwargs)
    write_atomically(path, buffer.getvalue())
