/**
 * Every tool an AI agent may be offered to act with (decisions 0109 and 0112), beside its own
 * `handoff_to_human` and `mark_lead`. One entry a tool: the booking tools and the booking Flow
 * for `can_book`, payment links for `can_book` with `can_charge`.
 */
import type { AgentTool } from "../ai/tools";
import { BOOKING_TOOLS } from "../bookings/ai-tools";
import { sendBookingFlowTool } from "../flows/ai-tools";
import { createPaymentLinkTool } from "../payments/ai-tools";

export const AGENT_TOOLS: readonly AgentTool[] = [
  ...BOOKING_TOOLS,
  sendBookingFlowTool,
  createPaymentLinkTool,
];
