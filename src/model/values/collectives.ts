/**
 * Computed values of the chapter "collectives" for its prose: `{=a0.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * Nothing here types in a bandwidth. Every bus bandwidth comes from placement.ts's groupLink for
 * the H100 cluster (src/data/interconnects.ts), for the layout the appendix names:
 * - inside one server (8 ranks, stride 1): NVLink SHARP for an all-reduce, the NVLink ring without it;
 * - all eight GPUs of each server in the group (stride 1): the ring leaves each server on its eight NICs;
 * - one rank per server (stride = GPUs per server): it leaves on one NIC.
 * The α–β examples use β = the line rate of one 400 Gb/s NIC (interconnects.ts), the link a ring with
 * one rank per server crosses at every step, as the appendix says.
 *
 * The chapter's stated inputs: the worked ring/tree comparison on n = 1,024 GPUs with α = 10 µs per
 * step, for 1 MB, 25 MB and 1 GB all-reduces; the gradients of Llama 3.1 8B reduced in bf16 (an
 * option: the appendix says whose default it is) over one HGX H100 server and over 128 GPUs in
 * 16 servers; the ZeRO-3 exercise's 64-rank group; the outputs of the two torch.distributed programs
 * run on four ranks.
 */
import { d0, d1, d2, gpu, interconnect, params, v, type PutValue } from "./put.ts";
import { busBandwidthFactor, collectiveSeconds } from "../communication.ts";
import { ceilLog2 } from "../collective-steps.ts";
import { bytesPerValue } from "../number-formats.ts";
import { clusterShape, groupLink } from "../placement.ts";

const GB = 1e9;
const MB = 1e6;

/** The worked comparison of @sec:ring-vs-tree: α = 10 µs per step (stated), n = 1,024. */
const ALPHA = 10e-6;
const N = 1024;
/** β: the line rate of one 400 Gb/s NIC (src/data/interconnects.ts), as the appendix states it. */
const BETA = (): number => interconnect("h100-sxm").nicLineBytesPerSecond;

