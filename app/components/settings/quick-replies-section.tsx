import { useState } from "react";
import { quickReplyInput } from "../../../contracts/quick-replies";
import type { OrganizationTabData } from "~/components/settings/data";
import { Button } from "~/components/ui/button";
import { Field, TextAreaField } from "~/components/ui/field";
import { useSettingsChange } from "~/components/settings/actions";
import { validate, type FieldErrors } from "~/lib/forms";

/** The team's saved answers, used in the composer by typing "/" and the shortcut. */
export function QuickRepliesSection({ loaded }: { loaded: OrganizationTabData["quickReplies"] }) {
  // As before: a list that cannot load reads as empty (the composer's "/" still works).
  const replies = loaded.ok ? loaded.data : [];
  const [values, setValues] = useState({ shortcut: "", content: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const adder = useSettingsChange((result) => {
    if (!result.ok) return setErrors(result.fieldErrors);
    setValues({ shortcut: "", content: "" });
    setErrors({});
  });
  const remover = useSettingsChange();

  function add(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(quickReplyInput, values);
    if (checked.errors) return setErrors(checked.errors);
    void adder.submit({ intent: "quick-reply.create", values: checked.data });
  }

  const remove = (reply: (typeof replies)[number]) =>
    void remover.submit({ intent: "quick-reply.delete", id: reply.id });

  return (
    <section aria-labelledby="quick-replies-title" className="mt-10 max-w-2xl">
      <h2 id="quick-replies-title" className="text-lg font-semibold">
        Respuestas rápidas
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Escribe «/» y el atajo en una conversación para insertar la respuesta.
      </p>
      <ul
        className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
        aria-label="Respuestas rápidas guardadas"
      >
        {replies.length === 0 && (
          <li className="p-4 text-sm text-slate-500">Aún no hay respuestas rápidas.</li>
        )}
        {replies.map((reply) => (
          <li key={reply.id} className="flex items-start justify-between gap-3 p-4">
            <span className="min-w-0">
              <span className="font-medium text-emerald-700">/{reply.shortcut}</span>
              <span className="block whitespace-pre-wrap text-sm text-slate-700">
                {reply.content}
              </span>
            </span>
            <Button
              variant="ghost"
              onClick={() => remove(reply)}
              aria-label={`Eliminar /${reply.shortcut}`}
            >
              Eliminar
            </Button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} noValidate className="mt-4 space-y-3">
        <Field
          label="Atajo"
          placeholder="horario"
          value={values.shortcut}
          error={errors.shortcut}
          onChange={(e) => setValues((v) => ({ ...v, shortcut: e.target.value }))}
        />
        <TextAreaField
          label="Texto"
          rows={3}
          value={values.content}
          error={errors.content}
          onChange={(e) => setValues((v) => ({ ...v, content: e.target.value }))}
        />
        <Button type="submit" disabled={adder.busy}>
          Añadir respuesta rápida
        </Button>
      </form>
    </section>
  );
}
