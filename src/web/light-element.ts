/**
 * The base of the dashboard's elements: a lit element that renders into
 * itself (no shadow root), so that the one stylesheet of the page styles
 * every view and tests find the elements by their ids and classes.
 *
 * @example
 * ```ts
 * class Hello extends LightElement {
 *   render() { return html`<p class="hello">hello</p>`; }
 * }
 * customElements.define("weir-hello", Hello);
 * ```
 */
import { LitElement } from "lit";

export class LightElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}
