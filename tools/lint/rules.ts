/**
 * The book's phrase rules: real-word confusables common in this field, UK spellings (the book is
 * US English), and the canonical spelling of product names and terms. Every rule carries the
 * exact replacement to suggest. Rules see only the prose view (code, math, URLs, citation keys
 * blanked), so `pytorch` in a code span or `allreduce` in a formula never fires.
 *
 * To add a term: one `term(...)` line below and a fixture line in tests/lint/fixtures.
 */
import { type PhraseRule, matchCase } from "./phrases.ts";

// ---------------------------------------------------------------------------------------------
// Confusables: words that pass a spell checker but are wrong here. Each rule is narrowed by
// context so that legitimate uses ("back and forth", "loosely coupled", "the wrapper wraps the
// module") stay quiet.

function confusable(pattern: RegExp, suggest: (hit: string, m: RegExpExecArray) => string, why: string): PhraseRule {
  return {
    rule: "confusable",
    pattern,
    check: (hit, m) => {
      const suggestion = suggest(hit, m);
      return { message: `"${hit}" ${why}`, suggestion };
    },
  };
}

const swap = (to: string) => (hit: string) => matchCase(hit, to);
const forthExempt =
  "back\\s+and|and\\s+so|set|sets|setting|put|puts|putting|bring|brings|bringing|brought|come|comes|came|coming|go|goes|going|went|gone|hold|holds|held|sally|spring|sprang|sent|send|call|called|stretch|stretched";

