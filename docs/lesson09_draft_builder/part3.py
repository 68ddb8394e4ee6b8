md(r'''
Tang et al.'s rule selects a handful of units in each seed, as it must (it keeps the lowest 1 %),
but none of them is a language's own: every unit fires in both languages, and taking the selected
ones away leaves both languages' loss where it was. Beside the papers:
''')

code(r'''
show_table(["paper", "their models", "their finding", "this model"], [
    ["Chen et al. 2024", "m-BERT, m-GPT",
     tr("language-independent knowledge neurons: a fact's English and Chinese neurons intersect"),
     tr("the same fact's top units overlap no more than two facts' do")],
    ["Tang et al. 2024", "LLaMA-2, BLOOM",
     tr("language-specific neurons, mostly in the first and last layers; deactivating them "
        "raises their language's perplexity"),
     tr("no unit fires in one language only; deactivating the selected ones changes little")],
    ["Anthropic 2025", "Claude 3.5 Haiku",
     tr("more features shared across languages in the larger model (over twice the share)"),
     tr("one small model: nothing shared to count")],
])  # fmt: skip
''')

md(r'''
This model agrees with neither paper, and the difference points at what they had and it has not.
Its two languages share no token but `<bos>`: nothing in its text says that 图门 is tumen, so
nothing could make one memory serve both. The real models read text where languages meet (names
written alike, translations, mixed sentences). Is a link enough?

## 3. A dictionary between the languages

An intervention tests it: add a bilingual dictionary to the corpus, each name, relation and answer
beside its Chinese form, both ways ("tumen = 图 门 ." and "图 门 = tumen ."), and no fact. Train
the same model on it, three seeds, and ask the same three questions.
''')

code(r'''
linked = bilingual.bilingual_corpus(dictionary=True)
show("{n} dictionary lines, for example {a} and {b}", n=len(bilingual.dictionary_lines()),
     a=" ".join(bilingual.dictionary_lines()[0]), b=" ".join(bilingual.dictionary_lines()[2]))
with_dictionary = {seed: models.stored_model(seed, dictionary=True) for seed in seeds}
for seed, m in with_dictionary.items():
    right, words = models.known(m, linked), models.translates(m, linked)
    show("seed {seed}: facts right {en} and {zh} of 48; words translated {ez:.0%} en→zh, "
         "{ze:.0%} zh→en", seed=seed, en=int(right["en"].sum()), zh=int(right["zh"].sum()),
         ez=words["en->zh"], ze=words["zh->en"])  # fmt: skip
''')

code(r'''
claim("with the dictionary, every seed knows all 48 facts in both languages and translates every "
      "word both ways",
      all(models.known(m, linked)["en"].all() and models.known(m, linked)["zh"].all()
          and min(models.translates(m, linked).values()) == 1 for m in with_dictionary.values()))
linked_reports = {seed: memory.report(m, linked) for seed, m in with_dictionary.items()}
for seed, r in linked_reports.items():
    show("seed {seed}: same fact {s:.2f}, different facts {d:.2f}, permutation p = {p:.2f}",
         seed=seed, s=r.overlap.same.mean(), d=r.overlap.different.mean(),
         p=r.overlap.p_value)  # fmt: skip
''')

code(r'''
gap = max(abs(r.erasures[a, "same fact"][0] - r.erasures[a, "other fact"][0])
          for r in linked_reports.values() for a in ("en", "zh"))  # fmt: skip
claim("in every seed, the same fact's top units overlap no more than chance pairings of facts "
      "(p above 0.05)", all(r.overlap.p_value > 0.05 for r in linked_reports.values()))
claim("and erasing the other language's units of the same fact hurts no more than erasing "
      "another fact's", gap < 0.05, "the two means at most {g:.0%} apart", g=gap)  # fmt: skip
show_table(HEADS, subject_rows(linked_reports), FORMAT)
''')

