import Prometheus
import Vapor

/// The process-wide Prometheus registry behind `/metrics`. Vapor's own `reportMetrics` is off, so each
/// request is recorded exactly once, by `RequestObservationMiddleware`, with the route template as label.
public struct MetricsRegistry: Sendable {
    public let registry: PrometheusCollectorRegistry

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) { self.registry = registry }

    static let durationBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// The `status` label of a request whose client disconnected before its body was complete.
    public static let clientAbortStatus = "client_abort"

    public func recordRequest(method: String, route: String, status: UInt, seconds: Double) {
        recordRequest(method: method, route: route, status: String(status), seconds: seconds)
    }

    public func recordRequest(method: String, route: String, status: String, seconds: Double) {
        registry.makeCounter(
            name: "http_requests_total", labels: [("method", method), ("route", route), ("status", status)]
        ).increment()
        registry.makeValueHistogram(
            name: "http_request_duration_seconds", labels: [("method", method), ("route", route)],
            buckets: Self.durationBuckets
        ).record(seconds)
    }

    public func counter(_ name: String, labels: [(String, String)] = []) -> Counter {
        registry.makeCounter(name: name, labels: labels)
    }

    public func gauge(_ name: String, labels: [(String, String)] = []) -> Gauge {
        registry.makeGauge(name: name, labels: labels)
    }

    public func render() -> String { registry.emitToString() }
}

extension Application {
    private struct MetricsKey: StorageKey { typealias Value = MetricsRegistry }

    public var metricsRegistry: MetricsRegistry {
        get {
            if let existing = storage[MetricsKey.self] { return existing }
            let created = MetricsRegistry()
            storage[MetricsKey.self] = created
            return created
        }
        set { storage[MetricsKey.self] = newValue }
    }
}
