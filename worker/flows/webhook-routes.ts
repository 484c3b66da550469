/**
 * `POST /webhooks/flows` (contract section 18): WhatsApp's calls to the booking Flow's
 * endpoint, at the edge. The signature is checked as the WhatsApp webhook's is, the request
 * decrypted here, its token's organization found (decision 0095) and the exchange handed to
 * that organization's store in one call; its answer is encrypted here. 421: not decryptable
 * (WhatsApp fetches the key again); 427: the token is not valid (unknown, used, older than 24 h).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppContext } from "../http/context";
import { AppError } from "../http/errors";
import { bodySignedByMeta } from "../meta/signed-body";
import { inOrganizationData } from "../stores/organization-parts";
import { StoreNotRegistered } from "../stores/registry";
import { encryptedRequest, flowExchange, type FlowAnswer } from "../../contracts/flows";
import { openRequest, sealResponse, UndecryptableRequest } from "./crypto";
import { organizationOfToken } from "./token-shape";

/** A Flow request is a few kilobytes; anything this big is not WhatsApp's. */
const MAX_REQUEST_BYTES = 64 * 1024;

const NOT_DECRYPTABLE = 421;
const TOKEN_NOT_VALID = 427;

/** What WhatsApp shows the customer with a 427 (Meta's `error_msg`). */
const TOKEN_NOT_VALID_TEXT =
  "Este formulario de reserva ya no es válido. Pide a la empresa uno nuevo para reservar tu cita.";

const notConfigured = () =>
  new AppError(
    503,
    "flows_not_configured",
    "Falta FLOWS_PRIVATE_KEY: el formulario de reservas de WhatsApp no está disponible.",
  );

export const flowWebhookRoutes = new Hono<AppContext>().post(
  "/",
  bodyLimit({ maxSize: MAX_REQUEST_BYTES }),
  async (c) => {
    const raw = await bodySignedByMeta(c);
    const privateKey = c.env.FLOWS_PRIVATE_KEY;
    if (!privateKey) throw notConfigured();

    const undecryptable = () => c.body(null, NOT_DECRYPTABLE);
    let envelope;
    try {
      envelope = encryptedRequest.safeParse(JSON.parse(new TextDecoder().decode(raw)));
    } catch {
      return undecryptable();
    }
    if (!envelope.success) return undecryptable();
    let opened;
    try {
      opened = await openRequest(envelope.data, privateKey);
    } catch (error) {
      if (error instanceof UndecryptableRequest) return undecryptable();
      throw error;
    }
    const parsed = flowExchange.safeParse(opened.payload);
    if (!parsed.success) return undecryptable();
    const exchange = parsed.data;

    const sealed = async (answer: FlowAnswer) =>
      c.body(await sealResponse(answer, opened), 200, { "Content-Type": "text/plain" });
    if (exchange.action === "ping") {
      return sealed({ version: exchange.version, data: { status: "active" } });
    }
    if (exchange.data && "error" in exchange.data) {
      // WhatsApp tells the endpoint what went wrong on its side (a screen it could not show).
      console.warn("flows: error notification", {
        action: exchange.action,
        screen: exchange.screen,
        error: exchange.data.error,
        error_message: exchange.data.error_message,
      });
      return sealed({ version: exchange.version, data: { acknowledged: true } });
    }
    // Meta's 427 carries `error_msg`, which WhatsApp shows the customer.
    const invalidToken = () =>
      c.json({ error_msg: TOKEN_NOT_VALID_TEXT }, TOKEN_NOT_VALID as ContentfulStatusCode);
    const organizationId = organizationOfToken(exchange.flow_token ?? "");
    if (!organizationId) return invalidToken();
    let outcome;
    try {
      outcome = await inOrganizationData(c.var.deps, organizationId, {
        kind: "flow-exchange",
        exchange,
      });
    } catch (error) {
      // An organization that does not exist (or no longer does) holds no token.
      if (error instanceof StoreNotRegistered) return invalidToken();
      throw error;
    }
    if ("invalidToken" in outcome) return invalidToken();
    return sealed(outcome.answer);
  },
);
