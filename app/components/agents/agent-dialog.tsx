import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import {
  AGENT_MODELS,
  DEFAULT_MODEL,
  DEFAULT_TEMPERATURE,
  agentCreateInput,
  type Agent,
  type AgentModel,
} from "../../../contracts/agents";
import { DialogActions } from "~/components/ui/dialog-actions";
import { Modal } from "~/components/ui/modal";
import { Field, SelectField, TextAreaField } from "~/components/ui/field";
import { validate, type FieldErrors } from "~/lib/forms";
import type { AgentActionResult, AgentChange, AgentFormValues } from "./actions";
import { ModeSelect } from "./mode-select";
import { KnowledgePicker, type PickableKnowledge } from "./knowledge-picker";
import { ToggleSwitch } from "./toggle-switch";

/** A type, not an interface: it travels as JSON through the route's action. */
const EMPTY: AgentFormValues = {
  name: "",
  model: DEFAULT_MODEL,
  temperature: DEFAULT_TEMPERATURE,
  system_prompt: "",
  is_active: true,
  can_mark_leads: true,
  can_book: false,
  can_charge: false,
  mode: "auto",
  knowledge_ids: null,
};

const MODEL_OPTIONS = AGENT_MODELS.map((model) => ({
  value: model,
  label: model === DEFAULT_MODEL ? `${model} (recomendado)` : model,
}));

const valuesOf = (agent: Agent | null): AgentFormValues =>
  agent
    ? {
        name: agent.name,
        model: agent.model,
        temperature: agent.temperature,
        system_prompt: agent.system_prompt,
        is_active: agent.is_active,
        can_mark_leads: agent.can_mark_leads,
        can_book: agent.can_book,
        can_charge: agent.can_charge,
        mode: agent.mode,
        knowledge_ids: agent.knowledge_ids,
      }
    : EMPTY;

interface AgentDialogProps {
  open: boolean;
  /** The agent being edited; null to create one. */
  agent: Agent | null;
  /** The organization's knowledge entries, for 'Solo estas entradas' (still loading maybe). */
  knowledge: PickableKnowledge;
  onClose: () => void;
}

/**
 * 'Crear Nuevo Agente' / 'Editar Agente', saved through the route's action; the fields reset
 * when it opens or the agent changes.
 */
