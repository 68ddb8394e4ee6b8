"""Chinese texts for the superposition topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l08_superposition.figures (toy)
    "orthogonal": "正交",
    "antipodal pair": "对跖对",
    "pentagon": "五边形",
    "not represented": "未被表示",
    "dedicated dimension": "独占一个维度",
    "superposition, antipodal": "叠加（对跖对）",
    "other arrangement": "其他排布",
    "feature dimensionality D_i": "特征维度 D_i",
    "feature i, its importance below": "特征 i，下方为其重要性",
    "dropped (‖W_i‖ < {cut}): {features}": "被舍弃（‖W_i‖ < {cut}）：{features}",
    "sparsity S = {S:.2f}, importance I_i = {decay}^i: loss {loss:.3g}": (
        "稀疏度 S = {S:.2f}，重要性 I_i = {decay}^i：损失 {loss:.3g}"
    ),
    "S = {S:.2f}": "S = {S:.2f}",
    "{n} features in {m} dimensions, importance I_i = {decay}^i: each arrow is a column W_i": (
        "{n} 个特征挤进 {m} 个维度，重要性 I_i = {decay}^i：每个箭头是 W 的一列 W_i"
    ),
    "2 features in 1 dimension: what the model does with the extra one": (
        "2 个特征、1 个维度：模型如何处理多出来的那个特征"
    ),
    "the extra feature's importance, relative to feature 0's": "多出来的特征的重要性（相对于特征 0）",
    "feature density 1 − S": "特征密度 1 − S",
    # course_lib.lessons.l08_superposition.checks
    "TopK activations": "TopK 激活",
    "the activations have shape {got}, expected {expected}: one per feature, 0 for the features not kept; scatter the k kept values back into place": (
        "激活的形状是 {got}，应为 {expected}：每个特征一个值，未保留的特征为 0；用 scatter 把保留的 k 个值放回原位"
    ),
    "these are 0s and 1s, a mask of the kept features: return the kept values themselves, through the ReLU": (
        "这些是 0 和 1，只是被保留特征的掩码：应返回保留下来的值本身，并经过 ReLU"
    ),
    "the activations differ from ReLU(TopK(pre)): the k largest pre-activations of each row through a ReLU, every other feature 0": (
        "激活与 ReLU(TopK(pre)) 不同：每行最大的 k 个预激活经过 ReLU，其余特征为 0"
    ),
    "at most k features fire in each row, none below 0. (A ReLU before the TopK gives the same: either way the positive values among the k largest remain.)": (
        "每行至多 k 个特征激活，且都不小于 0。（把 ReLU 放在 TopK 之前结果相同：两种做法留下的都是最大的 k 个值中的正值。）"
    ),
    "the k largest are taken over dim {dim}, across rows: take them over each row's features, dim=-1": (
        "最大的 k 个是沿 dim {dim} 跨行取的：应在每行的特征上取，dim=-1"
    ),
    "negative values are kept: apply the ReLU after keeping the k largest, so that no activation is below 0": (
        "保留了负值：保留最大的 k 个之后还要过 ReLU，激活不能小于 0"
    ),
    "every positive pre-activation is kept: keep only the k largest of each row": (
        "所有正的预激活都被保留了：每行只保留最大的 k 个"
    ),
    "the k largest in absolute value are kept: keep the k largest values, a large negative pre-activation is a feature far from firing": (
        "保留的是绝对值最大的 k 个：应保留数值最大的 k 个，一个很大的负预激活说明该特征远未激活"
    ),
    "the k smallest pre-activations are kept: keep the k largest (largest=True, the default of topk)": (
        "保留的是最小的 k 个预激活：应保留最大的 k 个（largest=True，即 topk 的默认值）"
    ),
    "decoder normalisation": "解码器归一化",
    "the encoder was normalised: the L1 rule holds the decoder's directions, the rows of W_dec, at norm 1": (
        "被归一化的是编码器：L1 惩罚的规则要求解码器的方向（W_dec 的各行）保持范数为 1"
    ),
    "W_dec was normalised over dim 0, each of its d columns: feature i's direction is row i of W_dec (n_features, d), so take the norm over dim=1": (
        "W_dec 是沿 dim 0 归一化的，即对它的 d 列逐列归一化：特征 i 的方向是 W_dec (n_features, d) 的第 i 行，所以范数要沿 dim=1 取"
    ),
    "each row was divided by its squared norm, which leaves it at 1/norm: divide by the norm itself": (
        "每行除以的是范数的平方，结果范数变成 1/范数：应除以范数本身"
    ),
    "the rows are normalised before optimiser.step(): the step moves them off norm 1 again, and the dictionary the last step leaves is not normalised; normalise after the step": (
        "各行在 optimiser.step() 之前归一化：这一步又让它们偏离范数 1，最后一步留下的字典没有归一化；应在这一步之后归一化"
    ),
    "W_dec is a parameter that requires grad: change it in place inside `with torch.no_grad():`": (
        "W_dec 是需要梯度的参数：要在 `with torch.no_grad():` 里原地修改它"
    ),
    "W_dec was replaced by a new tensor, which the optimiser does not hold: change it in place (sae.W_dec /= ...) inside torch.no_grad()": (
        "W_dec 被换成了一个新张量，优化器并不持有它：应在 torch.no_grad() 里原地修改（sae.W_dec /= ...）"
    ),
    "the decoder's directions are not normalised: in {steps} steps their mean norm grew to {norm:.2f} and the mean activation fell to {act:.4f} (held at norm 1: {ref:.4f}); the L1 penalty is beaten by shrinking f and growing W_dec. After optimiser.step(), divide each row of W_dec by its norm": (
        "解码器的方向没有归一化：{steps} 步里它们的平均范数涨到 {norm:.2f}，平均激活降到 {act:.4f}（范数保持为 1 时为 {ref:.4f}）；"
        "缩小 f、放大 W_dec 就绕过了 L1 惩罚。应在 optimiser.step() 之后把 W_dec 的每一行除以它的范数"
    ),
    "after your step the decoder's directions have norms from {low:.3f} to {high:.3f}, not 1: divide each row of W_dec by its norm after optimiser.step()": (
        "你的这一步之后，解码器方向的范数在 {low:.3f} 到 {high:.3f} 之间，而不是 1：应在 optimiser.step() 之后把 W_dec 的每一行除以它的范数"
    ),
    "the directions have norm 1, but the step differs from the reference: take the plain step (zero_grad, loss, backward, step), then divide each row of W_dec by its norm": (
        "方向的范数是 1，但这一步与参考实现不同：先走普通的一步（zero_grad、loss、backward、step），再把 W_dec 的每一行除以它的范数"
    ),
    "every direction is back at norm 1 after each step: the L1 penalty can only be lowered by sparser activations, not by shrinking f and growing W_dec.": (
        "每一步之后每个方向都回到范数 1：L1 惩罚只能靠更稀疏的激活来降低，而不能靠缩小 f、放大 W_dec。"
    ),
    "dense toy prediction": "稠密玩具模型预测",
    "return a set of feature indices, counted from 0 (feature 0 is the most important), got {answer!r}": (
        "应返回一个特征编号的集合，从 0 开始数（特征 0 最重要），实际为 {answer!r}"
    ),
    "the features are numbered 0 to {last}, counted from 0": "特征编号从 0 开始，为 0 到 {last}",
    "indices count from 0: feature 0 is the most important (I_0 = 0.9^0 = 1)": (
        "编号从 0 开始：特征 0 最重要（I_0 = 0.9^0 = 1）"
    ),
    "all five is the sparse regime: with S = 0 every feature is in every input, so features sharing a dimension interfere every time, and the model gives each kept feature a dimension of its own": (
        "五个全保留是稀疏情形：S = 0 时每个输入都含有每个特征，共用一个维度的特征每次都会相互干扰，所以模型让每个保留的特征独占一个维度"
    ),
    "the model has m = {m} dimensions: with dense features it keeps as many features as it has dimensions, one per dimension": (
        "模型有 m = {m} 个维度：特征稠密时，它保留的特征数与维度数相同，每个维度一个"
    ),
    "importance falls with the index, I_i = 0.9^i: feature 0 matters most, the last one least": (
        "重要性随编号递减，I_i = 0.9^i：特征 0 最重要，最后一个最不重要"
    ),
    "{m} features, yes, one per dimension; but which? A dropped feature costs its importance, so the model keeps the most important ones": (
        "对，是 {m} 个特征，每个维度一个；但是哪几个？丢掉一个特征的代价是它的重要性，所以模型保留最重要的那几个"
    ),
    "the stored model's ‖W_i‖: {norms}. Dense features interfere in every input, so the model keeps the most important ones, each in a dimension of its own, and drops the rest.": (
        "存下的模型的 ‖W_i‖：{norms}。稠密特征在每个输入中都相互干扰，所以模型保留最重要的几个，各自独占一个维度，其余的丢掉。"
    ),
    "dead features prediction": "死特征预测",
    "give the share of features, a number from 0 to 1 (0.25 for a quarter), got {got!r}": (
        "请给出特征所占的比例，一个 0 到 1 之间的数（四分之一就是 0.25），实际为 {got!r}"
    ),
    "measured: {dead} of {n} features ({share:.0%}) never fire": (
        "实测：{n} 个特征中有 {dead} 个（{share:.0%}）从不激活"
    ),
    "{measured}, more than your {got:.0%}: a feature that fires on no input gets no gradient, so once dead it stays dead; the wider the dictionary, the more features the data leaves idle": (
        "{measured}，比你预测的 {got:.0%} 多：对任何输入都不激活的特征得不到梯度，一旦死了就一直是死特征；字典越宽，数据闲置的特征就越多"
    ),
    "{measured}, fewer than your {got:.0%}: most features still find inputs to fire on, and each input keeps the features it fires alive": (
        "{measured}，比你预测的 {got:.0%} 少：大多数特征仍能找到让它激活的输入，而每个输入都让它激活的特征保持存活"
    ),
    "{measured}; you predicted {got:.0%}.": "{measured}；你的预测是 {got:.0%}。",
    # course_lib.lessons.l08_superposition.figures (dictionaries)
    "trained model: {units} units": "训练好的模型：{units} 个单元",
    "shuffled, each fact's number kept: {units:.0f} units (mean of {shuffles}, 2.5–97.5 %)": (
        "随机打乱，每条事实的知识神经元数不变：{units:.0f} 个单元（{shuffles} 次的平均，2.5–97.5%）"
    ),
    "facts a unit is a knowledge neuron of": "一个单元作为知识神经元所服务的事实数",
    "number of units": "单元数",
    "{pairs} (fact, knowledge neuron) pairs: how many facts each unit serves": (
        "{pairs} 个（事实，知识神经元）对：每个单元服务多少条事实"
    ),
    "SAE, L1": "SAE，L1",
    "SAE, TopK": "SAE，TopK",
    "transcoder, L1": "转码器，L1",
    "transcoder, TopK": "转码器，TopK",
    "dictionary size (× the FFN's {units} units)": "字典大小（FFN 的 {units} 个单元的倍数）",
    "(a) live features": "(a) 存活的特征",
    "features that fire on some input": "至少在一个输入上激活的特征数",
    "(b) dead features": "(b) 死特征",
    "share of the dictionary never firing": "从不激活的特征占字典的比例",
    "(c) what the dictionary misses": "(c) 字典遗漏的部分",
    "fraction of variance unexplained": "未解释方差的比例",
}
