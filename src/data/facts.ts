/**
 * Cited facts (issue #53): every number the prose takes from a paper, a datasheet, a report or a
 * framework's source, recorded once with its unit, its source and where in the source it stands.
 * A chapter prints one by name, `{=fact.<id>}` (or `{=fact.<id>:N}` with N decimals), as it prints
 * a computed value, so the prose cannot drift from the record; a number in a cited sentence that
 * is not printed from here (or computed from here) fails the build (src/plugins/markdown/number-ledger.ts).
 * A value module computes a derived number from a fact with `fact("<id>")`
 * (src/model/values/facts.ts). Imports nothing.
 *
 * Each record is checkable in a minute: `key` is the bibliography key, `locator` the table,
 * figure, section, page or URL anchor that holds the number, and `says`, where the source's own
 * words differ from the printed value (a range, a rounding, another unit), what it prints there.
 * An independent audit of the records against their locators goes in docs/fact-check.md; until it
 * is recorded there, a record is the migration's reading of its source, not a checked fact.
 *
 * Hardware datasheets (GPUs, interconnects), model configurations and number formats live in their
 * own files of src/data and print as `{=gpu.…}`, `{=net.…}`, `{=model.…}` and `{=format.…}`
 * (src/model/values/data.ts). The records are grouped by source; `npm run ledger -- --facts` lists
 * which chapter prints which.
 */

/**
 * Which way the text may round the recorded value when it prints fewer decimals than recorded:
 * - `exact`: never; the text prints every recorded digit (a count, a configuration, a default);
 * - `nearest`: to the nearest (the source's figure is itself a measurement or a rounding);
 * - `down`: only down (the source states a bound the text must not exceed: "up to", a peak);
 * - `up`: only up (the source states a floor: "at least", "over").
 */
export type FactRounding = "exact" | "nearest" | "down" | "up";

export interface Fact {
  /** Name after `fact.` in the prose: `{=fact.llama3.gpus}`. Dotted, camelCase words. */
  id: string;
  /** The value, in `unit`, as the source states it (a percentage as a percent: 41 for 41%). */
  value: number;
  /**
   * The unit the prose prints after the value ("TFLOPS", "GB/s", "%", "×", "GPUs", "tokens", or ""
   * for a pure number). A symbol unit (GB, TFLOPS, %, ×) must follow the printed value in the prose.
   */
  unit: string;
  /** Decimals the value prints with by default (0 if absent). */
  decimals?: number;
  rounding: FactRounding;
  /** Bibliography key of the source (bibliography.bib). */
  key: string;
  /** Where in the source: "Table 4", "§3.3.4", "p. 12", "Fig. 5", or a URL with an anchor. */
  locator: string;
  /** What the source prints there, where it differs from `value unit` (a range, a word, another unit). */
  says?: string;
}

const f = (
  id: string,
  value: number,
  unit: string,
  key: string,
  locator: string,
  rounding: FactRounding = "exact",
  extra: { decimals?: number; says?: string } = {},
): Fact => ({ id, value, unit, rounding, key, locator, ...extra });

const CUDA_CC = "Technical Specifications per Compute Capability table, column 9.0";

