/**
 * What an uploaded PDF decodes to, measured before PDF.js sees it (decision 0046). PDF.js
 * inflates whatever a stream's dictionary names, as far as the data goes; this module reads
 * the file as PDF.js would find its streams, decodes every filter chain layer by layer against
 * one byte budget, and refuses (`UnmeasurablePdf`) whatever PDF.js could decode that is not
 * measured here. The lexer follows PDF.js's (unpdf's bundled pdf.js, `Lexer` and `Parser`), so
 * a dictionary reads the same here and there.
 */

/** The PDF, or something in it, is not measured here, or would not be read the same by PDF.js. */
export class UnmeasurablePdf extends Error {}
/** Reading went past its deadline. */
export class TooSlow extends Error {}

/** Work between two looks at the clock, in bytes decoded or their equivalent. */
export const WORK_BETWEEN_CHECKS = 1 << 20;

/**
 * The time a PDF may take to read. On Cloudflare the clock moves only between events (a
 * Spectre mitigation), and the inflater and PDF.js run on microtasks, which never let a timer
 * fire; so every so much work this yields to the event loop (about a millisecond each time)
 * and only then looks at the clock.
 */
export class Deadline {
  private readonly endsAt: number;
  private work = 0;

  constructor(milliseconds: number) {
    this.endsAt = Date.now() + milliseconds;
  }

  /** Counts `work`; once enough has built up, lets the clock move and throws `TooSlow` past the end. */
  async spend(work: number) {
    this.work += work;
    if (this.work < WORK_BETWEEN_CHECKS) return;
    this.work = 0;
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (Date.now() > this.endsAt) throw new TooSlow();
  }
}

// --- Lexing, as PDF.js's Lexer does it ---------------------------------------------------

const WHITESPACE = 1;
const DELIMITER = 2;
/** PDF.js's `specialChars`: what ends a name, a number or a command. */
const BYTE_CLASS = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) BYTE_CLASS[byte] = WHITESPACE;
for (const char of "()<>[]{}/%") BYTE_CLASS[char.charCodeAt(0)] = DELIMITER;
const isSpecial = (byte: number) => byte < 0 || BYTE_CLASS[byte] !== 0;
/** PDF.js's `isWhiteSpace`, narrower than the lexer's whitespace class. */
const isLineSpace = (byte: number) =>
  byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;

function hexDigit(byte: number) {
  if (byte >= 0x30 && byte <= 0x39) return byte & 0x0f;
  if ((byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)) return (byte & 0x0f) + 9;
  return -1;
}

/** Where PDF.js's lexer throws: from there on it reads no object. */
class NotAnObject extends Error {}

type Token =
  | { type: "number"; value: number }
  | { type: "name"; value: string }
  | { type: "command"; value: string }
  | { type: "other" }
  | { type: "eof" };
const EOF: Token = { type: "eof" };
/** Strings, booleans and null: their value never matters here. */
const OTHER: Token = { type: "other" };

/** How much lexing a file may cost before it is refused (overlapping parses could be quadratic). */
class Budget {
  constructor(private left: number) {}
  spend(bytes: number) {
    this.left -= bytes;
    if (this.left < 0) throw new UnmeasurablePdf();
  }
}

