export const E2E_SETTINGS: {
  appPort: number;
  graphPort: number;
  modelPort: number;
  appId: string;
  appSecret: string;
  aiKey: string;
};
