// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Fluxion",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Fluxion", targets: ["Fluxion"]),
        .library(name: "FluxionTesting", targets: ["FluxionTesting"]),
        .library(name: "FluxionInspector", targets: ["FluxionInspector"]),
        .executable(name: "fluxion-inspect", targets: ["FluxionInspect"]),
        .executable(name: "todo", targets: ["TodoCLI"]),
        .executable(name: "fluxion-benchmarks", targets: ["FluxionBenchmarks"]),
    ],
    targets: [
        .target(name: "Fluxion", dependencies: ["CFluxionAtomics"]),
        // C11 atomics: `Synchronization.Atomic` needs newer Apple systems than Fluxion supports.
        .target(name: "CFluxionAtomics"),
        // Test support for apps: exhaustive assertions over a real dispatcher; Swift Testing or XCTest.
        .target(name: "FluxionTesting", dependencies: ["Fluxion"]),
        // The journal viewer and `.jsonl` tooling, for a developer's machine: the page's files are embedded
        // in the module when it is built, so that nothing is looked up when it runs.
        .target(
            name: "FluxionInspector", dependencies: ["Fluxion"],
            resources: [
                .embedInCode("Resources/viewer.html"), .embedInCode("Resources/viewer.css"),
                .embedInCode("Resources/viewer-journal.js"), .embedInCode("Resources/viewer-format.js"),
                .embedInCode("Resources/viewer-list.js"), .embedInCode("Resources/viewer-detail.js"),
                .embedInCode("Resources/viewer-axis.js"), .embedInCode("Resources/viewer-app.js"),
            ]),
        // The thin `fluxion-inspect` executable: a journal file's summary or viewer page.
        .executableTarget(name: "FluxionInspect", dependencies: ["FluxionInspector"]),
        // An app that links only Fluxion: `.ci/run` checks that its binary holds none of the viewer.
        .executableTarget(name: "FluxionLinkCheck", dependencies: ["Fluxion"]),
        // The example app: its stores, actions, parser and views, testable without a process...
        .target(name: "TodoCore", dependencies: ["Fluxion", "FluxionInspector"], path: "Example/TodoCore"),
        // ...and the thin `todo` executable: the terminal, the interactive loop, exit statuses.
        .executableTarget(name: "TodoCLI", dependencies: ["TodoCore", "Fluxion"], path: "Example/TodoCLI"),
        // Its README is the engineering log of the figures (the user's side is the DocC article "Performance").
        .executableTarget(name: "FluxionBenchmarks", dependencies: ["Fluxion", "CHeapUsage"], exclude: ["README.md"]),
        .target(name: "CHeapUsage"),
        // Killed mid-write by the crash-safety test; a dependency of the tests so that it is built with them.
        .executableTarget(name: "FluxionCrashWriter", dependencies: ["Fluxion"]),
        .testTarget(name: "FluxionTests", dependencies: ["Fluxion", "FluxionCrashWriter"]),
        .testTarget(name: "FluxionTestingTests", dependencies: ["FluxionTesting"]),
        .testTarget(name: "FluxionInspectorTests", dependencies: ["FluxionInspector"]),
        // A reference model of the documented promises, and random programs checked against it.
        .testTarget(name: "ModelTests", dependencies: ["Fluxion"], exclude: ["README.md"]),
        .testTarget(
            name: "TodoCoreTests", dependencies: ["TodoCore", "FluxionTesting"],
            // A session recorded with `todo --record`, replayed as a test (`SessionReplayTests`).
            resources: [.copy("Sessions")]),
        // The code of the DocC guides, as an app's module would hold it: compiled, run, and checked verbatim.
        .testTarget(name: "GuideTests", dependencies: ["Fluxion", "FluxionTesting"]),
        // A forty-entry handler table; `.ci/run` type-checks it alone with a 200 ms limit per expression.
        .testTarget(name: "HandlerTableCompileTests", dependencies: ["Fluxion"]),
        // Runs the `todo` executable as a subprocess; depends on it so that `swift test` builds it.
        .testTarget(name: "TodoTests", dependencies: ["TodoCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
