"""Data parallelism: every rank holds the whole model and a slice of the batch; after backward the
gradients are averaged with all-reduce, so every rank takes the same optimizer step.

Two details make it fast in real frameworks, and both are here:

- Bucketing. Gradients are packed into a few flat buffers ("buckets", in the reverse order of the
  parameters, which is roughly the order backward produces them). As soon as every gradient of a
  bucket is ready, that bucket's all-reduce starts (async_op=True) while backward goes on with the
  earlier layers. p.grad is a view into its bucket, so no gradient is stored twice.
- Gradient accumulation. With m microbatches per step, the gradients of the first m - 1 only
  accumulate locally; the all-reduce runs once, during the backward of the last microbatch.

Run: python3 -m companion.data_parallel
"""
import torch

from . import comm
from .model import build_model


class BucketedAllReduce:
    def __init__(self, params, bucket_bytes=4096, group=None, tag="dp"):
        self.group, self.tag = group, tag
        self.buckets, current, size = [], [], 0
        for p in reversed(params):  # backward meets the last layers first
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.buffers = []
        self.bucket_of = {}
        for b, bucket in enumerate(self.buckets):
            buffer = torch.zeros(sum(p.numel() for p in bucket), dtype=bucket[0].dtype)
            offset = 0
            for p in bucket:
                p.grad = buffer[offset:offset + p.numel()].view_as(p)  # gradient as a bucket view
                offset += p.numel()
                self.bucket_of[p] = b
            self.buffers.append(buffer)
        self.sync = True
        self._hooks = [self._register(p) for p in params]
        self._reset()

    # [start:bucket-hook]
    def _register(self, p):
        # The node that adds a microbatch's gradient into p.grad; its hook runs after the addition.
        # (PyTorch 2.1 names this p.register_post_accumulate_grad_hook; DDP in 1.x reached the node
        # the same way.)
        accumulator = p.expand_as(p).grad_fn.next_functions[0][0]

        def on_gradient_ready(*_):
            if not self.sync:  # not the last microbatch: keep accumulating, no communication
                return
            b = self.bucket_of[p]
            self.ready[b] += 1
            self._launch_ready_buckets()

        accumulator.register_hook(on_gradient_ready)
        return accumulator  # keep the node alive

    def _launch_ready_buckets(self, everything=False):
        # Buckets start in index order on every rank, so the collectives line up across ranks.
        while self.launched < len(self.buckets):
            b = self.launched
            if not everything and self.ready[b] < len(self.buckets[b]):
                return
            work = comm.all_reduce(self.buffers[b], self.tag, self.group, async_op=True)
            self.works.append(work)
            self.launched += 1
    # [end:bucket-hook]

    def finish(self):
        """After the last microbatch's backward: launch what is left (a parameter that got no
        gradient, e.g. an unused expert), wait, and turn the sums into means."""
        self._launch_ready_buckets(everything=True)
        for work in self.works:
            work.wait()
        for buffer in self.buffers:
            buffer /= comm.size(self.group)
        self._reset()

    def zero_grad(self):
        for buffer in self.buffers:
            buffer.zero_()

    def _reset(self):
        self.ready = [0] * len(self.buckets)
        self.launched, self.works = 0, []


def batch_slice(tensor, group=None):
    """This rank's rows of a global batch."""
    n, r = comm.size(group), comm.rank(group)
    rows = tensor.shape[0] // n
    return tensor[r * rows:(r + 1) * rows]


class DataParallel:
    """One training step = m microbatches of forward and backward, one all-reduce, one Adam step."""

    def __init__(self, cfg, dtype, lr, bucket_bytes=4096):
        self.model = build_model(cfg, dtype)
        self.sync = BucketedAllReduce(list(self.model.parameters()), bucket_bytes)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    # [start:accumulation]
    def step(self, microbatches):
        self.sync.zero_grad()
        total = 0.0
        for i, (ids, targets) in enumerate(microbatches):
            self.sync.sync = i == len(microbatches) - 1  # all-reduce during the last backward only
            loss = self.model(batch_slice(ids), batch_slice(targets)) / len(microbatches)
            loss.backward()
            total += loss.item()
        self.sync.finish()
        self.optimizer.step()
        return comm.mean_over(total)
    # [end:accumulation]

    def held(self):
        return {
            "parameters": list(self.model.parameters()),
            "gradients": [p.grad for p in self.model.parameters()],
            "optimizer": optimizer_tensors(self.optimizer),
        }

    def full_state(self):
        return dict(self.model.state_dict())


def optimizer_tensors(optimizer):
    """Adam's two moments per parameter. Its per-tensor step counters (one number each) are left
    out, as the book leaves them out."""
    return [v for state in optimizer.state.values() for k, v in state.items() if k != "step"]


if __name__ == "__main__":
    from .harness import demo

    demo("dp", world_size=2)
