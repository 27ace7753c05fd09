import Synchronization

/// Rendered day boards by version stamp (docs/web-console.md, "Day board"). The stamp names the practice, the day,
/// the layout and the state of everything the board shows, and every viewer of one practice's board sees the same
/// HTML, so a board is rendered once per change, not once per viewer and poll. Bounded: the oldest entry goes first.
final class BoardFragmentCache: Sendable {
    private struct Entries {
        var html: [String: String] = [:]
        var order: [String] = []
    }

    private let entries = Mutex(Entries())
    let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// The cached board of `version`, or `render`'s (then kept). Two first viewers of a new stamp may both render;
    /// both get the same HTML.
    func html(version: String, render: () async throws -> String) async rethrows -> String {
        if let cached = cached(version) { return cached }
        let html = try await render()
        store(html, for: version)
        return html
    }

    func cached(_ version: String) -> String? {
        entries.withLock { $0.html[version] }
    }

    func store(_ html: String, for version: String) {
        entries.withLock { entries in
            guard entries.html.updateValue(html, forKey: version) == nil else { return }
            entries.order.append(version)
            if entries.order.count > capacity { entries.html[entries.order.removeFirst()] = nil }
        }
    }
}
