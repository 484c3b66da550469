import { useState } from "react";
import { useRevalidator } from "react-router";
import { toast } from "sonner";
import { quickReplyInput } from "../../../worker/conversations/quick-replies-contract";
import type { OrganizationTabData } from "~/components/settings/data";
import { Button } from "~/components/ui/button";
import { Field, TextAreaField } from "~/components/ui/field";
import { client, data, errorMessage } from "~/lib/api";
import { serverFieldErrors, validate, type FieldErrors } from "~/lib/forms";

/** The team's saved answers, used in the composer by typing "/" and the shortcut. */
export function QuickRepliesSection({ loaded }: { loaded: OrganizationTabData["quickReplies"] }) {
  const { revalidate } = useRevalidator();
  // As before: a list that cannot load reads as empty (the composer's "/" still works).
  const replies = loaded.ok ? loaded.data : [];
  const [values, setValues] = useState({ shortcut: "", content: "" });
  const [errors, setErrors] = useState<FieldErrors>({});

  async function add(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(quickReplyInput, values);
    if (checked.errors) return setErrors(checked.errors);
    try {
      await data(client["quick-replies"].$post({ json: checked.data }));
      setValues({ shortcut: "", content: "" });
      setErrors({});
      toast.success("Respuesta rápida guardada");
      await revalidate();
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toast.error("Error al guardar la respuesta rápida", { description: errorMessage(error) });
    }
  }

  async function remove(reply: (typeof replies)[number]) {
    try {
      await data(client["quick-replies"][":id"].$delete({ param: { id: reply.id } }));
      await revalidate();
    } catch (error) {
      toast.error("Error al eliminar la respuesta rápida", { description: errorMessage(error) });
    }
  }

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
              onClick={() => void remove(reply)}
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
        <Button type="submit">Añadir respuesta rápida</Button>
      </form>
    </section>
  );
}
