import ArgumentParser
import Foundation
import Synchronization

/// The exit statuses of both Petrel commands, one contract (as grep and
/// ripgrep): 0 success, 1 a partial or empty result (no hits, some files
/// unreadable, a check that found problems), 2 the command could not do its
/// work (a usage error, a missing or unusable index, a failed write).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    case partial = 1
    case failure = 2

    public var exitCode: ExitCode { ExitCode(rawValue) }
}

/// Thrown by a command's `run()` to end with a status after it has said
/// why (or with nothing more to say).
public struct CommandExit: Error, Sendable {
    public var status: ExitStatus
    public init(_ status: ExitStatus) { self.status = status }
}

/// Runs a command under the exit-status contract, in place of
/// ArgumentParser's default `main()`: help, version and completion scripts
/// exit 0 on stdout; usage errors exit 2 with ArgumentParser's message and
/// usage on stderr; errors a command throws exit 2 with `name: message`.
public enum CommandRunner {
    public static func main<Command: ParsableCommand>(_ type: Command.Type, arguments: [String]? = nil) -> Never {
        endsProcess.withLock { $0 = true }
        finish(run(type, arguments: arguments))
    }

    /// Runs `body`, a command's work on arguments it read without
    /// ArgumentParser, under the same contract (what it throws ends the
    /// process as the command's `run()` would).
    public static func main<Command: ParsableCommand>(_ type: Command.Type, running body: () throws -> Void) -> Never {
        endsProcess.withLock { $0 = true }
        finish(run(type, running: body))
    }

    /// Whether the command runs through `main`, so that the process ends
    /// when it returns (false while tests call `run`).
    private static let endsProcess = Mutex(false)
    private static let keptUntilExit = Mutex<[any AnyObject & Sendable]>([])

    /// Keeps `object` until the process exits, when the command runs as a
    /// process: its deinitializer never runs, and the operating system
    /// releases what it holds. For what needs no closing, such as a
    /// read-only SQLite connection: closing one, with its dispatch queue,
    /// was about a millisecond of a 7 ms `petrel-search` process. Under
    /// tests, which call `run`, nothing is kept.
    public static func keepUntilExit(_ object: any AnyObject & Sendable) {
        guard endsProcess.withLock({ $0 }) else { return }
        keptUntilExit.withLock { $0.append(object) }
    }

    /// Prints `text` on stdout and exits 0, as help and version do.
    public static func succeed(printing text: String) -> Never {
        finish((.success, text, ""))
    }

    private static func finish(_ outcome: (status: ExitStatus, stdout: String, stderr: String)) -> Never {
        if !outcome.stdout.isEmpty { StandardStreams.writeOutputIgnoringErrors(outcome.stdout) }
        if !outcome.stderr.isEmpty { StandardStreams.writeError(outcome.stderr) }
        exit(outcome.status.rawValue)
    }

    /// What `main` prints and returns, without printing or exiting (for tests).
    public static func run<Command: ParsableCommand>(_ type: Command.Type, arguments: [String]?) -> (status: ExitStatus, stdout: String, stderr: String) {
        run(type) {
            var command = try type.parseAsRoot(arguments)
            try command.run()
        }
    }

    /// What `main(_:running:)` prints and returns, without printing or exiting.
    public static func run<Command: ParsableCommand>(_ type: Command.Type, running body: () throws -> Void) -> (status: ExitStatus, stdout: String, stderr: String) {
        let name = type.configuration.commandName ?? "command"
        do {
            try body()
            return (.success, "", "")
        } catch let exit as CommandExit {
            return (exit.status, "", "")
        } catch let exit as ExitCode {
            let status = ExitStatus(rawValue: exit.rawValue) ?? (exit.rawValue == 0 ? .success : .failure)
            return (status, "", "")
        } catch let error as StandardStreams.WriteError {
            return (.failure, "", "\(name): error: \(error)\n")
        } catch {
            let code = type.exitCode(for: error)
            let message = type.fullMessage(for: error)
            if code == .success { return (.success, message.isEmpty ? "" : message + "\n", "") }
            if code == .validationFailure { return (.failure, "", message + "\n") }
            return (.failure, "", "\(name): error: \(message.isEmpty ? String(describing: error) : message)\n")
        }
    }
}
