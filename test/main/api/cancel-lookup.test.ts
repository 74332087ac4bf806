import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { canceledAmong } from '../../../src/main/api/cancel-lookup';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';

/** The check a batch makes before it is spooled: one list call when the page can be trusted, else the rest one by one. */
describe('canceledAmong against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  const book = async (n: number): Promise<string[]> =>
    Promise.all(Array.from({ length: n }, async () => (await sandbox.bookShipment({ source: 'API' })).shipmentId));
  const requests = (since: number) => sandbox.requestLog().slice(since);
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it('one request for one shipment, and one list call for a batch when the page reaches back past its fetch', async () => {
    const [alone] = await book(1);
    sandbox.cancelShipment(alone!);
    let before = sandbox.requestLog().length;
    expect((await canceledAmong(client, [alone!], new Date())).canceled).toEqual([alone]);
    expect(requests(before)).toHaveLength(1);

    // More than a page of cancels, all before the batch was fetched; then one of its members.
    for (const id of await book(105)) sandbox.cancelShipment(id);
    const members = await book(3);
    await tick();
    const fetchedAt = new Date();
    await tick();
    sandbox.cancelShipment(members[1]!);
    before = sandbox.requestLog().length;
    const answer = await canceledAmong(client, members, fetchedAt);
    expect(answer.canceled).toEqual([members[1]]);
    expect(requests(before).map((r) => r.url)).toEqual([expect.stringContaining('status=CANCELED')]);
  });

  it('asks the members missing from a page that does not reach back (more than a page canceled since) one by one', async () => {
    const members = await book(3);
    await tick();
    const fetchedAt = new Date();
    await tick();
    sandbox.cancelShipment(members[0]!);
    for (const id of await book(105)) sandbox.cancelShipment(id);
    const before = sandbox.requestLog().length;
    const answer = await canceledAmong(client, members, fetchedAt);
    expect(answer.canceled).toEqual([members[0]]);
    // The list call, then the three members one by one (the first is past the page).
    expect(requests(before)).toHaveLength(4);
  });
});
