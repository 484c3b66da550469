// The local sandbox: WhatsApp traffic and AI replies without a Meta account.
//   npm run sandbox                      fakes of Meta's Graph API (:8788) and the model (:8789)
//   npm run sandbox -- connect <email> <password>   connects the sandbox number and pixel to your organization
//   npm run sandbox -- connect --app <email> <password>  the same number, kept in the WhatsApp Business app (contacts and history follow)
//   npm run sandbox -- connect --sin-numero <email> <password>     Embedded Signup v4 finished without a number (FINISH_ONLY_WABA)
//   npm run sandbox -- connect --sin-verificar <email> <password>  Embedded Signup v4 finished with a number not verified yet
//   npm run sandbox -- send <phone> <text...>       a customer writes to your number
//   npm run sandbox -- send-ad <phone> <text...>    a customer writes from a click-to-WhatsApp ad
//   npm run sandbox -- send-audio <phone> <words...> a voice note the fake model "hears" as those words
//   npm run sandbox -- send-username <bsuid> <username> <text...>  a customer with a WhatsApp username and no phone
//   npm run sandbox -- share-phone <bsuid> <phone>  that customer answers "Pedir teléfono" with their phone
//   npm run sandbox -- echo <phone> <text...>       the owner answers that customer from the WhatsApp Business app
//   npm run sandbox -- history <phone>              a chunk of the app's history with that customer
//   npm run sandbox -- standby <phone> <text...>    the customer writes while Meta's own AI holds the thread, and it answers
//   npm run sandbox -- connect-payments <email> <password> [stripe|mercadopago]  connects the fake payment provider
//   npm run sandbox -- pay [<payment id>]           the customer pays that payment link, else the last one sent (Stripe :8790 or Mercado Pago :8791)
//   npm run sandbox -- book <phone>                 the customer books through the booking Flow a person sent them
import { URLSearchParams } from "node:url";
import { existsSync, readFileSync, writeFileSync, copyFileSync } from "node:fs";
import { GRAPH_FIXTURES, holdFakeMedia, startFakeGraph } from "../tests/fakes/graph-server.mjs";
import { startFakeModel } from "../tests/fakes/model-server.mjs";
import { startFakeStripe } from "../tests/fakes/stripe-server.mjs";
import { startFakeMercadoPago } from "../tests/fakes/mercadopago-server.mjs";
import {
  ctwaReferral,
  delivery,
  historyChunk,
  inboundMessage,
  messageEcho,
  signPayload,
  standbyMessage,
} from "../tests/fakes/whatsapp-payloads.mjs";

const APP = process.env.APP_URL ?? "http://localhost:5173";
const GRAPH_PORT = 8788;
const MODEL_PORT = 8789;
const STRIPE_PORT = 8790;
const MERCADOPAGO_PORT = 8791;
/** The keys `connect-payments` gives the organization, and the fakes sign their events with. */
const SANDBOX_PAYMENTS = {
  stripe: { secret: "sk_test_sandbox", webhook_secret: "whsec_sandbox" },
  mercadopago: { secret: "APP_USR-sandbox", webhook_secret: "mp_sandbox_secret" },
};
/** The sandbox's click-to-WhatsApp ad, and what the fake ad account spent on it each day. */
const SANDBOX_AD = { adId: "120200000000001", headline: "Oferta de verano", dailySpend: 12.5 };
/** The sandbox number as Meta writes it in `from` of what the business sends (digits only). */
const BUSINESS_DIGITS = GRAPH_FIXTURES.displayPhoneNumber.replace(/\D/g, "");
/** Where every change the sandbox plays is addressed. */
const SANDBOX_NUMBER = {
  phoneNumberId: GRAPH_FIXTURES.phoneNumberId,
  wabaId: GRAPH_FIXTURES.wabaId,
  displayPhoneNumber: BUSINESS_DIGITS,
};
const SANDBOX_SETTINGS = {
  META_APP_ID: GRAPH_FIXTURES.appId,
  META_APP_SECRET: "sandbox-app-secret",
  META_WEBHOOK_VERIFY_TOKEN: "sandbox-verify-token",
  META_GRAPH_URL: `http://127.0.0.1:${GRAPH_PORT}/v25.0`,
  META_BUSINESS_API_URL: `http://127.0.0.1:${GRAPH_PORT}/business/whatsapp`,
  AI_BASE_URL: `http://127.0.0.1:${MODEL_PORT}/api/v1`,
  AI_API_KEY: "sandbox-key",
  META_SANDBOX: "true",
  STRIPE_API_URL: `http://127.0.0.1:${STRIPE_PORT}`,
  MERCADOPAGO_API_URL: `http://127.0.0.1:${MERCADOPAGO_PORT}`,
};

