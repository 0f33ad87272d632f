"""The Django project package and the event app: events, players, rounds, results, standings."""