const confusableRules: PhraseRule[] = [
  confusable(
    /\b(?<hit>wraps?)\b(?=-level|\s+(?:of\s+\d|per\s+(?:SM|block|multiprocessor|scheduler)|schedul|size\b|divergence))/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "warps" : "warp"),
    "in a GPU context is a warp (32 threads scheduled together)",
  ),
  confusable(
    /(?<=\b(?:\d+|thirty-two|one|two|four|eight|sixteen)\s+)(?<hit>wraps)\b(?!\s+(?:the|a|an|it|its|each|every|this|that|our|your|around|up)\b)/dgi,
    (h) => matchCase(h, "warps"),
    "next to a count is a warp (32 threads scheduled together)",
  ),
  confusable(
    /(?<=\bthreads\s+(?:in|of|per)\s+(?:a|the|one|each|every)\s+)(?<hit>wrap)\b/dgi,
    swap("warp"),
    "holding threads is a warp",
  ),
  confusable(
    /\b(?<hit>loose)\b(?=\s+(?:the|a|an|its|their|our|your|any|all|some|much|more|less|precision|accuracy|information|track|data|gradients?|time|progress|work|memory|bits?|state|signal)\b)/dgi,
    swap("lose"),
    '(not tight) is not "lose" (to no longer have)',
  ),
  confusable(
    /(?<=\b(?:to|will|would|could|can|may|might|must|we|you|they|cannot|won't|don't|doesn't|didn't)\s+)(?<hit>loose)\b(?!\s+(?:coupl|bound|tolerance|synchron|consisten|order|and\b|or\b))/dgi,
    swap("lose"),
    '(not tight) is not "lose" (to no longer have)',
  ),
  confusable(
    /\b(?<hit>loos(?:ing|es))\b/dgi,
    (h) => matchCase(h, h.toLowerCase() === "loosing" ? "losing" : "loses"),
    'means to set free; the verb meant is "lose"',
  ),
  confusable(
    /\b(?<hit>compliment(?:s|ed|ing|ary)?)\b/dgi,
    (h) => matchCase(h, h.toLowerCase().replace("compliment", "complement")),
    'is about praise; "complement" means to complete or go well with',
  ),
  confusable(
    new RegExp(`(?<!\\b(?:${forthExempt})\\s+)\\b(?<hit>forth)\\b`, "dgi"),
    swap("fourth"),
    'means onward (as in "back and forth"); the ordinal is "fourth"',
  ),
  confusable(/\b(?<hit>technics)\b/dgi, swap("techniques"), "is not the plural of technique"),
  confusable(
    /\b(?<hit>buddles?)\b/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "bubbles or bundles" : "bubble or bundle"),
    "is a mining trough; a pipeline's idle time is a bubble, a package is a bundle",
  ),
  confusable(
    /\b(?<hit>(?:breadth|depth)[- ]fist)\b/dgi,
    (h) => h.replace(/fist$/i, (f) => matchCase(f, "first")),
    "is a typo",
  ),
  confusable(/\b(?<hit>fist)\b/dgi, swap("first"), 'is a hand; the ordinal is "first"'),
  confusable(
    /\b(?<hit>dependan(?:ce|cy|cies))\b/dgi,
    (h) => h.replace(/dependan/i, (d) => matchCase(d, "dependen")),
    "is misspelled",
  ),
  confusable(
    /\b(?<hit>dependants?)\b/dgi,
    (h) => h.replace(/dependant/i, (d) => matchCase(d, "dependent")),
    'is British for the noun; write "dependent"',
  ),
  confusable(
    /\b(?:an|no|any|the|little|large|small|big|significant|negligible|measurable|noticeable|same|opposite|net|strong|major|minor)\s+(?<hit>affects?)\b(?=\s+(?:on|of)\b)/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "effects" : "effect"),
    'here is the noun "effect" ("affect" is the verb)',
  ),
  confusable(
    /\bside[- ](?<hit>affects?)\b/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "effects" : "effect"),
    'in "side effect" is "effect"',
  ),
  confusable(
    /\b(?:take|takes|took|taken|taking)\s+(?<hit>affect)\b/dgi,
    swap("effect"),
    'in "take effect" is "effect"',
  ),
  confusable(/\b(?<hit>it['’]s)(?=\s+own\b)/dgi, (h) => matchCase(h, "its"), 'means "it is"; the possessive is "its"'),
  confusable(
    /\b(?<hit>[Ii]ts)(?=\s+(?:a|an|the|not|been)\b)/dg,
    (h) => matchCase(h, "it's"),
    'is possessive; "it is" is "it\'s"',
  ),
  confusable(/\b(?<hit>weather)(?=\s+or\s+not\b)/dgi, swap("whether"), 'is rain and sun; the conjunction is "whether"'),
  confusable(/\b(?<hit>wether)\b/dgi, swap("whether"), 'is a sheep; the conjunction is "whether"'),
  confusable(
    /\b(?<hit>discreet(?:ly)?)\b/dgi,
    (h) => h.replace(/discreet/i, (d) => matchCase(d, "discrete")),
    'means tactful; "discrete" means separate, countable',
  ),
  confusable(/\b(?<hit>per say)\b/dgi, swap("per se"), 'is "per se" (Latin)'),
  confusable(/\b(?<hit>through[- ]put)\b/dgi, swap("throughput"), "is one word"),
  confusable(/\b(?<hit>band[- ]width)\b/dgi, swap("bandwidth"), "is one word"),
  confusable(
    /\b(?<hit>over[- ]head)\b(?!\s+(?:of\s+the\s+)?(?:line|lines|projector|bin|bins|cable|cables))/dgi,
    swap("overhead"),
    "is one word",
  ),
  confusable(
    /\b(?<hit>work[- ]loads?)\b/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "workloads" : "workload"),
    "is one word",
  ),
  confusable(
    /\b(?<hit>pipe[- ]lines?)\b/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "pipelines" : "pipeline"),
    "is one word",
  ),
  confusable(
    /\b(?<hit>check[- ]point(?:s|ed|ing)?)\b/dgi,
    (h) => matchCase(h, h.toLowerCase().replace(/check[- ]point/, "checkpoint")),
    "is one word",
  ),
  // wraps/warps where the sentence is about GPU execution: "partitioned among wraps and thread blocks", "each
  // wrap", "wrap scheduler". A verb use ("the wrapper wraps the module", "the line wraps around") has a subject
  // before it and an object or particle after it, so it never meets these patterns.
  confusable(
    /(?<=\b(?:among|across|between|into|within|per|each|every|active|resident|idle|other|several|many|multiple|different|neighboring|consecutive|whole|full|partial|entire|same)\s+)(?<hit>wraps?)\b(?!\s+(?:the|a|an|it|its|their|them|around|up|in|with|over|onto)\b)/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "warps" : "warp"),
    "among threads, blocks and SMs is a warp (32 threads scheduled together)",
  ),
  confusable(
    /\b(?<hit>wraps?)(?=\s+and\s+(?:thread\s+)?(?:blocks?|threads?|lanes?|SMs?)\b|\s+(?:schedulers?|shuffles?|lanes?|instructions?|specialization|synchronous|reductions?)\b|-(?:synchronous|specialized|wide|shuffle))/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "warps" : "warp"),
    "next to threads, blocks, lanes or a scheduler is a warp (32 threads scheduled together)",
  ),
  confusable(
    /(?<=\b(?:threads?|blocks?|lanes?|SMs?)\s+(?:and|or)\s+)(?<hit>wraps?)\b/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "warps" : "warp"),
    "next to threads, blocks or lanes is a warp (32 threads scheduled together)",
  ),
  confusable(
    /\b(?:per|intra|inter|sub)-(?<hit>wraps?)\b/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("s") ? "warps" : "warp"),
    "is a warp (32 threads scheduled together)",
  ),
  // principal (main) / principle (a rule)
  confusable(
    /\b(?<hit>principles?)(?=[- ]components?\b|\s+(?:axes|axis|eigenvectors?|directions?|submatrix|square\s+root)\b)/dgi,
    (h) => matchCase(h, "principal"),
    'is a rule; the main component, axis or direction is "principal"',
  ),
  confusable(
    /\bin\s+(?<hit>principal)\b(?![- ](?:components?|axes|axis))/dgi,
    swap("principle"),
    'means main; "in principle" is the idiom',
  ),
  confusable(
    /\b(?:first|design|guiding|general|basic|same)\s+(?<hit>principals)\b/dgi,
    swap("principles"),
    'are people or money; rules are "principles"',
  ),
  // stationary (not moving) / stationery (paper)
  confusable(
    /\b(?:non-?)?(?<hit>stationery)\b/dgi,
    swap("stationary"),
    'is writing paper; not moving or not changing is "stationary"',
  ),
  // sparse (few nonzeros) / spare (extra)
  confusable(
    /\b(?<hit>spare)(?=\s+(?:matri(?:x|ces)|attention|tensors?|gradients?|experts?|activations?|models?|kernels?|formats?|representations?|updates?|mixtures?|layers?|weights?|routing|computation|GEMMs?|matmuls?|MoE|transformers?)\b)/dgi,
    swap("sparse"),
    'means extra or unused; few nonzeros is "sparse"',
  ),
  // preceding (coming before) / proceeding (going on)
  confusable(
    /(?<=\b(?:the|a|each|every|its|their)\s+)(?<hit>proceeding)(?=\s+(?:layers?|steps?|sections?|chapters?|kernels?|tokens?|blocks?|stages?|microbatch(?:es)?|iterations?|paragraphs?|equations?|rounds?|operations?)\b)/dgi,
    swap("preceding"),
    'means going on; coming before is "preceding"',
  ),
  // than (comparison) / then (next)
  confusable(
    /\b(?:more|less|fewer|rather|other|greater|larger|smaller|faster|slower|higher|lower|better|worse|bigger|longer|shorter|wider|cheaper|costlier)\s+(?<hit>then)\b(?!\s*,)/dgi,
    swap("than"),
    'after a comparison is "than"',
  ),
  // weight (a parameter) / wait
  confusable(
    /\b(?<hit>wait)(?=\s+(?:decay|matri(?:x|ces)|tying|tensors?|updates?|gradients?|shards?|initialization)\b)/dgi,
    swap("weight"),
    'is to pause; a parameter is a "weight"',
  ),
  // cache (fast memory) / cash (money)
  confusable(
    /(?<=\b(?:L[123]|KV|K\/V|instruction|data|shared)\s+)(?<hit>cash(?:es)?)\b/dgi,
    (h) => matchCase(h, h.toLowerCase().endsWith("es") ? "caches" : "cache"),
    'is money; fast memory is a "cache"',
  ),
  confusable(
    /\b(?<hit>cash)(?=\s+(?:hits?|miss(?:es)?|lines?|hierarchy|evictions?|capacity)\b)/dgi,
    swap("cache"),
    'is money; fast memory is a "cache"',
  ),
  // coarse (not fine) / course
  confusable(
    /\b(?<hit>course)(?=[- ]grain(?:ed)?\b)/dgi,
    swap("coarse"),
    'is a path or a class; not fine-grained is "coarse"',
  ),
  // breadth (width) / breath (air)
  confusable(/\b(?<hit>breath)(?=[- ]first\b)/dgi, swap("breadth"), 'is air; the search order is "breadth-first"'),
  // bear in mind
  confusable(/\b(?<hit>bare)(?=\s+in\s+mind\b)/dgi, swap("bear"), 'means uncovered; the idiom is "bear in mind"'),
  confusable(/\b(?<hit>matrice)\b/dgi, swap("matrix"), "is not a word; the singular of matrices is matrix"),
  confusable(/\b(?<hit>indice)\b/dgi, swap("index"), "is not a word; the singular of indices is index"),
  confusable(/\b(?<hit>vertice)\b/dgi, swap("vertex"), "is not a word; the singular of vertices is vertex"),
];