/** Points the console's .dev.vars at the fakes (keeping every other line). */
function configureDevVars() {
  if (!existsSync(".dev.vars")) copyFileSync(".dev.vars.example", ".dev.vars");
  const lines = readFileSync(".dev.vars", "utf8").split("\n");
  let changed = false;
  for (const [key, value] of Object.entries(SANDBOX_SETTINGS)) {
    const line = `${key}="${value}"`;
    const index = lines.findIndex((l) => l.startsWith(`${key}=`));
    if (index === -1) lines.push(line);
    else if (lines[index] !== line) lines[index] = line;
    else continue;
    changed = true;
  }
  if (changed) writeFileSync(".dev.vars", lines.join("\n"));
  return changed;
}

async function start() {
  const changed = configureDevVars();
  await startFakeGraph({
    port: GRAPH_PORT,
    appSecret: SANDBOX_SETTINGS.META_APP_SECRET,
    webhookUrl: `${APP}/webhooks/whatsapp`,
    autoStatuses: true,
    playAppData: true,
    statusDelayMs: 800,
    // The sandbox's account lists the booking reminder's template too (Agenda > Recordatorios).
    fullLists: [GRAPH_FIXTURES.wabaId],
    adInsights: Array.from({ length: 30 }, (_, daysAgo) => ({
      ad_id: SANDBOX_AD.adId,
      ad_name: SANDBOX_AD.headline,
      date: new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10),
      spend: SANDBOX_AD.dailySpend,
    })),
    // Service replies in Spain, at about Meta's 2026 rate, for the Anuncios tab and dashboard.
    pricing: Array.from({ length: 30 }, (_, daysAgo) => ({
      date: new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10),
      category: "service",
      country: "ES",
      volume: 40,
      cost: 40 * 0.0118,
    })),
  });
  await startFakeModel({ port: MODEL_PORT, apiKey: SANDBOX_SETTINGS.AI_API_KEY });
  // Their events reach the console signed with the keys `connect-payments` gives it.
  await startFakeStripe({
    port: STRIPE_PORT,
    webhookUrl: `${APP}/webhooks/payments/stripe`,
    webhookSecret: SANDBOX_PAYMENTS.stripe.webhook_secret,
  });
  await startFakeMercadoPago({
    port: MERCADOPAGO_PORT,
    webhookSecret: SANDBOX_PAYMENTS.mercadopago.webhook_secret,
    deliver: true,
  });
  console.log(`Sandbox en marcha:
  · Graph API de Meta (falsa): ${SANDBOX_SETTINGS.META_GRAPH_URL}
  · Modelo de IA (falso):      ${SANDBOX_SETTINGS.AI_BASE_URL}
  · Stripe (falso):            ${SANDBOX_SETTINGS.STRIPE_API_URL}
  · Mercado Pago (falso):      ${SANDBOX_SETTINGS.MERCADOPAGO_API_URL}
${changed ? "\n.dev.vars apunta ahora a la sandbox: reinicia `npm run dev` si ya estaba en marcha.\n" : ""}
Siguientes pasos, en otra terminal:
  1. npm run dev, regístrate en ${APP}/auth y completa la organización.
  2. npm run sandbox -- connect <email> <contraseña>   (o en Configuración > Meta Business: "Conectar con Meta Business")
     npm run sandbox -- connect --app <email> <contraseña>   (el número sigue en la app WhatsApp Business: llegan sus contactos y su historial)
     npm run sandbox -- connect --sin-numero <email> <contraseña>   (el registro de Meta terminó sin número: qué queda por hacer)
     npm run sandbox -- connect --sin-verificar <email> <contraseña>   (terminó con un número sin verificar)
  3. npm run sandbox -- send +34611222333 "Hola, ¿tenéis cita mañana?"
     npm run sandbox -- send-ad +34622333444 "Hola, ¿qué precio tiene?"   (desde un anuncio)
     npm run sandbox -- send-audio +34611222333 "¿Tenéis cita el jueves?"   (nota de voz)
     npm run sandbox -- send-username ES.1349120865 rosa.flores "Hola"   (cliente con nombre de usuario, sin teléfono)
     npm run sandbox -- share-phone ES.1349120865 +34633444555   (responde a "Pedir teléfono")
     npm run sandbox -- echo +34611222333 "Te respondo desde el móvil"   (el dueño responde desde la app)
     npm run sandbox -- history +34611222333   (un trozo del historial de la app con ese cliente)
     npm run sandbox -- standby +34611222333 "¿Abrís el sábado?"   (responde la IA de Meta)
     npm run sandbox -- book +34611222333   (reserva con el formulario que le enviaste desde la conversación)
  4. npm run sandbox -- connect-payments <email> <contraseña> [stripe|mercadopago]   (cobros con el proveedor falso)
     npm run sandbox -- pay   (el cliente paga el último enlace de pago enviado; o pay <id del pago>)
Crea un agente de IA y elígelo como agente por defecto para ver sus respuestas. Ctrl+C para parar.`);
}

