/**
 * Computed values of the chapter "tensor-parallelism" for its prose: `{=ch4.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * Imports the model's modules directly, not ../index.ts: index.ts re-exports exercise-values.ts,
 * which runs this function while it loads.
 *
 * No bandwidth of its own: NVLink's line rate is the datasheet's (gpus.ts, halved for one
 * direction), and every measured bus bandwidth comes from placement.ts's groupLink for a TP group
 * of the H100 cluster: eight GPUs of one server (stride 1), sixteen GPUs filling two servers
 * (stride 1), or one member per server (stride = GPUs per server). The step-model comparison of
 * sequence parallelism runs evaluateScenario (scenario.ts) with Megatron-LM's profile.
 */
import { korthikantiLayerActivationBytes } from "../activations.ts";
import { bytesPerValue, maxFinite } from "../number-formats.ts";
import {
  tpCommElementsPerLayer,
  tpCommToComputeRatio,
  tpDegreeProblem,
  tpShardingLayout,
  tpSpCommElementsPerLayer,
  tpSpRegatherElementsPerLayer,
} from "../tp-sharding.ts";
import { clusterShape, groupLink } from "../placement.ts";
import { evaluateScenario, memoryBudget, type Scenario } from "../scenario.ts";
import { arch, d0, d1, d2, gpu, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const MB = 1e6;
const kB = 1e3;
const GiB = 2 ** 30;

/**
 * @tbl:tp-degrees: the TP degrees a model's heads and MLP allow (`tpDegreeProblem`), among the
 * candidates the table considers, split into those that give every GPU whole KV heads and those
 * that need replicated KV heads. Names: `ch4.tpdeg.<row>.heads`, `.kv`, `.whole<k>`, `.repl<k>`.
 */
const DEGREE_CANDIDATES = [1, 2, 4, 5, 7, 8, 14, 16, 25, 28, 32, 64, 128];
const DEGREE_ROWS: [string, string][] = [
  ["llama8b", "llama-3.1-8b"],
  ["llama70b", "llama-3.1-70b"],
  ["llama405b", "llama-3.1-405b"],
  ["qwen7b", "qwen2.5-7b"],
  ["mistral7b", "mistral-7b-v0.1"],
  ["gpt2xl", "gpt2-xl"],
];

export function tensorParallelismValues(put: PutValue): void {
  const h100 = gpu("h100-sxm");
  const F = h100.bf16FlopsPerSecond;
  const nvlinkPerDirection = h100.nvlinkBytesPerSecond / 2;
  const bf16 = bytesPerValue("bf16");
  put("ch4.bf16Bytes", v(bf16, "bytes", d0));

  // @tbl:tp-degrees and its caption.
  for (const [row, id] of DEGREE_ROWS) {
    const a = arch(id);
    const valid = DEGREE_CANDIDATES.filter((t) => a.numHeads % t === 0 && tpDegreeProblem(a, t) === null);
    put(`ch4.tpdeg.${row}.heads`, v(a.numHeads, "heads", d0));
    put(`ch4.tpdeg.${row}.kv`, v(a.numKvHeads, "heads", d0));
    valid.filter((t) => a.numKvHeads % t === 0).forEach((t, k) => put(`ch4.tpdeg.${row}.whole${k}`, v(t, "GPUs", d0)));
    valid.filter((t) => a.numKvHeads % t !== 0).forEach((t, k) => put(`ch4.tpdeg.${row}.repl${k}`, v(t, "GPUs", d0)));
  }
  // The degrees Qwen2.5-7B's 28 heads allow beyond 4 but its MLP width does not.
  const qwen = arch("qwen2.5-7b");
  DEGREE_CANDIDATES.filter((t) => t > 4 && qwen.numHeads % t === 0 && tpDegreeProblem(qwen, t) !== null).forEach(
    (t, k) => put(`ch4.tpdeg.qwen7b.mlpBlocked${k}`, v(t, "GPUs", d0)),
  );
  put("ch4.qwen7bMlpWidth", v(qwen.intermediateSize, "", d0));

  // Vocabulary-parallel cross-entropy: a microbatch of 8,192 tokens (stated), Llama 3.1's
  // vocabulary, fp32 logits, an 8-way group (stated).
  const vocab = arch("llama-3.1-8b").vocabSize;
  const logitsBytes = 8192 * vocab * 4;
  put("ch4.logitsGB", v(logitsBytes / GB, "GB", d2));
  put("ch4.logitsPerGpuMB", v(logitsBytes / 8 / MB, "MB", d1));
  put("ch4.logitsGatherGB", v((logitsBytes * 7) / 8 / GB, "GB", d2));
  // Three all-reduces of one fp32 scalar per token.
  put("ch4.ceScalarsKB", v((3 * 8192 * 4) / kB, "kB", d1));

  // @eq:tp-volume for Llama-3.1-70B at s = 8192, b = 1, t = 8 (stated), bf16.
  const l70 = arch("llama-3.1-70b");
  const tp70 = tpCommElementsPerLayer(1, 8192, l70.hiddenSize, 8);
  put("ch4.tp70Elements", v(tp70, "elements", d0));
  put("ch4.tp70LayerMB", v((tp70 * bf16) / MB, "MB", d1));
  put("ch4.tp70MicrobatchGB", v((tp70 * bf16 * l70.numLayers) / GB, "GB", d1));
  put("ch4.llama70bLayers", v(l70.numLayers, "layers", d0));
  // @eq:sp-volume for the same example: all of it, and the overlapped re-gathers.
  put("ch4.sp70LayerMB", v((tpSpCommElementsPerLayer(1, 8192, l70.hiddenSize, 8) * bf16) / MB, "MB", d1));
  put("ch4.sp70RegatherMB", v((tpSpRegatherElementsPerLayer(1, 8192, l70.hiddenSize, 8) * bf16) / MB, "MB", d1));

  // @eq:tp-ratio at h = s = 8192 on an H100. At t = 8: NVLink's line rate per direction, and the
  // bus bandwidths the placement model gives eight GPUs of one server (the NVLink ring for
  // all-gather and reduce-scatter, NVLink SHARP for all-reduce; nvidia2024nccltests212).
  const cluster = clusterShape(h100.id);
  const perServer = cluster.gpusPerServer;
  const bus = (collective: "all-reduce" | "all-gather", ranks: number, stride: number) =>
    groupLink(cluster, collective, { ranks, stride }).busBytesPerSecond;
  const ringBus = bus("all-gather", perServer, 1);
  const nvlsBus = bus("all-reduce", perServer, 1);
  const ratio = (linkBytesPerSecond: number, t = 8) => tpCommToComputeRatio(t, F, linkBytesPerSecond, 8192, 8192);
  put("ch4.ratioNvlink", v(ratio(nvlinkPerDirection), "", d2));
  put("ch4.ratioNvlinkRounded", v(ratio(nvlinkPerDirection), "", d1));
  put("ch4.ringBusGBs", v(ringBus / GB, "GB/s", d0));
  put("ch4.nvlsBusGBs", v(nvlsBus / GB, "GB/s", d0));
  put("ch4.ratioNcclRing", v(ratio(ringBus), "", d2));
  put("ch4.ratioNvls", v(ratio(nvlsBus), "", d2));
  // The same bytes over the ring instead of NVLS: how much longer (SP's all-gather and reduce-scatter).
  put("ch4.spSlowdownPct", v(100 * (nvlsBus / ringBus - 1), "%", d0));
  // Across servers: an 8-member group with one member per server crosses on one NIC each; t = 16 on
  // two whole servers crosses on each server's eight NICs (capped by the NVLink ring).
  const onePerServerBus = bus("all-reduce", perServer, perServer);
  const twoServerBus = bus("all-reduce", 2 * perServer, 1);
  put("ch4.nicBusGBs", v(onePerServerBus / GB, "GB/s", d0));
  put("ch4.ratioOnePerServer", v(ratio(onePerServerBus), "", d1));
  put("ch4.onePerServerOverNvls", v(ratio(onePerServerBus) / ratio(nvlsBus), "", d0));
  put("ch4.twoServerBusGBs", v(twoServerBus / GB, "GB/s", d0));
  put("ch4.ratioTwoServers", v(ratio(twoServerBus, 16), "", d2));
  put("ch4.ratioTwoServersRounded", v(ratio(twoServerBus, 16), "", d1));
  put("ch4.twoServersOverNvls", v(ratio(twoServerBus, 16) / ratio(nvlsBus), "", d1));
  // Exercise 3's alternative: t = 16 with one member on each of sixteen servers.
  put("ch4.ratioT16OnePerServer", v(ratio(onePerServerBus, 16), "", d1));
  put("ch4.t16OnePerServerOverNvls", v(ratio(onePerServerBus, 16) / ratio(nvlsBus), "", d0));
  // Sixteen GPUs inside one NVLink domain (a GB200 NVL72 rack would allow it) at the NVLS figure: the
  // part of the growth that is t − 1 alone.
  put("ch4.ratioT16Nvls", v(ratio(nvlsBus, 16), "", d2));

  // Sequence parallelism in the book's step model: Llama 3.1 70B on 512 H100s, t = 8, p = 4, d = 16,
  // s = 8,192, b = 1, 512 sequences per step, Megatron-LM's defaults (stated in the text).
  const spScenario = (sequenceParallel: boolean, tpCommOverlap?: boolean): Scenario => ({
    model: "llama-3.1-70b",
    cluster: { gpu: h100.id, gpuCount: 512 },
    framework: "megatron",
    layout: { tp: 8, pp: 4, sequenceParallel, ...(tpCommOverlap === undefined ? {} : { tpCommOverlap }) },
    batch: { seqLength: 8192, microBatchSize: 1, globalBatch: 512 },
  });
  const spOff = evaluateScenario(spScenario(false));
  const spOn = evaluateScenario(spScenario(true));
  const spOverlap = evaluateScenario(spScenario(true, true));
  put("ch4.spDp", v(spOn.step.layout.dp, "GPUs", d0));
  put("ch4.spOffTpS", v(spOff.step.breakdown.tp, "s", d2));
  put("ch4.spOnTpS", v(spOn.step.breakdown.tp, "s", d2));
  put("ch4.spTpGrowthPct", v(100 * (spOn.step.breakdown.tp / spOff.step.breakdown.tp - 1), "%", d0));
  put("ch4.spOffMfu", v(100 * spOff.step.mfu, "%", d1));
  put("ch4.spOnMfu", v(100 * spOn.step.mfu, "%", d1));
  // With --tp-comm-overlap each block's collectives hide behind its GEMMs; what exceeds them stays exposed.
  put("ch4.spOverlapTpS", v(spOverlap.step.breakdown.tp, "s", d2));
  put("ch4.spOverlapMfu", v(100 * spOverlap.step.mfu, "%", d1));
  put("ch4.spOffGB", v(spOff.bytesPerGpu / GB, "GB", d1));
  put("ch4.spOnGB", v(spOn.bytesPerGpu / GB, "GB", d1));
  put("ch4.budgetGB", v(memoryBudget(h100).usableBytes / GB, "GB", d0));

  // The 70B MLP up projection and its shard at t = 8.
  const up = tpShardingLayout(l70, { tp: 8, sequenceParallel: true, seqLength: 8192, microBatchSize: 1 })
    .regions.flatMap((r) => r.tensors)
    .find((x) => x.name === "up projection");
  if (!up) throw new Error("tensor-parallelism values: no up projection in the 70B layout");
  put("ch4.upRows", v(up.fullShape[0], "", d0));
  put("ch4.upCols", v(up.fullShape[1], "", d0));
  put("ch4.upShardRows", v(up.shardShape[0], "", d0));
  put("ch4.upShardCols", v(up.shardShape[1], "", d0));

  // Korthikanti et al.'s GPT-3 175B configuration (stated): a = 96, h = 12288, s = 2048, b = 1, t = 8,
  // 96 layers. Per layer in MiB, with and without FlashAttention: ch4.actTpMiB … ch4.actSpFlashMiB
  // (../exercise-values.ts).
  const gpt3 = {
    s: fact("korthikanti.seqLength").value,
    b: 1,
    h: fact("korthikanti.gpt3Hidden").value,
    a: fact("korthikanti.gpt3Heads").value,
    t: 8,
  };
  const gpt3Layers = fact("korthikanti.gpt3Layers").value;
  const actTp = korthikantiLayerActivationBytes({ ...gpt3, sequenceParallel: false, recompute: "none" });
  const actSp = korthikantiLayerActivationBytes({ ...gpt3, sequenceParallel: true, recompute: "none" });
  put("ch4.gpt3ActTpBytes", v(actTp, "bytes", d0));
  put("ch4.gpt3StackTpGiB", v((gpt3Layers * actTp) / GiB, "GiB", d2));
  put("ch4.gpt3StackSpGiB", v((gpt3Layers * actSp) / GiB, "GiB", d2));
  // Sequence parallelism's all-gathers per layer: Korthikanti et al.'s four, and Megatron-LM's two re-gathers
  // of the input in the backward pass (src/data/facts.ts).
  put(
    "ch4.spAllGathers",
    v(fact("korthikanti.spAllGathers").value + fact("megatronLm.spBackwardRegathers").value, "", d0),
  );

  // Exercises. Llama-3.1-8B's layer count; Llama-3.1-70B's KV heads and their replication at t = 16.
  put("ch4.llama8bLayers", v(arch("llama-3.1-8b").numLayers, "layers", d0));
  put("ch4.llama70bKvHeads", v(l70.numKvHeads, "heads", d0));
  put(
    "ch4.kvCopies16",
    v(
      tpShardingLayout(l70, { tp: 16, sequenceParallel: false, seqLength: 16, microBatchSize: 1 }).kvReplication,
      "GPUs",
      d0,
    ),
  );
  // The smallest hidden size for a 25% ratio at t = 8 (exercise 4): h ≥ 4(t − 1)F/(3B), with the
  // all-reduce's NVLS bus bandwidth (plain TP), with the ring's (SP), and at NVLink's line rate (a hint).
  const minHidden = (B: number) => (4 * 7 * F) / (3 * B);
  put("ch4.minHidden", v(minHidden(nvlsBus), "", d0));
  put("ch4.minHiddenRounded", v(minHidden(nvlsBus), "", { significant: 3 }));
  put("ch4.minHiddenSp", v(minHidden(ringBus), "", d0));
  put("ch4.minHiddenLineRate", v(minHidden(nvlinkPerDirection), "", d0));
  // Overflow of e^z: e^100 (mantissa of its power of ten), ln of each format's largest value.
  put("ch4.exp100Mantissa", v(Math.exp(100) / 1e43, "", d1));
  put("ch4.fp16Max", v(maxFinite("fp16"), "", d0));
  put("ch4.fp16OverflowZ", v(Math.log(maxFinite("fp16")), "", d1));
  put("ch4.fp32OverflowZ", v(Math.log(maxFinite("fp32")), "", d1));
  put("ch4.fp32MaxMantissa", v(maxFinite("fp32") / 1e38, "", d1));
}
