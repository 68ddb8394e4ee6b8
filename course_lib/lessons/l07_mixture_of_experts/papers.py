"""Lesson 7's papers: the sizes, loads and routing settings of the mixtures of experts it compares
with its own, each defined once. Imports nothing of the course."""

# Jiang et al. 2024 (Mixtral of Experts), section 2: each token has access to 47B parameters but
# uses only 13B active ones, with 8 experts and top-2 routing.
MIXTRAL_2024 = {"total": 47e9, "active": 13e9}
# DeepSeek-AI 2024, DeepSeek-V3 Technical Report: 671B parameters, 37B activated per token. Its
# released weights' documentation (README_WEIGHTS.md, Main Model Weights) says "Activation
# parameters: 36.7B (including 0.9B for Embedding and 0.9B for the output Head)"; counted from the
# configuration, that figure is reached only with one of those two 0.9B matrices left out. The same
# document released later with DeepSeek-R1-0528 (same architecture; read in the copy vendored by
# tenstorrent/tt-metal, models/demos/deepseek_v3/reference/README_WEIGHTS.md, whose README names
# that model) says "Activation parameters: 36.6B (including 0.9B for the output Head)"
DEEPSEEK_V3_2024 = {
    "total": 671e9,
    "active": 37e9,
    "active, weights documentation": 36.7e9,
    "active, later weights documentation": 36.6e9,
}
# Shazeer et al. 2017 (Outrageously Large Neural Networks), Appendix A, Table 6: the busiest expert's
# load over the mean load, without balancing losses and with both (weights 0.1), for the MoE-256 of
# Appendix C.1 (256 experts, noisy top-k gating with k = 4, its smooth Load estimator), so the ratio
# can reach 256 / 4 = 64: not comparable with the lesson's mixtures of 2 to 8 experts
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
    "tokens without γ, trillions": 0.5,  # the report's 500B, in the unit of the line above
    "sequence-wise α": 0.0001,
    "nodes": 4,  # a token's routed experts sit on at most 4 nodes
    # every routed gate multiplied by this after normalising: "route_scale": 2.5 in the released
    # inference code's configs/config_671B.json (Gate.forward: weights *= self.route_scale),
    # "routed_scaling_factor": 2.5 in the released model's config.json
    "route scale": 2.5,
}
