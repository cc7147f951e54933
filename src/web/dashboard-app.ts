/**
 * `<weir-dashboard>`: the page: a header (the token field once the server
 * asks for a token, a notice when the server cannot be reached) and the view
 * of the hash route: `#/` the job list, `#/jobs/<jid>/<tab>` a job.
 *
 * @example
 * ```ts
 * document.body.append(document.createElement("weir-dashboard"));
 * ```
 */
import { html, nothing } from "lit";
import { currentToken, isReachable, isTokenRequired, onConnectionChange, setToken } from "./api.ts";
import { TABS, type Tab } from "./job-page.ts";
import { LightElement } from "./light-element.ts";

/** A hash route: the job list, or one job and a tab. */
type Route = { readonly view: "jobs" } | { readonly view: "job"; readonly jid: string; readonly tab: Tab };

/** The route of `hash` (`#/jobs/<jid>/<tab>`; anything else is the job list). */
export function parseRoute(hash: string): Route {
  const m = /^#\/jobs\/([0-9a-zA-Z-]+)(?:\/([a-z]+))?/.exec(hash);
  if (!m) return { view: "jobs" };
  const tab = (TABS as readonly string[]).includes(m[2] ?? "") ? (m[2] as Tab) : "overview";
  return { view: "job", jid: m[1]!, tab };
}

export class DashboardApp extends LightElement {
  private route: Route = parseRoute(location.hash);
  private readonly onHash = () => {
    this.route = parseRoute(location.hash);
    this.requestUpdate();
  };
  private unsubscribe: (() => void) | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener("hashchange", this.onHash);
    this.unsubscribe = onConnectionChange(() => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener("hashchange", this.onHash);
    this.unsubscribe?.();
  }

  override render(): unknown {
    const r = this.route;
    return html`<header class="top">
        <a class="brand" href="#/">Weir</a>
        <span class="muted">${r.view === "job" ? html`<a href="#/">jobs</a> / ${r.jid.slice(0, 8)}` : "jobs"}</span>
        <span class="spacer"></span>
        ${isTokenRequired()
          ? html`<label class="token">token <input id="rest-token" type="password" autocomplete="off" .value=${currentToken()}
              @input=${(e: Event) => setToken((e.target as HTMLInputElement).value.trim())} /></label>`
          : nothing}
      </header>
      ${isReachable() ? nothing : html`<p class="banner unreachable">The job's server cannot be reached: the job has ended, or its process is gone.</p>`}
      ${isTokenRequired() && !currentToken() ? html`<p class="banner token-needed">This server requires a token (<code>rest.token</code>, <code>--web-token</code>): type it above.</p>` : nothing}
      <main>${r.view === "jobs" ? html`<weir-job-list></weir-job-list>` : html`<weir-job-page jid=${r.jid} tab=${r.tab}></weir-job-page>`}</main>`;
  }
}
