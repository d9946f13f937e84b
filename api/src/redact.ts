// Strips credentials from URLs before they reach a response or a log line: user info, query values, key-like paths.

/** What replaces a credential. Plain ASCII, so it reads the same in JSON, HTML and a terminal. */
export const REDACTED = "***";

/**
 * A path segment at least this long is treated as a key: provider keys are 32 (Infura, Alchemy) to 64 (Ankr)
 * characters, while the names RPC providers put in paths ("eth-mainnet", "rpc", "v3") are short.
 */
const KEY_SEGMENT_LENGTH = 20;
/** A shorter segment with a digit in it is a key too (QuickNode and Chainstack tokens, UUIDs), unless it is tiny. */
const DIGIT_KEY_SEGMENT_LENGTH = 12;

/**
 * URLs with a scheme that can carry credentials, found in free text (error messages, stack traces, serialised log
 * lines). The scheme is a fixed list, so a search over a long run of letters stays linear; the URL ends at white
 * space, a quote, a backslash (JSON escapes) or an angle bracket.
 */
const URL_IN_TEXT = /\b(?:https?|wss?|postgres(?:ql)?):\/\/[^\s"'`<>\\]+/gi;

/**
 * The URL with its credentials replaced: user and password, every query value (and any key-like query name), the
 * fragment, and path segments that look like provider keys (any segment after a version segment such as Infura's
 * `/v3/<key>` or Alchemy's `/v2/<key>`, and long or digit-bearing tokens). Scheme, host, port and plain path words
 * stay, so an operator can still tell which endpoint failed. A string that does not parse as a URL comes back as
 * REDACTED: what part of it is a secret cannot be told.
 */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return REDACTED;
  }
  const userInfo = url.username || url.password ? `${REDACTED}@` : "";
  const segments = url.pathname.split("/");
  const path = segments
    .map((segment, i) => (segment !== "" && (isVersionSegment(segments[i - 1] ?? "") || looksLikeKey(segment)) ? REDACTED : segment))
    .join("/");
  const query = [...url.searchParams.keys()]
    .map((name) => `${looksLikeKey(name) ? REDACTED : name}=${REDACTED}`)
    .join("&");
  const authority = url.host === "" ? "" : `//${userInfo}${url.host}`;
  return `${url.protocol}${authority}${path}${query ? `?${query}` : ""}${url.hash ? `#${REDACTED}` : ""}`;
}

/** `text` with every URL in it redacted (see redactUrl); text without "://" is returned as it is, at no cost. */
export function redactUrls(text: string): string {
  if (!text.includes("://")) return text;
  return text.replace(URL_IN_TEXT, (found) => redactUrl(found));
}

function isVersionSegment(segment: string): boolean {
  return segment.length >= 2 && segment.length <= 3 && (segment[0] === "v" || segment[0] === "V") && /^\d+$/.test(segment.slice(1));
}

function looksLikeKey(segment: string): boolean {
  if (segment.length >= KEY_SEGMENT_LENGTH) return true;
  return segment.length >= DIGIT_KEY_SEGMENT_LENGTH && /\d/.test(segment);
}
