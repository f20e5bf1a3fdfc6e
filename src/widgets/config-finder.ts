/**
 * Browser entry of the `config-finder` widget: enables the controls drawn at build time and reruns
 * the search (src/model/config-search.ts) when one changes. The search runs in a Worker
 * (./workers/config-search.ts), so an edit reaches the next paint at once: the fields are checked
 * on the spot, the last result is dimmed with a note while the search runs or while a field is
 * invalid, and the new result replaces it when the worker answers (a newer edit drops an older
 * search). Where no Worker can start, the search runs on the page after the dimmed frame is
 * painted. A bad value marks its field (role="alert") with one sentence; a combination the model
 * rejects marks the field it names. The planner's fields (constraints and cluster shape in a
 * disclosure, a pasted config.json when the model is "custom", tokens to train and a named layout)
 * are checked the same way. The settings live in the URL under the widget's id, with "Copy link"
 * and "Reset" (a config.json too long for a link is left out, and the status says so). The error
 * band on published runs was computed at build time and is read from the markup. Nothing
 * animates, so prefers-reduced-motion needs no case.
 */
import {
  configFinderBounds,
  configFinderOptionalBounds,
  configFinderOptionalProblem,
  configFinderProblem,
  configLinkProblem,
  controlOfSearchField,
  decodeConfigFinderState,
  encodeConfigFinderState,
  finderCluster,
  parseConfigFinderSettings,
  parseNamedLayout,
  readConfigText,
  readErrorBands,
  readOptionalText,
  runConfigFinderJob,
  type ConfigFinderSettings,
  type FinderJob,
  type FinderReply,
  type OptionalKey,
} from "../figures/config-finder-state.ts";
import { drawConfigFinderResult, optionalFieldValue, plannerDefaults } from "../figures/config-finder.ts";
import { formatNumber } from "../figures/kit/format.ts";
import { checkNumberField, setFieldProblem, setStale } from "../figures/kit/field.ts";
import { formatInteger } from "../figures/kit/format.ts";
import { copyLink, linkActions, readUrlParam, shareLink, urlWriter } from "./runtime/url-state.ts";
import { ensureStyle, explorerControlsCss } from "./runtime/widget-style.ts";
import { addCopyButtons } from "./runtime/code-copy.ts";

type NumericKey = keyof typeof configFinderBounds;

/** The planner's fields: the config.json box, the disclosure, the layout field and the verdict. */
const plannerCss = `
.config-finder .config-finder-config { flex-basis: 100%; display: flex; flex-direction: column; gap: 0.25rem; }
.config-finder .config-finder-config label { font-size: 0.85rem; font-weight: 600; }
.config-finder textarea { font: 0.8rem/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--c-text); background: var(--c-bg); border: 1px solid var(--c-border); border-radius: 5px; width: min(36rem, 100%); padding: 0.4rem; box-sizing: border-box; }
.config-finder textarea[aria-invalid="true"] { border-color: var(--c-invalid); }
.config-finder details.config-finder-more { flex-basis: 100%; font-size: 0.9rem; }
.config-finder details.config-finder-more summary { cursor: pointer; font-weight: 600; color: var(--c-accent); }
.config-finder details.config-finder-more > .widget-controls { margin: 0.5rem 0 0; }
.config-finder .widget-field.wide-field { flex-basis: 100%; }
.config-finder input[name="layout"] { width: min(30rem, 100%); box-sizing: border-box; }
.config-finder .config-finder-named { border-left: 3px solid var(--c-accent); padding-left: 0.6rem; }
.config-finder .config-finder-train { font-size: 0.9rem; }
`;
const selectNames = ["model", "gpu", "framework", "precision", "maxZero"] as const;

/** Starts the search worker next to this bundle, or null where Workers are unavailable. */
function startWorker(): Worker | null {
  try {
    return new Worker(new URL("../workers/config-search.js", import.meta.url));
  } catch {
    return null;
  }
}

