/**
 * A value loaded from the REST API again and again while the element that
 * shows it is on the page (a lit reactive controller): the element re-renders
 * after each load, and a load never overlaps the previous one.
 *
 * @example
 * ```ts
 * class JobList extends LitElement {
 *   private readonly jobs = new Poll(this, () => getJson<JobsOverview>("jobs/overview"), 2000);
 *   render() { return html`${this.jobs.value?.jobs.length ?? "…"} jobs`; }
 * }
 * ```
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

export class Poll<T> implements ReactiveController {
  /** The last value loaded (kept when a later load fails). */
  value: T | undefined;
  /** The last load's error message, undefined after a load that succeeded. */
  error: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped when the host leaves the page or a refresh starts: a load of an older round does not schedule the next. */
  private round = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly load: () => Promise<T>,
    private readonly everyMs: number,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    void this.refresh();
  }

  hostDisconnected(): void {
    this.round++;
    clearTimeout(this.timer);
  }

  /** Loads now (after an action), then every `everyMs` again. */
  async refresh(): Promise<void> {
    clearTimeout(this.timer);
    const round = ++this.round;
    try {
      const value = await this.load();
      if (round !== this.round) return;
      this.value = value;
      this.error = undefined;
    } catch (e) {
      if (round !== this.round) return;
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.host.requestUpdate();
    this.timer = setTimeout(() => void this.refresh(), this.everyMs);
  }
}
