"""Lesson 6's papers: the numbers it prints beside its own edits and traces, each defined once.
Imports nothing of the course."""

# Meng et al. 2022 (ROME), Table 4, CounterFact on GPT-2 XL: (score S, efficacy score ES,
# paraphrase score PS, neighbourhood score NS), in percent, for ROME, fine-tuning one layer's MLP
# (FT), constrained fine-tuning (FT+L), knowledge neurons (KN) and the unedited model; S is the
# harmonic mean of the other three (a test recomputes it). ES and PS count the prompts where the
# new answer is more likely than the true one; NS the neighbourhood prompts (other subjects with
# the same relation and the same true answer) where the true one stays more likely.
MENG_2022 = {
    "rome": (89.2, 100.0, 96.4, 75.4),
    "ft": (65.1, 100.0, 87.9, 40.4),
    "ft+l": (66.9, 99.1, 48.7, 70.3),
    "kn": (35.6, 28.7, 28.0, 72.9),
    "unedited": (30.5, 22.2, 24.7, 78.1),
    "unedited neighbourhood": 78.1,
}
# Hase et al. 2023 (Does Localization Inform Editing?), section 4.3 and Table 1, GPT-J on 652
# CounterFact facts: the linear correlation between a fact's causal-tracing effect (its largest
# over the prompt's tokens at the edited layer, a window of layers restored) and ROME's rewrite
# score at layer 6, and the variance of the rewrite score explained (R²) by the edit layer alone,
# the tracing effect alone, both.
HASE_2023 = {"rho": -0.13, "r2 layer": 0.947, "r2 tracing": 0.016, "r2 both": 0.948}
