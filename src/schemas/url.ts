import * as z from "zod/mini";

/** Longest webhook URL accepted in a request, counted as sent. */
export const MAX_URL_LENGTH = 2048;

// The grammar of a webhook URL, in RFC 3986's words (section 3 and appendix A), narrowed so that
// every match is also a URL that the WHATWG parser (fetch, Node's `URL`) accepts with a host.
const HEX = "[0-9A-Fa-f]";
const H16 = `${HEX}{1,4}`;
const DEC_OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = `${DEC_OCTET}(?:\\.${DEC_OCTET}){3}`;
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
/** RFC 3986's `IPv6address`, without a zone (fetch refuses `%25eth0`). */
const IPV6 = /* @__PURE__ */ [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join("|");
/** A character of a host name's label: RFC 3986's unreserved characters and sub-delimiters (no `%`: escapes in a host are refused). */
const LABEL_CHAR = "A-Za-z0-9\\-_~!$&'()*+,;=";
const LABEL = `[${LABEL_CHAR}]+`;
/** Label characters that are not digits, not digits or `x`, not hex digits. */
const NOT_DIGIT = "[A-Za-z\\-_~!$&'()*+,;=]";
const NOT_DIGIT_OR_X = "[A-WYZa-wyz\\-_~!$&'()*+,;=]";
const NOT_HEX = "[G-Zg-z\\-_~!$&'()*+,;=]";
/**
 * The last label of a host name: not a number, which the WHATWG parser would read as part of an
 * IPv4 address and refuse (`a.1`, `a.0x1f`). That is: not all digits, and not `0x` followed by
 * hex digits only. Written without lookarounds, so that any generator of strings can use it.
 */
const LAST_LABEL = /* @__PURE__ */ [
  `${NOT_DIGIT}[${LABEL_CHAR}]*`,
  `(?:[1-9]|\\d{2,})${NOT_DIGIT}[${LABEL_CHAR}]*`,
  `0${NOT_DIGIT_OR_X}[${LABEL_CHAR}]*`,
  `0[Xx]${HEX}*${NOT_HEX}[${LABEL_CHAR}]*`,
].join("|");
/** A host name: labels separated by dots, the last one not a number, and an optional trailing dot. */
const REG_NAME = `(?:${LABEL}\\.)*(?:${LAST_LABEL})\\.?`;
/** 0 to 65535, leading zeros allowed up to five digits. */
const PORT = "(?:[0-5]?\\d{1,4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])";
/** A path, query or fragment character: RFC 3986's `pchar`, or an escape of two hex digits. */
const PCHAR = `(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%${HEX}{2})`;

/**
 * The webhook URL rule (docs/behaviour.md, "url"), as one regular expression that the SDK, the
 * mock and the OpenAPI document share: `http` or `https` in any case, `://`, a host (a name
 * whose last label is not a number, an IPv4 address, or a bracketed IPv6 address), an optional
 * port up to 65535, then an optional path, query and fragment. Printable ASCII only (an IDN host
 * or a non-ASCII path must be sent in its encoded form), no user name or password, every `%`
 * the start of a two-hex-digit escape, no whitespace, control character or backslash. Every URL
 * it matches is an RFC 3986 URI that fetch can call.
 */
export const HTTP_URL_PATTERN: RegExp = /* @__PURE__ */ httpUrlPattern();

/** Builds {@link HTTP_URL_PATTERN}: in a function free of side effects, so a bundle that does not use the rule drops its text. */
/* @__NO_SIDE_EFFECTS__ */
function httpUrlPattern(): RegExp {
  return new RegExp(
    `^[Hh][Tt][Tt][Pp][Ss]?://(?:\\[(?:${IPV6})\\]|${IPV4}|${REG_NAME})(?::${PORT})?` +
      `(?:/(?:${PCHAR}|/)*)?(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`,
  );
}

/** Whether a code unit is printable ASCII (`!` to `~`). */
const isPrintableAscii = (code: number) => code > 0x20 && code < 0x7f;

/** The first character RFC 3986 allows nowhere in a URL (`%` and the brackets stand for themselves here). */
const URI_CHARACTERS = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]%]/;

/** The user info of an absolute URL's authority (what stands before an `@` in it), if any. */
const USER_INFO = /^[^:]*:\/\/[^/?#]*@/;

/**
 * The encoded form of a URL written with non-ASCII characters (`https://bücher.example/hook` →
 * `https://xn--bcher-kva.example/hook`), when the WHATWG parser can give one that passes the rule.
 */
function encodedForm(value: string): string | undefined {
  try {
    const { href } = new URL(value);
    return HTTP_URL_PATTERN.test(href) ? href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a string is not a webhook URL, in words after the field's name; `undefined` when it is one.
 * @param value - the string as sent
 */
function urlProblem(value: string): string | undefined {
  if (HTTP_URL_PATTERN.test(value)) return undefined;
  if (USER_INFO.test(value)) return "must not contain a user name or password (fetch cannot send them)";
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (isPrintableAscii(code)) continue;
    if (code < 0x80 && code !== 0x20) return "must not contain a control character";
    if (code < 0x80 || /\s/.test(value[i]!)) return "must not contain whitespace";
    const encoded = encodedForm(value);
    return encoded === undefined
      ? "must be printable ASCII: send a non-ASCII host or path in its encoded form (punycode, %XX escapes)"
      : `must be printable ASCII: send a non-ASCII host or path in its encoded form, here ${encoded}`;
  }
  const stray = URI_CHARACTERS.exec(value);
  if (stray !== null) {
    const escaped = `%${stray[0].charCodeAt(0).toString(16).toUpperCase()}`;
    return `must not contain ${JSON.stringify(stray[0])} (RFC 3986 does not allow it in a URL; send it escaped as ${escaped})`;
  }
  return "must be an absolute http or https URL: a host (not ending in a number unless an IPv4 address), a port of at most 65535, every % followed by two hex digits";
}

/**
 * An absolute `http` or `https` URL as accepted in a webhook subscription update (spec 4.3):
 * at most {@link MAX_URL_LENGTH} characters as sent and matching `HTTP_URL_PATTERN` (the rule above). The
 * value is checked on the raw string and kept exactly as sent: never trimmed, never normalized.
 * A refusal names its reason (a non-ASCII URL gets its encoded form suggested).
 */
export const HttpUrl = /* @__PURE__ */ z.string().check(
  z.maxLength(MAX_URL_LENGTH),
  z.check((context) => {
    const detail = urlProblem(context.value);
    if (detail !== undefined) context.issues.push({ code: "custom", message: detail, input: context.value, params: { code: "invalid_format" } });
  }),
);
