import { describe, expect, it } from "vitest";
import { billingCountry } from "../../durable-objects/whatsapp/country";

describe("a customer's billing country (what Meta prices a message by)", () => {
  it("reads the BSUID's country first, even without a phone", () => {
    expect(billingCountry(null, "MX.13491208655302741918")).toBe("MX");
    expect(billingCountry("34611222333", "MX.1349120865")).toBe("MX");
  });

  it("reads the longest calling code of the phone otherwise", () => {
    expect(billingCountry("34611222333", null)).toBe("ES");
    expect(billingCountry("18095551234", null)).toBe("DO");
    expect(billingCountry("12025550123", null)).toBe("US");
    expect(billingCountry("52155512345", "malformado")).toBe("MX");
  });

  it("is unknown when neither identifier tells it", () => {
    expect(billingCountry(null, null)).toBeNull();
    expect(billingCountry("99912345", null)).toBeNull();
  });
});
