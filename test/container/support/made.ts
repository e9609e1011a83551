/** What a run of the container test made (containers, volumes, networks), removed at the end. */
import { podman } from "./podman.ts";

/** What the run made, removed at the end whatever happened. */
export class Made {
  readonly #containers = new Set<string>();
  readonly #volumes = new Set<string>();
  readonly #networks = new Set<string>();
  container(name: string): string {
    this.#containers.add(name);
    return name;
  }
  volume(name: string): string {
    this.#volumes.add(name);
    return name;
  }
  network(name: string): string {
    this.#networks.add(name);
    return name;
  }
  /** Removes every container, then the volumes and networks; never throws. */
  removeAll(): void {
    const quietly = (args: string[]) => {
      try {
        podman(args);
      } catch {
        // already gone
      }
    };
    for (const name of this.#containers) quietly(["rm", "--force", "--volumes", "--time", "0", name]);
    for (const name of this.#volumes) quietly(["volume", "rm", "--force", name]);
    for (const name of this.#networks) quietly(["network", "rm", "--force", name]);
  }
}