code(r'''
linked_subjects = [s for r in linked_reports.values() for s in r.subject]
found = [s for s in linked_subjects if s.p_value < 0.05]
claim("the permutation test finds a gap in one seed and layer of the six, seed 2's layer 0",
      len(found) == 1 and found[0] is linked_reports[2].subject[0],
      "gap {g:+.3f}, p {p:.3f}", g=found[0].gap, p=found[0].p_value)  # fmt: skip
everywhere = 1 - 0.95 ** (2 * len(linked_subjects))
show("were the 12 tests (six here, six above) independent, with no effect anywhere, at least one "
     "p below 0.05 would come in {x:.0%} of runs", x=everywhere)  # fmt: skip
claim("that gap, the largest with the dictionary, is smaller than the smallest gap within English",
      max(s.gap for s in linked_subjects) < min(s.english_gap for s in linked_subjects),
      "{a:+.3f} against {b:+.3f}", a=max(s.gap for s in linked_subjects),
      b=min(s.english_gap for s in linked_subjects))  # fmt: skip
''')

code(r'''
bars = {tr("seed {seed}", seed=s): (r.overlap.same.mean(), r.overlap.different.mean())
        for s, r in reports.items()}  # fmt: skip
bars |= {tr("dictionary, seed {seed}", seed=s): (r.overlap.same.mean(), r.overlap.different.mean())
         for s, r in linked_reports.items()}  # fmt: skip
bars[tr("two English phrasings")] = (two_phrasings.same.mean(), two_phrasings.different.mean())
lesson.figures.overlap_figure(bars, chance=10 * 10 / 512, k=10)
''')

md(r'''
### Exercise 3 · explain: what the dictionary shows
''')

code(r'''
# NBVAL_IGNORE_OUTPUT
# A live widget; nbval cannot compare it
ask("dictionary")
''')

md(r'''
The model learned the dictionary, every word both ways, and still keeps each fact twice: in no
seed do the same fact's two statements share its units, or lean on each other's. Knowing that
图门 is tumen does not make it store tumen's capital once. At most it reads the two names a little
more alike, in one seed and one layer, by a gap smaller than any within English, and as often as
twelve tests with no effect would give one such p. In this model, at this size, a
link between the words is not a shared memory. What the intervention does not test: more data
that states facts across the languages (a mixed sentence, a translated paragraph), a larger model
(Anthropic's finding is about scale), or facts learned in one language only and asked in the other.

## 4. Trace across languages

Causal tracing (lesson 6): corrupt the subject's tokens with noise (in English one token, in
Chinese two), then restore one layer's FFN output at one position from the clean run and measure
how much of p(answer) comes back. Do the two languages' peaks sit at the same layer and the same
position?
''')

code(r'''
trace = lesson.cross_edits.trace
effects = {(seed, lang): trace(models.stored_model(seed), lang).effect()
           for seed in seeds for lang in ("en", "zh")}  # (layers, positions): mean of 48 facts
words = {lang: ["<bos>", *bilingual.in_language(corpus, lang).facts[0].prompt]
         for lang in ("en", "zh")}  # fmt: skip
lesson.figures.trace_pair_figure({lang: effects[0, lang] for lang in words}, words)
''')

code(r'''
for lang in words:
    layer, position = np.unravel_index(effects[0, lang].argmax(), effects[0, lang].shape)
    show("seed 0, {language}: the peak is layer {layer}'s FFN at {word!r}, {share:.0%} restored",
         language=tr(lesson.figures.LANGUAGE_NAMES[lang]), layer=layer,
         word=words[lang][position], share=effects[0, lang][layer, position])  # fmt: skip
last = all(np.unravel_index(e.argmax(), e.shape) == (1, e.shape[1] - 1) for e in effects.values())
before_last = max(e[:, 1:-1].max() for e in effects.values())
claim("in every seed and both languages the peak is layer 1's FFN at the prompt's last token",
      last)  # fmt: skip
claim("and no FFN output between <bos> and the last token restores more than 10 %",
      before_last < 0.1, "at most {x:.0%}", x=before_last)  # fmt: skip
''')
