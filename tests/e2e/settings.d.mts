export const E2E_SETTINGS: {
  appPort: number;
  graphPort: number;
  modelPort: number;
  stripePort: number;
  appId: string;
  appSecret: string;
  aiKey: string;
  operatorToken: string;
};
export const ORGANIZATION: {
  name: string;
  industry: string;
  employee_count: string;
  services_offered: string;
  business_hours: string;
  city: string;
  country: string;
  ai_use_case: string;
};
