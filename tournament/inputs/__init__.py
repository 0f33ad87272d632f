"""What comes in from outside, read and checked once: CSV, JSON, numbers and dates from
requests, names, and the limits of every field."""
