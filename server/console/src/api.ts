// Calls to the server's HTTP API, typed by the OpenAPI document (the TypeScript client's
// generated schema), with the API key the user gave kept in the browser's local storage.

import type { components } from "../../../clients/typescript/src/schema";

export type Schemas = components["schemas"];

/** An error answer: the server's `code` and `message`, and the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const KEY_ITEM = "referee.apiKey";

export function apiKey(): string {
  return localStorage.getItem(KEY_ITEM) ?? "";
}

export function setApiKey(key: string): void {
  if (key) localStorage.setItem(KEY_ITEM, key);
  else localStorage.removeItem(KEY_ITEM);
}

export type Query = Record<string, string | number | undefined>;

/** GETs `path` (with `query`, empty values left out) as JSON; an error answer is an `ApiError`. */
export async function get<T>(path: string, query: Query = {}): Promise<T> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  const search = params.toString();
  const headers: Record<string, string> = { accept: "application/json" };
  const key = apiKey();
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(search ? `${path}?${search}` : path, { headers });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body ?? {}) as { code?: string; message?: string };
    throw new ApiError(response.status, error.code ?? `http_${response.status}`, error.message ?? response.statusText);
  }
  return body as T;
}

/** `encodeURIComponent` for a path segment. */
export const segment = encodeURIComponent;
