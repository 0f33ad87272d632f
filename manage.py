#!/usr/bin/env python
"""Django's command-line utility for the Ingenious tournament director."""
import os
import sys

NOT_MIGRATED = (
    "The database has no tables yet: run `make run` or `python manage.py migrate` first.\n"
)


def _missing_tables(exc: BaseException) -> bool:
    """SQLite says "no such table", PostgreSQL 'relation "…" does not exist'."""
    text = str(exc)
    return "no such table" in text or ("relation" in text and "does not exist" in text)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    from django.core.management import execute_from_command_line
    from django.db import DatabaseError

    try:
        execute_from_command_line(sys.argv)
    except DatabaseError as exc:
        if not _missing_tables(exc):
            raise
        sys.stderr.write(NOT_MIGRATED)
        sys.exit(1)


if __name__ == "__main__":
    main()
