"""Lesson 5's papers: the numbers its scoreboard, its figures and its questions quote beside the toy's
own, each defined once. Imports nothing of the course."""

# Geva et al. 2021, Figure 4: the share of a layer's memories whose value's top token is the next
# token of the key's top trigger example, in a 16-layer model: about 0 % in the lower layers,
# about 3.5 % in the upper ones.
GEVA_2021_AGREEMENT = (0.0, 0.035)
# Geva et al. 2021, section 2: their model (Baevski & Auli 2019's, trained on WikiText-103) reads a
# vocabulary of about 267k words, where a random top token is a given word about 1 time in 267k.
GEVA_2021_VOCABULARY = 267_000
# Dai et al. 2022: suppressing a fact's knowledge neurons changes p(answer) by about -29 % on
# average, amplifying them by about +31 %; about 4 knowledge neurons per fact after refining over
# paraphrases; the knowledge neurons sit mostly in the topmost layers of BERT-base (their figure of
# knowledge neurons per layer). (Their baseline picks units by activation, not attribution;
# lesson 5 repeats it with each fact's 5 most active units, but their baseline's numbers are not
# kept here.) Their code (Hunter-DDM/knowledge-neurons) scales the whole layer's activations
# together for the attribution (1_analyze_mlm.py) and reports each relation's mean change of p over
# its mean p before (3_modify_activation.py, ave_delta_ratio).
DAI_2022 = {"suppress": -0.29, "amplify": 0.31, "neurons": 4.0}
# Li et al. 2023: the fraction of FFN units nonzero per input after training; larger models (deeper
# and wider together, T5 and ViT of several sizes) are sparser.
LI_2023 = {"T5-Base": 0.030, "ViT-B/16": 0.063}