class Lexer {
  /** Inside an inline image's dictionary PDF.js lexes with the content operators, so `IDx` is `ID`. */
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
    private readonly budget: Budget,
    private readonly inline = false,
  ) {}

  private get char() {
    return this.bytes[this.at] ?? -1;
  }

  private nextChar() {
    this.at++;
    return this.char;
  }

  token(): Token {
    const from = this.at;
    try {
      return this.lex();
    } finally {
      this.budget.spend(this.at - from + 1);
    }
  }

  private lex(): Token {
    let char = this.char;
    let comment = false;
    for (;;) {
      if (char < 0) return EOF;
      if (comment) {
        if (char === 0x0a || char === 0x0d) comment = false;
      } else if (char === 0x25) {
        comment = true;
      } else if (BYTE_CLASS[char] !== WHITESPACE) {
        break;
      }
      char = this.nextChar();
    }
    if ((char >= 0x30 && char <= 0x39) || char === 0x2b || char === 0x2d || char === 0x2e) {
      return { type: "number", value: this.number() };
    }
    switch (char) {
      case 0x28:
        this.skipString();
        return OTHER;
      case 0x2f:
        return { type: "name", value: this.name() };
      case 0x3c:
        if (this.nextChar() === 0x3c) {
          this.nextChar();
          return { type: "command", value: "<<" };
        }
        this.skipHexString();
        return OTHER;
      case 0x3e:
        if (this.nextChar() === 0x3e) {
          this.nextChar();
          return { type: "command", value: ">>" };
        }
        return { type: "command", value: ">" };
      case 0x5b:
      case 0x5d:
      case 0x7b:
      case 0x7d:
        this.nextChar();
        return { type: "command", value: String.fromCharCode(char) };
      case 0x29:
        this.nextChar();
        throw new NotAnObject();
    }
    let word = String.fromCharCode(char);
    const following = this.bytes[this.at + 1] ?? -1;
    if ((char < 0x20 || char > 0x7f) && following >= 0x20 && following <= 0x7f) {
      this.nextChar();
      return { type: "command", value: word };
    }
    while (!isSpecial((char = this.nextChar()))) {
      if (this.inline && word === "ID") break;
      if (word.length === 128) throw new NotAnObject();
      word += String.fromCharCode(char);
    }
    if (word === "true" || word === "false" || word === "null") return OTHER;
    return { type: "command", value: word };
  }

  /** PDF.js's `skipToNextLine`: past the next end of line, `\r`, `\n` or both. */
  skipToNextLine() {
    const from = this.at;
    for (let char = this.char; char >= 0; char = this.nextChar()) {
      if (char === 0x0a || char === 0x0d) {
        if (this.nextChar() === 0x0a && char === 0x0d) this.nextChar();
        break;
      }
    }
    this.budget.spend(this.at - from + 1);
  }

  /** PDF.js's `getNumber`, signs, stray minus signs and all. */
  private number() {
    let char = this.char;
    let divideBy = 0;
    let sign = 1;
    if (char === 0x2d) {
      sign = -1;
      char = this.nextChar();
      if (char === 0x2d) char = this.nextChar();
    } else if (char === 0x2b) {
      char = this.nextChar();
    }
    while (char === 0x0a || char === 0x0d) char = this.nextChar();
    if (char === 0x2e) {
      divideBy = 10;
      char = this.nextChar();
    }
    if (char < 0x30 || char > 0x39) {
      if (char < 0 || isLineSpace(char) || char === 0x28 || char === 0x3c) return 0;
      throw new NotAnObject();
    }
    let value = char - 0x30;
    while ((char = this.nextChar()) >= 0) {
      if (char >= 0x30 && char <= 0x39) {
        if (divideBy !== 0) divideBy *= 10;
        value = value * 10 + (char - 0x30);
      } else if (char === 0x2e) {
        if (divideBy !== 0) break;
        divideBy = 1;
      } else if (char !== 0x2d) {
        break;
      }
    }
    if (divideBy !== 0) value /= divideBy;
    return sign * value;
  }

  /** A literal string: balanced parentheses, and a backslash hides the character after it. */
  private skipString() {
    let depth = 1;
    for (let char = this.nextChar(); char >= 0; char = this.nextChar()) {
      if (char === 0x28) {
        depth++;
      } else if (char === 0x29) {
        if (--depth === 0) {
          this.nextChar();
          return;
        }
      } else if (char === 0x5c && this.nextChar() < 0) {
        return;
      }
    }
  }

  private skipHexString() {
    for (let char = this.char; char >= 0; char = this.nextChar()) {
      if (char === 0x3e) {
        this.nextChar();
        return;
      }
    }
  }

  /** PDF.js's `getName`: `#xx` is the byte xx; a `#` without two hex digits stays as written. */
  private name() {
    let name = "";
    let char;
    while (!isSpecial((char = this.nextChar()))) {
      if (char !== 0x23) {
        name += String.fromCharCode(char);
        continue;
      }
      char = this.nextChar();
      if (isSpecial(char)) {
        name += "#";
        break;
      }
      const high = hexDigit(char);
      if (high === -1) {
        name += "#" + String.fromCharCode(char);
        continue;
      }
      const previous = char;
      char = this.nextChar();
      const low = hexDigit(char);
      if (low !== -1) {
        name += String.fromCharCode((high << 4) | low);
        continue;
      }
      name += "#" + String.fromCharCode(previous);
      if (isSpecial(char)) break;
      name += String.fromCharCode(char);
    }
    return name;
  }
}