/** Ring all-reduce, @eq:ring-ar: 2(n − 1)α plus the bus-bandwidth factor 2(n − 1)/n times S/β. */
function ringSeconds(n: number, bytes: number): number {
  return (
    2 * (n - 1) * ALPHA +
    collectiveSeconds({ collective: "all-reduce", messageBytes: bytes, ranks: n, busBandwidthBytesPerSecond: BETA() })
  );
}
/** Binomial-tree all-reduce (reduce, then broadcast): 2⌈log₂ n⌉(α + S/β). */
function treeSeconds(n: number, bytes: number): number {
  return 2 * ceilLog2(n) * (ALPHA + bytes / BETA());
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

  // @sec:nccl: the gradients of Llama 3.1 8B reduced in bf16 (parameters counted by the model).
  const gradientBytes = bytesPerValue("bf16") * params("llama-3.1-8b");
  put("a0.gradientsGB", v(gradientBytes / GB, "GB", d2));

  // The H100 cluster of src/data/interconnects.ts, and the bus bandwidth placement.ts gives a group
  // for each layout the appendix names. Times are the bandwidth term fS/busbw (no latency), as in
  // the text.
  const cluster = clusterShape("h100-sxm");
  const perServer = cluster.gpusPerServer;
  const h100 = gpu("h100-sxm");
  const bus = (collective: "all-reduce" | "all-gather", ranks: number, stride: number, nvls = true) =>
    groupLink(cluster, collective, { ranks, stride }, { nvls }).busBytesPerSecond;
  const seconds = (collective: "all-reduce" | "all-gather", bytes: number, ranks: number, busbw: number) =>
    collectiveSeconds({ collective, messageBytes: bytes, ranks, busBandwidthBytesPerSecond: busbw });
  const allReduceMs = (ranks: number, busbw: number) => seconds("all-reduce", gradientBytes, ranks, busbw) * 1000;

  // One server: NVLink SHARP (NCCL's default there), the NVLink ring without it, and the NVLink
  // line rate per direction (src/data/gpus.ts), which neither reaches.
  const serverNvls = bus("all-reduce", perServer, 1);
  const serverRing = bus("all-reduce", perServer, 1, false);
  put("a0.gpusPerServer", v(perServer, "GPUs", d0));
  put("a0.serverNvlsMs", v(allReduceMs(perServer, serverNvls), "ms", d1));
  put("a0.serverRingMs", v(allReduceMs(perServer, serverRing), "ms", d1));
  put("a0.serverLineRateMs", v(allReduceMs(perServer, h100.nvlinkBytesPerSecond / 2), "ms", d1));

  // The same all-reduce over 128 GPUs (a chosen size) in 16 servers, in two layouts: all eight GPUs
  // of each server in the group (stride 1, eight NICs per server boundary) and one rank per server
  // (stride 8, one NIC), as the data-parallel group of a layout with 8-way tensor parallelism.
  const ranks = 128;
  const allEight = groupLink(cluster, "all-reduce", { ranks, stride: 1 });
  const onePerServer = bus("all-reduce", ranks, perServer);
  put("a0.servers128", v(ranks / perServer, "servers", d0));
  put("a0.sendGB128", v((busBandwidthFactor("all-reduce", ranks) * gradientBytes) / GB, "GB", d2));
  put("a0.allEightNics", v(allEight.nics, "NICs", d0));
  put("a0.allEightGBps", v(allEight.busBytesPerSecond / GB, "GB/s", d0));
  put("a0.allReduceMs128", v(allReduceMs(ranks, allEight.busBytesPerSecond), "ms", d1));
  put("a0.onePerServerGBps", v(onePerServer / GB, "GB/s", d0));
  put("a0.allReduceOneMs128", v(allReduceMs(ranks, onePerServer), "ms", d1));
  // The NIC's bus bandwidth the model assumes, as a share of its line rate (interconnects.ts).
  put(
    "a0.nicLineSharePct",
    v((100 * cluster.nicBusBytesPerSecond) / interconnect("h100-sxm").nicLineBytesPerSecond, "%", d0),
  );
  // How far the bus bandwidth falls from one server (ring, NVLS) to one rank per server.
  put("a0.dropFromRing", v(serverRing / onePerServer, "", d1));
  put("a0.dropFromNvls", v(serverNvls / onePerServer, "", d1));

  // Exercise "ZeRO-3 parameter gathers": the bf16 parameters all-gathered over 64 ranks, one per
  // server (the question's layout), and for comparison with all eight GPUs of each server.
  const gatherRanks = 64;
  const paramBytes = bytesPerValue("bf16") * params("llama-3.1-8b");
  const gatherOne = bus("all-gather", gatherRanks, perServer);
  const gatherAll = bus("all-gather", gatherRanks, 1);
  put("a0.gatherOneGBps", v(gatherOne / GB, "GB/s", d0));
  put("a0.gatherMs", v(seconds("all-gather", paramBytes, gatherRanks, gatherOne) * 1000, "ms", d1));
  // Hint: forgetting that a rank holds its own chunk (the whole message over the bus bandwidth).
  put("a0.gatherAllMs", v((paramBytes / gatherOne) * 1000, "ms", d1));
  put("a0.gatherAllEightGBps", v(gatherAll / GB, "GB/s", d0));
  put("a0.gatherAllEightMs", v(seconds("all-gather", paramBytes, gatherRanks, gatherAll) * 1000, "ms", d1));

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
  // Exercise "Where ring and tree cross": S* = αβ(n − 1 − k)/(k − (n − 1)/n).
  put("a0.crossoverMB", v((ALPHA * BETA() * (N - 1 - k)) / (k - (N - 1) / N) / MB, "MB", d2));
  // Exercise "Latency of a large ring": a 25 MB ring all-reduce over 1,024 GPUs.
  const latency = 2 * (N - 1) * ALPHA;
  const total = ringSeconds(N, 25e6);
  put("a0.ring25MBms", v(total * 1000, "ms", d2));
  put("a0.latency25MBms", v(latency * 1000, "ms", d2));
  put("a0.bandwidth25MBms", v((total - latency) * 1000, "ms", d2));
  put("a0.latencyShare", v((100 * latency) / total, "%", d1));
}
