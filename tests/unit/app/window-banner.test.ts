import { describe, expect, it } from "vitest";
import { timeLeft, windowText } from "../../../app/components/conversations/window-banner";

const now = Date.parse("2026-11-25T10:00:00.000Z");
const later = (ms: number) => new Date(now + ms);
const HOUR = 3_600_000;

describe("how long is left, in Spanish", () => {
  it("says queda for one (a day, an hour, a minute, less than a minute)", () => {
    expect(timeLeft(later(24 * HOUR), now)).toBe("queda 1 día");
    expect(timeLeft(later(HOUR), now)).toBe("queda alrededor de 1 hora");
    expect(timeLeft(later(60_000), now)).toBe("queda 1 minuto");
    expect(timeLeft(later(10_000), now)).toBe("queda menos de un minuto");
  });

  it("says quedan for more than one", () => {
    expect(timeLeft(later(23 * HOUR), now)).toBe("quedan alrededor de 23 horas");
    expect(timeLeft(later(5 * 60_000), now)).toBe("quedan 5 minutos");
  });

  it("reads right in the open window's banner", () => {
    const text = windowText(later(24 * HOUR).toISOString(), true, now);
    expect(text).toMatch(/^Ventana de 24 h abierta: queda 1 día \(se cierra a las \d\d:\d\d\)\.$/);
    expect(text).not.toContain("quedan 1");
  });
});

describe("a conversation whose customer never wrote since the number was connected", () => {
  it("says they have not written, or only in the app's history, which opens no window", () => {
    expect(windowText(null, false, now)).toMatch(/^El cliente todavía no ha escrito/);
    const imported = windowText(null, false, now, true);
    expect(imported).toMatch(/^El cliente no ha escrito desde que se conectó el número/);
    expect(imported).toContain("historial de la app");
  });
});
