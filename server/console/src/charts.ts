// Line charts over training steps, drawn by uPlot.

import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import "./console.css";

import { h } from "./dom";

export interface Series {
  label: string;
  /** One value per step; `null` where the step has none. */
  values: (number | null)[];
  /** Drawn dashed (so a line that coincides with another still shows). */
  dashed?: boolean;
}

const STEP_TICKS = Array.from({ length: 24 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3));

const COLOURS = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];

/** A chart of `series` over `steps`, titled; `test` names it for the browser tests. */
export function lineChart(test: string, title: string, steps: number[], series: Series[]): HTMLElement {
  const figure = h("figure", {
    class: "chart",
    "data-test": test,
    "data-series": series.map((s) => s.label).join("|"),
  });
  const options: uPlot.Options = {
    title,
    width: 520,
    height: 240,
    scales: { x: { time: false } },
    // Steps are whole numbers: ticks at 1, 2, 5, 10, 20, 50, … steps apart.
    axes: [{ label: "step", incrs: STEP_TICKS }, {}],
    series: [
      { label: "step" },
      ...series.map((s, i) => ({
        label: s.label,
        stroke: COLOURS[i % COLOURS.length],
        width: 2,
        spanGaps: true,
        ...(s.dashed ? { dash: [6, 4] } : {}),
      })),
    ],
  };
  const data: uPlot.AlignedData = [steps, ...series.map((s) => s.values)];
  new uPlot(options, data, figure);
  return figure;
}
