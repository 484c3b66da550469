/** Where the API is mounted, at the edge as in the store. A leaf: it imports nothing. */
export const API_BASE = "/api/v1";
