"""Board clocks: the pure clock core (``clocks.clock``) and its Channels shell."""
