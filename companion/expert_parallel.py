"""Expert parallelism: in a mixture-of-experts layer each of the e ranks holds E/e of the experts
and its own slice of the batch (expert-parallel ranks are data-parallel ranks). Every other
weight is replicated and its gradients are all-reduced, as in data_parallel.py.

One MoE layer on one rank:

1. route: the router picks k experts per token (and their weights);
2. dispatch: sort the k copies of each token by expert, so they are grouped by the rank that
   holds the expert, and exchange them with one all-to-all (first the counts, so every rank knows
   how many rows it will receive);
3. compute: each local expert runs on the rows it received;
4. combine: a second all-to-all sends the results back in the same order, and each token sums
   its k results weighted by the router.

Backward runs the two all-to-alls again, the other way round. With real routing the ranks do not
receive equal numbers of tokens; the book's model assumes they do.

Run: python3 -m companion.expert_parallel
"""
import torch
from torch import nn

from . import comm
from .data_parallel import BucketedAllReduce, batch_slice, optimizer_tensors
from .model import build_model


class AllToAll(torch.autograd.Function):
    """Rows of x go to the ranks in order (send_rows[i] to rank i); backward sends gradients back."""

    @staticmethod
    def forward(ctx, x, receive_rows, send_rows):
        ctx.rows = receive_rows, send_rows
        out = torch.empty((sum(receive_rows), x.shape[1]), dtype=x.dtype)
        return comm.all_to_all_single(out, x.contiguous(), "ep", list(receive_rows), list(send_rows))

    @staticmethod
    def backward(ctx, grad):
        receive_rows, send_rows = ctx.rows
        out = torch.empty((sum(send_rows), grad.shape[1]), dtype=grad.dtype)
        return comm.all_to_all_single(out, grad.contiguous(), "ep", list(send_rows), list(receive_rows)), None, None


class ExpertParallelMoE(nn.Module):
    def __init__(self, ref):
        super().__init__()
        e, r = comm.size(), comm.rank()
        self.per_rank = len(ref.experts) // e
        self.first = r * self.per_rank
        self.gate, self.route = ref.gate, ref.route
        self.experts = nn.ModuleList(ref.experts[self.first:self.first + self.per_rank])
        self.top_k = ref.top_k

    # [start:dispatch-combine]
    def forward(self, x):
        shape, e = x.shape, comm.size()
        x = x.reshape(-1, shape[-1])
        weights, experts = self.route(x)  # [tokens, k] each
        order = experts.flatten().argsort(stable=True)  # the k copies of every token, by expert
        token = order // self.top_k
        expert = experts.flatten()[order]
        send_rows = torch.bincount(expert // self.per_rank, minlength=e)
        receive_rows = torch.empty_like(send_rows)
        comm.all_to_all_single(receive_rows, send_rows, "ep-counts")  # how many rows will arrive
        send_rows, receive_rows = send_rows.tolist(), receive_rows.tolist()
        received_expert = torch.empty(sum(receive_rows), dtype=expert.dtype)
        comm.all_to_all_single(received_expert, expert, "ep-counts", receive_rows, send_rows)

        received = AllToAll.apply(x[token], receive_rows, send_rows)  # dispatch
        by_expert = received_expert.argsort(stable=True)  # rows came grouped by sender; regroup
        counts = torch.bincount(received_expert - self.first, minlength=self.per_rank).tolist()
        chunks = received[by_expert].split(counts)
        out = torch.cat([expert(chunk) for expert, chunk in zip(self.experts, chunks)])
        back = AllToAll.apply(out[by_expert.argsort()], send_rows, receive_rows)  # combine
        copies = back[order.argsort()].view(-1, self.top_k, shape[-1])  # token by token, k copies
        y = (copies * weights[..., None]).sum(1)
        return y.reshape(shape)
    # [end:dispatch-combine]


class ExpertParallel:
    def __init__(self, cfg, dtype, lr):
        self.model = build_model(cfg, dtype)
        for layer in self.model.layers:
            layer.mlp = ExpertParallelMoE(layer.mlp)
        self.params = list(self.model.parameters())
        self.expert_params = {id(p) for layer in self.model.layers for p in layer.mlp.experts.parameters()}
        dense = [p for p in self.params if id(p) not in self.expert_params]
        # Dense weights are replicated on the e ranks: all-reduce their gradients. Each expert lives on
        # one rank of the group, so its gradient needs no communication here.
        self.sync = BucketedAllReduce(dense)
        for p in self.params:
            if id(p) in self.expert_params:
                p.grad = torch.zeros_like(p)
        self.optimizer = torch.optim.Adam(self.params, lr=lr)

    def step(self, microbatches):
        self.sync.zero_grad()
        for p in self.params:
            if id(p) in self.expert_params:
                p.grad.zero_()
        total = 0.0
        for i, (ids, targets) in enumerate(microbatches):
            self.sync.sync = i == len(microbatches) - 1
            loss = self.model(batch_slice(ids), batch_slice(targets)) / len(microbatches)
            loss.backward()
            total += loss.item()
        self.sync.finish()
        for p in self.params:  # the loss is a mean over the e ranks' tokens
            if id(p) in self.expert_params:
                p.grad /= comm.size()
        self.optimizer.step()
        return comm.mean_over(total)

    def held(self):
        return {"parameters": self.params, "gradients": [p.grad for p in self.params],
                "optimizer": optimizer_tensors(self.optimizer)}

    def full_state(self):
        state = {}
        for name, value in self.model.state_dict().items():
            if ".mlp.experts." in name:  # local index → the expert's index in the whole model
                prefix, rest = name.split(".mlp.experts.")
                local, tail = rest.split(".", 1)
                layer = self.model.layers[int(prefix.split(".")[1])].mlp
                name = f"{prefix}.mlp.experts.{layer.first + int(local)}.{tail}"
            state[name] = value
        return state


if __name__ == "__main__":
    from .harness import demo

    demo("ep", world_size=2)
