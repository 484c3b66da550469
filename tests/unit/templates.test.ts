import { describe, expect, it } from "vitest";
import { fillTemplate, templateParameterCount } from "../../contracts/whatsapp";

const template = (text: string) => ({
  components: [
    { type: "HEADER", text: "Cabecera {{1}}" },
    { type: "body", text },
  ],
});

describe("template filling", () => {
  it("replaces each {{n}} of the body with the n-th parameter, wherever it repeats", () => {
    const t = template("Hola {{1}}, tu pedido {{2}} está listo. Gracias, {{1}}.");
    expect(fillTemplate(t, ["Ana", "A-17"])).toBe(
      "Hola Ana, tu pedido A-17 está listo. Gracias, Ana.",
    );
    expect(templateParameterCount(t)).toBe(2);
  });

  it("leaves a placeholder without a parameter as it is, and ignores the header", () => {
    expect(fillTemplate(template("Cita el {{1}} a las {{2}}"), ["lunes"])).toBe(
      "Cita el lunes a las {{2}}",
    );
    expect(templateParameterCount(template("Sin parámetros"))).toBe(0);
    expect(fillTemplate({ components: [] }, ["x"])).toBe("");
  });
});
