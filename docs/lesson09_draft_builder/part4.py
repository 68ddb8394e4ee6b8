CELLS = []

md(r'''
## 5. Edit in one language, ask in the other

Lesson 6's six edits, each made with one language's prompt only: the rank-one edit at layer 1's
last word (where tracing points), ROME and the plain rank-one edit at layer 0's subject, knowledge
neurons, fine-tuning W2 and FT+L. Each fact is rewritten to another answer of its relation, and
then asked in both languages, each in its own words: an English edit tumen → kriloth to vosk is
asked "图门的首都是" and read with the Chinese forms of the old and the new answer.

Lesson 6's metrics, CounterFact's, keep their definitions; only the paraphrase changes: the
"other phrasing" is now the other language's prompt. So its paraphrase score, named here the
**cross-lingual score** (CS), is the share of edits after which the other language's prompt gives
the new answer a higher probability than the old. Beside it, the share whose top answer there is
the new one: the nearest to Wang et al.'s exact match (EM), which scores every token of the answer
(here one English word, or the first of a Chinese answer's characters).

Every edit was made at each of its method's six strengths, in every model (three seeds, without
and with the dictionary), both ways: 3,456 edits per model set, stored (`python -m
course_lib.lessons.l09_two_languages.experiments.cross_edits [dictionary]` remakes them, about ten
minutes each). The methods are compared at **matched strength**, as in lesson 6: each edit at the
weakest of its six strengths whose p(new) after the edited prompt reaches 0.9 (an edit that never
does is taken at its strongest, and counted).

### Exercise 4 · predict: does an English edit reach Chinese?

Seed 0's model, its 48 facts each rewritten with the English prompt by the rank-one edit at layer
1's last word, at matched strength. For how many of the 48 does the Chinese prompt now answer the
new answer (its top token)?
''')

code(r'''
def crossing_edits():
    raise NotImplementedError  # return how many of the 48, a number from 0 to 48


rank_one = lesson.cross_edits.results(edit_sweep.RANK_ONE, "en")[0]  # seed 0: (48, 6, metrics)
at_match, _ = edit_measures.first_reaching(rank_one, 0.9)
crossed = int(at_match[:, edit_measures.METRICS.index("paraphrase top-1")].sum())
result = lesson.checks.check_crossing_prediction(crossing_edits, crossed, len(at_match))
''')

code(r'''
def crossing_edits():
    return 0  # two memories (sections 2 and 3): the edit rewrites the English one only


result = lesson.checks.check_crossing_prediction(crossing_edits, crossed, len(at_match))
''', hidden=True)

md(r'''
Every method, both directions, pooled over the three seeds (144 edits a row). "p(old), other" is
the other language's old answer after the edit; before any edit it is 0.99 on average:
''')

code(r'''
METRICS, DIRECTIONS = edit_measures.METRICS, {"en": "en → zh", "zh": "zh → en"}


def matched(method, edited_in, dictionary=False):
    """The method's edits made in ``edited_in``, each at matched strength: (seeds, 48, metrics)
    and whether each reached p(new) 0.9, (seeds, 48)."""
    results = lesson.cross_edits.results(method, edited_in, dictionary)  # (seeds, 48, 6, metrics)
    rows, reached = zip(*(edit_measures.first_reaching(r, 0.9) for r in results), strict=True)
    return np.stack(rows), np.stack(reached)


def edit_row(method, edited_in, dictionary=False):
    rows, reached = matched(method, edited_in, dictionary)
    pooled, scores = rows.reshape(-1, len(METRICS)), edit_measures.counterfact(rows.reshape(-1, len(METRICS)))
    mean = dict(zip(METRICS, pooled.mean(0), strict=True))
    return [tr(method), DIRECTIONS[edited_in], reached.mean(), mean["p(new)"], scores["ES"],
            scores["PS"], mean["paraphrase top-1"], mean["p(new), other phrasing"],
            mean["p(old), other phrasing"], scores["NS"], mean["filler loss change"]]  # fmt: skip


EDIT_HEADS = ["edit", "direction", "reached 0.9", "p(new)", "ES", "CS", "other: top-1 new",
              "p(new), other", "p(old), other", "NS", "filler loss"]  # fmt: skip
EDIT_FORMAT = ["", "", ".0%", ".2f", ".0f", ".1f", ".1%", ".3f", ".2f", ".0f", "+.3f"]
show_table(EDIT_HEADS, [edit_row(m.name, lang) for lang in DIRECTIONS
                        for m in edit_sweep.METHODS], EDIT_FORMAT)  # fmt: skip
''')

