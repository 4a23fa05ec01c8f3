// Preloaded (`node --require`) into Node processes run under Wine by test/targets/. Wine 8's Winsock refuses the TCP
// keep-alive option libuv sets on a socket that is still connecting, which fails the connect ("connect UNKNOWN");
// undici — fetch() — sets keep-alive right after it starts connecting, so every fetch() under Wine fails. Real
// Windows accepts it. The shim defers a keep-alive asked for during the connect until the socket is connected, so
// the code under test (the platform's local client, which reaches the platform with fetch) runs unchanged.
'use strict';
const net = require('node:net');
const setKeepAlive = net.Socket.prototype.setKeepAlive;
net.Socket.prototype.setKeepAlive = function deferredSetKeepAlive(...args) {
  if (this.connecting) {
    this.once('connect', () => setKeepAlive.apply(this, args));
    return this;
  }
  return setKeepAlive.apply(this, args);
};
