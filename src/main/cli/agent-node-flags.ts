/**
 * Node flags the bundled agent runs with: `npm run agent`, the service definitions
 * (`install-service`) and the benchmarks all pass these before out/agent/agent.mjs.
 * Figures: docs/BENCHMARKS.md, "Poll mode and idle memory" and "Idle memory: Node's own undici".
 *
 * - `--max-semi-space-size=1`: a young generation of 1 MB semi-spaces instead of up to 16 MB;
 *   the idle agent allocates little, and the larger nursery was about 10 MB of its resident
 *   memory for nothing.
 * - `--v8-pool-size=1`: one V8 background thread (concurrent GC marking, compiling) instead
 *   of four; each idle thread holds its stack and malloc arena, about 3 MB together, and a
 *   station's agent never has more than one core's worth of background work. A burst of
 *   200 labels measured the same within the noise.
 */
export const AGENT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--v8-pool-size=1'];
