"""Pipeline parallelism: rank i of p holds a contiguous block of layers (stage i); the first stage
also holds the embedding, the last the final norm, the LM head and the loss. A batch is cut into m
microbatches that flow through the stages: activations go forward with send/recv, their
gradients come back the same way.

Two schedules, which do the same arithmetic and differ in how many microbatches' activations a
stage keeps at once:

- AFAB (all forward, all backward; GPipe): every forward, then every backward. Each stage holds
  the activations of all m microbatches at its peak.
- 1F1B (PipeDream-Flush, Megatron-LM): stage i runs p - i - 1 warm-up forwards, then alternates
  one forward and one backward, then drains. It holds at most p - i microbatches.

The layers are split as the book's model splits them (src/model/memory.ts): the first L mod p
stages take one extra layer.

Run: python3 -m companion.pipeline
"""
import torch
import torch.nn.functional as F

from . import comm
from .data_parallel import optimizer_tensors
from .model import build_model


def stage_layers(num_layers, stages, stage):
    base, extra = divmod(num_layers, stages)
    first = stage * base + min(stage, extra)
    return range(first, first + base + (1 if stage < extra else 0))


class Pipeline:
    def __init__(self, cfg, dtype, lr, schedule="1f1b"):
        self.schedule = schedule
        self.stage, self.stages = comm.rank(), comm.size()
        self.first, self.last = self.stage == 0, self.stage == self.stages - 1
        ref = build_model(cfg, dtype)
        self.layer_ids = list(stage_layers(cfg.num_hidden_layers, self.stages, self.stage))
        self.layers = [ref.layers[i] for i in self.layer_ids]
        self.embed = ref.embed if self.first else None
        self.norm, self.head = (ref.norm, ref.head) if self.last else (None, None)
        self.modules = [m for m in [self.embed, *self.layers, self.norm, self.head] if m is not None]
        self.params = [p for m in self.modules for p in m.parameters()]
        self.optimizer = torch.optim.Adam(self.params, lr=lr)
        self.hidden, self.dtype = cfg.hidden_size, dtype

    # [start:stage-forward]
    def forward(self, microbatch, m):
        """One microbatch through this stage. Returns what backward needs: (input, output)."""
        ids, targets = microbatch
        if self.first:
            x = inputs = self.embed(ids)
        else:
            x = comm.recv(torch.empty(ids.shape + (self.hidden,), dtype=self.dtype), self.stage - 1)
            inputs = x.requires_grad_()
        for layer in self.layers:
            x = layer(x)
        if self.last:
            logits = self.head(self.norm(x))
            x = F.cross_entropy(logits.flatten(0, 1), targets.flatten()) / m
            self.loss += x.item()
        else:
            self.sends.append(comm.send(x.detach(), self.stage + 1, "pp"))
        return inputs, x

    def backward(self, saved):
        inputs, output = saved
        if self.last:
            output.backward()
        else:
            grad = comm.recv(torch.empty_like(output), self.stage + 1)
            output.backward(grad)
        if not self.first:
            self.sends.append(comm.send(inputs.grad, self.stage - 1, "pp"))
    # [end:stage-forward]

    # [start:schedules]
    def step(self, microbatches):
        self.optimizer.zero_grad(set_to_none=True)
        self.loss, self.sends, m = 0.0, [], len(microbatches)
        in_flight = []  # activations kept for backward, oldest first
        if self.schedule == "afab":
            for mb in microbatches:
                in_flight.append(self.forward(mb, m))
            while in_flight:
                self.backward(in_flight.pop(0))
        else:  # 1f1b
            warmup = min(self.stages - self.stage - 1, m)
            for mb in microbatches[:warmup]:
                in_flight.append(self.forward(mb, m))
            for mb in microbatches[warmup:]:
                in_flight.append(self.forward(mb, m))  # one forward ...
                self.backward(in_flight.pop(0))  # ... one backward
            while in_flight:
                self.backward(in_flight.pop(0))
        for work in self.sends:
            work.wait()
        self.optimizer.step()
        return comm.sum_over(self.loss)  # only the last stage has a loss
    # [end:schedules]

    def held(self):
        return {"parameters": self.params, "gradients": [p.grad for p in self.params],
                "optimizer": optimizer_tensors(self.optimizer)}

    def full_state(self):
        state = {}
        for name, module in (("embed", self.embed), ("norm", self.norm), ("head", self.head)):
            if module is not None:
                state[f"{name}.weight"] = module.weight
        for i, layer in zip(self.layer_ids, self.layers):
            state.update({f"layers.{i}.{k}": v for k, v in layer.state_dict().items()})
        return state


if __name__ == "__main__":
    from .harness import demo

    demo("pp", world_size=2, options={"schedule": "afab"})
    demo("pp", world_size=2, options={"schedule": "1f1b"})
