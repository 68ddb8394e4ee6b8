"""python -m course_lib.lessons.l10_real_multilingual_ffn.experiments activations|controls|dictionary:
rebuild one of the lesson's stored files. One pass of the model serves two of them:

- ``activations``: the pass over the corpus (``activations.py``, 19 minutes on a shared two-core
  machine), and from its layer-LAYER units the dictionary (``dictionary.py``, with its lookup
  baseline);
- ``controls``: the second pass (``controls.py``, about half an hour; after ``activations``), and
  from it the dictionary's lookup baseline again, on that pass's units;
- ``dictionary``: the dictionary alone, from a pass over the layers it needs (about ten minutes).
"""

import sys

from course_lib.core.experiments.stored_file import rebuild
from course_lib.lessons.l10_real_multilingual_ffn.experiments import (
    activations,
    controls,
    dictionary,
)
from course_lib.lessons.l10_real_multilingual_ffn.experiments.corpus import stored_corpus


def first_pass() -> int:
    corpus = stored_corpus()
    tally, tokens, text_of, hidden = activations.corpus_pass(corpus, keep=dictionary.LAYER)
    dictionary.save(hidden, text_of, len(corpus.english), dictionary.slice_losses(corpus))
    del hidden
    return activations.save(corpus, tally, tokens, text_of)


def second_pass() -> int:
    corpus = stored_corpus()
    arrays, hidden, text_of = controls.controls_pass(corpus, keep=dictionary.LAYER)
    dictionary.add_lookup(hidden, text_of, len(corpus.english))
    del hidden
    return controls.save(arrays, corpus)


def dictionary_alone() -> int:
    corpus = stored_corpus()
    layers = dictionary.LAYER + 1
    _, _, text_of, hidden = activations.corpus_pass(corpus, layers=layers, keep=dictionary.LAYER)
    return dictionary.save(hidden, text_of, len(corpus.english), dictionary.slice_losses(corpus))


COMMANDS = {
    "activations": (first_pass, activations.FILE, "nothing (one pass of the model over the corpus) "
                    "and the dictionary"),
    "controls": (second_pass, controls.FILE, "nothing (a second pass of the model over the corpus) "
                 "and the dictionary's lookup"),
    "dictionary": (dictionary_alone, dictionary.FILE, "the dictionary"),
}  # fmt: skip

if len(sys.argv) != 2 or sys.argv[1] not in COMMANDS:
    raise SystemExit(f"usage: python -m {__package__} {'|'.join(COMMANDS)}")
rebuild(*COMMANDS[sys.argv[1]])
