/**
 * Browser entry of the `pipeline-explorer` widget: schedule, stages, microbatches, chunks and the
 * relative durations of F, B, W (and DualPipe's overlapped F&B), redrawn with the same figure code
 * as the static build-time drawing (src/figures/pipeline-explorer.ts); logic and validation live in
 * src/figures/pipeline-explorer-state.ts.
 *
 * Step-through: "Step" buttons and a time slider dim the operations that have not started yet;
 * "Play" sweeps the cursor across the step, and is unavailable when the reader's system asks for
 * reduced motion (the buttons and the slider still step by hand). Bad input marks its field
 * (aria-invalid, a role="alert" message) and keeps the last valid timeline. Settings live in the
 * URL under this widget's id. Fields, and their combination with the model's rules, are checked at
 * once; the schedule is laid out and the timeline redrawn, and the slider's cursor moved, once the
 * edit has painted (runtime/after-paint.ts), and for keys typed into a number field only once the
 * reader has paused ({@link typingPauseMs}), so that a redraw never holds up the next key.
 */
import { PIPELINE_SCHEDULES } from "../model/index.ts";
import { renderPipelineOutputs, setTimelineCursor } from "../figures/pipeline-explorer.ts";
import {
  checkPipelineControls,
  decodePipelineState,
  encodePipelineState,
  layOutPipeline,
  pipelineControlValuesOf,
  pipelineControls,
  scheduleNames,
  summarizePipeline,
  type PipelineControl,
  type PipelineExplorerSettings,
  type PipelineExplorerState,
  type PipelineView,
} from "../figures/pipeline-explorer-state.ts";
import { copyLink, linkActions, readUrlParam, shareLink, urlWriter } from "./runtime/url-state.ts";
import { ensureStyle, explorerControlsCss } from "./runtime/widget-style.ts";
import { clearWidget, dom } from "../figures/kit/dom.ts";
import { setStale, showControlProblems } from "../figures/kit/field.ts";
import { formatNumber } from "../figures/kit/format.ts";
import { afterPaint, typingPauseMs } from "./runtime/after-paint.ts";

const labels: Record<PipelineControl, string> = {
  schedule: "Schedule",
  stages: "Stages (GPUs) p",
  microbatches: "Microbatches m",
  chunks: "Chunks per GPU v",
  forward: "Forward T_F",
  backward: "Backward T_B",
  weightGrad: "Weight gradient T_W",
  forwardBackward: "Overlapped F&B",
};

/**
 * Schedules that run the weight gradient W as its own operation. The others run T_B + T_W as one
 * backward box: their T_W field stays shown, with a hint that says so, since it counts there too.
 */
const splitSchedules: readonly string[] = ["zb-h1", "dualpipe"];

const hints: Partial<Record<PipelineControl, string>> = {
  backward: "Input gradient; the weight gradient T_W is its own box in ZB-H1 and DualPipe.",
  weightGrad: "Its own box, run where a GPU would otherwise idle.",
  forwardBackward: "Empty: T_F + T_B + T_W (overlap hides communication only).",
};
/** The T_W hint for a schedule that does not split the backward. */
const weightGradInBackward = "Part of each backward box here: a backward takes T_B + T_W.";

const css = `
.px-controls .widget-field input[type="text"] { width: 6.5rem; }
.px-controls .widget-field input[name="forwardBackward"] { width: 10rem; }
.px-controls .widget-field select[name="schedule"] { max-width: none; width: auto; }
.px-step { display: flex; flex-wrap: wrap; gap: 0.4rem 0.6rem; align-items: center; margin: 0.2rem 0 0.4rem; }
.px-step input[type="range"] { width: min(18rem, 100%); accent-color: var(--c-accent); }
.px-readout dt { font-weight: 600; }
.px-readout dd { margin: 0; }
`;

/** Distinct start and end times of the operations: the stops of the step-through. */
export function eventTimes(view: PipelineView): number[] {
  const set = new Set<number>([0]);
  for (const op of view.result.ops) {
    set.add(op.start);
    set.add(op.end);
  }
  return [...set].sort((a, b) => a - b);
}

