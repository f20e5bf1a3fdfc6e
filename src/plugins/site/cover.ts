/**
 * The cover motif, drawn by code: four nodes of eight GPUs. Inside a node, each GPU passes
 * data to the next around a ring (NVLink); between nodes, matching GPUs are linked
 * (InfiniBand). Colors come from the palette's CSS variables, so the cover follows the theme.
 */
const rowColors = ["var(--c-params)", "var(--c-grads)", "var(--c-optim)", "var(--c-acts)"];

export function coverArtSvg(): string {
  const cols = 8;
  const rows = 4;
  const cell = 40;
  const gap = 16;
  const pad = 24;
  const width = pad * 2 + cols * cell + (cols - 1) * gap;
  const height = pad * 2 + rows * cell + (rows - 1) * (gap * 2);
  const x = (c: number) => pad + c * (cell + gap);
  const y = (r: number) => pad + r * (cell + gap * 2);
  const parts: string[] = [];
  // Links between nodes: GPU i of node r to GPU i of node r+1.
  for (let r = 0; r < rows - 1; r++) {
    for (let c = 0; c < cols; c++) {
      const cx = x(c) + cell / 2;
      parts.push(`<line x1="${cx}" y1="${y(r) + cell}" x2="${cx}" y2="${y(r + 1)}" class="cover-ib"/>`);
    }
  }
  for (let r = 0; r < rows; r++) {
    // The ring inside a node: neighbours, then the long way back.
    const cy = y(r) + cell / 2;
    parts.push(
      `<line x1="${x(0) + cell}" y1="${cy}" x2="${x(cols - 1)}" y2="${cy}" class="cover-ring" style="stroke:${rowColors[r]}"/>`,
    );
    const back = y(r) + cell + gap * 0.55;
    parts.push(
      `<path d="M${x(cols - 1) + cell / 2} ${y(r) + cell} V${back} H${x(0) + cell / 2} V${y(r) + cell}" class="cover-ring-back" style="stroke:${rowColors[r]}"/>`,
    );
    for (let c = 0; c < cols; c++) {
      const filled = (c + r) % 3 === 0;
      parts.push(
        `<rect x="${x(c)}" y="${y(r)}" width="${cell}" height="${cell}" rx="6" class="cover-gpu" style="stroke:${rowColors[r]}${filled ? `;fill:${rowColors[r]};fill-opacity:0.85` : ""}"/>`,
      );
    }
  }
  return (
    `<svg class="cover-svg" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="cover-title">` +
    `<title id="cover-title">Four nodes of eight GPUs: a ring inside each node, links between nodes</title>` +
    parts.join("") +
    `</svg>`
  );
}
