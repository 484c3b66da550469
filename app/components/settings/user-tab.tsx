import { PrivacySection } from "./privacy-section";
import { UserSettingsForm } from "./user-settings-form";

/** Settings > Usuario (also /settings/user): the profile, and the account's privacy rights. */
export function UserTab() {
  return (
    <>
      <UserSettingsForm />
      <PrivacySection />
    </>
  );
}
