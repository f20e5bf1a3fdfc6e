/**
 * Where a group's ranks sit decides its bandwidth. One function prices every collective of every
 * tool in the book: the step model, the chapters' value modules, the widgets and the CLI ask it
 * for a group's bus bandwidth and never type one in.
 *
 * ## The cluster
 *
 * A cluster is servers of `gpusPerServer` GPUs joined by NVLink inside an NVLink domain of
 * `nvlinkDomain` GPUs (8 on an HGX server; 72 on a GB200 NVL72 rack, whose domain spans
 * several trays), and a network that each server reaches through `nicsPerServer` NICs, each
 * sustaining `nicBusBytesPerSecond` of bus bandwidth in a ring that crosses servers. The defaults
 * come from the GPU system's record in src/data/interconnects.ts; a caller may override the shape.
 *
 * ## A group's bandwidth
 *
 * Ranks are numbered in the job's order (tensor parallel innermost), and a group's members are
 * `stride` ranks apart: a tensor-parallel group has stride 1, a data-parallel group under
 * Megatron-LM's order has stride tp × cp. So a group of $n$ ranks with stride $s$ spans $n s$
 * consecutive ranks, and one NVLink domain holds $k = \min(n, \lfloor D/s \rfloor)$ of them (at
 * least 1).
 * - If the whole group fits in one domain ($n s \le D$) it runs over NVLink: the ring bus bandwidth,
 *   or, for an all-reduce where the switch has NVLink SHARP and it is enabled, the NVLS figure.
 * - An all-to-all is no ring: each member sends the share of its buffer meant for other domains
 *   through its own NIC, so its bus bandwidth is $B_\text{NIC}\,(n-1)/(n-k)$ (one NIC per GPU),
 *   capped by the NVLink ring.
 * - Otherwise the ring leaves each domain through the NICs of its $k$ members there: NCCL runs one
 *   ring channel per NIC, so the $k$ members of a domain cross the boundary on
 *   $\min(k \cdot \text{NICs per GPU}, \text{NICs per domain})$ NICs at once, and the bus bandwidth
 *   is $\min(\text{NVLink ring}, \text{NICs} \cdot B_\text{NIC})$. One rank per server gets one
 *   NIC's worth; all eight GPUs of each HGX server get eight NICs' worth, capped by NVLink.
 *   This is our derivation from the ring algorithm (interconnects.ts says so); NCCL's maintainers
 *   report all-reduce bus bandwidths of that order on 8-NIC servers (NVIDIA/nccl issue 812).
 *
 * ## Time
 *
 * $t = \alpha + f S / B$ with the bus-bandwidth factor $f$ of nccl-tests (communication.ts), and
 * $\alpha$ = ring steps × the per-step latency ($n-1$ steps for all-gather, reduce-scatter and
 * all-to-all, $2(n-1)$ for all-reduce, one for a send), the inter-domain figure when the group
 * leaves its domain.
 */
import { ModelInputError, requireBoolean, requirePositiveInteger, requirePositiveNumber } from "./errors.ts";
import { busBandwidthFactor, type Collective } from "./communication.ts";
import { findInterconnect, type InterconnectSpec } from "../data/interconnects.ts";

/** The shape and links of a cluster of one GPU type. */
export interface ClusterShape {
  /** GPU id from gpus.ts. */
  gpuId: string;
  /** GPUs in one server (one chassis with its own NICs). */
  gpusPerServer: number;
  /** GPUs that share one NVLink domain: 8 on HGX, 72 on a GB200 NVL72 rack. */
  nvlinkDomain: number;
  /** NICs per server, each on the scale-out network. */
  nicsPerServer: number;
  /** Bus bandwidth one NIC sustains in a ring that crosses servers, bytes/s. */
  nicBusBytesPerSecond: number;
  /** Ring bus bandwidth inside an NVLink domain, bytes/s. */
  nvlinkRingBusBytesPerSecond: number;
  /** All-reduce bus bandwidth with NVLink SHARP inside a domain; null where the switch has none. */
  nvlinkNvlsAllReduceBusBytesPerSecond: number | null;
  /** Latency per ring step inside a domain, seconds. */
  hopLatencySeconds: number;
  /** Latency per ring step across domains, seconds. */
  interNodeHopLatencySeconds: number;
}

/** Overrides a caller may give for {@link clusterShape}. */
export type ClusterOverrides = Partial<Omit<ClusterShape, "gpuId">>;

/** The cluster of a GPU system record, with overrides. Throws for an unknown GPU or a shape that does not add up. */
export function clusterShape(gpu: string | InterconnectSpec, overrides: ClusterOverrides = {}): ClusterShape {
  const net = typeof gpu === "string" ? findInterconnect(gpu) : gpu;
  if (!net) throw new ModelInputError("gpu", `no measured bandwidths for GPU "${String(gpu)}"`);
  const shape: ClusterShape = {
    gpuId: net.gpuId,
    gpusPerServer: net.gpusPerNode,
    nvlinkDomain: net.nvlinkDomain ?? net.gpusPerNode,
    nicsPerServer: net.nicsPerServer ?? net.gpusPerNode,
    nicBusBytesPerSecond: net.nicBusBytesPerSecond,
    nvlinkRingBusBytesPerSecond: net.nvlinkRingBusBytesPerSecond,
    nvlinkNvlsAllReduceBusBytesPerSecond: net.nvlinkNvlsAllReduceBusBytesPerSecond,
    hopLatencySeconds: net.hopLatencySeconds,
    interNodeHopLatencySeconds: net.interNodeHopLatencySeconds,
    ...overrides,
  };
  requirePositiveInteger(shape.gpusPerServer, "gpusPerServer");
  requirePositiveInteger(shape.nvlinkDomain, "nvlinkDomain");
  requirePositiveInteger(shape.nicsPerServer, "nicsPerServer");
  requirePositiveNumber(shape.nicBusBytesPerSecond, "nicBusBytesPerSecond");
  requirePositiveNumber(shape.nvlinkRingBusBytesPerSecond, "nvlinkRingBusBytesPerSecond");
  if (shape.nvlinkDomain % shape.gpusPerServer !== 0 && shape.gpusPerServer % shape.nvlinkDomain !== 0)
    throw new ModelInputError(
      "nvlinkDomain",
      `the NVLink domain (${shape.nvlinkDomain} GPUs) must be a multiple or a divisor of the GPUs per server (${shape.gpusPerServer})`,
    );
  return shape;
}

