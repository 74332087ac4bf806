/**
 * Calling a running agent's AgentApi through its loopback web bridge (the `ui:` URL it
 * printed carries the per-run token), as the UI does.
 */
import { request } from 'undici';
import { BRIDGE_TOKEN_HEADER, bridgePath, type AgentApi, type AgentOperation, type AgentResult } from '../../../src/shared/agent-api';

export async function bridgeCall<Op extends AgentOperation>(
  uiUrl: string,
  op: Op,
  input: Parameters<AgentApi[Op]>[0],
): Promise<Awaited<ReturnType<AgentApi[Op]>>> {
  const url = new URL(uiUrl);
  const token = url.searchParams.get('token') ?? '';
  const res = await request(`${url.origin}${bridgePath(op)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: token },
    body: JSON.stringify(input),
  });
  const result = (await res.body.json()) as AgentResult<Awaited<ReturnType<AgentApi[Op]>>>;
  if (!result.ok) throw new Error(`${op} failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}
