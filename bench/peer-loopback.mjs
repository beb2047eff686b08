// Preloaded (`node --import`) into a peer gateway started by the benchmark, so
// that it listens on 127.0.0.1 only: Portkey's start script calls
// `serve({ fetch, port })` without a host, which would bind every interface.
// A listen() without an explicit host gets 127.0.0.1; nothing else changes.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function loopbackListen(...args) {
  const [first] = args;
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const callback = args.find((a) => typeof a === 'function');
    return callback ? listen.call(this, Number(first), '127.0.0.1', callback) : listen.call(this, Number(first), '127.0.0.1');
  }
  if (first && typeof first === 'object' && !('fd' in first) && !('_handle' in first) && first.path === undefined) {
    return listen.call(this, { ...first, host: '127.0.0.1' }, ...args.slice(1));
  }
  return listen.apply(this, args);
};
