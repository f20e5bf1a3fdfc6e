/** Types for the part of fontverter 2 the tests use (node_modules/fontverter/README.md). */
declare module "fontverter" {
  /** `font` converted to `format` (an sfnt is a bare TrueType or OpenType file). */
  export function convert(font: Buffer, format: "sfnt" | "woff" | "woff2"): Promise<Buffer>;
  const fontverter: { convert: typeof convert };
  export default fontverter;
}
