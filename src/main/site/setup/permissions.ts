import {
  ALL_BUCKETS,
  BOOKINGS_STREAM,
  BOOKING_SUBJECT_PREFIX,
  CLAIMS_BUCKET,
  RULES_BUCKET,
  STATIONS_BUCKET,
  TAKEN_BUCKET,
  stationConsumer,
  token,
} from '../bus/names';
import type { PermissionLists } from './jwt';

/**
 * What each credential of a protected site may do, as NATS subjects (docs/OPERATIONS.md,
 * "What each credential may do"). A relay sets the site up, decides and publishes. A
 * station reads: its own consumer (create, fetch, ack), the buckets (get, watch); and writes
 * only what is its own: its heartbeat and rules under its name, its claims and taken marks
 * with its name in the key. It cannot publish a booking, write a decision, delete or purge
 * anything, or write under another station's name.
 */

const INBOX = '_INBOX.>';

export function relayPermissions(): PermissionLists {
  return {
    pub: { allow: ['$JS.API.>', `${BOOKING_SUBJECT_PREFIX}.>`, '$KV.>', '$JS.ACK.>', '$JS.FC.>', INBOX] },
    sub: { allow: [INBOX] },
  };
}

export function stationPermissions(station: string): PermissionLists {
  const me = token(station);
  const durable = stationConsumer(station);
  const perBucket = ALL_BUCKETS.flatMap((bucket) => {
    const stream = `KV_${bucket}`;
    return [
      `$JS.API.STREAM.INFO.${stream}`,
      `$JS.API.STREAM.MSG.GET.${stream}`,
      `$JS.API.DIRECT.GET.${stream}`,
      `$JS.API.DIRECT.GET.${stream}.>`,
      // Watches and key lists are ordered consumers: created (ephemeral) and flow-controlled.
      `$JS.API.CONSUMER.CREATE.${stream}`,
      `$JS.API.CONSUMER.CREATE.${stream}.>`,
      `$JS.API.CONSUMER.INFO.${stream}.*`,
      `$JS.FC.${stream}.>`,
    ];
  });
  return {
    pub: {
      allow: [
        '$JS.API.INFO',
        `$JS.API.STREAM.INFO.${BOOKINGS_STREAM}`,
        `$JS.API.CONSUMER.INFO.${BOOKINGS_STREAM}.${durable}`,
        `$JS.API.CONSUMER.CREATE.${BOOKINGS_STREAM}.${durable}`,
        `$JS.API.CONSUMER.CREATE.${BOOKINGS_STREAM}.${durable}.>`,
        `$JS.API.CONSUMER.DURABLE.CREATE.${BOOKINGS_STREAM}.${durable}`,
        `$JS.API.CONSUMER.MSG.NEXT.${BOOKINGS_STREAM}.${durable}`,
        `$JS.ACK.${BOOKINGS_STREAM}.${durable}.>`,
        ...perBucket,
        `$KV.${STATIONS_BUCKET}.${me}`,
        `$KV.${RULES_BUCKET}.${me}`,
        `$KV.${CLAIMS_BUCKET}.*.${me}`,
        `$KV.${TAKEN_BUCKET}.*.${me}`,
        INBOX,
      ],
    },
    sub: { allow: [INBOX] },
  };
}
