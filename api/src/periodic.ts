// A background job that runs `tick` now and then again `intervalMs` after each run ends (never two at once), until
// stopped; `stop` waits for a run in progress. A failed run is reported and the next one goes ahead.
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> | undefined;
  private running = false;

  constructor(
    private readonly tick: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    const loop = () => {
      if (!this.running) return;
      this.current = this.tick()
        .catch(this.onError)
        .finally(() => {
          if (this.running) this.timer = setTimeout(loop, this.intervalMs);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.current;
  }
}
