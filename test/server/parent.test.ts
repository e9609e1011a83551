/** The CLI stops when the process that started it exits: its parent process ID changes. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { watchParent } from "../../mock/server/cli/parent.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("watchParent", () => {
  it("calls back once, at the first look after the parent process ID changed", () => {
    vi.useFakeTimers();
    let ppid = 4321;
    const onGone = vi.fn();
    watchParent(onGone, { ppid: () => ppid }, 100);
    vi.advanceTimersByTime(1_000);
    expect(onGone).not.toHaveBeenCalled();
    ppid = 1; // the parent exited: the kernel handed the process to init
    vi.advanceTimersByTime(100);
    expect(onGone).toHaveBeenCalledTimes(1);
    ppid = 4321;
    vi.advanceTimersByTime(1_000);
    expect(onGone).toHaveBeenCalledTimes(1);
  });

  it("stops looking when told to", () => {
    vi.useFakeTimers();
    let ppid = 4321;
    const onGone = vi.fn();
    const stop = watchParent(onGone, { ppid: () => ppid }, 100);
    stop();
    ppid = 1;
    vi.advanceTimersByTime(1_000);
    expect(onGone).not.toHaveBeenCalled();
  });
});
