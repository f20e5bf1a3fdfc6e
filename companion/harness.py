"""Runs a companion program in several processes next to the single-process reference
(model.train_reference) and reports how far apart their losses and final parameters are.

Every program exposes the same small class: Program(cfg, dtype, lr, **options) with
step(global_microbatches) -> loss of the whole batch, held() -> the tensors this rank keeps
(parameters, gradients, optimizer states; companion.measure counts their bytes), and full_state()
-> the reference model's parameters this rank can rebuild, by name.
"""
import importlib

import torch

from . import comm
from .model import Config, make_batches, train_reference

PROGRAMS = {
    "dp": ("data_parallel", "DataParallel"),
    "zero": ("zero", "Zero"),
    "tp": ("tensor_parallel", "TensorParallel"),
    "pp": ("pipeline", "Pipeline"),
    "cp": ("context_parallel", "ContextParallel"),
    "ep": ("expert_parallel", "ExpertParallel"),
}

# Small enough to train in a second, large enough that a wrong shard or a missing sum shows.
TINY = {"hidden_size": 16, "num_attention_heads": 4, "num_key_value_heads": 4, "intermediate_size": 32,
        "num_hidden_layers": 4, "vocab_size": 64}
TINY_MOE = dict(TINY, model_type="mixtral", num_local_experts=4, num_experts_per_tok=2)


def make_program(name, cfg, dtype, lr, options):
    module, cls = PROGRAMS[name]
    return getattr(importlib.import_module(f"companion.{module}"), cls)(cfg, dtype, lr, **options)


def _train_rank(rank, world_size, scenarios, shape, dtype_name, lr):
    out = []
    for name, options, raw_cfg in scenarios:
        cfg = Config.load(raw_cfg)
        comm.counting[0] = True
        program = make_program(name, cfg, getattr(torch, dtype_name), lr, options)
        losses = [program.step(step) for step in make_batches(cfg, *shape)]
        comm.counting[0] = False  # rebuilding full tensors is not training traffic
        out.append({"losses": losses, "state": {k: v.detach().clone() for k, v in program.full_state().items()}})
    return out


def compare_many(world_size, scenarios, steps=3, microbatches=2, batch=4, seq=8, lr=1e-2):
    """Train each (program, options, config) scenario for `steps` steps in float64, in one set of
    world_size processes, and the same on one process; return, per scenario, the largest
    difference in the losses and in the final parameters, and any parameter no rank returned."""
    shape = (steps, microbatches, batch, seq)
    results = comm.launch(_train_rank, world_size, scenarios, shape, "float64", lr)
    report = []
    for i, (name, options, raw_cfg) in enumerate(scenarios):
        cfg = Config.load(raw_cfg)
        ref_losses, ref_state = train_reference(cfg, make_batches(cfg, *shape), torch.float64, lr)
        ranks = [r[i] for r in results]
        loss_error = max(abs(a - b) for r in ranks for a, b in zip(r["losses"], ref_losses))
        seen, parameter_error = set(), 0.0
        for r in ranks:
            for key, value in r["state"].items():
                parameter_error = max(parameter_error, (value - ref_state[key]).abs().max().item())
                seen.add(key)
        report.append({"losses": ranks[0]["losses"], "reference": ref_losses, "lossError": loss_error,
                       "parameterError": parameter_error, "missing": sorted(set(ref_state) - seen)})
    return report


def compare(name, world_size, options=None, raw_cfg=TINY, **shape):
    return compare_many(world_size, [(name, options or {}, raw_cfg)], **shape)[0]


def demo(name, world_size, options=None, raw_cfg=None):
    """What `python3 -m companion.<program>` prints."""
    raw_cfg = raw_cfg or (TINY_MOE if name == "ep" else TINY)
    out = compare(name, world_size, options, raw_cfg)
    print(f"{name} on {world_size} processes {options or ''}, float64, 3 steps of 2 microbatches")
    for step, (a, b) in enumerate(zip(out["losses"], out["reference"])):
        print(f"  step {step}: loss {a:.12f}   single process {b:.12f}")
    print(f"  largest difference: loss {out['lossError']:.1e}, parameters {out['parameterError']:.1e}")
    if out["missing"]:
        print("  parameters no rank returned:", ", ".join(out["missing"]))
