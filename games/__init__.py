"""Ingenious games: the pure rules engine (``games.engine``) and game records in the event."""
