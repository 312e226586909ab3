import type { RequirementRecord } from './types.js';

const r = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/** Rules of the platform's MCP endpoint (4.2 POST, MCP /mcp; 5.3). */
export const PLATFORM_MCP_REQUIREMENTS = Object.freeze({
  acceptSignatureOn401: r(
    'MCP-401-ACCEPT-SIGNATURE',
    '5.3',
    'The MCP endpoint adds Accept-Signature to every 401 it answers to a request that carried Signature-Input.',
  ),
});