/** @param {string} path @param {{ token?: string, body?: unknown, method?: string }} [options] */
async function api(path, { token, body, method } = {}) {
  const response = await fetch(`${APP}/api/v1${path}`, {
    method: method ?? (body ? "POST" : "GET"),
    headers: {
      "Content-Type": "application/json",
      ...(token && { Authorization: `Bearer ${token}` }),
    },
    body: body ? JSON.stringify(body) : undefined,
  }).catch(() => {
    throw new Error(
      `No se pudo contactar con la consola en ${APP}: ¿está en marcha \`npm run dev\`?`,
    );
  });
  const payload = await response.json().catch(() => null);
  if (!response.ok) throw new Error(payload?.message ?? `HTTP ${response.status}`);
  return payload.data;
}

/** The ways `connect` plays Embedded Signup, after the command. */
const CONNECT_MODES = ["--app", "--sin-numero", "--sin-verificar"];

/** @param {string[]} args `[--app | --sin-numero | --sin-verificar] <email> <password>` */
async function connect(args) {
  const mode = args[0] && CONNECT_MODES.includes(args[0]) ? args[0] : null;
  const [email, password] = mode ? args.slice(1) : args;
  if (!email || !password)
    throw new Error(
      "Uso: npm run sandbox -- connect [--app | --sin-numero | --sin-verificar] <email> <contraseña>",
    );
  const { token } = await api("/auth/login", { body: { email, password } });
  if (mode === "--app") return connectAppNumber(token);
  if (mode === "--sin-numero") return finishWithoutNumber(token);
  if (mode === "--sin-verificar") return finishUnverified(token);
  const config = await api("/whatsapp-config", {
    token,
    body: {
      phone_number_id: GRAPH_FIXTURES.phoneNumberId,
      business_account_id: GRAPH_FIXTURES.wabaId,
      access_token: "sandbox-access-token",
    },
  });
  console.log(`Número de la sandbox conectado: ${config.phone_number}`);
  // The pixel through Facebook Login, as the console's button does: conversions then go to
  // (the fake) Meta's Conversions API and the ad account's spend reaches the Anuncios tab.
  const pixel = await api("/meta-config/connect", {
    token,
    body: { code: `valid-sandbox-${crypto.randomUUID()}` },
  });
  console.log(`Pixel de la sandbox conectado: ${pixel.pixel_id}`);
}

/**
 * The sandbox number as a number that stays in the WhatsApp Business app: the exchange the
 * console's "Ya uso este número en la app WhatsApp Business" makes, with `coexistence: true`.
 * The fake Graph then plays, by itself, the phone's contacts and a two-chat history. The same
 * code connects the pixel, as the console's button does.
 * @param {string} token
 */
