"""Printed documents (PDF): pairings, standings, crosstable, scoresheets, result slips."""
