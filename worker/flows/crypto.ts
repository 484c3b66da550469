/**
 * The Flow endpoint's encryption (contract section 18, Meta's "Implementing endpoints for
 * Flows"): WhatsApp encrypts each request with a fresh AES-128-GCM key, itself encrypted with
 * the number's registered RSA-2048 public key (RSA-OAEP, SHA-256); the answer goes back under
 * the same AES key with the request's IV inverted (every byte XOR 0xFF). WebCrypto only, so it
 * runs in workerd as it does in the tests.
 */

/** What one request carries (all base64), as WhatsApp posts it. */
export interface EncryptedRequest {
  encrypted_flow_data: string;
  encrypted_aes_key: string;
  initial_vector: string;
}

/** A decrypted request: its JSON, and what its answer must be encrypted with. */
export interface OpenedRequest {
  payload: unknown;
  aesKey: CryptoKey;
  iv: Uint8Array<ArrayBuffer>;
}

/** The request could not be decrypted: WhatsApp is answered 421 and fetches the key again. */
export class UndecryptableRequest extends Error {}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export const toBase64 = (bytes: ArrayBuffer | Uint8Array) => {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (let i = 0; i < view.length; i += 0x8000) {
    binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  }
  return btoa(binary);
};

/**
 * A PEM's DER bytes. `.dev.vars` and secrets may keep a PEM on one line with its line breaks
 * written `\n`: both read the same.
 */
function pemBytes(pem: string) {
  const body = pem
    .replaceAll("\\n", "\n")
    .replace(/-----(BEGIN|END) [A-Z ]+-----/g, "")
    .replace(/\s+/g, "");
  return fromBase64(body);
}

const OAEP = { name: "RSA-OAEP", hash: "SHA-256" } as const;

/** Imported once per key for the isolate's life (an RSA import costs more than a decryption). */
const privateKeys = new Map<string, Promise<CryptoKey>>();

function privateKey(pem: string) {
  let key = privateKeys.get(pem);
  if (!key) {
    key = crypto.subtle.importKey("pkcs8", pemBytes(pem), OAEP, false, ["decrypt"]);
    // A key that does not import is not kept: the next request tries again (and fails alike).
    key.catch(() => privateKeys.delete(pem));
    privateKeys.set(pem, key);
  }
  return key;
}

/** The public half of `FLOWS_PRIVATE_KEY`, as the PEM (SPKI) Meta registers on a number. */
export async function publicKeyPem(privatePem: string) {
  const full = await crypto.subtle.importKey("pkcs8", pemBytes(privatePem), OAEP, true, [
    "decrypt",
  ]);
  const { kty, n, e } = (await crypto.subtle.exportKey("jwk", full)) as JsonWebKey;
  const pub = await crypto.subtle.importKey("jwk", { kty, n, e, alg: "RSA-OAEP-256" }, OAEP, true, [
    "encrypt",
  ]);
  const spki = toBase64((await crypto.subtle.exportKey("spki", pub)) as ArrayBuffer);
  const lines = spki.match(/.{1,64}/g)!.join("\n");
  return `-----BEGIN PUBLIC KEY-----\n${lines}\n-----END PUBLIC KEY-----\n`;
}

/** Decrypts a request with the private key; anything that does not open is `UndecryptableRequest`. */
export async function openRequest(
  request: EncryptedRequest,
  privatePem: string,
): Promise<OpenedRequest> {
  try {
    const rawKey = await crypto.subtle.decrypt(
      OAEP,
      await privateKey(privatePem),
      fromBase64(request.encrypted_aes_key),
    );
    const aesKey = await crypto.subtle.importKey("raw", rawKey, "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
    const iv = fromBase64(request.initial_vector);
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv },
      aesKey,
      fromBase64(request.encrypted_flow_data),
    );
    return { payload: JSON.parse(new TextDecoder().decode(plain)), aesKey, iv };
  } catch {
    throw new UndecryptableRequest();
  }
}

/** The request's IV with every byte inverted: the answer's IV. */
export const invertedIv = (iv: Uint8Array) => Uint8Array.from(iv, (byte) => byte ^ 0xff);

/** The answer's body: base64 of the ciphertext followed by its 16-byte tag (WebCrypto's output). */
export async function sealResponse(answer: unknown, { aesKey, iv }: OpenedRequest) {
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv: invertedIv(iv) },
    aesKey,
    new TextEncoder().encode(JSON.stringify(answer)),
  );
  return toBase64(sealed);
}
