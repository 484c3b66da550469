import { describe, expect, it } from "vitest";
import { entrySummary } from "../../../app/components/settings/audit-summary";

describe("what an audit entry's details say in the log", () => {
  it("says what a retention run deleted, in Spanish, and only the tables that lost rows", () => {
    expect(
      entrySummary({
        deleted: { messages: 1234, conversations: 1, tracking_sessions: 0, held_statuses: 9 },
        complete: true,
      }),
    ).toBe("Borrado por antigüedad: 1234 mensajes, 1 conversación");
    expect(entrySummary({ deleted: { held_statuses: 3 }, complete: false })).toBe(
      "Borrado por antigüedad: datos técnicos",
    );
  });

  it("keeps saying the roles and a payment's part, and nothing for other details", () => {
    expect(entrySummary({ from: "agent", to: "admin" })).toMatch(/→/);
    expect(entrySummary({ via: "payment" })).toBe("Pagado con un enlace de pago");
    expect(entrySummary({ fields: ["name"] })).toBeNull();
    expect(entrySummary(null)).toBeNull();
  });
});
