/**
 * Every tool an AI agent may be offered to act with (decision 0109), beside its own
 * `handoff_to_human` and `mark_lead`. One entry a tool: the booking Flow (`send_booking_flow`)
 * and payment links (`create_payment_link`, for `can_charge`) join as entries of their own.
 */
import type { AgentTool } from "../ai/tools";
import { BOOKING_TOOLS } from "../bookings/ai-tools";

export const AGENT_TOOLS: readonly AgentTool[] = [...BOOKING_TOOLS];
