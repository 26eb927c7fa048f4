import Foundation
import HTTPTypes

extension Resilience {
    /// Identifies one server by scheme, host and port: the unit that retry budgets and circuit
    /// breakers are kept per, so that one failing host never throttles or cuts off another.
    ///
    /// Scheme and host are compared case-insensitively and a missing port means the scheme's
    /// default, so `https://API.example.com` and `https://api.example.com:443` share a key.
    public struct Host: Sendable, Hashable, CustomStringConvertible {
        /// The URL scheme, lowercased.
        public let scheme: String
        /// The host name or address, lowercased, without IPv6 brackets.
        public let host: String
        /// The port, filled in from the scheme when the URL named none; `nil` for a scheme with
        /// no known default.
        public let port: Int?

        /// Creates a key; `port` defaults to the scheme's well-known port.
        public init(scheme: String, host: String, port: Int? = nil) {
            let scheme = scheme.lowercased()
            self.scheme = scheme
            self.host = host.lowercased()
            self.port = port ?? Self.defaultPort(for: scheme)
        }

        /// Creates the key of the server `request` is addressed to, or `nil` when the request has
        /// no scheme or authority, or its authority cannot be read.
        public init?(_ request: HTTPRequest) {
            guard let scheme = request.scheme, let authority = request.authority,
                  let (host, port) = Self.split(authority: authority)
            else { return nil }
            self.init(scheme: scheme, host: host, port: port)
        }

        /// Creates the key of the server `url` points at, or `nil` when it has no scheme or host.
        public init?(_ url: URL) {
            guard let scheme = url.scheme, let host = url.host, !host.isEmpty else { return nil }
            let unbracketed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            self.init(scheme: scheme, host: unbracketed, port: url.port)
        }

        /// `scheme://host:port`, with brackets around an IPv6 address.
        public var description: String {
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return port.map { "\(scheme)://\(shownHost):\($0)" } ?? "\(scheme)://\(shownHost)"
        }

        private static func defaultPort(for scheme: String) -> Int? {
            switch scheme {
            case "http", "ws": 80
            case "https", "wss": 443
            default: nil
            }
        }

        /// Splits `user@host:port`, `host`, `[v6]:port` and `[v6]` into host and optional port.
        private static func split(authority: String) -> (String, Int?)? {
            var rest = Substring(authority)
            if let at = rest.lastIndex(of: "@") {
                rest = rest[rest.index(after: at)...]
            }
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                let host = rest[rest.index(after: rest.startIndex)..<close]
                let tail = rest[rest.index(after: close)...]
                if tail.isEmpty { return host.isEmpty ? nil : (String(host), nil) }
                guard tail.hasPrefix(":"), let port = parsePort(tail.dropFirst()) else { return nil }
                return host.isEmpty ? nil : (String(host), port)
            }
            guard let colon = rest.lastIndex(of: ":") else {
                return rest.isEmpty ? nil : (String(rest), nil)
            }
            let host = rest[..<colon]
            guard !host.isEmpty, !host.contains(":"), let port = parsePort(rest[rest.index(after: colon)...]) else {
                return nil
            }
            return (String(host), port)
        }

        private static func parsePort(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.count <= 5, text.allSatisfy(\.isASCII), let port = Int(text), (0...65535).contains(port) else {
                return nil
            }
            return port
        }
    }
}
