/**
 * The book's shared TeX macros: the only place to define one. Every page renders with these
 * (KaTeX at build time). Keep them few and obvious; an author should be able to read a
 * chapter's source without looking here.
 */
export const texMacros: Readonly<Record<string, string>> = {
  // Sets and spaces
  "\\R": "\\mathbb{R}",
  // Units, typeset upright with a thin space before: $80\GB$, $989\TFLOPS$
  "\\B": "\\,\\mathrm{B}",
  "\\GB": "\\,\\mathrm{GB}",
  "\\GiB": "\\,\\mathrm{GiB}",
  "\\TB": "\\,\\mathrm{TB}",
  "\\TiB": "\\,\\mathrm{TiB}",
  "\\TFLOPS": "\\,\\mathrm{TFLOPS}",
  "\\GBps": "\\,\\mathrm{GB/s}",
  // Operators used across chapters
  "\\bytes": "\\operatorname{bytes}",
  "\\flops": "\\operatorname{FLOPs}",
};
