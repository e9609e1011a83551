/**
 * Names the engine a scenario runs on, from the engine's own globals, so the harness can prove
 * the intended runtime ran (and not, say, the machine's Node). Bundled into each scenario.
 */

/**
 * Names the running engine.
 *
 * @returns for example `node 22.23.3`, `bun 1.4.5`, `deno 2.9.6`, `workerd` or `chrome 156`
 */
export function host(): string {
  const g = globalThis as {
    Bun?: { version: string };
    Deno?: { version: { deno: string } };
    process?: { versions?: { node?: string } };
    navigator?: { userAgent?: string };
  };
  const agent = g.navigator?.userAgent ?? "";
  // Bun and Deno carry a Node-like `process` too, so they are asked first.
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (agent === "Cloudflare-Workers") return "workerd";
  if (g.process?.versions?.node) return `node ${g.process.versions.node}`;
  // Chrome's user agent carries only the major version (156.0.0.0).
  const chrome = /Chrome\/(\d+)\./.exec(agent);
  return chrome ? `chrome ${chrome[1]}` : `unknown (${agent})`;
}
