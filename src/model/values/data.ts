/**
 * src/data printed by name (issue #53): a datasheet figure or a model's configuration in the
 * prose is `{=gpu.<id>.<attribute>}`, `{=net.<gpu id>.<attribute>}` or `{=model.<id>.<attribute>}`,
 * never a typed number, so the prose says which attribute it prints and cannot drift from it.
 * Each prints in the unit its name implies (below), with the digits the datasheet gives; `:N`
 * after the name prints N decimals (`{=gpu.h100-sxm.bf16:0}` → "989"). Pure.
 *
 * - `gpu.<id>.`: `bf16`, `bf16Sparse`, `fp8`, `fp8Sparse`, `tf32`, `tf32Sparse`, `fp32` (TFLOPS, dense
 *   unless "Sparse": the datasheet's 2:4 headline), `hbm` (GB), `hbmBandwidth` (TB/s), `nvlink` and
 *   `pcie` (GB/s, both directions), `nvlinkPerDirection` and `pciePerDirection` (GB/s), `l2` (MB),
 *   `sharedMemory` (KiB per SM), `power` (W), `sms` (SMs); ids of src/data/gpus.ts.
 * - `net.<gpu id>.`: `nvlinkRingBus`, `nvlsBus`, `nicLine`, `nicBus` (GB/s), `nicLineGbps` (Gb/s),
 *   `gpusPerNode` (GPUs); src/data/interconnects.ts.
 * - `model.<id>.`: `params` (published total), `activeParams`, `layers`, `hidden`, `heads`, `kvHeads`,
 *   `headDim`, `ffn` (the MLP's width), `vocab`, and for a mixture of experts `experts` (routed, per MoE
 *   layer), `expertsPerToken`, `sharedExperts`, `expertFfn` (one routed expert's width); ids of src/data/models.ts.
 * - `format.<id>.`: `bits` and `bytes` (storage of one value), `exponentBits`, `mantissaBits`, `bias`;
 *   ids of src/data/number-formats.ts (`fp32`, `tf32`, `fp16`, `bf16`, `fp8-e4m3`, `fp8-e5m2`).
 */
import { GPUS } from "../../data/gpus.ts";
import { INTERCONNECTS } from "../../data/interconnects.ts";
import { MODEL_PRESETS } from "../../data/models.ts";
import { numberFormatIds, numberFormats } from "../../data/number-formats.ts";
import { parseModelConfig } from "../architecture.ts";
import { v, type PutValue } from "./put.ts";

const TERA = 1e12;
const GB = 1e9;

/** The fewest decimals (up to 4) that print `x` exactly. */
export function naturalDecimals(x: number): number {
  for (let d = 0; d < 4; d++) {
    const scaled = x * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) <= 1e-9 * Math.max(1, Math.abs(scaled))) return d;
  }
  return 4;
}

/** A datasheet value in `unit`, printed with the digits it has there, rounded to the nearest. */
const exact = (value: number, unit: string) =>
  v(value, unit, { decimals: naturalDecimals(value) }, { rounding: "nearest" });

export function dataValues(put: PutValue): void {
  for (const g of GPUS) {
    const p = (attr: string, value: number | null, unit: string) => {
      if (value !== null) put(`gpu.${g.id}.${attr}`, exact(value, unit));
    };
    p("bf16", g.bf16FlopsPerSecond / TERA, "TFLOPS");
    p("bf16Sparse", (2 * g.bf16FlopsPerSecond) / TERA, "TFLOPS");
    p("fp8", g.fp8FlopsPerSecond === null ? null : g.fp8FlopsPerSecond / TERA, "TFLOPS");
    p("fp8Sparse", g.fp8FlopsPerSecond === null ? null : (2 * g.fp8FlopsPerSecond) / TERA, "TFLOPS");
    p("tf32", g.tf32FlopsPerSecond / TERA, "TFLOPS");
    p("tf32Sparse", (2 * g.tf32FlopsPerSecond) / TERA, "TFLOPS");
    p("fp32", g.fp32FlopsPerSecond === null ? null : g.fp32FlopsPerSecond / TERA, "TFLOPS");
    p("hbm", g.hbmBytes / GB, "GB");
    p("hbmBandwidth", g.hbmBytesPerSecond / TERA, "TB/s");
    p("nvlink", g.nvlinkBytesPerSecond / GB, "GB/s");
    p("nvlinkPerDirection", g.nvlinkBytesPerSecond / 2 / GB, "GB/s");
    p("pcie", g.pcieBytesPerSecond / GB, "GB/s");
    p("pciePerDirection", g.pcieBytesPerSecond / 2 / GB, "GB/s");
    p("l2", g.l2Bytes === null ? null : g.l2Bytes / 1e6, "MB");
    p("sharedMemory", g.sharedMemoryPerSmBytes === null ? null : g.sharedMemoryPerSmBytes / 1024, "KiB");
    p("power", g.maxPowerWatts, "W");
    p("sms", g.smCount, "SMs");
  }
  for (const n of INTERCONNECTS) {
    const p = (attr: string, value: number | null, unit: string) => {
      if (value !== null) put(`net.${n.gpuId}.${attr}`, exact(value, unit));
    };
    p("nvlinkRingBus", n.nvlinkRingBusBytesPerSecond / GB, "GB/s");
    p(
      "nvlsBus",
      n.nvlinkNvlsAllReduceBusBytesPerSecond === null ? null : n.nvlinkNvlsAllReduceBusBytesPerSecond / GB,
      "GB/s",
    );
    p("nicLine", n.nicLineBytesPerSecond / GB, "GB/s");
    p("nicLineGbps", (8 * n.nicLineBytesPerSecond) / GB, "Gb/s");
    p("nicBus", n.nicBusBytesPerSecond / GB, "GB/s");
    p("gpusPerNode", n.gpusPerNode, "GPUs");
  }
  for (const m of MODEL_PRESETS) {
    const a = parseModelConfig(m.config).architecture;
    const p = (attr: string, value: number | undefined) => {
      if (value !== undefined) put(`model.${m.id}.${attr}`, v(value, "", { decimals: 0 }, { rounding: "exact" }));
    };
    p("params", m.publishedTotal);
    p("activeParams", m.publishedActive);
    p("layers", a.numLayers);
    p("hidden", a.hiddenSize);
    p("heads", a.numHeads);
    p("kvHeads", a.numKvHeads);
    p("headDim", a.headDim);
    p("ffn", a.intermediateSize);
    p("vocab", a.vocabSize);
    p("experts", a.moe?.routedExperts);
    p("expertsPerToken", a.moe?.expertsPerToken);
    p("sharedExperts", a.moe?.sharedExperts);
    p("expertFfn", a.moe?.expertIntermediateSize);
  }
  for (const id of numberFormatIds) {
    const fmt = numberFormats[id];
    const p = (attr: string, value: number) =>
      put(`format.${id}.${attr}`, v(value, "", { decimals: 0 }, { rounding: "exact" }));
    p("bits", fmt.storageBits);
    p("bytes", fmt.storageBits / 8);
    p("exponentBits", fmt.exponentBits);
    p("mantissaBits", fmt.mantissaBits);
    p("bias", fmt.bias);
  }
}
