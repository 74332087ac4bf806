/** The site operations: the site this station belongs to (`--site`), and any station's rules in it. */
import type { AgentInput } from '../../../shared/agent-api';
import { AGENT_ERROR_CODES } from '../../../shared/agent-error-codes';
import type { SiteStatusView } from '../../../shared/site';
import { CodedError } from '../../errors';
import { parseStationRules } from '../../intake/station-rules';
import type { OperationDeps } from './deps';
import type { OperationGroup } from './groups';

export function siteOperations(deps: Pick<OperationDeps, 'site'>): OperationGroup<'site'> {
  const { site } = deps;
  return {
    async siteStatus(_input: AgentInput<'siteStatus'>): Promise<SiteStatusView> {
      if (!site) return { enabled: false, address: null, station: null, connected: false, stations: [], decisions: [] };
      return site.status();
    },

    async saveSiteRules({ station, rules }: AgentInput<'saveSiteRules'>): Promise<SiteStatusView> {
      if (!site?.saveRules) {
        throw new CodedError(AGENT_ERROR_CODES.SITE_UNAVAILABLE, 'This station is not in a site: start it with --site nats://HOST:PORT.');
      }
      // The same check as this station's own rules: patterns RE2 cannot run are refused here.
      await site.saveRules(station, parseStationRules(rules));
      return site.status();
    },
  };
}
