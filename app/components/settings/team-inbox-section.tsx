import { useState } from "react";
import { LABEL_COLORS, labelInput, type Label } from "../../../contracts/team-inbox";
import type { OrganizationTabData } from "~/components/settings/data";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { Switch } from "~/components/ui/switch";
import { useAuth } from "~/lib/auth";
import { validate, type FieldErrors } from "~/lib/forms";
import { useSettingsChange } from "~/components/settings/actions";

type Members = Extract<OrganizationTabData["members"], { ok: true }>["data"];

/** A colour swatch chooser over the palette the labels use. */
function ColorChoice({
  value,
  onChange,
  name,
}: {
  value: string;
  onChange: (c: string) => void;
  name: string;
}) {
  return (
    <fieldset className="flex flex-wrap gap-1">
      <legend className="sr-only">Color de {name}</legend>
      {LABEL_COLORS.map((color) => (
        <button
          key={color}
          type="button"
          aria-label={`Color ${color}`}
          aria-pressed={value === color}
          onClick={() => onChange(color)}
          className={`h-6 w-6 rounded-full ${value === color ? "ring-2 ring-slate-900 ring-offset-1" : ""}`}
          style={{ backgroundColor: color }}
        />
      ))}
    </fieldset>
  );
}

/** Configuración > Etiquetas: managers create, rename, recolour and delete; everyone sees them. */
export function LabelsSection({ loaded }: { loaded: OrganizationTabData["labels"] }) {
  const { role } = useAuth();
  const manager = role === "owner" || role === "admin";
  const labels = loaded.ok ? loaded.data : [];
  const [values, setValues] = useState({ name: "", color: LABEL_COLORS[5] as string });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [deleting, setDeleting] = useState<Label | null>(null);
  const creator = useSettingsChange((result) => {
    if (!result.ok) return setErrors(result.fieldErrors);
    setValues((v) => ({ ...v, name: "" }));
    setErrors({});
  });
  const editor = useSettingsChange();
  const remover = useSettingsChange((result) => {
    if (result.ok) setDeleting(null);
  });

  function create(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(labelInput, values);
    if (checked.errors) return setErrors(checked.errors);
    void creator.submit({ intent: "label.create", values: checked.data });
  }

  const change = (label: Label, changes: { name?: string; color?: string }) =>
    void editor.submit({ intent: "label.update", id: label.id, values: changes });

  const remove = (label: Label) => void remover.submit({ intent: "label.delete", id: label.id });

  return (
    <section aria-labelledby="labels-title" className="mt-10 max-w-2xl">
      <h2 id="labels-title" className="text-lg font-semibold">
        Etiquetas
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Ordenan el trabajo del equipo: se ponen en las conversaciones y filtran la bandeja.
      </p>
      <ul
        aria-label="Etiquetas de la organización"
        className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
      >
        {labels.length === 0 && (
          <li className="p-4 text-sm text-slate-500">Aún no hay etiquetas.</li>
        )}
        {labels.map((label) => (
          <li key={label.id} className="flex flex-wrap items-center gap-3 p-4">
            <span
              className="rounded-full px-2 py-0.5 text-xs font-medium text-white"
              style={{ backgroundColor: label.color }}
            >
              {label.name}
            </span>
            {manager && (
              <>
                <input
                  aria-label={`Renombrar ${label.name}`}
                  defaultValue={label.name}
                  onBlur={(e) => {
                    const name = e.target.value.trim();
                    if (name && name !== label.name) change(label, { name });
                  }}
                  className="w-40 rounded-lg border border-slate-300 px-2 py-1 text-sm"
                />
                <ColorChoice
                  name={label.name}
                  value={label.color}
                  onChange={(color) => change(label, { color })}
                />
                <Button
                  variant="ghost"
                  onClick={() => setDeleting(label)}
                  aria-label={`Eliminar ${label.name}`}
                >
                  Eliminar
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
      {manager && (
        <form onSubmit={create} noValidate className="mt-4 flex flex-wrap items-end gap-3">
          <Field
            label="Nueva etiqueta"
            name="name"
            value={values.name}
            error={errors.name}
            onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
          />
          <ColorChoice
            name="la nueva etiqueta"
            value={values.color}
            onChange={(color) => setValues((v) => ({ ...v, color }))}
          />
          <Button type="submit" disabled={creator.busy}>
            Crear etiqueta
          </Button>
        </form>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Eliminar «${deleting?.name ?? ""}»`}
        description="Se quitará de todas las conversaciones que la llevan."
        confirmLabel="Eliminar"
        busyLabel="Eliminando..."
        busy={remover.busy}
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}

/**
 * Configuración > Asignación automática (owners and admins): round robin on or off, and each
 * member's availability and capacity.
 */
export function AutoAssignSection({ members }: { members: Members }) {
  const auth = useAuth();
  const organization = auth.organization!;
  const on = organization.auto_assign === "round_robin";

  // The session's copy of the organization is replaced with what was saved.
  const switcher = useSettingsChange((result) => {
    if (result.ok && result.organization) auth.setOrganization(result.organization);
  });
  const toggle = (next: boolean) =>
    void switcher.submit({
      intent: "auto-assign.update",
      organizationId: organization.id,
      on: next,
    });

  // One's own availability changed here shows in the header's switch too.
  const saver = useSettingsChange((result) => {
    const { change } = result;
    if (!result.ok || change.intent !== "member.availability") return;
    if (change.userId === auth.user?.id && change.values.available !== undefined) {
      auth.setAvailable(change.values.available);
    }
  });
  const changeMember = (
    userId: string,
    values: { available?: boolean; max_open?: number | null },
  ) => void saver.submit({ intent: "member.availability", userId, values });

  return (
    <section aria-labelledby="auto-assign-title" className="mt-10 max-w-2xl">
      <h2 id="auto-assign-title" className="text-lg font-semibold">
        Asignación automática
      </h2>
      <div className="mt-3">
        <Switch checked={on} onChange={toggle} label="Reparto automático (round robin)" />
      </div>
      <p className="mt-1 text-sm text-slate-600">
        Las conversaciones nuevas sin agente de IA, y las que la IA pasa al equipo, van a la persona
        disponible con menos conversaciones abiertas, sin pasar de su máximo.
      </p>
      <ul
        aria-label="Disponibilidad del equipo"
        className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
      >
        {members.map((member) => (
          <li key={member.user_id} className="flex flex-wrap items-center gap-3 p-4">
            <span className="min-w-40 flex-1 font-medium text-slate-900">{member.full_name}</span>
            <select
              aria-label={`Disponibilidad de ${member.full_name}`}
              value={member.available ? "yes" : "no"}
              onChange={(e) =>
                changeMember(member.user_id, { available: e.target.value === "yes" })
              }
              className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
            >
              <option value="yes">Disponible</option>
              <option value="no">Ausente</option>
            </select>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              Máximo de conversaciones abiertas
              <input
                type="number"
                min={1}
                max={1000}
                placeholder="sin límite"
                defaultValue={member.max_open ?? ""}
                onBlur={(e) => {
                  const value = e.target.value.trim();
                  const max = value === "" ? null : Number(value);
                  if (max !== member.max_open) changeMember(member.user_id, { max_open: max });
                }}
                className="w-24 rounded-lg border border-slate-300 px-2 py-1"
              />
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}
