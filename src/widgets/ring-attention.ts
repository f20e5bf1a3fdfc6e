/**
 * Browser entry of the `ring-attention` widget: enables the controls the build drew and redraws
 * the tile matrix with the same figure code as the static SVG. The step slider runs from 0 to c,
 * where c means "all steps". "Play" advances one step per second; it is hidden when the reader
 * asks for reduced motion (the Next button does the same, one click at a time). A bad GPU count
 * marks the field invalid with a message (role="alert") and the figure keeps the last valid state.
 * The field's check is immediate; the redraw follows once the edit has painted (after-paint.ts).
 * The settings and the step live in the URL under this widget's id; "Copy link" shares them
 * (runtime/url-state.ts).
 */
import {
  drawRingAttention,
  summarizeRingAttention,
  validateRingGpus,
  type RingAttentionSettings,
  ringAttentionUrlCodec,
} from "../figures/ring-attention.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { afterPaint } from "./runtime/after-paint.ts";
import { widgetLink } from "./runtime/url-state.ts";

export function mount(root: HTMLElement, settings: RingAttentionSettings): void {
  const figure = root.querySelector<HTMLElement>(".ring-attention-figure");
  const readout = root.querySelector<HTMLElement>(".ring-attention-readout");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  const gpus = root.querySelector<HTMLInputElement>("input[name=gpus]");
  const sharding = root.querySelector<HTMLSelectElement>("select[name=sharding]");
  const causal = root.querySelector<HTMLInputElement>("input[name=causal]");
  const step = root.querySelector<HTMLInputElement>("input[name=step]");
  const prev = root.querySelector<HTMLButtonElement>("button[name=prev]");
  const next = root.querySelector<HTMLButtonElement>("button[name=next]");
  const play = root.querySelector<HTMLButtonElement>("button[name=play]");
  if (!figure || !readout || !gpus || !sharding || !causal || !step || !prev || !next || !play) {
    throw new Error("ring-attention: static markup missing");
  }
  for (const c of [gpus, sharding, causal, step, prev, next, play]) c.disabled = false;
  const view = root.ownerDocument.defaultView;
  const reducedMotion = view?.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
  if (reducedMotion) play.hidden = true;
  const idBase = root.getAttribute("id") ?? "ring-attention";
  const link = widgetLink(root, ringAttentionUrlCodec, settings, () => apply(settings));
  let state: RingAttentionSettings = { ...settings };
  let timer: ReturnType<typeof setInterval> | undefined;

  const paint = () => {
    step.max = String(state.gpus);
    step.value = String(state.step === null ? state.gpus : state.step);
    step.setAttribute("aria-valuetext", state.step === null ? "all steps" : `step ${state.step}`);
    figure.textContent = "";
    drawRingAttention(figure, state, `${idBase}-svg`);
    const text = summarizeRingAttention(state);
    readout.textContent = text;
    if (live) live.textContent = text;
  };
  // The tile matrix is redrawn after the edit has painted (runtime/after-paint.ts).
  const later = afterPaint(root);
  const draw = () => {
    link.show(state);
    later(paint);
  };
  const stopPlaying = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    play.textContent = "Play";
  };
  const setStep = (value: number) => {
    const clamped = Math.max(0, Math.min(state.gpus, value));
    state = { ...state, step: clamped >= state.gpus ? null : clamped };
    draw();
  };

  gpus.addEventListener("input", () => {
    const result = validateRingGpus(gpus.value);
    if (!result.ok) {
      setFieldProblem(gpus, result.message);
      return;
    }
    setFieldProblem(gpus, undefined);
    stopPlaying();
    state = { ...state, gpus: result.gpus, step: null };
    draw();
  });
  sharding.addEventListener("change", () => {
    state = { ...state, sharding: sharding.value === "zigzag" ? "zigzag" : "contiguous" };
    draw();
  });
  causal.addEventListener("change", () => {
    state = { ...state, causal: causal.checked };
    draw();
  });
  step.addEventListener("input", () => {
    stopPlaying();
    const v = Number(step.value);
    if (Number.isInteger(v)) setStep(v);
  });
  prev.addEventListener("click", () => {
    stopPlaying();
    setStep(state.step === null ? state.gpus - 1 : state.step - 1);
  });
  next.addEventListener("click", () => {
    stopPlaying();
    setStep(state.step === null ? 0 : state.step + 1);
  });
  play.addEventListener("click", () => {
    if (timer !== undefined) {
      stopPlaying();
      return;
    }
    setStep(state.step === null || state.step >= state.gpus - 1 ? 0 : state.step + 1);
    play.textContent = "Pause";
    timer = setInterval(() => {
      if (state.step === null || state.step >= state.gpus - 1) {
        stopPlaying();
        return;
      }
      setStep(state.step + 1);
    }, 1000);
  });
  const apply = (s: RingAttentionSettings) => {
    stopPlaying();
    gpus.value = String(s.gpus);
    setFieldProblem(gpus, undefined);
    sharding.value = s.sharding;
    causal.checked = s.causal;
    state = { ...s };
    draw();
  };
  if (link.restored) apply(link.restored);
}