/** Where a group's ranks sit: how many, and how far apart in the job's rank order. */
export interface GroupPlacement {
  /** Ranks in the group. */
  ranks: number;
  /** Distance between consecutive members in the job's rank order (1 for tensor parallelism). */
  stride: number;
}

/** The bandwidth a group gets and why. */
export interface GroupLink {
  /** Bus bandwidth (nccl-tests busbw), bytes/s. */
  busBytesPerSecond: number;
  /** True when every member sits in one NVLink domain. */
  intraDomain: boolean;
  /** Members of the group in one NVLink domain. */
  ranksPerDomain: number;
  /** NICs the group crosses each domain boundary on (0 inside a domain). */
  nics: number;
  /** Latency per ring step, seconds. */
  hopLatencySeconds: number;
  /** One line for a reader: "NVLink ring", "8 NICs × 45 GB/s, capped by NVLink" and so on. */
  via: string;
}

/** Options of {@link groupLink} and {@link groupSeconds}. */
export interface LinkOptions {
  /** Use NVLink SHARP for an in-domain all-reduce where the switch has it (default true). */
  nvls?: boolean;
}

/** Bus bandwidth and latency of a group placed as `placement` on `cluster` (see the module comment). */
export function groupLink(
  cluster: ClusterShape,
  collective: Collective,
  placement: GroupPlacement,
  options: LinkOptions = {},
): GroupLink {
  const n = requirePositiveInteger(placement.ranks, "ranks");
  const stride = requirePositiveInteger(placement.stride, "stride");
  const nvls = requireBoolean(options.nvls ?? true, "nvls");
  const D = cluster.nvlinkDomain;
  const ring = cluster.nvlinkRingBusBytesPerSecond;
  if (n * stride <= D) {
    const sharp = collective === "all-reduce" && nvls ? cluster.nvlinkNvlsAllReduceBusBytesPerSecond : null;
    return {
      busBytesPerSecond: sharp ?? ring,
      intraDomain: true,
      ranksPerDomain: n,
      nics: 0,
      hopLatencySeconds: cluster.hopLatencySeconds,
      via: sharp !== null ? "NVLink SHARP" : "NVLink ring",
    };
  }
  const k = Math.max(1, Math.min(n, Math.floor(D / stride)));
  const nicsPerGpu = cluster.nicsPerServer / cluster.gpusPerServer;
  const nicsPerDomain = (D / cluster.gpusPerServer) * cluster.nicsPerServer;
  // At least one NIC: a server with fewer NICs than GPUs still sends a lone member's data through one.
  const nics = Math.max(1, Math.min(nicsPerDomain, Math.round(k * nicsPerGpu)));
  const gb = (x: number) => `${Math.round(x / 1e9)} GB/s`;
  if (collective === "all-to-all") {
    // No ring: each member sends (n - k)/n of its buffer to members in other domains, through its own
    // share of the domain's NICs, while the rest moves over NVLink at the same time. In the
    // bus-bandwidth convention (f = (n - 1)/n) that is B_NIC·(NICs per member)·(n - 1)/(n - k).
    const perMember = (nics / k) * cluster.nicBusBytesPerSecond;
    const bus = Math.min(ring, (perMember * (n - 1)) / (n - k));
    return {
      busBytesPerSecond: bus,
      intraDomain: false,
      ranksPerDomain: k,
      nics,
      hopLatencySeconds: cluster.interNodeHopLatencySeconds,
      via: `each member's ${gb(perMember)} of NIC for the ${n - k} of ${n} peers in other domains`,
    };
  }
  const network = nics * cluster.nicBusBytesPerSecond;
  const capped = network > ring;
  return {
    busBytesPerSecond: Math.min(ring, network),
    intraDomain: false,
    ranksPerDomain: k,
    nics,
    hopLatencySeconds: cluster.interNodeHopLatencySeconds,
    via: `${nics} NIC${nics === 1 ? "" : "s"} × ${gb(cluster.nicBusBytesPerSecond)}${capped ? `, capped by the NVLink ring at ${gb(ring)}` : ""}`,
  };
}

/** Ring steps of one call, each paying the per-step latency. */
export function ringSteps(collective: Collective, ranks: number): number {
  const n = requirePositiveInteger(ranks, "ranks");
  if (collective === "send-recv") return 1;
  return collective === "all-reduce" ? 2 * (n - 1) : n - 1;
}

/** Seconds for one call of `collective` on `bytes` (the full buffer) over a group placed as `placement`. */
export function groupSeconds(
  cluster: ClusterShape,
  collective: Collective,
  bytes: number,
  placement: GroupPlacement,
  options: LinkOptions = {},
): number {
  if (placement.ranks <= 1 || bytes <= 0) return 0;
  const link = groupLink(cluster, collective, placement, options);
  return (
    ringSteps(collective, placement.ranks) * link.hopLatencySeconds +
    (busBandwidthFactor(collective, placement.ranks) * bytes) / link.busBytesPerSecond
  );
}
