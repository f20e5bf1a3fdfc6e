/**
 * Every number the overlap appendix (content/chapters/a3-overlap-math.md) prints, computed from the
 * engine (evaluateScenario with a framework profile, groupLink for bandwidths) and the kernel-efficiency
 * constants; its test asserts the text contains each one in context.
 */
import {
  clusterShape,
  evaluateScenario,
  findGpu,
  findModelPreset,
  groupLink,
  KERNEL_EFFICIENCY,
  layerParameters,
  parseModelConfig,
  stepTime,
  type ScenarioLayout,
  type StepResult,
} from "../../src/model/index.ts";
import type { FrameworkId } from "../../src/data/frameworks.ts";
import { formatInteger, formatNumber } from "../../src/figures/kit/format.ts";

const ms = (s: number) => `${formatNumber(s * 1000, { decimals: 1 })} ms`;
const r2 = (x: number) => formatNumber(x, { decimals: 2 });
const tokens = (x: number) => formatInteger(x).replace(/,/g, "{,}");

export function transfer(r: StepResult, prefix: string) {
  const t = r.dpTransfers.find((x) => x.name.startsWith(prefix));
  if (!t) throw new Error(`no transfer "${prefix}"`);
  return t;
}

/** One 4,096-token sequence per microbatch on H100s, as every example of the appendix. */
export function run(
  model: string,
  gpuCount: number,
  framework: FrameworkId,
  layout: ScenarioLayout,
  globalBatch: number,
  seqLength = 4096,
): StepResult {
  return evaluateScenario({
    model,
    cluster: { gpu: "h100-sxm", gpuCount },
    framework,
    layout,
    batch: { seqLength, microBatchSize: 1, globalBatch },
  }).step;
}

