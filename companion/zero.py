"""ZeRO: data parallelism in which each of the n ranks keeps only 1/n of the model states.

- Stage 1 shards the optimizer states. Each rank owns one contiguous 1/n of the flattened
  parameters: gradients are reduce-scattered (each rank gets the average of its own shard), each
  rank updates its shard with Adam, and an all-gather hands every rank the updated parameters.
- Stage 2 also shards the gradients: after each microbatch's backward the full gradients are
  reduce-scattered into a 1/n accumulator and dropped.
- Stage 3 also shards the parameters. The model is cut into units (the embedding, each layer,
  the final norm with the LM head). A unit's parameters are all-gathered just before its forward,
  freed just after, all-gathered again when backward reaches it, and its gradients are
  reduce-scattered and freed as soon as they are complete.

Run: python3 -m companion.zero
"""
import torch
import torch.nn.functional as F
from torch import nn

from . import comm
from .data_parallel import batch_slice, optimizer_tensors
from .model import build_model


class FlatShard:
    """Some parameters laid end to end in one flat buffer (padded to a multiple of n), and this
    rank's 1/n of it as an nn.Parameter that Adam updates."""

    def __init__(self, params, keep_full):
        self.params = list(params)
        self.shapes = [p.shape for p in self.params]
        n, r = comm.size(), comm.rank()
        numel = sum(p.numel() for p in self.params)
        self.padded = -(-numel // n) * n
        flat = torch.zeros(self.padded, dtype=self.params[0].dtype)
        torch.cat([p.detach().reshape(-1) for p in self.params], out=flat[:numel])
        if keep_full:  # stages 1 and 2: parameters stay whole, as views of the flat buffer
            self.flat = flat
            self.shard = nn.Parameter(flat.chunk(n)[r])  # shares the flat buffer's memory
            self._point_params_at(flat)
        else:  # stage 3: keep only our chunk; parameters are empty until gathered
            self.flat = None
            self.shard = nn.Parameter(flat.chunk(n)[r].clone())  # the caller frees the parameters

    def _point_params_at(self, flat):
        offset = 0
        for p, shape in zip(self.params, self.shapes):
            p.data = flat[offset:offset + shape.numel()].view(shape)
            offset += shape.numel()

    def gather(self, tag="zero"):
        full = torch.empty(self.padded, dtype=self.shard.dtype)
        comm.all_gather_into_tensor(full, self.shard.detach(), tag)
        self._point_params_at(full)

    def free(self):
        for p in self.params:
            p.data = torch.empty(0, dtype=p.dtype)

    def flat_grad(self):
        grads = [p.grad if p.grad is not None else torch.zeros(s, dtype=self.shard.dtype) for p, s in zip(self.params, self.shapes)]
        flat = torch.zeros(self.padded, dtype=self.shard.dtype)
        torch.cat([g.reshape(-1) for g in grads], out=flat[:sum(s.numel() for s in self.shapes)])
        return flat


class Zero:
    def __init__(self, cfg, dtype, lr, stage=1):
        self.stage = stage
        self.model = build_model(cfg, dtype)
        m = self.model
        if stage < 3:
            self.units = [FlatShard(m.parameters(), keep_full=True)]
        else:
            groups = [[m.embed]] + [[layer] for layer in m.layers] + [[m.norm, m.head]]
            self.units = [FlatShard([p for mod in g for p in mod.parameters()], keep_full=False) for g in groups]
            for unit in self.units:
                for p in unit.params:  # hook first: autograd records p's full shape here
                    self._reduce_when_complete(unit, p)
                unit.free()
        for unit in self.units:
            unit.shard.grad = torch.zeros_like(unit.shard)
        if stage == 1:  # whole gradients live in one flat buffer; our shard's gradient is a view of it
            unit = self.units[0]
            unit.grad_flat = torch.zeros(unit.padded, dtype=dtype)
            offset = 0
            for p in unit.params:
                p.grad = unit.grad_flat[offset:offset + p.numel()].view_as(p)
                offset += p.numel()
            unit.shard.grad = unit.grad_flat.chunk(comm.size())[comm.rank()]
        self.optimizer = torch.optim.Adam([u.shard for u in self.units], lr=lr)

    # [start:zero3-unit]
    def _run(self, unit, fn):
        """Stage 3: gather the unit's parameters, run it, free them, and gather again in backward."""
        unit.gather()
        out = fn()
        unit.free()
        out.register_hook(lambda grad: unit.gather())  # backward is about to need the weights
        return out

    def _reduce_when_complete(self, unit, p):
        # After p's gradient is accumulated (see data_parallel.py for this hook): once the whole unit
        # has its gradients, reduce-scatter them into our shard, drop them, and free the weights.
        def on_gradient_ready(*_):
            unit.ready = getattr(unit, "ready", 0) + 1
            if unit.ready == len(unit.params):
                unit.ready = 0
                self._reduce_scatter(unit)
                unit.free()

        accumulator = p.expand_as(p).grad_fn.next_functions[0][0]
        accumulator.register_hook(on_gradient_ready)
        unit.accumulators = getattr(unit, "accumulators", []) + [accumulator]
    # [end:zero3-unit]

    def _reduce_scatter(self, unit):
        if self.stage == 1:  # in place: our chunk of the flat gradient buffer becomes the average
            comm.reduce_scatter_tensor(unit.shard.grad, unit.grad_flat, "zero")
            unit.shard.grad /= comm.size()
            return
        mine = torch.empty_like(unit.shard)
        comm.reduce_scatter_tensor(mine, unit.flat_grad(), "zero")
        unit.shard.grad += mine / comm.size()
        for p in unit.params:
            p.grad = None

    def forward(self, ids, targets):
        if self.stage < 3:
            return self.model(ids, targets)
        m = self.model
        x = self._run(self.units[0], lambda: m.embed(ids))
        for unit, layer in zip(self.units[1:-1], m.layers):
            x = self._run(unit, lambda: layer(x))
        logits = self._run(self.units[-1], lambda: m.head(m.norm(x)))
        return F.cross_entropy(logits.flatten(0, 1), targets.flatten())

    # [start:zero-step]
    def step(self, microbatches):
        for unit in self.units:
            unit.shard.grad.zero_()
            if self.stage == 1:
                unit.grad_flat.zero_()
        total = 0.0
        for ids, targets in microbatches:
            loss = self.forward(batch_slice(ids), batch_slice(targets)) / len(microbatches)
            loss.backward()
            total += loss.item()
            if self.stage == 2:  # gradients sharded: reduce-scatter every microbatch, keep 1/n
                self._reduce_scatter(self.units[0])
        if self.stage == 1:  # one reduce-scatter of the accumulated gradients
            self._reduce_scatter(self.units[0])
        self.optimizer.step()  # Adam on our shard only: 1/n of the optimizer states
        if self.stage < 3:  # everyone needs every updated parameter for the next forward
            unit = self.units[0]
            comm.all_gather_into_tensor(unit.flat, unit.shard.detach().clone(), "zero")
        return comm.mean_over(total)
    # [end:zero-step]

    def held(self):
        params = [u.shard for u in self.units] if self.stage == 3 else list(self.model.parameters())
        grads = [u.grad_flat if self.stage == 1 else u.shard.grad for u in self.units]
        return {"parameters": params, "gradients": grads, "optimizer": optimizer_tensors(self.optimizer)}

    def full_state(self):
        if self.stage == 3:
            for unit in self.units:
                unit.gather()
        return dict(self.model.state_dict())


if __name__ == "__main__":
    from .harness import demo

    for stage in (1, 2, 3):
        demo("zero", world_size=2, options={"stage": stage})
