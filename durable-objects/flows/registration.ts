/**
 * The booking Flow on the organization's WhatsApp account (contract section 18, decision
 * 0097): the public half of `FLOWS_PRIVATE_KEY` registered on the number, the Flow created on
 * the account (once: its id is kept), its Flow JSON uploaded and the Flow published. Run after a
 * number is connected, and again when an owner or admin asks; a failure is remembered in
 * Spanish (and never fails the connection), and what succeeded is kept for the next run.
 */
import { eq } from "drizzle-orm";
import { bookingFlows } from "../schema";
import { flowEndpointUrl } from "../../worker/http/callback-urls";
import type { StoreDeps } from "../../worker/http/deps";
import { GraphError } from "../meta/errors";
import type { GraphClient } from "../meta/graph";
import type { BookingFlowState } from "../../contracts/flows";
import { publicKeyPem } from "../../worker/flows/crypto";
import { BOOKING_FLOW_JSON } from "./flow-json";

type BookingFlowRow = typeof bookingFlows.$inferSelect;

/** Where the Flow goes: the connected number and its account, and Graph acting for it. */
export interface FlowTarget {
  phoneNumberId: string;
  wabaId: string;
  graph: GraphClient;
}

const NO_KEY =
  "Falta FLOWS_PRIVATE_KEY en la configuración del servidor: el formulario de reservas no se puede registrar.";
const BAD_KEY =
  "FLOWS_PRIVATE_KEY no es una clave RSA privada válida (PEM, PKCS#8): el formulario de reservas no se puede registrar.";
const UNEXPECTED = "No se pudo registrar el formulario de reservas por un error inesperado.";
const NO_PUBLIC_URL =
  "Falta PUBLIC_APP_URL en la configuración del servidor: WhatsApp no sabría dónde pedir los horarios.";

export const toFlowState = (row: BookingFlowRow | undefined): BookingFlowState => ({
  flow_id: row?.flowId ?? null,
  published: row?.published ?? false,
  error: row?.error ?? null,
});

export async function readBookingFlow(deps: StoreDeps, organizationId: string) {
  const [row] = await deps.orgDb
    .select()
    .from(bookingFlows)
    .where(eq(bookingFlows.organizationId, organizationId));
  return row;
}

async function saveBookingFlow(
  deps: StoreDeps,
  organizationId: string,
  values: Partial<Omit<BookingFlowRow, "organizationId" | "updatedAt">>,
) {
  const updatedAt = new Date().toISOString();
  const [row] = await deps.orgDb
    .insert(bookingFlows)
    .values({ organizationId, ...values, updatedAt })
    .onConflictDoUpdate({ target: bookingFlows.organizationId, set: { ...values, updatedAt } })
    .returning();
  return row!;
}

/** The Flow's name on the account: one per organization (several may share an account). */
const flowName = (organizationId: string) => `Reservar cita ${organizationId.slice(-12)}`;

/**
 * Registers the key, creates the Flow (unless it has one), uploads its Flow JSON and publishes
 * it; answers the state kept. Meta's refusal is kept as the error, in Spanish.
 */
export async function registerBookingFlow(
  deps: StoreDeps,
  organizationId: string,
  { phoneNumberId, wabaId, graph }: FlowTarget,
): Promise<BookingFlowState> {
  const current = await readBookingFlow(deps, organizationId);
  const failed = async (error: string) =>
    toFlowState(await saveBookingFlow(deps, organizationId, { error }));
  const privateKey = deps.env.FLOWS_PRIVATE_KEY;
  if (!privateKey) return failed(NO_KEY);
  if (!deps.env.PUBLIC_APP_URL) return failed(NO_PUBLIC_URL);
  const endpointUri = flowEndpointUrl(deps.env);
  // A number registered by an earlier run is registered again: the key is the number's.
  let flowId = current?.flowId ?? null;
  let published = current?.published ?? false;
  let publicKey: string;
  try {
    publicKey = await publicKeyPem(privateKey);
  } catch {
    return failed(BAD_KEY);
  }
  try {
    await graph.setFlowsPublicKey(phoneNumberId, publicKey);
    await saveBookingFlow(deps, organizationId, { phoneNumberId });
    if (!flowId) {
      flowId = (
        await graph.createFlow(wabaId, {
          name: flowName(organizationId),
          categories: ["APPOINTMENT_BOOKING"],
          endpointUri,
        })
      ).id;
      await saveBookingFlow(deps, organizationId, { flowId, published: false });
    }
    if (!published) {
      const uploaded = await graph.uploadFlowJson(flowId, BOOKING_FLOW_JSON);
      if (uploaded.validation_errors?.length) {
        console.warn("flows: validation errors", JSON.stringify(uploaded.validation_errors));
        return failed("Meta rechazó el formulario de reservas (errores de validación).");
      }
      await graph.publishFlow(flowId);
      published = true;
    }
    return toFlowState(
      await saveBookingFlow(deps, organizationId, { flowId, published, error: null }),
    );
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    console.warn("flows: registration failed", error.code, error.providerMessage);
    return failed(error.message);
  }
}

/**
 * Registration right after a number is connected: whatever happens, the connection stands; a
 * failure is remembered for the console and the owner's next try.
 */
export async function registerAfterConnecting(
  deps: StoreDeps,
  organizationId: string,
  target: FlowTarget,
) {
  try {
    await registerBookingFlow(deps, organizationId, target);
  } catch (error) {
    console.error("flows: registration after connecting failed", error);
    await saveBookingFlow(deps, organizationId, { error: UNEXPECTED });
  }
}

/** The published Flow's id when it can be sent from this number (null: send the list). */
export async function availableFlow(
  deps: StoreDeps,
  organizationId: string,
  phoneNumberId: string,
) {
  const row = await readBookingFlow(deps, organizationId);
  if (!row?.published || !row.flowId || row.phoneNumberId !== phoneNumberId) return null;
  return row.flowId;
}
