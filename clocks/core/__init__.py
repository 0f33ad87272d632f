"""The pure board clock (no Django): the state machine, its vocabulary, time controls, and
reading a stored state back from a file nobody vouches for."""
