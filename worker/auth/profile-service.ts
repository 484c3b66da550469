import { eq } from "drizzle-orm";
import { recordAccountAudit } from "../audit/trail";
import { users } from "../db/global-schema";
import { unauthorized } from "../http/errors";
import type { Caller } from "../http/context";
import type { Deps } from "../http/deps";
import type { Profile, ProfileUpdateInput } from "../../contracts/auth";

type UserRow = typeof users.$inferSelect;

const toProfile = (row: UserRow): Profile => ({
  id: row.id,
  full_name: row.fullName,
  email: row.email,
});

export async function getProfile({ db }: Deps, caller: Caller): Promise<Profile> {
  const row = await db.query.users.findFirst({ where: eq(users.id, caller.userId) });
  if (!row) throw unauthorized();
  return toProfile(row);
}

export async function updateProfile(
  { db }: Deps,
  caller: Caller,
  input: ProfileUpdateInput,
): Promise<Profile> {
  const [row] = await db
    .update(users)
    .set({ fullName: input.full_name, updatedAt: new Date().toISOString() })
    .where(eq(users.id, caller.userId))
    .returning();
  if (!row) throw unauthorized();
  await recordAccountAudit(db, { action: "profile.update", userId: caller.userId, ip: caller.ip });
  return toProfile(row);
}
