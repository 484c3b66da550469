/**
 * The store's route table as the edge reads it (decision 0143): which organization routes
 * exist and each one's handlers, so that their marks can be read without running them. The
 * tenant-isolation walk reads the same table.
 */
import type { Context } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { organizationApi } from "../../durable-objects/store-api";
import { API_BASE } from "../http/api-base";
import type { AppContext, OrganizationRouteMarks } from "../http/context";
import { marksOf } from "../http/route-marks";

/** One handler of an organization route: its method, its path under `API_BASE`, the handler. */
export type OrganizationRouteHandler = (typeof organizationApi.routes)[number];

/** Every handler of every organization route (the middleware of all methods aside). */
export const organizationRouteHandlers = organizationApi.routes.filter(
  (route) => route.method !== "ALL",
);

const table = new TrieRouter<OrganizationRouteHandler>();
for (const route of organizationRouteHandlers) table.add(route.method, route.path, route);

/**
 * The handlers of the organization route that serves a request, by its method (HEAD as GET) and
 * its path under `API_BASE`; none when there is no such route. Of several routes whose paths
 * match (`/conversations/stats` and `/conversations/:id`), the store serves the first one
 * registered, so only its handlers, and only its marks, count.
 */
export function organizationRouteMatch(method: string, path: string): OrganizationRouteHandler[] {
  const [matches] = table.match(method === "HEAD" ? "GET" : method, path);
  const serving = matches[0]?.[0].path;
  return matches.map(([route]) => route).filter((route) => route.path === serving);
}

/**
 * The marks of the organization route a request names, or null when it names none; matched
 * once per request (the body limit and the one door both ask).
 */
export function organizationRouteMarks(c: Context<AppContext>): OrganizationRouteMarks | null {
  const known = c.get("organizationRoute");
  if (known !== undefined) return known;
  const { method, path } = c.req;
  const matched = path.startsWith(API_BASE)
    ? organizationRouteMatch(method, path.slice(API_BASE.length))
    : [];
  const found = matched.length > 0 ? marksOf(matched.map((route) => route.handler)) : null;
  c.set("organizationRoute", found);
  return found;
}
