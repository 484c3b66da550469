import { AiBudgetSection } from "./ai-budget-section";
import { AuditLogSection } from "./audit-log-section";
import type { OrganizationTabData } from "./data";
import { InvitationsSection } from "./invitations-section";
import { MarketingLimitsSection } from "./marketing-limits-section";
import { MembersSection, canManageTeam } from "./members-section";
import { OpeningHoursSection } from "./opening-hours-section";
import { OrganizationSettingsForm } from "./organization-settings-form";
import { QuickRepliesSection } from "./quick-replies-section";
import { QuietHoursSection } from "./quiet-hours-section";
import { AutoAssignSection, LabelsSection } from "./team-inbox-section";
import { useAuth } from "~/lib/auth";

/** Settings > Organización (also /settings/organization): the business, its team and its log. */
export function OrganizationTab({ loaded }: { loaded: OrganizationTabData }) {
  const { role } = useAuth();
  return (
    <>
      <OrganizationSettingsForm />
      <QuietHoursSection />
      <OpeningHoursSection loaded={loaded.hours} />
      {role === "owner" && (
        <>
          <AiBudgetSection />
          <MarketingLimitsSection loaded={loaded.marketing} />
        </>
      )}
      <QuickRepliesSection loaded={loaded.quickReplies} />
      <LabelsSection loaded={loaded.labels} />
      <MembersSection loaded={loaded.members} />
      {canManageTeam(role) && (
        <>
          {loaded.members.ok && <AutoAssignSection members={loaded.members.data} />}
          <InvitationsSection loaded={loaded.invitations} />
          <AuditLogSection loaded={loaded.auditLog} />
        </>
      )}
    </>
  );
}
