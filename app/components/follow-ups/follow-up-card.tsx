import { Link, useFetcher } from "react-router";
import type { FollowUp } from "../../../contracts/follow-ups";
import type { Label } from "../../../contracts/team-inbox";
import { asJson } from "~/components/broadcasts/actions";
import { count, percent } from "~/components/broadcasts/labels";
import { Switch } from "~/components/ui/switch";
import type { FollowUpActionResult, FollowUpChange } from "./actions";
import { messageWords, timesWords, triggerWords } from "./words";

const STATS = [
  ["sent", "Enviados"],
  ["free", "Gratis"],
  ["replied", "Respondieron"],
  ["failed", "Fallidos"],
  ["skipped", "No enviados"],
] as const;

/**
 * A manager's switch: the list's action PATCHes `enabled`. It shows the change at once and goes
 * back if the server refuses it (the toast says why).
 */
function EnabledSwitch({ rule }: { rule: FollowUp }) {
  const fetcher = useFetcher<FollowUpActionResult>();
  const pending = fetcher.json as FollowUpChange | undefined;
  const enabled = pending?.intent === "enable" ? pending.enabled : rule.enabled;
  return (
    <Switch
      label="Activo"
      checked={enabled}
      onChange={(on) => {
        if (fetcher.state !== "idle") return;
        const change: FollowUpChange = { intent: "enable", id: rule.id, enabled: on };
        void fetcher.submit(change, asJson);
      }}
    />
  );
}

/** What an agent sees instead of the switch. */
function EnabledBadge({ enabled }: { enabled: boolean }) {
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${enabled ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-700"}`}
    >
      {enabled ? "Activo" : "Desactivado"}
    </span>
  );
}

/** One rule: when it writes, what it sends, how often, and what it has done. */
export function FollowUpCard({
  rule,
  labels,
  canManage,
}: {
  rule: FollowUp;
  labels: Label[];
  canManage: boolean;
}) {
  const titleId = `follow-up-${rule.id}`;
  const replied = percent(rule.stats.replied, rule.stats.sent);
  return (
    <li
      aria-labelledby={titleId}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id={titleId} className="min-w-0 break-words text-lg font-semibold text-slate-900">
          {rule.name}
        </h2>
        {canManage ? <EnabledSwitch rule={rule} /> : <EnabledBadge enabled={rule.enabled} />}
      </div>
      <div className="mt-2 space-y-1 text-sm text-slate-700">
        <p>{triggerWords(rule.trigger, labels)}</p>
        <p>{messageWords(rule)}</p>
        <p>{timesWords(rule.max_per_conversation)}</p>
      </div>
      <dl className="mt-4 grid grid-cols-3 gap-3 border-t border-slate-100 pt-3 text-sm sm:grid-cols-5">
        {STATS.map(([key, term]) => (
          <div key={key}>
            <dt className="text-xs text-slate-500">{term}</dt>
            <dd className="font-semibold tabular-nums text-slate-900">
              {count(rule.stats[key])}
              {key === "replied" && replied && (
                <span className="ml-1 text-xs font-normal text-slate-500">({replied})</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      {canManage && (
        <div className="mt-4">
          <Link
            to={`/follow-ups/${rule.id}/edit`}
            className="inline-flex items-center rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            Editar<span className="sr-only"> «{rule.name}»</span>
          </Link>
        </div>
      )}
    </li>
  );
}
