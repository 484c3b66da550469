/**
 * Credentials at rest (access tokens, registration PINs) are AES-GCM ciphertext under
 * ENCRYPTION_KEY: "v1.<iv base64>.<ciphertext base64>". They are never returned by the API.
 */
import { AppError } from "../../worker/http/errors";

const IV_BYTES = 12;

async function importKey(base64Key: string | undefined) {
  const raw = base64Key ? Uint8Array.from(atob(base64Key), (c) => c.charCodeAt(0)) : null;
  if (!raw || raw.length !== 32) {
    throw new AppError(
      500,
      "configuration_error",
      "Falta configurar ENCRYPTION_KEY (32 bytes en base64) en el servidor.",
    );
  }
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export async function encryptSecret(plain: string, base64Key: string | undefined) {
  const key = await importKey(base64Key);
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    key,
    new TextEncoder().encode(plain),
  );
  return `v1.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

export async function decryptSecret(sealed: string, base64Key: string | undefined) {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("unknown secret format");
  const key = await importKey(base64Key);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(iv) },
    key,
    fromBase64(data),
  );
  return new TextDecoder().decode(plain);
}
