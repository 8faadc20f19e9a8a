@_spi(Reflection) import Swift

/// What a diff asks of a type, worked out once per type: whether it is `Equatable` (and how to compare two of
/// its values), whether it prints as its own diff, and, for a plain struct, where its stored properties are.
///
/// A diff asks the same questions of the same types at every change. Asked of a value, each is a dynamic
/// cast that searches the type's conformances, and `Mirror` looks each field's type up by its mangled name
/// on every read: together most of what a journal's diff cost. Asked once and kept, they cost a look-up.
struct TypeShape {
    /// One stored property of a struct, as `Mirror` lists it: its name, where it is in the value, its type.
    struct Field {
        let label: String
        let offset: Int
        let type: Any.Type
    }

    /// The type as `Equatable`, if it is.
    private let equatable: (any Equatable.Type)?
    /// Whether a value has no fields to compare, and prints as its diff would: a number, a string, a Boolean.
    let isPlain: Bool
    /// A struct's stored properties, in `Mirror`'s order, read straight from a value; `nil` when `Mirror`
    /// must read the type: anything but a struct, a type with its own mirror (`CustomReflectable`), or a
    /// struct with a field that may be a `weak` or `unowned` reference (a class, an existential, or an
    /// optional of one), whose storage is not a plain value.
    let fields: [Field]?

    /// The shape of `type`, worked out on its first use.
    static func of(_ type: Any.Type) -> TypeShape {
        let key = ObjectIdentifier(type)
        if let shape = shapes.withLock({ $0[key] }) { return shape }
        let shape = TypeShape(type)
        shapes.withLock { $0[key] = shape }
        return shape
    }

    /// The shapes worked out so far: types live as long as the process.
    private static let shapes = Guarded<[ObjectIdentifier: TypeShape]>([:])

    private init(_ type: Any.Type) {
        equatable = type as? any Equatable.Type
        isPlain =
            type is any BinaryInteger.Type || type == String.self || type == Bool.self
            || type is any BinaryFloatingPoint.Type
        fields = Self.storedProperties(of: type)
    }

    /// The values of a struct's stored properties, in the order of `fields`; `nil` when it has no storage
    /// (a struct of empty fields), which `Mirror` reads instead.
    func values(of value: Any) -> [Any]? {
        guard let fields else { return nil }
        func read<Value>(_ value: Value) -> [Any]? {
            withUnsafeBytes(of: value) { bytes -> [Any]? in
                guard let base = bytes.baseAddress else { return nil }
                return fields.map { field in Self.load(field.type, from: base + field.offset) }
            }
        }
        return _openExistential(value, do: read)
    }

    private static func load<Value>(_ type: Value.Type, from address: UnsafeRawPointer) -> Any {
        address.assumingMemoryBound(to: Value.self).pointee
    }

    /// Whether `first`, a value of this type, equals `second`, when the type is `Equatable`; `nil` when it is not.
    /// A `second` of another type is not equal.
    func isEqual(_ first: Any, _ second: Any) -> Bool? {
        guard let equatable else { return nil }
        func compare<Value: Equatable>(_ type: Value.Type) -> Bool {
            guard let first = first as? Value, let second = second as? Value else { return false }
            return first == second
        }
        return compare(equatable)
    }

    /// A plain struct's stored properties; `nil` for any other type (see `fields`).
    private static func storedProperties(of type: Any.Type) -> [Field]? {
        guard isStruct(type), !(type is any CustomReflectable.Type) else { return nil }
        var fields: [Field] = []
        var isPlainStorage = true
        let isComplete = _forEachField(of: type, options: []) { name, offset, fieldType, kind in
            guard isPlainValue(fieldType, kind) else {
                isPlainStorage = false
                return false
            }
            fields.append(Field(label: String(cString: name), offset: offset, type: fieldType))
            return true
        }
        return isComplete && isPlainStorage ? fields : nil
    }

    /// Whether a stored property of this type and kind holds a plain value: not a reference that could be
    /// `weak` or `unowned`, whose storage differs from the type's own.
    private static func isPlainValue(_ type: Any.Type, _ kind: _MetadataKind) -> Bool {
        switch kind {
        case .struct, .enum, .tuple, .function: return true
        case .optional:
            guard let wrapped = (type as? any OptionalType.Type)?.wrappedType else { return false }
            return Self.kind(of: wrapped).map {
                ![.class, .existential, .foreignClass, .objcClassWrapper].contains($0)
            } ?? false
        default: return false
        }
    }

    private static func isStruct(_ type: Any.Type) -> Bool {
        kind(of: type) == .struct
    }

    /// The kind of a type, read as the kind of a field of that type.
    private static func kind(of type: Any.Type) -> _MetadataKind? {
        func fieldKind<Value>(_ type: Value.Type) -> _MetadataKind? {
            var found: _MetadataKind?
            _forEachField(of: Holder<Value>.self, options: []) { _, _, _, kind in
                found = kind
                return false
            }
            return found
        }
        return fieldKind(type)
    }

    /// A struct with one field, whose kind is the kind of `Value`.
    private struct Holder<Value> {
        var value: Value
    }
}

/// An `Optional` type, whose wrapped type can be asked of the metatype.
private protocol OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
    fileprivate static var wrappedType: Any.Type { Wrapped.self }
}
