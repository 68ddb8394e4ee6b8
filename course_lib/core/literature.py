"""The papers' numbers the lessons quote, each defined once: the lessons print them beside the
toy's own (lessons 5 and 6's scoreboards), and figures draw them (the sparsity
demo's band). A base module: it imports nothing of the course."""

# Geva et al. 2021, Figure 4: the share of a layer's memories whose value's top token is the next
# token of the key's top trigger example, in a 16-layer model: about 0 % in the lower layers,
# about 3.5 % in the upper ones.
GEVA_2021_AGREEMENT = (0.0, 0.035)
# Dai et al. 2022: suppressing a fact's knowledge neurons changes p(answer) by about -29 % on
# average, amplifying them by about +31 %; about 4 knowledge neurons per fact after refining over
# paraphrases. (Their baseline picks units by activation, not attribution; lesson 5 repeats it
# with each fact's 5 most active units, but their baseline's numbers are not kept here.)
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
# over the prompt's tokens at the edited layer, a window of 5 layers restored) and ROME's rewrite
# score at layer 6, and the variance of the rewrite score explained (R²) by the edit layer alone,
# the tracing effect alone, both.
HASE_2023 = {"rho": -0.13, "r2 layer": 0.947, "r2 tracing": 0.016, "r2 both": 0.948}
DAI_2022 = {"suppress": -0.29, "amplify": 0.31, "neurons": 4.0}
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
# Shazeer et al. 2017 (Outrageously Large Neural Networks), Table 6: the busiest expert's load over
# the mean load on their language model, without balancing losses and with both (weights 0.1)
SHAZEER_2017 = {"max/mean load, no losses": 17.80, "max/mean load, both losses 0.1": 1.14}
# Dai et al. 2024 (DeepSeekMoE), section 3.1: the expert combinations of top 2 of 16 experts, and of
# top 8 of 64 once each is split into 4
DEEPSEEKMOE_2024 = {"top 2 of 16": 120, "top 8 of 64": 4_426_165_368}
# DeepSeek-AI 2024 (DeepSeek-V3 Technical Report), sections 2.1.2 and 4.2: its routing and balancing
DEEPSEEK_V3_ROUTING = {
    "routed experts": 256,
    "shared experts": 1,
    "top k": 8,
    "bias update speed": 0.001,  # γ, for the first 14.3T tokens, then 0 for the last 500B
    "tokens with γ, trillions": 14.3,
    "tokens without γ, billions": 500,
    "sequence-wise α": 0.0001,
    "nodes": 4,  # a token's routed experts sit on at most 4 nodes
}
