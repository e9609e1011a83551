/**
 * The names of the three Standard Webhooks headers every delivery carries: the event ID (stable
 * across retries), the Unix time in seconds of the attempt, and one or more `v1,<base64>` signatures.
 */
export const WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

/**
 * Request headers as a receiver has them: a Fetch API `Headers` object (Request of a fetch
 * handler, Next.js, Hono, Deno, Bun, workers) or a plain record such as Node's `req.headers`
 * (names in any case). Both join a repeated `webhook-signature` line with `", "`; a record may
 * also hold the lines as an array (as some frameworks and `req.headersDistinct` give them).
 */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Reads one header case-insensitively. Values given as an array are joined with a space, so
 * several `webhook-signature` lines count as one list of candidates.
 * @returns the trimmed value, or `undefined` when it is absent or blank
 * @internal
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  let value: string | undefined;
  if (typeof (headers as Headers).get === "function") {
    value = (headers as Headers).get(name) ?? undefined;
  } else {
    const values: string[] = [];
    for (const [key, raw] of Object.entries(headers as Record<string, unknown>)) {
      if (key.toLowerCase() !== name) continue;
      if (typeof raw === "string") values.push(raw);
      else if (Array.isArray(raw)) values.push(...raw.filter((item): item is string => typeof item === "string"));
    }
    value = values.join(" ");
  }
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
