// A small hash router: each route names the views it shows; the router unmounts the others and
// mounts those, so no view needs to know which other views exist. Links stay plain `#…` hashes.

export class Router {
  /**
   * `views` maps a name to a view: `{mount(params), unmount()}`. `onError` receives what a route
   * handler throws.
   */
  constructor(views, { onError }) {
    this.views = views;
    this.onError = onError;
    this.routes = [];
  }

  /**
   * Adds a route: `match(hash)` returns null when the route does not apply, else what `handle`
   * receives. Routes are tried in the order added.
   */
  on(match, handle) {
    this.routes.push({ match, handle });
    return this;
  }

  /** Shows exactly the views named in `shown` (name → parameters of its mount). */
  async show(shown) {
    for (const [name, view] of Object.entries(this.views)) if (!(name in shown)) view.unmount();
    for (const [name, params] of Object.entries(shown)) await this.views[name].mount(params ?? {});
  }

  /** Replaces the address's hash without a new history entry or a `hashchange`. */
  replace(hash) {
    history.replaceState(null, "", `#${hash}`);
  }

  /** Runs the route of the current hash. */
  async route() {
    const hash = decodeURIComponent(location.hash.slice(1));
    for (const { match, handle } of this.routes) {
      const found = match(hash);
      if (found === null) continue;
      try {
        await handle(found);
      } catch (error) {
        this.onError(error);
      }
      return;
    }
  }

  /** Follows the hash from now on, starting with the current one. */
  start() {
    window.addEventListener("hashchange", () => this.route());
    return this.route();
  }
}
