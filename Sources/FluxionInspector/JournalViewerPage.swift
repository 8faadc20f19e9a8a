// The journal viewer: one HTML page with its styles and script inline, and a journal's lines embedded.
//
// The page is made of the files in Resources, embedded in the module when it is built (`.embedInCode`): no
// bundle is looked up when it runs. It asks for nothing over the network (its Content-Security-Policy forbids
// it), so that it works from `file://` and offline. Its script reads the embedded lines from
// `<script id="journal">`, and a file the user opens, the same way: JSON Lines as a `Journal` writes them.

import Fluxion
import Foundation

enum JournalViewerPage {
    /// What every page holds in its head: writing a page replaces only a file that holds it.
    static let generatorMark = #"<meta name="generator" content="Fluxion journal viewer">"#

    /// The script's files, in the order the page runs them: they share one function's scope.
    static let scripts: [[UInt8]] = [
        PackageResources.viewer_journal_js, PackageResources.viewer_format_js, PackageResources.viewer_list_js,
        PackageResources.viewer_detail_js, PackageResources.viewer_axis_js, PackageResources.viewer_app_js,
    ]

    /// A part of the page: text as it is, or a slot a page fills for its journal.
    enum Piece: Equatable {
        case text(String)
        case title, name, journal
    }

    /// `viewer.html` with its style sheet, script and the journal version filled in, and three slots left.
    static let pieces: [Piece] = {
        let filled = [
            "STYLE": text(of: PackageResources.viewer_css),
            "SCRIPT": scripts.map(text(of:)).joined(separator: "\n\n"),
            "VERSION": "\(Journal.fileFormatVersion)",
        ]
        let slots: [String: Piece] = ["TITLE": .title, "NAME": .name, "JOURNAL": .journal]
        var pieces: [Piece] = []
        var parts = text(of: PackageResources.viewer_html).components(separatedBy: "{{")
        pieces.append(.text(parts.removeFirst()))
        for part in parts {
            // NB: each `{{` in the page opens a placeholder: `NAME}}` and the text after it.
            let split = part.components(separatedBy: "}}")
            let key = split[0]
            let rest = split.dropFirst().joined(separator: "}}")
            if let value = filled[key] {
                pieces.append(.text(value))
            } else if let slot = slots[key] {
                pieces.append(slot)
            } else {
                preconditionFailure("viewer.html has an unknown placeholder {{\(key)}}")
            }
            pieces.append(.text(rest))
        }
        return pieces
    }()

    /// The page with its slots shown as `{{TITLE}}`, `{{NAME}}` and `{{JOURNAL}}`.
    static var template: String {
        page(title: "{{TITLE}}", name: "{{NAME}}", lines: "{{JOURNAL}}")
    }

    /// The page with `journal`, a journal file's text, embedded, titled `name`.
    static func html(embedding journal: Data, name: String) -> String {
        // NB: in JSON text `<` stands only inside strings, where `\u003c` reads the same: no `</script>` or
        // `<!--` is left to end the element early, whatever the payloads hold.
        let lines = String(decoding: journal, as: UTF8.self).replacingOccurrences(of: "<", with: #"\u003c"#)
        let name = escapingHTML(name)
        return page(title: name, name: name, lines: lines)
    }

    /// The pieces with their slots filled.
    private static func page(title: String, name: String, lines: String) -> String {
        var page = ""
        for piece in pieces {
            switch piece {
            case .text(let text): page += text
            case .title: page += title
            case .name: page += name
            case .journal: page += lines
            }
        }
        return page
    }

    /// `text` as HTML text or an attribute's value.
    static func escapingHTML(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// An embedded file's text, without its last line break (the page places each file on lines of its own).
    static func text(of resource: [UInt8]) -> String {
        let text = String(decoding: resource, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
