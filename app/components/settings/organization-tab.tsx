import { AiBudgetSection } from "./ai-budget-section";
import { AuditLogSection } from "./audit-log-section";
import { InvitationsSection } from "./invitations-section";
import { MembersSection, canManageTeam } from "./members-section";
import { OrganizationSettingsForm } from "./organization-settings-form";
import { QuickRepliesSection } from "./quick-replies-section";
import { useAuth } from "~/lib/auth";

/** Settings > Organización (also /settings/organization): the business, its team and its log. */
export function OrganizationTab() {
  const { role } = useAuth();
  return (
    <>
      <OrganizationSettingsForm />
      {role === "owner" && <AiBudgetSection />}
      <QuickRepliesSection />
      <MembersSection />
      {canManageTeam(role) && (
        <>
          <InvitationsSection />
          <AuditLogSection />
        </>
      )}
    </>
  );
}