// --- Objects, as PDF.js's Parser reads them -------------------------------------------

class PdfName {
  constructor(readonly name: string) {}
}
/** An indirect reference (`num gen R`): what it points at is not looked up here. */
const REFERENCE = Symbol("reference");
type PdfValue = number | PdfName | typeof REFERENCE | PdfValue[] | PdfDict | null;
type PdfDict = Map<string, PdfValue>;

/** A stream as PDF.js would cut it out of the file: its dictionary and the bytes of its data. */
interface FoundStream {
  dict: PdfDict;
  /** Where the `stream` keyword starts. */
  keyword: number;
  start: number;
  end: number;
}

/** Deeper than any real PDF nests; past it PDF.js and this parser could run out of stack apart. */
const MAX_DEPTH = 256;

/** How PDF.js finds the end of a stream whose `/Length` is not to be trusted (typos included). */
const ENDSTREAM = /end(?:stream|steam[\t\n\r ]|strea[\t\n\r ])/g;

/** The file being read: its Latin-1 text, where each `endstream` is, and the streams found so far. */
interface PdfFile {
  text: string;
  endstreams: number[];
  streams: FoundStream[];
}

/** The first of `sorted` at or after `from`, found by halves (searching afresh each time could be quadratic). */
function firstFrom(sorted: number[], from: number) {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < from) low = middle + 1;
    else high = middle;
  }
  return sorted[low] ?? -1;
}

class Parser {
  constructor(
    private readonly lexer: Lexer,
    /** Streams are found and recorded only in objects read from the file. */
    private readonly file?: PdfFile,
  ) {}

  value(token = this.lexer.token(), depth = 0): PdfValue {
    if (depth > MAX_DEPTH) throw new UnmeasurablePdf();
    switch (token.type) {
      case "number":
        return Number.isInteger(token.value) && this.isReference() ? REFERENCE : token.value;
      case "name":
        return new PdfName(token.value);
      case "command":
        if (token.value === "[") return this.array(depth);
        if (token.value === "<<") return this.dictionary(depth);
        // PDF.js reads an inline image's data here, a way of cutting bytes not followed here.
        if (token.value === "BI") throw new UnmeasurablePdf();
        return null;
      default:
        return null;
    }
  }

  /** After an integer: `gen R` makes it a reference, as PDF.js's two-token lookahead decides. */
  private isReference() {
    const at = this.lexer.at;
    const generation = this.lexer.token();
    if (generation.type === "number" && Number.isInteger(generation.value)) {
      const r = this.lexer.token();
      if (r.type === "command" && r.value === "R") return true;
    }
    this.lexer.at = at;
    return false;
  }

  private array(depth: number) {
    const items: PdfValue[] = [];
    for (;;) {
      const token = this.lexer.token();
      if (token.type === "eof") throw new NotAnObject();
      if (token.type === "command" && token.value === "]") return items;
      items.push(this.value(token, depth + 1));
    }
  }

