'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: it stands in for undici's CommonJS index and requires undici's own modules by path. */
/**
 * What the agent bundle gets for `import ... from 'undici'` (an esbuild alias in
 * scripts/bundle-agent.ts): the same classes from undici's own modules, without its index.
 * The index also loads fetch, WebSocket, EventSource, the cache and cookie helpers and the
 * mocks, and the cookie module reads `globalThis.Headers` at import time, which makes Node
 * load its own built-in copy of undici: about 17 MB of an idle agent's memory for code it
 * never runs (docs/BENCHMARKS.md, "Idle memory: undici"). FormData loads on first use (an
 * upload), and the multipart body code is already loaded lazily by undici itself.
 *
 * Only the names src/main imports from 'undici' are here: a new one must be added, or it is
 * undefined in the bundle (test/scripts/bundle-agent.test.ts checks the list against src/main).
 */
const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const api = require('undici/lib/api');
const { InvalidArgumentError } = require('undici/lib/core/errors');
const util = require('undici/lib/core/util');
const { getGlobalDispatcher } = require('undici/lib/global');

// As undici's index does: request(), stream(), ... on every dispatcher.
Object.assign(Dispatcher.prototype, api);

// undici's index.js makeDispatcher(), unchanged in behaviour.
function makeDispatcher(fn) {
  return (url, opts, handler) => {
    if (typeof opts === 'function') {
      handler = opts;
      opts = null;
    }
    if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) {
      throw new InvalidArgumentError('invalid url');
    }
    if (opts != null && typeof opts !== 'object') throw new InvalidArgumentError('invalid opts');
    if (opts && opts.path != null) {
      if (typeof opts.path !== 'string') throw new InvalidArgumentError('invalid opts.path');
      const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
      url = new URL(util.parseOrigin(url).origin + path);
    } else {
      if (!opts) opts = typeof url === 'object' ? url : {};
      url = util.parseURL(url);
    }
    const { agent, dispatcher = getGlobalDispatcher() } = opts;
    if (agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
    return fn.call(
      dispatcher,
      {
        ...opts,
        origin: url.origin,
        path: url.search ? `${url.pathname}${url.search}` : url.pathname,
        method: opts.method || (opts.body ? 'PUT' : 'GET'),
      },
      handler,
    );
  };
}

module.exports.Dispatcher = Dispatcher;
module.exports.Client = require('undici/lib/dispatcher/client');
module.exports.Agent = require('undici/lib/dispatcher/agent');
module.exports.errors = require('undici/lib/core/errors');
module.exports.request = makeDispatcher(api.request);
Object.defineProperty(module.exports, 'FormData', {
  enumerable: true,
  get: () => require('undici/lib/web/fetch/formdata').FormData,
});
