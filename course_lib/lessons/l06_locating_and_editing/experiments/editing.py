"""Locating and rewriting a fact (lesson 6's editing part; Meng et al. 2022, "ROME"): the model
the lesson traces and edits.

The model is lesson 5's recipe trained on a corpus that states every fact two ways ("the capital
of velor is quen ." and "in velor the capital is quen ."), so that an edit made with one phrasing
can be asked with the other. Causal tracing is in the core (``experiments.tracing``), and so are
the edits (``experiments.edit_methods``: the rank-one update, ROME's recipe, knowledge neurons,
fine-tuning and FT+L) and their sweep (``experiments.edit_sweep``): lesson 9 uses them too.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from course_lib.core.experiments.facts import Corpus
from course_lib.core.experiments.memory import SETTINGS, corpus_of, load_model
from course_lib.core.experiments.stored_file import DATA
from course_lib.core.model.language_model import LanguageModel

PARAPHRASED = replace(SETTINGS, paraphrases=True)  # lesson 5's recipe, both phrasings
# python -m course_lib.lessons.l06_locating_and_editing.experiments.editing retrains it (about 3 minutes)
PARAPHRASED_FILE = DATA / "fact_lm_paraphrased.npz"


@lru_cache(maxsize=1)
def paraphrased_model() -> tuple[LanguageModel, Corpus]:
    """The stored model trained on every fact in both phrasings, and its corpus, loaded once;
    callers must not train or edit it."""
    model, settings, _ = load_model(PARAPHRASED_FILE)
    return model, corpus_of(settings)


if (
    __name__ == "__main__"
):  # python -m course_lib.lessons.l06_locating_and_editing.experiments.editing: retrain the model
    import time

    from course_lib.core.experiments.memory import save_model, train_language_model

    start = time.perf_counter()
    trained, curve = train_language_model(PARAPHRASED)
    size = save_model(trained, PARAPHRASED, curve, PARAPHRASED_FILE)
    print(
        f"trained in {time.perf_counter() - start:.0f} s; {size / 1e3:.0f} kB in {PARAPHRASED_FILE}"
    )