  /** A dictionary, and the stream it opens when `stream` follows (PDF.js allows one at any depth). */
  private dictionary(depth: number) {
    const dict: PdfDict = new Map();
    for (;;) {
      const token = this.lexer.token();
      if (token.type === "eof") throw new NotAnObject();
      if (token.type === "command" && token.value === ">>") break;
      // PDF.js skips what is not a key, one token at a time.
      if (token.type !== "name") continue;
      const value = this.lexer.token();
      if (value.type === "eof") throw new NotAnObject();
      // A key given twice keeps its last value, as PDF.js's Map does.
      dict.set(token.value, this.value(value, depth + 1));
    }
    if (this.file) {
      const at = this.lexer.at;
      let next: Token = EOF;
      try {
        next = this.lexer.token();
      } catch (error) {
        if (!(error instanceof NotAnObject)) throw error;
      }
      if (next.type === "command" && next.value === "stream") this.stream(dict, this.file);
      else this.lexer.at = at;
    }
    return dict;
  }

  /** PDF.js's `makeStream`: the data starts after the keyword's line; `/Length` is trusted only when `endstream` follows it. */
  private stream(dict: PdfDict, file: PdfFile) {
    const keyword = this.lexer.at - 6;
    this.lexer.skipToNextLine();
    const start = this.lexer.at;
    const length = dict.get("Length");
    if (typeof length === "number" && Number.isInteger(length)) {
      if (length < 0) throw new UnmeasurablePdf();
      this.lexer.at = start + length;
      if (this.isEndstream()) {
        file.streams.push({ dict, keyword, start, end: start + length });
        return;
      }
    }
    const found = firstFrom(file.endstreams, start);
    if (found === -1) throw new NotAnObject();
    // PDF.js keeps the end of line before `endstream` in the data; the strict inflater here
    // would call it junk after the data.
    let end = found;
    if (file.text[end - 1] === "\n") end--;
    if (file.text[end - 1] === "\r") end--;
    file.streams.push({ dict, keyword, start, end: Math.max(start, end) });
    this.lexer.at = found;
    this.lexer.token();
  }

  private isEndstream() {
    try {
      const token = this.lexer.token();
      return token.type === "command" && token.value === "endstream";
    } catch (error) {
      if (error instanceof NotAnObject) return false;
      throw error;
    }
  }
}

/** `obj` as PDF.js's lexer could read it after `num gen` (a number may touch it: `0obj`, `0.obj`). */
const OBJ = /(?<=^|[\d.\-\0\t\n\f\r ()<>[\]{}/%])obj(?=[\0\t\n\f\r ()<>[\]{}/%]|$)/g;
/** `>>` then `stream`: a stream dictionary's end, wherever PDF.js might start reading. */
const DICT_THEN_STREAM = />>(?:[\0\t\n\f\r ]|%[^\r\n]*[\r\n])*stream(?![^\0\t\n\f\r ()<>[\]{}/%])/g;

/**
 * Every stream PDF.js could read out of the file. PDF.js starts an object wherever its cross
 * reference table says (or, repairing, wherever `num gen obj` is), so each `obj` in the file
 * starts a parse here, even inside strings or other streams' data. A `>> stream` that no parse
 * explains would be read by PDF.js some other way (inside an uncompressed object stream, say):
 * the file is refused.
 */
function findStreams(bytes: Uint8Array, text: string) {
  const endstreams = Array.from(text.matchAll(ENDSTREAM), (match) => match.index);
  const file: PdfFile = { text, endstreams, streams: [] };
  const budget = new Budget(8 * bytes.length + 65_536);
  for (const match of text.matchAll(OBJ)) {
    try {
      new Parser(new Lexer(bytes, match.index + 3, budget), file).value();
    } catch (error) {
      if (!(error instanceof NotAnObject)) throw error;
    }
  }
  const explained = new Set(file.streams.map((stream) => stream.keyword));
  for (const match of text.matchAll(DICT_THEN_STREAM)) {
    if (!explained.has(match.index + match[0].length - 6)) throw new UnmeasurablePdf();
  }
  return file.streams;
}

// --- Filters ------------------------------------------------------------------------------

