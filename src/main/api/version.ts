/** Sent in User-Agent; kept equal to package.json's version by test/main/api/version.test.ts. */
export const CLIENT_VERSION = '0.1.0';
