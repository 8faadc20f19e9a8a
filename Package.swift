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
        .testTarget(name: "FluxionTests", dependencies: ["Fluxion"]),
    ],
    swiftLanguageModes: [.v6]
)