// ---------------------------------------------------------------------------------------------
// UK spellings → US. Families are generated from stems so that every inflection is covered.

function uk(pattern: RegExp, toUs: (hit: string) => string): PhraseRule {
  return {
    rule: "uk-spelling",
    pattern,
    check: (hit) => {
      const suggestion = matchCase(hit, toUs(hit.toLowerCase()));
      return suggestion.toLowerCase() === hit.toLowerCase()
        ? undefined
        : { message: `"${hit}" is UK spelling; the book uses US English`, suggestion };
    },
  };
}

/** -ise/-isation verbs: optimise → optimize, parallelisation → parallelization. */
const izeStems = [
  "amort",
  "apolog",
  "author",
  "binar",
  "capital",
  "categor",
  "central",
  "character",
  "critic",
  "custom",
  "digit",
  "discret",
  "emphas",
  "equal",
  "factor",
  "final",
  "fertil",
  "general",
  "global",
  "harmon",
  "hypothes",
  "initial",
  "item",
  "legal",
  "linear",
  "local",
  "maxim",
  "memor",
  "minim",
  "mobil",
  "modern",
  "neutral",
  "normal",
  "operational",
  "optim",
  "organ",
  "parallel",
  "parameter",
  "penal",
  "personal",
  "polar",
  "priorit",
  "quant",
  "random",
  "rational",
  "real",
  "recogn",
  "regular",
  "sanit",
  "serial",
  "special",
  "stabil",
  "standard",
  "steril",
  "summar",
  "symbol",
  "sympath",
  "synchron",
  "token",
  "util",
  "vector",
  "virtual",
  "visual",
  "container",
  "compartmental",
  "material",
  "social",
  "trivial",
  "weapon",
];
const izePrefix = "(?:de|re|un|pre|over|under|non-?)?";
/** -our words: behaviour → behavior. */
const ourStems = [
  "armo",
  "behavio",
  "clamo",
  "colo",
  "endeavo",
  "favo",
  "flavo",
  "harbo",
  "hono",
  "humo",
  "labo",
  "neighbo",
  "odo",
  "parlo",
  "rigo",
  "rumo",
  "savo",
  "splendo",
  "tumo",
  "valo",
  "vapo",
  "vigo",
];
/** Verbs that double the l in UK English: modelling → modeling. */
const llStems = [
  "cancel",
  "channel",
  "counsel",
  "dial",
  "equal",
  "fuel",
  "funnel",
  "label",
  "level",
  "marshal",
  "model",
  "pedal",
  "rival",
  "shovel",
  "signal",
  "total",
  "travel",
  "tunnel",
  "jewel",
];
/** Single words and their US form. */
const ukWords: Record<string, string> = {
  acknowledgement: "acknowledgment",
  acknowledgements: "acknowledgments",
  ageing: "aging",
  aluminium: "aluminum",
  amongst: "among",
  analogue: "analog",
  analogues: "analogs",
  artefact: "artifact",
  artefacts: "artifacts",
  calibre: "caliber",
  catalogue: "catalog",
  catalogues: "catalogs",
  catalogued: "cataloged",
  centre: "center",
  centres: "centers",
  centred: "centered",
  centring: "centering",
  defence: "defense",
  despatch: "dispatch",
  enrol: "enroll",
  enrolment: "enrollment",
  fibre: "fiber",
  fibres: "fibers",
  focussed: "focused",
  focussing: "focusing",
  fulfil: "fulfill",
  fulfils: "fulfills",
  fulfilment: "fulfillment",
  grey: "gray",
  greyscale: "grayscale",
  judgement: "judgment",
  judgements: "judgments",
  learnt: "learned",
  licence: "license",
  licences: "licenses",
  litre: "liter",
  litres: "liters",
  manoeuvre: "maneuver",
  maths: "math",
  metre: "meter",
  metres: "meters",
  offence: "offense",
  practise: "practice",
  practised: "practiced",
  practising: "practicing",
  programme: "program",
  programmes: "programs",
  sceptical: "skeptical",
  skilful: "skillful",
  speciality: "specialty",
  spelt: "spelled",
  theatre: "theater",
  whilst: "while",
  wilful: "willful",
};

