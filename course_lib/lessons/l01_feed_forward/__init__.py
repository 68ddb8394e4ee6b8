"""Lesson 1's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=1,
    topic="feed_forward",
    title=N_("The feed-forward network (前馈网络)"),
    minutes=75,
    goal=N_(
        "build the FFN in PyTorch and NumPy, read its shapes and parameters, and place it after attention in the Transformer pipeline"
    ),
    mechanisms=("FeedForwardNN", "MyFeedForward", "attention_weights"),
)

__getattr__, __dir__ = submodules(__name__)
