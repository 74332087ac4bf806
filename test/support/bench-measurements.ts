/** One set of burst measurements for the bench's unit tests (test/bench/): round figures, each field distinct. */
import type { BurstMeasurements } from '../../bench/burst-result';

export const MEASURED: BurstMeasurements = {
  shipments: 200,
  agent: { seconds: 2, first: 0.25, delivered: 1.5, pages: 200, jobs: 12 },
  batchMax: 25,
  agentAlone: { seconds: 4, first: 0.5, delivered: 1.75, pages: 200, jobs: 200 },
  baseline: { seconds: 10, pages: 200 },
  limit: { fetchSeconds: 1.6, fetchConcurrency: 4, fetchByConcurrency: { '1': 3, '4': 1.6 }, spoolSeconds: 0.2, calls: 9 },
  limitAlone: {
    fetchSeconds: 1.9,
    fetchConcurrency: 8,
    fetchByConcurrency: { '8': 0.9 },
    spoolSeconds: 2.5,
    spoolLpSeconds: 5,
    spoolLpUnorderedSeconds: 4,
  },
};