const ukSpellingRules: PhraseRule[] = [
  uk(
    new RegExp(`\\b(?<hit>${izePrefix}(?:${izeStems.join("|")})is(?:e|es|ed|ing|ation|ations|er|ers|able))\\b`, "dgi"),
    (h) => h.replace(/is(e|es|ed|ing|ation|ations|er|ers|able)$/, "iz$1"),
  ),
  uk(/\b(?<hit>(?:re)?(?:analy|paraly|cataly|dialy)s(?:e|ed|ing|er|ers))\b/dgi, (h) =>
    h.replace(/ys(e|ed|ing|er|ers)$/, "yz$1"),
  ),
  uk(
    new RegExp(
      `\\b(?<hit>(?:${ourStems.join("|")})ur(?:s|al|ally|ed|ing|ite|ites|able|ably|ful|less|hood|hoods|ist|ists|er|ers)?)\\b`,
      "dgi",
    ),
    (h) => h.replace(/our/, "or"),
  ),
  uk(new RegExp(`\\b(?<hit>(?:${llStems.join("|")})l(?:ed|ing|er|ers))\\b`, "dgi"), (h) =>
    h.replace(/ll(ed|ing|er|ers)$/, "l$1"),
  ),
  uk(new RegExp(`\\b(?<hit>${Object.keys(ukWords).join("|")})\\b`, "dgi"), (h) => ukWords[h] ?? h),
];

