"""Chinese words beside the demos' controls (``Control.label``), in one place for every lesson, so
that a word two lessons' controls share has one translation. Symbols (d_ff, d_model, k, n) stay
symbols and need no label."""

MESSAGES: dict[str, str] = {
    "activation": "激活函数",
    "task": "任务",
    "random seed": "随机种子",
    "FFN variant": "FFN 变体",
    "triangle g": "三角形 g",
    "apex x": "顶点 x",
    "apex y": "顶点 y",
    "sharpness k": "陡度 k",
    "network": "网络",
    "layers": "层数",
    "normalisation": "归一化",
    "residual connection": "残差连接",
    "prompt": "提示",
    "top units": "单元数（按归因）",
    "scale factor": "缩放倍数",
    "new answer": "新答案",
    "method": "方法",
    "edit made in": "编辑所用的语言",
    "experts": "专家数",
    "balance weight α": "均衡损失权重 α",
    "FFN layer": "FFN 层",
    "sample": "样本",
}
