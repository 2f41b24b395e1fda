// A clock the tests move by hand: now(), sleep(ms) (recorded, returns at once) and timers that fire on advance(ms).

/** More sleeps than this in one test is a retry loop that never ends: sleep rejects so the test fails instead of hanging. */
const MAX_SLEEPS = 50;

export function createManualClock(start) {
  let time = start;
  const timers = [];
  const sleeps = [];
  const clearTimeout = (timer) => {
    const index = timers.indexOf(timer);
    if (index !== -1) timers.splice(index, 1);
  };
  return {
    now: () => time,
    sleeps,
    sleep(ms) {
      if (sleeps.length >= MAX_SLEEPS) return Promise.reject(new Error(`more than ${MAX_SLEEPS} sleeps: a retry loop that never ends`));
      sleeps.push(ms);
      time += ms;
      return Promise.resolve();
    },
    setTimeout(callback, ms) {
      const timer = { at: time + ms, callback };
      timers.push(timer);
      return timer;
    },
    clearTimeout,
    /** Moves the clock forward and fires the timers that are due, in order. */
    advance(ms) {
      time += ms;
      for (const timer of timers.filter((candidate) => candidate.at <= time).sort((a, b) => a.at - b.at)) {
        clearTimeout(timer);
        timer.callback();
      }
    },
    get pendingTimers() {
      return timers.length;
    },
  };
}

/** Lets pending promise callbacks run. */
export async function flush() {
  for (let round = 0; round < 10; round += 1) await Promise.resolve();
}