/** Placeholder name → printed text. */
export function a3Numbers(): Record<string, string> {
  const h100 = findGpu("h100-sxm")!;
  const a100 = findGpu("a100-sxm-80gb")!;
  const hc = clusterShape("h100-sxm");
  const ac = clusterShape("a100-sxm-80gb");
  const F = KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond;
  const FA = KERNEL_EFFICIENCY.ampere * a100.bf16FlopsPerSecond;
  const ring = groupLink(hc, "all-gather", { ranks: 8, stride: 1 }).busBytesPerSecond;
  const nvls = groupLink(hc, "all-reduce", { ranks: 8, stride: 1 }).busBytesPerSecond;
  const nic = groupLink(hc, "all-gather", { ranks: 8, stride: 8 }).busBytesPerSecond;
  const eight = groupLink(hc, "all-gather", { ranks: 64, stride: 1 }).busBytesPerSecond;
  const anic = groupLink(ac, "all-gather", { ranks: 8, stride: 8 }).busBytesPerSecond;
  const dp70 = (zeroStage: 0 | 1, gradReduce: "fp32" | "bf16", overlapGradReduce = true) =>
    run("llama-3.1-70b", 64, "megatron", { tp: 8, dp: 8, zeroStage, gradReduce, overlapGradReduce }, 64);
  const ratio = (t: { secondsPerCall: number; windowSeconds: number }) => t.secondsPerCall / t.windowSeconds;
  const ar32 = transfer(dp70(0, "fp32"), "gradient all-reduce");
  const ar16 = transfer(dp70(0, "bf16"), "gradient all-reduce");
  const arDefault = transfer(dp70(0, "fp32", false), "gradient all-reduce");
  const z1a = dp70(1, "fp32");
  const z1b = dp70(1, "bf16");
  const rs32 = transfer(z1a, "gradient reduce-scatter");
  const rs16 = transfer(z1b, "gradient reduce-scatter");
  const ag = transfer(z1b, "parameter all-gather (next step");
  const z3small = run("llama-3.1-8b", 64, "fsdp2", { dp: 64, zeroStage: 3 }, 64);
  const z3f = transfer(z3small, "parameter all-gather (forward");
  const z3b = transfer(z3small, "parameter all-gather (backward");
  const z370 = run("llama-3.1-70b", 64, "fsdp2", { tp: 8, dp: 8, zeroStage: 3 }, 64);
  const tpLayout = (extra: ScenarioLayout) =>
    run("llama-3.1-70b", 64, "megatron", { tp: 8, pp: 4, dp: 2, zeroStage: 1, ...extra }, 16);
  const withSp = tpLayout({});
  const tpsp = withSp.stages[0];
  const tpno = tpLayout({ sequenceParallel: false }).stages[0];
  const across = stepTime({
    config: findModelPreset("llama-3.1-70b")!.config,
    gpu: h100,
    gpuCount: 64,
    tp: 8,
    pp: 4,
    dp: 2,
    zeroStage: 1,
    seqLength: 4096,
    microBatchSize: 1,
    globalBatch: 16,
    framework: "megatron",
    cluster: { gpusPerServer: 1, nvlinkDomain: 1, nicsPerServer: 1 },
    includeMemory: false,
  }).stages[0];
  const rTp = (st: typeof tpsp) => st.tp / 2 / (st.compute / 3);
  const arch = parseModelConfig(findModelPreset("llama-3.1-70b")!.config).architecture;
  const pl = layerParameters(arch, 0).total - 2 * arch.hiddenSize;
  const rtpClosed = (4 * 8192 * 7 * F) / (pl * ring);
  const hstar = (b: number) => formatInteger((7 * F) / (3 * b));
  return {
    ETAH: `${Math.round(KERNEL_EFFICIENCY.hopper * 100)}%`,
    FRATE: formatNumber(F / 1e12, { decimals: 1 }),
    RING: `${ring / 1e9}`,
    NVLS: `${nvls / 1e9}`,
    NIC: `${nic / 1e9}`,
    EIGHT: `${eight / 1e9}`,
    DPAR32: ms(ar32.secondsPerCall),
    DPWIN: ms(ar32.windowSeconds),
    RDP32: `$${r2(ratio(ar32))}$`,
    DPAR16: ms(ar16.secondsPerCall),
    RDP16: `$${r2(ratio(ar16))}$`,
    DPDEFAULT: ms(arDefault.exposedSeconds),
    ZRS32: ms(rs32.secondsPerCall),
    RRS32: `$${r2(ratio(rs32))}$`,
    ZRS16: ms(rs16.secondsPerCall),
    RRS16: `$${r2(ratio(rs16))}$`,
    ZRS16EXP: ms(rs16.exposedSeconds),
    ZAG: ms(ag.secondsPerCall),
    ZAGWIN: ms(ag.windowSeconds),
    RAG: `$${r2(ratio(ag))}$`,
    ZAGEXP: ms(ag.exposedSeconds),
    TSTAR45: formatInteger(F / nic),
    TSTAR8: formatInteger(F / eight),
    TSTARNV: formatInteger(F / ring),
    TSTAR45B: formatInteger((1.5 * F) / nic),
    TSTAR8B: formatInteger((1.5 * F) / eight),
    TSTARNVB: formatInteger((1.5 * F) / ring),
    Z3AG: ms(z3f.secondsPerCall),
    Z3WIN: ms(z3f.windowSeconds),
    RZ3: `$${r2(ratio(z3f))}$`,
    Z3BWD: ms(z3b.secondsPerCall),
    Z3BWDWIN: ms(z3b.windowSeconds),
    RZ3B: `$${r2(ratio(z3b))}$`,
    Z3LAT: `${formatNumber((z3f.ranks - 1) * hc.interNodeHopLatencySeconds * 1000, { decimals: 2 })} ms`,
    RZ370: `$${r2(ratio(transfer(z370, "parameter all-gather (forward")))}$`,
    RZ370B: `$${r2(ratio(transfer(z370, "parameter all-gather (backward")))}$`,
    Z3EXP: `${formatNumber(z370.breakdown.dp, { decimals: 2 })} s`,
    HLINE: `$${hstar(h100.nvlinkBytesPerSecond / 2).replace(/,/g, "{,}")}$`,
    HRING: `$${hstar(ring).replace(/,/g, "{,}")}$`,
    HNVLS: `$${hstar(nvls).replace(/,/g, "{,}")}$`,
    // Forward collectives (half of the layer's TP time) against the forward pass (a third of its compute).
    RTPSP: `$${r2(rTp(tpsp))}$`,
    RTPNOSP: `$${r2(rTp(tpno))}$`,
    TPSTEP: `${formatNumber(withSp.breakdown.tp, { decimals: 2 })} s`,
    // Under TP overlap: one all-gather + reduce-scatter pair (the stage's TP time over 4 calls per layer)
    // against the attention block's GEMMs on t GPUs; it stops hiding at η / R.
    RTPATTN: `$${r2(tpsp.tp / (4 * tpsp.layers) / ((4096 * 2 * layerParameters(arch, 0).attention) / 8 / F))}$`,
    ETABREAK: `${Math.round((100 * KERNEL_EFFICIENCY.hopper * ((4096 * 2 * layerParameters(arch, 0).attention) / 8 / F)) / (tpsp.tp / (4 * tpsp.layers)))}%`,
    TPOVERLAP: `${formatNumber(tpLayout({ tpCommOverlap: true }).breakdown.tp, { decimals: 2 })} s`,
    RTPIB: `$${formatNumber(rTp(across), { decimals: 1 })}$`,
    RPPSP: `$${formatNumber(tpsp.pp / (tpsp.compute / 3), { significant: 2 })}$`,
    RPPNOSP: `$${formatNumber(tpno.pp / (tpno.compute / 3), { significant: 2 })}$`,
    PEAKGROWTH: formatNumber(h100.bf16FlopsPerSecond / a100.bf16FlopsPerSecond, { decimals: 1 }),
    NVGROWTH: formatNumber(h100.nvlinkBytesPerSecond / a100.nvlinkBytesPerSecond, { decimals: 1 }),
    ETAA: `${Math.round(KERNEL_EFFICIENCY.ampere * 100)}%`,
    ANIC: `${anic / 1e9}`,
    FATFLOPS: formatNumber(FA / 1e12, { decimals: 1 }),
    TSTARA: formatInteger(FA / anic),
    FGROWTH: formatNumber(F / FA, { decimals: 2 }),
    BGROWTH: formatNumber(nic / anic, { decimals: 1 }),
    TGROWTH: formatNumber(F / nic / (FA / anic), { decimals: 2 }),
    PL: tokens(pl),
    FSCI: `${formatNumber(F / 1e12, { decimals: 2 })} \\times 10^{12}`,
    RTPCLOSED: r2(rtpClosed),
    // The faster-kernels exercise: from the Hopper constant to 65%.
    ETAHINT: `${Math.round(KERNEL_EFFICIENCY.hopper * 100)}`,
    KFACTOR: formatNumber(0.65 / KERNEL_EFFICIENCY.hopper, { decimals: 2 }),
    EXPSHARE: `${Math.round((1 - KERNEL_EFFICIENCY.hopper / 0.65) * 100)}%`,
  };
}
