export { freePort } from '../../support/net';
