"""Measure one training step of a companion program, rank by rank, in the book's terms.

  python3 -m companion.measure --config companion/configs/tiny.json --seq 32 --micro-batch 2 --tp 2 --sp

prints a JSON list, one object per rank, with the bytes it holds after the step (fp32):

- parameters, gradients, optimizer: the storages of the program's parameters, gradients and
  Adam moments, each storage counted once (Adam's one-number step counters are left out);
- activations: the peak, over the step, of the bytes saved for backward, seen through
  torch.autograd.graph.saved_tensors_hooks and counted once per storage; parameters that autograd
  saves are not activations. activationsIndex is the part held in integer and boolean tensors
  (token ids, routing indices), which the book's model does not count;
- communication: per tag (which part of the program issued it) and collective, the calls, the
  message bytes and the bytes sent in nccl-tests' ring convention (see comm.py).

One form of parallelism runs at a time: --dp (with --zero), --tp (with --sp), --pp, --cp, or --ep
(whose ranks are the --dp ranks, so --ep must equal --dp).
"""
import argparse
import json
import sys

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

from . import comm
from .harness import make_program
from .model import Config, make_batches


class SavedTensorCounter:
    """Live bytes saved for backward, one count per storage, and their peak."""

    def __init__(self):
        self.refs, self.live, self.peak = {}, {"floating": 0, "index": 0}, {"floating": 0, "index": 0}

    def pack(self, tensor):
        if isinstance(tensor, nn.Parameter) or isinstance(tensor._base, nn.Parameter):
            return tensor  # weights are model states, not activations
        storage = _storage(tensor)
        key = (storage.data_ptr(), storage.nbytes())
        kind = "floating" if tensor.is_floating_point() else "index"
        if self.refs.get(key, 0) == 0:
            self.live[kind] += storage.nbytes()
            if sum(self.live.values()) > sum(self.peak.values()):
                self.peak = dict(self.live)
        self.refs[key] = self.refs.get(key, 0) + 1
        return _Saved(self, tensor, key, kind)

    @staticmethod
    def unpack(saved):
        return saved.tensor if isinstance(saved, _Saved) else saved

    def release(self, key, kind, nbytes):
        self.refs[key] -= 1
        if self.refs[key] == 0:
            self.live[kind] -= nbytes


class _Saved:
    def __init__(self, counter, tensor, key, kind):
        self.counter, self.tensor, self.key, self.kind = counter, tensor, key, kind

    def __del__(self):  # autograd dropped the saved tensor
        self.counter.release(self.key, self.kind, self.key[1])


def _storage(tensor):
    # PyTorch 2 names the byte storage untyped_storage(); 1.13 has storage() only.
    return tensor.untyped_storage() if hasattr(tensor, "untyped_storage") else tensor.storage()


def storage_bytes(tensors):
    seen = {}
    for t in tensors:
        if t is not None and t.numel():
            s = _storage(t)
            seen[s.data_ptr()] = s.nbytes()
    return sum(seen.values())


def recompute_layers(program):
    """Full recomputation: keep each layer's input only and run the layer again in backward."""
    model = getattr(program, "model", None)
    layers = model.layers if model is not None else getattr(program, "blocks", None) or program.layers
    for layer in layers:
        forward = layer.forward
        layer.forward = lambda x, forward=forward: checkpoint(forward, x)


def program_for(args):
    one = {"dp": args.dp, "tp": args.tp, "pp": args.pp, "cp": args.cp}
    used = [k for k, v in one.items() if v > 1]
    if args.ep > 1:
        if args.ep != args.dp or len(used) > 1:
            sys.exit("error: --ep must equal --dp, with no other parallelism")
        return "ep", {}, args.ep
    if len(used) > 1:
        sys.exit(f"error: the companion runs one form of parallelism at a time (got {', '.join(used)})")
    if args.zero and args.dp == 1 and used:
        sys.exit("error: --zero needs --dp")
    if args.sp and args.tp == 1:
        sys.exit("error: --sp needs --tp")
    kind = used[0] if used else "dp"
    options = {"dp": {}, "tp": {"sp": args.sp}, "pp": {"schedule": args.schedule}, "cp": {}}[kind]
    if kind == "dp" and args.zero:
        return "zero", {"stage": args.zero}, args.dp
    return kind, options, one[kind]


def _measure_rank(rank, world_size, setups):
    out = []
    for raw_cfg, name, options, shape, recompute in setups:
        comm.traffic.clear()
        comm.counting[0] = True
        cfg = Config.load(raw_cfg)
        program = make_program(name, cfg, torch.float32, 1e-3, options)
        if recompute == "full":
            recompute_layers(program)
        counter = SavedTensorCounter()
        (step,) = make_batches(cfg, *shape)
        with torch.autograd.graph.saved_tensors_hooks(counter.pack, counter.unpack):
            program.step(step)
        comm.counting[0] = False
        held = program.held()
        out.append({
            "rank": rank,
            "parameters": storage_bytes(held["parameters"]),
            "gradients": storage_bytes(held["gradients"]),
            "optimizer": storage_bytes(held["optimizer"]),
            "activations": counter.peak["floating"],
            "activationsIndex": counter.peak["index"],
            "communication": {tag: dict(kinds) for tag, kinds in comm.traffic.items()},
        })
    return out


def measure_many(world_size, setups):
    """setups: (raw config, program, options, (steps, microbatches, global batch, seq), recompute)."""
    return [list(r) for r in zip(*comm.launch(_measure_rank, world_size, setups))]


def parse(argv):
    p = argparse.ArgumentParser(prog="python3 -m companion.measure", description=__doc__.split("\n\n")[0])
    p.add_argument("--config", required=True, help="a Hugging Face style config.json")
    p.add_argument("--seq", type=int, required=True)
    p.add_argument("--micro-batch", type=int, required=True)
    for flag in ("dp", "tp", "pp", "cp", "ep"):
        p.add_argument(f"--{flag}", type=int, default=1)
    p.add_argument("--sp", action="store_true")
    p.add_argument("--zero", type=int, choices=[0, 1, 2, 3], default=0)
    p.add_argument("--recompute", choices=["none", "full"], default="none")
    p.add_argument("--schedule", choices=["afab", "1f1b"], default="1f1b")
    p.add_argument("--microbatches", type=int, help="microbatches per step (default: --pp)")
    return p.parse_args(argv)


def setup_of(args):
    name, options, world = program_for(args)
    with open(args.config) as f:
        raw_cfg = json.load(f)
    data_ranks = args.dp if name in ("dp", "zero", "ep") else 1
    shape = (1, args.microbatches or args.pp, args.micro_batch * data_ranks, args.seq)
    return world, (raw_cfg, name, options, shape, args.recompute)


def main(argv=None):
    world, setup = setup_of(parse(argv))
    (ranks,) = measure_many(world, [setup])
    print(json.dumps(ranks, indent=2))


if __name__ == "__main__":
    main()
