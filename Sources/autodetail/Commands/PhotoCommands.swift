import ArgumentParser
import AutoDetailKit
import CLISupport
import Foundation

struct PhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo", abstract: "Photos of a booking.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload photos (.jpg, .jpeg, .png, .heic; at most 15 MiB each) and link them to a booking.",
            discussion: "Each file is presigned and PUT straight to storage (progress bar on a terminal); all files are then linked in one call.")

        enum Kind: String, ExpressibleByArgument, CaseIterable {
            case work, defect
        }

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Appointment id.") var id: String
        @Option(name: .long, help: "work (the finished job) or defect (found at reception).") var kind: Kind
        @Argument(help: "Image files.") var files: [String]

        func validate() throws {
            try Check.id(id, what: "The appointment id")
            guard !files.isEmpty else { throw ValidationError("Give at least one image file") }
            guard files.count <= 10 else { throw ValidationError("At most 10 files per call") }
            for file in files where AutoDetailClient.photoContentType(forFileName: file) == nil {
                throw ValidationError("\(file): unknown photo type (use .jpg, .jpeg, .png or .heic)")
            }
        }

        func run() async throws {
            let client = global.makeClient()
            let photoKind = PhotoKind(rawValue: kind.rawValue)
            var refs: [String] = []
            for path in files {
                let file = URL(fileURLWithPath: path)
                let view = UploadProgressView(label: file.lastPathComponent)
                do {
                    let ref = try await client.uploadPhotoFile(appointmentId: id, kind: photoKind, file: file) { view.update($0) }
                    view.finish(success: true)
                    refs.append(ref)
                } catch {
                    view.finish(success: false)
                    throw error
                }
            }
            let appointment = try await client.linkPhotos(appointmentId: id, kind: photoKind, refs: refs)
            if global.json { return try global.printJSON(appointment) }
            let photos = kind == .work ? appointment.workPhotos : appointment.defectPhotos
            Terminal.out("Linked \(refs.count) \(kind.rawValue) photo\(refs.count == 1 ? "" : "s") to \(appointment.id) (\(photos.count) in all).")
        }
    }
}