async function connectAppNumber(token) {
  const code = `valid-sandbox-${crypto.randomUUID()}`;
  const config = await api("/whatsapp/oauth/exchange", {
    token,
    body: {
      code,
      waba_id: GRAPH_FIXTURES.wabaId,
      phone_number_id: GRAPH_FIXTURES.phoneNumberId,
      coexistence: true,
    },
  });
  console.log(
    `Número de la sandbox conectado como número de la app WhatsApp Business: ${config.phone_number}.
Llegan sus contactos y su historial de chats: míralo en Configuración > Meta Business.`,
  );
  const pixel = await api("/meta-config/connect", { token, body: { code } });
  console.log(`Pixel de la sandbox conectado: ${pixel.pixel_id}`);
}

/**
 * Embedded Signup v4 finished without a number (`FINISH_ONLY_WABA`, decision 0074): as the
 * console does, no WhatsApp exchange; the same code connects the pixel.
 * @param {string} token
 */
async function finishWithoutNumber(token) {
  const pixel = await api("/meta-config/connect", {
    token,
    body: { code: `valid-sandbox-${crypto.randomUUID()}` },
  });
  console.log(`Pixel de la sandbox conectado: ${pixel.pixel_id}
WhatsApp aún no está conectado: falta el número. El registro de Meta terminó sin un número de
teléfono: en una cuenta real, añade el número y verifícalo en el Administrador de WhatsApp de Meta
(Números de teléfono) y vuelve a pulsar «Conectar con Meta Business».`);
}

/**
 * Embedded Signup v4 finished with a number not verified yet: the exchange the console makes
 * with the popup's ids, which the server refuses (`number_not_verified`) saying what to do.
 * @param {string} token
 */
async function finishUnverified(token) {
  const code = `valid-sandbox-${crypto.randomUUID()}`;
  try {
    await api("/whatsapp/oauth/exchange", {
      token,
      body: {
        code,
        waba_id: GRAPH_FIXTURES.pendingWabaId,
        phone_number_id: GRAPH_FIXTURES.pendingPhoneNumberId,
      },
    });
    console.log("El número se conectó: la sandbox esperaba que Meta lo diera por no verificado.");
  } catch (error) {
    console.log(
      `WhatsApp aún no está conectado: ${error instanceof Error ? error.message : error}`,
    );
  }
  const pixel = await api("/meta-config/connect", { token, body: { code } });
  console.log(`Pixel de la sandbox conectado: ${pixel.pixel_id}`);
}

/** A customer's phone as digits, or the command's usage. @param {string | undefined} phone @param {string} usage */
function customerDigits(phone, usage) {
  const digits = phone?.replace(/\D/g, "") ?? "";
  if (!digits) throw new Error(`Uso: npm run sandbox -- ${usage}`);
  return digits;
}

/**
 * The owner answers from the WhatsApp Business app (`smb_message_echoes`).
 * @param {string | undefined} phone @param {string[]} words
 */
async function echo(phone, words) {
  const to = customerDigits(phone, 'echo <teléfono> "<texto>"');
  if (words.length === 0) throw new Error('Uso: npm run sandbox -- echo <teléfono> "<texto>"');
  await deliverChange(
    messageEcho({ ...SANDBOX_NUMBER, to, text: words.join(" ") }),
    `Respuesta desde el móvil a +${to}`,
  );
}

/**
 * A chunk of the app's history with one customer (`history`): an older chat, the business's
 * answer from the phone among it.
 * @param {string | undefined} phone
 */
async function history(phone) {
  const customer = customerDigits(phone, "history <teléfono>");
  const at = (/** @type {number} */ hoursAgo) =>
    String(Math.floor(Date.now() / 1000) - Math.round(hoursAgo * 3600));
  const change = historyChunk({
    ...SANDBOX_NUMBER,
    // A chunk of its own: a later phase than the ones the connection played.
    phase: 2,
    chunkOrder: Date.now() % 100_000,
    progress: 100,
    threads: [
      {
        customer,
        messages: [
          { text: "Hola, ¿me dais presupuesto?", timestamp: at(72) },
          { text: "¡Claro! Te lo mando ahora.", fromBusiness: true, timestamp: at(71.5) },
          { type: "media_placeholder", timestamp: at(71) },
          { text: "Gracias, lo miro.", timestamp: at(70) },
        ],
      },
    ],
  });
  await deliverChange(change, `Historial con +${customer}`);
}

