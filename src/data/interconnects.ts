/**
 * Measured collective bandwidths per GPU system, as nccl-tests reports them (bus bandwidth,
 * busBw), and the per-call latency the step model charges. Imports nothing.
 *
 * Why measured and not line rate: NCCL moves data over NVLink with protocol overhead, so a ring
 * on an H100 server reaches about 370 GB/s of its 450 GB/s per direction, while all-reduce with
 * NVLink SHARP (NVLS, on by default on HGX H100) reaches a bus bandwidth of about 480 GB/s, above
 * the line rate, because the switch performs the reduction (NVIDIA's NCCL maintainer in
 * nvidia2024nccltests212). A model that uses 450 GB/s is wrong in both directions.
 *
 * Across nodes a group's ring leaves each server through the NICs. With one NIC per GPU and NCCL
 * running one ring channel per NIC, a group with $k$ members per node crosses each node boundary
 * on $k$ NICs at once, so its bus bandwidth is about $\min(\text{NVLink ring}, k \cdot B_\text{NIC})$
 * (this is our derivation from the ring algorithm, not a published measurement). Where no
 * measured per-NIC bus bandwidth is published for a fabric, `nicBusBytesPerSecond` is 90% of the
 * line rate, an assumption stated in `nicSource`.
 *
 * Latency: every collective call pays `hopLatencySeconds` per ring step ($n-1$ steps for
 * all-gather and reduce-scatter, $2(n-1)$ for all-reduce, 1 for a send) inside a node, and
 * `interNodeHopLatencySeconds` per step when the group spans nodes. Both are assumptions of the
 * order NCCL's own tuning model uses (a few microseconds per step); they matter only for small
 * messages. NCCL's model (2.30, src/graph/tuning.cc L384-412) differs in one respect: it charges the
 * network latency only on the ring steps that cross nodes (2(nNodes - 1) for all-reduce) and a
 * smaller per-step cost on the rest, so for groups that fill their nodes the inter-node figure
 * here, charged on every step, is high.
 */

/** Collective bandwidths of one GPU system (a server type and its network). */
export interface InterconnectSpec {
  /** GPU id from gpus.ts. */
  gpuId: string;
  /** Name of the system, e.g. "HGX H100 8-GPU, NDR InfiniBand 400 Gb/s per GPU". */
  system: string;
  /** GPUs in one server (and, unless `nvlinkDomain` says otherwise, in one NVLink domain). */
  gpusPerNode: number;
  /** GPUs that share one NVLink domain when it spans several servers (72 on a GB200 NVL72 rack); default `gpusPerNode`. */
  nvlinkDomain?: number;
  /** NICs per server on the scale-out network; default one per GPU (`gpusPerNode`). */
  nicsPerServer?: number;
  /** Ring bus bandwidth inside the node (all-gather, reduce-scatter, ring all-reduce), bytes/s. */
  nvlinkRingBusBytesPerSecond: number;
  /** All-reduce bus bandwidth inside the node with NVLink SHARP; `null` where the switch has none. */
  nvlinkNvlsAllReduceBusBytesPerSecond: number | null;
  /** NIC line rate per GPU, bytes/s per direction. */
  nicLineBytesPerSecond: number;
  /** Bus bandwidth one NIC sustains in a ring that crosses nodes, bytes/s. */
  nicBusBytesPerSecond: number;
  /** Latency per ring step inside a node, seconds. */
  hopLatencySeconds: number;
  /** Latency per ring step across nodes, seconds. */
  interNodeHopLatencySeconds: number;
  /** Where the NVLink figures come from (bibliography keys and what they say). */
  nvlinkSource: string;
  /** Where the NIC figure comes from, or the assumption made. */
  nicSource: string;
}

const GB = 1e9;

