"""Words and numbers in the reader's language: the cores' messages, the event's history, the
tiebreaks' definitions, and how VP and levels read."""