export function mount(root: HTMLElement, settings: PipelineExplorerSettings): void {
  const doc = root.ownerDocument;
  const win = doc.defaultView!;
  ensureStyle(doc, "explorer-controls-style", explorerControlsCss);
  ensureStyle(doc, "pipeline-explorer-style", css);
  const id = root.id || "widget-pipeline-explorer";
  const { el } = dom(doc);
  const hidden = new Set(settings.hide);
  const locked = new Set(settings.lock);
  const base: PipelineExplorerState = { ...settings };
  delete (base as Partial<PipelineExplorerSettings>).hide;
  delete (base as Partial<PipelineExplorerSettings>).lock;

  let start = base;
  let linkMessage = "";
  const fromUrl = readUrlParam(win, id);
  if (fromUrl !== null) {
    const decoded = decodePipelineState(fromUrl, base, [...hidden, ...locked]);
    if (decoded.ok) start = decoded.state;
    else linkMessage = decoded.message;
  }

  clearWidget(root);
  const form = el("form", { class: "explorer-controls px-controls", "aria-label": "Pipeline Explorer settings" });
  form.addEventListener("submit", (e) => e.preventDefault());
  const fieldset = el("fieldset");
  fieldset.append(el("legend", {}, "Schedule and durations"));
  form.append(fieldset);
  const controls = {} as Record<PipelineControl, HTMLInputElement | HTMLSelectElement>;
  const fields = {} as Record<PipelineControl, HTMLElement>;
  const messages = {} as Record<PipelineControl, HTMLElement>;
  const values = pipelineControlValuesOf(start);
  for (const name of pipelineControls) {
    let control: HTMLInputElement | HTMLSelectElement;
    if (name === "schedule") {
      control = el("select");
      for (const s of PIPELINE_SCHEDULES) control.append(el("option", { value: s }, scheduleNames[s]));
      control.value = values.schedule;
    } else {
      control = el("input", {
        type: "text",
        inputmode: name === "stages" || name === "microbatches" || name === "chunks" ? "numeric" : "decimal",
        autocomplete: "off",
        spellcheck: "false",
        value: values[name],
      });
      if (name === "forwardBackward") control.setAttribute("placeholder", "T_F + T_B + T_W");
    }
    control.id = `${id}-${name}`;
    control.setAttribute("name", name);
    const message = el("p", { class: "widget-message", id: `${id}-${name}-message`, role: "alert" });
    const describedBy = [message.id];
    const wrap = el("div", { class: "widget-field", "data-control": name });
    wrap.append(el("label", { for: control.id }, labels[name]), control);
    if (hints[name]) {
      const hint = el("p", { class: "explorer-hint", id: `${id}-${name}-hint` }, hints[name]);
      describedBy.push(hint.id);
      wrap.append(hint);
    }
    control.setAttribute("aria-describedby", describedBy.join(" "));
    wrap.append(message);
    if (locked.has(name)) {
      control.disabled = true;
      control.title = "Fixed for this example";
      wrap.setAttribute("data-locked", "");
    }
    if (hidden.has(name)) wrap.hidden = true;
    controls[name] = control;
    fields[name] = wrap;
    messages[name] = message;
    fieldset.append(wrap);
  }

  const reduced = win.matchMedia("(prefers-reduced-motion: reduce)");
  const step = el("div", { class: "px-step", role: "group", "aria-label": "Step through the schedule" });
  const back = el("button", { type: "button", class: "explorer-button" }, "◀ Step back");
  const fwd = el("button", { type: "button", class: "explorer-button" }, "Step ▶");
  const play = el("button", { type: "button", class: "explorer-button", "aria-pressed": "false" }, "Play");
  const all = el("button", { type: "button", class: "explorer-button" }, "Show all");
  const slider = el("input", {
    type: "range",
    id: `${id}-time`,
    min: "0",
    max: "1",
    step: "any",
    value: "1",
    "aria-label": "Time in the step",
  });
  const stepStatus = el("p", { class: "explorer-status", id: `${id}-step-status` });
  const motionHint = el(
    "p",
    { class: "explorer-hint" },
    "Play is off because your system asks for reduced motion; step by hand instead.",
  );
  step.append(back, fwd, play, all, slider, stepStatus, motionHint);

  const actions = el("div", { class: "explorer-actions" });
  const { copy, reset, status, linkBox } = linkActions(doc, linkMessage);
  actions.append(copy, reset, status, linkBox);

  const out = el("div", { class: "px-output" });
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  root.append(form, actions, step, out, live);

  const weightGradHint = root.querySelector<HTMLElement>(`#${id}-weightGrad-hint`);
  const writeUrl = urlWriter(win, id);
  const later = afterPaint(root);
  let last: { state: PipelineExplorerState; view: PipelineView; svg: SVGSVGElement; times: number[] } | null = null;
  let cursor: number | null = null;
  let frame = 0;

  const showCursor = () => {
    if (!last) return;
    const started = setTimelineCursor(last.svg, last.view, cursor);
    const total = last.view.result.ops.length;
    slider.max = String(last.view.result.makespan);
    slider.value = String(cursor ?? last.view.result.makespan);
    const when =
      cursor === null
        ? "whole step shown"
        : `time ${formatNumber(cursor, { decimals: 2, trim: true })} of ${formatNumber(last.view.result.makespan, { decimals: 2, trim: true })}: ${started} of ${total} operations started`;
    stepStatus.textContent = when;
    slider.setAttribute("aria-valuetext", when);
  };

  const stopPlaying = () => {
    if (frame) win.cancelAnimationFrame(frame);
    frame = 0;
    // Every edit calls this: leave the button alone when it already says so (a rewritten label is
    // laid out again).
    if (play.getAttribute("aria-pressed") !== "false") play.setAttribute("aria-pressed", "false");
    if (play.textContent !== "Play") play.textContent = "Play";
  };

  const syncMotion = () => {
    play.disabled = reduced.matches;
    motionHint.hidden = !reduced.matches;
    if (reduced.matches) stopPlaying();
  };
  syncMotion();
  reduced.addEventListener?.("change", syncMotion);

  const staleNote = (shown: PipelineExplorerState, names: PipelineControl[]): string => {
    const parts = [...new Set(names)].map((n) => {
      const v = shown[n];
      return `${labels[n]} = ${typeof v === "number" ? formatNumber(v) : v === null ? "T_F + T_B + T_W" : (scheduleNames[v as keyof typeof scheduleNames] ?? String(v))}`;
    });
    return `Showing the last valid timeline (${parts.join(", ")}) until the field is fixed.`;
  };

  /** The controls' values as one string, and the last values `update` answered. */
  const valuesKey = () => pipelineControls.map((n) => controls[n].value).join("\u0000");
  let answered = "";

  /**
   * Checks the fields and redraws: after the edit has painted (and `delayMs` without another
   * edit), or at once (`now`) when mounting.
   */
  const update = (now = false, delayMs = 0) => {
    answered = valuesKey();
    const values = {} as Record<PipelineControl, string>;
    for (const name of pipelineControls) values[name] = controls[name].value;
    // Only what changes is written: rewriting the same text or flag still costs the page a style
    // recalculation and a layout on every key (docs/performance-log.md, "Pipeline explorer: what holds
    // the paint").
    const showOnly = (name: PipelineControl, hide: boolean) => {
      if (fields[name].hidden !== hide) fields[name].hidden = hide;
    };
    showOnly("chunks", hidden.has("chunks") || values.schedule !== "interleaved");
    showOnly("forwardBackward", hidden.has("forwardBackward") || values.schedule !== "dualpipe");
    // Unsplit schedules run T_B + T_W as one backward box: T_W counts there too, so its field stays
    // in view (a hidden one would still count) and its hint says where it went.
    const weightGradText = splitSchedules.includes(values.schedule) ? hints.weightGrad! : weightGradInBackward;
    if (weightGradHint && weightGradHint.textContent !== weightGradText) weightGradHint.textContent = weightGradText;
    const result = checkPipelineControls(values);
    const form = { controls, messages, fields, hidden };
    showControlProblems(form, pipelineControls, result.problems);
    // Keep the last valid timeline, dimmed, and say which values it shows.
    const dim = (problems: readonly { control: PipelineControl }[]) => {
      if (last)
        setStale(
          out,
          staleNote(
            last.state,
            problems.map((p) => p.control),
          ),
        );
    };
    if (!result.ok) {
      // Dimming repaints the whole chart and adds a note above it, so it waits for the edit's paint
      // too, and while the reader types for the same pause as a redraw (it replaces a redraw still
      // pending): a refused "1" on the way to "16" costs no more than its message.
      later(() => dim(result.problems), "draw", delayMs);
      return;
    }
    stopPlaying();
    // The schedule's layout and the timeline (hundreds of boxes) after the edit has painted.
    const draw = () => {
      const laid = layOutPipeline(result.state, result.problems);
      if (!laid.ok) {
        showControlProblems(form, pipelineControls, laid.problems);
        dim(laid.problems);
        return;
      }
      setStale(out, undefined);
      const svg = renderPipelineOutputs(out, laid.view);
      last = { state: laid.state, view: laid.view, svg, times: eventTimes(laid.view) };
      cursor = null;
      showCursor();
      live.textContent = summarizePipeline(laid.view);
      writeUrl(encodePipelineState(laid.state, base));
    };
    if (now) draw();
    else later(draw, "draw", delayMs);
  };

  const stepTo = (direction: 1 | -1) => {
    if (!last) return;
    stopPlaying();
    const times = last.times;
    const now = cursor ?? (direction === 1 ? -1 : last.view.result.makespan);
    const next = direction === 1 ? times.find((t) => t > now + 1e-9) : [...times].reverse().find((t) => t < now - 1e-9);
    cursor = next ?? (direction === 1 ? last.view.result.makespan : 0);
    later(showCursor, "cursor");
  };

  // A select fires "input" and then "change" for one edit: answer the values once (update records
  // the values it last answered, whoever called it).
  const onEdit = (delayMs: number) => {
    if (valuesKey() === answered) return;
    update(false, delayMs);
  };
  for (const name of pipelineControls) {
    const typed = controls[name] instanceof HTMLInputElement;
    controls[name].addEventListener("input", () => onEdit(typed ? typingPauseMs : 0));
    // A number field's "change" (on blur or Enter) draws at once what the pause was waiting for.
    controls[name].addEventListener("change", () => (typed ? update() : onEdit(0)));
  }
  fwd.addEventListener("click", () => stepTo(1));
  back.addEventListener("click", () => stepTo(-1));
  all.addEventListener("click", () => {
    stopPlaying();
    cursor = null;
    later(showCursor, "cursor");
  });
  slider.addEventListener("input", () => {
    stopPlaying();
    const v = Number(slider.value);
    cursor = Number.isFinite(v) ? v : null;
    // Dimming the boxes restyles each of them: after the slider's move has painted.
    later(showCursor, "cursor");
  });
  play.addEventListener("click", () => {
    if (!last || reduced.matches) return;
    if (frame) {
      stopPlaying();
      return;
    }
    const makespan = last.view.result.makespan;
    const durationMs = 6000;
    const from = cursor === null || cursor >= makespan ? 0 : cursor;
    const t0 = win.performance.now();
    play.setAttribute("aria-pressed", "true");
    play.textContent = "Pause";
    const tick = (now: number) => {
      const t = from + ((now - t0) / durationMs) * makespan;
      cursor = Math.min(t, makespan);
      showCursor();
      if (t >= makespan) {
        stopPlaying();
        return;
      }
      frame = win.requestAnimationFrame(tick);
    };
    frame = win.requestAnimationFrame(tick);
  });
  copy.addEventListener("click", async () => {
    const state = last?.state ?? base;
    status.textContent = await copyLink(win, shareLink(win, id, encodePipelineState(state, base)), linkBox);
  });
  const setValues = (state: PipelineExplorerState) => {
    const v = pipelineControlValuesOf(state);
    for (const name of pipelineControls) controls[name].value = v[name];
  };
  reset.addEventListener("click", () => {
    setValues(base);
    status.textContent = "Back to this example’s settings.";
    update();
  });

  update(true);
  if (last === null) {
    setValues(base);
    update(true);
  }
}
