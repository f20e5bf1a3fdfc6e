/**
 * Browser entry of the unit-converter widget: enables the controls the build drew (disabled,
 * showing the default) and recomputes the table as the reader types. A bad amount marks the
 * field invalid with a message and leaves the last good table in place. The amount and unit live in
 * the URL under this widget's id; "Copy link" shares them (runtime/url-state.ts).
 */
import {
  byteUnits,
  fillTable,
  parseAmount,
  summary,
  type ByteUnit,
  type UnitConverterSettings,
  unitConverterUrlCodec,
} from "../figures/unit-converter.ts";
import { setFieldProblem } from "../figures/kit/field.ts";
import { widgetLink } from "./runtime/url-state.ts";

export function mount(root: HTMLElement, settings: UnitConverterSettings): void {
  const input = root.querySelector<HTMLInputElement>("input[name=amount]");
  const select = root.querySelector<HTMLSelectElement>("select[name=unit]");
  const tbody = root.querySelector<HTMLTableSectionElement>("table.uc-table tbody");
  const live = root.querySelector<HTMLElement>("[aria-live]");
  if (!input || !select || !tbody) throw new Error("unit-converter: static markup missing");
  input.disabled = false;
  select.disabled = false;

  const link = widgetLink(root, unitConverterUrlCodec, settings, () => apply(settings));
  let last = { value: settings.value, unit: settings.unit };
  const update = () => {
    const unit = (byteUnits as readonly string[]).includes(select.value) ? (select.value as ByteUnit) : last.unit;
    const parsed = parseAmount(input.value, unit);
    if (!parsed.ok) {
      setFieldProblem(input, parsed.message);
      return;
    }
    setFieldProblem(input, undefined);
    last = { value: parsed.value, unit };
    fillTable(tbody, parsed.value, unit);
    if (live) live.textContent = summary(parsed.value, unit);
    link.show(last);
  };
  const apply = (s: UnitConverterSettings) => {
    input.value = String(s.value);
    select.value = s.unit;
    update();
  };
  input.addEventListener("input", update);
  select.addEventListener("change", update);
  if (link.restored) apply(link.restored);
}
