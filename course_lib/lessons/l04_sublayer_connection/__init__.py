"""Lesson 4's own code: its experiments, figures, demos, checkers and Chinese catalogue."""
