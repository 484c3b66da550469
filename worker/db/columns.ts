/** The columns every table builds the same way, in D1's schema and in the store's. */
import { text } from "drizzle-orm/sqlite-core";
import { uuidv7 } from "./ids";

export const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => uuidv7());

export const createdAt = () =>
  text("created_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString());

export const updatedAt = () =>
  text("updated_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString());
