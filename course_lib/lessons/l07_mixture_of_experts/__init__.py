"""Lesson 7's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=7,
    topic="mixture_of_experts",
    title=N_("Mixture of experts: the FFN split into experts (混合专家模型)"),
    minutes=90,
    goal=N_(
        "split the FFN into experts with a router, count Mixtral's and DeepSeek-V3's parameters in total and per token, see when experts go unused and two cures for it, and test whether a small fact model's routers sort the facts by kind"
    ),
    mechanisms=("route", "MixtureOfExperts.forward", "balance", "deepseek_step"),
)

__getattr__, __dir__ = submodules(__name__)
