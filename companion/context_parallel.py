"""Context parallelism: each of the c ranks holds 1/c of every sequence (a contiguous chunk of T
tokens) and the whole model. Everything but attention is per token, so it needs no communication.
Attention needs every earlier key and value: ring attention passes the K/V chunks around the
ring of ranks, c - 1 hops, while each rank attends its queries to the chunk it holds.

Each rank sees the scores one chunk at a time, so the softmax is computed online, as in
FlashAttention: keep a running maximum m and a running sum l per query row, and when a new chunk
raises the maximum, rescale what was accumulated by exp(m_old - m_new). Nothing of size T × T is
kept for backward: backward recomputes each chunk's probabilities from the saved log-sum-exp.

Backward passes K/V around the ring once more, and the partial gradients dK, dV travel with them
and arrive at their owner after c - 1 hops: 3(c - 1) chunk transfers per layer in all.

With a causal mask, chunks from later positions are skipped (rank 0 idles most); real
implementations balance the work by giving each rank two chunks, one early and one late.

Run: python3 -m companion.context_parallel
"""
import math

import torch

from . import comm
from .data_parallel import BucketedAllReduce, optimizer_tensors
from .model import build_model


def _scores(q, k, causal):
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if causal:  # the diagonal chunk: a token sees itself and the tokens before it
        s = s + torch.full(s.shape[-2:], float("-inf"), dtype=s.dtype).triu(1)
    return s


def _pass_on(tensor):
    """Send to the next rank in the ring, receive the previous rank's tensor."""
    c, r = comm.size(), comm.rank()
    work = comm.send(tensor, (r + 1) % c, "cp")
    received = comm.recv(torch.empty_like(tensor), (r - 1) % c)
    work.wait()
    return received


class RingAttention(torch.autograd.Function):
    @staticmethod
    # [start:ring-forward]
    def forward(ctx, q, k, v):
        c, r = comm.size(), comm.rank()
        group = q.shape[1] // k.shape[1]  # grouped-query attention: query heads per K/V head
        kv = torch.cat([k, v])
        m = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=q.dtype)
        l = torch.zeros_like(m)
        acc = torch.zeros_like(q)
        for step in range(c):
            owner = (r - step) % c  # whose chunk we hold now
            if owner <= r:  # chunks from later positions are masked out entirely
                k_j, v_j = (t.repeat_interleave(group, dim=1) for t in kv.chunk(2))
                s = _scores(q, k_j, causal=owner == r)
                m_new = torch.maximum(m, s.amax(-1, keepdim=True))
                p = torch.exp(s - m_new)
                scale = torch.exp(m - m_new)  # rescale what earlier chunks contributed
                l = l * scale + p.sum(-1, keepdim=True)
                acc = acc * scale + p @ v_j
                m = m_new
            if step < c - 1:
                kv = _pass_on(kv)
        b, a, t, d = q.shape
        out = (acc / l).transpose(1, 2).reshape(b, t, a * d)  # the layout o_proj reads
        ctx.save_for_backward(q, k, v, out, m + torch.log(l))
        return out.view(b, t, a, d).transpose(1, 2)
    # [end:ring-forward]

    @staticmethod
    def backward(ctx, grad_out):
        c, r = comm.size(), comm.rank()
        q, k, v, out, lse = ctx.saved_tensors
        b, a, t, d = q.shape
        group = a // k.shape[1]
        out = out.view(b, t, a, d).transpose(1, 2)
        delta = (grad_out * out).sum(-1, keepdim=True)
        dq = torch.zeros_like(q)
        kv, passing = torch.cat([k, v]), None
        for step in range(c):
            owner = (r - step) % c
            dkv = torch.zeros_like(kv)
            if owner <= r:
                k_j, v_j = (x.repeat_interleave(group, dim=1) for x in kv.chunk(2))
                p = torch.exp(_scores(q, k_j, causal=owner == r) - lse)  # recomputed probabilities
                dp = grad_out @ v_j.transpose(-1, -2)
                ds = p * (dp - delta) / math.sqrt(d)
                dq += ds @ k_j
                dk_j, dv_j = ds.transpose(-1, -2) @ q, p.transpose(-1, -2) @ grad_out
                dkv = torch.cat([x.view(b, -1, group, t, d).sum(2) for x in (dk_j, dv_j)])
            if step == 0:
                own = dkv  # our own chunk's gradient from our own queries stays here
            else:  # add to the partial gradient that travels with this chunk, and pass it on
                passing = dkv if passing is None else passing + dkv
                passing = _pass_on(passing)
            if step < c - 1:
                kv = _pass_on(kv)
        dkv = own + passing if passing is not None else own
        dk, dv = dkv.chunk(2)
        return dq, dk, dv


def ring_attention(q, k, v):
    return RingAttention.apply(q, k, v)


class ContextParallel:
    def __init__(self, cfg, dtype, lr):
        self.model = build_model(cfg, dtype)
        self.sync = BucketedAllReduce(list(self.model.parameters()))  # weights are replicated
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        for layer in self.model.layers:
            forward = layer.attn.forward
            layer.attn.forward = lambda x, forward=forward: forward(x, attention=ring_attention)

    def step(self, microbatches):
        c, r = comm.size(), comm.rank()
        self.sync.zero_grad()
        total = 0.0
        for i, (ids, targets) in enumerate(microbatches):
            t = ids.shape[1] // c
            chunk = slice(r * t, (r + 1) * t)  # our tokens of every sequence
            self.sync.sync = i == len(microbatches) - 1
            loss = self.model(ids[:, chunk], targets[:, chunk]) / len(microbatches)
            loss.backward()
            total += loss.item()
        self.sync.finish()  # gradients: mean over the chunks, as over data-parallel ranks
        self.optimizer.step()
        return comm.mean_over(total)

    def held(self):
        params = list(self.model.parameters())
        return {"parameters": params, "gradients": [p.grad for p in params],
                "optimizer": optimizer_tensors(self.optimizer)}

    def full_state(self):
        return dict(self.model.state_dict())


if __name__ == "__main__":
    from .harness import demo

    demo("cp", world_size=2)
