"""Collectives for the companion programs, and a launcher that runs them as processes on one machine.

Three things live here:

1. The collectives gloo lacks. The CPU build of PyTorch that CI installs (Debian's python3-torch
   1.13, gloo backend) has all_reduce, all_gather, all_to_all_single, send/recv and broadcast, but
   not reduce_scatter, the list form of all_to_all, or all_gather_into_tensor. We write them from
   the ones it has, and say what NCCL does instead.
2. A byte counter around every collective. Each call is recorded under a tag (which parallelism
   issued it) with its message size S (the whole buffer: the all-reduce tensor, the all-gather
   output, the reduce-scatter input, the all-to-all input) and the bytes one rank sends in a ring
   algorithm, nccl-tests' convention that the book's model uses (src/model/communication.ts):
   2(n-1)/n · S for all-reduce, (n-1)/n · S for all-gather, reduce-scatter and all-to-all, S for a
   send. Gloo's own algorithms may move more; the count is of what the program asks for.
3. launch(): start world_size processes on 127.0.0.1, each with a gloo process group.
"""
import io
import os
import socket
import traceback
from collections import defaultdict
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

# traffic[tag][kind] = {"calls", "messageBytes", "bytesSent"}; one dictionary per process.
traffic = defaultdict(lambda: defaultdict(lambda: {"calls": 0, "messageBytes": 0, "bytesSent": 0}))
counting = [True]

# "fork" starts a rank in milliseconds (PyTorch is already imported); "spawn" re-imports it in every
# process, seconds each. Forking is safe here because the parent keeps PyTorch to one thread.
START_METHOD = os.environ.get("COMPANION_START_METHOD", "fork")


def _record(tag, kind, message_bytes, ranks):
    if not counting[0] or ranks <= 1:
        return
    factor = {"all-reduce": 2 * (ranks - 1) / ranks, "send-recv": 1}.get(kind, (ranks - 1) / ranks)
    entry = traffic[tag][kind]
    entry["calls"] += 1
    entry["messageBytes"] += message_bytes
    entry["bytesSent"] += factor * message_bytes


def nbytes(t):
    return t.numel() * t.element_size()


def size(group=None):
    return dist.get_world_size(group)


def rank(group=None):
    return dist.get_rank(group)


# [start:all-reduce]
def all_reduce(tensor, tag, group=None, op=dist.ReduceOp.SUM, async_op=False):
    """Sum (or max) `tensor` over the group, in place. Gloo has it; so does NCCL (ring or tree)."""
    _record(tag, "all-reduce", nbytes(tensor), size(group))
    return dist.all_reduce(tensor, op=op, group=group, async_op=async_op)
# [end:all-reduce]


# [start:reduce-scatter]
def reduce_scatter_tensor(output, input, tag, group=None):
    """output = this rank's 1/n chunk of the sum of `input` over the group.

    NCCL's ncclReduceScatter does it in one ring pass: each rank sends (n-1)/n of the input and
    ends with its reduced chunk, half the traffic of an all-reduce. Gloo in PyTorch 1.13 has no
    reduce_scatter, so we all-reduce a copy and keep our chunk: the same result, twice the bytes
    on the wire. The counter records what NCCL would send.
    """
    n = size(group)
    _record(tag, "reduce-scatter", nbytes(input), n)
    total = input.clone()
    dist.all_reduce(total, group=group)
    output.copy_(total.chunk(n)[rank(group)])
    return output
# [end:reduce-scatter]


def all_gather_into_tensor(output, input, tag, group=None):
    """Concatenate every rank's `input` into `output` (rank order). NCCL's ncclAllGather writes
    into one contiguous buffer; gloo's all_gather wants a list, so we hand it views of `output`."""
    n = size(group)
    _record(tag, "all-gather", nbytes(output), n)
    dist.all_gather(list(output.chunk(n)), input.contiguous(), group=group)
    return output