code(r'''
def per_seed(dictionary):  # every method, direction and seed at matched strength
    return {(m.name, lang): matched(m.name, lang, dictionary)[0]
            for m in edit_sweep.METHODS for lang in DIRECTIONS}  # fmt: skip


def column(rows, metric):
    return rows[..., METRICS.index(metric)]


plain = per_seed(False)
crossing = max(column(r, "paraphrase top-1").mean(1).max() for r in plain.values())
claim("at matched strength, no method in either direction and no seed makes the other "
      "language's top answer the new one for more than 5 % of its edits", crossing < 0.05,
      "at most {x:.1%}", x=crossing)  # fmt: skip
p_other = max(column(r, "p(new), other phrasing").mean() for r in plain.values())
claim("and the other language's mean p(new) stays below 0.05", p_other < 0.05,
      "at most {x:.3f}", x=p_other)  # fmt: skip
every = max(column(lesson.cross_edits.results(m.name, lang), "paraphrase top-1").mean(1).max()
            for m in edit_sweep.METHODS for lang in DIRECTIONS)  # fmt: skip
claim("at every strength of the sweep, not only the matched one, under 10 % cross", every < 0.1,
      "at most {x:.1%}", x=every)  # fmt: skip
''')

md(r'''
The edits stay in their language. But not all leave the other language alone: the last columns
but two show what happens to its old answer.
''')

code(r'''
old_after = {key: column(r, "p(old), other phrasing").mean() for key, r in plain.items()}
broad = [edit_sweep.NEURONS, edit_sweep.FINE_TUNING]
lowered = max(old_after[m, lang] for m in broad for lang in DIRECTIONS)
kept = min(old_after[edit_sweep.RANK_ONE, lang] for lang in DIRECTIONS)
claim("knowledge neurons and fine-tuning lower the other language's old answer to under 0.85 "
      "on average, in both directions, while the rank-one edit at layer 1 keeps it above 0.98",
      lowered < 0.85 and kept > 0.98, "at most {a:.2f} against at least {b:.2f}", a=lowered,
      b=kept)  # fmt: skip
ns = {m: edit_measures.counterfact(np.concatenate([plain[m, lang].reshape(-1, len(METRICS))
                                                   for lang in DIRECTIONS]))["NS"]
      for m in broad}  # fmt: skip
claim("the same two keep under 55 % of the neighbours in the edited language",
      max(ns.values()) < 55, "NS at most {n:.0f}", n=max(ns.values()))  # fmt: skip
''')

md(r'''
Knowledge neurons and fine-tuning damage what they were not asked to touch, in the edited
language (NS about 50, lesson 6's finding) and across the language boundary alike: the other
language's old answer falls, and its new answer does not rise. They move units and weights that
serve many facts, the units section 2 found every answer uses. Whether that sharing is why the
damage crosses, this lesson does not test.

With the dictionary the same holds:
''')

code(r'''
linked_edits = per_seed(True)
crossing_d = max(column(r, "paraphrase top-1").mean(1).max() for r in linked_edits.values())
claim("with the dictionary, again no method, direction or seed crosses for more than 5 % of "
      "its edits at matched strength", crossing_d < 0.05, "at most {x:.1%}", x=crossing_d)
show_table(EDIT_HEADS, [edit_row(m.name, lang, True) for lang in DIRECTIONS
                        for m in (edit_sweep.METHODS[0], edit_sweep.METHODS[3])],
           EDIT_FORMAT)  # fmt: skip
''')

md(r'''
Beside Wang et al. 2023, who edited Chinese-LLaMA-7B (a model trained on English and Chinese
text) with English prompts and asked in both languages. Their English number is for the edited
fact asked another way in English (generality); this corpus has one prompt per language, so the
toy's English number is for the edited prompt itself, and the row says so:
''')

