"""Lesson 9's papers: the settings and numbers it compares with its own, each defined once.
Imports nothing of the course."""

# Tang et al. 2024 (Language-Specific Neurons: The Key to Multilingual Capabilities in Large
# Language Models, ACL), and their code (RUCAIBox/Language-Specific-Neurons, identify.py): a
# neuron's activation probability in a language is the share of that language's tokens where its
# value after the activation function is above 0; LAPE is the entropy of those probabilities
# normalised over the languages; kept: the 1 % of all FFN neurons with the lowest LAPE among those
# whose probability in some language is above the 95th percentile of all probabilities; assigned to
# every language above that bar. Found "primarily situated in the models' top and bottom layers";
# deactivating a language's neurons raises that language's perplexity far more than others'.
# The 1 % is the paper's; their released identify.py keeps the lowest 5 % (top_rate = 0.05, set
# for LLaMA-70B) with the same 0.95 bars. The lesson uses the paper's 1 %.
TANG_2024 = {"lowest share": 0.01, "frequency quantile": 0.95}
# Chen et al. 2024 (Journey to the Center of the Knowledge Neurons, AAAI), and their code
# (heng840/AMIG, get_cross_language_neurons.py): a fact's language-independent knowledge neurons
# are the intersection of its English and its Chinese knowledge neurons (found by their AMIG
# attribution in m-BERT and m-GPT, on mLAMA); editing them edits the fact in both languages.
CHEN_2024 = {"languages": ("en", "zh")}
# Wang et al. 2023 (Cross-Lingual Knowledge Editing in Large Language Models), Bi-ZsRE, their
# repository's updated results (krystalan/Bi-ZsRE README, not the paper's first table) for
# Chinese-LLaMA-7B, exact match (EM, %): reliability, the edited prompt itself; generality, the
# edited fact asked another way, in the edit's language or in the other (run_bizsre.py scores the
# other language with the translation of the paraphrase). Their reliability of an edit made in
# Chinese (ROME 20.15) is not used: easyeditor/evaluate/evaluate.py scores the edited prompt
# against the English new answer (target_new_en) whatever the edit's language.
WANG_2023 = {
    "ROME, en edit, reliability EM": 97.20,
    "ROME, en edit, EM asked in English": 87.85,
    "ROME, en edit, EM asked in Chinese": 6.75,
    "MEMIT, en edit, EM asked in English": 81.97,
    "MEMIT, en edit, EM asked in Chinese": 6.75,
    "ROME, zh edit, EM asked in Chinese": 39.92,
    "ROME, zh edit, EM asked in English": 8.87,
}
# Xu, Li and Xiong 2023 (Language Representation Projection: Can We Transfer Factual Knowledge
# across Languages in Multilingual Language Models?, EMNLP): on mLAMA, multilingual models answer
# far fewer factual probes in other languages than in English, which they read as "limited
# implicit factual knowledge transfer across languages"; their LRP2 projects other languages'
# representations toward English ones and back, raising the other languages' accuracy. The
# question of lesson 9's section 3, asked there directly; no number of theirs is compared.
# Bandarkar et al. 2025 (Multilingual Routing in Mixture-of-Experts, arXiv), abstract: MoE
# language models "route tokens in language-specific ways in the early and late decoder layers
# but exhibit significant cross-lingual routing alignment in middle layers"; their measure is the
# divergence between the routing distributions of parallel sentences, not a mutual information.
# Cited in section 6 for its finding only: no number of theirs is compared.