// ---------------------------------------------------------------------------------------------
// Product names and terms: one canonical spelling in prose. `pattern` finds every variant
// (case-insensitive); anything other than the canonical form (or, where `sentenceStart` is set,
// the canonical form with a capital first letter) is flagged.

interface TermOptions {
  /** "All-reduce" at the start of a sentence or heading is fine. */
  sentenceStart?: boolean;
  /** Other accepted spellings, exactly as written. */
  allow?: string[];
  /** Spelled-with-a-space variants in lower or sentence case are ordinary English ("they all reduce"). */
  spacedIsEnglish?: boolean;
  /** Replaces the default message. */
  why?: string;
  /** Accepts a non-canonical match in a context where it is right. */
  acceptIf?: (hit: string, match: RegExpExecArray) => boolean;
}

function term(canonical: string, pattern: RegExp, options: TermOptions = {}): PhraseRule {
  const accepted = new Set([canonical, ...(options.allow ?? [])]);
  if (options.sentenceStart) accepted.add(canonical[0].toUpperCase() + canonical.slice(1));
  return {
    rule: "term-casing",
    pattern,
    check: (hit, match) => {
      if (accepted.has(hit)) return undefined;
      if (options.acceptIf?.(hit, match)) return undefined;
      if (options.spacedIsEnglish && hit.includes(" ") && hit.slice(1) === hit.slice(1).toLowerCase()) return undefined;
      return { message: `"${hit}": ${options.why ?? `the book writes "${canonical}"`}`, suggestion: canonical };
    },
  };
}

