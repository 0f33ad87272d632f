"""Board clocks: the pure clock core (``clocks.core.clock``) and its Channels shell."""
