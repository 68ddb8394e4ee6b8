"""The papers' numbers the lessons quote, each defined once: the lessons print them beside the
toy's own (lesson 5's scoreboard, ``experiments.scoreboard``), and figures draw them (the sparsity
demo's band). A base module: it imports nothing of the course."""

# Geva et al. 2021, Figure 4: the share of a layer's memories whose value's top token is the next
# token of the key's top trigger example, in a 16-layer model: about 0 % in the lower layers,
# about 3.5 % in the upper ones.
GEVA_2021_AGREEMENT = (0.0, 0.035)
# Dai et al. 2022: suppressing a fact's knowledge neurons changes p(answer) by about -29 % on
# average, amplifying them by about +31 %; about 4 knowledge neurons per fact after refining over
# paraphrases; the baseline's change about -1.5 %.
# Meng et al. 2022 (Locating and Editing Factual Associations in GPT), Table 4, CounterFact on
# GPT-2 XL: (score, efficacy score, paraphrase score, neighbourhood score) of ROME, fine-tuning
# (FT) and knowledge neurons (KN); the score is the harmonic mean of the other three (a test
# recomputes it)
MENG_2022 = {
    "rome": (89.2, 100.0, 96.4, 75.4),
    "ft": (65.1, 100.0, 87.9, 40.4),
    "kn": (35.6, 28.7, 28.0, 72.9),
    "unedited neighbourhood": 78.1,
}
DAI_2022 = {"suppress": -0.29, "amplify": 0.31, "neurons": 4.0, "baseline": -0.015}
# Li et al. 2023: the fraction of FFN units nonzero per input after training.
LI_2023 = {"T5-Base": 0.030, "ViT-B/16": 0.063}
# Shazeer 2020, Table 1: held-out log-perplexity of T5-base-sized models (parameters and compute
# matched) after 65,536 and 524,288 training steps. Lower is better.
SHAZEER_2020: dict[str, tuple[float, float]] = {
    "relu": (1.997, 1.677),
    "gelu": (1.983, 1.679),
    "swiglu": (1.944, 1.636),
}
# Jiang et al. 2024 (Mixtral of Experts), section 2: each token has access to 47B parameters but
# uses only 13B active ones, with 8 experts and top-2 routing.
MIXTRAL_2024 = {"total": 47e9, "active": 13e9}
# DeepSeek-AI 2024, DeepSeek-V3 Technical Report: 671B parameters, 37B activated per token
DEEPSEEK_V3_2024 = {"total": 671e9, "active": 37e9}
