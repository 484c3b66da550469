/**
 * Which organizations a person has been part of or invited to (`organization_people`, decision
 * 0053): the organizations whose data may name them. A store cannot be searched from outside,
 * so an account's export and deletion visit exactly these, wherever each one's data is.
 */
import { eq, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { organizationPeople } from "../db/global-schema";

/** Who: a member by their account, someone invited by their e-mail. */
type Someone = { userId: string } | { email: string };

/**
 * The statement recording that the organization has had this person, for the batch that makes
 * them a member or invites them; a second time changes nothing.
 */
export const rememberPerson = (db: Db, organizationId: string, someone: Someone) =>
  db
    .insert(organizationPeople)
    .values({ organizationId, ...someone })
    .onConflictDoNothing();

const naming = (person: { id: string; email: string }) =>
  or(eq(organizationPeople.userId, person.id), eq(organizationPeople.email, person.email));

/** The organizations that have had the person, by their account or their e-mail. */
export async function organizationsOf(db: Db, person: { id: string; email: string }) {
  const rows = await db
    .selectDistinct({ organizationId: organizationPeople.organizationId })
    .from(organizationPeople)
    .where(naming(person));
  return rows.map((row) => row.organizationId);
}

/** The statement removing what names the person here, for their account's deletion. */
export const forgetPersonAmongPeople = (db: Db, person: { id: string; email: string }) =>
  db.delete(organizationPeople).where(naming(person));