/**
 * The customer writes while Meta's own AI holds the thread (`standby`), and Meta's AI answers
 * (an echo on `standby`).
 * @param {string | undefined} phone @param {string[]} words
 */
async function standby(phone, words) {
  const from = customerDigits(phone, 'standby <teléfono> "<texto>"');
  if (words.length === 0) throw new Error('Uso: npm run sandbox -- standby <teléfono> "<texto>"');
  const message = standbyMessage({
    ...SANDBOX_NUMBER,
    from,
    userId: `ES.${from}`,
    name: process.env.SANDBOX_NAME ?? `Cliente ${from.slice(-4)}`,
    text: words.join(" "),
  });
  await deliverChange(message, `Mensaje de +${from} (con la IA de Meta)`);
  const answer = messageEcho({
    ...SANDBOX_NUMBER,
    field: "standby",
    to: from,
    text: "¡Hola! Soy el asistente de IA de Meta de este negocio. ¿En qué te ayudo?",
  });
  await deliverChange(answer, `Respuesta de la IA de Meta a +${from}`);
}

/**
 * @param {string | undefined} phone @param {string[]} words
 * @param {"text" | "image" | "audio"} [type] @param {{ fromAd?: boolean, part?: Record<string, unknown> }} [options]
 */
async function send(phone, words, type = "text", options = {}) {
  if (!phone || (type === "text" && words.length === 0)) {
    throw new Error(
      `Uso: npm run sandbox -- ${options.fromAd ? "send-ad" : "send"} <teléfono> "<texto>"`,
    );
  }
  const from = phone.replace(/\D/g, "");
  await deliverFrom({ from, name: `Cliente ${from.slice(-4)}` }, words, type, options);
}

/** A business-scoped user id as Meta writes it: `ES.` and letters or digits. */
const BSUID = /^[A-Z]{2}\.[A-Za-z0-9]{1,128}$/;

/**
 * A customer with a WhatsApp username who withholds the phone: Meta names them by BSUID.
 * @param {string | undefined} userId @param {string | undefined} username @param {string[]} words
 */
async function sendUsername(userId, username, words) {
  if (!userId || !BSUID.test(userId) || !username || words.length === 0) {
    throw new Error(
      'Uso: npm run sandbox -- send-username <BSUID, p. ej. ES.1349120865> <usuario> "<texto>"',
    );
  }
  await deliverFrom({ userId, username: username.replace(/^@/, ""), name: username }, words);
}

/**
 * The customer's answer to "Pedir teléfono": a shared contact with `origin: contact_request`.
 * @param {string | undefined} userId @param {string | undefined} phone
 */
async function sharePhone(userId, phone) {
  const waId = phone?.replace(/\D/g, "");
  if (!userId || !BSUID.test(userId) || !waId) {
    throw new Error("Uso: npm run sandbox -- share-phone <BSUID> <teléfono>");
  }
  const card = {
    name: { formatted_name: "Yo", first_name: "Yo" },
    phones: [{ phone: `+${waId}`, wa_id: waId, type: "MOBILE" }],
    origin: "contact_request",
  };
  await deliverFrom({ userId }, [], "contacts", { part: [card] });
}

/**
 * Delivers one customer message to the console's webhook, signed as Meta signs it.
 * @param {{ from?: string, userId?: string, username?: string, name?: string }} customer
 * @param {string[]} words
 * @param {string} [type]
 * @param {{ fromAd?: boolean, part?: Record<string, unknown> | Record<string, unknown>[] }} [options]
 */
