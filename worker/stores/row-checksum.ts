/**
 * A checksum of a table's rows in key order (two 32-bit FNV-1a sums over each row's key and its
 * columns as JSON), the same in the Worker and in the store: a move switches only when both
 * sides hold the same rows with the same values (decisions 0052, 0065).
 */
export class RowChecksum {
  private low = 0x811c9dc5;
  private high = 0x01000193;
  count = 0;

  add(text: string) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      this.low = Math.imul(this.low ^ code, 0x01000193) >>> 0;
      this.high = Math.imul(this.high ^ code, 0x811c9dc5 | 1) >>> 0;
    }
    // A separator, so that ["ab", "c"] and ["a", "bc"] differ.
    this.low = Math.imul(this.low ^ 0x1f, 0x01000193) >>> 0;
    this.count += 1;
  }

  summary(): TableSummary {
    const hex = (n: number) => n.toString(16).padStart(8, "0");
    return { count: this.count, checksum: `${hex(this.high)}${hex(this.low)}` };
  }
}

export interface TableSummary {
  count: number;
  checksum: string;
}
