"""The course's developer tools, kept out of the learner's package (``course_lib``): the static
site's builder (``make site``), the two editions' sync (``make editions``) and the notebook
executor (``make notebooks``). They read the repository's layout, so they run from a clone, as
``python -m devtools.<tool>``; no notebook imports them."""
