"""Lesson 7's own code: its experiments, figures, demos, checkers and Chinese catalogue."""
