const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Decodes standard base64 (RFC 4648 §4, padding optional) into bytes.
 * @returns the bytes, or `undefined` when `text` is not base64
 * @internal
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * Encodes bytes as standard base64 with padding.
 * @internal
 */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
