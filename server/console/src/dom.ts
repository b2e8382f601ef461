// A few DOM helpers: elements from a tag, attributes and children; tables; number formats.

export type Child = Node | string | number | null | undefined | false;

/** `<tag attrs>children</tag>`; `null`, `undefined` and `false` children are left out. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "number" ? String(child) : child);
  }
  return element;
}

/** A table with a header row; `test` names it for the browser tests (`data-test`). */
export function table(test: string, headers: string[], rows: Child[][]): HTMLTableElement {
  return h(
    "table",
    { "data-test": test },
    h("thead", {}, h("tr", {}, ...headers.map((name) => h("th", {}, name)))),
    h("tbody", {}, ...rows.map((cells) => h("tr", {}, ...cells.map((cell) => h("td", {}, cell))))),
  );
}

export function link(href: string, text: string): HTMLAnchorElement {
  return h("a", { href }, text);
}

/** A number with `digits` decimals; `–` when absent. */
export function num(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
}

export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `${(value * 100).toFixed(1)}%`;
}

/** An estimate with its interval: `0.512 [0.470, 0.553]`. */
export function interval(value: { estimate: number; lower: number; upper: number } | null | undefined): string {
  return value ? `${num(value.estimate)} [${num(value.lower)}, ${num(value.upper)}]` : "–";
}

export function time(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "–" : new Date(ms).toISOString().replace("T", " ").slice(0, 19);
}
