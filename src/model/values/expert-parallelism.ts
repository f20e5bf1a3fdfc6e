/**
 * Computed values of the chapter "expert-parallelism" for its prose: `{=ch7.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 *
 * Nothing here types in a bandwidth: NVLink's line rate comes from gpus.ts, and every bus bandwidth
 * from placement.ts's groupLink for the H100 cluster, for the layout the chapter names (eight EP
 * ranks in one server, or one in each of eight servers). The DeepSeek-V3 exercise times its
 * InfiniBand traffic at the report's 50 GB/s per GPU, the line rate of a 400 Gb/s NIC, read from
 * interconnects.ts.
 */
import { parseModelConfig } from "../architecture.ts";
import { bytesPerParameter } from "../memory.ts";
import {
  MOE_ROUTING_EXAMPLE,
  expertCapacity,
  expertDispatchBytes,
  simulateMoeRouting,
  switchBalanceLoss,
} from "../moe-routing.ts";
import { countParameters, layerParameters } from "../parameters.ts";
import { clusterShape, groupLink } from "../placement.ts";
import { d0, d1, d2, d3, gpu, interconnect, params, preset, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const MB = 1e6;

export function expertParallelismValues(put: PutValue): void {
  const mixtral = preset("mixtral-8x7b").config;
  const h100 = gpu("h100-sxm");
  const net = interconnect("h100-sxm");
  const arch = parseModelConfig(mixtral).architecture;
  const moe = arch.moe;
  if (!moe) throw new Error("ch7 values: mixtral-8x7b has no MoE block");
  const counts = countParameters(mixtral);
  const expertSize = layerParameters(arch, 0).expertSize;

  // Mixtral 8x7B counted from its configuration (src/data/models.ts).
  put("ch7.mixtralActiveParams", v(counts.active, "parameters", d0));
  put("ch7.mixtralTopK", v(moe.expertsPerToken, "experts", d0));
  put("ch7.mixtralParamsB", v(params("mixtral-8x7b") / 1e9, "B", d1));
  // DeepSeek-V3's routed experts over its 64-way EP (deepseekai2024v3 §3.2; config in src/data/models.ts).
  const dsMoe = parseModelConfig(preset("deepseek-v3").config).architecture.moe;
  if (!dsMoe) throw new Error("expert-parallelism values: DeepSeek-V3 has no MoE spec");
  put("ch7.deepseekExpertsPerGpu", v(dsMoe.routedExperts / fact("deepseekV3.ep").value, "experts", d0));
  put("ch7.mixtralExperts", v(moe.routedExperts, "experts", d0));
  put("ch7.mixtralLayers", v(arch.numLayers, "layers", d0));
  put("ch7.mixtralUnusedExperts", v(moe.routedExperts - moe.expertsPerToken, "experts", d0));
  put("ch7.mixtralAllExperts", v(arch.numLayers * moe.routedExperts, "experts", d0));
  const allExpertParams = arch.numLayers * moe.routedExperts * expertSize;
  put("ch7.mixtralExpertParams", v(allExpertParams, "parameters", d0));
  put("ch7.mixtralExpertShare", v((100 * allExpertParams) / counts.total, "%", d1));
  // Training FLOPs per token at 6N (kaplan2020scaling), active against all parameters.
  put("ch7.activeGflop", v((6 * counts.active) / 1e9, "GFLOP", d1));
  put("ch7.denseGflop", v((6 * counts.total) / 1e9, "GFLOP", d1));

  // Exercise 1 (c): mixed-precision Adam states, 16 bytes per parameter, against 80 GB and against
  // the 81,559 MiB that nvidia-smi reports for an H100 (cited in the chapter).
  const bpp = bytesPerParameter("bf16");
  const perParam = bpp.parameters + bpp.gradients + bpp.optimizer;
  const states = counts.total * perParam;
  put("ch7.adamBytesPerParam", v(perParam, "bytes", d0));
  put("ch7.mixtralStatesGB", v(states / GB, "GB", d1));
  put("ch7.mixtralGpusExact", v(states / h100.hbmBytes, "GPUs", d1));
  const usable = 81_559 * 2 ** 20;
  put("ch7.h100UsableGB", v(usable / GB, "GB", d1));
  put("ch7.mixtralGpusUsableExact", v(states / usable, "GPUs", d1));
  put("ch7.mixtralGpusUsable", v(Math.ceil(states / usable), "GPUs", d0));

  // @eq:capacity for T = 4,096, E = 8, k = 2, c = 1.25 (stated in the text).
  put("ch7.capacityExample", v(expertCapacity(4096, 8, 2, 1.25), "slots", d0));

  // The moe-routing widget's default state (the settings of its block in the chapter; the chapter
  // test checks they are the widget's defaults).
  const r = simulateMoeRouting(MOE_ROUTING_EXAMPLE);
  const capacity = r.capacityPerExpert ?? 0;
  put("ch7.widgetCapacity", v(capacity, "slots", d0));
  put("ch7.widgetDropped", v(r.droppedAssignments, "assignments", d0));
  put("ch7.widgetAssignments", v(r.totalAssignments, "assignments", d0));
  put("ch7.widgetDroppedShare", v(100 * r.droppedFraction, "%", d1));
  put("ch7.widgetMeanFill", v((100 * r.totalAssignments) / 16 / capacity, "%", d0));
  // The same batch at skew 0: every expert equally popular, yet the load is random. Its fair share
  // of assignments, the busiest expert over it at the default seed, and how many of the seeds 0–199
  // still drop assignments at the same capacity factor.
  const balanced = { ...MOE_ROUTING_EXAMPLE, skew: 0 };
  const r0 = simulateMoeRouting(balanced);
  if (r0.capacityPerExpert === null) throw new Error("ch7 values: the widget's example has no capacity limit");
  const fairShare = r0.totalAssignments / balanced.experts;
  // The slack the capacity leaves above the fair share (⌈1.25 · 64⌉ = 80 slots for 64).
  put("ch7.widgetSlackPct", v(100 * (r0.capacityPerExpert / fairShare - 1), "%", d0));
  put("ch7.widgetFairShare", v(fairShare, "assignments", d0));
  put("ch7.skew0BusiestPct", v(100 * (r0.expertImbalance - 1), "%", d0));
  const seeds = Array.from({ length: 200 }, (_, seed) => simulateMoeRouting({ ...balanced, seed }));
  const dropping = seeds.filter((x) => x.droppedAssignments > 0);
  put("ch7.skew0SeedsDroppingPct", v((100 * dropping.length) / seeds.length, "%", d0));
  put("ch7.skew0MostDropped", v(Math.max(...seeds.map((x) => x.droppedAssignments)), "assignments", d0));

  // @sec:ep-volume: a Mixtral-sized layer, one 4,096-token sequence per GPU, bf16, G = 8.
  const dispatch = expertDispatchBytes({
    tokensPerGpu: 4096,
    hidden: arch.hiddenSize,
    topK: moe.expertsPerToken,
    epDegree: 8,
    bytesPerElement: 2,
  });
  put("ch7.mixtralDispatchMB", v(dispatch / MB, "MB", d1));
  put("ch7.mixtralStepAllToAllGB", v((4 * arch.numLayers * dispatch) / GB, "GB", d1));
  put("ch7.gpuAssignments", v(4096 * moe.expertsPerToken, "assignments", d0));
  const expertFlops = 2 * expertSize * 4096 * moe.expertsPerToken;
  put("ch7.expertTflop", v(expertFlops / 1e12, "TFLOP", d2));
  const computeSeconds = expertFlops / h100.bf16FlopsPerSecond;
  put("ch7.expertMs", v(computeSeconds * 1e3, "ms", d2));
  put("ch7.nvlinkDispatchMs", v((dispatch / (h100.nvlinkBytesPerSecond / 2)) * 1e3, "ms", d3));
  // Eight EP ranks in one server: the NVLink ring's bus bandwidth NCCL measures (370 GB/s, cited in
  // the chapter). Times are the bandwidth term V_dispatch / busbw, as in the chapter.
  const cluster = clusterShape(h100.id);
  const inServer = groupLink(cluster, "all-to-all", { ranks: 8, stride: 1 });
  put("ch7.ncclDispatchMs", v((dispatch / inServer.busBytesPerSecond) * 1e3, "ms", d3));
  // The same eight ranks one per server: each GPU's traffic leaves on its own 400 Gb/s NIC, at its
  // line rate and at the bus bandwidth the model assumes a NIC sustains.
  const acrossServers = groupLink(cluster, "all-to-all", { ranks: 8, stride: cluster.gpusPerServer });
  const ib = acrossServers.busBytesPerSecond;
  put("ch7.nicBusGBps", v(ib / GB, "GB/s", d0));
  put("ch7.ibLineDispatchMs", v((dispatch / net.nicLineBytesPerSecond) * 1e3, "ms", d2));
  put("ch7.ibDispatchMs", v((dispatch / ib) * 1e3, "ms", d2));
  put("ch7.ibDispatchCombineMs", v(((2 * dispatch) / ib) * 1e3, "ms", d2));

  // Switch's balance loss (without α) for three tokens on three experts, two on one expert: below
  // the uniform routing's 1 (the chapter's counterexample).
  put(
    "ch7.switchCounterexample",
    v(
      switchBalanceLoss([
        [0.34, 0.33, 0.33],
        [0.34, 0.33, 0.33],
        [0, 0.51, 0.49],
      ]),
      "",
      d2,
    ),
  );

  // Exercise 2 (b): E = 64, k = 2, T = 8,192; the busiest expert gets 1.5 times its fair share.
  const fair = (2 * 8192) / 64;
  put("ch7.busiestAssignments", v(1.5 * fair, "assignments", d0));
  put("ch7.realAssignments", v(2 * 8192, "assignments", d0));

  // @sec:ep-recipe: DeepSeek-V3's bf16 weights per GPU without pipeline parallelism: everything but
  // the routed experts on every GPU, and 1/G of the routed experts, at EP 8 (stated) and at the
  // 64-way EP it trained with (src/data/facts.ts).
  const ds = countParameters(preset("deepseek-v3").config);
  const dsRouted = ds.layers.reduce((sum, l) => sum + l.routedExperts, 0);
  const dsWeightsGB = (ep: number) => (2 * (ds.total - dsRouted + dsRouted / ep)) / GB;
  put("ch7.dsEp8WeightsGB", v(dsWeightsGB(8), "GB", d0));
  put("ch7.dsEp64WeightsGB", v(dsWeightsGB(fact("deepseekV3.ep").value), "GB", d0));

  // Exercise 5: 4,096 tokens, h = 7,168, fp8, over InfiniBand at the report's 50 GB/s per GPU, the
  // line rate of a 400 Gb/s NIC (interconnects.ts; the chapter test checks that they agree).
  const ibLine = net.nicLineBytesPerSecond;
  const fullDispatch = expertDispatchBytes({
    tokensPerGpu: 4096,
    hidden: 7168,
    topK: 8,
    epDegree: fact("deepseekV3.ep").value,
    bytesPerElement: 1,
  });
  put("ch7.dispatchMs", v((fullDispatch / ibLine) * 1e3, "ms", d2));
  // (b): at most 4 nodes per token (M = 4).
  const nodeLimited = 4096 * 4 * 7168 * 1;
  put("ch7.nodeLimitedMB", v(nodeLimited / MB, "MB", d1));
  put("ch7.nodeLimitedMs", v((nodeLimited / ibLine) * 1e3, "ms", d2));
}
