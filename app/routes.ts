import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("auth", "routes/auth.tsx"),
  route("terms-of-service", "routes/terms-of-service.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("oauth-success", "routes/oauth-success.tsx"),
  route("oauth-error", "routes/oauth-error.tsx"),
  layout("routes/console-layout.tsx", [
    route("dashboard", "routes/dashboard.tsx"),
    // One workspace: the list beside the open conversation (stacked on a phone).
    route("conversations", "routes/conversations.tsx", [
      route(":conversationId", "routes/conversation.tsx"),
    ]),
    route("agents", "routes/agents.tsx"),
    route("agents/knowledge", "routes/knowledge.tsx"),
    route("chats/:agentId", "routes/agent-chats.tsx"),
    route("mentions", "routes/mentions.tsx"),
    route("broadcasts", "routes/broadcasts.tsx"),
    route("broadcasts/new", "routes/broadcasts-new.tsx"),
    route("broadcasts/:broadcastId", "routes/broadcast.tsx"),
    route("broadcasts/:broadcastId/edit", "routes/broadcasts-edit.tsx"),
    route("follow-ups", "routes/follow-ups.tsx"),
    route("follow-ups/new", "routes/follow-ups-new.tsx"),
    route("follow-ups/:followUpId/edit", "routes/follow-ups-edit.tsx"),
    route("agenda", "routes/agenda.tsx"),
    route("tracking", "routes/tracking.tsx"),
    route("settings", "routes/settings.tsx"),
    route("settings/user", "routes/settings-user.tsx"),
    route("settings/organization", "routes/settings-organization.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
