"""Serving the course to a class, and observing what a class costs (not in the learner's install)."""
