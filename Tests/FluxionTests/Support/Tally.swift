/// A state that remembers every payload its store handled.
struct Tally: Sendable, Equatable {
    var total = 0
    var calls = 0
    var payloads: [Int] = []

    mutating func add(_ value: Int) {
        total += value
        calls += 1
        payloads.append(value)
    }
}
