/**
 * Code and measurements from the companion programs (companion/, Python), placed in chapters at
 * build time so that what a reader sees is what the tests run.
 *
 * Two fenced blocks:
 *
 *     ```include
 *     companion/data_parallel.py#bucket-hook
 *     ```
 *
 * becomes a highlighted listing of the lines between `# [start:bucket-hook]` and
 * `# [end:bucket-hook]` in that file (dedented; marker lines of other regions dropped). Without
 * `#region` the whole file is shown.
 *
 *     ```companion-table
 *     tiny.json --dp 2 --zero 1
 *     tiny.json --dp 2 --zero 3
 *     ```
 *
 * becomes a Markdown table, one row per measured layout (matched by the end of its
 * `companion.measure` command in companion/measurements.json): the book's model's prediction next
 * to what PyTorch held and sent. A `Table: …` paragraph right after it captions it as usual.
 *
 * An unknown file, region or layout fails the build with the chapter's file and line.
 *
 * {@link crossCheck} is the comparison itself, shared with tests/companion/crosscheck.test.ts:
 * model states and communication must equal the measurement exactly (pipeline sends: the busiest
 * rank's; expert parallelism: the sum over ranks), activations within {@link ACTIVATION_TOLERANCE}.
 */
import type { UserConfig } from "@11ty/eleventy";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { communicationPerStep, trainingMemory, type TrainingSetup } from "../../model/index.ts";
import { formatBytes, formatPercent } from "../../figures/kit/format.ts";
import { BookError, normalizeFile } from "../shared/errors.ts";
import { frontMatterLines } from "./doc-state.ts";

/** Largest relative gap allowed between the model's activations and the measurement. */
export const ACTIVATION_TOLERANCE = 0.01;

const LANGUAGES: Record<string, string> = { ".py": "python", ".json": "json", ".sh": "bash", ".ts": "typescript" };

/** The lines of `region` in `text` (the whole text when region is ""), dedented. Throws a plain Error. */
export function extractRegion(text: string, region: string, file: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const marker = /^\s*#\s*\[(start|end):([A-Za-z0-9_-]+)\]\s*$/;
  let body: string[];
  if (region === "") {
    body = lines;
  } else {
    const start = lines.findIndex((l) => marker.exec(l)?.[1] === "start" && marker.exec(l)?.[2] === region);
    const end = lines.findIndex((l, i) => i > start && marker.exec(l)?.[1] === "end" && marker.exec(l)?.[2] === region);
    if (start < 0 || end < 0) {
      const known = lines
        .map((l) => marker.exec(l))
        .filter((m) => m?.[1] === "start")
        .map((m) => m![2]);
      throw new Error(`no region "${region}" in ${file} (regions: ${known.join(", ") || "none"})`);
    }
    body = lines.slice(start + 1, end);
  }
  body = body.filter((l) => !marker.test(l));
  while (body.length && body[body.length - 1]!.trim() === "") body.pop();
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return body.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n") + "\n";
}

/** One layout of companion/measurements.json. */
export interface MeasuredLayout {
  config: string;
  command: string;
  setup: TrainingSetup;
  ranks: Array<{
    parameters: number;
    gradients: number;
    optimizer: number;
    activations: number;
    activationsIndex: number;
    communication: Record<string, Record<string, { calls: number; messageBytes: number; bytesSent: number }>>;
  }>;
}

