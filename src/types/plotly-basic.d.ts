/**
 * Minimal types for the parts of plotly.js-basic-dist-min 4.1 the roofline widget uses
 * (src/widgets/roofline/plotly-chart.ts). The package is a UMD bundle without types; esbuild puts it in its
 * own chunk, loaded with a dynamic `import()` whose `default` is the Plotly object.
 * Traces, layout and config are plain JSON objects (https://plotly.com/javascript/reference/);
 * only the fields this book sets are listed.
 */
declare module "plotly.js-basic-dist-min" {
  export interface PlotlyFont {
    family?: string;
    size?: number;
    color?: string;
  }

  export interface PlotlyMarker {
    symbol?: string;
    size?: number;
    color?: string;
    line?: { color?: string; width?: number };
  }

  export interface PlotlyTrace {
    type: "scatter";
    mode: "lines" | "markers" | "lines+markers" | "markers+text" | "text";
    name: string;
    x: number[];
    y: number[];
    text?: string[];
    textposition?: string;
    textfont?: PlotlyFont;
    customdata?: unknown[];
    hovertemplate?: string;
    hoverinfo?: "skip" | "none" | "text";
    showlegend?: boolean;
    legendgroup?: string;
    line?: { color?: string; width?: number; dash?: string };
    marker?: PlotlyMarker;
    cliponaxis?: boolean;
  }

  export interface PlotlyAxis {
    type?: "log" | "linear";
    range?: [number, number];
    title?: { text?: string; font?: PlotlyFont; standoff?: number };
    gridcolor?: string;
    linecolor?: string;
    zerolinecolor?: string;
    tickcolor?: string;
    tickfont?: PlotlyFont;
    showline?: boolean;
    mirror?: boolean;
    zeroline?: boolean;
    automargin?: boolean;
    dtick?: number | string;
    exponentformat?: "none" | "e" | "E" | "power" | "SI" | "B";
    fixedrange?: boolean;
  }

  export interface PlotlyLayout {
    autosize?: boolean;
    width?: number;
    height?: number;
    margin?: { l?: number; r?: number; t?: number; b?: number; pad?: number };
    paper_bgcolor?: string;
    plot_bgcolor?: string;
    font?: PlotlyFont;
    separators?: string;
    xaxis?: PlotlyAxis;
    yaxis?: PlotlyAxis;
    showlegend?: boolean;
    legend?: {
      orientation?: "h" | "v";
      x?: number;
      y?: number;
      xanchor?: string;
      yanchor?: string;
      font?: PlotlyFont;
      bgcolor?: string;
      itemclick?: "toggle" | "toggleothers" | false;
      itemdoubleclick?: "toggle" | "toggleothers" | false;
    };
    hovermode?: "closest" | "x" | "y" | false;
    hoverlabel?: { bgcolor?: string; bordercolor?: string; font?: PlotlyFont; align?: "left" | "right" | "auto" };
    dragmode?: "zoom" | "pan" | false;
    uirevision?: string;
  }

  export interface PlotlyConfig {
    responsive?: boolean;
    displayModeBar?: boolean | "hover";
    displaylogo?: boolean;
    scrollZoom?: boolean;
    doubleClick?: false | "reset" | "autosize" | "reset+autosize";
    showTips?: boolean;
    displayNotifier?: boolean;
    typesetMath?: boolean;
    showAxisRangeEntryBoxes?: boolean;
    showSendToCloud?: boolean;
    showEditInChartStudio?: boolean;
    locale?: string;
  }

  /** The graph div after newPlot: Plotly keeps the traces and the layout (with the reader's zoom) on it. */
  export interface PlotlyGraphDiv extends HTMLElement {
    data: PlotlyTrace[];
    layout: PlotlyLayout;
  }

  export interface PlotlyStatic {
    newPlot(
      root: HTMLElement,
      data: PlotlyTrace[],
      layout?: PlotlyLayout,
      config?: PlotlyConfig,
    ): Promise<PlotlyGraphDiv>;
    react(
      root: HTMLElement,
      data: PlotlyTrace[],
      layout?: PlotlyLayout,
      config?: PlotlyConfig,
    ): Promise<PlotlyGraphDiv>;
    relayout(root: HTMLElement, update: Record<string, unknown>): Promise<PlotlyGraphDiv>;
  }

  const Plotly: PlotlyStatic;
  export default Plotly;
}