def all_to_all_single(output, input, tag, output_splits=None, input_splits=None, group=None):
    """Rank i sends the i-th slice of `input` (sizes from input_splits) to rank i of the group.
    Gloo has it; PyTorch's NCCL backend issues it as one group of ncclSend/ncclRecv calls, one pair
    per peer (or as ncclAllToAll where NCCL provides it)."""
    _record(tag, "all-to-all", nbytes(input), size(group))
    dist.all_to_all_single(output, input, output_splits, input_splits, group=group)
    return output


def all_to_all(outputs, inputs, tag, group=None):
    """List form: inputs[i] goes to rank i, outputs[i] comes from rank i. Gloo lacks it; we pack the
    list into one buffer and call all_to_all_single. With NCCL, PyTorch sends each list entry with
    its own ncclSend inside one group, so no packing copy is needed."""
    flat_in = torch.cat([t.reshape(-1) for t in inputs])
    flat_out = torch.empty(sum(t.numel() for t in outputs), dtype=flat_in.dtype)
    all_to_all_single(flat_out, flat_in, tag, [t.numel() for t in outputs], [t.numel() for t in inputs], group)
    for out, chunk in zip(outputs, flat_out.split([t.numel() for t in outputs])):
        out.copy_(chunk.view_as(out))
    return outputs


def send(tensor, dst, tag):
    """Start sending `tensor` to rank dst and return at once; call .wait() on the result before
    touching the tensor again. Only receives block, which keeps pipeline schedules deadlock-free."""
    _record(tag, "send-recv", nbytes(tensor), 2)
    return dist.isend(tensor.contiguous(), dst)


def recv(tensor, src):
    """Block until `tensor` has arrived from rank src (bytes are counted once, by the sender)."""
    dist.recv(tensor, src)
    return tensor


def broadcast(tensor, src, tag, group=None):
    _record(tag, "broadcast", nbytes(tensor), size(group))
    dist.broadcast(tensor, src, group=group)
    return tensor


def sum_over(value, group=None):
    """Bookkeeping, not training traffic (never counted): sum a Python number over the group."""
    t = torch.tensor([float(value)], dtype=torch.float64)
    dist.all_reduce(t, group=group)
    return t.item()


def mean_over(value, group=None):
    return sum_over(value, group) / size(group)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _worker(rank_, world_size, port, fn, args, queue):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), GLOO_SOCKET_IFNAME="lo")
    torch.set_num_threads(1)
    try:
        dist.init_process_group("gloo", rank=rank_, world_size=world_size, timeout=timedelta(seconds=120))
        result = fn(rank_, world_size, *args)
        buffer = io.BytesIO()
        torch.save(result, buffer)
        queue.put((rank_, buffer.getvalue(), None))
        dist.barrier()
        dist.destroy_process_group()
    except Exception:  # report to the parent instead of hanging it
        queue.put((rank_, None, traceback.format_exc()))
    os._exit(0)  # skip the interpreter's slow teardown; the result is already in the pipe


def launch(fn, world_size, *args):
    """Run fn(rank, world_size, *args) in world_size processes on loopback; return the results by rank."""
    torch.set_num_threads(1)
    ctx = mp.get_context(START_METHOD)
    queue = ctx.SimpleQueue()
    port = _free_port()
    procs = [ctx.Process(target=_worker, args=(r, world_size, port, fn, args, queue)) for r in range(world_size)]
    for p in procs:
        p.start()
    results, errors = [None] * world_size, []
    for _ in range(world_size):
        r, payload, error = queue.get()
        if error:
            errors.append(f"rank {r}:\n{error}")
            break
        results[r] = torch.load(io.BytesIO(payload))
    for p in procs:
        p.join(timeout=None if not errors else 5)
        if p.is_alive():
            p.terminate()
    if errors:
        raise RuntimeError("a rank failed\n" + "\n".join(errors))
    return results
