/**
 * Computed values of the chapter "preface" for its prose: `{=pre.name}` prints one (see
 * ../exercise-values.ts for the conventions: the value in its unit, how it prints, and a comment
 * that says which model function or stated input it comes from). Pure.
 */
import { bytesPerParameter } from "../memory.ts";
import { clusterShape, groupLink } from "../placement.ts";
import { PLANNING_MEMORY_FRACTION } from "../scenario.ts";
import { d0, d1, d2, gpu, v, type PutValue } from "./put.ts";
import { fact } from "./facts.ts";

const GB = 1e9;
const GiB = 2 ** 30;
const MiB = 2 ** 20;
const TB = 1e12;
const TiB = 2 ** 40;
const total = (b: { parameters: number; gradients: number; optimizer: number }) =>
  b.parameters + b.gradients + b.optimizer;

export function prefaceValues(put: PutValue): void {
  const h100 = gpu("h100-sxm");
  // How much larger the binary units are than the decimal ones.
  put("pre.gibOverGbPercent", v(100 * (GiB / GB - 1), "%", d2));
  put("pre.tibOverTbPercent", v(100 * (TiB / TB - 1), "%", d2));
  // The warning: reading "80 GB" as 80 GiB overstates a device of exactly 80e9 bytes by this much.
  put("pre.gibOverBudget", v(80 - (80 * GB) / GiB, "GiB", d1));
  // What nvidia-smi reports for an "80 GB" H100 (nvidia2024nccl1264, a recorded fact cited in the warning).
  const smi = fact("nvidiaSmi.h100MiB").value * MiB;
  put("pre.h100SmiGiB", v(smi / GiB, "GiB", d1));
  put("pre.h100SmiGB", v(smi / GB, "GB", d1));
  // The book's one memory budget (scenario.ts): the advertised capacity (gpus.ts) times the planning
  // fraction, and what a real H100 has beyond it.
  put("pre.planPercent", v(100 * PLANNING_MEMORY_FRACTION, "%", d0));
  put("pre.planGB", v((h100.hbmBytes * PLANNING_MEMORY_FRACTION) / GB, "GB", d0));
  put("pre.h100HeadroomGB", v((smi - h100.hbmBytes * PLANNING_MEMORY_FRACTION) / GB, "GB", d1));
  // Bandwidth units (the datasheet's NVLink figures print by name, gpu.h100-sxm.nvlink and
  // nvlinkPerDirection): what an 8-GPU ring reaches (placement.ts, the NVLink ring of the H100 server).
  const cluster = clusterShape(h100.id);
  put(
    "pre.nvlinkRingGBs",
    v(groupLink(cluster, "all-gather", { ranks: cluster.gpusPerServer, stride: 1 }).busBytesPerSecond / GB, "GB/s", d0),
  );
  // Model-state bytes per parameter (memory.ts): bf16 mixed precision with Adam; with an fp32 gradient
  // buffer that replaces the bf16 gradients (Megatron-LM's bf16 path); and one kept alongside them.
  put("pre.bytesPerParam", v(total(bytesPerParameter("bf16")), "bytes", d0));
  put("pre.bytesPerParamFp32Grad", v(total(bytesPerParameter("bf16", true, "replace")), "bytes", d0));
  put("pre.bytesPerParamFp32GradBuffer", v(total(bytesPerParameter("bf16", true, "alongside")), "bytes", d0));
}
