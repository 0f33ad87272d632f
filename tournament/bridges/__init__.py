"""The bridges between the database and the pure cores (pairing, standings), and the random
results of the benchmarks and property tests."""