type Layer = "flate" | "hex" | "ascii85";
/** Filters decoded and measured here, by every name PDF.js's `makeFilter` knows them by. */
const MEASURED = new Map<string, Layer>([
  ["FlateDecode", "flate"],
  ["Fl", "flate"],
  ["ASCIIHexDecode", "hex"],
  ["AHx", "hex"],
  ["ASCII85Decode", "ascii85"],
  ["A85", "ascii85"],
]);
/**
 * Image decoders: PDF.js runs them only to draw an image, which text extraction does only in
 * Type 3 glyphs (where an inline image with one is refused, `measureInlineImages`), so they are
 * not measured; last in a chain only, since a filter after one would read unmeasured output.
 * Anything else (LZW, run-length, Brotli, Crypt, a name PDF.js may learn later) expands
 * unmeasured and is refused.
 */
const IMAGE_DECODERS = new Set([
  "DCTDecode",
  "DCT",
  "JPXDecode",
  "JPX",
  "JBIG2Decode",
  "CCITTFaxDecode",
  "CCF",
]);

/** The filter names a `/Filter` (or `/F`) value gives; a reference anywhere in it is refused. */
function filterNames(value: PdfValue | undefined): string[] {
  if (value === REFERENCE) throw new UnmeasurablePdf();
  if (value instanceof PdfName) return [value.name];
  if (!Array.isArray(value)) return [];
  return value.map((item) => {
    if (item instanceof PdfName) return item.name;
    throw new UnmeasurablePdf();
  });
}

/**
 * The layers to measure for a stream, and whether an image decoder ends the chain. PDF.js reads
 * `/F` before `/Filter` (`dict.get("F", "Filter")`); `/F` is also a stream's external file, so
 * both must name only filters measured here.
 */
function chainOf(dict: PdfDict) {
  const chain = filterNames(dict.has("F") ? dict.get("F") : dict.get("Filter"));
  for (const name of [...filterNames(dict.get("F")), ...filterNames(dict.get("Filter"))]) {
    if (!MEASURED.has(name) && !IMAGE_DECODERS.has(name)) throw new UnmeasurablePdf();
  }
  const layers: Layer[] = [];
  for (const [index, name] of chain.entries()) {
    const layer = MEASURED.get(name);
    if (layer) layers.push(layer);
    else if (index !== chain.length - 1) throw new UnmeasurablePdf();
    else return { layers, image: true };
  }
  return { layers, image: false };
}

/** PDF.js's `AsciiHexStream`: skips what is not a hex digit, stops at `>`. */
function asciiHexDecoder() {
  let high = -1;
  let ended = false;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (ended) return;
      const out = new Uint8Array((chunk.length >> 1) + 1);
      let length = 0;
      for (const byte of chunk) {
        if (byte === 0x3e) {
          ended = true;
          if (high >= 0) out[length++] = high << 4;
          break;
        }
        const digit = hexDigit(byte);
        if (digit < 0) continue;
        if (high < 0) {
          high = digit;
        } else {
          out[length++] = (high << 4) | digit;
          high = -1;
        }
      }
      if (length > 0) controller.enqueue(out.subarray(0, length));
    },
  });
}

/** PDF.js's `Ascii85Stream`, byte for byte: `z` is four zeros, `~` ends, a short group pads with `u`. */
function ascii85Decoder() {
  const group = new Uint8Array(5);
  let count = 0;
  let ended = false;
  const decodeGroup = (out: Uint8Array, at: number, bytes: number) => {
    group.fill(0x75, count);
    let value = 0;
    for (const char of group) value = value * 85 + (char - 33);
    const word = new Uint8Array(4);
    for (let i = 3; i >= 0; i--) {
      word[i] = value & 0xff;
      value >>= 8;
    }
    out.set(word.subarray(0, bytes), at);
    count = 0;
    return at + bytes;
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (ended) return;
      const out = new Uint8Array(chunk.length * 4 + 4);
      let length = 0;
      for (const char of chunk) {
        if (isLineSpace(char)) continue;
        if (char === 0x7e) {
          if (count > 0) length = decodeGroup(out, length, count - 1);
          ended = true;
          break;
        }
        if (count === 0 && char === 0x7a) {
          length += 4;
          continue;
        }
        group[count++] = char;
        if (count === 5) length = decodeGroup(out, length, 4);
      }
      if (length > 0) controller.enqueue(out.subarray(0, length));
    },
    flush(controller) {
      if (ended || count === 0) return;
      const out = new Uint8Array(4);
      controller.enqueue(out.subarray(0, decodeGroup(out, 0, count - 1)));
    },
  });
}

