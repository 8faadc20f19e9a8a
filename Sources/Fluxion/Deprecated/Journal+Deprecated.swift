// Spellings renamed in issue 25, kept for one release; each forwards to its new name.
extension Journal {
    /// Makes the step the stores show the present, discarding the steps after it.
    ///
    /// Renamed ``resumeDiscardingLaterSteps()``: the old name did not say that every step after
    /// the current one is thrown away.
    @available(*, deprecated, renamed: "resumeDiscardingLaterSteps()")
    public func resume() {
        resumeDiscardingLaterSteps()
    }
}
