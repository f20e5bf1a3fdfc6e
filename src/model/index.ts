/**
 * Public surface of the model: every formula the book prints and every widget draws.
 * Pure TypeScript: no DOM, no `node:*`, no d3. Import from here, not from the files behind it.
 */
export { ModelInputError, ModelInvariantError } from "./errors.ts";
export {
  parseModelConfig,
  isMoeLayer,
  type ModelArchitecture,
  type ModelFamily,
  type MoeSpec,
  type MlaSpec,
  type ParsedConfig,
} from "./architecture.ts";
export {
  countParameters,
  layerParameters,
  type ParameterCount,
  type ParameterBreakdown,
  type LayerParameters,
} from "./parameters.ts";
export {
  layerActivations,
  storedLayerBytes,
  korthikantiLayerActivationBytes,
  type ActivationOptions,
  type ActivationTensor,
  type AttentionKernel,
  type KorthikantiLayerInput,
  type LayerActivations,
  type Recompute,
} from "./activations.ts";
export {
  bytesPerParameter,
  defaultReshardAfterForward,
  extrasHeld,
  frameworkLayout,
  layoutMode,
  modelStateBytes,
  trainingMemory,
  resolveTrainingSetup,
  stageLayerIndices,
  evenStageLayers,
  checkStageLayers,
  inFlightMicrobatches,
  type BytesPerParameter,
  type Fp32GradBuffer,
  type MemoryBreakdown,
  type MemorySchedule,
  type ModelStateBytes,
  type ModelStateOptions,
  type Precision,
  type ResolvedTrainingSetup,
  type StageActivationDetail,
  type StageMemory,
  type TrainingMemory,
  type TrainingSetup,
  type ZeroStage,
} from "./memory.ts";
export {
  modelFlopsPerToken,
  hardwareFlopsPerToken,
  matmulParameters,
  stepTimeSeconds,
  flopsUtilization,
  achievedFlopsPerSecondPerGpu,
  trainingFlops,
  korthikantiModelFlops,
  korthikantiHardwareFlopsSelective,
  narayananFullRecomputeFlops,
  palmFlopsPerToken,
  type FlopsPerToken,
  type MegatronShape,
  type JobFlopsInput,
  type StepTimeInput,
  type UtilizationInput,
} from "./compute.ts";
export { MODEL_PRESETS, findModelPreset, type ModelPreset } from "../data/models.ts";
export { GPUS, findGpu, type GpuSpec } from "../data/gpus.ts";
export { INTERCONNECTS, findInterconnect, type InterconnectSpec } from "../data/interconnects.ts";
export {
  PUBLISHED_RUNS,
  PUBLISHED_FP8_RUNS,
  EXCLUDED_RUNS,
  RUN_SOURCES,
  ASSUMED,
  isAssumed,
  type PublishedRun,
  type RunLayout,
  type RunSoftware,
  type RunSource,
  type Fp8Recipe,
  type Sourced,
  type ReportedThroughput,
} from "../data/published-runs.ts";
export {
  simulateMoeRouting,
  validateMoeRoutingInput,
  expertCapacity,
  expertPopularity,
  expertDispatchBytes,
  type MoeRoutingInput,
  type MoeRoutingResult,
  type MoeAssignment,
  type ExpertDispatchInput,
} from "./moe-routing.ts";
export * from "./dp-overlap.ts";
export * from "./number-formats.ts";
export {
  busBandwidthFactor,
  collectiveSeconds,
  communicationPerStep,
  overlapRatios,
  COLLECTIVES,
  type Collective,
  type CollectiveTimeInput,
  type CommunicationItem,
  type CommunicationKind,
  type CommunicationVolume,
  type GroupBandwidths,
  type OverlapInput,
  type OverlapRatio,
  type OverlapRatios,
} from "./communication.ts";
export {
  pipelineSchedule,
  checkPipelineInput,
  bubbleFraction1f1b,
  bubbleFractionInterleaved,
  bubbleTimeZbH1,
  bubbleTimeDualPipe,
  PIPELINE_SCHEDULES,
  PIPELINE_LIMITS,
  type PipelineInput,
  type PipelineOp,
  type PipelineOpKind,
  type PipelineResult,
  type PipelineSchedule,
} from "./pipeline.ts";
export * from "./ring-attention.ts";
export * from "./tp-sharding.ts";
// Modules written alongside the core calculators, re-exported whole so that figures and widgets
// import everything from this one surface.
export * from "./dp-overlap.ts";
export * from "./moe-routing.ts";
export * from "./ring-attention.ts";
export * from "./tp-sharding.ts";
export * from "./number-formats.ts";
export * from "./collective-steps.ts";
export * from "./config-search.ts";
export * from "./step.ts";
export * from "./validation.ts";
export * from "./roofline.ts";
export * from "./exercise-values.ts";
export * from "./data-facts.ts";
export * from "./placement.ts";
export * from "./scenario.ts";
export * from "../data/frameworks.ts";
export * from "./launch.ts";
export { LAUNCH_NAME_LISTS, type LaunchFramework, type VendoredNames } from "../data/launch-flags.ts";
