"""A lesson's questions (``course_lib.core.questions``) as forms that answer in the page, with no kernel:
the same choices and replies as the notebook's widget, in the page's language. The page's script
(site_assets/quiz.js) shows the reply to the chosen answer, keeps each answer in the browser's
local storage and counts the page's questions answered correctly."""

from __future__ import annotations

import html
import json
import re

from course_lib.core.i18n import tr
from course_lib.core.questions import question
from devtools.site.texts import word

ASK = re.compile(r'\bask\("([a-z0-9-]+)"\)')  # a notebook cell that asks a question


def asked(source: str) -> str | None:
    """The key of the question a code cell asks, or None."""
    found = ASK.search(source)
    return found.group(1) if found else None


def question_html(key: str, edition: str) -> str:
    """The question ``key`` as a form in ``edition``'s language; its replies ride along as JSON."""
    q, esc = question(key), html.escape
    prompt = q.text_in(edition)
    texts = [tr(c.text, edition) for c in q.choices]
    replies = [q.reply(i, edition)[1] for i in range(len(q.choices))]
    name = f"question-{key}"
    options = "".join(
        f'<label class="question-choice"><input type="radio" name="{name}" value="{i}"> '
        f"{esc(text)}</label>"
        for i, text in enumerate(texts)
    )
    data = json.dumps({"answer": q.answer, "replies": replies}, ensure_ascii=False)
    data = data.replace("</", "<\\/")  # no "</script>" inside the script
    return (
        f'<form class="site-question" data-question="{esc(key)}" data-kind="{q.kind}">'
        f'<p class="question-prompt"><strong>{esc(prompt)}</strong></p>'
        f'<fieldset><legend class="visually-hidden">{esc(prompt)}</legend>{options}</fieldset>'
        f'<button type="submit">{esc(word(edition, "check"))}</button>'
        f'<p class="question-reply" aria-live="polite"></p>'
        f'<script type="application/json" class="question-data">'
        f"{data}</script></form>"
    )


def progress_html(edition: str) -> str:
    """Where the page's script says how many of its questions the reader answered correctly."""
    template = html.escape(word(edition, "progress"))
    return f'<p class="quiz-progress" data-template="{template}" aria-live="polite"></p>'
