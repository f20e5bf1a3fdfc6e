/** Types for the part of subset-font 2 the build uses (node_modules/subset-font/README.md). */
declare module "subset-font" {
  export interface SubsetOptions {
    /** The format written; by default that of the input. */
    targetFormat?: "sfnt" | "woff" | "woff2";
    /** OpenType feature tags to keep; by default all. */
    keepFeatures?: string[];
  }
  /** `font` cut to the glyphs of the characters of `text` (and those its layout tables reach). */
  export default function subsetFont(font: Buffer, text: string, options?: SubsetOptions): Promise<Buffer>;
}
