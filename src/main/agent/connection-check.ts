import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import { ApiError, API_ERROR_CODES } from '../api/errors';
import { CodedError } from '../errors';
import type { OperationDeps } from './operations/deps';

/** GET /status with the current key: shows the team, or says why not. Throws only when `required`. */
export type ConnectionCheck = (required: boolean) => Promise<void>;

/** The check the agent's start, saveSettings and startDemo run. */
export function connectionCheck(deps: Pick<OperationDeps, 'connection' | 'status' | 'log' | 'settings' | 'emitStatus'>): ConnectionCheck {
  const { connection, status, log, settings } = deps;
  return async (required) => {
    if (!connection.configured) {
      log.warn('no API key set: connect an account in Settings (or run the demo)');
      if (required)
        throw new CodedError(AGENT_ERROR_CODES.NOT_CONNECTED, 'No API key: set PRINT_STATION_API_KEY, or apiKey in the --config file.');
      return;
    }
    try {
      const answer = await connection.current.status();
      status.connected(answer.team);
      log.info(`connected: team ${answer.team} (${settings.get().environment}, ${connection.url})`);
    } catch (error) {
      status.serviceFailed(error);
      // A rejected key or an address where nothing answers cannot get better by waiting;
      // an unreachable or failing service can, so the agent keeps running and retries.
      const fatal = error instanceof ApiError && (error.code === API_ERROR_CODES.UNAUTHORIZED || error.code === API_ERROR_CODES.NOT_FOUND);
      // The caller prints a fatal error once; logging it here as well would say it twice.
      if (required && fatal) throw error;
      log.error(`cannot check the API key with GET /status: ${(error as Error).message}`);
    }
    deps.emitStatus();
  };
}