export function mount(root: HTMLElement, settings: ConfigFinderSettings): void {
  const doc = root.ownerDocument;
  const win = doc.defaultView!;
  ensureStyle(doc, "explorer-controls-style", explorerControlsCss);
  ensureStyle(doc, "config-finder-planner-style", plannerCss);
  const output = root.querySelector<HTMLElement>(".config-finder-output");
  const figure = root.querySelector<HTMLElement>(".config-finder-figure");
  const readout = root.querySelector<HTMLElement>(".config-finder-readout");
  const table = root.querySelector<HTMLTableElement>(".config-finder-table");
  const note = root.querySelector<HTMLElement>(".config-finder-note");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  const controlsBox = root.querySelector<HTMLElement>(".widget-controls");
  if (!output || !figure || !readout || !table || !note || !controlsBox)
    throw new Error("config-finder: static markup missing");
  const selects = new Map<(typeof selectNames)[number], HTMLSelectElement>();
  for (const name of selectNames) {
    const select = root.querySelector<HTMLSelectElement>(`select[name=${name}]`);
    if (!select) throw new Error(`config-finder: control ${name} missing`);
    select.disabled = false;
    selects.set(name, select);
  }
  const inputs = new Map<NumericKey, HTMLInputElement>();
  for (const key of Object.keys(configFinderBounds) as NumericKey[]) {
    const input = root.querySelector<HTMLInputElement>(`input[name=${key}]`);
    if (!input) throw new Error(`config-finder: control ${key} missing`);
    input.disabled = false;
    inputs.set(key, input);
  }
  const optional = new Map<OptionalKey, HTMLInputElement>();
  for (const key of Object.keys(configFinderOptionalBounds) as OptionalKey[]) {
    const input = root.querySelector<HTMLInputElement>(`input[name=${key}]`);
    if (!input) throw new Error(`config-finder: control ${key} missing`);
    input.disabled = false;
    optional.set(key, input);
  }
  const layoutInput = root.querySelector<HTMLInputElement>("input[name=layout]");
  const textarea = root.querySelector<HTMLTextAreaElement>("textarea[name=config]");
  const configField = root.querySelector<HTMLElement>(".config-finder-config");
  const more = root.querySelector<HTMLDetailsElement>(".config-finder-more");
  const named = root.querySelector<HTMLElement>(".config-finder-named") ?? undefined;
  const train = root.querySelector<HTMLElement>(".config-finder-train") ?? undefined;
  if (!layoutInput || !textarea || !configField || !more) throw new Error("config-finder: planner markup missing");
  layoutInput.disabled = false;
  textarea.disabled = false;
  const bands = readErrorBands(root.querySelector(".config-finder")?.getAttribute("data-error-bands"));
  const field = (name: string): HTMLElement | undefined =>
    name === "layout"
      ? layoutInput
      : name === "config"
        ? textarea
        : (inputs.get(name as NumericKey) ??
          optional.get(name as OptionalKey) ??
          selects.get(name as (typeof selectNames)[number]));
  const idBase = root.getAttribute("id") ?? "config-finder";
  const base = parseConfigFinderSettings(settings);

  // The link controls, under the inputs.
  const fromUrl = readUrlParam(win, idBase);
  const decoded = fromUrl === null ? null : decodeConfigFinderState(fromUrl, base);
  const { copy, reset, status, linkBox } = linkActions(doc, decoded && !decoded.ok ? decoded.message : "");
  const actions = doc.createElement("div");
  actions.className = "explorer-actions";
  actions.append(copy, reset, status, linkBox);
  controlsBox.insertAdjacentElement("afterend", actions);
  const writeUrl = urlWriter(win, idBase);

  let shown = base; // the settings the drawing shows
  let wanted = base; // the settings of the latest valid edit
  let lastReply: Extract<FinderReply, { ok: true }> | null = null; // the reply the drawing shows
  let jobId = 0; // the latest search; a reply with another id is dropped
  let posted = base; // the settings of that search
  let worker: Worker | null = null;
  let busy = false;
  let workersWork = typeof Worker !== "undefined";
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** The cluster fields' placeholders say what empty means: the GPU system's record (from the engine). */
  const showPlaceholders = (gpu: string) => {
    const c = finderCluster({ ...wanted, gpu, gpusPerServer: null, nicsPerServer: null, nicGBps: null });
    optional.get("maxTp")!.placeholder = String(c.nvlinkDomain);
    optional.get("gpusPerServer")!.placeholder = String(c.gpusPerServer);
    optional.get("nicsPerServer")!.placeholder = String(c.nicsPerServer);
    optional.get("nicGBps")!.placeholder = formatNumber(c.nicBusBytesPerSecond / 1e9, { significant: 3 });
  };

  const showValues = (s: ConfigFinderSettings) => {
    for (const [name, select] of selects) select.value = String(s[name]);
    for (const [key, input] of inputs) input.value = String(s[key]);
    for (const [key, input] of optional) input.value = optionalFieldValue(key, s[key]);
    layoutInput.value = s.layout;
    if (s.model === "custom" && s.config) textarea.value = JSON.stringify(s.config, null, 1);
    configField.hidden = s.model !== "custom";
    if (!plannerDefaults(s)) more.open = true;
    showPlaceholders(s.gpu);
  };

  const accept = (reply: FinderReply, s: ConfigFinderSettings) => {
    if (reply.id !== jobId) return; // an older search: a newer edit replaced it (or will)
    if (!reply.ok) {
      const target = field(controlOfSearchField(reply.field));
      if (target) setFieldProblem(target, `${reply.message}.`);
      if (target && more.contains(target)) more.open = true;
      setStale(output, staleNote());
      return;
    }
    const text = drawConfigFinderResult(
      { figure, readout, table, note, named, train },
      s,
      reply.result,
      reply.diagnosis,
      { idPrefix: `${idBase}-svg`, width: figure.clientWidth || 640 },
      { bands, named: reply.named },
    );
    addCopyButtons(table); // the rows' launch texts
    shown = s;
    lastReply = reply;
    setStale(output, undefined);
    // Nothing fits: one sentence next to the input to change (the readout has the whole diagnosis).
    if (reply.diagnosis) {
      const target = field(reply.diagnosis.field);
      if (target) setFieldProblem(target, reply.diagnosis.hint);
      if (target && more.contains(target)) more.open = true;
    }
    // A named layout that does not parse or run: its sentence beside the field too.
    if (reply.named?.status === "invalid") setFieldProblem(layoutInput, reply.named.text);
    if (live) live.textContent = text;
  };

  const onWorkerMessage = (event: MessageEvent<FinderReply>) => {
    busy = false;
    accept(event.data, posted);
  };
  const onWorkerError = () => {
    // The worker could not run (a blocked script, an old browser): search on the page from now on.
    worker?.terminate();
    worker = null;
    busy = false;
    workersWork = false;
    search(wanted);
  };

  const search = (s: ConfigFinderSettings) => {
    const job: FinderJob = { id: ++jobId, settings: s };
    posted = s;
    if (workersWork) {
      if (busy) {
        // The running search is for older settings: stop it rather than wait for it.
        worker?.terminate();
        worker = null;
      }
      if (!worker) {
        worker = startWorker();
        if (worker) {
          worker.addEventListener("message", onWorkerMessage);
          worker.addEventListener("error", onWorkerError);
        }
      }
      if (worker) {
        busy = true;
        worker.postMessage(job);
        return;
      }
      workersWork = false;
    }
    // No worker: let the dimmed frame paint first, then search here.
    win.setTimeout(() => accept(runConfigFinderJob(job), s), 30);
  };

  const staleNote = () =>
    `Showing the last result (${formatInteger(shown.gpuCount)} GPUs, s = ${formatInteger(shown.seqLength)}, batch ${formatInteger(shown.globalBatch)}) until the fields are fixed.`;

  /** Reads the fields; marks each bad one. Returns the settings, or null when one is bad. */
  const read = (): ConfigFinderSettings | null => {
    const next: ConfigFinderSettings = { ...wanted };
    for (const [name, select] of selects) {
      (next as unknown as Record<string, unknown>)[name] = name === "maxZero" ? Number(select.value) : select.value;
      setFieldProblem(select, undefined);
    }
    let ok = true;
    for (const [key, input] of inputs) {
      const r = checkNumberField(input.value, (value) => configFinderProblem(key, value));
      setFieldProblem(input, r.ok ? undefined : r.message);
      if (r.ok) next[key] = r.value;
      else ok = false;
    }
    for (const [key, input] of optional) {
      const value = readOptionalText(key, input.value);
      const problem = configFinderOptionalProblem(key, value);
      setFieldProblem(input, problem);
      if (problem) {
        ok = false;
        if (more.contains(input)) more.open = true;
      } else next[key] = value;
    }
    const layout = layoutInput.value.trim();
    const parsed = layout === "" ? null : parseNamedLayout(layout);
    setFieldProblem(layoutInput, parsed && !parsed.ok ? parsed.message : undefined);
    if (parsed && !parsed.ok) ok = false;
    else next.layout = layout;
    configField.hidden = next.model !== "custom";
    if (next.model === "custom") {
      const c = readConfigText(textarea.value);
      setFieldProblem(textarea, c.ok ? undefined : c.message);
      if (c.ok) next.config = c.config;
      else ok = false;
    } else {
      setFieldProblem(textarea, undefined);
      next.config = null;
    }
    if (!ok) return null;
    try {
      return parseConfigFinderSettings(next);
    } catch {
      return null;
    }
  };

  const update = (delay: number) => {
    const next = read();
    if (timer !== undefined) clearTimeout(timer);
    if (!next) {
      jobId++; // nor is one that arrives while a field is invalid
      setStale(output, staleNote());
      return;
    }
    wanted = next;
    writeUrl(encodeConfigFinderState(next, base));
    const same = (a: ConfigFinderSettings, b: ConfigFinderSettings) => JSON.stringify(a) === JSON.stringify(b);
    if (same(next, shown) && !busy) {
      setStale(output, undefined);
      return;
    }
    if (lastReply && same({ ...next, tokens: shown.tokens }, shown) && !busy) {
      // Only the token count changed: the rows stand, only the times to train are new.
      accept({ ...lastReply, id: ++jobId }, next);
      return;
    }
    setStale(output, "Searching the configurations for the new settings…");
    jobId++; // a reply to a search started before this edit is no longer wanted
    timer = setTimeout(() => search(next), delay);
  };

  for (const input of [...inputs.values(), ...optional.values(), layoutInput, textarea])
    input.addEventListener("input", () => update(input === textarea ? 300 : 120));
  for (const select of selects.values()) select.addEventListener("change", () => update(0));
  selects.get("gpu")!.addEventListener("change", () => showPlaceholders(selects.get("gpu")!.value));
  copy.addEventListener("click", async () => {
    const copied = await copyLink(win, shareLink(win, idBase, encodeConfigFinderState(wanted, base)), linkBox);
    const left = configLinkProblem(wanted);
    status.textContent = left ? `${copied} ${left}` : copied;
  });
  reset.addEventListener("click", () => {
    textarea.value = "";
    showValues(base);
    status.textContent = "Back to this example’s settings.";
    update(0);
  });

  if (decoded?.ok && encodeConfigFinderState(decoded.state, base) !== "") {
    showValues(decoded.state);
    update(0);
  } else {
    // The build drew the chapter's settings at 640 px; redraw at the real width when it differs.
    const width = figure.clientWidth;
    if (width > 0 && Math.abs(width - 640) > 40) search(base);
  }
}
