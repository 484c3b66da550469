// The edge reads the store's route table to know which organization route a request names and
// what that route asks of it (its marks: a tighter write window, the tracking key). Of several
// routes whose paths match one request, the store serves the first registered: the edge must
// read that route's marks alone, and no route may be hidden behind another's parameter.
import { describe, expect, it } from "vitest";
import {
  organizationRouteHandlers,
  organizationRouteMatch,
} from "../../worker/stores/organization-route-table";

/** A request's path for a route: each parameter given a value no static segment has. */
const pathOf = (route: string) => route.replace(/:[A-Za-z_]+/g, "p-1");

const routes = [
  ...new Map(
    organizationRouteHandlers
      .filter((route) => !route.path.includes("*"))
      .map((route) => [`${route.method} ${route.path}`, route]),
  ).values(),
];

describe("the store's route table, as the edge reads it", () => {
  it("serves each route's own path with that route alone", () => {
    expect(routes.length).toBeGreaterThan(100);
    const shadowed = routes.flatMap(({ method, path }) => {
      const served = organizationRouteMatch(method, pathOf(path));
      const others = [...new Set(served.map((route) => route.path))].filter((p) => p !== path);
      return others.length > 0 || served.length === 0 ? [`${method} ${path} -> ${others}`] : [];
    });
    expect(shadowed).toEqual([]);
  });

  it("answers a static path beside a parameter route with the static route's handlers", () => {
    // `/conversations/stats` also matches `/conversations/:id`: only the first is served.
    const served = organizationRouteMatch("GET", "/conversations/stats");
    expect(new Set(served.map((route) => route.path))).toEqual(new Set(["/conversations/stats"]));
    expect(organizationRouteMatch("GET", "/conversations/p-1").map((r) => r.path)).toContain(
      "/conversations/:id",
    );
    expect(organizationRouteMatch("GET", "/no-such-thing")).toEqual([]);
  });
});
