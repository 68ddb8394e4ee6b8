md(r'''
So the test has power: it finds the one memory two English phrasings share, and finds none between
the two languages. An intervention says the same from the other side. Erase each fact's English top
units at the last word of its Chinese prompt, and compare with erasing the English top units of
another fact of the same relation (the next entity's): if the Chinese answer leans on the English
memory, the first should hurt more.
''')

code(r'''
show_source(memory.erased)
WHOSE = {"own": tr("its own language's top units"),
         "same fact": tr("the other language's, same fact"),
         "other fact": tr("the other language's, another fact")}  # fmt: skip
rows = [[tr("asked in {language}", language=tr(lesson.figures.LANGUAGE_NAMES[asked])),
         WHOSE[whose], *reports[0].erasures[asked, whose]]
        for asked in ("en", "zh") for whose in WHOSE]  # fmt: skip
show_table(["asked", "erased at the last word", "p(answer) change", "still top-1"], rows,
           ["", "", "+.0%", ".0%"])  # fmt: skip
''')

code(r'''
gap = max(abs(r.erasures[a, "same fact"][0] - r.erasures[a, "other fact"][0])
          for r in reports.values() for a in ("en", "zh"))  # fmt: skip
own = max(r.erasures[a, "own"][0] for r in reports.values() for a in ("en", "zh"))
claim("in every seed and both directions, erasing the other language's top units of the same "
      "fact changes p(answer) no more than erasing those of another fact",
      gap < 0.05, "the two means at most {g:.0%} apart", g=gap)  # fmt: skip
claim("while erasing a fact's own top units takes most of its answer", own < -0.85,
      "at least {o:.0%}", o=-own)  # fmt: skip
''')

md(r'''
The other language's units hurt, as any fact's units do (they include the units every answer
uses), but not because they are the same fact's. One more look, before any answer is read out:
lesson 6 found that the FFN at the subject's last token reads the entity. Does the model read
图门 and tumen alike there? The cosine between the FFN's hidden units at the subject's last token of
an English and of a Chinese prompt, for the same entity and for different entities; their gap,
against the gaps that shuffling the Chinese names among the entities gives (a permutation test,
1,000 shuffles); and, for scale, the same gap within English, between prompts about one entity's
other relations and prompts about other entities:
''')

code(r'''
def subject_rows(reports_):
    return [[tr("seed {seed}", seed=seed), layer, s.same, s.different, s.gap, s.p_value,
             s.english_gap] for seed, r in reports_.items() for layer, s in enumerate(r.subject)]


HEADS = ["model", "layer", "same entity", "different", "gap", "permutation p", "gap within English"]
FORMAT = ["", "d", ".2f", ".2f", "+.3f", ".2f", "+.3f"]
show_table(HEADS, subject_rows(reports), FORMAT)
subjects = [s for r in reports.values() for s in r.subject]
claim("in every seed and layer the gap across languages is within what shuffled names give "
      "(permutation p above 0.05)", all(s.p_value > 0.05 for s in subjects),
      "lowest p {p:.2f}", p=min(s.p_value for s in subjects))  # fmt: skip
claim("and the largest gap across languages is smaller than the smallest gap within English",
      max(s.gap for s in subjects) < min(s.english_gap for s in subjects),
      "{a:+.3f} against {b:+.3f}", a=max(s.gap for s in subjects),
      b=min(s.english_gap for s in subjects))  # fmt: skip
''')

md(r'''
Three measures, three seeds, one answer: **two memories**. The model keeps each fact once per
language, in partly the same units (units every answer uses) but not as one memory.

### Language-specific neurons

Tang et al. 2024 look for the opposite: units a language cannot do without. A unit's **activation
probability** in a language is the share of that language's tokens on which it fires; their
**LAPE** (language activation probability entropy) is the entropy of those probabilities normalised
over the languages, 0 for a unit that fires in one language only, log 2 = 0.69 for one that fires
equally in both. They keep the 1 % of units with the lowest LAPE among the frequent ones (above
the 95th percentile in some language), and test them by deactivating them: the language's
perplexity should rise, the other's not. Here a unit fires when it is above 10⁻⁴ (the paper: above
0; so close to 0 a ReLU unit's sign is the CPU's rounding):
''')

md(r'''
### Exercise 1 · find the bug: an activation probability that counts what is not there

The function below is meant to give each unit's activation probability in each language from the
hidden units of a batch of lines: `hidden` (lines, L, units), `tokens` (lines, L) with `<pad>` = 0
after each line's end and `<bos>` at position 0, `language` (lines,) 0 for English and 1 for
Chinese. It runs and returns numbers between 0 and 1, yet they are wrong. Find the mistake (what
sits in a batch besides the lines' tokens?), fix it, and delete the `raise` line.
''')

