/**
 * Computed values of the chapter "pipeline-parallelism" for its prose: `{=ch6.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import { korthikantiLayerActivationBytes } from "../activations.ts";
import { parseModelConfig } from "../architecture.ts";
import { matmulParameters, modelFlopsPerToken } from "../compute.ts";
import { bytesPerParameter } from "../memory.ts";
import { countParameters, layerParameters } from "../parameters.ts";
import { clusterShape, groupLink } from "../placement.ts";
import { PLANNING_MEMORY_FRACTION } from "../scenario.ts";
import { arch, d0, d1, d2, gpu, preset, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const MB = 1e6;
const GiB = 2 ** 30;

/** Narayanan et al. §2.2: the bubble (p − 1)/m of the ideal time, divided by v when interleaved. */
const bubble = (p: number, m: number, vChunks = 1) => (p - 1) / (vChunks * m);

export function pipelineParallelismValues(put: PutValue): void {
  const p70 = preset("llama-3.1-70b");
  const p8 = preset("llama-3.1-8b");
  const h100 = gpu("h100-sxm");

  // Llama 3.1 70B on p = 4 stages (@sec:stages).
  const a70 = parseModelConfig(p70.config).architecture;
  const layer70 = layerParameters(a70, 0).total;
  put("ch6.layerParams70", v(layer70, "parameters", d0));
  put("ch6.embedParams70", v(countParameters(p70.config).breakdown.embedding, "parameters", d0));
  const stageLayers = a70.numLayers / 4;
  put("ch6.stageLayers70", v(stageLayers, "layers", d0));
  put("ch6.stageParams70", v(stageLayers * layer70, "parameters", d0));
  // One boundary activation for b = 1, s = 4,096 in bf16, sent between neighbouring stages in
  // different servers: placement.ts gives such a send (stride = GPUs per server) one NIC's bus
  // bandwidth; the NIC's line rate is the data file's.
  const cluster = clusterShape(h100.id);
  const sendBus = groupLink(cluster, "send-recv", { ranks: 2, stride: cluster.gpusPerServer }).busBytesPerSecond;
  put("ch6.nicBusGBs", v(sendBus / GB, "GB/s", d0));
  const p2pBytes = 2 * 1 * 4096 * a70.hiddenSize;
  const p2pSeconds = p2pBytes / sendBus;
  put("ch6.p2pMB", v(p2pBytes / MB, "MB", d1));
  put("ch6.p2pMs", v(p2pSeconds * 1e3, "ms", d2));
  // The stage's matrix multiplies: 2 FLOPs per parameter per token, at the H100's dense bf16 peak.
  const stageSeconds = (2 * stageLayers * layer70 * 4096) / h100.bf16FlopsPerSecond;
  put("ch6.stageMs", v(stageSeconds * 1e3, "ms", d1));
  // "under N%": the transfer's share of the stage's compute, rounded up to a whole percent.
  put("ch6.p2pShareBound", v(Math.ceil((100 * p2pSeconds) / stageSeconds), "%", d0));

  // Bubble examples.
  put("ch6.bubbleP4M8", v(100 * bubble(4, 8), "%", d1)); // the GPipe figure's p = 4, m = 8
  put("ch6.bubbleP8M32", v(100 * bubble(8, 32), "%", d1));
  put("ch6.bubbleP8M32Total", v((100 * (8 - 1)) / (32 + 8 - 1), "%", d1));
  put("ch6.bubbleP8M64", v(100 * bubble(8, 64), "%", d1));
  put("ch6.bubbleP8M64V3", v(100 * bubble(8, 64, 3), "%", d1));

  // The 175B example (Korthikanti et al.'s Table 3 configuration: s = 2,048, b = 1, h = 12,288,
  // a = 96, L = 96, t = 8, p = 8, SP and selective recomputation), m = 64.
  const layers175 = fact("korthikanti.gpt3Layers").value;
  const tp175 = fact("korthikanti.gpt3Tp").value;
  const pp175 = fact("korthikanti.gpt3Pp").value;
  const perLayer = korthikantiLayerActivationBytes({
    s: fact("korthikanti.seqLength").value,
    b: fact("korthikanti.microBatch").value,
    h: fact("korthikanti.gpt3Hidden").value,
    a: fact("korthikanti.gpt3Heads").value,
    t: tp175,
    sequenceParallel: true,
    recompute: "selective",
  });
  put("ch6.layerActMB", v(perLayer / MB, "MB", d1));
  put("ch6.stageLayers175", v(layers175 / pp175, "layers", d0));
  put("ch6.layers175", v(layers175, "layers", d0));
  const gpipe = 64 * (layers175 / pp175) * perLayer;
  const oneF1B = layers175 * perLayer;
  put("ch6.gpipeActGB", v(gpipe / GB, "GB", d1));
  put("ch6.gpipeActGiB", v(gpipe / GiB, "GiB", d1));
  put("ch6.oneF1bActGB", v(oneF1B / GB, "GB", d1));
  // What nvidia-smi reports for an "80 GB" H100: 81,559 MiB (nvidia2024nccl1264, cited in the chapter).
  const usable = fact("nvidiaSmi.h100MiB").value * 2 ** 20;
  put("ch6.h100UsableGiB", v(usable / GiB, "GiB", d1));
  put("ch6.h100UsableGB", v(usable / GB, "GB", d1));
  put("ch6.gpipeShare", v((100 * gpipe) / usable, "%", d0));
  put("ch6.roomLeftGB", v((usable - gpipe) / GB, "GB", d1));
  put("ch6.planPercent", v(100 * PLANNING_MEMORY_FRACTION, "%", d0));
  // 175B parameters over t·p GPUs at the bytes per parameter of mixed-precision Adam.
  const bpp = bytesPerParameter("bf16");
  const perParam = bpp.parameters + bpp.gradients + bpp.optimizer;
  put("ch6.gpus175", v(tp175 * pp175, "GPUs", d0));
  put("ch6.adamBytesPerParam", v(perParam, "bytes", d0));
  const states175GB = ((fact("korthikanti.gpt3ParamsB").value * 1e9) / (tp175 * pp175)) * (perParam / GB);
  put("ch6.states175GB", v(states175GB, "GB", d0));
  // Interleaving with v = 3 at p = 8 multiplies the first stage's activations by 1 + (p − 1)/(pv)
  // (korthikanti2023reducing).
  const interleavedFactor = 1 + (pp175 - 1) / (pp175 * 3);
  put("ch6.interleavedFactor", v(interleavedFactor, "", d2));
  put("ch6.interleavedActGB", v((oneF1B * interleavedFactor) / GB, "GB", d1));
  // Exercise 3 gives the model states as the chapter prints them (states175GB, whole GB).
  put("ch6.gpipeTotalGB", v(gpipe / GB + Math.round(states175GB), "GB", d1));
  // Llama 3.1 405B's pipeline slots: its layers plus the embedding and the head (grattafiori2024llama3 §3.3.2).
  put("ch6.llama405Slots", v(arch("llama-3.1-405b").numLayers + 2, "slots", d0));

  // Exercise 5: m = 8 < p = 16. With T_F = T_B = T_W = T, no schedule beats the last microbatch's
  // critical path, (m − 1) forwards on stage 0, p forwards, p input-gradient backwards and one weight
  // pass: (m + 2p)T, against 3mT of work per stage.
  const mEx5 = 8;
  const pEx5 = 16;
  put("ch6.zbFloorT", v(mEx5 + 2 * pEx5, "", d0));
  put("ch6.zbWorkT", v(3 * mEx5, "", d0));
  put("ch6.zbFloorPct", v((100 * (mEx5 + 2 * pEx5 - 3 * mEx5)) / (3 * mEx5), "%", d1));

  // Exercise 6: one boundary of Llama 3.1 70B at b = 1, s = 8,192 over one port (the send above);
  // (c) each of the t = 8 tensor-parallel GPUs sends a 1/t slice over its own port.
  const tpEx6 = 8;
  const boundaryBytes = 2 * 8192 * 8192; // 2bsh at b = 1, s = h = 8,192 in bf16
  put("ch6.boundaryMs", v((boundaryBytes / sendBus) * 1000, "ms", d2));
  put("ch6.tpSliceBytes", v(boundaryBytes / tpEx6, "B", d0));
  put("ch6.tpSliceMB", v(boundaryBytes / tpEx6 / MB, "MB", d1));
  put("ch6.tpSliceSpeedup", v(boundaryBytes / (boundaryBytes / tpEx6), "", d0));

  // Balancing: Llama 3.1 8B's vocabulary matrix against a layer, in parameters and in compute at
  // s = 8,192 (attention scores: PaLM's 12·L·a·d·s term, halved when kernels skip the masked half).
  const a8 = parseModelConfig(p8.config).architecture;
  const layer8 = layerParameters(a8, 0).total;
  const vocab8 = countParameters(p8.config).breakdown.embedding;
  put("ch6.vocabParams8b", v(vocab8, "parameters", d0));
  put("ch6.layerParams8b", v(layer8, "parameters", d0));
  put("ch6.vocabLayers8b", v(vocab8 / layer8, "layers", d2));
  const mp = matmulParameters(p8.config);
  const f = modelFlopsPerToken(p8.config, 8192);
  const headFlops = 6 * mp.head;
  put("ch6.headLayersFull", v(headFlops / ((6 * mp.layers + f.attentionTerm) / a8.numLayers), "layers", d2));
  put("ch6.headLayersCausal", v(headFlops / ((6 * mp.layers + f.attentionTerm / 2) / a8.numLayers), "layers", d2));
}
