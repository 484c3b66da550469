// Issue 31: an imported PDF is bounded after decoding whatever way it names its filters
// (server contract §12, 2026-11-25), and its reading time is bounded inside a page too.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PDF_LIMITS, pdfText } from "../../durable-objects/knowledge/extract";
import { createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { latin1Bytes, pdfFile } from "../fixtures/pdf";

const latin1Text = (bytes: Uint8Array) => {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return text;
};

/** `data` (Latin-1) deflated as PDF's FlateDecode, as Latin-1. */
async function deflated(data: string) {
  const stream = new Blob([latin1Bytes(data)])
    .stream()
    .pipeThrough(new CompressionStream("deflate"));
  return latin1Text(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** Text operators and `megabytes` of padding, deflated: what a few KB can inflate to. */
async function bomb(megabytes: number) {
  const text = `BT /F1 12 Tf 72 770 Td (Hola) Tj${" ".repeat(megabytes * 1024 * 1024)}ET`;
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate"));
  return latin1Text(new Uint8Array(await new Response(stream).arrayBuffer()));
}

const asciiHex = (data: string) =>
  Array.from(data, (char) => char.charCodeAt(0).toString(16).padStart(2, "0")).join("") + ">";

function ascii85(data: string) {
  let out = "";
  for (let i = 0; i < data.length; i += 4) {
    const group = latin1Bytes(data.slice(i, i + 4).padEnd(4, "\0"));
    let value = ((group[0]! << 24) | (group[1]! << 16) | (group[2]! << 8) | group[3]!) >>> 0;
    const chars: string[] = [];
    for (let j = 0; j < 5; j++) {
      chars.unshift(String.fromCharCode((value % 85) + 33));
      value = Math.floor(value / 85);
    }
    out += chars.slice(0, Math.min(4, data.length - i) + 1).join("");
  }
  return out + "~>";
}

const stream = (data: string, entries = "") =>
  `<< /Length ${data.length}${entries} >>\nstream\n${data}\nendstream`;
const HELVETICA =
  "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";

/** One page whose content stream is object 4, Helvetica as /F1 (object 5), then `more` from object 6. */
function onePage(contents: string, more: string[] = [], resources = "/Font << /F1 5 0 R >>") {
  return pdfFile([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << ${resources} >> /Contents 4 0 R >>`,
    contents,
    HELVETICA,
    ...more,
  ]);
}

async function importPdf(token: string, pdf: Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.append("file", new File([pdf], "documento.pdf", { type: "application/pdf" }));
  const response = await exports.default.fetch("http://localhost/api/v1/knowledge/import", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { message: string } };
}

/**
 * A one-page PDF 1.5 whose content stream, object 4, is the first object of object stream 6
 * (`data`, its header `4 0 `), found through a cross-reference stream.
 */
function withObjectStream(data: string, filter: string) {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    null,
    HELVETICA,
    stream(data, ` /Type /ObjStm /N 1 /First 4${filter}`),
  ];
  let body = "%PDF-1.5\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    if (object) body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = body.length;
  // /W [1 4 2]: type, then offset and generation, or object stream and index.
  const entry = (type: number, field: number, index: number) =>
    String.fromCharCode(type, field >>> 24, (field >> 16) & 255, (field >> 8) & 255, field & 255) +
    String.fromCharCode(index >> 8, index & 255);
  const entries =
    entry(0, 0, 65535) +
    objects.map((object, i) => (object ? entry(1, offsets[i]!, 0) : entry(2, 6, 0))).join("") +
    entry(1, xrefAt, 0);
  body += `7 0 obj\n${stream(entries, " /Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R")}\nendobj\n`;
  body += `startxref\n${xrefAt}\n%%EOF\n`;
  return latin1Bytes(body);
}

const TOO_BIG = /^El PDF ocupa más de 32 MB una vez descomprimido/;
const UNREADABLE = /No se pudo leer el PDF/;

async function expectNothingStored(token: string) {
  const list = await answer(api(token).knowledge.$get({ query: {} }));
  expect(list.body.data.entries).toEqual([]);
}

describe("a PDF's decoded size is bounded whatever way it names its filters", () => {
  it("measures every layer of a filter chain (413), and still reads chains that fit", async () => {
    const owner = await createOwner();
    // Two layers of Flate: the first inflates to a few KB, the second to 40 MB.
    const twice = onePage(
      stream(await deflated(await bomb(40)), " /Filter [/FlateDecode /FlateDecode]"),
    );
    expect(twice.length).toBeLessThan(64 * 1024);
    const refused = await importPdf(owner.token, twice);
    expect(refused.status).toBe(413);
    expect(refused.body.message).toMatch(TOO_BIG);
    await expectNothingStored(owner.token);

    const text = "BT /F1 12 Tf 72 770 Td (Horario de verano) Tj ET";
    for (const [data, filter] of [
      [await deflated(await deflated(text)), "[/Fl /FlateDecode]"],
      [asciiHex(await deflated(text)), "[/AHx /Fl]"],
      [ascii85(await deflated(text)), "[/ASCII85Decode /FlateDecode]"],
    ] as const) {
      const read = await importPdf(owner.token, onePage(stream(data, ` /Filter ${filter}`)));
      expect(read.status, filter).toBe(201);
    }
  });

  it("reads the stream's dictionary whole, however its strings are written (413)", async () => {
    const owner = await createOwner();
    // `obj` in a string once hid the /Filter before it; so could `>>` or an escaped parenthesis.
    for (const after of [" /Note (obj)", " /Note (a >> b \\) obj)", " /Note <6f626a>"]) {
      const pdf = onePage(stream(await bomb(40), ` /Filter /FlateDecode${after}`));
      const refused = await importPdf(owner.token, pdf);
      expect(refused.status, after).toBe(413);
    }
    await expectNothingStored(owner.token);
    // A comment runs to the end of its line: `>>` and `%` in data are no stream of their own.
    const data = "BT /F1 12 Tf 72 770 Td (Hola) Tj ET %>> %";
    const read = await importPdf(
      owner.token,
      onePage(`<< /Length ${data.length} >>\nstream\n${data}endstream`),
    );
    expect(read.status).toBe(201);
  });

  it("reads #xx escapes in filter names as PDF.js does (413, or 422 when not measurable)", async () => {
    const owner = await createOwner();
    for (const filter of ["/#46lateDecode", "/F#6c", "[/Fl#61teDecode]"]) {
      const refused = await importPdf(
        owner.token,
        onePage(stream(await bomb(40), ` /Filter ${filter}`)),
      );
      expect(refused.status, filter).toBe(413);
    }
    const lzw = await importPdf(
      owner.token,
      onePage(stream(await bomb(1), " /Filter /LZW#44ecode")),
    );
    expect(lzw.status).toBe(422);
    expect(lzw.body.message).toMatch(UNREADABLE);
    await expectNothingStored(owner.token);
  });

  it("refuses a filter named by reference, in an array or under /F (422)", async () => {
    const owner = await createOwner();
    // PDF.js reads /F before /Filter, and fetches what a reference points at.
    for (const entries of [" /Filter [6 0 R]", " /F 6 0 R", " /F [/Fl 6 0 R]"]) {
      const pdf = onePage(stream(await bomb(40), entries), ["/FlateDecode"]);
      const refused = await importPdf(owner.token, pdf);
      expect(refused.status, entries).toBe(422);
      expect(refused.body.message).toMatch(UNREADABLE);
    }
    // /F alone names a filter to PDF.js, measured like /Filter.
    const abbreviated = await importPdf(owner.token, onePage(stream(await bomb(40), " /F /Fl")));
    expect(abbreviated.status).toBe(413);
    await expectNothingStored(owner.token);
  });

  it("refuses filters it cannot measure: unknown names, Brotli, Crypt, an image decoder before another filter (422)", async () => {
    const owner = await createOwner();
    for (const filter of ["/BrotliDecode", "/Crypt", "/Inventado", "[/DCTDecode /FlateDecode]"]) {
      const res = await importPdf(
        owner.token,
        onePage(stream(await bomb(1), ` /Filter ${filter}`)),
      );
      expect(res.status, filter).toBe(422);
      expect(res.body.message).toMatch(UNREADABLE);
    }
    await expectNothingStored(owner.token);
  });

  it("refuses a stream hidden inside an object stream, which PDF.js would decode unmeasured (422)", async () => {
    const owner = await createOwner();
    const inner = await bomb(40);
    const object4 = `<< /Length ${inner.length} /Filter /FlateDecode >>\nstream\n${inner}\nendstream`;
    // Compressed, it is found in what the object stream inflates to; uncompressed, in the file.
    for (const [data, filter] of [
      [await deflated(`4 0 ${object4}`), " /Filter /FlateDecode"],
      [`4 0 ${object4}`, ""],
    ]) {
      const refused = await importPdf(owner.token, withObjectStream(data!, filter!));
      expect(refused.status, filter).toBe(422);
      expect(refused.body.message).toMatch(UNREADABLE);
    }
    await expectNothingStored(owner.token);
  });

  it("measures inline images where PDF.js decodes them, in Type 3 glyphs (413), and refuses ones it cannot measure there (422)", async () => {
    const owner = await createOwner();
    // PDF.js draws Type 3 glyphs while extracting text, inline images included.
    const type3 = (glyph: string) =>
      onePage(
        stream("BT /F1 12 Tf 72 770 Td (Hola) Tj /F2 12 Tf 72 750 Td (a) Tj ET"),
        [
          "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 8 8] /FontMatrix [0.125 0 0 0.125 0 0] /CharProcs << /a 7 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [8] /Resources << >> >>",
          glyph,
        ],
        "/Font << /F1 5 0 R /F2 6 0 R >>",
      );
    const image = (filter: string, data: string) =>
      `BI /W 8 /H 8 /IM true${filter} ID\n${data}\nEI`;
    const drawn = (filter: string, data: string) =>
      `8 0 0 0 8 8 d1 q 8 0 0 8 0 0 cm ${image(filter, data)} Q`;
    const flateBomb = await bomb(40);
    for (const [filter, data] of [
      [" /F /Fl", flateBomb],
      [" /F#69lter /F#6c", flateBomb],
      [" /F [/AHx /Fl]", asciiHex(flateBomb)],
    ]) {
      const refused = await importPdf(owner.token, type3(stream(drawn(filter!, data!))));
      expect(refused.status, filter).toBe(413);
      expect(refused.body.message).toMatch(TOO_BIG);
    }
    // The glyph's own stream compressed: its inline image is found in what it inflates to.
    const compressed = stream(await deflated(drawn(" /F /Fl", flateBomb)), " /Filter /FlateDecode");
    expect((await importPdf(owner.token, type3(compressed))).status).toBe(413);
    for (const filter of [" /F /DCT", " /F /LZW", " /F 9 0 R"]) {
      const refused = await importPdf(owner.token, type3(stream(drawn(filter, "\xff".repeat(8)))));
      expect(refused.status, filter).toBe(422);
      expect(refused.body.message).toMatch(UNREADABLE);
    }
    await expectNothingStored(owner.token);

    // What fits is read: an image in a glyph, plain or compressed.
    for (const [filter, data] of [
      ["", "\xff".repeat(8)],
      [" /F /Fl", await deflated("\xff".repeat(8))],
    ]) {
      const read = await importPdf(owner.token, type3(stream(drawn(filter!, data!))));
      expect(read.status, filter).toBe(201);
    }
    // Without a Type 3 font PDF.js never decodes an inline image for text.
    const onPage = await importPdf(
      owner.token,
      onePage(
        stream(
          `BT /F1 12 Tf 72 770 Td (Logo) Tj ET q 8 0 0 8 72 700 cm ${image(" /F /Fl", flateBomb)} Q`,
        ),
      ),
    );
    expect(onPage.status).toBe(201);
  });

  it("refuses an encrypted PDF, whose streams it cannot see into (422)", async () => {
    const owner = await createOwner();
    // PDF.js decrypts the streams (an object stream holding a bomb, say) that the measuring
    // here reads as ciphertext: a PDF.js-readable file, RC4 with an empty password.
    const pdf = await encryptedPdf("BT /F1 12 Tf 72 770 Td (Hola) Tj ET");
    const refused = await importPdf(owner.token, pdf);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(UNREADABLE);
    await expectNothingStored(owner.token);
  });
});

function rc4(key: Uint8Array, data: Uint8Array) {
  const s = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const md5 = async (...parts: Uint8Array[]) =>
  new Uint8Array(await crypto.subtle.digest("MD5", await new Blob(parts).arrayBuffer()));

/** `onePage(contents)` encrypted with the standard security handler, revision 2, no password. */
async function encryptedPdf(contents: string) {
  const padding = Uint8Array.from(
    "28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a".match(/../g)!,
    (hex) => parseInt(hex, 16),
  );
  const id = latin1Bytes("0123456789abcdef");
  const owner = rc4((await md5(padding)).subarray(0, 5), padding);
  const permissions = Uint8Array.of(0xfc, 0xff, 0xff, 0xff); // -4, little-endian
  const key = (await md5(padding, owner, permissions, id)).subarray(0, 5);
  const user = rc4(key, padding);
  const objectKey = (await md5(key, Uint8Array.of(4, 0, 0, 0, 0))).subarray(0, 10);
  const hex = (bytes: Uint8Array) =>
    Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const pdf = latin1Text(
    onePage(stream(latin1Text(rc4(objectKey, latin1Bytes(contents))))),
  ).replace(
    "/Root 1 0 R",
    `/Root 1 0 R /ID [<${hex(id)}> <${hex(id)}>] /Encrypt << /Filter /Standard /V 1 /R 2 /O <${hex(owner)}> /U <${hex(user)}> /P -4 >>`,
  );
  return latin1Bytes(pdf);
}

describe("a PDF's reading time is bounded inside a page", () => {
  it("stops a single slow page at its deadline (422)", async () => {
    // One page drawing a form thousands of times: every drawing repeats the form's work,
    // seconds of it, with a letter of text each time.
    const form = stream(
      `BT /F1 12 Tf 72 770 Td (a) Tj ET ${"0 0 m ".repeat(3000)}`,
      " /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >>",
    );
    const pdf = onePage(
      stream("/Fx Do ".repeat(20_000)),
      [form],
      "/Font << /F1 5 0 R >> /XObject << /Fx 6 0 R >>",
    );
    const started = Date.now();
    await expect(pdfText(pdf, { ...PDF_LIMITS, milliseconds: 300 })).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/^El PDF tarda demasiado en leerse/),
    });
    // The whole page takes many seconds; the deadline stops it within the page.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
