import { describe, expect, it } from "vitest";
import { contactLabel } from "../../../app/components/conversations/selectors";

const customer = (
  contact_name: string | null,
  phone_number: string | null,
  username: string | null,
) => ({
  contact_name,
  contact: { name: contact_name, phone_number, username, user_id: "ES.1349120865" },
});

describe("how the console names a customer (the conversation's header)", () => {
  it("uses the name, then the phone, then @username, then 'Usuario' as the spec says", () => {
    expect(contactLabel(customer("Ana López", "34611222333", "ana"))).toBe("Ana López");
    expect(contactLabel(customer(null, "34611222333", "ana"))).toBe("+34611222333");
    expect(contactLabel(customer(null, null, "ana"))).toBe("@ana");
    expect(contactLabel(customer(null, null, null))).toBe("Usuario");
  });
});
