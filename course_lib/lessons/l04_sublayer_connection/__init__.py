"""Lesson 4's own code: its experiments, figures, demos, checkers and Chinese catalogue.
Its parts load when first used: ``lesson.experiments``, ``lesson.figures``, ``lesson.demos``, …"""

from course_lib.core.discovery import submodules
from course_lib.core.i18n import N_
from course_lib.core.lesson import Lesson

LESSON = Lesson(
    number=4,
    topic="sublayer_connection",
    title=N_("The sublayer connection: residual + LayerNorm (子层连接)"),
    minutes=80,
    goal=N_(
        "write LayerNorm, RMSNorm and the sublayer connection, post-norm and pre-norm, equal to PyTorch's layers"
    ),
    mechanisms=(
        "layer_norm",
        "sublayer.rms_norm",
        "sublayer.SublayerConnection.forward",
        "pre_norm_connection",
        "pre_norm_encoder_layer",
    ),
)

__getattr__, __dir__ = submodules(__name__)