const decoder = (layer: Layer): TransformStream<Uint8Array, Uint8Array> =>
  layer === "flate"
    ? new DecompressionStream("deflate")
    : layer === "hex"
      ? asciiHexDecoder()
      : ascii85Decoder();

/** Every decoded byte of every layer counts, as PDF.js keeps each layer's buffer. */
class ByteBudget {
  decoded = 0;
  constructor(readonly limit: number) {}
  get exceeded() {
    return this.decoded > this.limit;
  }
  counter() {
    return new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        this.decoded += chunk.byteLength;
        // Erroring the pipe stops every layer at once; `decode` tells this apart by `exceeded`.
        if (this.exceeded) throw new RangeError("decoded past the budget");
        controller.enqueue(chunk);
      },
    });
  }
}

/**
 * Decodes `data` through `layers`, feeding the last layer's bytes to `watch`, and stopping as
 * soon as the budget is exceeded. Inflation here is strict (junk after the data, a bad
 * checksum): PDF.js reads leniently, and a lenient reader is where a bomb hides.
 */
async function decode(
  data: Uint8Array,
  layers: Layer[],
  budget: ByteBudget,
  deadline: Deadline,
  watch: (chunk: Uint8Array) => void,
) {
  let stream = new Blob([data]).stream();
  for (const layer of layers) {
    stream = stream.pipeThrough(decoder(layer)).pipeThrough(budget.counter());
  }
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      watch(value);
      await deadline.spend(value.byteLength);
    }
  } catch (error) {
    if (error instanceof TooSlow) throw error;
    // Past the budget the caller refuses the file; anything else did not decode cleanly.
    if (!budget.exceeded) throw new UnmeasurablePdf();
  } finally {
    void reader.cancel().catch(() => {});
  }
}

// --- What decoded data holds for PDF.js -------------------------------------------------

const STREAM = Uint8Array.from("stream", (char) => char.charCodeAt(0));
/** Bytes that can start what `Watch` looks for: `>`, `/` and `B`. */
const STARTS = new Uint8Array(256);
for (const char of ">/B") STARTS[char.charCodeAt(0)] = 1;

/**
 * Watches bytes as they decode for what PDF.js would read in them besides content: `>>` then
 * `stream` (a stream inside an object stream, which PDF.js would decode unmeasured), names
 * such as `/Type3` (a Type 3 font, whose glyphs PDF.js draws, inline images and all, while
 * extracting text) and `BI` (an inline image may start there). A match inside a string is
 * only a false alarm that costs a closer look.
 */
class Watch {
  embeddedStream = false;
  inlineImage = false;
  readonly names = new Set<string>();
  /** 0 nothing; 1 `>`; 2 `>>` and whitespace; 3 a comment after `>>`; 3 + n: n letters of "stream". */
  private dictEnd = 0;
  private name: string | null = null;
  /** Inside a name: 1 after `#`, 2 after `#` and a hex digit (`hexHigh`). */
  private hash = 0;
  private hexHigh = 0;
  private previous = -1;

  constructor(private readonly wanted: ReadonlySet<string>) {}

