/**
 * Computed values of the chapter "one-gpu" for its prose: `{=ch2.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import { layerActivations } from "../activations.ts";
import {
  korthikantiHardwareFlopsSelective,
  korthikantiModelFlops,
  modelFlopsPerToken,
  narayananFullRecomputeFlops,
} from "../compute.ts";
import { bytesPerParameter, modelStateBytes, trainingMemory } from "../memory.ts";
import { PLANNING_MEMORY_FRACTION } from "../scenario.ts";
import { gpuGeneration, KERNEL_EFFICIENCY } from "../step.ts";
import { arch, d0, d1, d2, d3, gpu, params, preset, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const MB = 1e6;

/** The model presets of @tbl:presets, in its row order. */
const TABLE_PRESETS = [
  "llama-3.2-1b",
  "llama-3.2-3b",
  "mistral-7b-v0.1",
  "qwen2.5-7b",
  "llama-3.1-8b",
  "llama-3.1-70b",
  "llama-3.1-405b",
];

export function oneGpuValues(put: PutValue): void {
  const a100 = gpu("a100-sxm-80gb");
  const h100 = gpu("h100-sxm");
  const total = (b: { parameters: number; gradients: number; optimizer: number }) =>
    b.parameters + b.gradients + b.optimizer;

  // Bytes per parameter (memory.ts). fp32: weights, gradients and each of Adam's two moments take an fp32
  // element (4 bytes); bf16 mixed precision: 2 + 2 + 12; with an fp32 gradient buffer in place of the bf16
  // gradients (Megatron-LM's bf16 main_grad), 18; with both, 20.
  const fp32 = bytesPerParameter("fp32");
  const bf16 = bytesPerParameter("bf16");
  put("ch2.fp32Bytes", v(fp32.parameters, "bytes", d0));
  put("ch2.fp32GradBytes", v(fp32.gradients, "bytes", d0));
  put("ch2.fp32MomentBytes", v(fp32.optimizer / 2, "bytes", d0));
  put("ch2.adamMomentsBytes", v(fp32.optimizer, "bytes", d0)); // Adam's two fp32 moments, in every layout
  put("ch2.fp32TotalBytes", v(total(fp32), "bytes", d0));
  put("ch2.bf16WeightBytes", v(bf16.parameters, "bytes", d0));
  put("ch2.bf16GradBytes", v(bf16.gradients, "bytes", d0));
  put("ch2.bf16OptimizerBytes", v(bf16.optimizer, "bytes", d0));
  put("ch2.bytesPerParam", v(total(bf16), "bytes", d0));
  put("ch2.bytesFp32Grad", v(total(bytesPerParameter("bf16", true, "replace")), "bytes", d0));
  put("ch2.bytesFp32GradBuffer", v(total(bytesPerParameter("bf16", true)), "bytes", d0));

  // Model states of Llama 3.1 8B and Llama 3.2 1B (modelStateBytes, bf16 mixed precision with Adam).
  const states8b = modelStateBytes(params("llama-3.1-8b"));
  put("ch2.states8bGB", v(states8b.total / GB, "GB", d1));
  put("ch2.optimizer8bGB", v(states8b.optimizer / GB, "GB", d1));
  put("ch2.states1bGB", v(modelStateBytes(params("llama-3.2-1b")).total / GB, "GB", d1));

  // The memory timeline of the running example (Llama 3.2 1B, s = 4,096, b = 4, FlashAttention, as in
  // tools/figures/one-gpu.ts): weights include the fp32 master copy (4 bytes per parameter, part of the
  // model's optimizer bytes); the moments are the rest of the optimizer bytes (eq. peak-steps).
  const n1b = params("llama-3.2-1b");
  const timeline = trainingMemory(preset("llama-3.2-1b").config, {
    seqLength: 4096,
    microBatchSize: 4,
    recompute: "none",
    attention: "flash",
  }).perGpu;
  const W = timeline.parameters + 4 * n1b;
  const M = timeline.optimizer - 4 * n1b;
  put("ch2.timelineFirstPeakGB", v((W + Math.max(timeline.activations, timeline.gradients + M)) / GB, "GB", d1));
  put("ch2.timelineSecondPeakGB", v((W + M + Math.max(timeline.activations, timeline.gradients)) / GB, "GB", d1));
  put("ch2.timelineMomentsGB", v(M / GB, "GB", d1));
  // The Memory Explorer's sum of the four categories for the same setup (its defaults).
  const explorer = trainingMemory(preset("llama-3.2-1b").config, { seqLength: 4096, microBatchSize: 4 }).perGpu;
  put("ch2.explorerTotalGB", v(explorer.total / GB, "GB", d1));
  // What the loop of @sec:step allocates beyond the model's count (the model counts one fp32 logits
  // tensor, 4·b·s·V bytes). PyTorch's cross-entropy is log_softmax then nll_loss: log_softmax saves
  // its fp32 output, nll_loss's backward returns a dense gradient of that shape, and log_softmax's
  // backward a third (pytorch2025derivatives), so three are alive at the start of the backward pass.
  // An unfused SwiGLU also keeps the SiLU output, 2·s·b·f bytes per layer (activations.ts).
  const a1b = arch("llama-3.2-1b");
  const logitsB4 = 4 * 4 * 4096 * a1b.vocabSize;
  const unfused = a1b.numLayers * 2 * 4096 * 4 * a1b.intermediateSize;
  put("ch2.logitsB4GB", v(logitsB4 / GB, "GB", d1));
  put("ch2.lossPeakGB", v((3 * logitsB4) / GB, "GB", d1));
  put("ch2.layers1b", v(a1b.numLayers, "layers", d0));
  put("ch2.unfusedSwigluGB", v(unfused / GB, "GB", d1));
  // The second step's peak at the start of its backward pass: weights, master copy and moments,
  // every activation the model counts with the logits replaced by the three loss buffers, and the
  // unfused MLP's extra tensors; no gradient exists yet.
  const loopPeak = explorer.parameters + explorer.optimizer + explorer.activations + 2 * logitsB4 + unfused;
  put("ch2.loopPeakGB", v(loopPeak / GB, "GB", d1));

  // The GPT layer's linear coefficient: 11sbh (attention) + 19sbh (MLP) + 4sbh (LayerNorms), Table 2 of
  // korthikanti2023reducing, as in korthikantiLayerActivationBytes.
  const linear = 11 + 19 + 4;
  put("ch2.linearCoeff", v(linear, "", d0));
  // Crossover s* = 34 h / (5 a) = 6.8 d_head, for a head size of 128 (chosen) and for GPT-2 XL's h/a.
  const gpt2 = arch("gpt2-xl");
  const gpt2Head = gpt2.hiddenSize / gpt2.numHeads;
  put("ch2.crossover128", v((linear * 128) / 5, "tokens", { significant: 2 }));
  put("ch2.gpt2HeadDim", v(gpt2Head, "", d0));
  put("ch2.crossoverGpt2", v((linear * gpt2Head) / 5, "tokens", { significant: 3 }));

  // GPT-2 XL activations (layerActivations, eager attention, b = 1) at s = 1,024, 2,048 and 4,096.
  put("ch2.gpt2Hidden", v(gpt2.hiddenSize, "", d0));
  put("ch2.gpt2Heads", v(gpt2.numHeads, "", d0));
  put("ch2.gpt2Layers", v(gpt2.numLayers, "layers", d0));
  const gpt2Layer = (s: number) => layerActivations(gpt2, { seqLength: s, microBatchSize: 1, attention: "eager" });
  put("ch2.gpt2LayerMB", v(gpt2Layer(1024).totalBytes / MB, "MB", d1));
  put("ch2.gpt2Stack1kGB", v((gpt2.numLayers * gpt2Layer(1024).totalBytes) / GB, "GB", d2));
  put("ch2.gpt2Stack2kGB", v((gpt2.numLayers * gpt2Layer(2048).totalBytes) / GB, "GB", d1));
  put("ch2.gpt2Stack4kGB", v((gpt2.numLayers * gpt2Layer(4096).totalBytes) / GB, "GB", d1));
  put("ch2.gpt2StackFullGB", v((gpt2.numLayers * gpt2Layer(1024).fullBytes) / GB, "GB", d2));
  // The quadratic term's share of a layer (5as/h against 34 + 5as/h) at s = 1,024 and 2,048.
  const gpt2Quad = (s: number) => (5 * gpt2.numHeads * s) / gpt2.hiddenSize;
  put("ch2.gpt2QuadShare1k", v((100 * gpt2Quad(1024)) / (linear + gpt2Quad(1024)), "%", d0));
  put("ch2.gpt2QuadShare2k", v((100 * gpt2Quad(2048)) / (linear + gpt2Quad(2048)), "%", d0));

  // fp32 logits of Llama 3's vocabulary for one sequence of 4,096 tokens.
  const vocab = arch("llama-3.1-8b").vocabSize;
  put("ch2.llamaVocab", v(vocab, "tokens", d0));
  put("ch2.logitsGB", v((fp32.parameters * 4096 * vocab) / GB, "GB", d1));

  // @tbl:presets: trainingMemory at s = 4,096, b = 1 for each preset (states; activations with eager
  // attention, with FlashAttention, and with FlashAttention and full recomputation).
  for (const id of TABLE_PRESETS) {
    const mem = (recompute: "none" | "full", attention: "eager" | "flash") =>
      trainingMemory(preset(id).config, { seqLength: 4096, microBatchSize: 1, recompute, attention }).perGpu;
    const eager = mem("none", "eager");
    put(`ch2.tbl.${id}.states`, v((eager.parameters + eager.gradients + eager.optimizer) / GB, "GB", d1));
    put(`ch2.tbl.${id}.eager`, v(eager.activations / GB, "GB", d1));
    put(`ch2.tbl.${id}.flash`, v(mem("none", "flash").activations / GB, "GB", d1));
    put(`ch2.tbl.${id}.full`, v(mem("full", "flash").activations / GB, "GB", d1));
  }

  // GPT-3 175B in korthikanti2023reducing (a, s, h, L and V recorded in src/data/facts.ts).
  const gpt3 = {
    B: 1,
    L: fact("korthikanti.gpt3Layers").value,
    s: fact("korthikanti.seqLength").value,
    h: fact("korthikanti.gpt3Hidden").value,
    V: fact("korthikanti.vocab").value,
  };
  const quad3 = (5 * fact("korthikanti.gpt3Heads").value * gpt3.s) / gpt3.h;
  put("ch2.gpt3QuadTerm", v(quad3, "", d0));
  put("ch2.gpt3LayerTerm", v(quad3 + linear, "", d0));
  put("ch2.gpt3SelectiveSaving", v((100 * quad3) / (quad3 + linear), "%", d0));
  const selective = korthikantiHardwareFlopsSelective(gpt3) / korthikantiModelFlops(gpt3);
  put("ch2.gpt3SelectiveRatio", v(selective, "", d3));
  put("ch2.gpt3SelectiveExtra", v(100 * (selective - 1), "%", d1));

  // BLOOM's batch: 2,048 sequences of 2,048 tokens (bigscience2022bloom), in millions of tokens.
  put(
    "ch2.bloomBatchTokensM",
    v((fact("bloom.batchSequences").value * fact("bloom.seqLength").value) / 1e6, "M tokens", d1),
  );

  // Gradient accumulation: 8 sequences of 4,096 tokens (stated) per microbatch towards a 1M = 2^20-token batch.
  put("ch2.accumTokens", v(8 * 4096, "tokens", d0));
  put("ch2.accumSteps", v(2 ** 20 / (8 * 4096), "microbatches", d0));

  // FLOPs of a linear layer: 2 per parameter per token forward (one multiply, one add), two products of the
  // same size backward.
  put("ch2.forwardFlopsPerParam", v(2, "FLOPs", d0));
  put("ch2.backwardFlopsPerParam", v(2 * 2, "FLOPs", d0));

  // FLOPs per token of Llama 3.2 1B at s = 4,096 (modelFlopsPerToken), mantissas of 10^9.
  const f1b = modelFlopsPerToken(preset("llama-3.2-1b").config, 4096);
  put("ch2.matmulParams1b", v(f1b.matmulParameters, "parameters", d0));
  put("ch2.paramTermMantissa", v(f1b.parameterTerm / 1e9, "1e9 FLOPs", d2));
  put("ch2.flopsPerTokenMantissa", v(f1b.total / 1e9, "1e9 FLOPs", d2));
  put("ch2.attentionFlopsShare", v((100 * f1b.attentionTerm) / f1b.total, "%", d1));
  // One H100 whose kernels run at the book's Hopper kernel efficiency (step.ts's KERNEL_EFFICIENCY,
  // fitted to published runs) on the chapter's rounded F_token of 9.03e9, two significant digits.
  const eta = KERNEL_EFFICIENCY[gpuGeneration(h100.id)];
  put("ch2.etaPct", v(100 * eta, "%", d0));
  put("ch2.eta", v(eta, "", d2));
  const tokensPerSecond = (eta * h100.bf16FlopsPerSecond) / 9.03e9;
  put("ch2.tokensPerSecond", v(tokensPerSecond, "tokens/s", { significant: 2 }));
  // The step-time exercise: 9 trillion tokens (stated) at that rate, mantissa of 10^8 s.
  put("ch2.trainSecondsMantissa", v(9e12 / tokensPerSecond / 1e8, "1e8 s", d2));

  // Megatron-LM 1T (narayanan2021efficient: h, L, s and V recorded in src/data/facts.ts): model over
  // hardware FLOPs, and the 163 TFLOPS per A100 as HFU and as MFU.
  const oneT = {
    B: 1,
    L: fact("megatron.layers1T").value,
    s: fact("megatron.seqLength").value,
    h: fact("megatron.hidden1T").value,
    V: fact("megatron.vocab").value,
  };
  const modelOverHw = korthikantiModelFlops(oneT) / narayananFullRecomputeFlops(oneT);
  const hfu = (fact("megatron.tflopsPerGpu1T").value * 1e12) / a100.bf16FlopsPerSecond;
  put("ch2.oneTRatio", v(modelOverHw, "", d3));
  put("ch2.oneTHfu", v(100 * hfu, "%", d1));
  put("ch2.oneTMfu", v(100 * hfu * modelOverHw, "%", d1));

  // The Llama 2 7B exercise: model states with the fp32 gradient buffer in place of the bf16 gradients.
  put(
    "ch2.llama2StatesFp32GradGB",
    v(modelStateBytes(params("llama-2-7b"), { fp32GradAccum: true, fp32GradBuffer: "replace" }).total / GB, "GB", d1),
  );

  // The SwiGLU exercise: Llama 3.1 8B's (2h + 8f) / 19h and f / h.
  const l8 = arch("llama-3.1-8b");
  put("ch2.swigluRatio", v((2 * l8.hiddenSize + 8 * l8.intermediateSize) / (19 * l8.hiddenSize), "", d2));
  put("ch2.swigluWidthRatio", v(l8.intermediateSize / l8.hiddenSize, "", d1));

  // The attention-share exercise (h = 4,096, a = 32, s = 8,192): 5as/h and 5as/h + 34.
  const quad8k = (5 * 32 * 8192) / 4096;
  put("ch2.quadTerm8k", v(quad8k, "", d0));
  put("ch2.layerTerm8k", v(quad8k + linear, "", d0));

  // The first-step exercise: the running example's timeline (above) as its question prints it, in GB to one
  // decimal (weights with the master copy, moments, gradients, activations per sequence of b = 4), so the
  // givens move with the model; the answers are worked from the printed givens, as a reader would.
  const tenth = (bytes: number) => Math.round(bytes / GB / 0.1) * 0.1;
  const wGB = tenth(W);
  const mGB = tenth(M);
  const aGB = tenth(timeline.activations / 4);
  const hbmGB = h100.hbmBytes / GB;
  put("ch2.timelineWeightsGB", v(wGB, "GB", d1));
  put("ch2.timelineGradientsGB", v(tenth(timeline.gradients), "GB", d1));
  put("ch2.timelineActPerSequenceGB", v(aGB, "GB", d1));
  put("ch2.timelineResidentGB", v(wGB + mGB, "GB", d1));
  const bFirst = Math.floor((hbmGB - wGB) / aGB);
  const bSteady = Math.floor((hbmGB - wGB - mGB) / aGB);
  const bMargin = Math.floor((PLANNING_MEMORY_FRACTION * hbmGB - wGB - mGB) / aGB);
  put("ch2.firstStepMicroBatch", v(bFirst, "", d0));
  put("ch2.steadyMicroBatch", v(bSteady, "", d0));
  put("ch2.marginMicroBatch", v(bMargin, "", d0));
  put("ch2.firstStepPeakGB", v(wGB + aGB * bFirst, "GB", d1));
  put("ch2.secondStepActGB", v(aGB * bFirst, "GB", d1));
  put("ch2.secondStepPeakGB", v(wGB + mGB + aGB * bFirst, "GB", d1));
  put("ch2.steadyPeakGB", v(wGB + mGB + aGB * bSteady, "GB", d1));
  put("ch2.marginPeakGB", v(wGB + mGB + aGB * bMargin, "GB", d1));
}
