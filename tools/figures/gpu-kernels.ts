import { writeFileSync } from "node:fs";
import { darkPalette, lightPalette, type PaletteName } from "../../src/figures/kit/palette.ts";
// Writes the hand-laid-out SVG figures of chapter 9 (GPU kernels). Run from the repository root:
//   node --import tsx tools/figures/gpu-kernels.ts
// The colours are the palette's (src/figures/kit/palette.ts), light and dark.
const dir = "assets/img/gpu-kernels/";
const sofigColors: readonly PaletteName[] = [
  "text",
  "muted",
  "accent",
  "params",
  "grads",
  "optim",
  "acts",
  "comm",
  "bubble",
];
const sofigVars = (p: Readonly<Record<PaletteName, string>>) => sofigColors.map((n) => `--c-${n}:${p[n]}`).join(";");
const style = `<style>.sofig{color:var(--c-text);${sofigVars(lightPalette)}}
@media (prefers-color-scheme:dark){.sofig{${sofigVars(darkPalette)}}}
text{fill:var(--c-text);font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:13px}
.muted{fill:var(--c-muted)}.small{font-size:11px}.box{fill:none;stroke:var(--c-muted);stroke-width:1.2}
.line{stroke:var(--c-muted);stroke-width:1.2;fill:none}.arrow{stroke:var(--c-text);stroke-width:1.3;fill:none}
.used{fill:var(--c-params)}.wasted{fill:var(--c-bubble);fill-opacity:.35}.sector{fill:none;stroke:var(--c-text);stroke-width:1}
.tileA{fill:var(--c-acts);fill-opacity:.75}.tileB{fill:var(--c-optim);fill-opacity:.75}.tileC{fill:var(--c-grads);fill-opacity:.8}
.strip{fill:var(--c-bubble);fill-opacity:.25;stroke:var(--c-muted)}.smem{fill:var(--c-comm);fill-opacity:.15;stroke:var(--c-comm)}
.idle{fill:var(--c-bubble);fill-opacity:.3}.brA{fill:var(--c-params)}.brB{fill:var(--c-grads)}.dash{stroke:var(--c-muted);stroke-dasharray:5 4;fill:none}</style>`;
const defs = `<defs><marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="currentColor"/></marker></defs>`;
function svg(name: string, w: number, h: number, title: string, desc: string, body: string): void {
  const s = `<svg xmlns="http://www.w3.org/2000/svg" class="sofig" role="img" aria-labelledby="${name}-title ${name}-desc" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}"><title id="${name}-title">${title}</title><desc id="${name}-desc">${desc}</desc>${style}${defs}${body}</svg>\n`;
  writeFileSync(dir + name + ".svg", s);
}
const t = (x: number, y: number, s: string, cls = "", extra = "") =>
  `<text x="${x}" y="${y}"${cls ? ` class="${cls}"` : ""}${extra}>${s}</text>`;
const r = (x: number, y: number, w: number, h: number, cls: string, extra = "") =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" class="${cls}"${extra}/>`;
const arrow = (x1: number, y1: number, x2: number, y2: number) =>
  `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" class="arrow" style="color:var(--c-text)" marker-end="url(#ah)"/>`;

