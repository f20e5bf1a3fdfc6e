"""A tiny GPT-style decoder, configured from the same Hugging Face config.json fields the book's
model reads (src/model/architecture.ts): hidden_size, num_attention_heads, num_key_value_heads,
intermediate_size, num_hidden_layers, vocab_size, and for a mixture of experts num_local_experts
and num_experts_per_tok (Mixtral's names). The shape is Llama's: RMSNorm, grouped-query
attention, a SwiGLU MLP, no biases, an untied LM head. Rotary embeddings are left out: they have
no parameters and save nothing for backward, so they would change none of the numbers we measure.

Two small autograd functions save for backward what a fused GPU kernel saves (the book counts
those): RMSNorm keeps its input (and one statistic per token), SwiGLU keeps the gate and up
outputs. Written with plain PyTorch operations, both would also keep intermediate results.

Every parallel program in this package starts from this model, built with the same seed, and
must reproduce its loss and its parameter updates (tests/companion/).
"""
import json
import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class Config:
    hidden_size: int
    num_attention_heads: int
    num_key_value_heads: int
    intermediate_size: int
    num_hidden_layers: int
    vocab_size: int
    num_local_experts: int = 0  # 0: dense MLP in every layer
    num_experts_per_tok: int = 0
    rms_norm_eps: float = 1e-5

    @property
    def head_dim(self):
        return self.hidden_size // self.num_attention_heads

    @staticmethod
    def load(path_or_dict):
        raw = path_or_dict
        if not isinstance(raw, dict):
            with open(path_or_dict) as f:
                raw = json.load(f)
        if raw.get("tie_word_embeddings"):
            raise ValueError("the companion model has an untied LM head; set tie_word_embeddings to false")
        fields = Config.__dataclass_fields__
        values = {k: raw[k] for k in fields if k in raw}
        values.setdefault("num_key_value_heads", raw["num_attention_heads"])
        return Config(**values)


# [start:rmsnorm]
class RMSNormFunction(torch.autograd.Function):
    """y = x / rms(x) * w. Saves the input x and one 1/rms per token, as a fused kernel does."""

    @staticmethod
    def forward(ctx, x, weight, eps):
        rstd = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
        ctx.save_for_backward(x, weight, rstd)
        return x * rstd * weight

    @staticmethod
    def backward(ctx, grad):
        x, weight, rstd = ctx.saved_tensors
        normed = x * rstd
        grad_weight = (grad * normed).reshape(-1, x.shape[-1]).sum(0)
        g = grad * weight
        # d/dx of x·rstd: rstd·(g − normed·mean(g·normed)).
        grad_x = rstd * (g - normed * (g * normed).mean(-1, keepdim=True))
        return grad_x, grad_weight, None
# [end:rmsnorm]


class RMSNorm(nn.Module):
    def __init__(self, size, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))
        self.eps = eps

    def forward(self, x):
        return RMSNormFunction.apply(x, self.weight, self.eps)


class SwiGLUFunction(torch.autograd.Function):
    """silu(gate) · up. Saves gate and up only; silu(gate) is recomputed in backward."""

    @staticmethod
    def forward(ctx, gate, up):
        ctx.save_for_backward(gate, up)
        return F.silu(gate) * up

    @staticmethod
    def backward(ctx, grad):
        gate, up = ctx.saved_tensors
        sig = torch.sigmoid(gate)
        silu = gate * sig
        return grad * up * sig * (1 + gate * (1 - sig)), grad * silu


def causal_attention(q, k, v):
    """Eager attention over [batch, heads, seq, head_dim] tensors: it saves the seq × seq
    probabilities for backward (the book's `--attention eager`). k and v may have fewer heads
    (grouped-query attention); they are repeated to match q."""
    repeat = q.shape[1] // k.shape[1]
    if repeat > 1:
        k = k.repeat_interleave(repeat, dim=1)
        v = v.repeat_interleave(repeat, dim=1)
    s = q.shape[2]
    mask = torch.full((s, s), float("-inf"), dtype=q.dtype).triu(1)
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]) + mask
    return torch.softmax(scores, dim=-1) @ v


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h, d = cfg.hidden_size, cfg.head_dim
        self.heads, self.kv_heads, self.head_dim = cfg.num_attention_heads, cfg.num_key_value_heads, d
        self.q_proj = nn.Linear(h, self.heads * d, bias=False)
        self.k_proj = nn.Linear(h, self.kv_heads * d, bias=False)
        self.v_proj = nn.Linear(h, self.kv_heads * d, bias=False)
        self.o_proj = nn.Linear(self.heads * d, h, bias=False)

    def forward(self, x, attention=causal_attention):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, -1, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, s, -1, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, s, -1, self.head_dim).transpose(1, 2)
        out = attention(q, k, v)
        return self.o_proj(out.transpose(1, 2).reshape(b, s, -1))