export function AgentDialog({ open, agent, knowledge, onClose }: AgentDialogProps) {
  const fetcher = useFetcher<AgentActionResult>();
  const [values, setValues] = useState<AgentFormValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const saving = fetcher.state !== "idle";
  const result = fetcher.data;

  useEffect(() => {
    if (!open) return;
    setValues(valuesOf(agent));
    setErrors({});
  }, [open, agent]);

  // Saved: the dialog closes (the list reloads by itself after the action); refused: the
  // server's messages go beside their fields.
  useEffect(() => {
    if (fetcher.state !== "idle" || !result || !open) return;
    if (result.ok) return onClose();
    setErrors(result.fieldErrors);
    setAttempt((n) => n + 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when an answer arrives
  }, [fetcher.state, result]);

  // After a failed attempt, the first field in error takes the focus.
  useEffect(() => {
    if (attempt === 0) return;
    form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [attempt]);

  const set = <K extends keyof AgentFormValues>(key: K, value: AgentFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (saving) return;
    const payload = { ...values, is_active: agent ? values.is_active : true };
    const checked = validate(agentCreateInput, payload);
    if (checked.errors) {
      setErrors(checked.errors);
      setAttempt((n) => n + 1);
      return;
    }
    const change: AgentChange = agent
      ? { intent: "update", id: agent.id, values: payload }
      : { intent: "create", values: payload };
    fetcher.submit(change, { method: "post", encType: "application/json" });
  }

  return (
    <Modal
      open={open}
      title={agent ? "Editar Agente" : "Crear Nuevo Agente"}
      onClose={onClose}
      busy={saving}
      width="lg"
    >
      <form ref={form} onSubmit={submit} noValidate className="mt-4 space-y-4">
        <Field
          label="Nombre"
          required
          data-autofocus
          maxLength={100}
          value={values.name}
          error={errors.name}
          placeholder="Sofía, recepción"
          onChange={(e) => set("name", e.target.value)}
        />
        <SelectField
          label="Modelo"
          options={MODEL_OPTIONS}
          value={values.model}
          error={errors.model}
          onChange={(e) => set("model", e.target.value as AgentModel)}
        />
        <TemperatureSlider
          value={values.temperature}
          error={errors.temperature}
          onChange={(t) => set("temperature", t)}
        />
        <TextAreaField
          label="Prompt del sistema"
          required
          rows={6}
          value={values.system_prompt}
          error={errors.system_prompt}
          hint="Quién es el agente, qué sabe de tu negocio y cuándo debe pasar la conversación a una persona."
          placeholder="Eres la recepcionista de la clínica. Respondes con amabilidad y…"
          onChange={(e) => set("system_prompt", e.target.value)}
        />
        <ModeSelect value={values.mode} onChange={(mode) => set("mode", mode)} />
        <KnowledgePicker
          entries={knowledge}
          value={values.knowledge_ids}
          error={errors.knowledge_ids}
          onChange={(ids) => set("knowledge_ids", ids)}
        />
        <ToggleSwitch
          label="Marcar interesados automáticamente"
          description="El agente marca la conversación como Interesado cuando el cliente muestra intención de compra."
          checked={values.can_mark_leads}
          onChange={(checked) => set("can_mark_leads", checked)}
        />
        <ToggleSwitch
          label="Reservar citas"
          description="La IA consulta horarios libres, reserva, mueve y cancela citas de este cliente, y le envía el formulario de reservas."
          checked={values.can_book}
          // Charging is part of booking: without it the AI cannot send a link either.
          onChange={(checked) =>
            setValues((current) => ({
              ...current,
              can_book: checked,
              can_charge: checked && current.can_charge,
            }))
          }
        />
        <ToggleSwitch
          label="Cobrar por adelantado"
          description={
            values.can_book
              ? "La IA envía enlaces de pago por el precio o la señal del servicio, nunca por otro importe."
              : "Activa antes «Reservar citas»: la IA solo cobra las citas que reserva."
          }
          checked={values.can_charge}
          disabled={!values.can_book}
          onChange={(checked) => set("can_charge", checked)}
        />
        {agent && (
          <ToggleSwitch
            label="Activo"
            description="Un agente inactivo no responde a los clientes."
            checked={values.is_active}
            onChange={(checked) => set("is_active", checked)}
          />
        )}
        <DialogActions
          submitLabel={agent ? "Guardar Cambios" : "Crear agente"}
          busy={saving}
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}

/** 0 to 1 in steps of 0.1, with its value shown in the label. */
function TemperatureSlider({
  value,
  error,
  onChange,
}: {
  value: number;
  error?: string;
  onChange: (value: number) => void;
}) {
  const id = useId();
  const shown = value.toFixed(1);
  return (
    <div>
      <label htmlFor={id} className="mb-1 flex justify-between text-sm font-medium text-slate-700">
        <span>Temperatura</span>
        <output htmlFor={id} className="tabular-nums">
          {shown}
        </output>
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={1}
        step={0.1}
        value={value}
        aria-valuetext={shown}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-help`}
        onChange={(e) => onChange(Math.round(Number(e.target.value) * 10) / 10)}
        className="w-full accent-emerald-600"
      />
      <p id={`${id}-help`} className="mt-1 flex justify-between text-xs text-slate-500">
        <span>0 · más previsible</span>
        <span>1 · más creativo</span>
      </p>
      {error && <p className="mt-1 text-sm text-red-600">{error}</p>}
    </div>
  );
}
