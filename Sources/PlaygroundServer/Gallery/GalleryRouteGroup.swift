import MicroHTTP

extension API {
    /// Embeds of the gallery and of programs, and oEmbed (docs/API.md, "Embedding").
    func addGalleryRoutes(to router: inout Router) {
        router.add(.get, "/embed/gallery/{id}") { request in embedPage(request) }
        router.add(.get, "/embed/program") { request in embedPage(request) }
        router.add(.get, "/oembed") { request in oEmbed(request) }
    }
}
