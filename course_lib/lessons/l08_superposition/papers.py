"""Lesson 8's papers: the settings and numbers it compares with its own, each defined once.
Imports nothing of the course."""

# Elhage et al. 2022 (Toy Models of Superposition), sections 2-4 and their notebook: n = 5 features
# in m = 2 dimensions, importance 0.9^i, feature density 1 - S from 1 to 0.05 in the intro figure;
# the phase diagram: n = 2 features in m = 1, the extra feature's relative importance 0.1 to 10,
# density 1 to 0.01. Trained with AdamW (weight decay 0.01), lr 1e-3, batches of 1024, 10,000 steps.
ELHAGE_2022 = {
    "features": 5,
    "dimensions": 2,
    "importance decay": 0.9,
    "steps": 10_000,
    "batch": 1024,
    "lr": 1e-3,
    # D_i = ||W_i||^2 / sum_j (W^_i . W_j)^2: 1 for a dimension of its own, 1/2 for an antipodal
    # pair, 2/5 for a pentagon (section 4, "Feature Dimensionality")
    "D, antipodal pair": 1 / 2,
    "D, pentagon": 2 / 5,
}
# Bricken et al. 2023 (Towards Monosemanticity), run A/1: an SAE with 4,096 features on the
# 512-neuron MLP of a one-layer transformer, trained on 8 billion activation vectors; 168 features
# dead (active on none of 100 million samples); loss recovered 79 % of the MLP's loss reduction
# (the MLP zero-ablated as the baseline), and 94.5 % for run A/5, 131,072 features. Dictionaries
# from 1x (512) to 256x (131,072); decoder columns held at unit norm.
BRICKEN_2023 = {
    "neurons": 512,
    "A/1 features": 4096,
    "A/1 dead": 168,
    "A/1 loss recovered": 0.79,
    "A/5 features": 131_072,
    "A/5 loss recovered": 0.945,
    "activation vectors": 8e9,
}
# Gao et al. 2024 (Scaling and evaluating sparse autoencoders): TopK SAEs; normalised MSE (the
# error over the error of predicting the mean); "only 7 % of latents are dead" at 16 million
# latents with their mitigations, "up to 90 % dead latents" without; k = 32 in the released GPT-2
# small SAEs.
GAO_2024 = {"dead with mitigations": 0.07, "dead without, up to": 0.90, "released k": 32}
# Dunefsky et al. 2024 (Transcoders Find Interpretable LLM Feature Circuits): a transcoder reads the
# MLP's (normalised) input and is trained to produce the MLP's output; on GPT-2 small, 24,576
# features per layer (32x the model's 768 dimensions).
DUNEFSKY_2024 = {"features": 24_576, "d_model": 768}
# Cunningham et al. 2023 (Sparse Autoencoders Find Highly Interpretable Features in Language
# Models), figure 2: SAE features scored by automated interpretability against four baselines,
# the neuron basis, PCA, ICA and random directions. (Bricken et al. 2023 compared their features
# with the neurons and with an SAE trained on a transformer with random weights.)
CUNNINGHAM_2023 = {"baselines": ("neurons", "PCA", "ICA", "random directions")}
