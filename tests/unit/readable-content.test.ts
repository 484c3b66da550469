import { describe, expect, it } from "vitest";
import { readableContent } from "../../durable-objects/whatsapp/inbound-content";

const inbound = (type: string, part: Record<string, unknown> = {}) => ({
  id: "wamid.1",
  from: "34600000000",
  timestamp: "1763900000",
  type,
  ...part,
});

describe("what the console shows for each WhatsApp message", () => {
  it("keeps a caption, or says what the file is, with Meta's id and type", () => {
    expect(
      readableContent(
        inbound("image", { image: { id: "m1", mime_type: "image/jpeg", caption: " ¿En azul? " } }),
      ),
    ).toEqual({ content: "¿En azul?", mediaId: "m1", mediaMimeType: "image/jpeg" });
    expect(
      readableContent(
        inbound("audio", { audio: { id: "m2", mime_type: "audio/ogg", voice: true } }),
      ).content,
    ).toBe("🎤 Nota de voz");
    expect(readableContent(inbound("audio", { audio: { id: "m3" } })).content).toBe("🎵 Audio");
    expect(
      readableContent(inbound("document", { document: { id: "m4", filename: "menu.pdf" } }))
        .content,
    ).toBe("📄 menu.pdf");
  });

  it("writes out places, contacts, buttons, orders and unknown types", () => {
    const read = (type: string, part: Record<string, unknown>) =>
      readableContent(inbound(type, part)).content;
    expect(read("location", { location: { latitude: 40.4, longitude: -3.7 } })).toBe(
      "📍 Ubicación (40.4, -3.7)",
    );
    expect(read("location", { location: { name: "Tienda", address: "Calle Mayor 1" } })).toBe(
      "📍 Tienda, Calle Mayor 1",
    );
    expect(read("contacts", { contacts: [{ name: { formatted_name: "Luis" } }] })).toBe(
      "👤 Contacto compartido: Luis",
    );
    expect(
      read("interactive", { interactive: { list_reply: { title: "Cita", description: "Lunes" } } }),
    ).toBe("Cita — Lunes");
    expect(read("order", { order: { product_items: [{}], text: "rápido" } })).toBe(
      "🛒 Pedido de 1 producto: rápido",
    );
    expect(read("order", { order: { product_items: [{}, {}] } })).toBe("🛒 Pedido de 2 productos");
    expect(read("ephemeral", {})).toBe("Mensaje de tipo «ephemeral»");
    expect(readableContent(inbound("text", { text: { body: "hola" } })).mediaId).toBeNull();
  });

  it("reads a Flow's completion by the booking Flow's summary, and any other Flow plainly", () => {
    const completion = (response_json: string) =>
      readableContent(
        inbound("interactive", {
          interactive: {
            type: "nfm_reply",
            nfm_reply: { name: "flow", body: "Sent", response_json },
          },
        }),
      ).content;
    expect(
      completion(JSON.stringify({ flow_token: "t", summary: "Limpieza dental el 3 de diciembre" })),
    ).toBe("📅 Reservó desde el formulario: Limpieza dental el 3 de diciembre");
    expect(completion(JSON.stringify({ flow_token: "t" }))).toBe("📋 Formulario completado");
    expect(completion("not json")).toBe("📋 Formulario completado");
  });
});
