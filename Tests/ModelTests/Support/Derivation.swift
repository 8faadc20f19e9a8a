/// The model's computed stores: which stores each is computed from, and how, in dependency order.
///
/// E (4) is computed from A and B, F (5) from three stores, A, C and D, and G (6) from two computed stores,
/// E and F. The real stores' `compute` closures and the model call the same functions.
enum Derivation {
    /// The computed stores, in dependency order: each after those it is computed from.
    static let computed = [4, 5, 6]

    /// The stores each computed store is computed from, in the order its `compute` takes them.
    static func sources(of store: Int) -> [Int] {
        switch store {
        case 4: [0, 1]
        case 5: [0, 2, 3]
        case 6: [4, 5]
        default: []
        }
    }

    static func isComputed(_ store: Int) -> Bool {
        computed.contains(store)
    }

    /// The computed stores that follow `store`, directly or through others, in dependency order.
    static func dependents(of store: Int) -> [Int] {
        var followed: Set<Int> = [store]
        var dependents: [Int] = []
        for computed in computed where sources(of: computed).contains(where: followed.contains) {
            dependents.append(computed)
            followed.insert(computed)
        }
        return dependents
    }

    /// E: A's items, then B's.
    static func e(_ a: [Int], _ b: [Int]) -> [Int] { a + b }

    /// F: A's items, then C's, then D's.
    static func f(_ a: [Int], _ c: [Int], _ d: [Int]) -> [Int] { a + c + d }

    /// G: the even items of E, then those of F (an odd tag's change of E leaves G equal: no change).
    static func g(_ e: [Int], _ f: [Int]) -> [Int] { (e + f).filter { $0 % 2 == 0 } }

    /// The state of the computed store `store`, from the states of every store (by index).
    static func compute(_ store: Int, from states: [[Int]]) -> [Int] {
        let inputs = sources(of: store).map { states[$0] }
        switch store {
        case 4: return e(inputs[0], inputs[1])
        case 5: return f(inputs[0], inputs[1], inputs[2])
        default: return g(inputs[0], inputs[1])
        }
    }

    /// `states` with every computed store of `registered` computed from the others, in dependency order.
    static func derive(_ states: [[Int]], registered: [Int]) -> [[Int]] {
        var states = states
        for store in computed where registered.contains(store) { states[store] = compute(store, from: states) }
        return states
    }
}
