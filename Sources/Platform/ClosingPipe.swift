#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe whose ends close when this process runs another program, so no other child of the
/// app holds them open (a helper's stdin that never ends, a wake that never reaches anyone).
/// Set right after `pipe` (Swift's Glibc does not offer `pipe2`): a program started from
/// another thread in between would inherit them.
public func closingPipe(nonBlocking: Bool = false) -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        if nonBlocking { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    }
    return (ends[0], ends[1])
}
