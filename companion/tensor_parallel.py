"""Tensor parallelism (Megatron-LM style), with sequence parallelism as an option.

Each of the t ranks holds 1/t of every attention and MLP matrix. Q, K, V and the MLP's gate and up
projections are column-parallel (each rank computes its own heads, its own slice of the MLP
width); the attention output and MLP down projections are row-parallel (each rank produces a
partial sum of the full output). Two operators glue them together:

- f: identity in forward, all-reduce of the input gradient in backward (before column-parallel);
- g: all-reduce in forward, identity in backward (after row-parallel).

That is four all-reduces of a [batch, seq, hidden] tensor per layer and microbatch. Sequence parallelism
replaces each all-reduce by a reduce-scatter and an all-gather over the sequence dimension, so the
norms and residuals between blocks work on 1/t of the tokens. As in Megatron-LM, a column-parallel
block keeps only its sequence shard of the input for backward and all-gathers it again there.

The embedding and the LM head are vocabulary-parallel (1/t of the rows each), and the loss is a
vocabulary-parallel cross-entropy; their collectives are tagged "tp-vocab".

Run: python3 -m companion.tensor_parallel
"""
import torch
from torch import nn

from . import comm
from .model import RMSNormFunction, SwiGLUFunction, build_model, causal_attention


# [start:f-and-g]
class CopyToTensorParallel(torch.autograd.Function):
    """f: the input is already on every rank; in backward each rank holds a partial input gradient."""

    @staticmethod
    def forward(ctx, x, tag="tp"):
        ctx.tag = tag
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous()
        comm.all_reduce(grad, ctx.tag)
        return grad, None


class ReduceFromTensorParallel(torch.autograd.Function):
    """g: each rank holds a partial sum of the output; the gradient is the same on every rank."""

    @staticmethod
    def forward(ctx, x, tag="tp"):
        x = x.clone(memory_format=torch.contiguous_format)
        comm.all_reduce(x, tag)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, None
# [end:f-and-g]


def gather_sequence(x, tag):
    """[b, s/t, h] on each rank → [b, s, h] (all-gather along the sequence)."""
    shard = x.transpose(0, 1).contiguous()
    full = torch.empty((shard.shape[0] * comm.size(),) + shard.shape[1:], dtype=x.dtype)
    return comm.all_gather_into_tensor(full, shard, tag).transpose(0, 1)


