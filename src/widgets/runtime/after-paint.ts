/**
 * Answering an edit without holding up its paint (issue #54: every edit of every widget under
 * 100 ms to the next paint with the CPU 4× slower). A widget checks the edit at once (the field's
 * message, aria-invalid: cheap) and hands the expensive part, the model and the redraw, to the
 * function this returns: it runs after the browser has painted the edit, so the typed character,
 * the moved slider or the new option shows within a frame, and the drawing follows in a task of
 * its own. An edit that arrives before it runs replaces the pending work of its kind (the last
 * one wins), so fast typing draws once, and pushes the run behind its own paint.
 *
 * While work is pending the widget's root carries `data-widget-busy`; when it has run, the root
 * loses it and receives a `widget-drawn` event whose `detail.ms` is how long the work took. Tests
 * wait on these, and `npm run bench:widgets` adds that time to the edit's own.
 *
 * "After the edit has painted" means after the frame that shows the edit has been rastered, not
 * merely after the main thread handed it over: the work runs in a zero timeout after the animation
 * frame *after next*. The first frame carries the edit; its main-thread part ends with the commit,
 * and its raster and compositing then run on other threads. Chromium does not begin the next main
 * frame while a committed frame waits for activation, that is for its raster
 * (cc/scheduler/scheduler_state_machine.cc, `ShouldSendBeginMainFrame`: "MFBA is disabled and we
 * are waiting for previous activation"), so the second frame's callback comes after that raster.
 * It can still come before the display compositor has put the frame on the screen, which no web
 * API reports in general (traces of a loaded machine show both: docs/performance-log.md, "Pipeline
 * explorer: what holds the paint"). With one frame only, a long redraw could start during the
 * edit's raster and share the cores with it. A timer of 1 s runs the work too where frames do not
 * come (a hidden tab).
 *
 * `delayMs` debounces typing: the work waits until no edit has come for that long, then for the
 * frames as above. A widget whose redraw is long passes it for keys typed into a number field,
 * so a reader typing "128" gets one redraw after the last digit instead of one between each two
 * keys, which would hold up the next key (its input delay) for the whole redraw.
 */
/**
 * How long typing in a number field must pause before a widget with a long redraw redraws: the
 * `delayMs` that the pipeline explorer, the memory explorer, dp-overlap and number formats pass for
 * keys typed into a field (a redraw takes longer than the gap between two keys).
 */
export const typingPauseMs = 150;

export function afterPaint(root: HTMLElement): (work: () => void, key?: string, delayMs?: number) => void {
  const win = root.ownerDocument.defaultView;
  // Pending work by kind ("draw", "cursor", …): a new edit replaces the work of its own kind and
  // keeps the others; they run in the order their kinds were first scheduled.
  const pending = new Map<string, () => void>();
  let token = 0;
  const run = (which: number) => {
    if (which !== token || pending.size === 0) return;
    const works = [...pending.values()];
    pending.clear();
    const t0 = win!.performance.now();
    try {
      for (const work of works) work();
    } finally {
      if (pending.size === 0) delete root.dataset.widgetBusy;
      root.dispatchEvent(new CustomEvent("widget-drawn", { detail: { ms: win!.performance.now() - t0 } }));
    }
  };
  return (work, key = "draw", delayMs = 0) => {
    if (!win) {
      work();
      return;
    }
    pending.set(key, work);
    root.dataset.widgetBusy = "";
    const which = ++token;
    const schedule = () => {
      if (which !== token) return;
      win.requestAnimationFrame(() => win.requestAnimationFrame(() => win.setTimeout(() => run(which), 0)));
      win.setTimeout(() => run(which), 1000);
    };
    if (delayMs > 0) win.setTimeout(schedule, delayMs);
    else schedule();
  };
}
