import { recordToolCall, type ToolCall, type UsagePorts } from '../../widgets/publish/usage.js';

/** Writes an answered tool call (a charge or an attribution row, 2.5); the widget routes call it after a tool answered. */
export type ToolCallRecorder = (call: ToolCall) => Promise<void>;

export function toolCallRecorder(ports: UsagePorts): ToolCallRecorder {
  return (call) => recordToolCall(call, ports);
}
