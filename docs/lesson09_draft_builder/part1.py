CELLS = []



md(r'''
# Lesson 9 · One memory, two languages (跨语言)

Lesson 5's model learned 48 invented facts in one language. Real language models learn their facts
from text in many languages, and whether they keep **one memory** for a fact stated in two
languages, or one per language, is a question with measured answers that disagree. Chen et al.
2024 find **language-independent knowledge neurons** (语言无关神经元) in multilingual models: units
that carry a fact in English and in Chinese alike. Tang et al. 2024 find **language-specific
neurons** (语言特定神经元): a few units, mostly in the first and last layers, that a language
cannot do without. An edit made in one language reaches the other only in part (**cross-lingual
editing**, 跨语言编辑; Wang et al. 2023, Xu et al. 2023), and Anthropic (2025) see features shared
across languages grow with a model's size.

Here you ask the question of a model you can take apart: lesson 5's model, trained on its facts in
English and in Chinese.

**You will be able to**
- state a fact in two languages to one model, tokenised as each language is (English by word,
  Chinese by character), and check that it learned both;
- test "one memory or two" three ways: the units that carry a fact in each language, what erasing
  one language's units does to the other, and how alike the model reads one entity in both;
- apply Tang et al.'s test for language-specific neurons (LAPE) and their perplexity test;
- try to join the two memories with a bilingual dictionary, and say what that intervention shows;
- edit a fact in one language with lesson 6's methods at matched strength, and measure whether
  the edit reaches the other;
- test whether a mixture of experts routes by language.

**Prerequisites:** lesson 5 (attribution, knowledge neurons, the fact model); lesson 6 for
tracing and the edits (sections 4 and 5); lesson 7 for the experts (section 6).
**Time:** about 60 minutes.
''')

code(r'''
%matplotlib inline
import numpy as np
import torch

from course_lib import seed_everything
from course_lib.core.claims import claim, show, show_source, show_table
from course_lib.core.experiments import edit_measures, edit_sweep
from course_lib.core.i18n import tr
from course_lib.core.widgets import build
from course_lib.core.widgets.quiz import ask
from course_lib.lessons import l09_two_languages as lesson
from course_lib.lessons.l09_two_languages.papers import BANDARKAR_2025, WANG_2023

seed_everything(0)
torch.set_num_threads(1)  # small models: one thread beats waking the other
bilingual, models = lesson.bilingual, lesson.bilingual_model
demo = {d.name: d for d in lesson.demos.demos()}
''')

md(r'''
## 1. The facts in two languages

The corpus is lesson 5's, line for line, and beside it its Chinese twin: each fact stated four
times in a Chinese template, "图门的首都是基洛。" ("the capital of tumen is kriloth"), and as many
Chinese filler lines (我们春天去了图门。) that state no fact. Every invented name has a
two-character Chinese form, a transliteration; every shared answer its Chinese word:
''')

code(r'''
names = list(bilingual.ENTITIES.items())
capitals = list(bilingual.CAPITALS.items())
show_table(["entity", "中文", "capital", "中文"],
           [[*names[i], *capitals[i]] for i in range(12)])  # fmt: skip
answers = [bilingual.COLOURS, bilingual.ANIMALS, bilingual.FOODS]
show_table(["colour", "中文", "animal", "中文", "food", "中文"],
           [[x for words in answers for x in (words[i], bilingual.WORDS[words[i]])]
            for i in range(8)])  # fmt: skip
''')

md(r'''
English is read one word per token, as in lesson 5; Chinese one character per token, as most
tokenizers built for Chinese read it. So the two statements of one fact share no token but the
start: the subject comes first in Chinese and fourth in English, and an answer of two characters
is two tokens. The model is asked for the next token, so a Chinese answer is its first character;
within each relation the first characters differ, so that one token names one answer:
''')

code(r'''
corpus = bilingual.bilingual_corpus()  # facts stated in English; their paraphrase: Chinese
zh = bilingual.in_language(corpus, "zh")  # the same corpus, facts stated in Chinese
for view in (corpus, zh):
    fact = view.facts[0]
    show("{sentence}  ->  prompt of {n} tokens, answer token {answer!r}, subject at {where}",
         sentence=" ".join(fact.sentence), n=len(fact.prompt) + 1, answer=fact.answer,
         where=list(fact.subject_positions))  # fmt: skip
english_lines = sum(1 for line in corpus.lines if line[0] < "\u2e80")
show("{lines} lines, {en} English and {zh} Chinese; {vocab} tokens in the vocabulary",
     lines=len(corpus.lines), en=english_lines, zh=len(corpus.lines) - english_lines,
     vocab=len(corpus.vocabulary))  # fmt: skip
''')

