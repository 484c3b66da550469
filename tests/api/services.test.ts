// Services (contract section 18): managers write them, every member reads them, at most 100;
// durations, buffers and money checked with Spanish messages; who performs one must be a member;
// a service with bookings to come is not deleted.
import { describe, expect, it } from "vitest";
import type { Service } from "../../contracts/bookings";
import { api, answer } from "../support/api";
import {
  book,
  bookingOrganization,
  createService,
  newConversation,
  type ServiceInput,
} from "../support/bookings";
import { addMember, createOwner } from "../support/factories";
import { orgSqlBatch } from "../support/org-data";

const post = (token: string, json: Record<string, unknown>) =>
  answer(api(token).services.$post({ json: json as ServiceInput }));

describe("services", () => {
  it("are created by managers, in the organization's currency, and read by every member", async () => {
    const owner = await createOwner();
    const agent = await addMember(owner.organization.id, "agent");
    const admin = await addMember(owner.organization.id, "admin");
    const service = await createService(owner, {
      name: "Ortodoncia",
      duration_minutes: 45,
      buffer_minutes: 15,
      price: "60.00",
      payment: "deposit",
      deposit: "20",
      staff_user_ids: [admin.user.id],
    });
    expect(service).toMatchObject({
      name: "Ortodoncia",
      duration_minutes: 45,
      buffer_minutes: 15,
      price: "60.00",
      currency: "EUR",
      payment: "deposit",
      deposit: "20",
      staff_user_ids: [admin.user.id],
      active: true,
    });
    const list = await answer(api(agent.token).services.$get());
    expect(list.status).toBe(200);
    expect((list.body as { data: Service[] }).data.map((s) => s.id)).toEqual([service.id]);
    const one = await answer(api(agent.token).services[":id"].$get({ param: { id: service.id } }));
    expect((one.body as { data: Service }).data.name).toBe("Ortodoncia");

    const refused = await post(agent.token, { name: "Blanqueamiento", duration_minutes: 30 });
    expect(refused.status).toBe(403);
    const byAdmin = await post(admin.token, { name: "Blanqueamiento", duration_minutes: 30 });
    expect(byAdmin.status).toBe(201);
    const change = await answer(
      api(agent.token).services[":id"].$patch({
        param: { id: service.id },
        json: { active: false },
      }),
    );
    expect(change.status).toBe(403);
  });

  it("refuses bad fields with every failing one named in Spanish, and stores nothing", async () => {
    const owner = await createOwner();
    const res = await post(owner.token, {
      name: " ",
      duration_minutes: 4,
      buffer_minutes: 121,
      price: 35.5,
      payment: "card",
      currency: "euro",
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("validation_error");
    const details = (res.body as unknown as { details: { path: string; message: string }[] })
      .details;
    expect(details.map((d) => d.path).sort()).toEqual(
      ["buffer_minutes", "currency", "duration_minutes", "name", "payment", "price"].sort(),
    );
    expect(details.find((d) => d.path === "duration_minutes")!.message).toBe(
      "La duración mínima es de 5 minutos",
    );
    expect(details.find((d) => d.path === "price")!.message).toMatch(/importe en texto/);

    const tooLong = await post(owner.token, { name: "Cirugía", duration_minutes: 481 });
    expect(tooLong.status).toBe(422);
    const noPrice = await post(owner.token, {
      name: "Cirugía",
      duration_minutes: 60,
      payment: "full",
    });
    expect(noPrice.body).toMatchObject({
      details: [{ path: "price", message: "Indica el precio para cobrar por adelantado" }],
    });
    const noDeposit = await post(owner.token, {
      name: "Cirugía",
      duration_minutes: 60,
      price: "100",
      payment: "deposit",
    });
    expect(noDeposit.body).toMatchObject({ details: [{ path: "deposit" }] });
    const depositAbovePrice = await post(owner.token, {
      name: "Cirugía",
      duration_minutes: 60,
      price: "100",
      payment: "deposit",
      deposit: "100.01",
    });
    expect(depositAbovePrice.body).toMatchObject({
      details: [{ path: "deposit", message: "La señal no puede superar el precio" }],
    });
    const threeDecimals = await post(owner.token, {
      name: "Cirugía",
      duration_minutes: 60,
      price: "10.555",
    });
    expect(threeDecimals.status).toBe(422);
    const list = await answer(api(owner.token).services.$get());
    expect((list.body as { data: Service[] }).data).toEqual([]);
  });

  it("are performed only by members of the organization", async () => {
    const owner = await createOwner();
    const stranger = await createOwner();
    const res = await post(owner.token, {
      name: "Limpieza",
      duration_minutes: 30,
      staff_user_ids: [owner.user.id, stranger.user.id],
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      details: [{ path: "staff_user_ids", message: "Solo pueden atender personas del equipo" }],
    });
  });

  it("are at most 100 per organization", async () => {
    const owner = await createOwner();
    const now = new Date().toISOString();
    await orgSqlBatch(
      owner.organization.id,
      Array.from({ length: 100 }, (_, i) => ({
        sql: `INSERT INTO services (id, organization_id, name, duration_minutes, currency,
                staff_user_ids, created_at, updated_at) VALUES (?, ?, ?, 30, 'EUR', '[]', ?, ?)`,
        params: [crypto.randomUUID(), owner.organization.id, `Servicio ${i}`, now, now],
      })),
    );
    const res = await post(owner.token, { name: "Uno más", duration_minutes: 30 });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("too_many_services");
    expect(res.body.message).toMatch(/Como mucho 100 servicios/);
  });

  it("change as a whole: what a change leaves is checked as a new service", async () => {
    const owner = await createOwner();
    const service = await createService(owner, { price: "40" });
    const patch = (json: Record<string, unknown>) =>
      answer(api(owner.token).services[":id"].$patch({ param: { id: service.id }, json }));
    const changed = await patch({ payment: "full", buffer_minutes: 10 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      data: { payment: "full", price: "40", buffer_minutes: 10, name: "Limpieza dental" },
    });
    const noPrice = await patch({ price: null });
    expect(noPrice.status).toBe(422);
    expect(noPrice.body).toMatchObject({ details: [{ path: "price" }] });
    expect((await patch({})).status).toBe(422);
  });

  it("are deleted unless a booking is still to come", async () => {
    const { owner, service } = await bookingOrganization();
    const conversationId = await newConversation(owner);
    const booked = await book(owner, {
      service_id: service.id,
      conversation_id: conversationId,
      start: "2031-01-07T08:00:00Z",
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const del = () =>
      answer(api(owner.token).services[":id"].$delete({ param: { id: service.id } }));
    const refused = await del();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/citas pendientes/);

    const bookingId = (booked.body as { data: { id: string } }).data.id;
    await answer(
      api(owner.token).bookings[":id"].$patch({
        param: { id: bookingId },
        json: { status: "cancelled" },
      }),
    );
    expect((await del()).status).toBe(200);
    expect((await del()).status).toBe(404);
    // The booking keeps the service's name.
    const list = await answer(
      api(owner.token).bookings.$get({ query: { conversation_id: conversationId } }),
    );
    expect(list.body).toMatchObject({
      data: { bookings: [{ service_id: null, service_name: "Limpieza dental" }] },
    });
  });
});
