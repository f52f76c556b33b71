"""What the repositories raise besides database failures."""

from __future__ import annotations


class NotFound(LookupError):
    """No game or sheet has that id."""


class Conflict(Exception):
    """Someone else wrote first: the action or entry at that position already exists.

    ``current`` is how far the log really is (its last ``seq``, or the sheet's version), so the
    caller can reload and tell the user.
    """

    def __init__(self, current: int) -> None:
        super().__init__(f"conflict: the log is at {current}")
        self.current = current
