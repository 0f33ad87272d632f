"""Games played online: dealing and playing them, the arbiter's online pages and commands,
and the plain-SQL reads of the move path."""
