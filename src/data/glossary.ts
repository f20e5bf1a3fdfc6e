/**
 * The book's glossary: each term the chapters use, a short definition written for this book,
 * and where the book explains it (`see`: site-absolute links to a chapter section; the build's
 * link checker fails on a link that does not resolve). Rendered at /glossary/ in alphabetical
 * order with one anchor per term (`#term-<id>`). Imports nothing.
 */
export interface GlossaryEntry {
  /** The term as the book writes it. */
  term: string;
  /** Anchor on /glossary/ is `term-<id>`; kebab-case, unique. */
  id: string;
  /** One or two sentences, plain text. */
  definition: string;
  /** Where the book explains the term: `/slug/#sec:name`. */
  see: string[];
  /**
   * The forms a chapter's text is matched against for the term's first-use mark
   * (src/plugins/markdown/glossary-marks.ts), when they are not just the term itself: they replace the
   * term, so list it too if it should still match. Plurals (+s/+es) are added automatically.
   */
  aliases?: string[];
}

export const glossary: readonly GlossaryEntry[] = [
  {
    term: "1F1B",
    id: "1f1b",
    definition:
      "A pipeline schedule in which, after a warm-up, each stage alternates one forward and one backward microbatch, so a stage holds at most p microbatches’ activations instead of m.",
    see: ["/pipeline-parallelism/#sec:1f1b"],
  },
  {
    term: "Activation",
    id: "activation",
    definition:
      "An intermediate tensor computed in the forward pass and kept until the backward pass needs it to compute gradients.",
    see: ["/one-gpu/#sec:activations"],
  },
  {
    term: "Activation recomputation",
    id: "activation-recomputation",
    definition:
      "Dropping some activations after the forward pass and recomputing them during the backward pass, trading extra FLOPs for memory (also called activation checkpointing).",
    see: ["/one-gpu/#sec:recompute"],
    aliases: ["activation recomputation", "activation checkpointing", "recomputation"],
  },
  {
    term: "Active parameters",
    id: "active-parameters",
    definition:
      "In a mixture-of-experts model, the parameters one token actually passes through (shared layers plus its chosen experts); they set the FLOPs per token, while total parameters set the memory.",
    see: ["/expert-parallelism/#sec:active"],
  },
  {
    term: "Adam",
    id: "adam",
    definition:
      "The optimizer most LLMs are trained with; it keeps two running moments per parameter (mean and variance of the gradient), which in fp32 cost 8 bytes per parameter.",
    see: ["/one-gpu/#sec:memory"],
  },
  {
    term: "All-gather",
    id: "all-gather",
    definition: "A collective in which every rank contributes one shard and ends with the concatenation of all shards.",
    see: ["/collectives/#sec:vocabulary"],
  },
  {
    term: "All-reduce",
    id: "all-reduce",
    definition:
      "A collective in which every rank contributes a tensor and ends with the elementwise sum (or another reduction) of all of them; a ring implementation is a reduce-scatter followed by an all-gather.",
    see: ["/collectives/#sec:vocabulary", "/data-parallelism/#sec:replicas"],
  },
  {
    term: "All-to-all",
    id: "all-to-all",
    definition:
      "A collective in which every rank sends a different chunk to every other rank; expert parallelism and DeepSpeed-Ulysses use it to regroup tokens.",
    see: ["/collectives/#sec:vocabulary", "/expert-parallelism/#sec:ep"],
  },
  {
    term: "α–β model",
    id: "alpha-beta-model",
    definition:
      "A cost model for communication: sending n bytes takes α + n/β, a fixed latency α per message plus the bytes divided by the bandwidth β.",
    see: ["/collectives/#sec:alpha-beta"],
  },
  {
    term: "Auxiliary load-balancing loss",
    id: "aux-loss",
    definition: "An extra loss term that penalizes a router for sending uneven shares of tokens to the experts.",
    see: ["/expert-parallelism/#sec:balance"],
    aliases: ["auxiliary load-balancing loss", "load-balancing loss", "auxiliary loss"],
  },
  {
    term: "bf16",
    id: "bf16",
    definition:
      "A 16-bit floating-point format with fp32’s 8 exponent bits and 7 mantissa bits: the same range as fp32 at much lower precision, so it rarely needs loss scaling.",
    see: ["/mixed-precision/#sec:mp-formats"],
  },
  {
    term: "Bubble",
    id: "bubble",
    definition:
      "Time a pipeline stage sits idle because it is waiting for work from a neighbor; this book measures it as idle time over ideal busy time, (p − 1)/m for GPipe and 1F1B.",
    see: ["/pipeline-parallelism/#sec:bubble"],
  },
  {
    term: "Bus bandwidth",
    id: "bus-bandwidth",
    definition:
      "The figure nccl-tests reports (busbw): the algorithm bandwidth scaled by the collective’s data-movement factor, so it can be compared with the link’s hardware bandwidth.",
    see: ["/collectives/#sec:nccl"],
  },
  {
    term: "Capacity factor",
    id: "capacity-factor",
    definition:
      "How many tokens an expert may accept, as a multiple of the even share; tokens beyond the capacity are dropped or rerouted.",
    see: ["/expert-parallelism/#sec:capacity"],
  },
  {
    term: "Causal load imbalance",
    id: "causal-imbalance",
    definition:
      "Under a causal mask, later tokens attend to more keys than earlier ones, so splitting the sequence into contiguous chunks gives the ranks unequal attention work.",
    see: ["/context-parallelism/#sec:causal"],
  },
  {
    term: "Collective",
    id: "collective",
    definition:
      "A communication operation in which all ranks of a group take part, such as all-reduce, all-gather, reduce-scatter, broadcast or all-to-all.",
    see: ["/collectives/#sec:vocabulary"],
  },
  {
    term: "Column-parallel linear",
    id: "column-parallel",
    definition:
      "A linear layer whose weight matrix is split by output columns across the tensor-parallel ranks; each rank computes a slice of the output from the full input.",
    see: ["/tensor-parallelism/#sec:tp-matmul"],
    aliases: ["column-parallel linear", "column-parallel"],
  },
  {
    term: "Context parallelism",
    id: "context-parallelism",
    definition:
      "Splitting each sequence along its length across GPUs, including inside attention, so activation memory per GPU falls with the number of ranks.",
    see: ["/context-parallelism/#sec:cp-what"],
  },
  {
    term: "Data parallelism",
    id: "data-parallelism",
    definition:
      "Running a full copy of the model on each of d GPUs, each on different samples, and averaging the gradients with an all-reduce before every optimizer step.",
    see: ["/data-parallelism/#sec:replicas"],
  },
  {
    term: "DualPipe",
    id: "dualpipe",
    definition:
      "A pipeline schedule that feeds microbatches from both ends of the pipeline at once and overlaps computation with communication, at the cost of two copies of some parameters.",
    see: ["/pipeline-parallelism/#sec:dualpipe"],
  },
  {
    term: "Expert",
    id: "expert",
    definition:
      "One of the parallel feed-forward networks of a mixture-of-experts layer; a router sends each token to a few of them.",
    see: ["/expert-parallelism/#sec:moe-layer"],
  },
  {
    term: "Expert parallelism",
    id: "expert-parallelism",
    definition:
      "Placing different experts of an MoE layer on different GPUs, with an all-to-all to send tokens to their experts and another to bring the results back.",
    see: ["/expert-parallelism/#sec:ep"],
  },
  {
    term: "FlashAttention",
    id: "flashattention",
    definition:
      "An attention kernel that computes softmax attention tile by tile in on-chip memory, never writing the s × s score matrix to HBM.",
    see: ["/one-gpu/#flashattention-changes-the-picture"],
  },
  {
    term: "FLOPs",
    id: "flops",
    definition:
      "Floating-point operations; a transformer’s training step costs about 6 FLOPs per parameter per token (2 forward, 4 backward) plus attention.",
    see: ["/one-gpu/#sec:flops"],
  },
  {
    term: "fp16",
    id: "fp16",
    definition:
      "The IEEE 16-bit floating-point format: 5 exponent bits and 10 mantissa bits, more precise than bf16 but with a narrow range, so training in it needs loss scaling.",
    see: ["/mixed-precision/#sec:mp-formats"],
  },
  {
    term: "fp32",
    id: "fp32",
    definition:
      "The IEEE 32-bit floating-point format (8 exponent bits, 23 mantissa bits), used for master weights and optimizer states in mixed-precision training.",
    see: ["/mixed-precision/#sec:mp-formats"],
  },
  {
    term: "fp8",
    id: "fp8",
    definition:
      "8-bit floating-point formats (E4M3 and E5M2) that Hopper-class GPUs multiply at twice the bf16 rate; training with them needs per-tensor or finer scaling factors.",
    see: ["/mixed-precision/#sec:mp-fp8"],
  },
  {
    term: "FSDP",
    id: "fsdp",
    definition:
      "PyTorch’s Fully Sharded Data Parallel: its implementation of ZeRO-3-style sharding of parameters, gradients and optimizer states across the data-parallel ranks.",
    see: ["/data-parallelism/#sec:frameworks"],
  },
  {
    term: "GPipe",
    id: "gpipe",
    definition:
      "The pipeline schedule that runs all microbatches forward, then all backward; simple, but each stage holds the activations of all m microbatches.",
    see: ["/pipeline-parallelism/#sec:gpipe"],
  },
  {
    term: "Global batch size",
    id: "global-batch-size",
    definition:
      "The number of samples (or tokens) that contribute to one optimizer step, summed over microbatches and data-parallel replicas.",
    see: ["/one-gpu/#sec:step", "/data-parallelism/#sec:batch"],
    aliases: ["global batch size", "global batch"],
  },
  {
    term: "Gradient accumulation",
    id: "gradient-accumulation",
    definition:
      "Running several microbatches forward and backward and summing their gradients before one optimizer step, to reach a large batch with the memory of a small one.",
    see: ["/one-gpu/#sec:accumulation"],
  },
  {
    term: "HBM",
    id: "hbm",
    definition:
      "High-bandwidth memory: the GPU’s main memory, stacked next to the chip (80 GB at about 3.35 TB/s on an H100 SXM).",
    see: ["/one-gpu/#sec:memory"],
  },
  {
    term: "HFU",
    id: "hfu",
    definition:
      "Hardware FLOPs utilization: all FLOPs the GPU executes, recomputation included, divided by the peak; it is never lower than MFU.",
    see: ["/one-gpu/#mfu-and-hfu"],
  },
  {
    term: "InfiniBand",
    id: "infiniband",
    definition:
      "The network most GPU clusters use between servers, with RDMA so a GPU’s memory can be read and written without involving the remote CPU.",
    see: ["/introduction/#sec:resources"],
  },
  {
    term: "Interleaved schedule",
    id: "interleaved-schedule",
    definition:
      "A pipeline schedule that gives each GPU v non-adjacent chunks of layers (virtual stages), dividing the bubble by v at the cost of more point-to-point messages.",
    see: ["/pipeline-parallelism/#sec:interleaved"],
    aliases: ["interleaved schedule", "interleaved 1F1B"],
  },
  {
    term: "Loss scaling",
    id: "loss-scaling",
    definition:
      "Multiplying the loss by a constant before the backward pass so small fp16 gradients do not underflow, and dividing the gradients by it before the update.",
    see: ["/mixed-precision/#sec:mp-loss-scaling"],
  },
  {
    term: "Master weights",
    id: "master-weights",
    definition:
      "The fp32 copy of the parameters that mixed-precision training updates, so that small updates are not lost to 16-bit rounding.",
    see: ["/mixed-precision/#sec:mp-mixed"],
  },
  {
    term: "MFU",
    id: "mfu",
    definition:
      "Model FLOPs utilization: the FLOPs the model needs per step (without recomputation) divided by the step time and the GPUs’ dense peak.",
    see: ["/introduction/#sec:mfu"],
  },
  {
    term: "Microbatch",
    id: "microbatch",
    definition:
      "The slice of the batch that goes through one forward and backward pass at a time, with b samples; gradient accumulation and pipeline schedules work in microbatches.",
    see: ["/one-gpu/#sec:accumulation", "/pipeline-parallelism/#sec:microbatches"],
  },
  {
    term: "Mixed precision",
    id: "mixed-precision",
    definition:
      "Training with matrix multiplies in a 16-bit (or 8-bit) format while master weights and optimizer states stay in fp32.",
    see: ["/mixed-precision/#sec:mp-mixed"],
  },
  {
    term: "Mixture of experts (MoE)",
    id: "moe",
    definition:
      "A layer in which a router sends each token to a few of many expert networks, so the parameter count grows without growing the FLOPs per token.",
    see: ["/expert-parallelism/#sec:moe-layer"],
    aliases: ["mixture of experts", "mixture-of-experts", "MoE"],
  },
  {
    term: "Model states",
    id: "model-states",
    definition:
      "Parameters, gradients and optimizer states: the memory that scales with the parameter count, 16 bytes per parameter for mixed-precision Adam.",
    see: ["/one-gpu/#sec:memory"],
  },
  {
    term: "NCCL",
    id: "nccl",
    definition:
      "NVIDIA’s collective communication library, which PyTorch uses for all-reduce, all-gather and the other collectives between GPUs.",
    see: ["/collectives/#sec:nccl"],
  },
  {
    term: "NVLink",
    id: "nvlink",
    definition:
      "NVIDIA’s GPU-to-GPU link inside a server; on an H100 it gives 900 GB/s of total bandwidth per GPU, an order of magnitude more than the network.",
    see: ["/introduction/#sec:resources"],
  },
  {
    term: "Offloading",
    id: "offloading",
    definition:
      "Keeping optimizer states, gradients or parameters in CPU memory or on NVMe and moving them to the GPU when needed, trading PCIe traffic for GPU memory.",
    see: ["/data-parallelism/#sec:offload"],
  },
  {
    term: "Online softmax",
    id: "online-softmax",
    definition:
      "Computing a softmax block by block by keeping a running maximum and a running sum (the log-sum-exp), so partial results can be merged exactly.",
    see: ["/context-parallelism/#sec:lse"],
  },
  {
    term: "Pipeline parallelism",
    id: "pipeline-parallelism",
    definition:
      "Cutting the model’s layers into p stages on different GPUs and passing activations forward and gradients backward between them, microbatch by microbatch.",
    see: ["/pipeline-parallelism/#sec:stages"],
  },
  {
    term: "Process group",
    id: "process-group",
    definition:
      "The set of ranks a collective runs over; a 3D-parallel job creates one group per data-, tensor- and pipeline-parallel slice.",
    see: ["/collectives/#sec:groups"],
  },
  {
    term: "Rank",
    id: "rank",
    definition: "The index of one process (usually one GPU) in a distributed job or in a process group.",
    see: ["/collectives/#sec:torch"],
  },
  {
    term: "Reduce-scatter",
    id: "reduce-scatter",
    definition:
      "A collective in which every rank contributes a full tensor and ends with one shard of the elementwise sum.",
    see: ["/collectives/#sec:vocabulary"],
  },
  {
    term: "Ring attention",
    id: "ring-attention",
    definition:
      "Context parallelism in which key and value blocks pass around a ring of GPUs while each computes attention for its own queries, merging the partial results with online softmax.",
    see: ["/context-parallelism/#sec:ring"],
  },
  {
    term: "Ring algorithm",
    id: "ring-algorithm",
    definition:
      "A way to run a collective by passing chunks around a ring of ranks; its bandwidth term is close to optimal, and its latency grows linearly with the number of ranks.",
    see: ["/collectives/#sec:ring"],
  },
  {
    term: "Router",
    id: "router",
    definition: "The small learned layer of an MoE block that scores the experts for each token and picks the top k.",
    see: ["/expert-parallelism/#sec:moe-layer"],
  },
  {
    term: "Row-parallel linear",
    id: "row-parallel",
    definition:
      "A linear layer whose weight matrix is split by input rows across the tensor-parallel ranks; each rank produces a partial sum, and an all-reduce (or reduce-scatter) adds them.",
    see: ["/tensor-parallelism/#sec:tp-matmul"],
    aliases: ["row-parallel linear", "row-parallel"],
  },
  {
    term: "Sequence parallelism",
    id: "sequence-parallelism",
    definition:
      "Within tensor parallelism, splitting the LayerNorm and dropout regions along the sequence so their activations are not replicated; the all-reduces become reduce-scatter and all-gather pairs.",
    see: ["/tensor-parallelism/#sec:sp"],
  },
  {
    term: "Stage",
    id: "stage",
    definition:
      "One contiguous group of layers in pipeline parallelism, placed on one GPU (or one tensor-parallel group).",
    see: ["/pipeline-parallelism/#sec:stages"],
    aliases: ["pipeline stage"],
  },
  {
    term: "Tensor parallelism",
    id: "tensor-parallelism",
    definition:
      "Splitting each layer’s weight matrices across t GPUs so they compute every matrix multiply together, with collectives inside every layer; it needs the bandwidth of NVLink.",
    see: ["/tensor-parallelism/#sec:tp-matmul"],
  },
  {
    term: "TFLOPS",
    id: "tflops",
    definition:
      "Trillions of floating-point operations per second; this book quotes dense peaks, such as 989 bf16 TFLOPS for an H100 SXM.",
    see: ["/introduction/#sec:mfu"],
  },
  {
    term: "Tree algorithm",
    id: "tree-algorithm",
    definition:
      "A way to run a collective along a tree of ranks; its latency grows with the logarithm of the number of ranks, which wins for small messages at scale.",
    see: ["/collectives/#sec:tree"],
  },
  {
    term: "Ulysses (DeepSpeed-Ulysses)",
    id: "ulysses",
    definition:
      "Context parallelism that uses all-to-alls to switch each GPU from holding part of the sequence for all heads to the whole sequence for some heads, around attention.",
    see: ["/context-parallelism/#sec:ulysses"],
    aliases: ["DeepSpeed-Ulysses", "Ulysses"],
  },
  {
    term: "Virtual stage",
    id: "virtual-stage",
    definition: "One of the v chunks of layers a GPU holds in an interleaved pipeline schedule.",
    see: ["/pipeline-parallelism/#sec:interleaved"],
  },
  {
    term: "Zero bubble",
    id: "zero-bubble",
    definition:
      "Pipeline schedules that split the backward pass into the input-gradient and weight-gradient parts and use the weight-gradient work to fill the bubble.",
    see: ["/pipeline-parallelism/#sec:zero-bubble"],
    aliases: ["zero bubble", "zero-bubble"],
  },
  {
    term: "ZeRO",
    id: "zero",
    definition:
      "Zero Redundancy Optimizer: sharding model states across data-parallel ranks instead of replicating them; stages 1, 2 and 3 shard optimizer states, then gradients, then parameters.",
    see: ["/data-parallelism/#sec:zero"],
  },
  {
    term: "ZeRO-1",
    id: "zero-1",
    definition:
      "ZeRO stage 1: each data-parallel rank keeps and updates only its shard of the optimizer states, with no extra communication over plain data parallelism.",
    see: ["/data-parallelism/#sec:zero"],
  },
  {
    term: "ZeRO-2",
    id: "zero-2",
    definition:
      "ZeRO stage 2: optimizer states and gradients are sharded; gradients are reduce-scattered so each rank keeps only the shard it updates.",
    see: ["/data-parallelism/#sec:zero"],
  },
  {
    term: "ZeRO-3",
    id: "zero-3",
    definition:
      "ZeRO stage 3: parameters are sharded too and all-gathered layer by layer in the forward and backward passes, for about 1.5 times the traffic of plain data parallelism.",
    see: ["/data-parallelism/#sec:zero", "/five-d-parallelism/#sec:zero3-vs-pp"],
  },
];

/** Sorted for display: case-insensitive, ignoring a leading non-letter. */
export function glossaryAlphabetical(entries: readonly GlossaryEntry[] = glossary): GlossaryEntry[] {
  const key = (t: string) => t.replace(/^[^A-Za-z0-9α-ω]+/, "").toLowerCase();
  return [...entries].sort((a, b) => key(a.term).localeCompare(key(b.term), "en"));
}
