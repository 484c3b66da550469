import { describe, expect, it } from "vitest";
import type { HistoryImport } from "../../../contracts/whatsapp";
import { furthestImport } from "../../../app/components/settings/meta/history-import";

const at = (state: HistoryImport["state"], progress: number, messages: number): HistoryImport => ({
  state,
  progress,
  messages,
  error: null,
});

describe("the import shown only moves forward", () => {
  it("keeps a finished import when a late copy from the middle arrives", () => {
    const done = at("done", 100, 12);
    expect(furthestImport(done, at("importing", 70, 8))).toEqual(done);
    expect(furthestImport(at("importing", 70, 8), done)).toEqual(done);
  });

  it("takes the highest progress and count among copies of the same state", () => {
    expect(furthestImport(at("importing", 70, 8), at("importing", 40, 4))).toEqual(
      at("importing", 70, 8),
    );
  });

  it("takes a refusal over a request, with its error, and either copy when one is missing", () => {
    const declined = { ...at("declined", 0, 0), error: "No se compartió el historial" };
    expect(furthestImport(at("requested", 0, 0), declined)).toEqual(declined);
    expect(furthestImport(null, declined)).toEqual(declined);
    expect(furthestImport(declined, null)).toEqual(declined);
  });
});