/** One compared quantity: what the model predicts, what PyTorch did, and why they differ. */
export interface Comparison {
  what: string;
  model: number;
  /** The model's value after the corrections in `notes` (equals `model` when there are none). */
  expected: number;
  measured: number;
  notes: string[];
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * Compares one measured layout with the book's model (fp32). States: every rank, exactly.
 * Activations: every rank (the sum over ranks for expert parallelism, whose routing is not
 * balanced) after stated corrections. Communication: bytes sent per kind of parallelism and
 * collective, exactly, with stated exceptions; traffic the model leaves out is listed.
 */
export function crossCheck(
  layout: MeasuredLayout,
  config: Record<string, unknown>,
): { states: Comparison[]; activations: Comparison[]; communication: Comparison[]; notInModel: string[] } {
  const s = layout.setup as Required<TrainingSetup>;
  const memory = trainingMemory(config, s);
  const comm = communicationPerStep(config, s);
  const stageOf = (rank: number) => memory.stages[s.pp > 1 ? rank : 0]!;
  const states: Comparison[] = [];
  const activations: Comparison[] = [];
  layout.ranks.forEach((r, rank) => {
    const st = stageOf(rank);
    for (const key of ["parameters", "gradients", "optimizer"] as const) {
      states.push({ what: `rank ${rank} ${key}`, model: st[key], expected: st[key], measured: r[key], notes: [] });
    }
  });
  const corrected = (rank: number) => ({ value: stageOf(rank).activations, notes: [] as string[] });
  if (s.ep > 1) {
    const parts = layout.ranks.map((_, rank) => corrected(rank));
    activations.push({
      what: `activations, sum over the ${s.ep} ranks`,
      model: s.ep * stageOf(0).activations,
      expected: sum(parts.map((p) => p.value)),
      measured: sum(layout.ranks.map((r) => r.activations)),
      notes: [
        "routing is not balanced: each rank's expert activations depend on the tokens it received, so ranks are compared in sum",
      ],
    });
  } else {
    layout.ranks.forEach((r, rank) => {
      const c = corrected(rank);
      activations.push({
        what: `rank ${rank} activations`,
        model: stageOf(rank).activations,
        expected: c.value,
        measured: r.activations,
        notes: c.notes,
      });
    });
  }
  const communication: Comparison[] = [];
  const measuredSent = (tag: string, collective: string) =>
    layout.ranks.map((r) => r.communication[tag]?.[collective]?.bytesSent ?? 0);
  const byKey = new Map<string, number>();
  for (const item of comm.items)
    byKey.set(
      `${item.kind}|${item.collective}`,
      (byKey.get(`${item.kind}|${item.collective}`) ?? 0) + item.bytesSentPerStep,
    );
  for (const [key, model] of byKey) {
    const [kind, collective] = key.split("|") as [string, string];
    const sent = measuredSent(kind, collective);
    const c: Comparison = { what: `${kind} ${collective}`, model, expected: model, measured: sent[0]!, notes: [] };
    if (kind === "pp") {
      c.measured = Math.max(...sent);
      c.what = "pp send-recv (busiest stage)";
    }
    if (kind === "ep") {
      c.measured = sum(sent);
      c.expected = s.ep * model;
      c.model = s.ep * model;
      c.what = `ep all-to-all, sum over the ${s.ep} ranks`;
      c.notes.push("each rank sends what its routing decided; the model's balanced share holds for the sum");
    }
    communication.push(c);
  }
  const covered = new Set(byKey.keys());
  const notInModel: string[] = [];
  for (const [tag, kinds] of Object.entries(layout.ranks[0]!.communication)) {
    for (const [collective, v] of Object.entries(kinds)) {
      if (!covered.has(`${tag}|${collective}`))
        notInModel.push(`${tag} ${collective}: ${formatBytes(v.bytesSent)} (rank 0)`);
    }
  }
  return { states, activations, communication, notInModel };
}

/** Reads companion/measurements.json and the configs it names. */
export function loadMeasurements(root = process.cwd()): {
  layouts: MeasuredLayout[];
  config: (name: string) => Record<string, unknown>;
} {
  const file = path.join(root, "companion", "measurements.json");
  const layouts = (JSON.parse(readFileSync(file, "utf8")) as { entries: MeasuredLayout[] }).entries;
  const config = (name: string) =>
    JSON.parse(readFileSync(path.join(root, "companion", "configs", name), "utf8")) as Record<string, unknown>;
  return { layouts, config };
}

/** Markdown table source for the layouts whose command ends with each line of `spec`. Throws a plain Error. */
export function comparisonTable(spec: string, root = process.cwd()): string {
  const { layouts, config } = loadMeasurements(root);
  const rows = [
    "| layout | states per GPU | activations: model | measured | communication: model | measured |",
    "|---|---|--:|--:|--:|--:|",
  ];
  for (const wanted of spec
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    const layout = layouts.find((l) =>
      l.command.endsWith(wanted.replace(/^(\S+\.json)/, "companion/configs/$1 --seq 32 --micro-batch 2")),
    );
    if (!layout)
      throw new Error(
        `no measured layout "${wanted}" in companion/measurements.json (run npm run companion:measure after adding it to companion/crosscheck.py)`,
      );
    const check = crossCheck(layout, config(layout.config));
    const statesModel = sum(check.states.filter((c) => c.what.startsWith("rank 0")).map((c) => c.model));
    const statesEqual = check.states.every((c) => c.model === c.measured);
    const first = check.activations[0]!;
    const commModel = sum(check.communication.map((c) => c.model));
    const commMeasured = sum(check.communication.map((c) => c.measured));
    const gap = (a: number, b: number) => (a === b ? "" : ` (${b > a ? "+" : ""}${formatPercent((b - a) / a)})`);
    const label =
      wanted.replace(/^\S+\.json\s*/, (m) => (m.startsWith("tiny.json") ? "" : `${m.replace(/\.json\s*$/, "")}, `)) ||
      "one process";
    rows.push(
      `| \`${label}\` | ${formatBytes(statesModel)}${statesEqual ? ", equal" : ", DIFFERENT"} | ${formatBytes(first.model)} | ${formatBytes(first.measured)}${gap(first.model, first.measured)} | ${commModel ? formatBytes(commModel) : "none"} | ${commMeasured ? formatBytes(commMeasured) : "none"}${gap(commModel, commMeasured)} |`,
    );
  }
  return rows.join("\n") + "\n";
}

function failAt(state: StateCore, token: Token, message: string, cause?: unknown): never {
  const inputPath = (state.env as { page?: { inputPath?: string } }).page?.inputPath;
  const line = token.map ? (inputPath ? frontMatterLines(inputPath, state.src) : 0) + token.map[0] + 1 : undefined;
  throw new BookError(normalizeFile(inputPath ?? "(unknown file)"), line, message, { cause });
}

/** markdown-it plugin: expands `include` and `companion-table` fences (see the module comment). */
export function includeCodeMarkdown(md: MarkdownIt, root = process.cwd()): void {
  md.core.ruler.after("inline", "book_include_code", (state: StateCore) => {
    for (let i = 0; i < state.tokens.length; i++) {
      const token = state.tokens[i]!;
      if (token.type !== "fence") continue;
      const kind = token.info.trim();
      if (kind === "include") {
        const [file = "", region = ""] = token.content.trim().split("#");
        let text: string;
        try {
          text = readFileSync(path.join(root, file), "utf8");
        } catch (e) {
          failAt(state, token, `include: cannot read "${file}" (paths are relative to the repository root)`, e);
        }
        try {
          token.content = extractRegion(text, region, file);
        } catch (e) {
          failAt(state, token, `include: ${(e as Error).message}`, e);
        }
        token.info = LANGUAGES[path.extname(file)] ?? "";
      } else if (kind === "companion-table") {
        let source: string;
        try {
          source = comparisonTable(token.content, root);
        } catch (e) {
          failAt(state, token, `companion-table: ${(e as Error).message}`, e);
        }
        const tokens: Token[] = [];
        md.block.parse(source, md, state.env, tokens);
        for (const t of tokens) {
          t.map = token.map;
          // Measured data: the number ledger skips it.
          t.meta = { ...(t.meta as object | null), generated: "companion-table" };
          if (t.type === "inline") {
            t.children = [];
            md.inline.parse(t.content, md, state.env, t.children);
          }
        }
        state.tokens.splice(i, 1, ...tokens);
        i += tokens.length - 1;
      }
    }
    return true;
  });
}

export function includeCodePlugin(eleventyConfig: UserConfig): void {
  eleventyConfig.addWatchTarget("./companion/");
  eleventyConfig.amendLibrary("md", (md: MarkdownIt) => includeCodeMarkdown(md));
}
