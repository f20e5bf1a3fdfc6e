/**
 * GPU specifications, one record per product, from the vendor datasheets. Imports nothing.
 *
 * Conventions: every FLOP rate is **dense** (no 2:4 structured sparsity; the datasheets' headline
 * tensor figures are sparse and exactly twice these). Bytes are decimal (GB = 1e9 B) as the
 * datasheets print them; `hbmBytes` is the advertised capacity, not what `nvidia-smi` reports.
 * NVLink bandwidth is the bidirectional total per GPU as NVIDIA quotes it (e.g. 900 GB/s for H100
 * SXM = 18 links × 50 GB/s, i.e. 450 GB/s per direction). `null` means "not published in a
 * source we could verify".
 */

/** One GPU product's datasheet figures. */
export interface GpuSpec {
  /** Kebab-case id, e.g. `h100-sxm`. */
  id: string;
  /** Product name as NVIDIA prints it. */
  name: string;
  /** Dense BF16/FP16 tensor-core peak, FLOP/s. */
  bf16FlopsPerSecond: number;
  /** Dense FP8 tensor-core peak, FLOP/s; `null` where the GPU has no FP8 tensor cores. */
  fp8FlopsPerSecond: number | null;
  /** Dense TF32 tensor-core peak, FLOP/s. */
  tf32FlopsPerSecond: number;
  /** FP32 (non-tensor) peak, FLOP/s. */
  fp32FlopsPerSecond: number | null;
  /** HBM capacity in bytes (decimal, as advertised). */
  hbmBytes: number;
  /** HBM bandwidth, bytes per second. */
  hbmBytesPerSecond: number;
  /** NVLink bandwidth per GPU, bidirectional total, bytes per second. */
  nvlinkBytesPerSecond: number;
  /** PCIe generation of the host link. */
  pcieGeneration: number;
  /** PCIe bandwidth, bidirectional total, bytes per second. */
  pcieBytesPerSecond: number;
  /** Streaming multiprocessors. */
  smCount: number | null;
  /** L2 cache in bytes (decimal MB as NVIDIA prints it). */
  l2Bytes: number | null;
  /** Maximum shared memory per SM in bytes (KB = 1024 B, as in the CUDA programming guide). */
  sharedMemoryPerSmBytes: number | null;
  /** Maximum board power in watts. */
  maxPowerWatts: number | null;
  /** Where the figures come from. */
  source: string;
}

const TERA = 1e12;
const GB = 1e9;
const KIB = 1024;

