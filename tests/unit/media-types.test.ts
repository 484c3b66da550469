import { describe, expect, it } from "vitest";
import { MEDIA_LIMITS, outboundMediaType } from "../../contracts/conversations";
import { documentName, mediaHeaders } from "../../durable-objects/conversations/media-headers";

describe("what WhatsApp accepts as an attachment", () => {
  it("picks the message type from the MIME type, parameters and case aside", () => {
    expect(outboundMediaType({ type: "image/PNG", size: 10 })).toEqual({ type: "image" });
    expect(outboundMediaType({ type: "audio/ogg; codecs=opus", size: 10 })).toEqual({
      type: "audio",
    });
    expect(outboundMediaType({ type: "application/pdf", size: 10 })).toEqual({
      type: "document",
    });
  });

  it("refuses other types, empty files and files over the type's limit, in Spanish", () => {
    expect(outboundMediaType({ type: "image/svg+xml", size: 10 })).toMatchObject({
      tooLarge: false,
      error: expect.stringContaining("WhatsApp no admite este tipo de archivo"),
    });
    expect(outboundMediaType({ type: "image/jpeg", size: 0 })).toMatchObject({
      error: "El archivo está vacío.",
    });
    expect(
      outboundMediaType({ type: "image/jpeg", size: MEDIA_LIMITS.image.maxBytes + 1 }),
    ).toMatchObject({ tooLarge: true, error: expect.stringContaining("(5 MB)") });
  });
});

describe("how a customer's file is served", () => {
  it("shows pictures, sounds and videos inline, never sniffed", () => {
    const headers = mediaHeaders("audio/ogg; codecs=opus", "nota");
    expect(headers["Content-Type"]).toBe("audio/ogg");
    expect(headers["Content-Disposition"]).toBe("inline");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
  });

  it("downloads anything else, SVG and HTML included, under a safe name", () => {
    for (const type of ["image/svg+xml", "text/html", null]) {
      const headers = mediaHeaders(type, '../"factura" año.svg');
      expect(headers["Content-Type"]).toBe("application/octet-stream");
      expect(headers["Content-Disposition"]).toBe(
        `attachment; filename="factura_an_o.svg"; filename*=UTF-8''..%2F%22factura%22%20a%C3%B1o.svg`,
      );
    }
    expect(mediaHeaders("application/pdf", "x.pdf")["Content-Type"]).toBe("application/pdf");
  });

  it("reads a document's name from its placeholder only", () => {
    expect(documentName("document", "📄 contrato.pdf")).toBe("contrato.pdf");
    expect(documentName("document", "un pie de foto")).toBeNull();
    expect(documentName("image", "📄 contrato.pdf")).toBeNull();
  });
});
