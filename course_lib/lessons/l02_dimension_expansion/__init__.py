"""Lesson 2's own code: its experiments, figures, demos, checkers and Chinese catalogue."""
