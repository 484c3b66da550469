/**
 * The store's copy of its organization's global facts (decision 0136): kept in its storage, so a
 * store woken by a request answers from it, and trusted only while no newer version is known.
 * - A request or a delivery hands the version the edge read in its one trip: a copy at least as
 *   new is used as it is (no trip), an older one is read again (one trip).
 * - Work without one (an AI answer, a job) uses the copy only if this wake has read it or seen
 *   it confirmed and no newer version has been handed since; otherwise it reads again.
 * - The store's own code that changes the facts in D1 calls `forget` (StoreDeps.factsChanged),
 *   so the same request or run never sends with what it just replaced.
 */
import type { Db } from "../worker/db/client";
import { readOrganizationFacts, type OrganizationFacts } from "./organization-facts";

const FACTS_KEY = "organization-facts";

export class FactsKeeper {
  /** The copy; undefined until read from storage this wake. */
  private kept: OrganizationFacts | null | undefined;
  /** The copy was read from D1 or confirmed by a handed version during this wake. */
  private confirmed = false;
  /** The newest version handed to the store during this wake. */
  private newestHanded = 0;
  /** Moved by `forget`: a read begun before it must not become the copy. */
  private generation = 0;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** A version the edge read in its trip, handed with a request or a delivery. */
  handed(version: number) {
    this.newestHanded = Math.max(this.newestHanded, version);
  }

  /** The facts, from the copy when it can be trusted, else from D1 (one trip). */
  async facts(db: Db, organizationId: string, handed?: number): Promise<OrganizationFacts> {
    if (handed !== undefined) this.handed(handed);
    this.kept ??= (await this.storage.get<OrganizationFacts>(FACTS_KEY)) ?? null;
    const kept = this.kept;
    if (kept && kept.version >= this.newestHanded && (handed !== undefined || this.confirmed)) {
      this.confirmed = true;
      return kept;
    }
    const generation = this.generation;
    const read = await readOrganizationFacts(db, organizationId);
    // Begun before the store changed its facts: used by its own work, never kept.
    if (generation !== this.generation) return read;
    // Another read finished first with newer facts: those stay.
    if (this.kept && this.kept.version > read.version) return this.kept;
    this.kept = read;
    this.confirmed = true;
    await this.storage.put(FACTS_KEY, read);
    return read;
  }

  /** The store changed its facts in D1: the copy is dropped and read again at next need. */
  async forget() {
    this.kept = null;
    this.confirmed = false;
    this.generation++;
    await this.storage.delete(FACTS_KEY);
  }
}
