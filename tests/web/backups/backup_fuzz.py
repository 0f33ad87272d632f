"""What the backup fuzz tests share: spoil one place of a good document, then import it.

The reader must refuse a spoiled document with ``BackupError`` and write nothing, or import
it whole (junk that happens to be valid): never anything else."""

import contextlib
import copy

from backups import document


def spoiled(backup: dict, start: list, path: list, junk) -> dict:
    """A copy of ``backup`` with ``junk`` put at ``path`` below ``start`` (keys from the top);
    where the path leaves the document the junk goes where it stops."""
    copied = copy.deepcopy(backup)
    target = copied
    for key in [*start, *path[:-1]]:
        try:
            target = target[key]
        except (KeyError, IndexError, TypeError):
            break
    with contextlib.suppress(TypeError, IndexError):
        target[path[-1]] = junk
    return copied


def imported_whole_or_refused(data: dict, counts):
    """The event ``data`` imports as, or None when refused; a refusal must have changed none
    of the ``counts()``."""
    before = counts()
    try:
        return document.import_event(data)
    except document.BackupError:
        assert counts() == before
        return None
