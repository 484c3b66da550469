/**
 * Headers every page carries. Scripts run only from the app's origin, from the Facebook SDK
 * (Settings > Meta Business, the only third-party script) and, inline, only the ones React
 * Router writes into the page, named one by one: by a nonce fresh for every rendered page, or
 * by their SHA-256 hashes in the prerendered landing page, a static file that cannot carry a
 * per-request nonce (docs/decisions/0019). Styles keep 'unsafe-inline': server-rendered
 * `style` attributes (progress bars) and the toasts' own <style> element need it, and a style
 * cannot run code. The Facebook SDK's login popup and Embedded Signup frames come from
 * facebook.com.
 */
function contentSecurityPolicy(scriptSources: readonly string[], socketOrigin?: string) {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources, "https://connect.facebook.net"].join(" "),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    // 'self' covers the page's own ws:/wss: origin in CSP Level 3 browsers; the socket's
    // origin is named too where it is known, for the browsers that still read 'self' strictly.
    ["connect-src 'self'", socketOrigin, "https://*.facebook.com https://connect.facebook.net"]
      .filter(Boolean)
      .join(" "),
    "frame-src https://*.facebook.com",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const SECURITY_HEADERS: Record<string, string> = {
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

/** 128 random bits, base64: the nonce of one rendered page. */
export function newCspNonce() {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** A copy of a rendered page with the security headers; its inline scripts carry `nonce`. */
export function withSecurityHeaders(response: Response, nonce: string, pageUrl: string) {
  const { protocol, host } = new URL(pageUrl);
  const socketOrigin = `${protocol === "https:" ? "wss:" : "ws:"}//${host}`;
  const secured = new Response(response.body, response);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) secured.headers.set(name, value);
  secured.headers.set(
    "Content-Security-Policy",
    contentSecurityPolicy([`'nonce-${nonce}'`], socketOrigin),
  );
  return secured;
}

/**
 * The assets' `_headers` file: the same headers for every static file, the prerendered pages'
 * inline scripts allowed by their `sha256-…` hashes (base64 digests).
 */
export function staticHeadersFile(scriptHashes: readonly string[]) {
  const headers = {
    "Content-Security-Policy": contentSecurityPolicy(scriptHashes.map((h) => `'sha256-${h}'`)),
    ...SECURITY_HEADERS,
  };
  const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
  return `/*\n${lines.join("\n")}\n`;
}
