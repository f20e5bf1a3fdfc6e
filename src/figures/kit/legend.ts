/**
 * Where a chart's legend items go: left to right from `left`, each as wide as `widthOf` says, and
 * onto a new line (`lineHeight` lower) when the next item would pass `right`. A line always takes
 * its first item, however wide, so a long label never leaves an empty line above it. Guards
 * against the four figures that each wrapped their legend with their own loop (one without that
 * guard).
 */

export interface LegendLayoutOptions<T> {
  /** x of each line's first item. */
  left: number;
  /** x that no item should pass (unless it is alone on its line). */
  right: number;
  /** y of the first line; line n is at `top + n * lineHeight`. */
  top: number;
  lineHeight: number;
  /** Width of an item, its swatch and the gap after it included. */
  widthOf: (item: T) => number;
}

export interface LegendSlot<T> {
  item: T;
  x: number;
  y: number;
  /** 0 for the first line. */
  line: number;
}

/** The position of each legend item, in order. */
export function legendLayout<T>(items: readonly T[], o: LegendLayoutOptions<T>): LegendSlot<T>[] {
  const slots: LegendSlot<T>[] = [];
  let x = o.left;
  let line = 0;
  for (const item of items) {
    const width = o.widthOf(item);
    if (x + width > o.right && x > o.left) {
      x = o.left;
      line += 1;
    }
    slots.push({ item, x, y: o.top + line * o.lineHeight, line });
    x += width;
  }
  return slots;
}
