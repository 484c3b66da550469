export const E2E_SETTINGS: {
  graphPort: number;
  modelPort: number;
  appId: string;
  appSecret: string;
  aiKey: string;
};
