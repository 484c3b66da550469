import {
  CONVERSATION_STAGES,
  STAGE_LABELS,
  type ConversationStage,
} from "../../../contracts/sales";
import { ChoiceSelect } from "~/components/conversations/selectors";

/** Each stage's badge colours; the badge always carries the stage's name too. */
const STAGE_STYLES: Record<ConversationStage, string> = {
  new: "bg-slate-100 text-slate-700",
  lead: "bg-amber-100 text-amber-800",
  customer: "bg-emerald-100 text-emerald-800",
  lost: "bg-rose-100 text-rose-800",
};

export function StageBadge({ stage }: { stage: ConversationStage }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STAGE_STYLES[stage]}`}>
      {STAGE_LABELS[stage]}
    </span>
  );
}

export const StageSelect = (props: {
  value: ConversationStage;
  onChange: (stage: ConversationStage) => void;
  label: string;
}) => <ChoiceSelect choices={CONVERSATION_STAGES} labels={STAGE_LABELS} {...props} />;
