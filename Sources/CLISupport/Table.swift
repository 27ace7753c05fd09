import Foundation

/// A plain-text table with a header row; columns padded to their widest cell.
package struct Table {
    package var headers: [String]
    package var rows: [[String]] = []

    package init(_ headers: String...) { self.headers = headers }

    package mutating func add(_ cells: String...) { rows.append(cells) }

    package func render() -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }
}

/// Key/value lines, keys padded.
package func keyValues(_ pairs: [(String, String)]) -> String {
    let width = pairs.map(\.0.count).max() ?? 0
    return pairs.map { "\($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1)" }.joined(separator: "\n")
}