// 1. hierarchy
{
  let b = "";
  const smX = [20, 190, 360];
  const y0 = 30; // room above the SMs for the cluster's label
  // SM 0 and SM 1 drawn inside one dashed thread block cluster: its blocks reach each other's shared memory.
  b += t(14, 16, "thread block cluster (up to 8 blocks, 16 with opt-in)", "small muted");
  b += r(12, 22, 336, 186, "dash", ' rx="8"');
  for (const [i, x] of smX.entries()) {
    b += r(x, y0 + 20, 150, 150, "box", ' rx="6"');
    b += t(x + 10, y0 + 40, i < 2 ? `SM ${i}` : "SM 131");
    b +=
      r(x + 10, y0 + 50, 130, 28, "tileA", ' rx="3"') +
      t(x + 18, y0 + 69, "registers 256 KiB", "", ' style="fill:#fff"');
    for (let k = 0; k < 4; k++) b += r(x + 10 + k * 33, y0 + 84, 30, 28, "tileC", ' rx="3"');
    b += t(x + 14, y0 + 102, "4 tensor cores", "small", ' style="fill:#fff"');
    b +=
      r(x + 10, y0 + 118, 130, 40, "smem", ' rx="3"') +
      t(x + 16, y0 + 135, "shared mem / L1", "small") +
      t(x + 16, y0 + 151, "256 KiB", "small");
  }
  // Distributed shared memory: a two-headed arrow between the shared memory of SM 0 and SM 1.
  b += `<line x1="161" y1="${y0 + 145}" x2="199" y2="${y0 + 145}" class="arrow" style="color:var(--c-text)" marker-start="url(#ah)" marker-end="url(#ah)"/>`;
  b += t(520, y0 + 100, "…", "", ' font-size="28"');
  b += t(560, y0 + 80, "132 SMs", "muted") + t(560, y0 + 98, "7.50 TFLOPS each", "muted small");
  for (const x of smX) b += arrow(x + 75, y0 + 172, x + 75, y0 + 208);
  b += r(20, y0 + 210, 670, 40, "strip", ' rx="6"') + t(30, y0 + 235, "L2 cache: 50 MB, shared by all SMs");
  b += arrow(355, y0 + 252, 355, y0 + 288);
  b +=
    r(20, y0 + 290, 670, 40, "tileB", ' rx="6"') +
    t(30, y0 + 315, "HBM3: 80 GB at 3.35 TB/s (25.4 GB/s per SM)", "", ' style="fill:#fff"');
  svg(
    "hierarchy",
    710,
    y0 + 345,
    "H100 SXM memory hierarchy",
    "Three of the 132 streaming multiprocessors are drawn, each with 256 KiB of registers, four tensor cores and 256 KiB of combined shared memory and L1. SM 0 and SM 1 sit inside a dashed outline labeled thread block cluster, up to 8 blocks or 16 with opt-in, and a two-headed arrow joins their shared memories: the blocks of a cluster read and write each other's shared memory. Arrows lead down to a 50 MB L2 cache shared by all SMs, and from there to 80 GB of HBM3 at 3.35 TB/s, 25.4 GB/s per SM.",
    b,
  );
}
// 2. coalescing
{
  let b = "";
  const x0 = 60;
  const row = (y: number, stride: number, label: string) => {
    let s = t(4, y - 30, label);
    const ww = stride === 1 ? 20 : 10; // 32 words shown for stride 1, 64 words (8 of 32 sectors) for stride 8
    const words = stride === 1 ? 32 : 64;
    for (let w = 0; w < words; w++) s += r(x0 + w * ww + 1, y, ww - 2, 18, w % stride === 0 ? "used" : "wasted");
    for (let k = 0; k < (8 * ww * (stride === 1 ? 4 : 8)) / (8 * ww); k++)
      s += r(x0 + k * 8 * ww, y - 2, 8 * ww, 22, "sector");
    return s;
  };
  b += row(50, 1, "stride 1: 32 threads × 4 B = 128 B in 4 sectors of 32 B, 100% of fetched bytes used");
  b += row(130, 8, "stride 8: one thread per sector, 32 sectors = 1,024 B fetched, 12.5% used (first 8 sectors shown)");
  b +=
    r(60, 170, 12, 12, "used") +
    t(78, 181, "word a thread asked for", "small") +
    r(250, 170, 12, 12, "wasted") +
    t(268, 181, "fetched, unused", "small") +
    r(400, 170, 18, 12, "sector") +
    t(424, 181, "32-byte sector", "small");
  svg(
    "coalescing",
    720,
    195,
    "Coalesced and strided warp loads",
    "Top row: 32 consecutive 4-byte words, all used, fall inside 4 outlined 32-byte sectors. Bottom row: one used word in every eight, so the warp touches 32 sectors and uses one eighth of the fetched bytes.",
    b,
  );
}
// 3. tiling
{
  let b = "";
  const T = 30;
  // A: 4x4 tiles at (20,120); B at (200,10); C at (200,120)
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++) {
      b += r(20 + j * T, 132 + i * T, T, T, i === 1 ? "strip" : "box");
      b += r(200 + j * T, 0 + i * T, T, T, j === 2 ? "strip" : "box");
      b += r(200 + j * T, 132 + i * T, T, T, i === 1 && j === 2 ? "tileC" : "box");
    }
  b += r(20, 162, T, T, "tileA") + r(260, 0, T, T, "tileB");
  b +=
    t(20, 124, "A") +
    t(330, 20, "B") +
    t(330, 142, "C") +
    t(200 + 2 * T + 3, 132 + T + 20, "T", "small", ' style="fill:#fff"');
  b += t(24, 182, "1", "small") + t(54, 182, "2", "small") + t(84, 182, "3", "small") + t(114, 182, "4", "small");
  b += t(264, 20, "1", "small") + t(264, 50, "2", "small") + t(264, 80, "3", "small") + t(264, 110, "4", "small");
  b += r(400, 100, 200, 110, "smem", ' rx="6"') + t(410, 120, "shared memory, step 1");
  b +=
    r(420, 140, T, T, "tileA") +
    r(470, 140, T, T, "tileB") +
    t(425, 195, "A tile", "small") +
    t(470, 195, "B tile", "small") +
    t(510, 160, "each element", "small") +
    t(510, 175, "used T times", "small");
  b += `<path d="M35 162 C 120 60, 330 60, 430 138" class="arrow" style="color:var(--c-text)" marker-end="url(#ah)"/>`;
  b += `<path d="M290 15 C 380 15, 470 60, 482 138" class="arrow" style="color:var(--c-text)" marker-end="url(#ah)"/>`;
  b += t(
    20,
    270,
    "The block computing the highlighted C tile loads step 1, 2, 3, 4 of its A strip and B strip in turn.",
    "muted small",
  );
  svg(
    "tiling",
    640,
    280,
    "Tiled matrix multiplication",
    "Matrix C with one output tile highlighted. The matching row strip of A and column strip of B are divided into four tiles, steps 1 to 4. The step-1 tiles of A and B are copied into a box labeled shared memory, where each element is used T times.",
    b,
  );
}
// 4. coarsening
{
  let b = "";
  b += t(10, 20, "4 threads, 1 output each") + t(370, 20, "1 thread, 4 outputs");
  for (let k = 0; k < 4; k++) {
    b += r(30, 40 + k * 40, 60, 28, "tileA", ' rx="3"') + t(38, 59 + k * 40, "load a", "small", ' style="fill:#fff"');
    b +=
      r(100, 40 + k * 40, 60, 28, "tileB", ' rx="3"') +
      t(106, 59 + k * 40, `load b${k}`, "small", ' style="fill:#fff"');
    b += r(190, 40 + k * 40, 40, 28, "tileC") + t(196, 59 + k * 40, `c${k}`, "small", ' style="fill:#fff"');
    b += arrow(162, 54 + k * 40, 188, 54 + k * 40);
    b += t(240, 59 + k * 40, `thread ${k}`, "muted small");
  }
  b += r(380, 100, 60, 28, "tileA", ' rx="3"') + t(388, 119, "load a", "small", ' style="fill:#fff"');
  for (let k = 0; k < 4; k++) {
    b +=
      r(460, 40 + k * 40, 60, 28, "tileB", ' rx="3"') +
      t(466, 59 + k * 40, `load b${k}`, "small", ' style="fill:#fff"');
    b += r(550, 40 + k * 40, 40, 28, "tileC") + t(556, 59 + k * 40, `c${k}`, "small", ' style="fill:#fff"');
    b += arrow(522, 54 + k * 40, 548, 54 + k * 40);
    b += `<line x1="442" y1="114" x2="458" y2="${54 + k * 40}" class="line"/>`;
  }
  b +=
    t(10, 215, "8 loads, 4 index computations", "muted small") +
    t(380, 215, "5 loads, 1 index computation, more registers", "muted small");
  svg(
    "coarsening",
    640,
    230,
    "Thread coarsening",
    "Left: four threads each load the same value a and their own value b to compute one output each, eight loads in all. Right: one thread loads a once and four b values to compute four outputs, five loads.",
    b,
  );
}
// 5. divergence
{
  let b = "";
  const lane = 16,
    x0 = 120;
  const draw = (y: number, label: string, split: boolean) => {
    let s = t(4, y - 8, label);
    for (let l = 0; l < 8; l++) {
      const yy = y + l * (lane + 2);
      s += t(x0 - 56, yy + 12, `thread ${l}`, "muted small");
      if (split) {
        s += r(x0, yy, 120, lane, l % 2 === 0 ? "brA" : "idle");
        s += r(x0 + 124, yy, 120, lane, l % 2 === 1 ? "brB" : "idle");
      } else {
        s += r(x0, yy, 120, lane, "brA");
      }
    }
    return s;
  };
  b += draw(30, "if (threadIdx.x % 2 == 0) A(); else B();  one warp runs A then B", true);
  b += draw(210, "if ((threadIdx.x / 32) % 2 == 0) A(); else B();  this warp runs only A", false);
  b +=
    r(420, 220, 12, 12, "brA") +
    t(438, 231, "branch A", "small") +
    r(420, 240, 12, 12, "brB") +
    t(438, 251, "branch B", "small") +
    r(420, 260, 12, 12, "idle") +
    t(438, 271, "masked off (idle)", "small");
  b +=
    `<line x1="${x0}" y1="370" x2="${x0 + 244}" y2="370" class="arrow" style="color:var(--c-text)" marker-end="url(#ah)"/>` +
    t(x0 + 100, 388, "time", "muted small");
  svg(
    "divergence",
    620,
    400,
    "Control divergence within a warp",
    "Top: a warp of eight threads drawn as rows; even threads run branch A while odd threads are idle, then odd threads run branch B while even threads are idle, so the warp takes both branch times. Bottom: the condition is the same for the whole warp, so all eight threads run branch A together and the warp takes one branch time.",
    b,
  );
}
// 6. flash
{
  let b = "";
  b += r(20, 120, 60, 240, "box") + r(20, 180, 60, 40, "tileA") + t(20, 110, "Q (N × d)");
  b += r(120, 40, 240, 60, "box") + t(120, 30, "Kᵀ (d × N)");
  for (let k = 0; k < 6; k++) b += r(120 + k * 40, 40, 40, 60, k === 2 ? "tileB" : "box");
  b +=
    r(120, 120, 240, 240, "dash") +
    t(150, 330, "S = QKᵀ (N × N)", "muted") +
    t(150, 348, "never written to HBM", "muted small");
  b += r(200, 120 + 60, 40, 40, "tileC") + t(204, 240, "score", "small") + t(204, 253, "tile", "small");
  b += r(400, 120, 60, 240, "box") + t(400, 110, "V (N × d)");
  for (let k = 0; k < 6; k++) b += r(400, 120 + k * 40, 60, 40, k === 2 ? "tileB" : "box");
  b +=
    r(500, 40, 180, 130, "smem", ' rx="6"') +
    t(510, 60, "on chip (SMEM, registers)") +
    t(510, 82, "Q block, K block, V block", "small") +
    t(510, 100, "score tile, running m, ℓ, õ", "small") +
    t(510, 118, "(online softmax)", "small muted");
  b +=
    r(500, 220, 180, 60, "tileA") +
    t(510, 245, "O block + m, ℓ", "", ' style="fill:#fff"') +
    t(510, 265, "written to HBM once", "small", ' style="fill:#fff"');
  b += arrow(590, 172, 590, 218);
  b += arrow(82, 190, 498, 90) + arrow(282, 70, 498, 80) + arrow(462, 220, 498, 150);
  svg(
    "flash",
    700,
    370,
    "FlashAttention tiling",
    "A block of rows of Q is loaded on chip. Blocks of K transposed and V stream past it; for each pair a small score tile is formed and consumed on chip with the running maximum, normalizer and output. The full N by N score matrix, drawn dashed, is never written. Only the output block O and the row statistics are written back to HBM.",
    b,
  );
}