def scatter_sequence(x, tag):
    """[b, s, h] partial sums → [b, s/t, h] reduced (reduce-scatter along the sequence)."""
    full = x.transpose(0, 1).contiguous()
    shard = torch.empty((full.shape[0] // comm.size(),) + full.shape[1:], dtype=x.dtype)
    return comm.reduce_scatter_tensor(shard, full, tag).transpose(0, 1)


# [start:sequence-parallel]
class ReduceScatterToSequenceParallel(torch.autograd.Function):
    """After a row-parallel linear: reduce-scatter in forward, all-gather in backward."""

    @staticmethod
    def forward(ctx, x, tag):
        ctx.tag = tag
        return scatter_sequence(x, tag)

    @staticmethod
    def backward(ctx, grad):
        return gather_sequence(grad, ctx.tag), None


class GatherColumnParallel(torch.autograd.Function):
    """Before column-parallel linears: all-gather the sequence shard, multiply by each weight.
    Saves only the shard; backward all-gathers it again, then reduce-scatters the input gradient."""

    @staticmethod
    def forward(ctx, x_shard, tag, *weights):
        ctx.tag = tag
        ctx.save_for_backward(x_shard, *weights)
        full = gather_sequence(x_shard, tag)
        return tuple(full @ w.t() for w in weights)

    @staticmethod
    def backward(ctx, *grads):
        x_shard, *weights = ctx.saved_tensors
        full = gather_sequence(x_shard, ctx.tag)  # the extra all-gather that saving memory costs
        grad_full = sum(g @ w for g, w in zip(grads, weights))
        weight_grads = [g.flatten(0, 1).t() @ full.flatten(0, 1) for g in grads]
        return (scatter_sequence(grad_full, ctx.tag), None, *weight_grads)
# [end:sequence-parallel]


def shard(weight, dim):
    return nn.Parameter(weight.detach().chunk(comm.size(), dim=dim)[comm.rank()].clone())


class TensorParallelBlock(nn.Module):
    def __init__(self, ref, sp):
        super().__init__()
        self.sp = sp
        self.attn_norm, self.mlp_norm = ref.attn_norm, ref.mlp_norm  # replicated
        a = ref.attn
        self.head_dim = a.head_dim
        self.q, self.k, self.v = (shard(p.weight, 0) for p in (a.q_proj, a.k_proj, a.v_proj))  # column
        self.o = shard(a.o_proj.weight, 1)  # row
        m = ref.mlp
        self.gate, self.up = shard(m.gate_proj.weight, 0), shard(m.up_proj.weight, 0)  # column
        self.down = shard(m.down_proj.weight, 1)  # row

    def columns(self, x, *weights):
        if self.sp:
            return GatherColumnParallel.apply(x, "tp", *weights)
        x = CopyToTensorParallel.apply(x)
        return tuple(x @ w.t() for w in weights)

    def rows(self, x, weight):
        y = x @ weight.t()
        return ReduceScatterToSequenceParallel.apply(y, "tp") if self.sp else ReduceFromTensorParallel.apply(y)

    # [start:tp-block]
    def forward(self, x):
        n = self.attn_norm
        q, k, v = self.columns(RMSNormFunction.apply(x, n.weight, n.eps), self.q, self.k, self.v)
        b, s, _ = q.shape
        q, k, v = (t.view(b, s, -1, self.head_dim).transpose(1, 2) for t in (q, k, v))  # our heads only
        out = causal_attention(q, k, v).transpose(1, 2).reshape(b, s, -1)
        x = x + self.rows(out, self.o)
        n = self.mlp_norm
        gate, up = self.columns(RMSNormFunction.apply(x, n.weight, n.eps), self.gate, self.up)
        return x + self.rows(SwiGLUFunction.apply(gate, up), self.down)
    # [end:tp-block]


class VocabParallelCrossEntropy(torch.autograd.Function):
    """Mean cross-entropy when each rank holds the logits of 1/t of the vocabulary: three small
    all-reduces (the max, the sum of exponentials, the target's logit) instead of gathering logits."""

    @staticmethod
    def forward(ctx, logits, targets, start):
        ctx.shape = logits.shape
        logits = logits.flatten(0, 1)
        targets = targets.flatten()
        top = logits.max(-1).values
        comm.all_reduce(top, "tp-vocab", op=torch.distributed.ReduceOp.MAX)
        exp = (logits - top[:, None]).exp()
        total = exp.sum(-1)
        comm.all_reduce(total, "tp-vocab")
        local = targets - start
        mine = (local >= 0) & (local < logits.shape[1])
        picked = torch.where(mine, logits.gather(1, local.clamp(0, logits.shape[1] - 1)[:, None])[:, 0] - top, torch.zeros_like(top))
        comm.all_reduce(picked, "tp-vocab")
        softmax = exp / total[:, None]
        ctx.save_for_backward(softmax, local, mine)
        return (total.log() - picked).mean()

    @staticmethod
    def backward(ctx, grad):
        softmax, local, mine = ctx.saved_tensors
        g = softmax.clone()
        rows = mine.nonzero()[:, 0]
        g[rows, local[rows]] -= 1
        return (g * grad / len(local)).view(ctx.shape), None, None


class TensorParallel:
    def __init__(self, cfg, dtype, lr, sp=False):
        ref = build_model(cfg, dtype)
        self.sp, self.ref = sp, ref
        self.embedding, self.head = shard(ref.embed.weight, 0), shard(ref.head.weight, 0)
        self.vocab_start = comm.rank() * self.embedding.shape[0]
        self.blocks = nn.ModuleList(TensorParallelBlock(layer, sp) for layer in ref.layers)
        self.norm = ref.norm
        self.params = [self.embedding, *self.blocks.parameters(), *self.norm.parameters(), self.head]
        self.optimizer = torch.optim.Adam(self.params, lr=lr)

    def forward(self, ids, targets):
        local = ids - self.vocab_start
        outside = (local < 0) | (local >= self.embedding.shape[0])
        x = self.embedding[local.clamp(0, self.embedding.shape[0] - 1)].masked_fill(outside[..., None], 0.0)
        x = ReduceScatterToSequenceParallel.apply(x, "tp-vocab") if self.sp else ReduceFromTensorParallel.apply(x, "tp-vocab")
        for block in self.blocks:
            x = block(x)
        x = RMSNormFunction.apply(x, self.norm.weight, self.norm.eps)
        if self.sp:
            (logits,) = GatherColumnParallel.apply(x, "tp-vocab", self.head)
        else:
            logits = CopyToTensorParallel.apply(x, "tp-vocab") @ self.head.t()
        return VocabParallelCrossEntropy.apply(logits, targets, self.vocab_start)

    def step(self, microbatches):
        for p in self.params:
            p.grad = None
        total = 0.0
        for ids, targets in microbatches:  # every rank sees the same tokens
            loss = self.forward(ids, targets) / len(microbatches)
            loss.backward()
            total += loss.item()
        if self.sp:  # each rank normalised only its tokens: sum the norm weights' gradients
            for p in [*self.norm.parameters()] + [b.attn_norm.weight for b in self.blocks] + [b.mlp_norm.weight for b in self.blocks]:
                comm.all_reduce(p.grad, "tp-sp-norms")
        self.optimizer.step()
        return total

    def held(self):
        from .data_parallel import optimizer_tensors

        return {"parameters": self.params, "gradients": [p.grad for p in self.params],
                "optimizer": optimizer_tensors(self.optimizer)}

    def full_state(self):
        def gather(p, dim):
            part = p.detach().transpose(0, dim).contiguous()
            full = torch.empty((part.shape[0] * comm.size(),) + part.shape[1:], dtype=part.dtype)
            return comm.all_gather_into_tensor(full, part, "state").transpose(0, dim)

        state = {"embed.weight": gather(self.embedding, 0), "head.weight": gather(self.head, 0),
                 "norm.weight": self.norm.weight}
        for i, b in enumerate(self.blocks):
            names = {"attn.q_proj": (b.q, 0), "attn.k_proj": (b.k, 0), "attn.v_proj": (b.v, 0), "attn.o_proj": (b.o, 1),
                     "mlp.gate_proj": (b.gate, 0), "mlp.up_proj": (b.up, 0), "mlp.down_proj": (b.down, 1)}
            for name, (p, dim) in names.items():
                state[f"layers.{i}.{name}.weight"] = gather(p, dim)
            state[f"layers.{i}.attn_norm.weight"] = b.attn_norm.weight
            state[f"layers.{i}.mlp_norm.weight"] = b.mlp_norm.weight
        return state


if __name__ == "__main__":
    from .harness import demo

    demo("tp", world_size=2)
    demo("tp", world_size=2, options={"sp": True})
