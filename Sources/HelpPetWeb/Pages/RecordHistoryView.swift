import Foundation
import HelpPetAPI
import Plot
import WebConsole

/// The medical record history: one card per record (lineage) with its current version, its older versions, and a
/// side-by-side comparison of any two versions in which the fields that changed are marked.
struct RecordHistoryView {
    let context: ClinicContext
    let petID: UUID
    let records: [ConsoleRecord]
    let clock: ConsoleDates
    let canEdit: Bool

    /// Lineages in the history's order, each newest version first.
    var lineages: [[ConsoleRecord]] {
        var order: [UUID] = []
        var byLineage: [UUID: [ConsoleRecord]] = [:]
        for record in records {
            if byLineage[record.originalID] == nil { order.append(record.originalID) }
            byLineage[record.originalID, default: []].append(record)
        }
        return order.map { byLineage[$0]!.sorted { $0.version > $1.version } }
    }

    func render() -> Node<HTML.BodyContext> {
        .div(
            .class("stack"),
            .if(records.isEmpty, .p(.class("muted"), .text("No medical records yet."))),
            .forEach(lineages) { versions in lineage(versions) }
        )
    }

    private func lineage(_ versions: [ConsoleRecord]) -> Node<HTML.BodyContext> {
        let current = versions.first { $0.isCurrent } ?? versions[0]
        let lineageID = PageParts.lower(current.originalID)
        return .tag("article",
            .class("card stack record"), .attr("data-record", lineageID),
            .div(.class("row"),
                 .h3(.safeText(current.title)),
                 .span(.class("badge info"), .safeText(Labels.type(current.recordType))),
                 .span(.class("badge ok"), .safeText("v\(current.version) current")),
                 .div(.class("spacer")),
                 .if(canEdit, .a(.class("button"), .attr("href", context.url(.amendRecord(.value(current.id)))),
                                 .text("Amend")))),
            PageParts.facts(current.comparableFields.dropFirst(2).map { ($0.label, $0.value) }
                            + [("Written", clock.dateTime(current.createdAt))]),
            .if(versions.count > 1, .tag("details",
                .tag("summary", .safeText("\(versions.count - 1) earlier version\(versions.count == 2 ? "" : "s")")),
                .ul(.forEach(versions.dropFirst()) { version in
                    .li(.safeText("v\(version.version) · \(clock.dateTime(version.createdAt)) "),
                        .a(.attr("href", compareURL(current, version)),
                           .safeText("compare with v\(current.version)")))
                })
            ))
        )
    }

    func compareURL(_ a: ConsoleRecord, _ b: ConsoleRecord) -> String {
        context.url(.compareRecords(pet: .value(petID)), query: ["a": PageParts.lower(b.id), "b": PageParts.lower(a.id)])
    }

    /// Two versions side by side; rows whose value differs are marked `changed`.
    static func comparison(_ older: ConsoleRecord, _ newer: ConsoleRecord) -> Node<HTML.BodyContext> {
        let rows = zip(older.comparableFields, newer.comparableFields).map { ($0.label, $0.value, $1.value) }
        return .div(.class("table-wrap"), .table(
            .class("compare"),
            .thead(.tr(.th("Field"), .th(.safeText("Version \(older.version)")), .th(.safeText("Version \(newer.version)")))),
            .tbody(.forEach(rows) { label, before, after in
                .tr(.class(before == after ? "same" : "changed"),
                    .th(.attr("scope", "row"), .safeText(label)),
                    .td(.safeText(before.isEmpty ? "—" : before)),
                    .td(.safeText(after.isEmpty ? "—" : after)))
            })
        ))
    }
}