const termRules: PhraseRule[] = [
  term("PyTorch", /\b(?<hit>py[- ]?torch)\b/dgi),
  term("ZeRO", /\b(?<hit>zero)(?=-(?:[123]|DP|R|Offload|Infinity)\b|\+\+|[ -]stage\b)/dgi, {
    why: 'the optimizer is written "ZeRO" (Zero Redundancy Optimizer)',
  }),
  term("ZeRO", /\b(?<hit>ZERO)\b/dg, { why: 'the optimizer is written "ZeRO"' }),
  term("NCCL", /\b(?<hit>nccl)\b/dgi),
  term("FlashAttention", /\b(?<hit>flash[- _]?attention)(?!-\d)/dgi),
  term("FlashAttention-2", /\b(?<hit>flash[- _]?attention[- ]?2)\b/dgi),
  term("FlashAttention-3", /\b(?<hit>flash[- _]?attention[- ]?3)\b/dgi),
  term("Megatron-LM", /\b(?<hit>megatron[- _]?lm)\b/dgi),
  term("DeepSpeed", /\b(?<hit>deep[- ]?speed)\b/dgi),
  term("NVLink", /\b(?<hit>nv[- ]?link)(?=s?\b)/dgi),
  term("NVSwitch", /\b(?<hit>nv[- ]?switch)(?=(?:es)?\b)/dgi),
  term("InfiniBand", /\b(?<hit>infini[- ]?band)\b/dgi),
  term("all-reduce", /\b(?<hit>all[-_ ]?reduce)(?=[sd]?\b)/dgi, { sentenceStart: true, spacedIsEnglish: true }),
  term("all-gather", /\b(?<hit>all[-_ ]?gather)(?=(?:s|ed)?\b)/dgi, { sentenceStart: true, spacedIsEnglish: true }),
  term("reduce-scatter", /\b(?<hit>reduce[-_ ]?scatter)(?=(?:s|ed)?\b)/dgi, { sentenceStart: true }),
  term("all-to-all", /\b(?<hit>all[-_ ]?to[-_ ]?all|all2all)\b/dgi, { sentenceStart: true, spacedIsEnglish: true }),
  term("bf16", /\b(?<hit>bf[- ]?16|bfloat[- ]?16)\b/dgi, {
    why: 'the book writes "bf16" in prose (when defining the name, keep "bfloat16" with a lint-ignore)',
  }),
  term("fp16", /\b(?<hit>fp[- ]?16)\b/dgi),
  term("fp32", /\b(?<hit>fp[- ]?32)\b/dgi),
  term("fp8", /\b(?<hit>fp[- ]?8)\b(?!-LM)/dgi),
  // "micro-batch size" is the name of $b$ in the book's notation table; every other use is one word.
  term("microbatch", /\b(?<hit>micro[- ]?batch)(?<size> size\b)?/dgi, {
    sentenceStart: true,
    acceptIf: (hit, m) => m.groups?.size !== undefined && /^[Mm]icro-batch$/.test(hit),
    why: 'the book writes "microbatch" (one word; only the notation name "micro-batch size" keeps the hyphen)',
  }),
  term("GPU", /\b(?<hit>gpu)(?=s?\b)/dgi),
  term("GPUs", /\b(?<hit>GPUS)\b/dg),
  term("HBM", /\b(?<hit>hbm)\b/dgi),
  term("CUDA", /\b(?<hit>cuda)\b/dgi),
  term("Triton", /\b(?<hit>triton)\b/dgi),
  term("TFLOPS", /\b(?<hit>tflop(?:s|\/s))(?![\w/])/dgi, { why: 'rates are written "TFLOPS" (dense unless stated)' }),
  term("NVIDIA", /\b(?<hit>nvidia)\b/dgi),
  term("Hugging Face", /\b(?<hit>hugging[- ]?face)\b/dgi),
  term("JAX", /\b(?<hit>jax)\b/dgi),
  term("PCIe", /\b(?<hit>pci[- ]?e)\b/dgi),
  term("cuBLAS", /\b(?<hit>cublas)\b/dgi),
  term("cuDNN", /\b(?<hit>cudnn)\b/dgi),
  term("GPUDirect", /\b(?<hit>gpu[- ]?direct)\b/dgi),
  term("FSDP", /\b(?<hit>fsdp)\b/dgi),
  term("MFU", /\b(?<hit>mfu)\b/dgi),
  term("GEMM", /\b(?<hit>gemm)(?=s?\b)/dgi),
  term("Adam", /\b(?<hit>adam)\b/dgi),
  term("AdamW", /\b(?<hit>adamw)\b/dgi),
  term("RDMA", /\b(?<hit>rdma)\b/dgi),
];

export const phraseRules: PhraseRule[] = [...confusableRules, ...ukSpellingRules, ...termRules];