  feed(chunk: Uint8Array) {
    for (let at = 0; at < chunk.length; at++) {
      // Most bytes start nothing: skip them in a tight loop while nothing is under way.
      if (this.dictEnd === 0 && this.name === null && this.previous !== 0x42) {
        while (at < chunk.length && !STARTS[chunk[at]!]) at++;
        if (at === chunk.length) {
          this.previous = -1;
          return;
        }
      }
      const byte = chunk[at]!;
      this.watchDictEnd(byte);
      this.watchName(byte);
      if (this.previous === 0x42 && byte === 0x49) this.inlineImage = true;
      this.previous = byte;
    }
  }

  end() {
    if (this.dictEnd === 3 + STREAM.length) this.embeddedStream = true;
    if (this.hash === 1) this.append(0x23);
    if (this.hash === 2) this.append(0x23, this.hexHigh);
    this.endName();
  }

  private watchDictEnd(byte: number) {
    let state = this.dictEnd;
    if (state > 3) {
      const matched = state - 3;
      if (matched === STREAM.length) {
        if (isSpecial(byte)) this.embeddedStream = true;
        state = 0;
      } else {
        state = byte === STREAM[matched] ? state + 1 : 0;
      }
    } else if (state === 3) {
      if (byte === 0x0a || byte === 0x0d) state = 2;
    } else if (state === 2) {
      if (byte === 0x25) state = 3;
      else if (byte === STREAM[0]) state = 4;
      // `>>>` still ends in `>>`.
      else if (byte !== 0x3e && BYTE_CLASS[byte] !== WHITESPACE) state = 0;
    } else if (state === 1) {
      state = byte === 0x3e ? 2 : 0;
    }
    if (state === 0 && byte === 0x3e) state = 1;
    this.dictEnd = state;
  }

  /** Names decoded as PDF.js's `getName` decodes them, `#xx` and its mistakes included. */
  private watchName(byte: number) {
    if (this.name !== null) {
      if (this.hash === 0) {
        if (byte === 0x23) {
          this.hash = 1;
          return;
        }
        if (!isSpecial(byte)) return this.append(byte);
      } else if (this.hash === 1) {
        if (!isSpecial(byte)) {
          if (hexDigit(byte) === -1) {
            this.append(0x23, byte);
            this.hash = 0;
          } else {
            this.hexHigh = byte;
            this.hash = 2;
          }
          return;
        }
        this.append(0x23);
      } else {
        this.hash = 0;
        const low = hexDigit(byte);
        if (low !== -1) return this.append((hexDigit(this.hexHigh) << 4) | low);
        this.append(0x23, this.hexHigh);
        if (!isSpecial(byte)) return this.append(byte);
      }
      // A special byte ends the name, and may start the next one.
      this.endName();
    }
    if (byte === 0x2f) this.name = "";
  }

  /** Only short names are wanted: a long one stops growing. */
  private append(...bytes: number[]) {
    if (this.name !== null && this.name.length <= 16) this.name += String.fromCharCode(...bytes);
  }

  private endName() {
    if (this.name !== null && this.wanted.has(this.name)) this.names.add(this.name);
    this.name = null;
    this.hash = 0;
  }
}

/**
 * Decodes against the budget every inline image in `bytes` (content) that PDF.js would decode
 * drawing a Type 3 glyph, and refuses one whose filters are not measured here. Every `BI` is
 * tried, in strings or not, its dictionary read up to `ID` as PDF.js's `makeInlineImage` reads
 * it; the data ends where PDF.js looks for its end: at `>` or `~` for the ASCII filters, else
 * at an `EI` between whitespace (cut anywhere else, strict inflation refuses it).
 */
