/**
 * The mock's conformance suite, unchanged, against the standalone server over real HTTP: every
 * request goes through a socket, node:http and the server's bridge, and back.
 */
import { startMockServer } from "../../mock/server/index.js";
import { defineConformanceSuite } from "../conformance/suite.js";

defineConformanceSuite("the standalone server over HTTP", async ({ baseUrl: _mockBaseUrl, ...options }) => {
  const server = await startMockServer({ ...options, port: 0 });
  return { api: server.api, baseUrl: server.url, send: (request) => fetch(request), close: () => server.close() };
});