async function deliverFrom(customer, words, type = "text", { fromAd = false, part } = {}) {
  const who = customer.from ? `+${customer.from}` : `@${customer.username ?? customer.userId}`;
  const change = inboundMessage({
    phoneNumberId: GRAPH_FIXTURES.phoneNumberId,
    wabaId: GRAPH_FIXTURES.wabaId,
    ...customer,
    // Every message carries a BSUID since 2026; the sandbox derives one from the phone.
    userId: customer.userId ?? `ES.${customer.from}`,
    name: process.env.SANDBOX_NAME ?? customer.name,
    type,
    text: words.join(" "),
    part:
      part ??
      (type === "image"
        ? {
            id: "5550001",
            mime_type: "image/png",
            sha256: "0",
            caption: words.join(" ") || undefined,
          }
        : undefined),
    // Each message "from the ad" is a new click, as when a customer taps the ad again.
    referral: fromAd
      ? ctwaReferral({
          adId: SANDBOX_AD.adId,
          headline: SANDBOX_AD.headline,
          ctwaClid: `ARAk${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
        })
      : undefined,
  });
  await deliverChange(change, `Mensaje de ${who}`);
}

/**
 * Delivers one change to the console's webhook, signed as Meta signs it.
 * @param {import("../tests/fakes/whatsapp-payloads.mjs").Change} change @param {string} what
 */
async function deliverChange(change, what) {
  const raw = JSON.stringify(delivery(change));
  const response = await fetch(`${APP}/webhooks/whatsapp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": await signPayload(raw, SANDBOX_SETTINGS.META_APP_SECRET),
    },
    body: raw,
  }).catch(() => {
    throw new Error(
      `No se pudo contactar con la consola en ${APP}: ¿está en marcha \`npm run dev\`?`,
    );
  });
  console.log(
    response.ok
      ? `${what}: entregado (HTTP ${response.status}).`
      : `La consola respondió HTTP ${response.status}: ¿arrancaste \`npm run sandbox\` antes que \`npm run dev\`?`,
  );
}

/**
 * The customer books through the booking Flow a person sent them ("Reservar cita" in the
 * conversation): the fake Graph plays WhatsApp, calling the console's `/webhooks/flows`
 * encrypted, choosing the first service, day and hour, then delivering the completion.
 * @param {string | undefined} phone
 */
async function book(phone) {
  const digits = customerDigits(phone, "book <teléfono>");
  const response = await fetch(`http://127.0.0.1:${GRAPH_PORT}/__fake/flow`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ phone: digits }),
  }).catch(() => {
    throw new Error("No se pudo contactar con la sandbox: ¿está en marcha `npm run sandbox`?");
  });
  const played = await response.json();
  if (!response.ok) {
    throw new Error(
      `${played.error ?? `HTTP ${response.status}`} Envía antes el formulario desde la conversación de +${digits}.`,
    );
  }
  for (const answer of played.screens) {
    if (answer.data?.error_message) console.log(`  ${answer.screen}: ${answer.data.error_message}`);
  }
  const params = played.screens.at(-1)?.data?.extension_message_response?.params;
  console.log(
    params
      ? `+${digits} reservó: ${params.summary} (confirmación entregada, HTTP ${played.webhook}).`
      : `El formulario no terminó en una reserva (HTTP ${played.status}).`,
  );
}

/**
 * A voice note: the fake Graph holds an "audio" whose bytes are the words, which the fake model
 * transcribes back, so the console shows them under the player.
 * @param {string | undefined} phone @param {string[]} words
 */
async function sendAudio(phone, words) {
  if (!phone || words.length === 0) {
    throw new Error('Uso: npm run sandbox -- send-audio <teléfono> "<lo que dice la nota de voz>"');
  }
  const id = await holdFakeMedia(`http://127.0.0.1:${GRAPH_PORT}`, {
    text: words.join(" "),
    mime_type: "audio/ogg",
  }).catch(() => {
    throw new Error(
      "No se pudo contactar con la Graph API falsa: ¿está en marcha `npm run sandbox`?",
    );
  });
  const part = { id, mime_type: "audio/ogg; codecs=opus", sha256: "0", voice: true };
  await send(phone, words, "audio", { part });
}

/**
 * Connects the fake payment provider to the organization with the sandbox's keys, as an owner
 * does in Configuración (the fakes sign their events with those keys' webhook secret).
 * @param {string[]} args `<email> <password> [stripe|mercadopago]`
 */
