/**
 * How LinkedIn profile URLs are compared (docs/behaviour.md): the scheme, a leading `www.`, the
 * query, the fragment and trailing slashes are dropped and the host is lower-cased, so
 * `https://www.LinkedIn.com/in/jane/?utm=x` and `linkedin.com/in/jane` are the same profile.
 * @module
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Normalises a LinkedIn profile URL for matching. Linear in the input's length (no backtracking),
 * so a hostile 1 MiB value costs no more than reading it.
 * @param url - the value as received (any non-empty string; it need not be a URL)
 * @returns the matching key
 * @example
 * normaliseLinkedinUrl("HTTPS://WWW.LinkedIn.com/in/Jane/?trk=x#top"); // "linkedin.com/in/Jane"
 * @throws Nothing: every string has a key.
 */
export function normaliseLinkedinUrl(url: string): string {
  let rest = url.replace(SCHEME, "");
  const cut = rest.search(/[?#]/);
  if (cut >= 0) rest = rest.slice(0, cut);
  const slash = rest.indexOf("/");
  let host = (slash < 0 ? rest : rest.slice(0, slash)).toLowerCase();
  if (host.startsWith("www.")) host = host.slice(4);
  const key = host + (slash < 0 ? "" : rest.slice(slash));
  let end = key.length;
  while (end > 0 && key.charCodeAt(end - 1) === 0x2f) end--;
  return key.slice(0, end);
}
