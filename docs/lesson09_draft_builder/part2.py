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
an English and of a Chinese prompt, for the same entity and for different entities:
''')

code(r'''
for layer in (0, 1):
    cos = np.array([r.subject[layer] for r in reports.values()])  # (seeds, 2)
    show("layer {layer}: same entity {s}, different entities {d}", layer=layer,
         s=np.round(cos[:, 0], 2).tolist(), d=np.round(cos[:, 1], 2).tolist())  # fmt: skip
alike = max(abs(r.subject[layer][0] - r.subject[layer][1])
            for r in reports.values() for layer in (0, 1))  # fmt: skip
claim("in every seed and layer, the model reads one entity's two names no more alike than two "
      "entities' names", alike < 0.02, "the two cosines at most {a:.3f} apart", a=alike)  # fmt: skip
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

code(r'''
show_source(memory.lape)
probability = memory.activation_probability(model, corpus)  # (layers, 256, languages)
only = memory.one_language_only(probability)  # (layers, languages)
show("units firing on at least 1 % of one language's tokens and never on the other's, per "
     "layer: {only}", only=only.tolist())  # fmt: skip
entropy = memory.lape(probability)
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