/** Every GPU the book uses. */
export const GPUS: readonly GpuSpec[] = [
  {
    id: "h100-sxm",
    name: "NVIDIA H100 SXM5 80GB",
    bf16FlopsPerSecond: 989.4 * TERA,
    fp8FlopsPerSecond: 1978.9 * TERA,
    tf32FlopsPerSecond: 494.7 * TERA,
    fp32FlopsPerSecond: 67 * TERA,
    hbmBytes: 80 * GB,
    hbmBytesPerSecond: 3350 * GB,
    nvlinkBytesPerSecond: 900 * GB,
    pcieGeneration: 5,
    pcieBytesPerSecond: 128 * GB,
    smCount: 132,
    l2Bytes: 50e6,
    sharedMemoryPerSmBytes: 228 * KIB,
    maxPowerWatts: 700,
    source:
      "NVIDIA H100 Tensor Core GPU datasheet (dense = half the sparse headline); NVIDIA H100 architecture whitepaper for SMs, L2, shared memory (facts.md F.1)",
  },
  {
    id: "h100-pcie",
    name: "NVIDIA H100 PCIe 80GB",
    bf16FlopsPerSecond: 756 * TERA,
    fp8FlopsPerSecond: 1513 * TERA,
    tf32FlopsPerSecond: 378 * TERA,
    fp32FlopsPerSecond: 51 * TERA,
    hbmBytes: 80 * GB,
    hbmBytesPerSecond: 2000 * GB,
    nvlinkBytesPerSecond: 600 * GB,
    pcieGeneration: 5,
    pcieBytesPerSecond: 128 * GB,
    smCount: 114,
    l2Bytes: 50e6,
    sharedMemoryPerSmBytes: 228 * KIB,
    maxPowerWatts: 350,
    source: "NVIDIA H100 Tensor Core GPU datasheet, PCIe column (NVLink via bridge); facts.md F.1",
  },
  {
    id: "h200-sxm",
    name: "NVIDIA H200 SXM 141GB",
    bf16FlopsPerSecond: 989.4 * TERA,
    fp8FlopsPerSecond: 1978.9 * TERA,
    tf32FlopsPerSecond: 494.7 * TERA,
    fp32FlopsPerSecond: 67 * TERA,
    hbmBytes: 141 * GB,
    hbmBytesPerSecond: 4800 * GB,
    nvlinkBytesPerSecond: 900 * GB,
    pcieGeneration: 5,
    pcieBytesPerSecond: 128 * GB,
    smCount: 132,
    l2Bytes: 50e6,
    sharedMemoryPerSmBytes: 228 * KIB,
    maxPowerWatts: 700,
    source: "NVIDIA H200 Tensor Core GPU datasheet (141 GB HBM3e, 4.8 TB/s; compute as H100 SXM, same GH100 die)",
  },
  {
    id: "a100-sxm-80gb",
    name: "NVIDIA A100 SXM4 80GB",
    bf16FlopsPerSecond: 312 * TERA,
    fp8FlopsPerSecond: null,
    tf32FlopsPerSecond: 156 * TERA,
    fp32FlopsPerSecond: 19.5 * TERA,
    hbmBytes: 80 * GB,
    hbmBytesPerSecond: 2039 * GB,
    nvlinkBytesPerSecond: 600 * GB,
    pcieGeneration: 4,
    pcieBytesPerSecond: 64 * GB,
    smCount: 108,
    l2Bytes: 40e6,
    sharedMemoryPerSmBytes: 164 * KIB,
    maxPowerWatts: 400,
    source:
      "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 architecture whitepaper (SMs, L2, shared memory); facts.md F.1",
  },
  {
    id: "a100-sxm-40gb",
    name: "NVIDIA A100 SXM4 40GB",
    bf16FlopsPerSecond: 312 * TERA,
    fp8FlopsPerSecond: null,
    tf32FlopsPerSecond: 156 * TERA,
    fp32FlopsPerSecond: 19.5 * TERA,
    hbmBytes: 40 * GB,
    hbmBytesPerSecond: 1555 * GB,
    nvlinkBytesPerSecond: 600 * GB,
    pcieGeneration: 4,
    pcieBytesPerSecond: 64 * GB,
    smCount: 108,
    l2Bytes: 40e6,
    sharedMemoryPerSmBytes: 164 * KIB,
    maxPowerWatts: 400,
    source: "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 architecture whitepaper; facts.md F.1",
  },
  {
    id: "b200",
    name: "NVIDIA B200 (HGX B200)",
    bf16FlopsPerSecond: 2250 * TERA,
    fp8FlopsPerSecond: 4500 * TERA,
    tf32FlopsPerSecond: 1100 * TERA,
    fp32FlopsPerSecond: 75 * TERA,
    hbmBytes: 180 * GB,
    hbmBytesPerSecond: 7700 * GB,
    nvlinkBytesPerSecond: 1800 * GB,
    pcieGeneration: 5,
    pcieBytesPerSecond: 128 * GB,
    smCount: null,
    l2Bytes: null,
    sharedMemoryPerSmBytes: null,
    maxPowerWatts: 1000,
    source:
      "NVIDIA HGX B200 datasheet, per-GPU column as reproduced by third-party copies (V2): FP16/BF16 4.5, FP8 9, TF32 2.2 PFLOPS with sparsity, halved here to dense; FP32 75 TFLOPS; 180 GB HBM3e at 7.7 TB/s (earlier revisions printed 8 TB/s); NVLink 5 1.8 TB/s; PCIe Gen5 128 GB/s; up to 1,000 W. SM count, L2 and shared memory not in the datasheet: null",
  },
];

/** Looks up a GPU by id; `undefined` when there is none. */
export function findGpu(id: string): GpuSpec | undefined {
  return GPUS.find((g) => g.id === id.toLowerCase());
}
