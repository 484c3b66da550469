import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { useEffect, useState } from "react";
import {
  AGENT_MODELS,
  DEFAULT_MODEL,
  DEFAULT_TEMPERATURE,
  agentCreateInput,
  type Agent,
  type AgentModel,
} from "../../../worker/agents/contract";
import { Button } from "~/components/ui/button";
import { Field, SelectField, TextAreaField } from "~/components/ui/field";
import { validate, type FieldErrors } from "~/lib/forms";

export interface AgentFormValues {
  name: string;
  model: AgentModel;
  temperature: number;
  system_prompt: string;
  is_active: boolean;
}

const EMPTY: AgentFormValues = {
  name: "",
  model: DEFAULT_MODEL,
  temperature: DEFAULT_TEMPERATURE,
  system_prompt: "",
  is_active: true,
};

const MODEL_OPTIONS = AGENT_MODELS.map((model) => ({
  value: model,
  label: model === DEFAULT_MODEL ? `${model} (recomendado)` : model,
}));

interface AgentDialogProps {
  open: boolean;
  agent: Agent | null;
  onClose: () => void;
  onSave: (values: AgentFormValues) => Promise<FieldErrors | null>;
}

/** 'Crear Nuevo Agente' / 'Editar Agente'; the fields reset when it opens or the agent changes. */
export function AgentDialog({ open, agent, onClose, onSave }: AgentDialogProps) {
  const [values, setValues] = useState<AgentFormValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues(
      agent
        ? {
            name: agent.name,
            model: agent.model,
            temperature: agent.temperature,
            system_prompt: agent.system_prompt,
            is_active: agent.is_active,
          }
        : EMPTY,
    );
    setErrors({});
  }, [open, agent]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(agentCreateInput, values);
    if (checked.errors) return setErrors(checked.errors);
    setSaving(true);
    const serverErrors = await onSave({ ...values, is_active: agent ? values.is_active : true });
    setSaving(false);
    if (serverErrors) setErrors(serverErrors);
  }

  return (
    <Dialog open={open} onClose={() => !saving && onClose()} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden />
      <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
        <DialogPanel className="w-full max-w-lg rounded-xl bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold">
            {agent ? "Editar Agente" : "Crear Nuevo Agente"}
          </DialogTitle>
          <form onSubmit={submit} noValidate className="mt-4 space-y-4">
            <Field
              label="Nombre"
              required
              value={values.name}
              error={errors.name}
              onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
            />
            <SelectField
              label="Modelo"
              options={MODEL_OPTIONS}
              value={values.model}
              error={errors.model}
              onChange={(e) => setValues((v) => ({ ...v, model: e.target.value as AgentModel }))}
            />
            <div>
              <label
                htmlFor="agent-temperature"
                className="mb-1 block text-sm font-medium text-slate-700"
              >
                Temperatura:{" "}
                <output htmlFor="agent-temperature">{values.temperature.toFixed(1)}</output>
              </label>
              <input
                id="agent-temperature"
                type="range"
                min={0}
                max={1}
                step={0.1}
                value={values.temperature}
                onChange={(e) =>
                  setValues((v) => ({
                    ...v,
                    temperature: Math.round(Number(e.target.value) * 10) / 10,
                  }))
                }
                className="w-full accent-emerald-600"
              />
              <p className="mt-1 text-xs text-slate-500">
                Más baja: respuestas más previsibles. Más alta: más creativas.
              </p>
            </div>
            <TextAreaField
              label="Prompt del sistema"
              required
              rows={6}
              value={values.system_prompt}
              error={errors.system_prompt}
              placeholder="Eres la recepcionista de la clínica. Respondes con amabilidad y…"
              onChange={(e) => setValues((v) => ({ ...v, system_prompt: e.target.value }))}
            />
            {agent && (
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={values.is_active}
                  onChange={(e) => setValues((v) => ({ ...v, is_active: e.target.checked }))}
                />
                Activo
              </label>
            )}
            <div className="flex justify-end gap-3 pt-2">
              <Button variant="secondary" onClick={onClose} disabled={saving}>
                Cancelar
              </Button>
              <Button type="submit" disabled={saving}>
                {saving ? "Guardando..." : agent ? "Guardar Cambios" : "Crear agente"}
              </Button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
