"""What opens a board and what hangs on it: board tokens, other apps' links for the event's
pages, and what other apps keep on a board before it is removed."""
