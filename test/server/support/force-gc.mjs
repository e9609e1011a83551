// Preloaded into the CLI (`node --expose-gc --import <this file>`) by the delivery-resource
// tests: a full garbage collection every 50 ms, so anything that only a weak reference keeps
// alive (an abort signal's chain, an attempt's request) is collected while the attempt runs.
const timer = setInterval(() => globalThis.gc(), 50);
timer.unref();