code(r'''
def activation_probability(hidden, tokens, language):
    raise NotImplementedError  # delete this line once you have fixed the bug below
    counted = torch.ones(tokens.shape, dtype=torch.float64)  # the positions to count: 1
    counted[:, 0] = 0  # not <bos>: the same token in both languages
    shares = []
    for lang in (0, 1):
        mask = counted * torch.from_numpy(language == lang).double()[:, None]  # (lines, L)
        fired = (hidden > memory.ACTIVE).double() * mask[..., None]  # (lines, L, units)
        shares.append(fired.sum((0, 1)) / mask.sum())
    return torch.stack(shares, -1)  # (units, 2)


result = lesson.checks.check_activation_fix(activation_probability)
''')

code(r'''
def activation_probability(hidden, tokens, language):
    counted = (tokens != 0).double()  # a line's tokens, not the padding after it
    counted[:, 0] = 0  # not <bos>: the same token in both languages
    shares = []
    for lang in (0, 1):
        mask = counted * torch.from_numpy(language == lang).double()[:, None]  # (lines, L)
        fired = (hidden > memory.ACTIVE).double() * mask[..., None]  # (lines, L, units)
        shares.append(fired.sum((0, 1)) / mask.sum())
    return torch.stack(shares, -1)  # (units, 2)


result = lesson.checks.check_activation_fix(activation_probability)
''', hidden=True)

md(r'''
Chinese lines are longer than English ones (a token per character), so padding is a different
share of each language's positions, and a unit that fires on padding would seem to prefer the
language with the shorter lines.

### Exercise 2 · build: LAPE

Write `lape(probability)`: for activation probabilities (layers, units, languages), each unit's
entropy of its probabilities normalised over the languages (natural logarithm, 0 log 0 = 0), so
(layers, units).
''')

code(r'''
def lape(probability):
    raise NotImplementedError


result = lesson.checks.check_lape(lape)
''')

code(r'''
def lape(probability):
    total = probability.sum(-1, keepdims=True)
    share = np.divide(probability, total, out=np.zeros_like(probability), where=total > 0)  # q
    q_log_q = share * np.log(np.where(share > 0, share, 1.0))  # 0 log 0 counts as 0
    return -q_log_q.sum(-1)


result = lesson.checks.check_lape(lape)
''', hidden=True)

code(r'''
probability = memory.activation_probability(model, corpus)  # (layers, 256, languages)
only = memory.one_language_only(probability)  # (layers, languages)
show("units firing on at least 1 % of one language's tokens and never on the other's, per "
     "layer: {only}", only=only.tolist())  # fmt: skip
entropy = lape(probability)
claim("your LAPE and the lesson's agree on the model's units",
      bool(np.allclose(entropy, memory.lape(probability))))  # fmt: skip
show("LAPE per layer: lowest {low}, median {median} (log 2 = {top:.2f})",
     low=np.round(entropy.min(axis=1), 2).tolist(),
     median=np.round(np.median(entropy, axis=1), 2).tolist(), top=np.log(2))  # fmt: skip
''')

code(r'''
def deactivation(seed):  # Tang et al.'s test: each language's units zeroed at every position
    m = models.stored_model(seed)
    chosen = memory.language_specific(memory.activation_probability(m, corpus))
    base = memory.language_losses(m, corpus)
    return chosen, {lang: memory.language_losses(m, corpus, units) - base
                    for lang, units in chosen.items() if units}  # fmt: skip


tested = {seed: deactivation(seed) for seed in seeds}
for seed, (chosen, rise) in tested.items():
    show("seed {seed}: units selected {n}; perplexity rise on English and Chinese lines {rise}",
         seed=seed, n={k: len(v) for k, v in chosen.items()},
         rise={k: [f"{x:+.1%}" for x in np.expm1(v)] for k, v in rise.items()})  # fmt: skip
''')

code(r'''
largest = np.expm1(max(v.max() for _, rise in tested.values() for v in rise.values()))
claim("no unit fires in one language only, in either layer", int(only.sum()) == 0)
claim("and deactivating the units Tang et al.'s rule selects raises neither language's perplexity "
      "by more than 3 %, in any seed", largest < 0.03, "at most {x:.1%}", x=largest)  # fmt: skip
''')