code(r'''
rome = matched(edit_sweep.ROME_SITE, "en")[0].reshape(-1, len(METRICS))
share = {m: column(rome, m).mean() for m in ("top-1", "paraphrase top-1")}
show_table(["asked in", "Wang et al.: ROME, EM (%)", "this model: ROME, top-1 new (%)", "alike?"], [
    [tr("English (the edit's language)"), WANG_2023["ROME, en edit, EM asked in English"],
     100 * share["top-1"], tr("no: theirs asks another phrasing, this one the edited prompt")],
    [tr("Chinese (the other language)"), WANG_2023["ROME, en edit, EM asked in Chinese"],
     100 * share["paraphrase top-1"],
     tr("near: their EM scores the whole answer, this the first token")],
], ["", ".2f", ".1f", ""])  # fmt: skip
claim("in both, the share asked in the other language is under a tenth of the share asked in the "
      "edit's language", share["paraphrase top-1"] < 0.1 * share["top-1"]
      and WANG_2023["ROME, en edit, EM asked in Chinese"] < 0.1 * WANG_2023[
          "ROME, en edit, EM asked in English"])  # fmt: skip
''')

md(r'''
A real bilingual model carries a few percent of an English edit into Chinese; this one carries
almost none, as its two memories predict. The direction agrees; the size differs, and the lesson
cannot say which of the differences (a 7B model, text where the languages meet, a paraphrase
scored instead of the prompt) makes it.

### Move it yourself: one fact, one edit, both languages

Choose a fact, the language of the edit and the method. The bars are p(old answer) and p(new
answer) before and after, asked in English and in Chinese, each in its own words; every frame is
read from the stored sweep (seed 0), at matched strength.
''')

code(r'''
# NBVAL_IGNORE_OUTPUT
# A live widget; its output exists only in a running kernel
build(demo["edit across languages"])
''')

code(r'''
frame = lesson.demos.cross_edit_data(lesson.demos.prompts()[0], "en", edit_sweep.RANK_ONE)
view = lesson.figures.CrossEditView()
view.update(frame)
show("{prompt}: {old} → {new}; asked in Chinese, p({new_zh}) {before:.3f} before, {after:.3f} "
     "after", prompt=frame.prompts[0], old=frame.old[0], new=frame.new[0], new_zh=frame.new[1],
     before=frame.p_new[1, 0], after=frame.p_new[1, 1])  # fmt: skip
''')

md(r'''
## 6. Experts by language

Lesson 7's mixture of experts (four experts per layer, each token sent to two, the same total
size as the dense FFN), trained on the bilingual corpus with lesson 7's settings, three seeds,
stored (`python -m course_lib.lessons.l09_two_languages.experiments.experts` retrains them). Does
its router send the two languages to different experts, or the relations, or neither?

A token's **route** is the pair of experts it goes to. How much a route says about a label is the
mutual information I(route; label) in bits: 0 if the route says nothing of it, H(label) if it
fixes it (0.99 bits for the language: 56 % of the tokens are Chinese). Here every token but `<bos>`
belongs to one language, so the token alone fixes the language; the question is whether the split
is more than any split of the vocabulary of that size. So the null shuffles the language labels
among the token types, as many Chinese types kept, 1,000 times:
''')

code(r'''
experts = lesson.experts
splits = {seed: experts.expert_splits(seed) for seed in experts.SEEDS}
show_table(["seed", "layer", "I(route; language)", "95 % of shuffled types", "p",
            "share of the route the token explains", "Chinese share per expert"],
           [[seed, layer, s.by_type.value, s.by_type.null95, s.by_type.p_value, s.token_share,
             " ".join(f"{x:.2f}" for x in s.chinese)]
            for seed, sp in splits.items() for layer, s in enumerate(sp.language)],
           ["d", "d", ".3f", ".3f", ".3f", ".0%", ""])  # fmt: skip
''')

code(r'''
language = [s for sp in splits.values() for s in sp.language]
claim("in every seed and layer, the token explains over 75 % of the route's entropy",
      min(s.token_share for s in language) > 0.75, "at least {x:.0%}",
      x=min(s.token_share for s in language))  # fmt: skip
claim("the route says more of the language than a shuffled split of the vocabulary does "
      "(p below 0.05), but under a quarter of the 0.99 bits there are",
      all(s.by_type.p_value < 0.05 and s.by_type.value < 0.25 * s.language_bits
          for s in language), "{lo:.2f} to {hi:.2f} bits",
      lo=min(s.by_type.value for s in language), hi=max(s.by_type.value for s in language))
claim("and no expert takes over 90 % of its tokens from one language",
      sum(s.one_language for s in language) == 0)  # fmt: skip
''')