async function measureInlineImages(
  bytes: Uint8Array<ArrayBuffer>,
  budget: ByteBudget,
  deadline: Deadline,
) {
  const lexing = new Budget(8 * bytes.length + 65_536);
  const endsOfData: number[] = [];
  for (let at = bytes.indexOf(0x45, 1); at !== -1; at = bytes.indexOf(0x45, at + 1)) {
    const after = bytes[at + 2] ?? 0x20;
    if (bytes[at + 1] === 0x49 && isLineSpace(bytes[at - 1]!) && isLineSpace(after)) {
      endsOfData.push(at - 1);
    }
  }
  for (let at = bytes.indexOf(0x42); at !== -1; at = bytes.indexOf(0x42, at + 1)) {
    if (bytes[at + 1] !== 0x49) continue;
    const lexer = new Lexer(bytes, at + 2, lexing, true);
    const parser = new Parser(lexer);
    const dict: PdfDict = new Map();
    try {
      for (;;) {
        const key = lexer.token();
        if (key.type === "eof" || (key.type === "command" && key.value === "ID")) break;
        if (key.type !== "name") throw new NotAnObject();
        const value = lexer.token();
        if (value.type === "eof") break;
        dict.set(key.value, parser.value(value));
      }
    } catch (error) {
      if (error instanceof NotAnObject) continue;
      throw error;
    }
    const { layers, image } = chainOf(dict);
    if (image) throw new UnmeasurablePdf();
    if (layers.length === 0) continue;
    // PDF.js's data starts past the one character that ended `ID`.
    const start = lexer.at + 1;
    const end =
      layers[0] === "flate"
        ? firstFrom(endsOfData, start)
        : bytes.indexOf(layers[0] === "hex" ? 0x3e : 0x7e, start) + 1;
    const data = bytes.subarray(start, end > start ? end : bytes.length);
    await decode(data, layers, budget, deadline, () => {});
    if (budget.exceeded) return;
  }
}

// --- The whole file -----------------------------------------------------------------------

/**
 * How many bytes the PDF's streams decode to in all, every layer counted, stopping just past
 * `limit` (the caller refuses past it). Throws `UnmeasurablePdf` for whatever would decode
 * unmeasured and `TooSlow` past the deadline.
 */
export async function decodedSize(
  bytes: Uint8Array<ArrayBuffer>,
  limit: number,
  deadline: Deadline,
) {
  // Latin-1 keeps one character per byte, so string positions are byte positions.
  const text = new TextDecoder("latin1").decode(bytes);
  // The file itself, as every stream without a filter is: an encrypted file would hide what
  // its streams hold from this reading (and PDF.js decrypts them).
  const raw = new Watch(new Set(["Type3", "Encrypt"]));
  raw.feed(bytes);
  raw.end();
  if (raw.names.has("Encrypt")) throw new UnmeasurablePdf();
  let type3 = raw.names.has("Type3");

  const budget = new ByteBudget(limit);
  const withInlineImages: { data: Uint8Array<ArrayBuffer>; layers: Layer[]; size: number }[] = [];
  for (const stream of findStreams(bytes, text)) {
    const { layers, image } = chainOf(stream.dict);
    await deadline.spend(4096);
    if (layers.length === 0) continue;
    const data = bytes.subarray(stream.start, stream.end);
    const watch = new Watch(new Set(["Type3"]));
    let size = 0;
    await decode(data, layers, budget, deadline, (chunk) => {
      size += chunk.byteLength;
      if (!image) watch.feed(chunk);
    });
    if (budget.exceeded) return budget.decoded;
    if (image) continue;
    watch.end();
    if (watch.embeddedStream) throw new UnmeasurablePdf();
    if (watch.names.has("Type3")) type3 = true;
    if (watch.inlineImage) withInlineImages.push({ data, layers, size });
  }

  // Only Type 3 glyphs make PDF.js decode inline images while extracting text; content is
  // decoded again to read them, once the file is known to fit the budget without them.
  if (type3) {
    await measureInlineImages(bytes, budget, deadline);
    for (const { data, layers, size } of withInlineImages) {
      if (budget.exceeded) break;
      const content = new Uint8Array(size);
      let at = 0;
      await decode(data, layers, new ByteBudget(limit), deadline, (chunk) => {
        content.set(chunk, at);
        at += chunk.byteLength;
      });
      await measureInlineImages(content, budget, deadline);
    }
  }
  return budget.decoded;
}
