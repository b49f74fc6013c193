// How many turns of the event loop the rest of a process had while `work` ran: a loop that asks
// for one turn at a time counts them. Work that runs without a break holds them off to its end.
export async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await work();
  } finally {
    running = false;
  }
  return turns;
}
