import { describe, expect, it } from 'vitest';
import { canceledAmong } from '../../../src/main/api/cancel-lookup';
import { useTestbed } from '../../support/testbed';

/** The check a batch makes before it is spooled: one list call when the page can be trusted, else the rest one by one. */
describe('canceledAmong against the sandbox', () => {
  const bed = useTestbed({ client: { retries: 0 } });

  const book = async (n: number): Promise<string[]> =>
    Promise.all(Array.from({ length: n }, async () => (await bed.sandbox.bookShipment({ source: 'API' })).shipmentId));
  const requests = (since: number) => bed.sandbox.requestLog().slice(since);
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it('one request for one shipment, and one list call for a batch when the page reaches back past its fetch', async () => {
    const [alone] = await book(1);
    bed.sandbox.cancelShipment(alone!);
    let before = bed.sandbox.requestLog().length;
    expect((await canceledAmong(bed.client, [alone!], new Date())).canceled).toEqual([alone]);
    expect(requests(before)).toHaveLength(1);

    // More than a page of cancels, all before the batch was fetched; then one of its members.
    for (const id of await book(105)) bed.sandbox.cancelShipment(id);
    const members = await book(3);
    await tick();
    const fetchedAt = new Date();
    await tick();
    bed.sandbox.cancelShipment(members[1]!);
    before = bed.sandbox.requestLog().length;
    const answer = await canceledAmong(bed.client, members, fetchedAt);
    expect(answer.canceled).toEqual([members[1]]);
    expect(requests(before).map((r) => r.url)).toEqual([expect.stringContaining('status=CANCELED')]);
  });

  it('asks the members missing from a page that does not reach back (more than a page canceled since) one by one', async () => {
    const members = await book(3);
    await tick();
    const fetchedAt = new Date();
    await tick();
    bed.sandbox.cancelShipment(members[0]!);
    for (const id of await book(105)) bed.sandbox.cancelShipment(id);
    const before = bed.sandbox.requestLog().length;
    const answer = await canceledAmong(bed.client, members, fetchedAt);
    expect(answer.canceled).toEqual([members[0]]);
    // The list call, then the three members one by one (the first is past the page).
    expect(requests(before)).toHaveLength(4);
  });
});
