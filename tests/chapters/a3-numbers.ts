/**
 * Every number the overlap appendix (content/chapters/a3-overlap-math.md) prints, computed from the
 * step model, the kernel-efficiency constants and the measured bandwidths; its test asserts the
 * text contains each one in context.
 */
import {
  findGpu,
  findInterconnect,
  findModelPreset,
  KERNEL_EFFICIENCY,
  layerParameters,
  parseModelConfig,
  stepTime,
  type StepResult,
} from "../../src/model/index.ts";
import { formatInteger, formatNumber } from "../../src/figures/kit/format.ts";

const ms = (s: number) => `${formatNumber(s * 1000, { decimals: 1 })} ms`;
const r2 = (x: number) => formatNumber(x, { decimals: 2 });
const tokens = (x: number) => formatInteger(x).replace(/,/g, "{,}");

function transfer(r: StepResult, match: string) {
  const t = r.dpTransfers.find((x) => x.name.includes(match));
  if (!t) throw new Error(`no transfer "${match}"`);
  return t;
}

/** Placeholder name → printed text. */
export function a3Numbers(): Record<string, string> {
  const h100 = findGpu("h100-sxm")!;
  const a100 = findGpu("a100-sxm-80gb")!;
  const net = findInterconnect("h100-sxm")!;
  const anet = findInterconnect("a100-sxm-80gb")!;
  const F = KERNEL_EFFICIENCY.hopper * h100.bf16FlopsPerSecond;
  const FA = KERNEL_EFFICIENCY.ampere * a100.bf16FlopsPerSecond;
  const ring = net.nvlinkRingBusBytesPerSecond;
  const nvls = net.nvlinkNvlsAllReduceBusBytesPerSecond!;
  const nic = net.nicBusBytesPerSecond;
  const c70 = findModelPreset("llama-3.1-70b")!.config;
  const c8 = findModelPreset("llama-3.1-8b")!.config;
  const base = { gpu: "h100-sxm", seqLength: 4096, microBatchSize: 1 } as const;
  const dp70 = (zeroStage: 0 | 1 | 3, gradReduce: "fp32" | "bf16") =>
    stepTime({
      ...base,
      config: c70,
      gpuCount: 64,
      tp: 8,
      dp: 8,
      globalBatch: 64,
      zeroStage,
      gradReduce,
      includeMemory: false,
    });
  const ar32 = transfer(dp70(0, "fp32"), "all-reduce");
  const ar16 = transfer(dp70(0, "bf16"), "all-reduce");
  const z1a = dp70(1, "fp32");
  const z1b = dp70(1, "bf16");
  const rs32 = transfer(z1a, "reduce-scatter");
  const rs16 = transfer(z1b, "reduce-scatter");
  const ag = transfer(z1b, "first forward");
  const z3small = stepTime({
    ...base,
    config: c8,
    gpuCount: 64,
    dp: 64,
    globalBatch: 64,
    zeroStage: 3,
    gradReduce: "bf16",
    includeMemory: false,
  });
  const z3ag = transfer(z3small, "(forward)");
  const z370 = dp70(3, "bf16");
  const z370ag = transfer(z370, "(forward)");
  const tpsp = stepTime({
    ...base,
    config: c70,
    gpuCount: 64,
    tp: 8,
    pp: 4,
    dp: 2,
    globalBatch: 16,
    zeroStage: 1,
    includeMemory: false,
  }).stages[0];
  const tpno = stepTime({
    ...base,
    config: c70,
    gpuCount: 64,
    tp: 8,
    pp: 4,
    dp: 2,
    globalBatch: 16,
    zeroStage: 1,
    sequenceParallel: false,
    includeMemory: false,
  }).stages[0];
  const arch = parseModelConfig(c70).architecture;
  const pl = layerParameters(arch, 0).total - 2 * arch.hiddenSize;
  const rtpClosed = (4 * 8192 * 7 * F) / (pl * ring);
  const hstar = (b: number) => formatInteger((7 * F) / (3 * b));
  return {
    ETAH: `${Math.round(KERNEL_EFFICIENCY.hopper * 100)}%`,
    FRATE: formatNumber(F / 1e12, { decimals: 1 }),
    RING: `${ring / 1e9}`,
    NVLS: `${nvls / 1e9}`,
    NIC: `${nic / 1e9}`,
    EIGHT: `${Math.min(ring, 8 * nic) / 1e9}`,
    DPAR32: ms(ar32.secondsPerCall),
    DPWIN: ms(ar32.windowSeconds),
    RDP32: `$${r2(ar32.secondsPerCall / ar32.windowSeconds)}$`,
    DPAR16: ms(ar16.secondsPerCall),
    RDP16: `$${r2(ar16.secondsPerCall / ar16.windowSeconds)}$`,
    ZRS32: ms(rs32.secondsPerCall),
    RRS32: `$${r2(rs32.secondsPerCall / rs32.windowSeconds)}$`,
    ZRS16: ms(rs16.secondsPerCall),
    RRS16: `$${r2(rs16.secondsPerCall / rs16.windowSeconds)}$`,
    ZAG: ms(ag.secondsPerCall),
    ZAGWIN: ms(ag.windowSeconds),
    RAG: `$${r2(ag.secondsPerCall / ag.windowSeconds)}$`,
    ZAGEXP: ms(ag.exposedSeconds),
    TSTAR45: formatInteger(F / nic),
    TSTAR8: formatInteger(F / Math.min(ring, 8 * nic)),
    TSTARNV: formatInteger(F / ring),
    Z3AG: ms(z3ag.secondsPerCall),
    Z3WIN: ms(z3ag.windowSeconds),
    RZ3: `$${r2(z3ag.secondsPerCall / z3ag.windowSeconds)}$`,
    RZ370: `$${r2(z370ag.secondsPerCall / z370ag.windowSeconds)}$`,
    Z3EXP: `${formatNumber(z370.breakdown.dp, { decimals: 2 })} s`,
    HLINE: `$${hstar(450e9).replace(/,/g, "{,}")}$`,
    HRING: `$${hstar(ring).replace(/,/g, "{,}")}$`,
    HNVLS: `$${hstar(nvls).replace(/,/g, "{,}")}$`,
    // Forward collectives (half of the layer's TP traffic) against the forward pass (a third of its compute).
    RTPSP: `$${r2(tpsp.tp / 2 / (tpsp.compute / 3))}$`,
    RTPNOSP: `$${r2(tpno.tp / 2 / (tpno.compute / 3))}$`,
    RTPIB: `$${formatNumber((tpsp.tp / 2 / (tpsp.compute / 3)) * (ring / nic), { decimals: 1 })}$`,
    RPPSP: `$${formatNumber(tpsp.pp / (tpsp.compute / 3), { significant: 2 })}$`,
    RPPNOSP: `$${formatNumber(tpno.pp / (tpno.compute / 3), { significant: 2 })}$`,
    PEAKGROWTH: formatNumber(h100.bf16FlopsPerSecond / a100.bf16FlopsPerSecond, { decimals: 1 }),
    NVGROWTH: formatNumber(h100.nvlinkBytesPerSecond / a100.nvlinkBytesPerSecond, { decimals: 1 }),
    ETAA: `${Math.round(KERNEL_EFFICIENCY.ampere * 100)}%`,
    ANIC: `${anet.nicBusBytesPerSecond / 1e9}`,
    ETAAFRAC: `${KERNEL_EFFICIENCY.ampere}`,
    TSTARA: tokens(FA / anet.nicBusBytesPerSecond),
    FGROWTH: formatNumber(F / FA, { decimals: 2 }),
    BGROWTH: formatNumber(nic / anet.nicBusBytesPerSecond, { decimals: 1 }),
    TGROWTH: formatNumber(F / nic / (FA / anet.nicBusBytesPerSecond), { decimals: 2 }),
    PL: tokens(pl),
    FSCI: `${formatNumber(F / 1e12, { decimals: 2 })} \\times 10^{12}`,
    RTPCLOSED: r2(rtpClosed),
    KFACTOR: formatNumber(55 / 41, { decimals: 2 }),
    EXPSHARE: `${Math.round((1 - 41 / 55) * 100)}%`,
  };
}
