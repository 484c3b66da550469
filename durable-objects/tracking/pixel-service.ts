import { eq } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import { metaConnections, oauthExchanges } from "../../worker/db/global-schema";
import type { Member } from "../../worker/http/context";
import type { Deps, StoreDeps } from "../../worker/http/deps";
import { AppError, notFound } from "../../worker/http/errors";
import { metaGraph } from "../meta/graph";
import { GraphError, metaFailure } from "../meta/errors";
import { tokenForCode } from "../whatsapp/oauth-service";
import { decryptSecret, encryptSecret } from "../meta/secrets";
import type { z } from "zod/mini";
import type {
  PixelConfig,
  PixelTestResult,
  TestConversionResult,
  facebookConversionsInput,
} from "../../contracts/pixel";

type PixelRow = typeof metaConnections.$inferSelect;

const toConfig = (row: PixelRow): PixelConfig => ({
  id: row.id,
  pixel_id: row.pixelId,
  ad_account_id: row.adAccountId,
  status: row.status,
  test_event_code: row.testEventCode,
  created_at: row.createdAt,
});

const pixelNotConnected = () =>
  notFound("El Pixel de Meta no está conectado en esta organización.");

/** The organization's pixel, from the facts its store keeps (decision 0136): no D1 trip. */
const findPixel = async (deps: StoreDeps) => (await deps.facts()).pixel;

/** The organization's pixel, or the Spanish 404 when none is connected. */
async function connectedPixel(deps: StoreDeps) {
  const row = await findPixel(deps);
  if (!row) throw pixelNotConnected();
  return row;
}

/** The Graph client acting for the organization's pixel, or null when none is connected. */
export async function pixelSender(deps: StoreDeps) {
  const row = await findPixel(deps);
  if (!row) return null;
  const token = await decryptSecret(row.accessTokenEncrypted, deps.env.ENCRYPTION_KEY);
  return { row, graph: metaGraph(deps.env, token) };
}

async function pixelGraph(deps: StoreDeps) {
  const sender = await pixelSender(deps);
  if (!sender) throw pixelNotConnected();
  return sender;
}

async function store(
  deps: StoreDeps,
  member: Member,
  pixelId: string,
  token: string,
  adAccountId: string | null,
) {
  const now = new Date().toISOString();
  const values = {
    organizationId: member.organizationId,
    pixelId,
    adAccountId,
    accessTokenEncrypted: await encryptSecret(token, deps.env.ENCRYPTION_KEY),
    status: "connected" as const,
    updatedAt: now,
  };
  const [row] = await deps.db
    .insert(metaConnections)
    .values(values)
    .onConflictDoUpdate({ target: metaConnections.organizationId, set: values })
    .returning();
  await deps.factsChanged();
  await recordAudit(deps.orgDb, {
    action: "pixel.connect",
    organizationId: member.organizationId,
    userId: member.userId,
    target: pixelId,
    ip: member.ip,
  });
  return toConfig(row!);
}

export async function getPixelConfig(deps: StoreDeps) {
  return toConfig(await connectedPixel(deps));
}

/** Connects a pixel by hand: the token must reach it. */
export async function savePixelConfig(
  deps: StoreDeps,
  member: Member,
  input: { pixel_id: string; access_token: string },
) {
  try {
    await metaGraph(deps.env, input.access_token).getPixel(input.pixel_id);
  } catch (error) {
    throw metaFailure(error);
  }
  return store(deps, member, input.pixel_id, input.access_token, null);
}

export async function updatePixelConfig(
  deps: StoreDeps,
  member: Member,
  input: { pixel_id?: string; access_token?: string },
) {
  const row = await connectedPixel(deps);
  const token =
    input.access_token ?? (await decryptSecret(row.accessTokenEncrypted, deps.env.ENCRYPTION_KEY));
  return savePixelConfig(deps, member, {
    pixel_id: input.pixel_id ?? row.pixelId,
    access_token: token,
  });
}

export async function deletePixelConfig(deps: StoreDeps, member: Member) {
  const deleted = await deps.db
    .delete(metaConnections)
    .where(eq(metaConnections.organizationId, member.organizationId))
    .returning({ pixelId: metaConnections.pixelId });
  if (deleted.length === 0) throw pixelNotConnected();
  await deps.factsChanged();
  await recordAudit(deps.orgDb, {
    action: "pixel.disconnect",
    organizationId: member.organizationId,
    userId: member.userId,
    target: deleted[0]!.pixelId,
    ip: member.ip,
  });
}

/**
 * Connect with the Facebook Login code (shared with the WhatsApp exchange): the first ad
 * account's first pixel. With a pixel id, the organization's existing Meta token is used.
 */
