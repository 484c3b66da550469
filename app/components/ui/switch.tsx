import { Field, Label, Switch as HeadlessSwitch } from "@headlessui/react";

/** An on/off switch with its label beside it (`tone` for a dark or a light background). */
export function Switch({
  checked,
  onChange,
  label,
  tone = "light",
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  tone?: "light" | "dark";
}) {
  return (
    <Field className="flex items-center gap-2">
      <HeadlessSwitch
        checked={checked}
        onChange={onChange}
        className={`group relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition data-[checked]:bg-emerald-600 ${tone === "dark" ? "bg-slate-600" : "bg-slate-300"}`}
      >
        <span className="inline-block h-4 w-4 translate-x-0.5 rounded-full bg-white shadow transition group-data-[checked]:translate-x-4" />
      </HeadlessSwitch>
      <Label className={`text-sm ${tone === "dark" ? "text-slate-300" : "text-slate-800"}`}>
        {label}
      </Label>
    </Field>
  );
}
