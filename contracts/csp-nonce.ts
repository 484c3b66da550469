import { createContext } from "react-router";

/**
 * The Content-Security-Policy nonce of the page being rendered: the Worker makes one per
 * request (worker/index.ts) and the console's server entry (app/entry.server.tsx) writes it
 * on every inline script React Router renders.
 */
export const cspNonceContext = createContext<string>();