/** One record per GPU type the step model supports. */
export const INTERCONNECTS: readonly InterconnectSpec[] = [
  {
    gpuId: "h100-sxm",
    system: "HGX H100 8-GPU (NVLink 4 through NVSwitch), one 400 Gb/s InfiniBand NDR or RoCE NIC per GPU",
    gpusPerNode: 8,
    nvlinkRingBusBytesPerSecond: 370 * GB,
    nvlinkNvlsAllReduceBusBytesPerSecond: 480 * GB,
    nicLineBytesPerSecond: 50 * GB,
    nicBusBytesPerSecond: 45 * GB,
    hopLatencySeconds: 3e-6,
    interNodeHopLatencySeconds: 8e-6,
    nvlinkSource:
      "nvidia2024nccltests212 (NVIDIA/nccl-tests issue 212, NCCL maintainer): 450 GB/s is the line rate; with protocol overhead NCCL reaches about 370 GB/s busBw for non-all-reduce collectives or NCCL_ALGO=RING; all-reduce uses NVLink SHARP by default and peaks near 480 GB/s busBw on 8 GPUs (algbw about 275 GB/s) at large sizes",
    nicSource:
      "Assumption: 90% of the 50 GB/s line rate of a 400 Gb/s NIC, a little below the 46-48 GB/s per NIC an NCCL maintainer expects for NDR (nccltests2025issue290)",
  },
  {
    gpuId: "h100-pcie",
    system: "8 H100 PCIe cards per server on PCIe Gen5 (NVLink bridges join pairs only), one 400 Gb/s NIC per GPU",
    gpusPerNode: 8,
    nvlinkRingBusBytesPerSecond: 51 * GB,
    nvlinkNvlsAllReduceBusBytesPerSecond: null,
    nicLineBytesPerSecond: 50 * GB,
    nicBusBytesPerSecond: 45 * GB,
    hopLatencySeconds: 3e-6,
    interNodeHopLatencySeconds: 8e-6,
    nvlinkSource:
      "Assumption: a ring over eight cards runs at PCIe Gen5 x16 speed (64 GB/s per direction, gpus.ts) at 80% efficiency; the NVLink bridge links only pairs, so it cannot carry an 8-GPU ring",
    nicSource: "Assumption: 90% of the 50 GB/s line rate of a 400 Gb/s NIC",
  },
  {
    gpuId: "h200-sxm",
    system: "HGX H200 8-GPU (NVLink 4 through NVSwitch), one 400 Gb/s NIC per GPU",
    gpusPerNode: 8,
    nvlinkRingBusBytesPerSecond: 370 * GB,
    nvlinkNvlsAllReduceBusBytesPerSecond: 480 * GB,
    nicLineBytesPerSecond: 50 * GB,
    nicBusBytesPerSecond: 45 * GB,
    hopLatencySeconds: 3e-6,
    interNodeHopLatencySeconds: 8e-6,
    nvlinkSource: "Same NVLink 4 and NVSwitch as HGX H100; figures of nvidia2024nccltests212",
    nicSource: "Assumption: 90% of the 50 GB/s line rate of a 400 Gb/s NIC",
  },
  {
    gpuId: "a100-sxm-80gb",
    system: "DGX A100 (NVLink 3 through NVSwitch), one 200 Gb/s InfiniBand HDR NIC per GPU",
    gpusPerNode: 8,
    nvlinkRingBusBytesPerSecond: 230 * GB,
    nvlinkNvlsAllReduceBusBytesPerSecond: null,
    nicLineBytesPerSecond: 25 * GB,
    nicBusBytesPerSecond: 22.5 * GB,
    hopLatencySeconds: 3e-6,
    interNodeHopLatencySeconds: 8e-6,
    nvlinkSource:
      "Assumption: about 77% of the 300 GB/s per-direction line rate, a little below the 82% protocol efficiency NCCL reaches on H100 (370 of 450 GB/s in nvidia2024nccltests212); no NVLink SHARP on A100",
    nicSource:
      "Assumption: 90% of the 25 GB/s line rate of a 200 Gb/s HDR NIC (eight per DGX A100: narayanan2021efficient §5)",
  },
  {
    gpuId: "a100-sxm-40gb",
    system: "DGX A100 40GB (NVLink 3 through NVSwitch), one 200 Gb/s InfiniBand HDR NIC per GPU",
    gpusPerNode: 8,
    nvlinkRingBusBytesPerSecond: 230 * GB,
    nvlinkNvlsAllReduceBusBytesPerSecond: null,
    nicLineBytesPerSecond: 25 * GB,
    nicBusBytesPerSecond: 22.5 * GB,
    hopLatencySeconds: 3e-6,
    interNodeHopLatencySeconds: 8e-6,
    nvlinkSource: "As a100-sxm-80gb",
    nicSource: "As a100-sxm-80gb",
  },
  {
    gpuId: "b200",
    system: "HGX B200 8-GPU (NVLink 5 through NVSwitch), one 400 Gb/s NIC per GPU",
    gpusPerNode: 8,
    nvlinkRingBusBytesPerSecond: 740 * GB,
    nvlinkNvlsAllReduceBusBytesPerSecond: null,
    nicLineBytesPerSecond: 50 * GB,
    nicBusBytesPerSecond: 45 * GB,
    hopLatencySeconds: 3e-6,
    interNodeHopLatencySeconds: 8e-6,
    nvlinkSource:
      "Assumption: about 82% of the 900 GB/s per-direction NVLink 5 line rate (H100's ring efficiency); no measured figure in a primary source we could verify, NVLS left out",
    nicSource: "Assumption: 90% of the 50 GB/s line rate of a 400 Gb/s NIC",
  },
];

/** The interconnect record for a GPU id; `undefined` when there is none. */
export function findInterconnect(gpuId: string): InterconnectSpec | undefined {
  return INTERCONNECTS.find((i) => i.gpuId === gpuId.toLowerCase());
}
