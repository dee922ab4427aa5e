import MicroHTTP

extension API {
    /// Links (docs/API.md, "Links"): keeping one, reading one, and its short page.
    func addLinkRoutes(to router: inout Router) {
        router.add(.post, "/api/links", preflight: linkHead) { request in keepLink(request) }
        router.add(.get, "/api/links/{id}") { request in readLink(request) }
        router.add(.get, "/api/links/{id}/inside") { request in linkInside(request) }
        router.add(.get, "/s/{id}") { request in linkPage(request) }
    }
}