/** Every recorded fact, grouped by source. */
export const FACTS: readonly Fact[] = [
  // llama-models (github.com/meta-llama/llama-models), the model registry of Meta's reference code.
  f(
    "llamaModels.mp16Degree",
    16,
    "",
    "meta2024llamamodels",
    'models/sku_list.py, Llama 3.1 405B entry described "BF16 weights for mp16" (variant "bf16-mp16" from 2024-10-24): pth_file_count=16; present from commit a977635 (2024-09-14) until 1127165 (2025-02-13) removed the file',
  ),
  f(
    "llamaModels.mp16KvHeads",
    16,
    "",
    "meta2024llamamodels",
    'models/sku_list.py, the same "BF16 weights for mp16" Llama 3.1 405B entry: n_kv_heads 16 (model_args at a977635, arch_args at 8c88b8c)',
  ),
  // Overlap communication with dependent computation (ASPLOS 2023).
  f("wangOverlap.speedupLow", 1.14, "×", "wang2023overlap", "Abstract", "exact", {
    decimals: 2,
    says: "1.14x to 1.38x",
  }),
  f("wangOverlap.speedupHigh", 1.38, "×", "wang2023overlap", "Abstract", "exact", {
    decimals: 2,
    says: "1.14x to 1.38x",
  }),
  f(
    "wangOverlap.smallestBillions",
    10,
    "billion",
    "wang2023overlap",
    "Abstract (models of 10 billion to 1 trillion parameters)",
  ),
  f(
    "wangOverlap.largestTrillions",
    1,
    "trillion",
    "wang2023overlap",
    "Abstract (models of 10 billion to 1 trillion parameters)",
  ),
  f("wangOverlap.peakShare", 72, "%", "wang2023overlap", "Abstract", "nearest", { says: "72% peak FLOPS utilization" }),
  f("wangOverlap.chips", 1024, "TPU v4 chips", "wang2023overlap", "Abstract"),
  f("wangOverlap.modelBillions", 500, "billion", "wang2023overlap", "Abstract (the 500 billion parameter model)"),
  // NVIDIA GB200 NVL72 product page.
  f(
    "nvl72.gpus",
    72,
    "GPUs",
    "nvidia2024gb200nvl72",
    "Specifications table: GB200 NVL72 configuration (72 Blackwell GPUs, one NVLink domain)",
  ),
  // Striped Attention (arXiv:2311.09431).
  f(
    "striped.speedup256k",
    1.45,
    "×",
    "brandon2023striped",
    "Abstract (causal transformer training at 256K tokens)",
    "exact",
    {
      decimals: 2,
      says: "up to 1.45x end-to-end throughput improvements over the original Ring Attention",
    },
  ),
  f("striped.speedup786k", 1.65, "×", "brandon2023striped", "Abstract (786K tokens on 16 TPU v4 chips)", "exact", {
    decimals: 2,
  }),
  f("striped.chips786k", 16, "TPU v4 chips", "brandon2023striped", "Abstract (786K tokens on 16 TPU v4 chips)"),
  // BLOOM's layout (arXiv:2211.05100).
  f("bloom.tp", 4, "", "bigscience2022bloom", "§3.4.2 (Training Framework / 3D parallelism)", "exact", {
    says: "4-way tensor parallelism",
  }),
  f("bloom.pp", 12, "", "bigscience2022bloom", "§3.4.2", "exact", { says: "12-way pipeline parallelism" }),
  f("bloom.dp", 8, "", "bigscience2022bloom", "§3.4.2", "exact", { says: "8-way data parallelism" }),
  f("bloom.gpus", 384, "GPUs", "bigscience2022bloom", "§3.4.1 (Hardware): 48 nodes of 8 A100 80GB GPUs"),
  // NCCL issue 1264: the memory nvidia-smi reports for an H100 SXM "80 GB".
  f(
    "nvidiaSmi.h100MiB",
    81559,
    "MiB",
    "nvidia2024nccl1264",
    "the issue's nvidia-smi output (Memory-Usage column, total)",
  ),
  // NCCL issue 1221: a user's all-reduce bus bandwidth across servers of eight H100s.
  f(
    "ncclIssue1221.busBwFourServers",
    320,
    "GB/s",
    "nccl2024issue1221",
    "the issue's description (2024-03-13): all_reduce_perf on 4 nodes of 8 H100s with 8 × 400 Gb/s RoCE NICs, NCCL 2.19.3, with NCCL_NVLS_ENABLE 0 or 1",
    "nearest",
    { says: "same busbw 320GB" },
  ),
  // Breadth-First Pipeline Parallelism (MLSys 2023).
  f("breadthFirst.gain", 43, "%", "lamypoirier2023breadth", "Abstract", "exact", {
    says: "an increase of up to 43% in training throughput for a 52 billion-parameter model using a small batch size per GPU compared to Megatron-LM",
  }),
  f("breadthFirst.modelBillions", 52, "billion", "lamypoirier2023breadth", "Abstract"),
  // Zero Bubble Pipeline Parallelism (ICLR 2024).
  f("zeroBubble.gain", 23, "%", "qi2024zerobubble", "Abstract", "exact", {
    says: "outperforms the 1F1B schedule up to 23% in throughput under a similar memory limit",
  }),
  f("zeroBubble.gainRelaxed", 31, "%", "qi2024zerobubble", "Abstract", "exact", {
    says: "can be further pushed to 31% when the memory constraint is relaxed",
  }),
  // GShard (ICLR 2021) and Switch Transformers (JMLR 2022).
  f("gshard.topK", 2, "", "lepikhin2021gshard", "§2.2 (Gating function, Algorithm 1: top-2 gating)"),
  f(
    "gshard.chips",
    2048,
    "TPU v3 chips",
    "lepikhin2021gshard",
    "Abstract (600B model trained on 2048 TPU v3 accelerators)",
  ),
  f("switch.topK", 1, "", "fedus2022switch", "§2.1 (Simplifying Sparse Routing: route to a single expert)"),
  f(
    "switch.capacityLow",
    1.0,
    "",
    "fedus2022switch",
    "§2.3, Table 1 (Benchmarking Switch versus MoE: capacity factors 1.0, 1.25 and 2.0)",
    "exact",
    { decimals: 1 },
  ),
  f("switch.capacityHigh", 1.25, "", "fedus2022switch", "§2.3, Table 1", "exact", { decimals: 2 }),
  // MegaBlocks (MLSys 2023) and its code.
  f(
    "megablocks.blockSize",
    128,
    "rows",
    "megablocks2023code",
    "megablocks/layers/dmoe.py: the block size of the block-sparse kernels (blocking = 128)",
  ),
  // Mixed Precision Training (ICLR 2018).
  f(
    "micikevicius.ssdLossScale",
    8,
    "",
    "micikevicius2018mixed",
    "§4.2 (Detection, SSD): loss scaling by a factor of 8 recovers the fp32 accuracy",
  ),
  // PyTorch automatic mixed precision (torch/amp/grad_scaler.py, GradScaler.__init__ defaults).
  f(
    "pytorch.gradScalerGrowthInterval",
    2000,
    "steps",
    "pytorch2024amp",
    "GradScaler: growth_interval (default 2000); torch/amp/grad_scaler.py, GradScaler.__init__",
  ),
  // Transformer Engine (transformer_engine/common/recipe.py, DelayedScaling defaults).
  f(
    "te.margin",
    0,
    "",
    "nvidia2024transformerengine",
    "DelayedScaling: margin (default 0); transformer_engine/common/recipe.py, class DelayedScaling",
  ),
  f(
    "te.amaxHistoryLen",
    1024,
    "steps",
    "nvidia2024transformerengine",
    "DelayedScaling: amax_history_len (default 1024); transformer_engine/common/recipe.py, class DelayedScaling",
  ),
  // Transformer Engine's source history: the 1,024-amax default replaced a history of one in release 0.7.
  f(
    "te.amaxHistoryDefaultSince",
    0.7,
    "",
    "nvidia2026transformerenginecode",
    'PR 112 ("Change FP8 recipe defaults"): commit 80542a0 on main (first tagged in v0.8) and its cherry-pick 78c375d29 on the v0.7 release; transformer_engine/common/recipe.py, class DelayedScaling: amax_history_len = 1 at v0.6 (lines 128–129), 1024 at v0.7 (line 128)',
    "exact",
    { decimals: 1, says: "v0.7" },
  ),
  // OCP Microscaling (MX) formats (arXiv:2310.10537) and NVFP4 (arXiv:2509.25149).
  f(
    "mx.blockSize",
    32,
    "elements",
    "rouhani2023microscaling",
    "§3 (MX formats), Table 1: block size k = 32 for every concrete MX format",
  ),
  f("mx.scaleBits", 8, "bits", "rouhani2023microscaling", "§3, Table 1: shared scale E8M0, 8 bits"),
  f("mx.e2m1ExponentBits", 2, "bits", "rouhani2023microscaling", "§3, Table 1: MXFP4 element E2M1"),
  f("mx.e2m1MantissaBits", 1, "bit", "rouhani2023microscaling", "§3, Table 1: MXFP4 element E2M1"),
  f(
    "mx.e2m1Bias",
    1,
    "",
    "rouhani2023microscaling",
    "OCP MX v1.0 specification, §5.3.3 (FP4 E2M1: exponent bias 1, no infinities or NaN)",
  ),
  f(
    "nvfp4.blockSize",
    16,
    "elements",
    "nvidia2025nvfp4",
    "§2 (NVFP4 format): 16-element micro-blocks with an E4M3 scale, plus an fp32 scale per tensor",
  ),
  f("nvfp4.mxfp8Speedup", 2, "×", "nvidia2025nvfp4", "§1, Table 1 (Blackwell GEMM throughput relative to BF16): MXFP8"),
  f("nvfp4.gb200Speedup", 4, "×", "nvidia2025nvfp4", "§1, Table 1: NVFP4 on GB200"),
  f("nvfp4.gb300Speedup", 6, "×", "nvidia2025nvfp4", "§1, Table 1: NVFP4 on GB300"),
  f("nvfp4.modelParamsB", 12, "B", "nvidia2025nvfp4", "Abstract (a 12-billion-parameter model)"),
  f("nvfp4.tokensT", 10, "trillion tokens", "nvidia2025nvfp4", "Abstract (trained on 10 trillion tokens)"),
  f("nvfp4.mmluPro", 62.58, "%", "nvidia2025nvfp4", "§4, Table 2 (MMLU-Pro, NVFP4 run)", "exact", { decimals: 2 }),
  f("nvfp4.mmluProFp8", 62.62, "%", "nvidia2025nvfp4", "§4, Table 2 (MMLU-Pro, FP8 baseline)", "exact", {
    decimals: 2,
  }),
  // DiLoCo (arXiv:2311.08105), OpenDiLoCo (arXiv:2407.07852), Streaming DiLoCo (arXiv:2501.18512).
  f("diloco.workers", 8, "workers", "douillard2023diloco", "Abstract; §3 (C4 experiments with 8 workers)"),
  f("diloco.innerSteps", 500, "steps", "douillard2023diloco", "§3 (H = 500 inner steps)"),
  f("diloco.commReduction", 500, "times", "douillard2023diloco", "Abstract", "exact", {
    says: "performs as well as fully synchronous optimization while communicating 500 times less",
  }),
  f("openDiloco.utilizationLow", 90, "%", "jaghouar2024opendiloco", "Abstract", "exact", {
    says: "90-95% compute utilization",
  }),
  f("openDiloco.utilizationHigh", 95, "%", "jaghouar2024opendiloco", "Abstract", "exact", {
    says: "90-95% compute utilization",
  }),
  f(
    "streamingDiloco.bits",
    4,
    "bits",
    "douillard2025streaming",
    "§2.3 (quantizing the outer gradients to 4 bits); the abstract says only that the exchanged data is quantized",
  ),
  // INTELLECT-1 (arXiv:2412.01152), its release post and its model card.
  f("intellect1.paramsBillions", 10, "billion", "jaghouar2024intellect1", "Abstract (a 10-billion-parameter model)"),
  f("intellect1.tokensTrillions", 1, "trillion", "jaghouar2024intellect1", "Abstract (trained on 1 trillion tokens)"),
  f("intellect1.gpusPerNode", 8, "GPUs", "primeintellect2024intellect1blog", "§Training details: nodes of 8 H100 GPUs"),
  f(
    "intellect1.maxNodes",
    14,
    "nodes",
    "primeintellect2024intellect1blog",
    "§Training details: up to 14 concurrent nodes",
  ),
  f(
    "intellect1.maxGpus",
    112,
    "GPUs",
    "primeintellect2024intellect1blog",
    "§Scaling Decentralized Training: up to 112 H100 GPUs simultaneously, across five countries and three continents",
  ),
  f(
    "intellect1.providers",
    30,
    "providers",
    "jaghouar2024intellect1",
    "Abstract; §1 (30 independent compute providers)",
  ),
  f(
    "intellect1.innerSteps",
    100,
    "steps",
    "primeintellect2024intellect1card",
    "Model Overview: trained using DiLoCo with 100 inner steps",
  ),
  f(
    "intellect1.bytesPerValue",
    1,
    "byte",
    "jaghouar2024intellect1",
    "§2 (int8 quantization of the pseudo-gradients in the all-reduce)",
  ),
  f("intellect1.commReduction", 400, "×", "jaghouar2024intellect1", "Abstract", "exact", {
    says: "a 400× reduction in communication bandwidth compared to traditional data-parallel training settings",
  }),
  f(
    "intellect1.utilizationIntercontinental",
    83,
    "%",
    "jaghouar2024intellect1",
    "Abstract (83-96% compute utilization); the split is stated in the release post (primeintellect2024intellect1blog, §Scaling Decentralized Training): 83% across continents",
    "nearest",
  ),
  f(
    "intellect1.utilizationUs",
    96,
    "%",
    "jaghouar2024intellect1",
    "Abstract (83-96% compute utilization); the split is stated in the release post (primeintellect2024intellect1blog, §Scaling Decentralized Training): 96% on nodes in the United States only",
    "nearest",
  ),
  f(
    "intellect1.mfuLow",
    36.2,
    "%",
    "jaghouar2024intellect1",
    "Abstract (36.2-41.4% model FLOPS utilization)",
    "exact",
    {
      decimals: 1,
    },
  ),
  f(
    "intellect1.mfuHigh",
    41.4,
    "%",
    "jaghouar2024intellect1",
    "Abstract (36.2-41.4% model FLOPS utilization)",
    "exact",
    {
      decimals: 1,
    },
  ),
  // nccl-tests issue 309: a user's NCCL_DEBUG log of all_reduce_perf on an HGX H100 server.
  f(
    "ncclTests309.ringUpToMB",
    1,
    "MB",
    "nccltests2025issue309",
    "the reporter's comment of 2025-05-23 on a single 8-GPU node's NCCL_DEBUG output: 8 B to 1 MB use Algo RING (proto LL)",
  ),
  f(
    "ncclTests309.nvlsFromMB",
    2,
    "MB",
    "nccltests2025issue309",
    "the reporter's comment of 2025-05-23: 2 MB to 16 GB use Algo NVLS (proto SIMPLE)",
  ),
  // NVIDIA H100 architecture whitepaper (GH100 in the H100 SXM5 product).
  f(
    "hopper.registerFileKiB",
    256,
    "KiB",
    "nvidia2022hopper",
    "Table 3 (compute capabilities), Register File Size / SM",
    "exact",
    {
      says: "256 KB",
    },
  ),
  f(
    "hopper.l1SharedKiB",
    256,
    "KiB",
    "nvidia2022hopper",
    "§H100 SM Architecture: combined L1 data cache and shared memory per SM",
    "exact",
    {
      says: "256 KB of combined shared memory and L1 data cache",
    },
  ),
  // The Llama 3 Herd of Models (arXiv:2407.21783).
  f("llama3.paramsBillions", 405, "billion", "grattafiori2024llama3", "Abstract; §1 (Scale)", "exact", {
    says: "a flagship model with 405B trainable parameters",
  }),
  f("llama3.tokensTrillions", 15.6, "trillion tokens", "grattafiori2024llama3", "§1 (Scale)", "exact", {
    decimals: 1,
    says: "15.6T text tokens",
  }),
  f("llama3.trainingFlopsMantissa", 3.8, "× 10^25 FLOPs", "grattafiori2024llama3", "§1 (Scale)", "nearest", {
    decimals: 1,
    says: "pre-trained using 3.8 × 10^25 FLOPs",
  }),
  f("llama3.gpus", 16384, "GPUs", "grattafiori2024llama3", "§3.3.2, Table 4 (16,384-GPU rows)", "exact", {
    says: "up to 16K H100 GPUs (§3.3.1); 16,384 in Table 4",
  }),
  f(
    "llama3.tflopsPerGpu",
    400,
    "TFLOPS",
    "grattafiori2024llama3",
    "Table 4, row: 16,384 GPUs, TP 8, CP 1, PP 16, DP 128",
    "nearest",
    {
      says: "400 TFLOPs/GPU",
    },
  ),
  f(
    "llama3.mfu",
    41,
    "%",
    "grattafiori2024llama3",
    "Table 4, row: 16,384 GPUs, TP 8, CP 1, PP 16, DP 128 (BF16 MFU)",
    "nearest",
  ),
  f(
    "llama3.mfuLow",
    38,
    "%",
    "grattafiori2024llama3",
    "Table 4, row: 16,384 GPUs, CP 16, sequence 131,072 (BF16 MFU)",
    "nearest",
  ),
  f("llama3.mfuHigh", 43, "%", "grattafiori2024llama3", "Table 4, row: 8,192 GPUs (BF16 MFU)", "nearest"),
  f(
    "llama3.snapshotDays",
    54,
    "days",
    "grattafiori2024llama3",
    "§3.3.4 (Reliability and Operational Challenges), Table 5",
    "exact",
    {
      says: "a 54-day snapshot period of pre-training",
    },
  ),
  f("llama3.interruptions", 466, "interruptions", "grattafiori2024llama3", "§3.3.4, Table 5", "exact", {
    says: "a total of 466 job interruptions",
  }),
  f("llama3.unexpectedInterruptions", 419, "interruptions", "grattafiori2024llama3", "§3.3.4, Table 5", "exact", {
    says: "419 were unexpected interruptions",
  }),
  f("llama3.effectiveTime", 90, "%", "grattafiori2024llama3", "§3.3.4", "up", {
    says: "higher than 90% effective training time",
  }),
  f(
    "llama3.batchTokensM",
    16,
    "M tokens",
    "grattafiori2024llama3",
    "Table 4 (tokens per batch, all three configurations)",
    "exact",
    {
      says: "16M",
    },
  ),
  f(
    "llama3.batchStartTokensM",
    4,
    "M tokens",
    "grattafiori2024llama3",
    "§3.4.1 (Initial Pre-Training): the initial batch size, doubled after 252M tokens",
    "exact",
    { says: "an initial batch size of 4M tokens" },
  ),
  f(
    "llama3.batchSecondTokensM",
    8,
    "M tokens",
    "grattafiori2024llama3",
    "§3.4.1 (Initial Pre-Training): the batch size from 252M tokens, doubled again to 16M after 2.87T tokens",
    "exact",
    { says: "a batch size of 8M" },
  ),
  f("llama3.tp", 8, "", "grattafiori2024llama3", "Table 4 (TP column, every configuration)"),
  f(
    "llama3.longSeqLength",
    131072,
    "tokens",
    "grattafiori2024llama3",
    "Table 4, long-context row (sequence length 131,072)",
  ),
  f("llama3.longCp", 16, "", "grattafiori2024llama3", "Table 4, long-context row (CP column)"),
  f("llama3.longPp", 16, "", "grattafiori2024llama3", "Table 4, long-context row (PP column)"),
  f(
    "llama3.longDp",
    8,
    "",
    "grattafiori2024llama3",
    "Table 4, long-context row (DP column) of arXiv v3; v1 prints 4 there, which does not multiply to 16,384 GPUs",
  ),
  f("llama3.pp", 16, "", "grattafiori2024llama3", "Table 4 (PP column, every configuration)"),
  f("llama3.dp8k", 64, "", "grattafiori2024llama3", "Table 4, row 8,192 GPUs (DP column)"),
  f("llama3.dp", 128, "", "grattafiori2024llama3", "Table 4, row 16,384 GPUs, CP 1 (DP column)"),
  f(
    "llama3.batchPerDp8k",
    32,
    "sequences",
    "grattafiori2024llama3",
    "Table 4, row 8,192 GPUs (batch size per DP group)",
  ),
  f(
    "llama3.batchPerDp",
    16,
    "sequences",
    "grattafiori2024llama3",
    "Table 4, row 16,384 GPUs, CP 1 (batch size per DP group)",
  ),
  // Llama 2 (arXiv:2307.09288).
  f(
    "llama2.batchTokensM",
    4,
    "M tokens",
    "touvron2023llama2",
    "§2.2, Table 1 caption (Llama 2 family of models)",
    "exact",
    {
      says: "a global batch-size of 4M tokens",
    },
  ),
  // BLOOM (arXiv:2211.05100).
  f(
    "bloom.batchSequences",
    2048,
    "sequences",
    "bigscience2022bloom",
    "§3.5 (Training), Table 3: global batch size of the 176B model",
    "exact",
  ),
  f("bloom.seqLength", 2048, "tokens", "bigscience2022bloom", "§3.5 (Training), Table 3: sequence length", "exact"),
  // Llama 3.1 model card (meta-llama/llama-models, models/llama3_1/MODEL_CARD.md).
  f(
    "llama31card.gpuHours405",
    30.84,
    "million GPU hours",
    "meta2024llama31card",
    "§Hardware and Software, Training Energy Use table, row Llama 3.1 405B",
    "exact",
    {
      decimals: 2,
      says: "30.84M (Training Time, GPU hours)",
    },
  ),
  // DeepSeek-V3 Technical Report (arXiv:2412.19437).
  f("deepseekV3.totalParamsB", 671, "B", "deepseekai2024v3", "Abstract", "exact", { says: "671B total parameters" }),
  f("deepseekV3.activeParamsB", 37, "B", "deepseekai2024v3", "Abstract", "exact", {
    says: "37B activated for each token",
  }),
  f("deepseekV3.tokensT", 14.8, "T", "deepseekai2024v3", "Abstract; §4.2", "exact", {
    decimals: 1,
    says: "14.8 trillion tokens",
  }),
  f("deepseekV3.gpus", 2048, "GPUs", "deepseekai2024v3", "§3.1 (Compute Clusters)", "exact", {
    says: "a cluster equipped with 2048 NVIDIA H800 GPUs",
  }),
  f("deepseekV3.gpuHoursM", 2.788, "million GPU hours", "deepseekai2024v3", "Abstract; §1, Table 1 (Total)", "exact", {
    decimals: 3,
    says: "2.788M H800 GPU hours",
  }),
  f("deepseekV3.dollarsPerGpuHour", 2, "dollars", "deepseekai2024v3", "§1, Table 1 note", "exact", {
    says: "assuming the rental price of the H800 GPU is $2 per GPU hour",
  }),
  f("deepseekV3.costM", 5.576, "million dollars", "deepseekai2024v3", "§1, Table 1 (Total, in USD)", "exact", {
    decimals: 3,
    says: "$5.576M",
  }),
  f("deepseekV3.pp", 16, "", "deepseekai2024v3", "§3.2 (Training Framework)", "exact", {
    says: "16-way Pipeline Parallelism",
  }),
  f("deepseekV3.ep", 64, "", "deepseekai2024v3", "§3.2 (Training Framework)", "exact", {
    says: "64-way Expert Parallelism spanning 8 nodes",
  }),
  f(
    "deepseekV3.batchStart",
    3072,
    "sequences",
    "deepseekai2024v3",
    "§4.2 (Hyper-Parameters): batch size scheduling",
    "exact",
    {
      says: "the batch size is gradually increased from 3072 to 15360 in the training of the first 469B tokens",
    },
  ),
  f("deepseekV3.batchEnd", 15360, "sequences", "deepseekai2024v3", "§4.2 (Hyper-Parameters): batch size scheduling"),
  f(
    "deepseekV3.batchRampTokensB",
    469,
    "B tokens",
    "deepseekai2024v3",
    "§4.2 (Hyper-Parameters): batch size scheduling",
  ),
  f("deepseekV3.epNodes", 8, "nodes", "deepseekai2024v3", "§3.2 (Training Framework)", "exact", {
    says: "64-way Expert Parallelism spanning 8 nodes",
  }),
  f(
    "deepseekV3.nvlinkGBps",
    160,
    "GB/s",
    "deepseekai2024v3",
    "§3.2.2 (Efficient Implementation of Cross-Node All-to-All Communication)",
    "nearest",
    {
      says: "NVLink offers a bandwidth of 160 GB/s, roughly 3.2 times that of IB (50 GB/s)",
    },
  ),
  f("deepseekV3.ibGBps", 50, "GB/s", "deepseekai2024v3", "§3.2.2", "nearest", { says: "IB (50 GB/s)" }),
  f("deepseekV3.nvlinkOverIb", 3.2, "times", "deepseekai2024v3", "§3.2.2", "nearest", {
    decimals: 1,
    says: "roughly 3.2 times",
  }),
  f(
    "deepseekV3.maxNodesPerToken",
    4,
    "nodes",
    "deepseekai2024v3",
    "§3.2.2; §2.1.2 (node-limited routing: at most M = 4 nodes)",
  ),
  f("deepseekV3.expertsPerNode", 3.2, "experts", "deepseekai2024v3", "§3.2.2", "nearest", {
    decimals: 1,
    says: "each token can efficiently select an average of 3.2 experts per node",
  }),
  f("deepseekV3.maxExpertsSameCost", 13, "experts", "deepseekai2024v3", "§3.2.2", "exact", {
    says: "scale up to 13 experts (4 nodes × 3.2 experts/node) while preserving the same communication cost",
  }),
  f("deepseekV3.commSms", 20, "SMs", "deepseekai2024v3", "§3.2.2", "exact", {
    says: "only 20 SMs are sufficient to fully utilize the bandwidths of IB and NVLink",
  }),
  f(
    "deepseekV3.biasUpdateSpeed",
    0.001,
    "",
    "deepseekai2024v3",
    "§4.2 (Hyper-Parameters): bias update speed γ",
    "exact",
    { decimals: 3 },
  ),
  f(
    "deepseekV3.biasUpdateTokensT",
    14.3,
    "T",
    "deepseekai2024v3",
    "§4.2 (Hyper-Parameters): γ = 0.001 for the first 14.3T tokens",
    "exact",
    { decimals: 1 },
  ),
  f(
    "deepseekV3.biasUpdateSpeedFinal",
    0,
    "",
    "deepseekai2024v3",
    "§4.2 (Hyper-Parameters): γ = 0.0 for the remaining 500B tokens",
  ),
  f("deepseekV3.finalTokensB", 500, "B", "deepseekai2024v3", "§4.2 (Hyper-Parameters): the remaining 500B tokens"),
  f(
    "deepseekV3.seqBalanceAlpha",
    0.0001,
    "",
    "deepseekai2024v3",
    "§4.2 (Hyper-Parameters): balance factor α of the sequence-wise balance loss",
    "exact",
    { decimals: 4 },
  ),
  f(
    "deepseekV3.tileWidth",
    128,
    "channels",
    "deepseekai2024v3",
    "§3.3.2 (Fine-Grained Quantization): 1×128 activation tiles, 128×128 weight blocks",
  ),
  f(
    "deepseekV3.activationTileRows",
    1,
    "token",
    "deepseekai2024v3",
    "§3.3.2 (Fine-Grained Quantization): 1×128 tiles, per token per 128 channels",
  ),
  f(
    "deepseekV3.accumulationBits",
    14,
    "bits",
    "deepseekai2024v3",
    "§3.3.2 (Increasing Accumulation Precision)",
    "nearest",
    {
      says: "limited to retaining around 14 bits",
    },
  ),
  f(
    "deepseekV3.accumulationTestK",
    4096,
    "",
    "deepseekai2024v3",
    "§3.3.2 (Increasing Accumulation Precision): two random matrices with K = 4096",
  ),
  f(
    "deepseekV3.accumulationError",
    2,
    "%",
    "deepseekai2024v3",
    "§3.3.2 (Increasing Accumulation Precision)",
    "nearest",
    {
      says: "the maximum relative error is nearly 2%",
    },
  ),
  f(
    "deepseekV3.promotionInterval",
    128,
    "elements",
    "deepseekai2024v3",
    "§3.3.2 (Increasing Accumulation Precision): N_C = 128 elements, equivalent to 4 WGMMAs",
  ),
  f("deepseekV3.fp8LossError", 0.25, "%", "deepseekai2024v3", "§3.3 (FP8 Training), and Appendix B.1", "up", {
    decimals: 2,
    says: "the relative loss error of our FP8-training model remains consistently below 0.25%",
  }),
  // PaLM (arXiv:2204.02311).
  f("palm.chips", 6144, "TPU v4 chips", "chowdhery2022palm", "Abstract; §4 (Training Infrastructure)", "exact", {
    says: "6144 TPU v4 chips",
  }),
  f("palm.mfu", 46.2, "%", "chowdhery2022palm", "§4.1, Table 3 (model FLOPs utilization)", "exact", { decimals: 1 }),
  // Megatron-LM at scale (SC21, arXiv:2104.04473).
  f("megatron.paramsTrillions", 1, "trillion", "narayanan2021efficient", "Abstract; Table 1 (last row)", "exact"),
  f("megatron.gpus1T", 3072, "GPUs", "narayanan2021efficient", "Abstract; Table 1 (1,008B row)", "exact"),
  f(
    "megatron.tflopsPerGpu1T",
    163,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 1 (1,008B row: achieved teraFLOP/s per GPU)",
    "exact",
  ),
  f(
    "megatron.aggregatePflops1T",
    502,
    "PFLOPS",
    "narayanan2021efficient",
    "Abstract; Table 1 (1,008B row: aggregate petaFLOP/s)",
    "exact",
  ),
  f(
    "megatron.peakShare1T",
    52,
    "%",
    "narayanan2021efficient",
    "Abstract; Table 1 (1,008B row: percentage of theoretical peak FLOP/s)",
    "nearest",
  ),
  f("megatron.hidden1T", 25600, "", "narayanan2021efficient", "Table 1 (1,008B row: hidden size)"),
  f("megatron.layers1T", 128, "", "narayanan2021efficient", "Table 1 (1,008B row: number of layers)"),
  f("megatron.seqLength", 2048, "tokens", "narayanan2021efficient", "§5.1 (sequence length of every model in Table 1)"),
  f("megatron.vocab", 51200, "", "narayanan2021efficient", "§5.1 (vocabulary size of every model in Table 1)"),
  // Megatron-LM source (github.com/NVIDIA/Megatron-LM).
  f(
    "megatronLm.spBackwardRegathers",
    2,
    "",
    "megatronlm2024code",
    "megatron/core/tensor_parallel/layers.py at core_v0.19.0: LinearWithGradAccumulationAndAsyncCommunication.backward all-gathers the sequence-parallel input again for the weight gradient (lines 610–623); ColumnParallelLinear passes sequence_parallel (line 1174), RowParallelLinear False (line 1465), so once per column-parallel linear (QKV and the first MLP matmul)",
  ),
  f("megatron.tp1T", 8, "", "narayanan2021efficient", "Table 1 (1,008B row: tensor-parallel size)"),
  f("megatron.pp1T", 64, "", "narayanan2021efficient", "Table 1 (1,008B row: pipeline-parallel size)"),
  f(
    "megatron.pipelineBisectionGBps",
    892,
    "GB/s",
    "narayanan2021efficient",
    "§1 (list of findings) and §5.9 (Inter-Node Communication Bandwidth), 1T model on 3,072 GPUs",
    "nearest",
    {
      says: "§1: an effective bisection bandwidth of 892 GB/s for pipeline-parallel communication; §5.9: 892 GB/s",
    },
  ),
  f(
    "megatron.dataBisectionTBps",
    13,
    "TB/s",
    "narayanan2021efficient",
    "§1 (list of findings), 1T model on 3,072 GPUs; §5.9 (Inter-Node Communication Bandwidth) gives the same figure as 12.9 TB/s",
    "nearest",
    {
      says: "§1: 13 TB/s for data-parallel communication; §5.9: 12.9 TB/s",
    },
  ),
  f("megatron.interleavedGain", 10, "%", "narayanan2021efficient", "Abstract; §1 (as much as 10%)", "up", {
    says: "improve throughput by 10+% with memory footprint comparable to existing approaches",
  }),
  // Megatron Core developer guide, Distributed Optimizer (also Megatron-LM's README, "Distributed Optimizer").
  f(
    "megatronCore.fp16ParamFp16GradBytes",
    20,
    "bytes",
    "megatroncore2025distoptimizer",
    'Table of theoretical bytes per parameter, row "fp16 param, fp16 grads", column Non-distributed optim',
  ),
  f(
    "megatronCore.bf16ParamFp32GradBytes",
    18,
    "bytes",
    "megatroncore2025distoptimizer",
    'Table of theoretical bytes per parameter, row "bf16 param, fp32 grads", column Non-distributed optim',
  ),
  // Reducing activation recomputation (MLSys 2023, arXiv:2205.05198).
  f(
    "korthikanti.mfu1T",
    56.3,
    "%",
    "korthikanti2023reducing",
    "Table 5 (1T model, selective recomputation with sequence parallelism: MFU)",
    "exact",
    {
      decimals: 1,
    },
  ),
  f(
    "korthikanti.dropoutMaskBytes",
    1,
    "byte",
    "korthikanti2023reducing",
    "§4 (Activation Memory), before §4.1: dropout masks need a single byte per element",
  ),
  f(
    "korthikanti.tpAllReduces",
    4,
    "",
    "korthikanti2023reducing",
    "§4.2.2 (Sequence Parallelism): tensor parallelism needs four all-reduces per layer in the forward and backward passes",
  ),
  f(
    "korthikanti.spAllGathers",
    4,
    "",
    "korthikanti2023reducing",
    "§4.2.2: with sequence parallelism, four all-gathers and four reduce-scatters per layer in the forward and backward passes",
  ),
  f(
    "korthikanti.spReduceScatters",
    4,
    "",
    "korthikanti2023reducing",
    "§4.2.2: four all-gathers and four reduce-scatters per layer",
  ),
  f("korthikanti.gpt3Heads", 96, "", "korthikanti2023reducing", "Table 3 (model configurations), GPT-3 175B row"),
  f("korthikanti.gpt3Hidden", 12288, "", "korthikanti2023reducing", "Table 3, GPT-3 175B row"),
  f("korthikanti.gpt3Layers", 96, "", "korthikanti2023reducing", "Table 3, GPT-3 175B row"),
  f("korthikanti.seqLength", 2048, "tokens", "korthikanti2023reducing", "§6 (Evaluations): s = 2048 for every model"),
  f("korthikanti.vocab", 51200, "", "korthikanti2023reducing", "§6 (Evaluations): v = 51200 for every model"),
  f(
    "korthikanti.selectiveOverhead22B",
    7,
    "%",
    "korthikanti2023reducing",
    "Table 4 (22B row: forward and backward time of one layer, selective recomputation against none)",
    "nearest",
  ),
  f(
    "korthikanti.fullOverhead22B",
    39,
    "%",
    "korthikanti2023reducing",
    "Table 4 (22B row: forward and backward time of one layer, full recomputation against none)",
    "nearest",
  ),
  f(
    "korthikanti.mfuFull530B",
    42.1,
    "%",
    "korthikanti2023reducing",
    "Abstract (530B model on 2,240 A100s, full recomputation; Table 5 has no full-recomputation MFU)",
    "exact",
    { decimals: 1 },
  ),
  f(
    "korthikanti.mfuSelective530B",
    54.2,
    "%",
    "korthikanti2023reducing",
    "Abstract; §6.3 (530B model scaled to 8-way data parallelism, 2,240 GPUs: MFU 56.0% → 54.2%)",
    "exact",
    { decimals: 1 },
  ),
  f(
    "korthikanti.gpus530B",
    2240,
    "GPUs",
    "korthikanti2023reducing",
    "Abstract; §6.3 (8-way data parallelism)",
    "exact",
    {
      says: "2240 NVIDIA A100 GPUs",
    },
  ),
  f("korthikanti.gpt3ParamsB", 175, "B", "korthikanti2023reducing", "Table 3 (model configurations), GPT-3 175B row"),
  f("korthikanti.gpt3Tp", 8, "", "korthikanti2023reducing", "Table 3, GPT-3 175B row (tensor-parallel size)"),
  f("korthikanti.gpt3Pp", 8, "", "korthikanti2023reducing", "Table 3, GPT-3 175B row (pipeline-parallel size)"),
  f(
    "korthikanti.microBatch",
    1,
    "",
    "korthikanti2023reducing",
    "Table 3 (micro-batch size of the 175B, 530B and 1T rows; the 22B row uses 4)",
  ),
  // ZeRO (SC20, arXiv:1910.02054).
  f("zero.stage3Traffic", 1.5, "times", "rajbhandari2020zero", "§7.2.2 (communication volume of Pos+g+p)", "exact", {
    decimals: 1,
    says: "The total volume is therefore 3Ψ which is 1.5x compared to the baseline",
  }),
  f(
    "zero.fragmentationFree",
    30,
    "%",
    "rajbhandari2020zero",
    "§3.2 (Residual Memory Consumption): memory fragmentation",
    "up",
    {
      says: "out of memory with over 30% of memory still available",
    },
  ),
  // CUDA C++ Programming Guide.
  f("cuda.warpSize", 32, "threads", "nvidia2024cudaguide", `${CUDA_CC}: Warp size`),
  f(
    "cuda.clusterPortableBlocks",
    8,
    "blocks",
    "nvidia2024cudaguide",
    "CUDA C++ Programming Guide, Programming Model, Thread Block Clusters: a portable cluster size of up to 8 blocks",
  ),
  f(
    "cuda.clusterNonPortableBlocksH100",
    16,
    "blocks",
    "nvidia2025hoppertuning",
    "Hopper Tuning Guide, Thread Block Clusters: H100 supports a non-portable cluster size of 16 with an opt-in attribute",
  ),
  f(
    "cuda.registersPerSm",
    65536,
    "registers",
    "nvidia2024cudaguide",
    `${CUDA_CC}: Number of 32-bit registers per SM`,
    "exact",
    {
      says: "64K",
    },
  ),
  f(
    "cuda.maxRegistersPerThread",
    255,
    "registers",
    "nvidia2024cudaguide",
    `${CUDA_CC}: Maximum number of 32-bit registers per thread`,
  ),
  f("cuda.maxWarpsPerSm", 64, "warps", "nvidia2024cudaguide", `${CUDA_CC}: Maximum number of resident warps per SM`),
  f(
    "cuda.maxThreadsPerSm",
    2048,
    "threads",
    "nvidia2024cudaguide",
    `${CUDA_CC}: Maximum number of resident threads per SM`,
  ),
  f(
    "cuda.sharedMemoryBanks",
    32,
    "banks",
    "nvidia2024cudaguide",
    "§Compute Capability 9.0, Shared Memory (as for 5.x): 32 banks",
  ),
  f(
    "cuda.bankWidthBytes",
    4,
    "bytes",
    "nvidia2024cudaguide",
    "§Compute Capability 5.x, Shared Memory: successive 32-bit words map to successive banks",
    "exact",
    {
      says: "32-bit words",
    },
  ),
  // CUDA C++ Best Practices Guide.
  f(
    "cuda.sectorBytes",
    32,
    "bytes",
    "nvidia2024cudabestpractices",
    "§Coalesced Access to Global Memory: 32-byte segments (sectors)",
  ),
  // FlashAttention (NeurIPS 2022).
  f(
    "fa1.hbmAccessReduction",
    9,
    "×",
    "dao2022flashattention",
    "§1 (Introduction), pointing to Fig. 2 left (40.3 GB against 4.4 GB of HBM reads and writes)",
    "exact",
    {
      says: "many times fewer HBM accesses compared to standard attention (up to 9× fewer, as shown in Fig. 2)",
    },
  ),
  f(
    "fa1.bertSeqLen",
    512,
    "tokens",
    "dao2022flashattention",
    "Abstract; §4.1, Table 1 (BERT-large, sequence length 512)",
  ),
  f("fa1.bertSpeedup", 15, "%", "dao2022flashattention", "Abstract; §4.1, Table 1", "nearest", {
    says: "15% end-to-end wall-clock speedup on BERT-large (seq. length 512) compared to the MLPerf 1.1 training speed record",
  }),
  f(
    "fa1.gpt2Speedup",
    3,
    "×",
    "dao2022flashattention",
    "Abstract; §4.1, Table 2 (GPT-2, sequence length 1K)",
    "nearest",
    {
      says: "3× speedup on GPT-2 (seq. length 1K)",
    },
  ),
  // FlashAttention-2 (ICLR 2024).
  f("fa2.speedup", 2, "×", "dao2024flashattention2", "Abstract", "nearest", {
    says: "around 2× speedup compared to FlashAttention",
  }),
  f("fa2.peakShareLow", 50, "%", "dao2024flashattention2", "Abstract", "exact", {
    says: "reaching 50-73% of the theoretical maximum FLOPs/s on A100",
  }),
  f("fa2.peakShareHigh", 73, "%", "dao2024flashattention2", "Abstract", "exact", {
    says: "reaching 50-73% of the theoretical maximum FLOPs/s on A100",
  }),
  f("fa2.trainingTflops", 225, "TFLOPS", "dao2024flashattention2", "Abstract; §4.2, Table 1", "down", {
    says: "up to 225 TFLOPs/s per A100 GPU (72% model FLOPs utilization)",
  }),
  // FlashAttention-3 (NeurIPS 2024; first preprint arXiv:2407.08608v1).
  f("fa3.fa2H100Share", 35, "%", "shah2024flashattention3", "Abstract", "nearest", {
    says: "FlashAttention-2 achieving only 35% utilization on the H100 GPU",
  }),
  f("fa3.speedupLow", 1.5, "×", "shah2024flashattention3", "Abstract", "exact", { decimals: 1, says: "1.5-2.0×" }),
  f("fa3.speedupHigh", 2.0, "×", "shah2024flashattention3", "Abstract", "exact", { decimals: 1, says: "1.5-2.0×" }),
  f(
    "fa3.bf16Tflops",
    840,
    "TFLOPS",
    "shah2024flashattention3",
    "Abstract of the NeurIPS 2024 version (arXiv v2 and later)",
    "down",
    {
      says: "up to 840 TFLOPs/s (85% utilization) with BF16",
    },
  ),
  f(
    "fa3.bf16Share",
    85,
    "%",
    "shah2024flashattention3",
    "Abstract of the NeurIPS 2024 version (arXiv v2 and later)",
    "nearest",
  ),
  f(
    "fa3.fp8Pflops",
    1.3,
    "PFLOPS",
    "shah2024flashattention3",
    "Abstract of the NeurIPS 2024 version (arXiv v2 and later)",
    "nearest",
    {
      decimals: 1,
      says: "1.3 PFLOPs/s with FP8",
    },
  ),
  f("fa3.fp8ErrorReduction", 2.6, "×", "shah2024flashattention3", "Abstract; §4.3 (numerical error)", "nearest", {
    decimals: 1,
    says: "2.6× lower numerical error than a baseline FP8 attention",
  }),
  f("fa3.v1Tflops", 740, "TFLOPS", "shah2024flashattention3", "Abstract of arXiv:2407.08608v1", "down", {
    says: "up to 740 TFLOPs/s (75% utilization)",
  }),
  f("fa3.v1Share", 75, "%", "shah2024flashattention3", "Abstract of arXiv:2407.08608v1", "nearest"),
  f("fa3.v1Fp8Pflops", 1.2, "PFLOPS", "shah2024flashattention3", "Abstract of arXiv:2407.08608v1", "nearest", {
    decimals: 1,
    says: "close to 1.2 PFLOPs/s",
  }),
  // ---- Appendix C (typical-scales), facts migration (#53) -------------------------------------
  // Megatron-LM's ZeRO-3 comparison (arXiv:2104.04473): Table 2, "ZeRO-3 without model parallelism"
  // rows, column "Achieved teraFLOP/s per GPU".
  f(
    "narayanan.zero3Tflops175b384",
    144,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, ZeRO-3 without model parallelism, 175B on 384 GPUs (achieved teraFLOP/s per GPU)",
    "nearest",
  ),
  f(
    "narayanan.zero3Tflops175b1536",
    44,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, ZeRO-3 without model parallelism, 175B on 1,536 GPUs (achieved teraFLOP/s per GPU)",
    "nearest",
  ),
  f(
    "narayanan.zero3Tflops530b640",
    138,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, ZeRO-3 without model parallelism, 530B on 640 GPUs, batch 2,560, microbatch 4 (achieved teraFLOP/s per GPU); the row marked *, as 530B did not fit on 560 GPUs at microbatch 4",
    "nearest",
  ),
  f(
    "narayanan.zero3Tflops530b2240",
    48,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, ZeRO-3 without model parallelism, 530B on 2,240 GPUs, batch 2,240, microbatch 1 (achieved teraFLOP/s per GPU)",
    "nearest",
  ),
  // Llama 3, Table 4: the DP degree the long-context row prints (the run's DP is 8: see
  // src/data/published-runs.ts, whose note explains why the printed 4 cannot hold).
  f(
    "llama3.longDpPrinted",
    4,
    "",
    "grattafiori2024llama3",
    "Table 4 of arXiv v1 (2407.21783v1), third row (16,384 GPUs, CP 16, sequence 131,072), DP column; v3 prints 8 there (llama3.longDp)",
    "exact",
  ),
  // torchtitan's H100 benchmark of December 2024: the power limit of its GPUs (96 GB HBM2e H100s
  // whose peak, footnote 2 says, lies between the SXM's and the NVL's and is not known).
  f(
    "torchtitanH100.powerLimit",
    500,
    "W",
    "pytorch2024torchtitanh100",
    "benchmarks/llama3_h100_202412_torchtitan.md at 820504e, section 'Hardware', fourth item",
    "exact",
    { says: "the default 500W power limit" },
  ),
  // ---- Chapter 3 (data-parallelism), facts migration (#53) ------------------------------------
  f(
    "llama31card.gpuHours8b",
    1.46,
    "million GPU hours",
    "meta2024llama31card",
    "§Hardware and Software, Training Energy Use table, row Llama 3.1 8B (Training Time, GPU hours)",
    "exact",
    { decimals: 2, says: "1.46M" },
  ),
  f(
    "llama3.seqLength",
    8192,
    "tokens",
    "grattafiori2024llama3",
    "Table 4, rows 8,192 and 16,384 GPUs, CP 1 (Seq. Len.)",
  ),
  f(
    "ncclTests290.busBwPerNicLow",
    46,
    "GB/s",
    "nccltests2025issue290",
    "comment by AddyLaddy, 2025-03-03: per-NIC bus bandwidth to expect for NDR at 400 Gb/s",
    "nearest",
    { says: "46-48GB/s per NIC" },
  ),
  f(
    "ncclTests290.busBwPerNicHigh",
    48,
    "GB/s",
    "nccltests2025issue290",
    "comment by AddyLaddy, 2025-03-03: per-NIC bus bandwidth to expect for NDR at 400 Gb/s",
    "nearest",
    { says: "46-48GB/s per NIC" },
  ),
  f(
    "ncclIssue812.busBwDgxA100",
    192,
    "GB/s",
    "nccl2023issue812",
    "comment by AddyLaddy, 2023-03-31: all-reduce bus bandwidth on DGX-A100 with 8 × 200 Gb/s InfiniBand",
    "nearest",
    { says: "we measure 192GB/s AllReduce BusBW" },
  ),
  f(
    "ncclTests283.busBw",
    350,
    "GB/s",
    "nccltests2025issue283",
    "the issue's description (2025-01-18): all_reduce_perf over 248 servers of 8 H200",
    "nearest",
    { says: "typically measuring around 350G" },
  ),
  f(
    "ncclTests283.servers",
    248,
    "servers",
    "nccltests2025issue283",
    "the issue's description (2025-01-18): 248 GPU servers, each with 8 H200 GPUs",
  ),
  f(
    "pytorch.ddpBucketCapMb",
    25,
    "MiB",
    "pytorch2024ddp",
    'torch/nn/parallel/distributed.py, DistributedDataParallel.__init__: bucket_cap_mb=25 in the v1.13.1 signature; later source defaults it to None and sets 25 ("default case (bucket cap is 25 MiB)"); bucket_bytes_cap = int(bucket_cap_mb * 1024 * 1024)',
    "exact",
    { says: "bucket size in MegaBytes (MB). (default: 25)" },
  ),
  f(
    "zero.optimizerBytesK",
    12,
    "bytes",
    "rajbhandari2020zero",
    "§3.1 (Model States): memory multiplier K of mixed-precision Adam's optimizer states",
    "exact",
    { says: "K = 12" },
  ),
  f("zero.fig1ParamsB", 7.5, "billion", "rajbhandari2020zero", "Figure 1 (Ψ = 7.5B)", "exact", { decimals: 1 }),
  f("zero.fig1Dp", 64, "", "rajbhandari2020zero", "Figure 1 (Nd = 64)"),
  f(
    "zero.fig1BaselineGB",
    120,
    "GB",
    "rajbhandari2020zero",
    "Figure 1, Baseline column (memory per device)",
    "nearest",
  ),
  f("zero.fig1PosGB", 31.4, "GB", "rajbhandari2020zero", "Figure 1, Pos column (memory per device)", "nearest", {
    decimals: 1,
  }),
  f("zero.fig1PosGGB", 16.6, "GB", "rajbhandari2020zero", "Figure 1, Pos+g column (memory per device)", "nearest", {
    decimals: 1,
  }),
  f("zero.fig1PosGPGB", 1.9, "GB", "rajbhandari2020zero", "Figure 1, Pos+g+p column (memory per device)", "nearest", {
    decimals: 1,
  }),
  f(
    "narayanan.zero3Tflops175b768",
    88,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, ZeRO-3 without model parallelism, 175B on 768 GPUs (achieved teraFLOP/s per GPU)",
    "nearest",
  ),
  f("narayanan.zero3Batch", 1536, "sequences", "narayanan2021efficient", "Table 2 (batch size of the 175B rows)"),
  f(
    "narayanan.zero3Gpus175bFirst",
    384,
    "GPUs",
    "narayanan2021efficient",
    "Table 2, 175B, ZeRO-3 rows (number of GPUs)",
  ),
  f("narayanan.zero3Gpus175bMid", 768, "GPUs", "narayanan2021efficient", "Table 2, 175B, ZeRO-3 rows (number of GPUs)"),
  f(
    "narayanan.zero3Gpus175bLast",
    1536,
    "GPUs",
    "narayanan2021efficient",
    "Table 2, 175B, ZeRO-3 rows (number of GPUs)",
  ),
  f(
    "narayanan.zero3Micro175bFirst",
    4,
    "sequences",
    "narayanan2021efficient",
    "Table 2, 175B, ZeRO-3 on 384 GPUs (microbatch size)",
  ),
  f(
    "narayanan.zero3Micro175bMid",
    2,
    "sequences",
    "narayanan2021efficient",
    "Table 2, 175B, ZeRO-3 on 768 GPUs (microbatch size)",
  ),
  f(
    "narayanan.zero3Micro175bLast",
    1,
    "sequences",
    "narayanan2021efficient",
    "Table 2, 175B, ZeRO-3 on 1,536 GPUs (microbatch size)",
  ),
  f(
    "narayanan.zero3LeadDoubled",
    70,
    "%",
    "narayanan2021efficient",
    "§5.2 (Comparison to ZeRO-3): PTD-P's lead over ZeRO-3 when the GPUs are doubled at the same batch size",
    "nearest",
  ),
  f(
    "zeroOffload.paramsBillions",
    13,
    "billion",
    "ren2021zerooffload",
    "Abstract (models of over 13 billion parameters on a single GPU)",
    "up",
  ),
  f(
    "zeroOffload.tflops",
    40,
    "TFLOPS",
    "ren2021zerooffload",
    "Abstract (40 TFlops/GPU on a single V100 for a 10B model)",
    "nearest",
  ),
  // ---- Chapter 8 (five-d-parallelism), facts migration (#53) ----------------------------------
  // Narayanan et al., Table 2 (PTD parallelism against ZeRO-3 without model parallelism).
  f(
    "narayanan.params175b",
    174.6,
    "billion",
    "narayanan2021efficient",
    "Table 2, number of parameters (billion) of the 175B rows",
    "nearest",
    {
      decimals: 1,
    },
  ),
  f(
    "narayanan.params530b",
    529.6,
    "billion",
    "narayanan2021efficient",
    "Table 2, number of parameters (billion) of the 530B rows",
    "nearest",
    {
      decimals: 1,
    },
  ),
  f(
    "narayanan.ptdTflops175b384",
    153,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, PTD parallelism, 175B on 384 GPUs (achieved teraFLOP/s per GPU)",
    "nearest",
  ),
  f(
    "narayanan.ptdTflops175b768",
    149,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, PTD parallelism, 175B on 768 GPUs (achieved teraFLOP/s per GPU)",
    "nearest",
  ),
  f(
    "narayanan.ptdTflops175b1536",
    141,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, PTD parallelism, 175B on 1,536 GPUs (achieved teraFLOP/s per GPU)",
    "nearest",
  ),
  f(
    "narayanan.ptdTflops530b560",
    171,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, PTD parallelism, 530B on 560 GPUs (achieved teraFLOP/s per GPU)",
    "nearest",
  ),
  f(
    "narayanan.ptdTflops530b2240",
    159,
    "TFLOPS",
    "narayanan2021efficient",
    "Table 2, PTD parallelism, 530B on 2,240 GPUs (achieved teraFLOP/s per GPU)",
    "nearest",
  ),
  f(
    "narayanan.ptdGpus530bFirst",
    560,
    "GPUs",
    "narayanan2021efficient",
    "Table 2, 530B, PTD parallelism's first row (number of GPUs); the caption: ZeRO-3 did not fit on 560 GPUs",
  ),
  f(
    "narayanan.zero3Gpus530bFirst",
    640,
    "GPUs",
    "narayanan2021efficient",
    "Table 2, 530B, ZeRO-3's first row, marked * (number of GPUs)",
  ),
  f(
    "narayanan.gpus530bLast",
    2240,
    "GPUs",
    "narayanan2021efficient",
    "Table 2, 530B, last row of both schemes (number of GPUs)",
  ),
  f(
    "narayanan.batch530b",
    2240,
    "sequences",
    "narayanan2021efficient",
    "Table 2, batch size of the 530B rows but the starred one",
  ),
  f(
    "narayanan.zero3Batch530bStarred",
    2560,
    "sequences",
    "narayanan2021efficient",
    "Table 2, batch size of the 530B ZeRO-3 row on 640 GPUs, marked *, and the caption",
    "exact",
    { says: "2560*" },
  ),
  // Narayanan et al., Table 1 (weak scaling from 1.7B to 1T parameters).
  f(
    "megatron.paramsSmallestB",
    1.7,
    "billion",
    "narayanan2021efficient",
    "Table 1, first row (number of parameters, billion)",
    "exact",
    {
      decimals: 1,
    },
  ),
  f(
    "megatron.peakShareLow",
    43,
    "%",
    "narayanan2021efficient",
    "Table 1, 18.4B row (percentage of theoretical peak FLOP/s), the lowest of the table",
    "nearest",
  ),
  // Megatron-LM's README: strong scaling of GPT-3 175B on H100s. The paragraph entered README.md on main in f2e5db4
  // (2024-07-15) and on the release branch in 937571c; core_v0.8.0 is the first tag that has it, under "Training Speed
  // and Scalability". The figures are unchanged through core_v0.19.0, where the heading is "Performance Benchmarking",
  // subsection "Strong Scaling Results" (core_v0.7.0 and earlier do not have them).
  f(
    "megatronLm.strongScalingGpusLow",
    96,
    "GPUs",
    "megatronlm2024code",
    'README.md at core_v0.8.0, line 72 ("Training Speed and Scalability"; same figures at core_v0.19.0, line 122): strong scaling from 96 H100 GPUs',
  ),
  f(
    "megatronLm.strongScalingGpusHigh",
    4608,
    "GPUs",
    "megatronlm2024code",
    'README.md at core_v0.8.0, line 72 ("Training Speed and Scalability"; same figures at core_v0.19.0, line 122): to 4608 GPUs',
  ),
  f(
    "megatronLm.strongScalingBatch",
    1152,
    "sequences",
    "megatronlm2024code",
    'README.md at core_v0.8.0, line 72 ("Training Speed and Scalability"; same figures at core_v0.19.0, line 122): the same batch size of 1152 sequences throughout',
  ),
  f(
    "megatronLm.strongScalingMfuHigh",
    47,
    "%",
    "megatronlm2024code",
    'README.md at core_v0.8.0, line 72 ("Training Speed and Scalability"; same figures at core_v0.19.0, line 122): MFU at 96 GPUs',
    "nearest",
    { says: "a reduction in MFU from 47% to 42%" },
  ),
  f(
    "megatronLm.strongScalingMfuLow",
    42,
    "%",
    "megatronlm2024code",
    'README.md at core_v0.8.0, line 72 ("Training Speed and Scalability"; same figures at core_v0.19.0, line 122): MFU at 4608 GPUs',
    "nearest",
    { says: "a reduction in MFU from 47% to 42%" },
  ),
  // Llama 3 (arXiv 2407.21783): Table 4, §3.3.1 (Storage), §3.3.4 and Table 5.
  f("llama3.gpus8k", 8192, "GPUs", "grattafiori2024llama3", "Table 4, first row (GPUs)"),
  f(
    "llama3.tflopsPerGpu8k",
    430,
    "TFLOPS",
    "grattafiori2024llama3",
    "Table 4, row: 8,192 GPUs, TP 8, CP 1, PP 16, DP 64",
    "nearest",
    {
      says: "430 TFLOPs/GPU",
    },
  ),
  f(
    "llama3.tflopsPerGpuLong",
    380,
    "TFLOPS",
    "grattafiori2024llama3",
    "Table 4, row: 16,384 GPUs, CP 16, sequence 131,072",
    "nearest",
    { says: "380 TFLOPs/GPU" },
  ),
  f(
    "llama3.plannedInterruptions",
    47,
    "interruptions",
    "grattafiori2024llama3",
    "§3.3.4 (Reliability and Operational Challenges)",
    "exact",
    { says: "47 were planned interruptions" },
  ),
  f(
    "llama3.hardwareShare",
    78,
    "%",
    "grattafiori2024llama3",
    "§3.3.4 and Table 5's caption: unexpected interruptions attributed to confirmed or suspected hardware issues",
    "nearest",
    { says: "Approximately 78%" },
  ),
  f(
    "llama3.faultyGpuInterruptions",
    148,
    "interruptions",
    "grattafiori2024llama3",
    "Table 5, row Faulty GPU (interruption count)",
  ),
  f(
    "llama3.hbmInterruptions",
    72,
    "interruptions",
    "grattafiori2024llama3",
    "Table 5, row GPU HBM3 Memory (interruption count)",
  ),
  f(
    "llama3.checkpointMinMB",
    1,
    "MB",
    "grattafiori2024llama3",
    "§3.3.1 (Storage): each GPU's model state in a checkpoint",
    "exact",
    {
      says: "ranging from 1 MB to 4 GB per GPU",
    },
  ),
  f(
    "llama3.checkpointMaxGB",
    4,
    "GB",
    "grattafiori2024llama3",
    "§3.3.1 (Storage): each GPU's model state in a checkpoint",
    "exact",
    {
      says: "ranging from 1 MB to 4 GB per GPU",
    },
  ),
  f(
    "llama3.diurnalLow",
    1,
    "%",
    "grattafiori2024llama3",
    "§3.3.4 (Reliability and Operational Challenges), environmental factors",
    "nearest",
    {
      says: "a diurnal 1-2% throughput variation based on time-of-day",
    },
  ),
  f(
    "llama3.diurnalHigh",
    2,
    "%",
    "grattafiori2024llama3",
    "§3.3.4 (Reliability and Operational Challenges), environmental factors",
    "nearest",
    {
      says: "a diurnal 1-2% throughput variation based on time-of-day",
    },
  ),
  // OPT (arXiv 2205.01068), §2.4 and §2.5; MegaScale (arXiv 2402.15627).
  f("opt.gpus", 992, "GPUs", "zhang2022opt", "§2.4 (Training Efficiency)", "exact", { says: "992 80GB A100 GPUs" }),
  f("opt.manualRestarts", 35, "restarts", "zhang2022opt", "§2.5 (Training Processes), Hardware Failures", "up", {
    says: "at least 35 manual restarts",
  }),
  f("opt.hostsCycled", 100, "hosts", "zhang2022opt", "§2.5 (Training Processes), Hardware Failures", "up", {
    says: "the cycling of over 100 hosts over the course of 2 months",
  }),
  f("megascale.gpus", 10000, "GPUs", "jiang2024megascale", "Title", "up", { says: "More Than 10,000 GPUs" }),
];

/** The fact with this id, or undefined. */
export function findFact(id: string): Fact | undefined {
  return FACTS.find((x) => x.id === id);
}