async function connectPayments([email, password, provider = "stripe"]) {
  if (!email || !password || !(provider in SANDBOX_PAYMENTS))
    throw new Error(
      "Uso: npm run sandbox -- connect-payments <email> <contraseña> [stripe|mercadopago]",
    );
  const { token } = await api("/auth/login", { body: { email, password } });
  const keys = SANDBOX_PAYMENTS[/** @type {"stripe" | "mercadopago"} */ (provider)];
  const connected = await api("/integrations/payments", {
    token,
    method: "PUT",
    body: { provider, ...keys },
  });
  console.log(`Proveedor de pagos de la sandbox conectado: ${connected.provider}.`);
}

/**
 * The customer pays a payment link: the fake of its provider (whichever knows the payment)
 * marks it paid and posts the signed event to the console, as the provider does.
 * @param {string | undefined} paymentId
 */
async function pay(paymentId) {
  const id = paymentId ?? (await latestLink());
  for (const port of [STRIPE_PORT, MERCADOPAGO_PORT]) {
    const answer = await fetch(`http://127.0.0.1:${port}/__fake/pay`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id }),
    }).catch(() => {
      throw new Error(
        "No se pudo contactar con los proveedores falsos: ¿está en marcha `npm run sandbox`?",
      );
    });
    if (answer.status === 404) continue;
    const { delivered } = await answer.json();
    if (delivered !== 200) throw new Error(`La consola respondió ${delivered} al aviso del pago.`);
    console.log(`Pago ${id} pagado: la consola recibió el aviso firmado del proveedor.`);
    return;
  }
  throw new Error(`Ningún proveedor falso conoce el pago ${id}.`);
}

/**
 * The product's id of the last payment link the console asked either fake provider for: the
 * `metadata[payment_id]` of Stripe's Checkout Session, the `external_reference` of Mercado
 * Pago's preference.
 * @returns {Promise<string>}
 */
async function latestLink() {
  /** @type {{ at: string, id: string }[]} */
  const links = [];
  for (const [port, path] of [
    [STRIPE_PORT, "/v1/checkout/sessions"],
    [MERCADOPAGO_PORT, "/checkout/preferences"],
  ]) {
    const requests = await fetch(`http://127.0.0.1:${port}/__fake/requests`)
      .then((response) => response.json())
      .catch(() => {
        throw new Error(
          "No se pudo contactar con los proveedores falsos: ¿está en marcha `npm run sandbox`?",
        );
      });
    for (const request of requests) {
      if (request.method !== "POST" || request.path !== path) continue;
      const id =
        typeof request.body === "string"
          ? new URLSearchParams(request.body).get("metadata[payment_id]")
          : request.body?.external_reference;
      if (id) links.push({ at: request.at, id });
    }
  }
  const latest = links.sort((a, b) => a.at.localeCompare(b.at)).at(-1);
  if (!latest) {
    throw new Error(
      "Aún no se envió ningún enlace de pago: envíalo desde la conversación («Enviar enlace de pago»).",
    );
  }
  return latest.id;
}

const [command = "start", ...args] = process.argv.slice(2);
try {
  if (command === "start") await start();
  else if (command === "connect") await connect(args);
  else if (command === "send") await send(args[0], args.slice(1));
  else if (command === "send-image") await send(args[0], args.slice(1), "image");
  else if (command === "send-ad") await send(args[0], args.slice(1), "text", { fromAd: true });
  else if (command === "send-audio") await sendAudio(args[0], args.slice(1));
  else if (command === "send-username") await sendUsername(args[0], args[1], args.slice(2));
  else if (command === "share-phone") await sharePhone(args[0], args[1]);
  else if (command === "echo") await echo(args[0], args.slice(1));
  else if (command === "history") await history(args[0]);
  else if (command === "standby") await standby(args[0], args.slice(1));
  else if (command === "connect-payments") await connectPayments(args);
  else if (command === "pay") await pay(args[0]);
  else if (command === "book") await book(args[0]);
  else
    throw new Error(
      `Orden desconocida: ${command}. Usa start, connect, send, send-ad, send-image, send-audio, send-username, share-phone, echo, history, standby, book, connect-payments o pay.`,
    );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
