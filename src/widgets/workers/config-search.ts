/**
 * The configuration finder's search, off the page's main thread: a classic Worker script bundled
 * to /assets/js/workers/config-search.js (src/plugins/site/bundle.ts). It receives a FinderJob, runs the
 * search and, when nothing fits, the diagnosis (src/figures/config-finder-state.ts), and posts the
 * FinderReply back; the page keeps answering input while it runs (issue #54).
 */
import { runConfigFinderJob, type FinderJob } from "../../figures/config-finder-state.ts";

self.addEventListener("message", (event: MessageEvent<FinderJob>) => {
  self.postMessage(runConfigFinderJob(event.data));
});
