/** Imported once per secret for the isolate's life; importing costs as much as verifying. */
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(appSecret: string) {
  let key = keys.get(appSecret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(appSecret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    keys.set(appSecret, key);
  }
  return key;
}

/** `X-Hub-Signature-256: sha256=<hex>` = HMAC-SHA256 of the raw body with the app secret. */
export async function isValidSignature(
  rawBody: ArrayBuffer,
  header: string | undefined,
  appSecret: string | undefined,
): Promise<boolean> {
  if (!appSecret || !header) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  return isHmacSha256(appSecret, rawBody, match[1]!);
}

/**
 * Whether `hex` is the HMAC-SHA256 of `data` with `secret` (also the payment providers'
 * webhook signatures, durable-objects/payments/webhooks.ts); subtle.verify compares in constant time.
 */
export async function isHmacSha256(secret: string, data: BufferSource, hex: string) {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const signature = Uint8Array.from(hex.match(/../g)!, (byte) => parseInt(byte, 16));
  return crypto.subtle.verify("HMAC", await hmacKey(secret), signature, data);
}
