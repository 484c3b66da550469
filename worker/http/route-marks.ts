/**
 * Marks on a route (decisions 0143, 0146): steps that only pass the request on, there so that
 * the edge, which never runs an organization's handlers, can read from a route's handlers what
 * the route asks of it (a tighter write window, no write count, the tracking key).
 */
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";

/** A step that does nothing but carry its name for `marksOf`. */
export type RouteMark = MiddlewareHandler & { readonly markName: string };

/** Every mark `routeMark` made: only those count among a route's handlers. */
const marks = new WeakSet<object>();

/** A mark named `markName`, for a route to list among its handlers. */
export function routeMark(markName: string): RouteMark {
  const mark = Object.assign(
    createMiddleware(async (_c, next) => {
      await next();
    }),
    { markName },
  );
  marks.add(mark);
  return mark;
}

const isRouteMark = (handler: unknown): handler is RouteMark =>
  typeof handler === "function" && marks.has(handler);

/** The names of the marks among a route's handlers. */
export function marksOf(handlers: readonly unknown[]): ReadonlySet<string> {
  return new Set(handlers.filter(isRouteMark).map((mark) => mark.markName));
}