md(r'''
The router splits by token first: what a token is sets most of its route. Beyond that it leans
to a language (each expert's Chinese share moves away from the 56 % of the tokens), more than a
random split of the vocabulary would, but no expert is a language's.

Relations: at the prompt's last token ("is", "是": the same token for every fact), only the
context can set the route. I(route; relation) there, with the relations shuffled among the 48
facts (2 bits would fix the relation):
''')

code(r'''
rows = []
for seed, sp in splits.items():
    for language_, by_layer in sp.relation.items():
        for layer, r in enumerate(by_layer):
            rows.append([seed, tr(lesson.figures.LANGUAGE_NAMES[language_]), layer,
                         r.at_prompt.value, r.at_prompt.null95, r.at_prompt.p_value, r.purity,
                         r.chance_purity])  # fmt: skip
show_table(["seed", "prompts in", "layer", "I(route; relation)", "95 % of shuffles", "p",
            "purity", "by chance"], rows, ["d", "", "d", ".2f", ".2f", ".3f", ".2f", ".2f"])
''')

code(r'''
layer_1 = {seed: {lang: sp.relation[lang][1].at_prompt for lang in ("en", "zh")}
           for seed, sp in splits.items()}  # fmt: skip
strong = [max(t.values(), key=lambda x: x.value) for t in layer_1.values()]
weak = [min(t.values(), key=lambda x: x.value) for t in layer_1.values()]
claim("in layer 1 of every seed, one language's prompts are routed by relation (over 0.7 bits, "
      "p at most 0.001) and the other's far less (under 0.2 bits)",
      all(s.value > 0.7 and s.p_value <= 0.001 for s in strong)
      and all(w.value < 0.2 for w in weak))  # fmt: skip
which = {seed: max(t, key=lambda lang: t[lang].value) for seed, t in layer_1.items()}
show("the language routed by relation: {which}", which={
    s: tr(lesson.figures.LANGUAGE_NAMES[lang]) for s, lang in which.items()})  # fmt: skip
''')

md(r'''
So the experts tell the same story as the units: the router does not keep one route for a
relation across the two languages. In each seed one language's prompts go by relation in layer 1
and the other's hardly do, and which language that is changes with the seed (in seed 1 the
Chinese prompts go by relation in layer 0 as well). Beside the papers:
Bandarkar et al. 2025 find real MoE language models route by language in their early and late
layers and alike across languages in the middle ones. This model has two layers, an early and a
late one and no middle, and its routing leans to a language in both, weakly; their measure (a
divergence between the routes of parallel sentences) is not this one, so the two agree in
direction only.

## Summary

- Lesson 5's model, trained on its 48 facts in English (a token per word) and Chinese (a token
  per character), learns every fact in both languages, in three seeds.
- **Two memories.** A fact's top units for its English and Chinese prompts overlap no more than
  two different facts' do; the same test finds the one memory two English phrasings share.
  Erasing the other language's units of the same fact hurts no more than another fact's, and the
  model reads an entity's two names no more alike than two entities'.
- **No language-specific units.** Every unit fires in both languages; Tang et al.'s selection
  picks units whose removal barely changes either language's perplexity.
- **A dictionary does not join them.** Trained with every word's translation, both ways, the
  model keeps the facts twice all the same (one seed's layer 0 reads the names slightly more
  alike, within chance over twelve tests).
- **Tracing agrees across languages**: the answer comes from layer 1's FFN at the prompt's last
  token in both, for every seed.
- **Edits stay in their language.** At matched strength, no edit method makes the other language
  answer the new answer for more than 5 % of the edits; Wang et al. measured a few percent in a
  7B bilingual model. Knowledge neurons and fine-tuning still lower the other language's old
  answer: damage crosses where the rewrite does not.
- **Experts route by token**, lean to a language weakly, and route a relation in one language but
  not the other.

Chen et al. found shared knowledge neurons and Anthropic shared features in models trained on
text where languages meet, at scale; this model has neither, and the lesson shows what that
leaves: one fact, two memories.

### Glossary (术语表)

| English | 中文 |
|---|---|
| cross-lingual | 跨语言 |
| language-independent neuron | 语言无关神经元 |
| language-specific neuron | 语言特定神经元 |
| cross-lingual editing | 跨语言编辑 |
| activation probability | 激活概率 |
| language activation probability entropy (LAPE) | 语言激活概率熵 |
| transliteration | 音译 |
| permutation test | 置换检验 |
| cross-lingual score | 跨语言得分 |
| route | 路由 |
| mutual information | 互信息 |
''')
