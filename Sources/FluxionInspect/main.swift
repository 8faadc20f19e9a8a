// fluxion-inspect: a journal file's summary, or its viewer page. The logic is `InspectCommand`'s
// (FluxionInspector), tested there; this prints what it returns and exits with its status.

import FluxionInspector
import Foundation

let outcome = InspectCommand.outcome(of: Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(outcome.output.utf8))
FileHandle.standardError.write(Data(outcome.errorOutput.utf8))
exit(outcome.status)
