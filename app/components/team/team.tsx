/**
 * The team inbox's people and labels (contract section 14) as the inbox screens share them:
 * read once with the inbox, given to its rows, the open conversation and its notes.
 */
import { createContext, useContext } from "react";
import type { Member } from "../../../contracts/members";
import type { Label, LabelRef } from "../../../contracts/team-inbox";
import { NullableSelect } from "~/components/conversations/selectors";
import { client, data } from "~/lib/api";

export interface Team {
  members: Member[];
  labels: Label[];
}

/** The organization's members and labels; an empty team when either cannot be read. */
export async function readTeam(): Promise<Team> {
  const [members, labels] = await Promise.all([
    data(client.organizations.members.$get()).catch(() => []),
    data(client.labels.$get())
      .then((answer) => answer.labels)
      .catch(() => []),
  ]);
  return { members, labels };
}

const TeamContext = createContext<Team>({ members: [], labels: [] });
export const TeamProvider = TeamContext.Provider;
export const useTeam = () => useContext(TeamContext);

/** "Marta Ruiz" → "MR"; one name → its first two letters. */
export function initials(name: string) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    words.length > 1 ? `${words[0]![0]}${words.at(-1)![0]}` : (words[0] ?? "?").slice(0, 2);
  return letters.toUpperCase();
}

export const memberName = (team: Team, userId: string | null) =>
  team.members.find((m) => m.user_id === userId)?.full_name ?? null;

/** The initials of the person who holds a conversation (their name on hover). */
export function AssigneeBadge({ assigneeId }: { assigneeId: string | null }) {
  const name = memberName(useTeam(), assigneeId);
  if (!assigneeId || !name) return null;
  return (
    <span
      title={`Asignada a ${name}`}
      className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-sky-700 text-[11px] font-semibold text-white"
    >
      <span aria-hidden>{initials(name)}</span>
      <span className="sr-only">Asignada a {name}</span>
    </span>
  );
}

/** Who holds the conversation: "Sin asignar" or one of the organization's members. */
export function AssigneeSelect(props: {
  value: string | null;
  onChange: (userId: string | null) => void;
  label: string;
  className?: string;
}) {
  const { members } = useTeam();
  const options = members.map((m) => ({ id: m.user_id, name: m.full_name }));
  return <NullableSelect options={options} {...props} />;
}

/** A conversation's labels as small chips in their colours. */
export function LabelChips({ labels }: { labels: LabelRef[] }) {
  if (labels.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {labels.map((label) => (
        <span
          key={label.id}
          className="rounded-full px-2 py-0.5 text-xs font-medium text-white"
          style={{ backgroundColor: label.color }}
        >
          {label.name}
        </span>
      ))}
    </span>
  );
}
