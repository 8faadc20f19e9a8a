/// A weak reference, read on the test's thread only.
struct Weak<Object: AnyObject> {
    weak var object: Object?
}
