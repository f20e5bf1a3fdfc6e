/**
 * Browser entry of the `config-finder` widget: enables the controls drawn at build time and reruns
 * the search (src/model/config-search.ts) when one changes. The search runs in a Worker
 * (./workers/config-search.ts), so an edit reaches the next paint at once: the fields are checked
 * on the spot, the last result is dimmed with a note while the search runs or while a field is
 * invalid, and the new result replaces it when the worker answers (a newer edit drops an older
 * search). Where no Worker can start, the search runs on the page after the dimmed frame is
 * painted. A bad value marks its field (role="alert") with one sentence; a combination the model
 * rejects marks the field it names. The settings live in the URL under the widget's id, with
 * "Copy link" and "Reset". Nothing animates, so prefers-reduced-motion needs no case.
 */
import {
  configFinderBounds,
  configFinderProblem,
  controlOfSearchField,
  decodeConfigFinderState,
  encodeConfigFinderState,
  parseConfigFinderSettings,
  runConfigFinderJob,
  type ConfigFinderSettings,
  type FinderJob,
  type FinderReply,
} from "../figures/config-finder-state.ts";
import { drawConfigFinderResult } from "../figures/config-finder.ts";
import { checkNumberField, setFieldProblem, setStale } from "../figures/kit/field.ts";
import { formatInteger } from "../figures/kit/format.ts";
import { copyLink, linkActions, readUrlParam, shareLink, urlWriter } from "./runtime/url-state.ts";
import { ensureStyle, explorerControlsCss } from "./runtime/widget-style.ts";
import { addCopyButtons } from "./runtime/code-copy.ts";

type NumericKey = keyof typeof configFinderBounds;
const selectNames = ["model", "gpu", "framework"] as const;

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
  const field = (name: string): HTMLElement | undefined =>
    inputs.get(name as NumericKey) ?? selects.get(name as (typeof selectNames)[number]);
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
  let jobId = 0; // the latest search; a reply with another id is dropped
  let posted = base; // the settings of that search
  let worker: Worker | null = null;
  let busy = false;
  let workersWork = typeof Worker !== "undefined";
  let timer: ReturnType<typeof setTimeout> | undefined;

  const showValues = (s: ConfigFinderSettings) => {
    for (const [name, select] of selects) select.value = s[name];
    for (const [key, input] of inputs) input.value = String(s[key]);
  };

  const accept = (reply: FinderReply, s: ConfigFinderSettings) => {
    if (reply.id !== jobId) return; // an older search: a newer edit replaced it (or will)
    if (!reply.ok) {
      const target = field(controlOfSearchField(reply.field));
      if (target) setFieldProblem(target, `${reply.message}.`);
      setStale(output, staleNote());
      return;
    }
    const text = drawConfigFinderResult({ figure, readout, table, note }, s, reply.result, reply.diagnosis, {
      idPrefix: `${idBase}-svg`,
      width: figure.clientWidth || 640,
    });
    addCopyButtons(table); // the rows' launch texts
    shown = s;
    setStale(output, undefined);
    // Nothing fits: one sentence next to the input to change (the readout has the whole diagnosis).
    if (reply.diagnosis) {
      const target = field(reply.diagnosis.field);
      if (target) setFieldProblem(target, reply.diagnosis.hint);
    }
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
      (next as unknown as Record<string, string>)[name] = select.value;
      setFieldProblem(select, undefined);
    }
    let ok = true;
    for (const [key, input] of inputs) {
      const r = checkNumberField(input.value, (value) => configFinderProblem(key, value));
      setFieldProblem(input, r.ok ? undefined : r.message);
      if (r.ok) next[key] = r.value;
      else ok = false;
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
    if (encodeConfigFinderState(next, shown) === "" && !busy) {
      setStale(output, undefined);
      return;
    }
    setStale(output, "Searching the configurations for the new settings…");
    jobId++; // a reply to a search started before this edit is no longer wanted
    timer = setTimeout(() => search(next), delay);
  };

  for (const input of inputs.values()) input.addEventListener("input", () => update(120));
  for (const select of selects.values()) select.addEventListener("change", () => update(0));
  copy.addEventListener("click", async () => {
    status.textContent = await copyLink(win, shareLink(win, idBase, encodeConfigFinderState(wanted, base)), linkBox);
  });
  reset.addEventListener("click", () => {
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
