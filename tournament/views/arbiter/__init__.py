"""The arbiter's pages, one module per concern: the event, its players, rounds, results."""
