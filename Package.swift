// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Fluxion",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Fluxion", targets: ["Fluxion"]),
        .executable(name: "fluxion-example", targets: ["FluxionExample"]),
        .executable(name: "fluxion-benchmarks", targets: ["FluxionBenchmarks"]),
    ],
    targets: [
        .target(name: "Fluxion"),
        .executableTarget(
            name: "FluxionExample",
            dependencies: ["Fluxion"],
            path: "Example"
        ),
        .executableTarget(name: "FluxionBenchmarks", dependencies: ["Fluxion", "CHeapUsage"]),
        .target(name: "CHeapUsage"),
        // Killed mid-write by the crash-safety test; a dependency of the tests so that it is built with them.
        .executableTarget(name: "FluxionCrashWriter", dependencies: ["Fluxion"]),
        .testTarget(name: "FluxionTests", dependencies: ["Fluxion", "FluxionCrashWriter"]),
    ],
    swiftLanguageModes: [.v6]
)