export async function connectPixel(
  deps: StoreDeps,
  member: Member,
  input: { code: string } | { pixel_id: string },
) {
  const token =
    "code" in input
      ? await tokenForCode(deps, member.organizationId, input.code)
      : await existingToken(deps, member);
  const graph = metaGraph(deps.env, token);
  try {
    if ("pixel_id" in input) {
      await graph.getPixel(input.pixel_id);
      return { pixel_id: (await store(deps, member, input.pixel_id, token, null)).pixel_id };
    }
    const accounts = await graph.listAdAccounts();
    for (const account of accounts.data) {
      const pixels = await graph.listPixels(account.id);
      const pixel = pixels.data[0];
      if (pixel)
        return { pixel_id: (await store(deps, member, pixel.id, token, account.id)).pixel_id };
    }
  } catch (error) {
    throw metaFailure(error);
  }
  throw new AppError(
    404,
    "no_pixel_found",
    "No se encontró ningún pixel en tus cuentas publicitarias de Meta.",
  );
}

/** The token of the organization's last Facebook Login (pixel or WhatsApp connection). */
async function existingToken(deps: StoreDeps, member: Member) {
  const { pixel, connection } = await deps.facts();
  const sealed = pixel?.accessTokenEncrypted ?? connection?.accessTokenEncrypted;
  if (!sealed) {
    const exchange = await deps.db.query.oauthExchanges.findFirst({
      where: eq(oauthExchanges.organizationId, member.organizationId),
    });
    if (!exchange?.accessTokenEncrypted) {
      throw new AppError(
        422,
        "no_token",
        "Conecta primero con Meta Business o indica un token de acceso.",
      );
    }
    return decryptSecret(exchange.accessTokenEncrypted, deps.env.ENCRYPTION_KEY);
  }
  return decryptSecret(sealed, deps.env.ENCRYPTION_KEY);
}

export async function testPixel(deps: StoreDeps): Promise<PixelTestResult> {
  const sender = await pixelSender(deps);
  if (!sender) return { success: false, error: "El Pixel de Meta no está conectado." };
  const { row, graph } = sender;
  try {
    const pixel = await graph.getPixel(row.pixelId);
    return { success: true, pixel_name: pixel.name ?? pixel.id };
  } catch (error) {
    if (error instanceof GraphError) return { success: false, error: error.message };
    throw error;
  }
}

export async function pixelInfo(deps: StoreDeps) {
  const { row, graph } = await pixelGraph(deps);
  try {
    return await graph.getPixel(row.pixelId);
  } catch (error) {
    throw metaFailure(error);
  }
}

export async function pixelStats(deps: StoreDeps) {
  const { row, graph } = await pixelGraph(deps);
  try {
    return await graph.getPixelStats(row.pixelId);
  } catch (error) {
    throw metaFailure(error);
  }
}

export async function adAccounts(deps: StoreDeps) {
  const { graph } = await pixelGraph(deps);
  try {
    return (await graph.listAdAccounts()).data;
  } catch (error) {
    throw metaFailure(error);
  }
}

/** A code for Meta's Test Events tab: conversions carry it until it is cleared. */
export async function generateTestCode(deps: StoreDeps) {
  const row = await connectedPixel(deps);
  const code = `TEST${crypto.getRandomValues(new Uint32Array(1))[0]! % 100_000}`;
  await deps.db
    .update(metaConnections)
    .set({ testEventCode: code })
    .where(eq(metaConnections.id, row.id));
  await deps.factsChanged();
  return { test_event_code: code };
}

/**
 * Sends one `Lead` with the organization's test event code (generated when missing), so the
 * business sees it arrive in Events Manager's Test Events tab without counting as a real lead.
 */
export async function sendTestConversion(
  deps: StoreDeps,
  visit: { userAgent: string | null; pageUrl: string },
): Promise<TestConversionResult> {
  const { row, graph } = await pixelGraph(deps);
  const testEventCode = row.testEventCode ?? (await generateTestCode(deps)).test_event_code;
  const event = {
    event_name: "Lead",
    event_time: Math.floor(Date.now() / 1000),
    event_id: crypto.randomUUID(),
    action_source: "website",
    event_source_url: visit.pageUrl,
    user_data: { client_user_agent: visit.userAgent ?? "Atiende (evento de prueba)" },
    custom_data: { currency: "EUR", value: 0 },
  };
  try {
    const answer = await graph.sendEvents(row.pixelId, [event], testEventCode);
    return {
      success: true,
      test_event_code: testEventCode,
      events_received: answer.events_received,
      fbtrace_id: answer.fbtrace_id ?? null,
    };
  } catch (error) {
    if (error instanceof GraphError)
      return { success: false, test_event_code: testEventCode, error: error.message };
    throw error;
  }
}

/**
 * `POST /tracking/facebook-conversions`: the caller's own events, to the pixel they name with
 * their own token; nothing of the member's organization is read.
 */
export async function forwardConversions(
  deps: Deps,
  _member: Member,
  input: z.output<typeof facebookConversionsInput>,
) {
  try {
    const graph = metaGraph(deps.env, input.access_token);
    const answer = await graph.sendEvents(input.pixel_id, input.events);
    return { events_received: answer.events_received, fbtrace_id: answer.fbtrace_id ?? null };
  } catch (error) {
    throw metaFailure(error);
  }
}