class MLP(nn.Module):
    def __init__(self, hidden, width):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, width, bias=False)
        self.up_proj = nn.Linear(hidden, width, bias=False)
        self.down_proj = nn.Linear(width, hidden, bias=False)

    def forward(self, x):
        return self.down_proj(SwiGLUFunction.apply(self.gate_proj(x), self.up_proj(x)))


class MoE(nn.Module):
    """Top-k routing over experts that all live on this process (Mixtral's router: softmax over the
    experts, keep the k largest, renormalise). expert_parallel.py spreads the experts over ranks."""

    def __init__(self, cfg):
        super().__init__()
        self.top_k = cfg.num_experts_per_tok
        self.gate = nn.Linear(cfg.hidden_size, cfg.num_local_experts, bias=False)
        self.experts = nn.ModuleList(MLP(cfg.hidden_size, cfg.intermediate_size) for _ in range(cfg.num_local_experts))

    def route(self, x):
        # The router runs in fp32 at least (fp64 in the exactness tests).
        probs = torch.softmax(self.gate(x), dim=-1, dtype=torch.promote_types(x.dtype, torch.float32))
        weights, experts = probs.topk(self.top_k, dim=-1)
        return (weights / weights.sum(-1, keepdim=True)).to(x.dtype), experts

    def forward(self, x):
        shape = x.shape
        x = x.reshape(-1, shape[-1])
        weights, experts = self.route(x)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            token, slot = (experts == e).nonzero(as_tuple=True)
            if len(token):
                out = out.index_add(0, token, expert(x[token]) * weights[token, slot, None])
        return out.reshape(shape)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attn_norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.attn = Attention(cfg)
        self.mlp_norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.mlp = MoE(cfg) if cfg.num_local_experts else MLP(cfg.hidden_size, cfg.intermediate_size)

    def forward(self, x):
        x = x + self.attn(self.attn_norm(x))
        return x + self.mlp(self.mlp_norm(x))


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.layers = nn.ModuleList(Block(cfg) for _ in range(cfg.num_hidden_layers))
        self.norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.head = nn.Linear(cfg.hidden_size, cfg.vocab_size, bias=False)

    def forward(self, ids, targets):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x)
        logits = self.head(self.norm(x))
        return F.cross_entropy(logits.flatten(0, 1), targets.flatten(), reduction="mean")


def build_model(cfg, dtype=torch.float32, seed=0):
    """The reference model: every parallel program starts from these exact weights."""
    torch.manual_seed(seed)
    model = GPT(cfg).to(dtype)
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() > 1:
                p.normal_(0.0, 0.2)
            else:
                p.uniform_(0.8, 1.2)  # norms: not all ones, so a wrong shard would show
    return model


def make_batches(cfg, steps, microbatches, batch, seq, seed=1):
    """Random token ids: steps × microbatches × (ids, targets), each [batch, seq]."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(steps):
        step = []
        for _ in range(microbatches):
            tokens = torch.randint(cfg.vocab_size, (batch, seq + 1), generator=g)
            step.append((tokens[:, :-1], tokens[:, 1:]))
        out.append(step)
    return out


def train_reference(cfg, batches, dtype=torch.float64, lr=1e-2):
    """Single-process training with gradient accumulation: the result every parallel run must match."""
    model = build_model(cfg, dtype)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    for step in batches:
        opt.zero_grad(set_to_none=True)
        total = 0.0
        for ids, targets in step:
            loss = model(ids, targets) / len(step)
            loss.backward()
            total += loss.item()
        opt.step()
        losses.append(total)
    return losses, {k: v.detach().clone() for k, v in model.state_dict().items()}
