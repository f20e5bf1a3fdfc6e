/**
 * One input change per widget, on the page that shows it: what `npm run bench:widgets` times
 * (tools/bench/widgets.ts) and what the accessibility test drives (tests/browser/a11y.test.ts).
 */
export interface Scenario {
  name: string;
  page: string;
  /** The widget element's id. */
  widget: string;
  /** Control name and the two values it alternates between. */
  control: string;
  values: [string, string];
  /** The event the widget listens to on that control (default "input"). */
  event?: "input" | "change";
  /** Controls set once before measuring. */
  setup?: Array<[string, string]>;
}

export const scenarios: Scenario[] = [
  {
    name: "unit-converter, preface (80 GB)",
    page: "preface",
    widget: "widget-unit-converter-1",
    control: "amount",
    values: ["80", "81"],
  },
  {
    name: "activation-curve, chapter 2 (Llama 3.1 8B)",
    page: "one-gpu",
    widget: "widget-activation-curve-1",
    control: "microBatch",
    values: ["1", "2"],
  },
  {
    name: "dp-overlap, chapter 3 (d = 64 / 128)",
    page: "data-parallelism",
    widget: "widget-dp-overlap-1",
    control: "dp",
    values: ["64", "128"],
  },
  {
    name: "tp-sharding, chapter 4 (70B, t = 8)",
    page: "tensor-parallelism",
    widget: "widget-tp-sharding-1",
    control: "seq",
    values: ["8192", "16384"],
  },
  {
    name: "ring-attention, chapter 5 (4 / 8 GPUs)",
    page: "context-parallelism",
    widget: "widget-ring-attention-1",
    control: "gpus",
    values: ["4", "8"],
  },
  {
    name: "moe-routing, chapter 7 (512 tokens, 16 experts)",
    page: "expert-parallelism",
    widget: "widget-moe-routing-1",
    control: "skew",
    values: ["0.5", "1"],
  },
  {
    name: "number-formats, chapter 10 (0.1 / 3.5)",
    page: "mixed-precision",
    widget: "widget-number-formats-1",
    control: "value",
    values: ["0.1", "3.5"],
  },
  {
    name: "config-finder, chapter 8 (256 GPUs, 70B / 8B)",
    page: "five-d-parallelism",
    widget: "widget-config-finder-1",
    control: "model",
    values: ["llama-3.1-8b", "llama-3.1-70b"],
    event: "change",
  },
  {
    name: "overlap-calculator, appendix D (t = 1 / 8)",
    page: "overlap-math",
    widget: "widget-overlap-calculator-1",
    control: "tp",
    values: ["8", "1"],
  },
  {
    name: "memory-explorer, chapter 4 (70B, t = 8, d = 8)",
    page: "tensor-parallelism",
    widget: "widget-memory-explorer-1",
    control: "dp",
    values: ["8", "16"],
  },
  {
    name: "memory-explorer, chapter 2 (1B, one GPU)",
    page: "one-gpu",
    widget: "widget-memory-explorer-1",
    control: "microBatch",
    values: ["4", "2"],
  },
  {
    name: "memory-explorer, large (405B, p = 2, ZeRO-1 over d)",
    page: "data-parallelism",
    widget: "widget-memory-explorer-1",
    control: "dp",
    values: ["8", "16"],
    setup: [
      ["preset", "llama-3.1-405b"],
      ["pp", "2"],
    ],
  },
  {
    name: "pipeline-explorer, interleaved p = 4, m = 16, v = 2",
    page: "pipeline-parallelism",
    widget: "widget-pipeline-explorer-3",
    control: "microbatches",
    values: ["16", "12"],
  },
  {
    name: "pipeline-explorer, DualPipe p = 4, m = 12",
    page: "pipeline-parallelism",
    widget: "widget-pipeline-explorer-5",
    control: "microbatches",
    values: ["12", "16"],
  },
  {
    name: "pipeline-explorer, large 1F1B p = 16, m = 64",
    page: "pipeline-parallelism",
    widget: "widget-pipeline-explorer-2",
    control: "microbatches",
    values: ["64", "60"],
    setup: [["stages", "16"]],
  },
];