md(r'''
The model is lesson 5's, unchanged: two layers, d_model 64, an FFN of 256 ReLU units per layer,
600 full-batch Adam steps with warm-up and cosine decay. Training it on twice lesson 5's lines
takes about four minutes on one core, so it was trained once per seed of its initial weights
(three seeds, one corpus) and stored; `python -m
course_lib.lessons.l09_two_languages.experiments.bilingual_model` retrains them. Does it know each
fact in both languages?
''')

code(r'''
seeds = models.SEEDS
known = {seed: models.known(models.stored_model(seed)) for seed in seeds}
for seed, right in known.items():
    show("seed {seed}: {en} of 48 facts right in English, {zh} of 48 in Chinese",
         seed=seed, en=int(right["en"].sum()), zh=int(right["zh"].sum()))  # fmt: skip
claim("in every seed the model answers all 48 facts in both languages",
      all(r["en"].all() and r["zh"].all() for r in known.values()))  # fmt: skip
''')

md(r'''
## 2. One memory or two?

If one memory serves both languages, the units that carry a fact asked in English should carry it
asked in Chinese too. Lesson 5's attribution scores every unit of both FFNs for one prompt: p(answer)
as trained minus p(answer) with that one unit zeroed at the prompt's last word (Dai et al.'s
integral, exact here). Take each fact's ten highest-scoring units of the 512 for its English prompt,
and ten for its Chinese prompt, and count the units the two lists share:
''')

code(r'''
memory = lesson.one_memory
show_source(memory.overlap_matrix)
model = models.stored_model(0)
top = memory.tops(model, corpus)  # {"en": (48, 10), "zh": (48, 10)}: flat unit indices
shared = memory.overlap_matrix(top["en"], top["zh"])  # [i, j]: English fact i, Chinese fact j
same, different = np.diag(shared), shared[~np.eye(48, dtype=bool)]
show("same fact: {s:.2f} shared units of 10 on average; two different facts: {d:.2f}; ten random "
     "units of 512: {c:.2f}", s=same.mean(), d=different.mean(), c=10 * 10 / 512)  # fmt: skip
''')

md(r'''
Both are far above what random units would share, and the same fact shares no more than two
different facts. A fact's top units include units that help every answer (lesson 5 found units that
serve most facts), so two facts share some; the question is whether the same fact shares more. A
permutation test answers it: pair each English fact with a random Chinese fact, 1,000 times, and
see how often the mean is at least the same-fact mean:
''')

code(r'''
reports = {seed: memory.report(models.stored_model(seed), corpus) for seed in seeds}
for seed, r in reports.items():
    show("seed {seed}: same fact {s:.2f}, different facts {d:.2f}, permutation p = {p:.2f}",
         seed=seed, s=r.overlap.same.mean(), d=r.overlap.different.mean(),
         p=r.overlap.p_value)  # fmt: skip
claim("in every seed, the same fact's two statements share no more top units than chance "
      "pairings of facts do (permutation p above 0.05)",
      all(r.overlap.p_value > 0.05 for r in reports.values()))  # fmt: skip
claim("and in every seed both are above what random units share",
      all(r.overlap.different.mean() > 2 * r.overlap.chance for r in reports.values()))  # fmt: skip
''')

md(r'''
A test that finds nothing is worth only as much as its power to find something. Lesson 6's model
was trained on each fact in two English phrasings ("the capital of tumen is", "in tumen the capital
is"); the same test on its two phrasings:
''')

code(r'''
two_phrasings = memory.phrasings_report()
show("two English phrasings: same fact {s:.2f}, different facts {d:.2f}, permutation p = {p:.3f}",
     s=two_phrasings.same.mean(), d=two_phrasings.different.mean(),
     p=two_phrasings.p_value)  # fmt: skip
claim("the test finds one memory where there is one: two phrasings of a fact share more top "
      "units than two facts do (p below 0.01)",
      two_phrasings.p_value < 0.01 and two_phrasings.same.mean() > two_phrasings.different.mean())
''')
