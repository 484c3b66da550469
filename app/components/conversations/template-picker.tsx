import { useId, useState } from "react";
import { fillTemplate, templateParameterCount } from "../../../contracts/whatsapp";
import { Button } from "~/components/ui/button";
import { isApprovedTemplate, templateKey, useTemplates } from "~/lib/templates";

export interface TemplateToSend {
  name: string;
  language: string;
  parameters: string[];
}

/** Choose an approved template, fill its {{n}} parameters, see the result and send it. */
export function TemplatePicker({
  onSend,
  onCancel,
}: {
  onSend: (template: TemplateToSend) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const { read, reload } = useTemplates();
  const [selectedKey, setSelectedKey] = useState("");
  const [parameters, setParameters] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const selectId = useId();

  if (read.state === "loading") {
    return <p className="text-sm text-slate-500">Cargando plantillas…</p>;
  }
  if (read.state === "error") {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-red-700">
        <span>No se pudieron cargar las plantillas: {read.message}</span>
        <Button variant="secondary" onClick={reload}>
          Reintentar
        </Button>
      </div>
    );
  }
  const templates = read.templates.filter(isApprovedTemplate);
  if (templates.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        Tu cuenta de WhatsApp no tiene plantillas aprobadas. Créalas en el administrador de WhatsApp
        de Meta y vuelve cuando estén aprobadas.
      </p>
    );
  }

  const template = templates.find((t) => templateKey(t) === selectedKey) ?? templates[0]!;
  const count = templateParameterCount(template);
  const values = Array.from({ length: count }, (_, i) => parameters[i] ?? "");
  const complete = values.every((v) => v.trim() !== "");

  async function send() {
    if (!complete || sending) return;
    setSending(true);
    const sent = await onSend({
      name: template.name,
      language: template.language,
      parameters: values.map((v) => v.trim()),
    });
    setSending(false);
    if (sent) setParameters([]);
  }

  return (
    <form
      className="space-y-2"
      aria-label="Enviar plantilla"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <div>
        <label htmlFor={selectId} className="block text-sm font-medium text-slate-700">
          Plantilla
        </label>
        <select
          id={selectId}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
          value={templateKey(template)}
          onChange={(e) => {
            setSelectedKey(e.target.value);
            setParameters([]);
          }}
        >
          {templates.map((t) => (
            <option key={templateKey(t)} value={templateKey(t)}>
              {t.name} ({t.language})
            </option>
          ))}
        </select>
      </div>
      {values.map((value, i) => (
        <label key={i} className="block text-sm text-slate-700">
          {`Parámetro {{${i + 1}}}`}
          <input
            className="mt-1 block w-full rounded-lg border border-slate-300 px-2 py-1 text-sm"
            value={value}
            maxLength={1024}
            onChange={(e) => setParameters(values.map((v, j) => (j === i ? e.target.value : v)))}
          />
        </label>
      ))}
      <div>
        <p className="text-xs font-medium text-slate-500">Vista previa</p>
        <p
          aria-label="Vista previa de la plantilla"
          className="mt-1 whitespace-pre-wrap break-words rounded-lg bg-emerald-50 px-3 py-2 text-sm text-slate-800"
        >
          {fillTemplate(
            template,
            values.map((v) => v.trim()).map((v, i) => v || `{{${i + 1}}}`),
          )}
        </p>
      </div>
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            Cancelar
          </Button>
        )}
        <Button type="submit" disabled={!complete || sending}>
          {sending ? "Enviando…" : "Enviar plantilla"}
        </Button>
      </div>
    </form>
  );
}
