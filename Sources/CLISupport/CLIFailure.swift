/// A runtime failure that is not an API error (a local file, a timeout, a missing key): exit code 1.
package struct CLIFailure: Error {
    package let message: String
    package init(_ message: String) { self.message = message }
}
