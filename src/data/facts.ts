/**
 * Cited facts (issue #53): every number the prose takes from a paper, a datasheet, a report or a
 * framework's source, recorded once with its unit, its source and where in the source it stands.
 * A chapter prints one by name, `{=fact.<id>}` (or `{=fact.<id>:N}` with N decimals), as it prints
 * a computed value, so the prose cannot drift from the record; a number in a cited sentence that
 * is not printed from here (or computed from here) fails the build (src/plugins/number-ledger.ts).
 * A value module computes a derived number from a fact with `fact("<id>")`
 * (src/model/values/facts.ts). Imports nothing.
 *
 * Each record is checkable in a minute: `key` is the bibliography key, `locator` the table,
 * figure, section, page or URL anchor that holds the number, and `says`, where the source's own
 * words differ from the printed value (a range, a rounding, another unit), what it prints there.
 * The audit of the records against their locators is in docs/fact-check.md.
 *
 * Hardware datasheets (GPUs, interconnects) and model configurations live in their own files of
 * src/data and print as `{=gpu.…}`, `{=net.…}` and `{=model.…}` (src/model/values/data.ts).
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
  // CUDA C++ Programming Guide.
  f("cuda.warpSize", 32, "threads", "nvidia2024cudaguide", `${CUDA_CC}: Warp size`),
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
  f("fa1.hbmAccessReduction", 9, "×", "dao2022flashattention", "§3.2 (IO analysis), with Fig. 2 left", "exact", {
    says: "up to 9× fewer HBM accesses",
  }),
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
];

/** The fact with this id, or undefined. */
export function findFact(id: string): Fact | undefined {
  return FACTS.find((x) => x.id === id);
}
