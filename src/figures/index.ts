/**
 * The registry of widgets: name (as written after `::: widget`) → definition. Add a widget
 * with one line here, plus `src/figures/<name>.ts` (settings parser and static drawing) and
 * `src/widgets/<name>.ts` (browser entry exporting `mount`). tests/plugins/widgets.test.ts checks
 * that every entry here has a browser entry and vice versa. See widget.ts for the contract.
 */
import type { WidgetDefinition } from "./widget.ts";
import { unitConverterWidget } from "./unit-converter.ts";
import { numberFormatsWidget } from "./number-formats.ts";
import { dpOverlapWidget } from "./dp-overlap.ts";
import { moeRoutingWidget } from "./moe-routing.ts";
import { activationCurveWidget } from "./activation-curve.ts";
import { tpShardingWidget } from "./tp-sharding.ts";
import { ringAttentionWidget } from "./ring-attention.ts";
import { memoryExplorerWidget } from "./memory-explorer.ts";
import { pipelineExplorerWidget } from "./pipeline-explorer.ts";
import { collectivesWidget } from "./collectives.ts";
import { overlapCalculatorWidget } from "./overlap-calculator.ts";
import { configFinderWidget } from "./config-finder.ts";
import { rooflineWidget } from "./roofline.ts";
import { coalescingWidget } from "./coalescing.ts";

export const widgetRegistry: Readonly<Record<string, WidgetDefinition<unknown>>> = {
  "unit-converter": unitConverterWidget,
  "number-formats": numberFormatsWidget,
  "dp-overlap": dpOverlapWidget,
  "moe-routing": moeRoutingWidget,
  "activation-curve": activationCurveWidget,
  "tp-sharding": tpShardingWidget,
  "ring-attention": ringAttentionWidget,
  "memory-explorer": memoryExplorerWidget,
  "pipeline-explorer": pipelineExplorerWidget,
  collectives: collectivesWidget,
  "overlap-calculator": overlapCalculatorWidget,
  "config-finder": configFinderWidget,
  roofline: rooflineWidget,
  coalescing: coalescingWidget,
};
