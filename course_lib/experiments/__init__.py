"""Seeded runs that return data (never figures): one batched trainer, sweeps, stored runs, and the
lessons' measurements. Imports course_lib.model and the base modules only."""
