/**
 * Computed values of the chapter "collectives" for its prose: `{=a0.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * The chapter's stated inputs: the worked ring/tree comparison on n = 1,024 GPUs with
 * β = 50 GB/s and α = 10 µs per step, for 1 MB and 1 GB all-reduces; the bf16 gradients of
 * Llama 3.1 8B all-reduced over one HGX H100 server and over 128 GPUs behind 50 GB/s ports; the
 * outputs of the two torch.distributed programs run on four ranks.
 */
import { d0, d1, d2, gpu, interconnect, params, v, type PutValue } from "./put.ts";
import { busBandwidthFactor, collectiveSeconds } from "../communication.ts";
import { ceilLog2 } from "../collective-steps.ts";

const GB = 1e9;

/** The worked comparison of @sec:ring-vs-tree: α = 10 µs per step, β = the NIC line rate of src/data (50 GB/s), n = 1,024. */
const ALPHA = 10e-6;
const BETA = interconnect("h100-sxm").nicLineBytesPerSecond;
const N = 1024;

/** Ring all-reduce, @eq:ring-ar: 2(n − 1)α plus the bus-bandwidth factor 2(n − 1)/n times S/β. */
function ringSeconds(n: number, bytes: number): number {
  return (
    2 * (n - 1) * ALPHA +
    collectiveSeconds({ collective: "all-reduce", messageBytes: bytes, ranks: n, busBandwidthBytesPerSecond: BETA })
  );
}
/** Binomial-tree all-reduce (reduce, then broadcast): 2⌈log₂ n⌉(α + S/β). */
function treeSeconds(n: number, bytes: number): number {
  return 2 * ceilLog2(n) * (ALPHA + bytes / BETA);
}

export function collectivesValues(put: PutValue): void {
  // @sec:ring: the ring all-reduce's 2(n − 1) steps on 1,024 ranks, n − 1 in each half.
  put("a0.ringLatencies1024", v(2 * (N - 1), "steps", d0));
  put("a0.ringHalfSteps1024", v(N - 1, "steps", d0));

  // @sec:ring-vs-tree: 1 MB and 1 GB all-reduces, ring against binomial tree.
  put("a0.ring1MBms", v(ringSeconds(N, 1e6) * 1000, "ms", d2));
  put("a0.tree1MBms", v(treeSeconds(N, 1e6) * 1000, "ms", d2));
  put("a0.ring1GBms", v(ringSeconds(N, 1e9) * 1000, "ms", d2));
  put("a0.tree1GBms", v(treeSeconds(N, 1e9) * 1000, "ms", d2));
  put("a0.treeSteps1024", v(2 * ceilLog2(N), "steps", d0));

  // @sec:nccl: bf16 gradients of Llama 3.1 8B (2 bytes per parameter, parameters counted by the model).
  const gradientBytes = 2 * params("llama-3.1-8b");
  put("a0.gradientsGB", v(gradientBytes / GB, "GB", d2));

  // One HGX H100 server (src/data/interconnects.ts): its GPU count, the measured bus bandwidths
  // with and without NVLink SHARP, and the NVLink line rate per direction (src/data/gpus.ts).
  const hgx = interconnect("h100-sxm");
  const h100 = gpu("h100-sxm");
  const perServer = hgx.gpusPerNode;
  const nvls = hgx.nvlinkNvlsAllReduceBusBytesPerSecond;
  if (nvls === null) throw new Error("collectives values: h100-sxm has no NVLink SHARP bus bandwidth");
  const allReduceMs = (ranks: number, busbw: number) =>
    collectiveSeconds({
      collective: "all-reduce",
      messageBytes: gradientBytes,
      ranks,
      busBandwidthBytesPerSecond: busbw,
    }) * 1000;
  put("a0.gpusPerServer", v(perServer, "GPUs", d0));
  put("a0.serverNvlsMs", v(allReduceMs(perServer, nvls), "ms", d1));
  put("a0.serverRingMs", v(allReduceMs(perServer, hgx.nvlinkRingBusBytesPerSecond), "ms", d1));
  put("a0.serverLineRateMs", v(allReduceMs(perServer, h100.nvlinkBytesPerSecond / 2), "ms", d1));
  // The same all-reduce over 128 GPUs (a chosen size) behind one 50 GB/s port each.
  const ranks = 128;
  put("a0.servers128", v(ranks / perServer, "servers", d0));
  put("a0.sendGB128", v((busBandwidthFactor("all-reduce", ranks) * gradientBytes) / GB, "GB", d2));
  put("a0.allReduceMs128", v(allReduceMs(ranks, hgx.nicLineBytesPerSecond), "ms", d1));

  // @sec:torch, collectives_tour.py on four ranks: rank r's loss is 0.5(r + 1); rank 0 gets the sum.
  const tourRanks = [0, 1, 2, 3];
  put(
    "a0.tourLoss",
    v(
      tourRanks.reduce((sum, r) => sum + 0.5 * (r + 1), 0),
      "",
      d1,
    ),
  );
  // @sec:groups, groups.py on four ranks with tp_size = 2: each rank all-reduces its own rank number
  // over its tensor-parallel group (rank // tp_size) and its data-parallel group (rank % tp_size).
  const tpSize = 2;
  const groupSum = (rank: number, same: (a: number, b: number) => boolean) =>
    tourRanks.filter((r) => same(r, rank)).reduce((sum, r) => sum + r, 0);
  const tpSum = (rank: number) => groupSum(rank, (a, b) => Math.floor(a / tpSize) === Math.floor(b / tpSize));
  const dpSum = (rank: number) => groupSum(rank, (a, b) => a % tpSize === b % tpSize);
  put("a0.groupsTpSum0", v(tpSum(0), "", d1));
  put("a0.groupsDpSum0", v(dpSum(0), "", d1));
  put("a0.groupsTpSum3", v(tpSum(3), "", d1));
  put("a0.groupsDpSum3", v(dpSum(3), "", d1));

  // Exercise "Where ring and tree cross": n − 1 − k and k − (n − 1)/n for n = 1,024, k = 10.
  const k = Math.log2(N);
  put("a0.crossoverSteps", v(N - 1 - k, "", d0));
  put("a0.crossoverDenominator", v(k - (N - 1) / N, "", { decimals: 6 }));
  // Exercise "Latency of a large ring": a 25 MB ring all-reduce over 1,024 GPUs.
  put("a0.ring25MBms", v(ringSeconds(N, 25e6) * 1000, "ms", d2));
}
